/**
 * What a crawl learns from the order it found URLs in, rebuilt for imported
 * rows once they are all read: each row's depth (link hops from the start),
 * referrer (the page whose link led there first), kind (a page, a linked
 * file, or a resource a page or stylesheet loads), inlinks (pages linking
 * to it) and anchor texts. An archive does not say; its pages' links do.
 *
 * Walked breadth first from the start URLs, as the crawl admits URLs: a
 * page's links (then its canonical) one hop deeper, its resources and its redirect's target at its
 * own depth. A row on another site than the crawl's scope allows (a page a
 * spanning crawler such as `wget -H` captured) is what the crawl makes of a
 * link to another site: `external`, its own links not followed nor counted as
 * inlinks (its redirect is followed, a hop back into the scope being a page
 * again); a page resource stays a `resource` whatever its host. Rows the walk
 * does not reach (captured by a browser for a script, or outside the links)
 * are depth 0, with the referrer the archive gave them when that is a row,
 * and their kind as the mapping set it (`external` for a page or file on
 * another site).
 *
 * Memory: one small entry per URL seen (rows and link targets), and each
 * row's links as numbers with their texts; not the rows.
 */
import { canonicalOf } from '../core/page-facts/indexability.ts';
import { isHtmlType, parseContentType } from '../core/links/decode-html.ts';
import type { PageRecord, RowKind } from '../core/model.ts';
import { MAX_TEXTS_PER_LINK } from '../core/links/extract-links.ts';
import { normalizeUrl } from '../core/url/normalize-url.ts';
import { createScope } from '../core/url/scope.ts';

/** What the walk reads of a row. */
export type GraphRow = Pick<
  PageRecord,
  'url' | 'kind' | 'status' | 'contentType' | 'location' | 'links' | 'linkTexts' | 'resources' | 'referrer' | 'facts'
>;

/** The fields the walk sets on a row. */
export type GraphFields = Pick<PageRecord, 'depth' | 'referrer' | 'kind' | 'inlinks' | 'anchors'>;

/**
 * Whether a URL is on another site than the crawl's scope allows: another host (or port) or scheme, as
 * the crawl tells a link to another site (`createScope`'s `host` and `scheme` reasons; a URL of the site
 * left out by a path prefix or a pattern is not another site).
 */
export function otherSiteTest(settings: Parameters<typeof createScope>[0]): (url: string) => boolean {
  const scope = createScope(settings);
  return (url) => {
    const verdict = scope.check(url);
    return !verdict.inScope && (verdict.reason === 'host' || verdict.reason === 'scheme');
  };
}

interface Node {
  url: string;
  /** Set when the URL has a row. */
  row: {
    kind: RowKind;
    /** `page`, or `file` for a 2xx answer that is not HTML: what a link to it makes it. */
    linkedKind: 'page' | 'file';
    links: Int32Array;
    texts: string[];
    resources: Int32Array;
    redirect: number;
    /** The canonical it names when another URL (the crawl fetches it as a page); -1 when none. */
    canonical: number;
    referrer: number;
    /** An HTML page of the site: its links count as inlinks. */
    isPage: boolean;
    /** On another site than the scope allows. */
    isOtherSite: boolean;
  } | null;
}

export class LinkGraph {
  private readonly ids = new Map<string, number>();
  private readonly nodes: Node[] = [];

  /**
   * @param isOtherSite whether a URL is on another site than the crawl's scope allows ({@link otherSiteTest}).
   *   @default none is
   */
  constructor(private readonly isOtherSite: (url: string) => boolean = () => false) {}

  private idOf(url: string): number {
    let id = this.ids.get(url);
    if (id === undefined) {
      id = this.nodes.length;
      this.ids.set(url, id);
      this.nodes.push({ url, row: null });
    }
    return id;
  }

  /** Adds a row (rows are added in `seq` order; anchors keep that order). */
  add(row: GraphRow): void {
    const id = this.idOf(row.url);
    const { mediaType } = parseContentType(row.contentType);
    const success = row.status !== null && row.status >= 200 && row.status < 300;
    const linkedKind = success && mediaType !== null && !isHtmlType(mediaType) ? 'file' : 'page';
    const target =
      row.location === null || row.status === null || row.status < 300 || row.status >= 400
        ? null
        : normalizeUrl(row.location);
    const canonical = row.facts === undefined || row.facts === null ? null : canonicalOf(row.facts);
    const node = this.nodes[id];
    if (node === undefined || node.row !== null) return;
    const isOtherSite = this.isOtherSite(row.url);
    node.row = {
      kind: row.kind,
      linkedKind,
      links: Int32Array.from(row.links, (url) => this.idOf(url)),
      texts: row.linkTexts.slice(),
      resources: Int32Array.from(row.resources, (url) => this.idOf(url)),
      redirect: target === null ? -1 : this.idOf(target),
      canonical: canonical === null || canonical === row.url ? -1 : this.idOf(canonical),
      referrer: row.referrer === null ? -1 : this.idOf(row.referrer),
      isPage: !isOtherSite && row.kind === 'page' && success && (mediaType === null || isHtmlType(mediaType)),
      isOtherSite,
    };
  }

  /**
   * The fields of every row, by URL.
   * @param starts the start URLs (normalized): a WACZ's `mainPageUrl` or seed pages, a warcinfo's start URL;
   *   none given, the first HTML page answered 2xx.
   */
  fields(starts: readonly string[]): Map<string, GraphFields> {
    const count = this.nodes.length;
    const depth = new Int32Array(count).fill(-1);
    const parent = new Int32Array(count).fill(-1);
    const kinds: (RowKind | null)[] = new Array<RowKind | null>(count).fill(null);
    const inlinks = new Int32Array(count);
    const anchors: string[][] = Array.from({ length: count }, () => []);

    for (const node of this.nodes) {
      if (node.row === null || !node.row.isPage) continue;
      const seen = new Set<number>();
      node.row.links.forEach((target, i) => {
        if (!seen.has(target)) {
          seen.add(target);
          inlinks[target] = (inlinks[target] ?? 0) + 1;
        }
        const text = node.row?.texts[i] ?? '';
        const list = anchors[target];
        if (list !== undefined && text !== '' && list.length < MAX_TEXTS_PER_LINK && !list.includes(text))
          list.push(text);
      });
    }

    let seeds = starts
      .map((url) => this.ids.get(url))
      .filter((id): id is number => id !== undefined && this.nodes[id]?.row !== null);
    if (seeds.length === 0) {
      const first = this.nodes.findIndex((node) => node.row?.isPage === true);
      seeds = first === -1 ? [] : [first];
    }
    // Breadth first, one depth at a time; a redirect or a resource stays at its source's depth (same round).
    let round: number[] = [];
    for (const id of seeds) {
      if (depth[id] !== -1) continue;
      depth[id] = 0;
      kinds[id] = this.nodes[id]?.row?.linkedKind ?? 'page';
      round.push(id);
    }
    /** What a link or a redirect to a row makes it: `external` on another site, else by its answer. */
    const linkedKindOf = (target: number): RowKind => {
      const targetRow = this.nodes[target]?.row;
      return targetRow?.isOtherSite === true ? 'external' : (targetRow?.linkedKind ?? 'page');
    };
    for (let level = 0; round.length > 0; level += 1) {
      const next: number[] = [];
      for (let i = 0; i < round.length; i += 1) {
        const id = round[i] ?? 0;
        const row = this.nodes[id]?.row;
        if (!row) continue;
        const reach = (target: number, kind: RowKind, atDepth: number, queue: number[]): void => {
          const node = this.nodes[target];
          if (target < 0 || !node?.row || depth[target] !== -1) return;
          depth[target] = atDepth;
          parent[target] = id;
          kinds[target] = kind;
          queue.push(target);
        };
        if (row.redirect >= 0)
          reach(row.redirect, kinds[id] === 'resource' ? 'resource' : linkedKindOf(row.redirect), level, round);
        // A row of another site is checked, never read: only its redirect is followed.
        if (kinds[id] === 'external') continue;
        for (const target of row.resources) reach(target, 'resource', level, round);
        if (row.isPage) for (const target of row.links) reach(target, linkedKindOf(target), level + 1, next);
        if (row.isPage && row.canonical >= 0) reach(row.canonical, linkedKindOf(row.canonical), level + 1, next);
      }
      round = next;
    }

    const out = new Map<string, GraphFields>();
    this.nodes.forEach((node, id) => {
      if (node.row === null) return;
      const reached = depth[id] !== -1;
      const referrer = reached
        ? (parent[id] ?? -1)
        : node.row.referrer >= 0 && this.nodes[node.row.referrer]?.row
          ? node.row.referrer
          : -1;
      out.set(node.url, {
        depth: reached ? (depth[id] ?? 0) : 0,
        referrer: referrer >= 0 ? (this.nodes[referrer]?.url ?? null) : null,
        kind: reached
          ? (kinds[id] ?? node.row.kind)
          : node.row.isOtherSite && (node.row.kind === 'page' || node.row.kind === 'file')
            ? 'external'
            : node.row.kind,
        inlinks: inlinks[id] ?? 0,
        anchors: anchors[id] ?? [],
      });
    });
    return out;
  }
}

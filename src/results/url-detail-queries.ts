/**
 * What the URL detail computes from whole rows: the redirect chain through a
 * URL, the pages linking to it and the rows using it as a page resource, the
 * status of its outgoing links and of its own page resources. Each is a
 * small function over a {@link RowReader}: no Preact, no browser APIs.
 */
import type { CrawlRecord, PageRecord, RowKind } from '../core/model.ts';
import { createScope } from '../core/url/scope.ts';
import { isBrokenResource, isRedirectStatus } from '../audit/row-health.ts';
import { MAX_REDIRECT_HOPS } from '../core/url/traps.ts';
import { walkRedirectsAsync, type RedirectStep } from '../audit/redirect-chains.ts';
import type { RowReader } from './row-reader.ts';

/** One URL of a redirect chain. */
export interface ChainHop {
  url: string;
  /** The URL's row; undefined when the chain leads to a URL that was never recorded. */
  row: PageRecord | undefined;
  /** The URL appeared earlier in the chain: here the chain loops, and stops. */
  isRepeat: boolean;
}

export interface RedirectChain {
  /** In redirect order: the first source first, the final target last. */
  hops: ChainHop[];
  /** Index in {@link hops} of the URL the chain was built for. */
  selfIndex: number;
  /** A URL repeats: the chain is a loop (its repeating hop is marked). */
  hasLoop: boolean;
  /** The chain was cut at the hop limit. */
  isCut: boolean;
}

/** Whether `row` is a 3xx answer redirecting to `target`. */
function redirectsTo(row: PageRecord, target: string): boolean {
  return isRedirectStatus(row.status) && row.location === target;
}

/**
 * The redirect chain through `row`.
 *
 * Forward: follows `location` row by row while the answer is a 3xx and the
 * target has a row. Backward: a redirect target is admitted with its source as
 * `referrer`, so the chain walks referrers while the referrer's row is a 3xx
 * whose `location` is the URL (a URL first reached by a link and only later by
 * a redirect shows no source: there is no index on `location`). At most
 * {@link MAX_REDIRECT_HOPS} hops each way; a repeated URL ends the chain and
 * marks the loop.
 */
export async function redirectChain(
  reader: RowReader,
  row: PageRecord,
  maxHops = MAX_REDIRECT_HOPS,
): Promise<RedirectChain> {
  const seen = new Set<string>([row.url]);
  const before: ChainHop[] = [];
  let hasLoop = false;
  let isCut = false;

  let current = row;
  for (let hops = 0; ; hops += 1) {
    const referrer = current.referrer;
    if (referrer === null) break;
    if (hops >= maxHops) {
      isCut = true;
      break;
    }
    const source = await reader.getRow(row.crawlId, referrer);
    if (source === undefined || !redirectsTo(source, current.url)) break;
    if (seen.has(source.url)) {
      // The loop shows once, from the forward walk; the backward walk just stops.
      hasLoop = true;
      break;
    }
    seen.add(source.url);
    before.unshift({ url: source.url, row: source, isRepeat: false });
    current = source;
  }

  // Forward: the one walker (`audit/redirect-chains.ts`), a backward hop counting as on the chain.
  const rows = new Map<string, PageRecord | undefined>([[row.url, row]]);
  const redirectOf = async (url: string): Promise<RedirectStep | undefined> => {
    const found = rows.has(url) ? rows.get(url) : await reader.getRow(row.crawlId, url);
    rows.set(url, found);
    return found !== undefined && isRedirectStatus(found.status) && found.location !== null
      ? { location: found.location }
      : undefined;
  };
  const walk = await walkRedirectsAsync(row.url, redirectOf, {
    maxFollows: maxHops,
    alreadyOn: before.map((hop) => hop.url),
  });
  const after: ChainHop[] = walk.hops.slice(1).map((url) => ({ url, row: rows.get(url), isRepeat: false }));
  if (walk.end.kind === 'loop') {
    hasLoop = true;
    after.push({ url: walk.end.url, row: await reader.getRow(row.crawlId, walk.end.url), isRepeat: true });
  } else if (walk.end.kind === 'limit') {
    isCut = true;
    if (walk.end.url !== row.url) after.push({ url: walk.end.url, row: rows.get(walk.end.url), isRepeat: false });
  } else if (walk.end.kind === 'exit' && walk.end.url !== row.url) {
    after.push({ url: walk.end.url, row: rows.get(walk.end.url), isRepeat: false });
  }

  return {
    hops: [...before, { url: row.url, row, isRepeat: false }, ...after],
    selfIndex: before.length,
    hasLoop,
    isCut,
  };
}

/** A page linking to the URL. */
export interface Inlink {
  url: string;
  title: string | null;
  /** Anchor text of that page's first link to the URL ("" when it had none). */
  anchorText: string;
}

/** A row that uses the URL as a page resource: a page, or a stylesheet (its imports, fonts, images). */
export interface ResourceUser {
  url: string;
  kind: RowKind;
  title: string | null;
}

/** What a scan of the crawl found pointing to a URL. */
export interface ReferenceScan {
  /** Rows whose `links` contain the URL, in `seq` order. */
  inlinks: Inlink[];
  /** The inlinks stopped at `maxMatches`: there may be more. */
  isCapped: boolean;
  /** Rows whose `resources` contain the URL, in `seq` order. */
  users: ResourceUser[];
  /** The users stopped at `maxMatches`: there may be more. */
  isUsersCapped: boolean;
  /** Rows looked at. */
  scannedRows: number;
}

export interface ReferenceScanOptions {
  /** Rows read per step. @default 500 */
  pageSize?: number;
  /** Matches kept of each list (inlinks, users); the scan stops when both have this many. @default 200 */
  maxMatches?: number;
  /**
   * The list that matters (a page's inlinks, a resource's users): the scan
   * stops as soon as it holds `maxMatches`, and the other list is then marked
   * capped too if rows were left unread. Without it, the scan stops when both are full.
   */
  primary?: 'inlinks' | 'users';
  /** Stops the scan (it then rejects with the signal's reason). */
  signal?: AbortSignal;
  /** Called after every step with the matches so far. */
  onProgress?: (scan: ReferenceScan) => void;
}

/**
 * The rows that link to `url` (their `links` contain it) and the rows that
 * use it as a page resource (their `resources` contain it), each in `seq`
 * order. There is no index on links or resources: this scans the crawl table
 * in `seq` order, `pageSize` rows a step, in one pass for both lists, and
 * stops when both hold `maxMatches` (or the `primary` one does).
 */
export async function findReferences(
  reader: RowReader,
  crawlId: string,
  url: string,
  options: ReferenceScanOptions = {},
): Promise<ReferenceScan> {
  const pageSize = options.pageSize ?? 500;
  const maxMatches = options.maxMatches ?? 200;
  const scan: ReferenceScan = { inlinks: [], isCapped: false, users: [], isUsersCapped: false, scannedRows: 0 };
  const copy = (): ReferenceScan => ({ ...scan, inlinks: [...scan.inlinks], users: [...scan.users] });
  let afterSeq = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const rows = await reader.rowsAfter(crawlId, afterSeq, pageSize);
    options.signal?.throwIfAborted();
    for (const row of rows) {
      scan.scannedRows += 1;
      const index = scan.isCapped ? -1 : row.links.indexOf(url);
      if (index >= 0) {
        scan.inlinks.push({ url: row.url, title: row.title, anchorText: row.linkTexts[index] ?? '' });
        scan.isCapped = scan.inlinks.length >= maxMatches;
      }
      // `?? []`: rows handed out by readers that do not fill it in (stored before resources were archived).
      if (!scan.isUsersCapped && (row.resources ?? []).includes(url)) {
        scan.users.push({ url: row.url, kind: row.kind, title: row.title });
        scan.isUsersCapped = scan.users.length >= maxMatches;
      }
      const isDone =
        options.primary === 'inlinks'
          ? scan.isCapped
          : options.primary === 'users'
            ? scan.isUsersCapped
            : scan.isCapped && scan.isUsersCapped;
      if (isDone) {
        // Stopped early: the other list may have more.
        scan.isCapped = true;
        scan.isUsersCapped = true;
        return scan;
      }
    }
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < pageSize) return scan;
    afterSeq = last.seq;
    options.onProgress?.(copy());
  }
}

/** One page resource of a row and what became of it. */
export interface ResourceUse {
  url: string;
  /** Its row when it was fetched (or blocked). */
  row: PageRecord | undefined;
  /** Its row is broken: 400 or more, a network failure, or blocked by robots.txt. */
  isBroken: boolean;
  /** Why it has no row; null when it has one. */
  notFetchedReason: string | null;
}

/** Why a resource of a row has no row of its own. */
export function notFetchedReason(crawl: CrawlRecord | undefined): string {
  if (crawl?.state === 'running' || crawl?.state === 'paused') return 'not fetched yet';
  return 'not fetched (resource budget spent, or the crawl ended first)';
}

/** The page resources of `row` in document order, each with its row, whether it is broken, or why it has none. */
export async function resourcesOf(
  reader: RowReader,
  crawl: CrawlRecord | undefined,
  row: PageRecord,
): Promise<ResourceUse[]> {
  const resources = row.resources ?? [];
  const rows = await reader.getRows(row.crawlId, resources);
  return resources.map((url, index) => {
    const target = rows[index];
    return {
      url,
      row: target,
      isBroken: target !== undefined && isBrokenResource(target),
      notFetchedReason: target === undefined ? notFetchedReason(crawl) : null,
    };
  });
}

/** One outgoing link of a page and what became of it. */
export interface Outlink {
  url: string;
  anchorText: string;
  /** Its row when it was crawled (or blocked). */
  row: PageRecord | undefined;
  /** Why it has no row; null when it has one. */
  notCrawledReason: string | null;
}

/** Why a link the scope refuses for its scheme was not crawled: not a web link (`mailto:`), or the start site over another scheme. */
function schemeReason(startUrl: string, url: string): string {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return 'not a valid URL';
  }
  if (protocol !== 'http:' && protocol !== 'https:') return `not a web link (${protocol})`;
  const startProtocol = new URL(startUrl).protocol.replace(/:$/, '');
  return `out of scope (${protocol.replace(/:$/, '')}, the crawl is of ${startProtocol})`;
}

/** Why a linked URL without a row was not crawled, from the crawl's settings. */
export function notCrawledReason(crawl: CrawlRecord | undefined, source: PageRecord, url: string): string {
  if (crawl === undefined) return 'not crawled';
  const verdict = createScope(crawl.settings).check(url);
  if (!verdict.inScope) {
    switch (verdict.reason) {
      case 'scheme':
        return schemeReason(crawl.settings.startUrl, url);
      case 'host':
        return 'another site: not crawled';
      case 'prefix':
        return 'out of scope (path prefix)';
      case 'excluded':
        return verdict.pattern === undefined
          ? 'out of scope (excluded)'
          : `out of scope (excluded by ${verdict.pattern})`;
    }
  }
  if (source.depth + 1 > crawl.settings.maxDepth) return 'not queued (beyond max depth)';
  if (crawl.state === 'running') return 'not crawled yet';
  return 'not queued (page budget spent or crawl ended)';
}

/** The links of `row` in document order, each with its row or why it has none. */
export async function outlinks(reader: RowReader, crawl: CrawlRecord | undefined, row: PageRecord): Promise<Outlink[]> {
  const rows = await reader.getRows(row.crawlId, row.links);
  return row.links.map((url, index) => {
    const target = rows[index];
    return {
      url,
      anchorText: row.linkTexts[index] ?? '',
      row: target,
      notCrawledReason: target === undefined ? notCrawledReason(crawl, row, url) : null,
    };
  });
}

/**
 * A page found by a link (or a redirect, a sitemap, a canonical, the start
 * URL). An HTML answer is read: its title, its links and its canonical
 * (followed within the scope) and, when the crawl archives them, its
 * resources. A successful answer that is not HTML is a linked file (a PDF,
 * an image, an archive…): its body is stored when the crawl downloads files
 * and the resource budget has room, up to `maxFileBytes`; nothing is
 * followed from it.
 */
import { canonicalOf } from '../../page-facts/indexability.ts';
import { applyRules, hasRules } from '../../custom-rules/apply-rules.ts';
import { rulesOf } from '../../custom-rules/rules-of.ts';
import { pageFactsOf } from '../../page-facts/response-facts.ts';
import { decodeHtml, isHtmlType, looksBinary, parseContentType } from '../../links/decode-html.ts';
import { extractLinks, type ExtractedLink, type PageLinks } from '../../links/extract-links.ts';
import type { FrontierEntry, PageRecord } from '../../model.ts';
import { renderReason, renderSignalsOf, type RenderSignals } from '../../page-facts/render-rule.ts';
import { renderModeOf, type CrawlSettings } from '../../settings.ts';
import { originOf } from '../../url/normalize-url.ts';
import { createScope } from '../../url/scope.ts';
import type { Candidate } from '../candidate.ts';
import {
  archivesResources,
  downloadsFiles,
  fileByteCap,
  isSuccess,
  NOTHING_FOUND,
  PAGE_LIKE,
  resourceBudgetLeft,
  resourceCandidate,
  type WorkKind,
} from './work-kind.ts';

/**
 * Most outgoing links kept on one row, and followed, per page: the first ones
 * in document order. A page with 100,000 links costs no more than one with 10,000.
 */
export const MAX_LINKS_PER_PAGE = 10_000;

/** Whether an answer with this `Content-Type` is read as HTML: HTML, or no type at all (sniffed later, as a browser does). */
const readsAsHtml = (contentType: string | null): boolean => contentType === null || isHtmlType(contentType);

export const pageKind: WorkKind = {
  ...PAGE_LIKE,
  headFirst: (settings) => settings.headBeforeGet,
  // A linked file counts as a file (`files`, in the resource budget); an HTML page in `done` only.
  rowCounters: { file: 'files' },
  // A file downloaded while another took the resource budget's last place: recorded with its headers only.
  keepsBody: (crawl, row) => row.kind !== 'file' || resourceBudgetLeft(crawl),

  bodyLimit(crawl, status, contentType) {
    const { settings } = crawl;
    if (readsAsHtml(contentType)) return settings.maxBodyBytes;
    if (isSuccess(status) && downloadsFiles(settings) && resourceBudgetLeft(crawl)) return fileByteCap(settings);
    return 0;
  },

  async read(crawl, entry, row, body) {
    const { settings } = crawl;
    const { mediaType } = parseContentType(row.contentType);
    // Served without a Content-Type: read as HTML, as a browser sniffs it, unless it is binary.
    const isFile =
      (mediaType !== null && !isHtmlType(mediaType)) || (mediaType === null && body !== null && looksBinary(body));
    if (isFile) {
      row.kind = 'file';
      return NOTHING_FOUND;
    }
    if (body === null) return NOTHING_FOUND;
    const { text, charset } = decodeHtml(body, row.contentType);
    const { found, kept } = readHtmlInto(row, text, charset, settings);
    const resources = archivesResources(settings) ? found.resources : [];
    row.resources = resources;
    const resourceCandidates = resources.map((url) => resourceCandidate(url, originOf(url), entry));
    if (found.metaNofollow && !settings.followNofollow)
      return { follow: [], resources: resourceCandidates, render: renderWhy(settings, text, row) };
    const follow = linkCandidates(kept, entry, settings.followNofollow);
    const canonical = canonicalCandidate(row, entry.url, entry.depth);
    if (canonical !== null) follow.push(canonical);
    return { follow, resources: resourceCandidates, render: renderWhy(settings, text, row) };
  },
};

/**
 * Reads an HTML page's text into its row: its title, its links (at most {@link MAX_LINKS_PER_PAGE}) and
 * their texts, its facts. The static fetch and the render (`render/rendered-page.ts`) read alike.
 * @returns what was extracted, and the links kept.
 */
export function readHtmlInto(
  row: PageRecord,
  text: string,
  charset: string,
  settings: CrawlSettings,
): { found: PageLinks; kept: ExtractedLink[] } {
  const found = extractLinks(text, row.url, charset, { productToken: settings.productToken });
  row.title = found.title;
  // extractLinks lists each URL once, with the text of its first link (and every distinct one in `texts`).
  const kept = found.links.slice(0, MAX_LINKS_PER_PAGE);
  row.links = kept.map((l) => l.url);
  row.linkTexts = kept.map((l) => l.text);
  row.linkElements = kept.map((l) => l.element);
  row.linkRels = kept.map((l) => l.rel);
  const scope = createScope(settings);
  const facts = pageFactsOf(found.facts, {
    pageUrl: row.url,
    headers: row.headers,
    links: found.links.map((l) => l.url),
    scope,
    productToken: settings.productToken,
  });
  // Only fragments of pages the crawl may hold can be checked against their anchors.
  row.facts = { ...facts, fragmentLinks: facts.fragmentLinks.filter((link) => scope.check(link.url).inScope) };
  const rules = rulesOf(settings);
  if (hasRules(rules)) row.custom = applyRules(text, rules);
  return { found, kept };
}

/**
 * The links of a page as candidates to follow (those with `rel="nofollow"` left out unless `followNofollow`):
 * one per distinct text of a link (`admit` counts a URL once per page, and keeps every text).
 */
export function linkCandidates(
  links: readonly ExtractedLink[],
  page: Pick<FrontierEntry, 'url' | 'depth'>,
  followNofollow: boolean,
): Candidate[] {
  return links
    .filter((link) => followNofollow || !link.nofollow)
    .flatMap((link) =>
      (link.texts.length === 0 ? [null] : link.texts).map((anchor): Candidate => ({
        url: link.url,
        origin: originOf(link.url),
        kind: 'page',
        depth: page.depth + 1,
        referrer: page.url,
        anchor,
        isLink: true,
      })),
    );
}

/** Why the crawl renders this HTML page (see `render-rule.ts`), or null. The rule's own pass runs only in `auto`. */
function renderWhy(settings: CrawlSettings, html: string, row: PageRecord): string | null {
  const mode = renderModeOf(settings);
  if (mode !== 'auto') return renderReason(mode, NO_SIGNALS, { words: 0, links: 0 });
  return renderReason(mode, renderSignalsOf(html), { words: row.facts?.wordCount ?? 0, links: row.links.length });
}

/** The signals `always` and `off` do not read. */
const NO_SIGNALS: RenderSignals = Object.freeze({ scripts: 0, emptyMount: null, noscript: null });

/**
 * The page's canonical (its `<link rel="canonical">`, else its `Link` header's) when it names another
 * URL, as a page to fetch, as Screaming Frog does by default: whether the canonical answers 200 is an
 * audit check (`canonical-to-non-200`), which can only judge a target the crawl fetched. Admitted like a
 * link (the scope, the depth limit, the traps, the page budget), but not one: no inlink, no anchor text.
 */
export function canonicalCandidate(row: PageRecord, pageUrl: string, depth: number): Candidate | null {
  const canonical = row.facts === undefined || row.facts === null ? null : canonicalOf(row.facts);
  if (canonical === null || canonical === pageUrl) return null;
  return {
    url: canonical,
    origin: originOf(canonical),
    kind: 'page',
    depth: depth + 1,
    referrer: pageUrl,
    anchor: null,
    isLink: false,
  };
}

/** Whether a row is a page whose body is HTML (or was: its kind was settled when it was read). */
export const isHtmlPageRow = (row: Pick<PageRecord, 'kind' | 'contentType'>): boolean =>
  row.kind === 'page' && readsAsHtml(row.contentType);

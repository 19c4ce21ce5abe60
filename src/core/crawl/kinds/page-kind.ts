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
import { pageFactsOf } from '../../page-facts/response-facts.ts';
import { decodeHtml, isHtmlType, looksBinary, parseContentType } from '../../links/decode-html.ts';
import { extractLinks } from '../../links/extract-links.ts';
import type { PageRecord } from '../../model.ts';
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
    const found = extractLinks(text, entry.url, charset, { productToken: settings.productToken });
    row.title = found.title;
    // extractLinks lists each URL once, with the text of its first link (and every distinct one in `texts`).
    const kept = found.links.slice(0, MAX_LINKS_PER_PAGE);
    row.links = kept.map((l) => l.url);
    row.linkTexts = kept.map((l) => l.text);
    const scope = createScope(settings);
    const facts = pageFactsOf(found.facts, {
      pageUrl: entry.url,
      headers: row.headers,
      links: found.links.map((l) => l.url),
      scope,
      productToken: settings.productToken,
    });
    // Only fragments of pages the crawl may hold can be checked against their anchors.
    row.facts = { ...facts, fragmentLinks: facts.fragmentLinks.filter((link) => scope.check(link.url).inScope) };
    const resources = archivesResources(settings) ? found.resources : [];
    row.resources = resources;
    const resourceCandidates = resources.map((url) => resourceCandidate(url, originOf(url), entry));
    if (found.metaNofollow && !settings.followNofollow) return { follow: [], resources: resourceCandidates };
    // One candidate per distinct text of a link (`admit` counts a URL once per page, and keeps every text).
    const follow = kept
      .filter((link) => settings.followNofollow || !link.nofollow)
      .flatMap((link) =>
        (link.texts.length === 0 ? [null] : link.texts).map((anchor): Candidate => ({
          url: link.url,
          origin: originOf(link.url),
          kind: 'page',
          depth: entry.depth + 1,
          referrer: entry.url,
          anchor,
          isLink: true,
        })),
      );
    const canonical = canonicalCandidate(row, entry.url, entry.depth);
    if (canonical !== null) follow.push(canonical);
    return { follow, resources: resourceCandidates };
  },
};

/**
 * The page's canonical (its `<link rel="canonical">`, else its `Link` header's) when it names another
 * URL, as a page to fetch, as Screaming Frog does by default: whether the canonical answers 200 is an
 * audit check (`canonical-to-non-200`), which can only judge a target the crawl fetched. Admitted like a
 * link (the scope, the depth limit, the traps, the page budget), but not one: no inlink, no anchor text.
 */
function canonicalCandidate(row: PageRecord, pageUrl: string, depth: number): Candidate | null {
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

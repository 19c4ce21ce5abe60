/**
 * A page resource: a stylesheet, script, image, font, icon, manifest or
 * media file that a stored page (or stylesheet) loads. Fetched on whatever
 * host it is, politely like any request to that host; its body is read when
 * the answer is 2xx, up to `maxFileBytes`. Nothing is followed from it; a
 * stylesheet's `@import`s and `url()`s are resources in turn (its imported
 * sheets', too, however deep: each URL is fetched once per crawl).
 */
import { cssUrls } from '../../links/css-urls.ts';
import { parseContentType } from '../../links/decode-html.ts';
import { MAX_URL_LENGTH } from '../../url/traps.ts';
import { normalizeUrl, originOf } from '../../url/normalize-url.ts';
import {
  fileByteCap,
  isSuccess,
  NOTHING_FOUND,
  PAGE_LIKE,
  resourceBudgetLeft,
  resourceCandidate,
  type WorkKind,
} from './work-kind.ts';

/** Whether a resource's answer is a stylesheet: `text/css`, or no type and a `.css` path (as a lenient browser reads it). */
export function isStylesheet(url: string, contentType: string | null): boolean {
  const { mediaType } = parseContentType(contentType);
  if (mediaType !== null) return mediaType === 'text/css';
  try {
    return new URL(url).pathname.toLowerCase().endsWith('.css');
  } catch {
    return false;
  }
}

/**
 * Subtracted from a resource's admission number to give its queue position:
 * a host's queue is served in `seq` order, so its resources go before its
 * pages (in the order they were found), and a page's resources are fetched
 * soon after the page: a crawl cut short by its limits has whole pages, not
 * many pages each missing its styles. 2^50: far below any page's number,
 * and still an exact number.
 */
export const RESOURCE_SEQ_BIAS = 2 ** 50;

export const resourceKind: WorkKind = {
  ...PAGE_LIKE,
  // A resource's redirect leads to the resource, on any host.
  routeRedirect(redirect, _scope, _followed, anyHost) {
    anyHost.push(redirect);
  },
  // The crawl's resource budget (`maxResources`), shared with linked files.
  budgetSpent: (crawl) => !resourceBudgetLeft(crawl),
  countAdmitted(counts, _host, by) {
    counts.resourcesAdmitted = Math.max(0, (counts.resourcesAdmitted ?? 0) + by);
  },
  seqBias: RESOURCE_SEQ_BIAS,
  rowCounters: { resource: 'resources' },
  overBudgetReason: () => null,
  headFirst: () => false,
  bodyLimit: (crawl, status) => (isSuccess(status) ? fileByteCap(crawl.settings) : 0),
  async read(_crawl, entry, row, body) {
    if (body === null || !isStylesheet(entry.url, row.contentType)) return NOTHING_FOUND;
    // CSS is UTF-8 unless it says otherwise; the URLs it names are ASCII in practice.
    const { imports, urls } = cssUrls(new TextDecoder('utf-8').decode(body));
    const seen = new Set<string>();
    for (const href of [...imports, ...urls]) {
      const url = normalizeUrl(href.trim(), entry.url);
      if (url !== null && url.length <= MAX_URL_LENGTH) seen.add(url);
    }
    row.resources = [...seen];
    return { follow: [], resources: row.resources.map((url) => resourceCandidate(url, originOf(url), entry)) };
  },
};

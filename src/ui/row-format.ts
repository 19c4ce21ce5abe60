/**
 * How a crawl-table row reads, the same in the popup and the results tab.
 * Pure: no Preact, no browser APIs.
 */
import type { FetchFailure } from '../core/model.ts';

/** The fields that decide how a row's status reads. */
export interface StatusFields {
  status: number | null;
  blockedBy: 'robots' | null;
  error: FetchFailure | null;
}

/** The Status cell: `blocked` for robots.txt, the HTTP status, the failure code, or `—`. */
export function statusText(row: StatusFields): string {
  if (row.blockedBy === 'robots') return 'blocked';
  if (row.status !== null) return String(row.status);
  if (row.error !== null) return row.error.code;
  return '—';
}

/** The Status cell with a redirect's target: `301 → https://example.com/new` (see {@link statusText}). */
export function statusWithLocation(row: StatusFields & { location: string | null }): string {
  const isRedirect = row.blockedBy === null && row.status !== null && row.status >= 300 && row.status < 400;
  return isRedirect && row.location !== null ? `${row.status} → ${row.location}` : statusText(row);
}

/** How a row is coloured. */
export function rowTone(row: StatusFields): 'ok' | 'redirect' | 'error' | 'blocked' {
  if (row.blockedBy !== null) return 'blocked';
  if (row.error !== null || (row.status !== null && row.status >= 400)) return 'error';
  if (row.status !== null && row.status >= 300) return 'redirect';
  return 'ok';
}

/** `text/html; charset=utf-8` → `text/html`; empty when unknown: the one helper rows are indexed by, too. */
export { mediaTypeOf as mediaType } from '../core/links/decode-html.ts';

/** A URL as short as it can be read: path and query when it is on `origin`, else the whole URL. */
export function shortUrl(url: string, origin: string | null): string {
  if (origin === null) return url;
  try {
    const parsed = new URL(url);
    return parsed.origin === origin ? `${parsed.pathname}${parsed.search}` : url;
  } catch {
    return url;
  }
}

/**
 * A URL in two parts for a cell that cuts it in the middle: `head` gives way first (cut at its end),
 * `tail` is kept. On `origin`, the path and query alone (head empty); on another site, the origin
 * and the path with its query, so two URLs of one long host name still read apart by their paths.
 */
export function urlParts(url: string, origin: string | null): { head: string; tail: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { head: url, tail: '' };
  }
  if (origin !== null && parsed.origin === origin) return { head: '', tail: `${parsed.pathname}${parsed.search}` };
  // Cut where the origin ends as written; a URL that does not start with it (a user name) is not cut.
  return url.startsWith(parsed.origin)
    ? { head: parsed.origin, tail: url.slice(parsed.origin.length) }
    : { head: url, tail: '' };
}

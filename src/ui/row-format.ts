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

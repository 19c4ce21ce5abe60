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

/** How a row is coloured. */
export function rowTone(row: StatusFields): 'ok' | 'redirect' | 'error' | 'blocked' {
  if (row.blockedBy !== null) return 'blocked';
  if (row.error !== null || (row.status !== null && row.status >= 400)) return 'error';
  if (row.status !== null && row.status >= 300) return 'redirect';
  return 'ok';
}

/** `text/html; charset=utf-8` → `text/html`; empty when unknown. */
export function mediaType(contentType: string | null): string {
  if (contentType === null) return '';
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

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

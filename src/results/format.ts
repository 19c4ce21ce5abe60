/**
 * How the results browser writes values: pure functions, no Preact, no browser APIs.
 * Every value is shown as text; nothing from a row is ever parsed as HTML.
 */
import type { FetchFailure, RowKind } from '../core/model.ts';
import type { PageListRow, StatusClass } from '../storage/page-queries.ts';
import { formatBytes } from '../ui/format-bytes.ts';
import { dateTime } from '../ui/format-time.ts';
export { formatBytes as bytesText } from '../ui/format-bytes.ts';
export { mediaType, rowTone, shortUrl, urlParts } from '../ui/row-format.ts';

/** Status classes in the order the filters show them, with their labels. */
export const STATUS_CLASSES: readonly { statusClass: StatusClass; label: string }[] = [
  { statusClass: '2xx', label: '2xx' },
  { statusClass: '3xx', label: '3xx' },
  { statusClass: '4xx', label: '4xx' },
  { statusClass: '5xx', label: '5xx' },
  { statusClass: 'failed', label: 'Failed' },
  { statusClass: 'blocked', label: 'Blocked by robots' },
  { statusClass: 'duplicate', label: 'Duplicate' },
];

/** Row kinds in the order the kind filter lists them, with their labels and what each holds. */
export const KINDS: readonly { kind: RowKind; label: string; title: string }[] = [
  {
    kind: 'page',
    label: 'Pages',
    title: 'Pages found by links, the start URL and redirects (HTML, or an answer that is not a file)',
  },
  { kind: 'resource', label: 'Resources', title: 'What pages load: stylesheets, scripts, images, fonts, icons, media' },
  {
    kind: 'file',
    label: 'Files',
    title: 'Linked files: a link answered 2xx with something else than HTML (PDF, image, archive…)',
  },
  { kind: 'sitemap', label: 'Sitemaps', title: 'Sitemaps listed in robots.txt' },
  {
    kind: 'external',
    label: 'Links to other sites',
    title:
      'Links of the crawled pages to other sites, checked once each (HEAD, GET if refused; redirects followed), never crawled',
  },
];

/** What decides a row's status text and tone. */
export type StatusFields = Pick<PageListRow, 'status' | 'blockedBy' | 'error'>;
export { statusText } from '../ui/row-format.ts';

/** Bytes in the binary units every page uses (`512 B`, `5.0 KiB`, `1.2 MiB`); empty when unknown. */
export function sizeText(bytes: number | null): string {
  return bytes === null ? '' : formatBytes(bytes);
}

/** A duration in whole ms; empty when unknown. */
export function msText(ms: number | null): string {
  return ms === null ? '' : String(Math.round(ms));
}

/** A timestamp as ISO 8601 (UTC); `—` when null. */
export function isoText(timestamp: number | null): string {
  return timestamp === null ? '—' : new Date(timestamp).toISOString();
}

/** A timestamp in the user's local time, to the second (`2026-11-24 17:03:09`); `—` when null. See {@link isoText} for the exact UTC one. */
export function localTimeText(timestamp: number | null): string {
  if (timestamp === null) return '—';
  const seconds = String(new Date(timestamp).getSeconds()).padStart(2, '0');
  return `${dateTime(timestamp)}:${seconds}`;
}

/** A network failure as one line: `timeout: no answer in 30 s`. */
export function failureText(error: FetchFailure | null): string {
  return error === null ? '—' : `${error.code}: ${error.message}`;
}

/** A count with its noun, singular when 1: `1 URL`, `12,345 URLs`. */
export function countText(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}

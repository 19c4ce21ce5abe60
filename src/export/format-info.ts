/**
 * The export formats a user can pick: name, file extension, media type.
 * No writers here, so the popup can list formats without bundling them;
 * `format-writers.ts` maps each format to its writer.
 */
import type { CrawlRecord } from '../core/model.ts';

/**
 * `issues.csv`: the Issues view (one line per check and URL: `issues-csv.ts`), not the rows;
 * `not-crawled.csv`: the URLs left unvisited by the crawl's rules (`not-crawled-csv.ts`), not the rows;
 * `links.csv`: one line per link the rows hold, with the target's answer (`links-csv.ts`).
 */
export type ExportFormat =
  'wacz' | 'warc.gz' | 'warc' | 'csv' | 'jsonl' | 'issues.csv' | 'not-crawled.csv' | 'links.csv';

export interface FormatInfo {
  format: ExportFormat;
  /** File extension, with the dot. */
  extension: string;
  mediaType: string;
  /** What a user picks from at popup width, e.g. "WACZ (web archive)". */
  label: string;
  /** The file holds the HTTP headers (WARC, WACZ): `Set-Cookie` values are removed unless asked for. */
  holdsHeaders: boolean;
}

export const FORMATS: readonly FormatInfo[] = Object.freeze([
  {
    format: 'wacz',
    extension: '.wacz',
    mediaType: 'application/wacz',
    label: 'WACZ (web archive)',
    holdsHeaders: true,
  },
  {
    format: 'warc.gz',
    extension: '.warc.gz',
    mediaType: 'application/warc',
    label: 'WARC (.warc.gz)',
    holdsHeaders: true,
  },
  { format: 'warc', extension: '.warc', mediaType: 'application/warc', label: 'WARC (.warc)', holdsHeaders: true },
  { format: 'csv', extension: '.csv', mediaType: 'text/csv', label: 'CSV (spreadsheets)', holdsHeaders: false },
  { format: 'jsonl', extension: '.jsonl', mediaType: 'application/x-ndjson', label: 'JSON Lines', holdsHeaders: false },
  { format: 'issues.csv', extension: '.issues.csv', mediaType: 'text/csv', label: 'Issues (CSV)', holdsHeaders: false },
  {
    format: 'not-crawled.csv',
    extension: '.not-crawled.csv',
    mediaType: 'text/csv',
    label: 'Not crawled (CSV)',
    holdsHeaders: false,
  },
  {
    format: 'links.csv',
    extension: '.links.csv',
    mediaType: 'text/csv',
    label: 'Every link (CSV)',
    holdsHeaders: false,
  },
]);

export function formatInfo(format: ExportFormat): FormatInfo {
  const info = FORMATS.find((f) => f.format === format);
  if (!info) throw new RangeError(`unknown export format ${format}`);
  return info;
}

/** The format a file name asks for by its extension (longest match, so `.warc.gz` is not `.gz`); null when none. */
export function formatOfPath(path: string): ExportFormat | null {
  const lower = path.toLowerCase();
  const match = [...FORMATS]
    .sort((a, b) => b.extension.length - a.extension.length)
    .find((f) => lower.endsWith(f.extension));
  return match?.format ?? null;
}

/** `<host>-<yyyy-mm-dd>.<ext>`, from the crawl's start URL and its start date (UTC), e.g. `example.com-2026-11-21.wacz`. */
export function exportFileName(crawl: CrawlRecord, format: ExportFormat): string {
  const host = new URL(crawl.settings.startUrl).host.replace(/[^A-Za-z0-9.-]+/g, '_');
  const date = new Date(crawl.createdAt).toISOString().slice(0, 10);
  return `${host}-${date}${formatInfo(format).extension}`;
}

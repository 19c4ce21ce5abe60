/**
 * The export page's URL, built by the popup and read by the page:
 * `src/export-page/index.html?crawl=<id>&format=<wacz|warc.gz|warc|csv|jsonl>`.
 * One module for both sides, so the two never drift apart.
 */
import { FORMATS, type ExportFormat } from '../export/format-info.ts';
import { ExportPageError } from './export-errors.ts';

/** Path of the export page inside the extension (as `runtime.getURL` takes it). */
export const EXPORT_PAGE_PATH = 'src/export-page/index.html';

/** What the page is asked to export. */
export interface ExportRequest {
  crawlId: string;
  format: ExportFormat;
}

/** The extension-relative URL of the page that exports `crawlId` in `format`. */
export function exportPagePath(crawlId: string, format: ExportFormat): string {
  const query = new URLSearchParams({ crawl: crawlId, format });
  return `${EXPORT_PAGE_PATH}?${query.toString()}`;
}

function isExportFormat(value: string): value is ExportFormat {
  return FORMATS.some((info) => info.format === value);
}

/**
 * Reads the page's query string (`location.search`).
 *
 * @throws {ExportPageError} `bad-url` without a crawl id, `unknown-format` for a format not in {@link FORMATS}.
 */
export function parseExportParams(search: string): ExportRequest {
  const params = new URLSearchParams(search);
  const crawlId = params.get('crawl')?.trim() ?? '';
  if (crawlId === '') {
    throw new ExportPageError('bad-url', 'This page does not say which crawl to export: open it from the Export button of the Tabcrawl popup.');
  }
  const format = params.get('format')?.trim() ?? '';
  if (!isExportFormat(format)) {
    const known = FORMATS.map((info) => info.format).join(', ');
    throw new ExportPageError('unknown-format', `Unknown export format "${format}": the formats are ${known}.`);
  }
  return { crawlId, format };
}

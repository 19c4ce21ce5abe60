/**
 * Every address of Tabcrawl's own pages, built by whoever opens a page (the
 * popup, the results tab, the command line, the tests) and read by the page
 * itself: one module for both sides, so the two never drift apart. Paths
 * are extension-relative, as `runtime.getURL` takes them; the pages' files
 * live in `src/shells/`.
 */
import { ExportPageError } from '../export/export-errors.ts';
import { FORMATS, type ExportFormat } from '../export/format-info.ts';

/** The toolbar popup (also opened in a tab by the end-to-end tests). */
export const POPUP_PATH = 'src/shells/popup/index.html';
/** The options page: default settings, remembered sites. */
export const OPTIONS_PAGE_PATH = 'src/shells/options/index.html';
/** The full-tab results browser; `?crawl=<id>` opens a crawl, `&view=<view>` one of its views, `&url=<url>` a row's detail. */
export const RESULTS_PAGE_PATH = 'src/shells/results/index.html';
/** The page that writes an export: `?crawl=<id>&format=<wacz|warc.gz|warc|csv|jsonl>`. */
export const EXPORT_PAGE_PATH = 'src/shells/export/index.html';
/** The page that opens a WARC or WACZ file as a crawl of its own (the popup's *Open an archive…*, the command line's `--import`). */
export const IMPORT_PAGE_PATH = 'src/shells/import/index.html';

/** What the export page is asked to export. */
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
 * Reads the export page's query string (`location.search`).
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

/** The views of the results page: the table of every URL, the Reports, the Issues. */
export const RESULTS_VIEWS = Object.freeze(['table', 'reports', 'issues', 'not-crawled'] as const);
export type ResultsViewName = (typeof RESULTS_VIEWS)[number];

function isResultsViewName(value: string | null): value is ResultsViewName {
  return RESULTS_VIEWS.some((view) => view === value);
}

/** What the results tab's address asks for. */
export interface ResultsParams {
  /** Crawl to show; null when the address names none. */
  crawlId: string | null;
  /** URL whose detail is open; null when none. */
  url: string | null;
  /** The view shown first; `table` when the address names none, or one that is not a view. */
  view: ResultsViewName;
}

/** Reads `?crawl=`, `&view=` and `&url=` from a results address's `location.search`; empty values count as absent. */
export function parseResultsParams(search: string): ResultsParams {
  const params = new URLSearchParams(search);
  const crawlId = params.get('crawl');
  const url = params.get('url');
  const view = params.get('view');
  return {
    crawlId: crawlId === null || crawlId === '' ? null : crawlId,
    url: url === null || url === '' ? null : url,
    view: isResultsViewName(view) ? view : 'table',
  };
}

/** The `?crawl=...&view=...&url=...` search string of a results address (no `view` for the table, no `url` when null). */
export function resultsSearch(crawlId: string, url: string | null, view: ResultsViewName = 'table'): string {
  const params = new URLSearchParams({ crawl: crawlId });
  if (view !== 'table') params.set('view', view);
  if (url !== null) params.set('url', url);
  return `?${params.toString()}`;
}

/** The results page's path with its search, as `runtime.getURL` takes it. */
export function resultsPagePath(crawlId: string, url: string | null = null, view: ResultsViewName = 'table'): string {
  return `${RESULTS_PAGE_PATH}${resultsSearch(crawlId, url, view)}`;
}

/**
 * Every address of Tabcrawl's own pages, built by whoever opens a page (the
 * popup, the results tab, the command line, the tests) and read by the page
 * itself: one module for both sides, so the two never drift apart. Paths
 * are extension-relative, as `runtime.getURL` takes them; the pages' files
 * live in `src/shells/`.
 */
import { ExportError } from '../export/export-errors.ts';
import { FORMATS, type ExportFormat } from '../export/format-info.ts';

/** The toolbar popup (also opened in a tab by the end-to-end tests). */
export const POPUP_PATH = 'src/shells/popup/index.html';
/** The options page: default settings, remembered sites. */
export const OPTIONS_PAGE_PATH = 'src/shells/options/index.html';
/**
 * The full-tab results browser; `?crawl=<id>` opens a crawl, `&view=<view>` one of its views, `&url=<url>` a row's detail;
 * the open Issues checks, the table's filters and order and the scroll follow ({@link ResultsParams}).
 */
export const RESULTS_PAGE_PATH = 'src/shells/results/index.html';
/** The page that writes an export: `?crawl=<id>&format=<wacz|warc.gz|warc|csv|jsonl>`. */
export const EXPORT_PAGE_PATH = 'src/shells/export/index.html';
/** The page that opens a WARC or WACZ file as a crawl of its own (the popup's *Open an archive…*, the command line's `--import`). */
export const IMPORT_PAGE_PATH = 'src/shells/import/index.html';

/** What the export page is asked to export. */
export interface ExportRequest {
  crawlId: string;
  format: ExportFormat;
  /** Keep the values of `Set-Cookie` response headers (`&setcookie=keep`); else they are removed (`core/redact-headers.ts`). */
  keepSetCookies?: boolean;
}

/** The export page's parameter that keeps `Set-Cookie` values: `setcookie=keep`. */
const KEEP_SET_COOKIES_PARAM = 'setcookie';

/** The extension-relative URL of the page that exports `crawlId` in `format` (keeping `Set-Cookie` values when asked). */
export function exportPagePath(
  crawlId: string,
  format: ExportFormat,
  options: { keepSetCookies?: boolean } = {},
): string {
  const query = new URLSearchParams({ crawl: crawlId, format });
  if (options.keepSetCookies === true) query.set(KEEP_SET_COOKIES_PARAM, 'keep');
  return `${EXPORT_PAGE_PATH}?${query.toString()}`;
}

function isExportFormat(value: string): value is ExportFormat {
  return FORMATS.some((info) => info.format === value);
}

/**
 * Reads the export page's query string (`location.search`).
 *
 * @throws {ExportError} `bad-url` without a crawl id, `unknown-format` for a format not in {@link FORMATS}.
 */
export function parseExportParams(search: string): ExportRequest {
  const params = new URLSearchParams(search);
  const crawlId = params.get('crawl')?.trim() ?? '';
  if (crawlId === '') {
    throw new ExportError(
      'bad-url',
      'This page does not say which crawl to export: open it from the Export button of the Tabcrawl popup.',
    );
  }
  const format = params.get('format')?.trim() ?? '';
  if (!isExportFormat(format)) {
    const known = FORMATS.map((info) => info.format).join(', ');
    throw new ExportError('unknown-format', `Unknown export format "${format}": the formats are ${known}.`);
  }
  return { crawlId, format, keepSetCookies: params.get(KEEP_SET_COOKIES_PARAM) === 'keep' };
}

/** The views of the results page: the table of every URL, the Reports, the Issues. */
export const RESULTS_VIEWS = Object.freeze(['table', 'reports', 'issues', 'not-crawled'] as const);
export type ResultsViewName = (typeof RESULTS_VIEWS)[number];

function isResultsViewName(value: string | null): value is ResultsViewName {
  return RESULTS_VIEWS.some((view) => view === value);
}

/**
 * The table's filters and order as the results address holds them, as written: the results page
 * checks each (an unknown value counts as absent), so a shared or edited address never breaks it.
 */
export interface TableParams {
  /** `status=4xx,5xx`: the status classes shown; empty: all. */
  status: string[];
  /** `kind=`: the row kind shown; null: all. */
  kind: string | null;
  /** `media=`: the media type shown; null: all. */
  media: string | null;
  /** `depth=`: the depth shown; null: all. */
  depth: string | null;
  /** `index=`: the indexability shown; null: all. */
  index: string | null;
  /** `q=`: the search over URL and title; empty: none. */
  search: string;
  /** `sort=<column>`, or `sort=-<column>` descending; null: the order rows were finished. */
  sort: string | null;
}

/** No filter and the finishing order: what an address without table parameters means. */
export const NO_TABLE_PARAMS: TableParams = Object.freeze({
  status: [],
  kind: null,
  media: null,
  depth: null,
  index: null,
  search: '',
  sort: null,
}) as TableParams;

/** What the results tab's address asks for. */
export interface ResultsParams {
  /** Crawl to show; null when the address names none. */
  crawlId: string | null;
  /** URL whose detail is open; null when none. */
  url: string | null;
  /** The view shown first; `table` when the address names none, or one that is not a view. */
  view: ResultsViewName;
  /** `check=a,b`: the Issues checks open, by id as written (the Issues view ignores an id it does not know). */
  checks: string[];
  /** `scroll=`: how far the view was scrolled down (the page, or the table's rows), in CSS pixels; 0 when absent or not a number. */
  scrollY: number;
  /** The table's filters and order. */
  table: TableParams;
}

/** What {@link resultsSearch} writes beyond the crawl, the URL and the view; absent parts are left out. */
export type MoreResultsParams = Partial<Pick<ResultsParams, 'checks' | 'scrollY' | 'table'>>;

const listParam = (value: string | null): string[] =>
  value === null || value === '' ? [] : value.split(',').filter((part) => part !== '');
const textParam = (value: string | null): string | null => (value === null || value === '' ? null : value);

/** Reads a results address's `location.search`; empty values count as absent. */
export function parseResultsParams(search: string): ResultsParams {
  const params = new URLSearchParams(search);
  const view = params.get('view');
  const scrollY = Number(params.get('scroll') ?? '0');
  return {
    crawlId: textParam(params.get('crawl')),
    url: textParam(params.get('url')),
    view: isResultsViewName(view) ? view : 'table',
    checks: listParam(params.get('check')),
    scrollY: Number.isFinite(scrollY) && scrollY > 0 ? Math.round(scrollY) : 0,
    table: {
      status: listParam(params.get('status')),
      kind: textParam(params.get('kind')),
      media: textParam(params.get('media')),
      depth: textParam(params.get('depth')),
      index: textParam(params.get('index')),
      search: params.get('q') ?? '',
      sort: textParam(params.get('sort')),
    },
  };
}

/**
 * The `?crawl=...&view=...&url=...` search string of a results address (no `view` for the table, no `url`
 * when null), with the open checks, the table's filters and order and the scroll when given and not empty.
 */
export function resultsSearch(
  crawlId: string,
  url: string | null,
  view: ResultsViewName = 'table',
  more: MoreResultsParams = {},
): string {
  const params = new URLSearchParams({ crawl: crawlId });
  if (view !== 'table') params.set('view', view);
  if (url !== null) params.set('url', url);
  if (more.checks !== undefined && more.checks.length > 0) params.set('check', more.checks.join(','));
  const table = more.table ?? NO_TABLE_PARAMS;
  if (table.status.length > 0) params.set('status', table.status.join(','));
  if (table.kind !== null) params.set('kind', table.kind);
  if (table.media !== null) params.set('media', table.media);
  if (table.depth !== null) params.set('depth', table.depth);
  if (table.index !== null) params.set('index', table.index);
  if (table.search !== '') params.set('q', table.search);
  if (table.sort !== null) params.set('sort', table.sort);
  if (more.scrollY !== undefined && more.scrollY > 0) params.set('scroll', String(Math.round(more.scrollY)));
  return `?${params.toString()}`;
}

/** The results page's path with its search, as `runtime.getURL` takes it. */
export function resultsPagePath(crawlId: string, url: string | null = null, view: ResultsViewName = 'table'): string {
  return `${RESULTS_PAGE_PATH}${resultsSearch(crawlId, url, view)}`;
}

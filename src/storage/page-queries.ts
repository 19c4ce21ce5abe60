/**
 * Read-only queries the results browser runs against a crawl's rows. The
 * extension's pages share the worker's origin and read IndexedDB directly
 * (never writing); every query is answered from indexes, never by loading
 * every row, so a crawl of 100,000 rows stays fast.
 *
 * This file is the contract: the Dexie implementation lives next to it.
 */
import type { FetchFailure, PageRecord, RowKind } from '../core/model.ts';
import type { PageRow } from './page-row.ts';

/**
 * The columns the results table sorts by, each declared once, in table
 * order: its label, whether it is shown as a column (`seq`, the order rows
 * were finished, is the default sort, not a column), whether it reads as a
 * number, and the field of the stored row it sorts by. The sort type, the
 * Dexie indexes the queries walk and the grid's headers all come from here;
 * a new column also needs its index in `database.ts` (a new schema version)
 * and its cell in the grid.
 */
export const RESULT_COLUMNS = Object.freeze({
  seq: { label: 'Order', isShown: false, isNumeric: true, sortKey: 'seq' },
  url: { label: 'URL', isShown: true, isNumeric: false, sortKey: 'url' },
  status: { label: 'Status', isShown: true, isNumeric: false, sortKey: 'statusKey' },
  contentType: { label: 'Type', isShown: true, isNumeric: false, sortKey: 'mediaKey' },
  size: { label: 'Size', isShown: true, isNumeric: true, sortKey: 'sizeKey' },
  responseTime: { label: 'Time (ms)', isShown: true, isNumeric: true, sortKey: 'timeKey' },
  depth: { label: 'Depth', isShown: true, isNumeric: true, sortKey: 'depth' },
  title: { label: 'Title', isShown: true, isNumeric: false, sortKey: 'titleKey' },
  inlinks: { label: 'Inlinks', isShown: true, isNumeric: true, sortKey: 'inlinks' },
} as const satisfies Record<string, { label: string; isShown: boolean; isNumeric: boolean; sortKey: keyof PageRow }>);

/** Columns the results table sorts by. `seq` is the order rows were finished. */
export type SortColumn = keyof typeof RESULT_COLUMNS;

/** Every sort column, in table order. */
export const SORT_COLUMNS: readonly SortColumn[] = Object.freeze(Object.keys(RESULT_COLUMNS) as SortColumn[]);

/** Status classes a user filters by. A row is in exactly one of the first six; `duplicate` is extra. */
export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx' | 'failed' | 'blocked' | 'duplicate';

export interface PageFilter {
  /**
   * Rows of this kind: `page` (HTML pages, and other answers to links that are not linked files), `resource`
   * (stylesheets, scripts, images, fonts… pages use), `file` (linked files), `sitemap`. Absent: every kind.
   */
  kind?: RowKind;
  /** Rows in any of these classes; empty or absent: all rows. (`1xx` answers count as `2xx`'s neighbours: none are crawled.) */
  statusClasses?: StatusClass[];
  /** Media type without parameters, e.g. `text/html`; `''` for rows without a content type. */
  mediaType?: string;
  /** Exact depth. */
  depth?: number;
  /** Case-insensitive substring of the URL or the title. */
  search?: string;
}

export interface PageQuery {
  crawlId: string;
  sort: { column: SortColumn; descending: boolean };
  filter: PageFilter;
  /** Rows to skip, for a virtualized table's window. */
  offset: number;
  limit: number;
}

/** What a row of the results table shows. */
export interface PageListRow {
  seq: number;
  url: string;
  kind: RowKind;
  status: number | null;
  contentType: string | null;
  contentLength: number | null;
  responseTimeMs: number | null;
  depth: number;
  title: string | null;
  inlinks: number;
  location: string | null;
  blockedBy: 'robots' | null;
  error: FetchFailure | null;
  duplicateOf: string | null;
}

/** What the results table shows of a full row. */
export function toPageListRow(row: PageRecord): PageListRow {
  return {
    seq: row.seq,
    url: row.url,
    kind: row.kind,
    status: row.status,
    contentType: row.contentType,
    contentLength: row.contentLength,
    responseTimeMs: row.responseTimeMs,
    depth: row.depth,
    title: row.title,
    inlinks: row.inlinks,
    location: row.location,
    blockedBy: row.blockedBy,
    error: row.error,
    duplicateOf: row.duplicateOf,
  };
}

export interface PageQueryResult {
  rows: PageListRow[];
  /** Rows matching the filter (for the scrollbar and the counts). */
  total: number;
}

/** What the filters can offer for a crawl. */
export interface PageFacets {
  /** Media types present, most frequent first. */
  mediaTypes: { mediaType: string; count: number }[];
  /** Depths present, ascending. */
  depths: number[];
  /** Rows per status class. */
  statusClasses: Record<StatusClass, number>;
  /** Rows per kind (every kind, 0 when absent). */
  kinds: Record<RowKind, number>;
}

export interface PageQueries {
  query(query: PageQuery): Promise<PageQueryResult>;
  facets(crawlId: string): Promise<PageFacets>;
}


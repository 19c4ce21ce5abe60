/**
 * Read-only queries the results browser runs against a crawl's rows. The
 * extension's pages share the worker's origin and read IndexedDB directly
 * (never writing); every query is answered from indexes, never by loading
 * every row, so a crawl of 100,000 rows stays fast.
 *
 * This file is the contract: the Dexie implementation lives next to it.
 */
import { indexabilityOf, type Indexability } from '../core/audit/indexability.ts';
import type { FetchFailure, PageRecord, RowKind } from '../core/model.ts';
import type { IndexabilityValue, PageRow } from './page-row.ts';

export type { IndexabilityValue } from './page-row.ts';
export { INDEXABILITY_VALUES, indexabilityCode } from './page-row.ts';

/**
 * The columns the results table sorts by, each declared once, in table
 * order: its label, whether it is shown as a column (`seq`, the order rows
 * were finished, is the default sort, not a column), whether it is shown
 * before the user chooses the columns (`isDefault`), whether it reads as a
 * number, and the field of the stored row it sorts by. The sort type, the
 * Dexie indexes the queries walk and the grid's headers all come from here;
 * a new column also needs its index in `database.ts` (a new schema version),
 * its column in the result chunks and its cell in the grid.
 *
 * The page facts' columns (schema version 7) sort rows without facts first
 * (key -1); indexability sorts by its code: rows not judged, indexable, then
 * the reasons in the order of {@link INDEXABILITY_VALUES}.
 */
export const RESULT_COLUMNS = Object.freeze({
  seq: { label: 'Order', isShown: false, isDefault: false, isNumeric: true, sortKey: 'seq' },
  url: { label: 'URL', isShown: true, isDefault: true, isNumeric: false, sortKey: 'url' },
  status: { label: 'Status', isShown: true, isDefault: true, isNumeric: false, sortKey: 'statusKey' },
  contentType: { label: 'Type', isShown: true, isDefault: true, isNumeric: false, sortKey: 'mediaKey' },
  size: { label: 'Size', isShown: true, isDefault: true, isNumeric: true, sortKey: 'sizeKey' },
  responseTime: { label: 'Time (ms)', isShown: true, isDefault: true, isNumeric: true, sortKey: 'timeKey' },
  depth: { label: 'Depth', isShown: true, isDefault: true, isNumeric: true, sortKey: 'depth' },
  title: { label: 'Title', isShown: true, isDefault: true, isNumeric: false, sortKey: 'titleKey' },
  inlinks: { label: 'Inlinks', isShown: true, isDefault: true, isNumeric: true, sortKey: 'inlinks' },
  indexability: { label: 'Indexability', isShown: true, isDefault: true, isNumeric: false, sortKey: 'indexKey' },
  words: { label: 'Words', isShown: true, isDefault: false, isNumeric: true, sortKey: 'wordsKey' },
  h1Count: { label: 'H1', isShown: true, isDefault: false, isNumeric: true, sortKey: 'h1Key' },
  internalLinks: { label: 'Internal', isShown: true, isDefault: false, isNumeric: true, sortKey: 'internalKey' },
  outboundLinks: { label: 'Outbound', isShown: true, isDefault: false, isNumeric: true, sortKey: 'outboundKey' },
} as const satisfies Record<string, { label: string; isShown: boolean; isDefault: boolean; isNumeric: boolean; sortKey: keyof PageRow }>);

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
  /**
   * Pages and linked files that are indexable (`indexable`) or not indexable for
   * this reason (`noindex`, `canonicalised`…); other rows are never kept. Absent: every row.
   */
  indexability?: IndexabilityValue;
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
  /** Null for rows an audit does not judge (not a page or a linked file). */
  indexability: Indexability | null;
  /** The page facts' counts; null without facts. */
  wordCount: number | null;
  h1Count: number | null;
  /** Text of the first `<h1>`; null without one (or without facts). */
  h1: string | null;
  internalLinks: number | null;
  outboundLinks: number | null;
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
    indexability: indexabilityOf(row),
    wordCount: row.facts?.wordCount ?? null,
    h1Count: row.facts?.h1Count ?? null,
    h1: row.facts?.h1 ?? null,
    internalLinks: row.facts?.internalLinks ?? null,
    outboundLinks: row.facts?.outboundLinks ?? null,
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
  /** Pages and linked files per indexability value (every value, 0 when absent). */
  indexability: Record<IndexabilityValue, number>;
}

export interface PageQueries {
  query(query: PageQuery): Promise<PageQueryResult>;
  facets(crawlId: string): Promise<PageFacets>;
}


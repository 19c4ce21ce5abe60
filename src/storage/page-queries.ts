/**
 * Read-only queries the results browser runs against a crawl's rows. The
 * extension's pages share the worker's origin and read IndexedDB directly
 * (never writing); every query is answered from indexes, never by loading
 * every row, so a crawl of 100,000 rows stays fast.
 *
 * This file is the contract: the Dexie implementation lives next to it.
 */
import type { RowKind } from '../core/model.ts';
import type { PageListRow } from './page-list-row.ts';
import type { IndexabilityValue } from './page-row.ts';
import type { SortColumn } from './results-columns.ts';

export type { IndexabilityValue } from './page-row.ts';
export { INDEXABILITY_VALUES, indexabilityCode } from './page-row.ts';

export { RESULT_COLUMNS, SORT_COLUMNS, type SortColumn } from './results-columns.ts';
export { toPageListRow, type PageListRow } from './page-list-row.ts';

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

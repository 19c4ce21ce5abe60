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
import type { IndexabilityValue } from './page-row.ts';
import type { SortColumn } from './results-columns.ts';

export type { IndexabilityValue } from './page-row.ts';
export { INDEXABILITY_VALUES, indexabilityCode } from './page-row.ts';

export { RESULT_COLUMNS, SORT_COLUMNS, type SortColumn } from './results-columns.ts';

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


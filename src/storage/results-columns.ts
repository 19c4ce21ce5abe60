/**
 * The results columns, each declared once (issue 28): what the results table
 * shows and sorts by, and the keys the results index stores of every row.
 *
 * Derived from these tables, nowhere else declared:
 * - the sort columns and their order, labels and default visibility (the
 *   grid, the column chooser and the column prefs in `results/`);
 * - the Dexie index each sort walks ({@link sortIndexOf}) and the pages
 *   schema of a database version ({@link pagesIndexSchema}, `database.ts`);
 * - the columns of the result chunks ({@link CHUNK_COLUMNS}: the fields of
 *   `ResultsChunk`, how each is filled from a row, `results-chunks.ts`) and of
 *   the in-memory projection (`results-projection.ts`).
 *
 * A change here that changes the stored schema (a new index, a new chunk
 * column, another stored key) needs a new database version with an upgrade
 * that rebuilds the results: `test/unit/results-columns.test.ts` fails until
 * it is added and its fingerprint recorded.
 *
 * To add a results column: its entry in {@link RESULT_COLUMNS} (label,
 * visibility, sort key, `indexedSince` the new version, chunk column, `keyOf`
 * when it sorts by a new stored key, `listKey`), plus what is genuinely new:
 * the key's field in `PageKeys` (`page-row.ts`) when it has one, the value in
 * `PageListRow` (`page-list-row.ts`) when the table shows something new, the
 * cell in `results/results-grid.tsx` (`CELLS`: the compiler asks for it), and
 * the new schema version in `database.ts` (`pagesIndexSchema(n)`, an upgrade
 * that rebuilds the results) with its fingerprint in the test.
 *
 * Pure: no Dexie, no browser API.
 */
import {
  indexabilityCode,
  indexKeyOf,
  kindCode,
  BLOCKED_STATUS_KEY,
  FAILED_STATUS_KEY,
  type PageKeys,
  type PageRow,
} from './page-row.ts';
import { mediaTypeOf } from '../core/links/decode-html.ts';
import type { PageRecord } from '../core/model.ts';
import type { PageListRow } from './page-list-row.ts';
import { renderedLabel } from './rendered-label.ts';

/** How a chunk column stores its slots: strings, or a typed array of numbers. */
export type ChunkArrayKind = 'text' | 'uint8' | 'int8' | 'int32' | 'float64';

/** The array type of each {@link ChunkArrayKind}. */
export interface ChunkArrayOf {
  text: string[];
  uint8: Uint8Array;
  int8: Int8Array;
  int32: Int32Array;
  float64: Float64Array;
}

/** A column of the result chunks (stored: its `field` is never renamed). */
export interface ChunkColumnSpec {
  /** The field of `ResultsChunk` holding the column, one slot per row. */
  readonly field: string;
  readonly array: ChunkArrayKind;
  /**
   * What the projection reads where a chunk has no value (a chunk array shorter than its
   * slots): the key of a missing value. Empty chunk slots hold `''` (text) or 0.
   */
  readonly missing: number | string;
}

/** A column the results table sorts by. */
export interface ResultColumnSpec {
  /** The words the grid's header and the column chooser show. */
  readonly label: string;
  /** Shown as a column (`seq`, the order rows were finished, is the default sort, not a column). */
  readonly isShown: boolean;
  /** Shown before the user chooses the columns. */
  readonly isDefault: boolean;
  /** Reads as a number: the grid aligns it right. */
  readonly isNumeric: boolean;
  /** The field of the stored row the column sorts by (its index `[crawlId+<sortKey>+seq]`). */
  readonly sortKey: keyof PageRow;
  /** The schema version that added the column's sort index (1: the primary key and `[crawlId+seq]`). */
  readonly indexedSince: number;
  /** The chunk column holding `sortKey` of every row; null for `seq` (a slot's seq is its place). */
  readonly chunk: ChunkColumnSpec | null;
  /**
   * How the stored row's `sortKey` is computed from the page, when it is a storage-only key of
   * {@link PageKeys} (a valid IndexedDB key: never null; -1 or `''` for a missing value). Absent
   * when the column sorts by a field of the record itself (`seq`, `url`, `depth`, `inlinks`).
   */
  readonly keyOf?: (page: PageRecord) => number | string;
  /**
   * The column's key of a row the results table shows, for sorting rows held in memory (an
   * issue's URL list, `results/url-list-queries.ts`): null for a missing value, which sorts first.
   */
  readonly listKey: (row: PageListRow) => number | string | null;
}

/**
 * The columns the results table sorts by, in table order.
 *
 * The page facts' columns (schema version 7) sort rows without facts first
 * (key -1); indexability sorts by its code: rows not judged, indexable, then
 * the reasons in the order of `INDEXABILITY_VALUES` (`page-row.ts`). *Rendered*
 * (schema version 10, issue 29) sorts by its words (`rendered-label.ts`): rows
 * not rendered (`''`) first, then `failed…`, `rendered`, `rendered (capped)`.
 */
export const RESULT_COLUMNS = Object.freeze({
  seq: {
    label: 'Order',
    isShown: false,
    isDefault: false,
    isNumeric: true,
    sortKey: 'seq',
    indexedSince: 1,
    chunk: null,
    listKey: (row: PageListRow) => row.seq,
  },
  url: {
    label: 'URL',
    isShown: true,
    isDefault: true,
    isNumeric: false,
    sortKey: 'url',
    indexedSince: 1,
    chunk: { field: 'urls', array: 'text', missing: '' },
    listKey: (row: PageListRow) => row.url,
  },
  status: {
    label: 'Status',
    isShown: true,
    isDefault: true,
    isNumeric: false,
    sortKey: 'statusKey',
    indexedSince: 2,
    chunk: { field: 'statusKeys', array: 'int32', missing: 0 },
    keyOf: (page: PageRecord) => (page.blockedBy !== null ? BLOCKED_STATUS_KEY : (page.status ?? FAILED_STATUS_KEY)),
    listKey: (row: PageListRow) => (row.blockedBy !== null ? BLOCKED_STATUS_KEY : (row.status ?? FAILED_STATUS_KEY)),
  },
  contentType: {
    label: 'Type',
    isShown: true,
    isDefault: true,
    isNumeric: false,
    sortKey: 'mediaKey',
    indexedSince: 2,
    chunk: { field: 'mediaKeys', array: 'text', missing: '' },
    keyOf: (page: PageRecord) => mediaTypeOf(page.contentType),
    listKey: (row: PageListRow) => row.contentType?.split(';')[0]?.trim().toLowerCase() ?? null,
  },
  size: {
    label: 'Size',
    isShown: true,
    isDefault: true,
    isNumeric: true,
    sortKey: 'sizeKey',
    indexedSince: 2,
    chunk: { field: 'sizeKeys', array: 'float64', missing: -1 },
    keyOf: (page: PageRecord) => page.contentLength ?? -1,
    listKey: (row: PageListRow) => row.contentLength,
  },
  responseTime: {
    label: 'Time (ms)',
    isShown: true,
    isDefault: true,
    isNumeric: true,
    sortKey: 'timeKey',
    indexedSince: 2,
    chunk: { field: 'timeKeys', array: 'float64', missing: -1 },
    keyOf: (page: PageRecord) => page.responseTimeMs ?? -1,
    listKey: (row: PageListRow) => row.responseTimeMs,
  },
  depth: {
    label: 'Depth',
    isShown: true,
    isDefault: true,
    isNumeric: true,
    sortKey: 'depth',
    indexedSince: 2,
    chunk: { field: 'depths', array: 'int32', missing: 0 },
    listKey: (row: PageListRow) => row.depth,
  },
  title: {
    label: 'Title',
    isShown: true,
    isDefault: true,
    isNumeric: false,
    sortKey: 'titleKey',
    indexedSince: 2,
    chunk: { field: 'titleKeys', array: 'text', missing: '' },
    keyOf: (page: PageRecord) => (page.title ?? '').toLowerCase(),
    listKey: (row: PageListRow) => row.title?.toLowerCase() ?? null,
  },
  inlinks: {
    label: 'Inlinks',
    isShown: true,
    isDefault: true,
    isNumeric: true,
    sortKey: 'inlinks',
    indexedSince: 2,
    chunk: { field: 'inlinks', array: 'int32', missing: 0 },
    listKey: (row: PageListRow) => row.inlinks,
  },
  indexability: {
    label: 'Indexability',
    isShown: true,
    isDefault: true,
    isNumeric: false,
    sortKey: 'indexKey',
    indexedSince: 7,
    chunk: { field: 'indexKeys', array: 'int8', missing: -1 },
    keyOf: (page: PageRecord) => indexKeyOf(page),
    listKey: (row: PageListRow) => (row.indexability === null ? null : indexabilityCode(row.indexability)),
  },
  words: {
    label: 'Words',
    isShown: true,
    isDefault: false,
    isNumeric: true,
    sortKey: 'wordsKey',
    indexedSince: 7,
    chunk: { field: 'words', array: 'int32', missing: -1 },
    keyOf: (page: PageRecord) => page.facts?.wordCount ?? -1,
    listKey: (row: PageListRow) => row.wordCount,
  },
  h1Count: {
    label: 'H1',
    isShown: true,
    isDefault: false,
    isNumeric: true,
    sortKey: 'h1Key',
    indexedSince: 7,
    chunk: { field: 'h1Counts', array: 'int32', missing: -1 },
    keyOf: (page: PageRecord) => page.facts?.h1Count ?? -1,
    listKey: (row: PageListRow) => row.h1Count,
  },
  internalLinks: {
    label: 'Internal',
    isShown: true,
    isDefault: false,
    isNumeric: true,
    sortKey: 'internalKey',
    indexedSince: 7,
    chunk: { field: 'internalLinks', array: 'int32', missing: -1 },
    keyOf: (page: PageRecord) => page.facts?.internalLinks ?? -1,
    listKey: (row: PageListRow) => row.internalLinks,
  },
  outboundLinks: {
    label: 'Outbound',
    isShown: true,
    isDefault: false,
    isNumeric: true,
    sortKey: 'outboundKey',
    indexedSince: 7,
    chunk: { field: 'outboundLinks', array: 'int32', missing: -1 },
    keyOf: (page: PageRecord) => page.facts?.outboundLinks ?? -1,
    listKey: (row: PageListRow) => row.outboundLinks,
  },
  rendered: {
    label: 'Rendered',
    isShown: true,
    isDefault: false,
    isNumeric: false,
    sortKey: 'renderKey',
    indexedSince: 10,
    chunk: { field: 'renderKeys', array: 'text', missing: '' },
    keyOf: (page: PageRecord) => renderedLabel(page.render),
    listKey: (row: PageListRow) => (row.rendered === '' ? null : row.rendered),
  },
} as const satisfies Record<string, ResultColumnSpec>);

/**
 * Chunk columns that filter but do not sort: duplicates (the `duplicate`
 * status class) and the row kind (schema version 6), each with how a row
 * fills it.
 */
export const FILTER_CHUNK_COLUMNS = Object.freeze({
  duplicates: { field: 'duplicates', array: 'uint8', missing: 0, read: (row: PageRow): number => row.isDuplicate },
  kinds: { field: 'kinds', array: 'uint8', missing: 0, read: (row: PageRow): number => kindCode(row.kind) },
} as const satisfies Record<string, ChunkColumnSpec & { read: (row: PageRow) => number | string }>);

/** Columns the results table sorts by. `seq` is the order rows were finished. */
export type SortColumn = keyof typeof RESULT_COLUMNS;

/** Every sort column, in table order. */
export const SORT_COLUMNS: readonly SortColumn[] = Object.freeze(Object.keys(RESULT_COLUMNS) as SortColumn[]);

type SortChunkSpec = Exclude<(typeof RESULT_COLUMNS)[SortColumn]['chunk'], null>;
type AnyChunkSpec = SortChunkSpec | (typeof FILTER_CHUNK_COLUMNS)[keyof typeof FILTER_CHUNK_COLUMNS];

/** The name of a chunk column (a field of `ResultsChunk`). */
export type ChunkField = AnyChunkSpec['field'];

/** A storage-only key of a page row ({@link PageKeys}) and how it is computed from the page. */
export interface PageKeySpec {
  readonly field: keyof PageKeys;
  readonly keyOf: (page: PageRecord) => number | string;
}

/**
 * Every storage-only key of a page row, in table order: the sort columns' (those with `keyOf`), then
 * `isDuplicate` (1 when `duplicateOf` is set, else 0: booleans are not valid keys), which filters only.
 */
export const PAGE_KEYS: readonly PageKeySpec[] = Object.freeze([
  ...SORT_COLUMNS.flatMap((column): PageKeySpec[] => {
    const { sortKey, keyOf } = RESULT_COLUMNS[column] as ResultColumnSpec;
    return keyOf === undefined ? [] : [{ field: sortKey as keyof PageKeys, keyOf }];
  }),
  { field: 'isDuplicate', keyOf: (page) => (page.duplicateOf === null ? 0 : 1) },
]);

/** The sort keys the columns compute: every {@link PageKeys} field but `isDuplicate`, and nothing else (checked when compiled). */
type ComputedSortKey = {
  [C in SortColumn]: (typeof RESULT_COLUMNS)[C] extends { keyOf: unknown; sortKey: infer K } ? K : never;
}[SortColumn];
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const EVERY_PAGE_KEY_COMPUTED: SameKeys<ComputedSortKey | 'isDuplicate', keyof PageKeys> = true;
void EVERY_PAGE_KEY_COMPUTED;

/** Every chunk column, by field, typed as stored. */
export type ChunkColumnArrays = { [S in AnyChunkSpec as S['field']]: ChunkArrayOf[S['array']] };

/** A chunk column as the chunks and the projection walk it: its spec and how a row fills it. */
export interface ChunkColumn extends ChunkColumnSpec {
  readonly field: ChunkField;
  readonly read: (row: PageRow) => number | string;
}

/** Every chunk column: the sort columns' in table order, then the filter-only ones. */
export const CHUNK_COLUMNS: readonly ChunkColumn[] = Object.freeze([
  ...SORT_COLUMNS.flatMap((column): ChunkColumn[] => {
    const { chunk, sortKey } = RESULT_COLUMNS[column] as ResultColumnSpec;
    if (chunk === null) return [];
    return [{ ...chunk, field: chunk.field as ChunkField, read: (row) => row[sortKey] as number | string }];
  }),
  ...Object.values(FILTER_CHUNK_COLUMNS),
]);

/** A column's slots as one indexable array (every chunk array reads and writes by slot). */
export type SlotArray = { [slot: number]: number | string; readonly length: number };

/** The slots of a chunk column of any record holding the chunk columns. */
export function slotsOf(columns: ChunkColumnArrays, field: ChunkField): SlotArray {
  return columns[field];
}

/** A new array of `length` slots for a chunk column: `''` for text, 0 for numbers. */
export function newSlots(array: ChunkArrayKind, length: number): ChunkArrayOf[ChunkArrayKind] {
  switch (array) {
    case 'text':
      return new Array<string>(length).fill('');
    case 'uint8':
      return new Uint8Array(length);
    case 'int8':
      return new Int8Array(length);
    case 'int32':
      return new Int32Array(length);
    case 'float64':
      return new Float64Array(length);
  }
}

/** Chunk columns of `length` empty slots each. */
export function emptyChunkColumns(length: number): ChunkColumnArrays {
  return Object.fromEntries(
    CHUNK_COLUMNS.map((column) => [column.field, newSlots(column.array, length)]),
  ) as unknown as ChunkColumnArrays;
}

/**
 * The Dexie index a sort column walks: `seq` and `url` are unique per crawl
 * (`url` is the primary key); every other key is made unique, and stable, by `seq`.
 */
export function sortIndexOf(column: SortColumn): string {
  const key = RESULT_COLUMNS[column].sortKey;
  return key === 'seq' || key === 'url' ? `[crawlId+${key}]` : `[crawlId+${key}+seq]`;
}

/**
 * The `pages` store's Dexie schema (primary key, then indexes) at a schema
 * version: the URL key, then the sort index of every column indexed by then,
 * in table order. Version 2's schema also had `[crawlId+isDuplicate+seq]`,
 * dropped in version 4; it is not a column and is not derived here.
 */
export function pagesIndexSchema(version: number): string {
  const indexed = SORT_COLUMNS.filter((column) => column !== 'url' && RESULT_COLUMNS[column].indexedSince <= version);
  return [sortIndexOf('url'), ...indexed.map(sortIndexOf)].join(', ');
}

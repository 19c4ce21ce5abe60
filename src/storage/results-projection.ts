/**
 * A crawl's results index in memory: the columns of its {@link ResultsChunk}s,
 * answering any filter, sort and window with the URLs of the window's rows (the
 * caller then reads just those rows by key).
 *
 * Costs at 100,000 rows on a 2-core machine (`npm run bench:results`): a
 * filter or search is one pass over the columns (a few ms); each sort order is
 * computed once per data revision (numbers: one typed-array sort; strings: a
 * comparison sort) and kept; a filtered view in a sort order is one pass over
 * that order, kept for scrolling.
 *
 * Order, as the IndexedDB indexes of schema version 2 order rows: by the
 * column's key, ties by `seq` (URL: by URL alone; it is unique); descending is
 * exactly ascending reversed. Strings compare by UTF-16 code units, as
 * IndexedDB compares them.
 *
 * Pure: no Dexie, no browser API.
 */
import type { RowKind } from '../core/model.ts';
import { RESULTS_CHUNK_ROWS, type ResultsChunk } from './results-chunks.ts';
import type { IndexabilityValue, PageFacets, PageFilter, StatusClass } from './page-queries.ts';
import {
  BLOCKED_STATUS_KEY,
  FAILED_STATUS_KEY,
  INDEXABILITY_VALUES,
  indexabilityOfKey,
  kindCode,
  kindOfCode,
} from './page-row.ts';
import {
  CHUNK_COLUMNS,
  newSlots,
  RESULT_COLUMNS,
  slotsOf,
  type ChunkArrayKind,
  type ChunkArrayOf,
  type ChunkColumn,
  type ChunkColumnArrays,
  type SortColumn,
} from './results-columns.ts';

type BaseClass = Exclude<StatusClass, 'duplicate'>;

/** `[low, high)` of `statusKey` per status class; every row is in exactly one. */
const CLASS_BOUNDS: Record<BaseClass, [number, number]> = {
  blocked: [BLOCKED_STATUS_KEY, BLOCKED_STATUS_KEY + 1],
  failed: [FAILED_STATUS_KEY, FAILED_STATUS_KEY + 1],
  '2xx': [0, 300],
  '3xx': [300, 400],
  '4xx': [400, 500],
  '5xx': [500, Infinity],
};
export const BASE_CLASSES = Object.keys(CLASS_BOUNDS) as BaseClass[];

/** The status class of a status key. */
export function classOfStatusKey(statusKey: number): BaseClass {
  return (
    BASE_CLASSES.find(
      (statusClass) => statusKey >= CLASS_BOUNDS[statusClass][0] && statusKey < CLASS_BOUNDS[statusClass][1],
    ) ?? '2xx'
  );
}

/** Whether a filter restricts anything. */
export function hasFilter(filter: PageFilter): boolean {
  return (
    (filter.statusClasses?.length ?? 0) > 0 ||
    filter.kind !== undefined ||
    filter.mediaType !== undefined ||
    filter.depth !== undefined ||
    filter.indexability !== undefined ||
    (filter.search ?? '') !== ''
  );
}

/** Rows per kind, every kind present (0 when none). */
export function emptyKindCounts(): Record<RowKind, number> {
  return { page: 0, sitemap: 0, resource: 0, file: 0, external: 0 };
}

/** Rows per indexability value, every value present (0 when none). */
export function emptyIndexabilityCounts(): Record<IndexabilityValue, number> {
  return Object.fromEntries(INDEXABILITY_VALUES.map((value) => [value, 0])) as Record<IndexabilityValue, number>;
}

/**
 * Every row's keys, one entry per row, in ascending `seq` order: each chunk
 * column ({@link CHUNK_COLUMNS}; `kinds` holds each row's `kindCode`) and the seqs.
 */
interface Columns extends ChunkColumnArrays {
  n: number;
  seqs: Float64Array;
  /** Lower-case URLs, made on the first search. */
  urlKeys?: string[];
}

/** What a window of a view is: the URLs of its rows in display order, and the rows the filter keeps. */
export interface ProjectionWindow {
  urls: string[];
  total: number;
}

/** Most filtered views kept, for scrolling and for going back and forth between filters. */
const VIEWS_KEPT = 4;

export class ResultsProjection {
  private readonly chunks = new Map<number, ResultsChunk>();
  private columns: Columns | null = null;
  /** Entry indices in ascending order of each column, computed on first use. */
  private readonly orders = new Map<SortColumn, Uint32Array>();
  /** Entry indices a filter keeps, in ascending order of a column; most recent last. */
  private views: { key: string; indices: Uint32Array }[] = [];

  /**
   * @param rev The crawl's {@link FacetCounts.rev} the chunks were read at
   *   (chunks written later have a higher `rev`).
   */
  constructor(
    chunks: Iterable<ResultsChunk>,
    public rev: number,
  ) {
    for (const chunk of chunks) this.chunks.set(chunk.chunk, chunk);
  }

  /**
   * Replaces the given chunks (written since `rev`) and moves to `rev`. Sort
   * orders already computed are kept up to date by merging (linear) when the
   * rows held before are still the first ones, in the same places (a crawl
   * appends rows by seq and rewrites keys in place); otherwise dropped.
   */
  update(chunks: Iterable<ResultsChunk>, rev: number): void {
    let changed = false;
    for (const chunk of chunks) {
      this.chunks.set(chunk.chunk, chunk);
      changed = true;
    }
    this.rev = rev;
    if (!changed) return;
    const before = this.columns;
    this.columns = null;
    this.views = [];
    if (before === null || this.orders.size === 0) {
      this.orders.clear();
      return;
    }
    const after = this.columnsOf();
    let kept = after.n >= before.n;
    for (let i = 0; kept && i < before.n; i += 1)
      if (before.seqs[i] !== after.seqs[i] || before.urls[i] !== after.urls[i]) kept = false;
    if (!kept) {
      this.orders.clear();
      return;
    }
    for (const [column, order] of this.orders) this.orders.set(column, mergedOrder(before, after, column, order));
  }

  /** Computes the sort order of `column` now, if not yet computed (for an idle moment: up to ~100 ms at 100,000 rows). */
  prepare(column: SortColumn): void {
    this.order(column);
  }

  /** Rows held. */
  get size(): number {
    return this.columnsOf().n;
  }

  /**
   * The window `[offset, offset + limit)` of the rows `filter` keeps, sorted by
   * `sort`: their URLs in display order, and how many rows the filter keeps.
   */
  window(
    filter: PageFilter,
    sort: { column: SortColumn; descending: boolean },
    offset: number,
    limit: number,
  ): ProjectionWindow {
    const view = this.view(filter, sort.column);
    const total = view.length;
    const start = Math.max(0, Math.floor(offset));
    const end = Math.min(total, start + Math.max(0, Math.floor(limit)));
    const { urls } = this.columnsOf();
    const found: string[] = [];
    for (let position = start; position < end; position += 1) {
      const index = view[sort.descending ? total - 1 - position : position];
      if (index !== undefined) found.push(urls[index] ?? '');
    }
    return { urls: found, total };
  }

  /** The facets of every row held. */
  facets(): PageFacets {
    const columns = this.columnsOf();
    const statusClasses: Record<StatusClass, number> = {
      '2xx': 0,
      '3xx': 0,
      '4xx': 0,
      '5xx': 0,
      failed: 0,
      blocked: 0,
      duplicate: 0,
    };
    const media = new Map<string, number>();
    const depths = new Set<number>();
    const kinds = emptyKindCounts();
    const indexability = emptyIndexabilityCounts();
    for (let i = 0; i < columns.n; i += 1) {
      statusClasses[classOfStatusKey(columns.statusKeys[i] ?? 0)] += 1;
      kinds[kindOfCode(columns.kinds[i] ?? 0)] += 1;
      const value = indexabilityOfKey(columns.indexKeys[i] ?? -1);
      if (value !== null) indexability[value] += 1;
      if (columns.duplicates[i] === 1) statusClasses.duplicate += 1;
      const mediaKey = columns.mediaKeys[i] ?? '';
      media.set(mediaKey, (media.get(mediaKey) ?? 0) + 1);
      depths.add(columns.depths[i] ?? 0);
    }
    return {
      statusClasses,
      mediaTypes: [...media].map(([mediaType, count]) => ({ mediaType, count })).sort(byFrequency),
      depths: [...depths].sort((a, b) => a - b),
      kinds,
      indexability,
    };
  }

  /**
   * Entry indices the filter keeps, in ascending order of `column`: the
   * column's order filtered when it is computed (or the filter keeps most
   * rows, so computing it pays off for the next filters), else the kept rows
   * sorted alone.
   */
  private view(filter: PageFilter, column: SortColumn): Uint32Array {
    const key = JSON.stringify([
      column,
      filter.statusClasses ?? [],
      filter.kind ?? null,
      filter.mediaType ?? null,
      filter.depth ?? null,
      filter.indexability ?? null,
      filter.search ?? '',
    ]);
    const kept = this.views.find((view) => view.key === key);
    if (kept !== undefined) return kept.indices;
    let indices: Uint32Array;
    if (!hasFilter(filter)) {
      indices = this.order(column);
    } else {
      const keeps = this.matcher(filter);
      const n = this.columnsOf().n;
      const bySeq = new Uint32Array(n);
      let count = 0;
      for (let i = 0; i < n; i += 1) if (keeps(i)) bySeq[count++] = i;
      const order = this.orders.get(column);
      if (column === 'seq') {
        indices = bySeq.slice(0, count);
      } else if (order !== undefined || count > n / 4) {
        const found = new Uint32Array(count);
        let k = 0;
        for (const index of order ?? this.order(column)) if (keeps(index)) found[k++] = index;
        indices = found;
      } else {
        indices = sortIndices(this.columnsOf(), column, bySeq.slice(0, count));
      }
    }
    this.views = [...this.views.slice(-(VIEWS_KEPT - 1)), { key, indices }];
    return indices;
  }

  /** A test of an entry index against `filter`. */
  private matcher(filter: PageFilter): (index: number) => boolean {
    const columns = this.columnsOf();
    const classes = new Set(filter.statusClasses ?? []);
    const withDuplicates = classes.has('duplicate');
    const bounds = BASE_CLASSES.filter((statusClass) => classes.has(statusClass)).map(
      (statusClass) => CLASS_BOUNDS[statusClass],
    );
    const mediaType = filter.mediaType?.toLowerCase();
    const kind = filter.kind === undefined ? undefined : kindCode(filter.kind);
    const { depth } = filter;
    const indexKey = filter.indexability === undefined ? undefined : INDEXABILITY_VALUES.indexOf(filter.indexability);
    const needle = (filter.search ?? '').toLowerCase();
    const urlKeys = needle === '' ? [] : this.urlKeysOf(columns);
    const { statusKeys, duplicates, mediaKeys, depths, titleKeys, kinds, indexKeys } = columns;
    return (i) => {
      if (classes.size > 0) {
        const statusKey = statusKeys[i] ?? 0;
        const inClass =
          (withDuplicates && duplicates[i] === 1) || bounds.some(([low, high]) => statusKey >= low && statusKey < high);
        if (!inClass) return false;
      }
      if (kind !== undefined && kinds[i] !== kind) return false;
      if (mediaType !== undefined && mediaKeys[i] !== mediaType) return false;
      if (depth !== undefined && depths[i] !== depth) return false;
      if (indexKey !== undefined && indexKeys[i] !== indexKey) return false;
      if (needle !== '' && !(urlKeys[i] ?? '').includes(needle) && !(titleKeys[i] ?? '').includes(needle)) return false;
      return true;
    };
  }

  private urlKeysOf(columns: Columns): string[] {
    columns.urlKeys ??= columns.urls.map((url) => url.toLowerCase());
    return columns.urlKeys;
  }

  /** Entry indices in ascending order of `column` (ties by seq, which is entry order). */
  private order(column: SortColumn): Uint32Array {
    const cached = this.orders.get(column);
    if (cached !== undefined) return cached;
    const columns = this.columnsOf();
    const all = new Uint32Array(columns.n);
    for (let i = 0; i < columns.n; i += 1) all[i] = i;
    const order = sortIndices(columns, column, all);
    this.orders.set(column, order);
    return order;
  }

  /** The columns of every chunk, rebuilt after an update: chunks by number, slots ascending, so entries come in seq order. */
  private columnsOf(): Columns {
    if (this.columns !== null) return this.columns;
    const chunks = [...this.chunks.values()].sort((a, b) => a.chunk - b.chunk);
    let n = 0;
    for (const chunk of chunks) for (const present of chunk.present) n += present;
    const seqs = new Float64Array(n);
    let i = 0;
    for (const chunk of chunks) {
      for (let slot = 0; slot < RESULTS_CHUNK_ROWS; slot += 1)
        if (chunk.present[slot] === 1) seqs[i++] = chunk.chunk * RESULTS_CHUNK_ROWS + slot;
    }
    const full = chunks.map((chunk) => chunk.present.every((present) => present === 1));
    const byField = CHUNK_COLUMNS.map((column) => [column.field, gatheredColumn(chunks, full, column, n)] as const);
    const columns = { n, seqs, ...Object.fromEntries(byField) } as unknown as Columns;
    this.columns = columns;
    return columns;
  }
}

/**
 * One chunk column of every row present, in chunk order then slot order (`n`
 * rows): a chunk whose every slot holds a row (`full`, by chunk) is copied
 * whole (one typed-array copy), others slot by slot.
 */
function gatheredColumn(
  chunks: readonly ResultsChunk[],
  full: readonly boolean[],
  column: ChunkColumn,
  n: number,
): ChunkArrayOf[ChunkArrayKind] {
  const to = newSlots(column.array, n);
  let k = 0;
  for (const [c, chunk] of chunks.entries()) {
    const from = slotsOf(chunk, column.field);
    if (!(to instanceof Array) && ArrayBuffer.isView(from) && from.length === RESULTS_CHUNK_ROWS && full[c] === true) {
      to.set(from as ArrayLike<number>, k);
      k += RESULTS_CHUNK_ROWS;
      continue;
    }
    const slots = to as { [slot: number]: number | string };
    for (let slot = 0; slot < RESULTS_CHUNK_ROWS; slot += 1)
      if (chunk.present[slot] === 1) slots[k++] = from[slot] ?? column.missing;
  }
  return to;
}

/**
 * `order` (of `before`'s entries by `column`) made an order of `after`'s: the
 * entries whose key changed and the new entries are sorted alone and merged
 * with the rest, which keep their relative order. Linear in the rows, plus the
 * sort of the changed ones.
 */
function mergedOrder(before: Columns, after: Columns, column: SortColumn, order: Uint32Array): Uint32Array {
  const moved: number[] = [];
  for (let i = 0; i < before.n; i += 1) if (!sameKey(before, after, column, i)) moved.push(i);
  for (let i = before.n; i < after.n; i += 1) moved.push(i);
  if (moved.length === 0) return order;
  const movedSet = new Set(moved);
  const sortedMoved = sortIndices(after, column, Uint32Array.from(moved));
  const merged = new Uint32Array(after.n);
  let m = 0;
  let k = 0;
  for (const index of order) {
    if (movedSet.has(index)) continue;
    while (m < sortedMoved.length && sortsBefore(after, column, sortedMoved[m] ?? 0, index))
      merged[k++] = sortedMoved[m++] ?? 0;
    merged[k++] = index;
  }
  while (m < sortedMoved.length) merged[k++] = sortedMoved[m++] ?? 0;
  return merged;
}

/** The string columns: those whose chunk column holds text. */
type TextColumn = {
  [C in SortColumn]: (typeof RESULT_COLUMNS)[C]['chunk'] extends { array: 'text' } ? C : never;
}[SortColumn];

/** The numeric key column of a sort, or null for the string columns. */
function numericKeys(columns: Columns, column: SortColumn): ArrayLike<number> | null {
  const { chunk } = RESULT_COLUMNS[column];
  if (chunk === null) return columns.seqs;
  return chunk.array === 'text' ? null : (slotsOf(columns, chunk.field) as ArrayLike<number>);
}

function stringKeys(columns: Columns, column: TextColumn): string[] {
  return columns[RESULT_COLUMNS[column].chunk.field];
}

/**
 * Sorts `indices` (entry indices, ascending) in place by a column's key, ties
 * by index (= by seq). Integer keys whose range times the row count stays
 * exact in a double are sorted as one number each (`(key - min) * n + index`):
 * a native numeric sort, several times faster than a comparator.
 */
function sortIndices(columns: Columns, column: SortColumn, indices: Uint32Array): Uint32Array {
  const { n } = columns;
  const count = indices.length;
  if (column === 'seq') return indices;
  const numbers = numericKeys(columns, column);
  if (numbers !== null) {
    let min = Infinity;
    let max = -Infinity;
    let integral = true;
    for (const i of indices) {
      const value = numbers[i] ?? 0;
      if (value < min) min = value;
      if (value > max) max = value;
      if (!Number.isInteger(value)) integral = false;
    }
    if (integral && (max - min + 1) * n < Number.MAX_SAFE_INTEGER) {
      const composite = new Float64Array(count);
      for (let k = 0; k < count; k += 1) {
        const i = indices[k] ?? 0;
        composite[k] = ((numbers[i] ?? 0) - min) * n + i;
      }
      composite.sort();
      for (let k = 0; k < count; k += 1) indices[k] = (composite[k] ?? 0) % n;
      return indices;
    }
    return indices.sort((a, b) => (numbers[a] ?? 0) - (numbers[b] ?? 0) || a - b);
  }
  const strings = stringKeys(columns, column as TextColumn);
  return indices.sort((a, b) => {
    const ka = strings[a] ?? '';
    const kb = strings[b] ?? '';
    return ka < kb ? -1 : ka > kb ? 1 : a - b;
  });
}

/** Whether entry `a` sorts before entry `b` by a column (ties by index). */
function sortsBefore(columns: Columns, column: SortColumn, a: number, b: number): boolean {
  if (column !== 'seq') {
    const numbers = numericKeys(columns, column);
    const ka = numbers !== null ? (numbers[a] ?? 0) : (stringKeys(columns, column as TextColumn)[a] ?? '');
    const kb = numbers !== null ? (numbers[b] ?? 0) : (stringKeys(columns, column as TextColumn)[b] ?? '');
    if (ka !== kb) return ka < kb;
  }
  return a < b;
}

/** Whether entry `i` has the same key for a column in two versions of the columns. */
function sameKey(before: Columns, after: Columns, column: SortColumn, i: number): boolean {
  if (column === 'seq') return true;
  const numbers = numericKeys(before, column);
  if (numbers !== null) return numbers[i] === numericKeys(after, column)?.[i];
  const key = column as TextColumn;
  return stringKeys(before, key)[i] === stringKeys(after, key)[i];
}

/** Most frequent first, then by media type. */
export function byFrequency(a: { mediaType: string; count: number }, b: { mediaType: string; count: number }): number {
  return b.count - a.count || (a.mediaType < b.mediaType ? -1 : a.mediaType > b.mediaType ? 1 : 0);
}

/**
 * The results index of a crawl as stored (schema version 4; the kind column
 * since version 6, the page facts' columns since version 7): compact columns
 * of every page row's sort and filter keys, in chunks of
 * {@link RESULTS_CHUNK_ROWS} rows, plus per-crawl counts. Written by
 * `DexieCrawlStore.putPages` in the same transaction as the rows, so at every
 * commit, for every crawl:
 * - every page row has exactly one slot, in chunk `floor(seq / 256)` at slot
 *   `seq % 256`, holding its current keys (a row's `seq` never changes once
 *   written: the crawl runner's invariant; seqs are unique within a crawl);
 * - {@link FacetCounts} counts exactly those slots, and its `rev` is the
 *   highest `rev` of the crawl's chunks: a reader that saw `rev` r reads only
 *   the chunks with a higher `rev` to catch up (one index range).
 *
 * Why chunks and not only indexes: a filter combined with a sort on another
 * column, a text search, or a window deep in a sort cannot be answered by one
 * IndexedDB index without walking most of it (3 to 15 µs an entry: ~1 s at
 * 100,000 rows). One `getAll` of ~400 chunks gives the results page every key
 * it filters and sorts by, and only the 50 rows of a window are then read.
 *
 * Pure: no Dexie, no browser API; the store and the queries do the I/O.
 */
import { indexabilityOfKey, kindOfCode, type PageRow } from './page-row.ts';
import {
  CHUNK_COLUMNS,
  emptyChunkColumns,
  slotsOf,
  type ChunkColumn,
  type ChunkColumnArrays,
} from './results-columns.ts';

export { ROW_KINDS, kindCode, kindOfCode } from './page-row.ts';

/** Rows per chunk: small enough to rewrite on every page write, few enough records to read all at once. */
export const RESULTS_CHUNK_ROWS = 256;

/**
 * The keys of the page rows whose `seq` is in
 * `[chunk * RESULTS_CHUNK_ROWS, (chunk + 1) * RESULTS_CHUNK_ROWS)`, each at slot
 * `seq - chunk * RESULTS_CHUNK_ROWS` of every column. Typed arrays are stored
 * and read back as one copy each, far cheaper than arrays of numbers. The
 * columns (`urls`, `statusKeys`… `kinds`) are the chunk columns declared in
 * `results-columns.ts` ({@link CHUNK_COLUMNS}), each holding its key of every row.
 */
export interface ResultsChunk extends ChunkColumnArrays {
  crawlId: string;
  chunk: number;
  /** The crawl's {@link FacetCounts.rev} when this chunk was last written. */
  rev: number;
  /** 1 where the slot holds a row. */
  present: Uint8Array;
}

/**
 * Per-crawl counts over the crawl's chunk slots: a count is never zero (the
 * key is removed instead), so the keys of `mediaKeys` and `depths` are exactly
 * the values present.
 */
export interface FacetCounts {
  crawlId: string;
  /** Page rows of the crawl. */
  rows: number;
  /** Rows per `PageKeys.statusKey`. */
  statusKeys: Record<string, number>;
  /** Rows per `PageKeys.mediaKey`. */
  mediaKeys: Record<string, number>;
  /** Rows per depth. */
  depths: Record<string, number>;
  /** Rows with `isDuplicate` 1. */
  duplicates: number;
  /** Rows per kind (`page`, `sitemap`, `resource`, `file`; schema version 6). */
  kinds: Record<string, number>;
  /** Rows per indexability value (`indexable`, `noindex`…; schema version 7); rows not judged are not counted. */
  indexability: Record<string, number>;
  /** Raised by one in every transaction that changes a chunk of the crawl; see {@link ResultsChunk.rev}. */
  rev: number;
}

/** The chunk a row's seq falls in. */
export function chunkOf(seq: number): number {
  return Math.floor(seq / RESULTS_CHUNK_ROWS);
}

/** A chunk of empty slots: no row present, text columns `''`, number columns 0. */
export function emptyResultsChunk(crawlId: string, chunk: number): ResultsChunk {
  return {
    crawlId,
    chunk,
    rev: 0,
    present: new Uint8Array(RESULTS_CHUNK_ROWS),
    ...emptyChunkColumns(RESULTS_CHUNK_ROWS),
  };
}

export function emptyFacetCounts(crawlId: string): FacetCounts {
  return {
    crawlId,
    rows: 0,
    statusKeys: {},
    mediaKeys: {},
    depths: {},
    duplicates: 0,
    kinds: {},
    indexability: {},
    rev: 0,
  };
}

function bump(counts: Record<string, number>, key: string | number, by: number): void {
  const next = (counts[key] ?? 0) + by;
  if (next === 0) delete counts[key];
  else counts[key] = next;
}

function countSlot(counts: FacetCounts, chunk: ResultsChunk, slot: number, by: 1 | -1): void {
  counts.rows += by;
  bump(counts.statusKeys, chunk.statusKeys[slot] ?? 0, by);
  bump(counts.mediaKeys, chunk.mediaKeys[slot] ?? '', by);
  bump(counts.depths, chunk.depths[slot] ?? 0, by);
  if (chunk.duplicates[slot] === 1) counts.duplicates += by;
  bump(counts.kinds, kindOfCode(chunk.kinds[slot] ?? 0), by);
  const indexability = indexabilityOfKey(chunk.indexKeys[slot] ?? -1);
  if (indexability !== null) bump(counts.indexability, indexability, by);
}

/**
 * Records a written row in its chunk (`chunkOf(row.seq)`) and the crawl's
 * counts: the slot's old keys are uncounted, the new ones set and counted.
 * @returns whether anything changed (a rewrite that only merged anchor texts does not).
 */
export function recordRow(chunk: ResultsChunk, counts: FacetCounts, row: PageRow): boolean {
  const slot = row.seq - chunk.chunk * RESULTS_CHUNK_ROWS;
  if (slot < 0 || slot >= RESULTS_CHUNK_ROWS) throw new RangeError(`row seq ${row.seq} is not in chunk ${chunk.chunk}`);
  const wasPresent = chunk.present[slot] === 1;
  let isSame = wasPresent;
  for (let i = 0; isSame && i < CHUNK_COLUMNS.length; i += 1) {
    const column = CHUNK_COLUMNS[i] as ChunkColumn;
    if (slotsOf(chunk, column.field)[slot] !== column.read(row)) isSame = false;
  }
  if (isSame) return false;
  if (wasPresent) countSlot(counts, chunk, slot, -1);
  chunk.present[slot] = 1;
  for (const column of CHUNK_COLUMNS) slotsOf(chunk, column.field)[slot] = column.read(row);
  countSlot(counts, chunk, slot, 1);
  return true;
}

/**
 * Records rows (of any crawls) into chunks and counts held in the given maps,
 * creating missing ones; marks each changed chunk with its crawl's next `rev`.
 * @param chunkFor The chunk a row belongs in (created empty when new).
 * @param countsFor The crawl's counts (created empty when new).
 * @returns the chunks and counts that changed, to be written back.
 */
export function recordRows(
  rows: PageRow[],
  chunkFor: (crawlId: string, chunk: number) => ResultsChunk,
  countsFor: (crawlId: string) => FacetCounts,
): { chunks: ResultsChunk[]; counts: FacetCounts[] } {
  const changedChunks = new Set<ResultsChunk>();
  const changedCounts = new Set<FacetCounts>();
  for (const row of rows) {
    const chunk = chunkFor(row.crawlId, chunkOf(row.seq));
    const counts = countsFor(row.crawlId);
    if (recordRow(chunk, counts, row)) {
      changedChunks.add(chunk);
      changedCounts.add(counts);
    }
  }
  for (const counts of changedCounts) counts.rev += 1;
  for (const chunk of changedChunks) chunk.rev = countsFor(chunk.crawlId).rev;
  return { chunks: [...changedChunks], counts: [...changedCounts] };
}

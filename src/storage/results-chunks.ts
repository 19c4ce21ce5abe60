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
import type { RowKind } from '../core/model.ts';
import { indexabilityOfKey, type PageRow } from './page-row.ts';

/**
 * The kinds of rows, in the order of their codes in {@link ResultsChunk.kinds}
 * (schema version 6): a row's code is its index here.
 */
export const ROW_KINDS: readonly RowKind[] = Object.freeze(['page', 'sitemap', 'resource', 'file', 'external']);

/** The code of a row kind in {@link ResultsChunk.kinds}; a kind not known here counts as a page. */
export function kindCode(kind: RowKind): number {
  const code = ROW_KINDS.indexOf(kind);
  return code < 0 ? 0 : code;
}

/** The row kind of a code of {@link ResultsChunk.kinds}. */
export function kindOfCode(code: number): RowKind {
  return ROW_KINDS[code] ?? 'page';
}

/** Rows per chunk: small enough to rewrite on every page write, few enough records to read all at once. */
export const RESULTS_CHUNK_ROWS = 256;

/**
 * The keys of the page rows whose `seq` is in
 * `[chunk * RESULTS_CHUNK_ROWS, (chunk + 1) * RESULTS_CHUNK_ROWS)`, each at slot
 * `seq - chunk * RESULTS_CHUNK_ROWS` of every column. Typed arrays are stored
 * and read back as one copy each, far cheaper than arrays of numbers.
 */
export interface ResultsChunk {
  crawlId: string;
  chunk: number;
  /** The crawl's {@link FacetCounts.rev} when this chunk was last written. */
  rev: number;
  /** 1 where the slot holds a row. */
  present: Uint8Array;
  /** URL of each slot's row (`''` in empty slots). */
  urls: string[];
  /** `PageKeys.titleKey`: lower-case title, `''` without one. */
  titleKeys: string[];
  /** `PageKeys.mediaKey`: lower-case media type, `''` without a content type. */
  mediaKeys: string[];
  /** `PageKeys.statusKey`: HTTP status, -1 failed, -2 blocked. */
  statusKeys: Int32Array;
  depths: Int32Array;
  inlinks: Int32Array;
  /** `PageKeys.sizeKey`: bytes, -1 unknown. */
  sizeKeys: Float64Array;
  /** `PageKeys.timeKey`: ms, -1 never requested. */
  timeKeys: Float64Array;
  /** 1 when the row duplicates another's body. */
  duplicates: Uint8Array;
  /** The row's kind as its {@link kindCode} (schema version 6): page, sitemap, resource, file, external (a code appended later: no upgrade needed). */
  kinds: Uint8Array;
  /** `PageKeys.indexKey` (schema version 7, as are the columns below): indexability code, -1 not judged. */
  indexKeys: Int8Array;
  /** `PageKeys.wordsKey`: words of the visible text, -1 without facts. */
  words: Int32Array;
  /** `PageKeys.h1Key`: number of `<h1>`, -1 without facts. */
  h1Counts: Int32Array;
  /** `PageKeys.internalKey`: internal links, -1 without facts. */
  internalLinks: Int32Array;
  /** `PageKeys.outboundKey`: links to other sites, -1 without facts. */
  outboundLinks: Int32Array;
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

export function emptyResultsChunk(crawlId: string, chunk: number): ResultsChunk {
  const n = RESULTS_CHUNK_ROWS;
  return {
    crawlId,
    chunk,
    rev: 0,
    present: new Uint8Array(n),
    urls: new Array<string>(n).fill(''),
    titleKeys: new Array<string>(n).fill(''),
    mediaKeys: new Array<string>(n).fill(''),
    statusKeys: new Int32Array(n),
    depths: new Int32Array(n),
    inlinks: new Int32Array(n),
    sizeKeys: new Float64Array(n),
    timeKeys: new Float64Array(n),
    duplicates: new Uint8Array(n),
    kinds: new Uint8Array(n),
    indexKeys: new Int8Array(n),
    words: new Int32Array(n),
    h1Counts: new Int32Array(n),
    internalLinks: new Int32Array(n),
    outboundLinks: new Int32Array(n),
  };
}

export function emptyFacetCounts(crawlId: string): FacetCounts {
  return { crawlId, rows: 0, statusKeys: {}, mediaKeys: {}, depths: {}, duplicates: 0, kinds: {}, indexability: {}, rev: 0 };
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
  const kind = kindCode(row.kind);
  if (
    wasPresent &&
    chunk.urls[slot] === row.url &&
    chunk.titleKeys[slot] === row.titleKey &&
    chunk.mediaKeys[slot] === row.mediaKey &&
    chunk.statusKeys[slot] === row.statusKey &&
    chunk.depths[slot] === row.depth &&
    chunk.inlinks[slot] === row.inlinks &&
    chunk.sizeKeys[slot] === row.sizeKey &&
    chunk.timeKeys[slot] === row.timeKey &&
    chunk.duplicates[slot] === row.isDuplicate &&
    chunk.kinds[slot] === kind &&
    chunk.indexKeys[slot] === row.indexKey &&
    chunk.words[slot] === row.wordsKey &&
    chunk.h1Counts[slot] === row.h1Key &&
    chunk.internalLinks[slot] === row.internalKey &&
    chunk.outboundLinks[slot] === row.outboundKey
  ) {
    return false;
  }
  if (wasPresent) countSlot(counts, chunk, slot, -1);
  chunk.present[slot] = 1;
  chunk.urls[slot] = row.url;
  chunk.titleKeys[slot] = row.titleKey;
  chunk.mediaKeys[slot] = row.mediaKey;
  chunk.statusKeys[slot] = row.statusKey;
  chunk.depths[slot] = row.depth;
  chunk.inlinks[slot] = row.inlinks;
  chunk.sizeKeys[slot] = row.sizeKey;
  chunk.timeKeys[slot] = row.timeKey;
  chunk.duplicates[slot] = row.isDuplicate;
  chunk.kinds[slot] = kind;
  chunk.indexKeys[slot] = row.indexKey;
  chunk.words[slot] = row.wordsKey;
  chunk.h1Counts[slot] = row.h1Key;
  chunk.internalLinks[slot] = row.internalKey;
  chunk.outboundLinks[slot] = row.outboundKey;
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

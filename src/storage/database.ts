/**
 * The extension's IndexedDB database: one typed Dexie class and its schema.
 *
 * Records are stored as the model types ({@link CrawlRecord}, {@link HostState},
 * {@link FrontierEntry}, {@link PageRecord}, {@link StoredBody}). The frontier
 * alone carries one storage-only field ({@link FrontierRow.queuedSeq}); it is
 * added by {@link toFrontierRow} and stripped by {@link fromFrontierRow}, so the
 * records callers see equal the model types exactly. Pages likewise carry the
 * derived sort keys of {@link PageKeys} (schema version 2): added by
 * {@link toPageRow}, stripped by {@link fromPageRow}.
 *
 * Every results index ends in `seq` (unique within a crawl), so rows with equal
 * sort keys come in `seq` order: ascending walks break ties by ascending `seq`,
 * descending walks (the same index backwards) by descending `seq`.
 *
 * Indexes, and the query each one serves:
 *
 * | table      | primary key           | indexes                          | served query                                  |
 * | ---------- | --------------------- | -------------------------------- | --------------------------------------------- |
 * | `crawls`   | `id`                  | `createdAt`                      | list crawls newest first                      |
 * | `hosts`    | `[crawlId+origin]`    | (key prefix `crawlId`)           | hosts of a crawl; delete by crawl             |
 * | `frontier` | `[crawlId+url]`       | `[crawlId+origin+queuedSeq]`     | next / first n queued entries of one host     |
 * |            |                       | `[crawlId+leaseRunId]`           | leased entries of a crawl                     |
 * | `pages`    | `[crawlId+url]`       | `[crawlId+seq]`                  | pages after a seq (export), latest pages,     |
 * |            | (also: sort by URL)   |                                  | results sorted by seq                         |
 * |            |                       | `[crawlId+statusKey+seq]`        | sort by status; status-class filters (ranges) |
 * |            |                       | `[crawlId+mediaKey+seq]`         | sort by type; media-type filter and facet     |
 * |            |                       | `[crawlId+sizeKey+seq]`          | sort by size                                  |
 * |            |                       | `[crawlId+timeKey+seq]`          | sort by response time                         |
 * |            |                       | `[crawlId+depth+seq]`            | sort by depth; depth filter and facet         |
 * |            |                       | `[crawlId+titleKey+seq]`         | sort by title; text search (key-only scan)    |
 * |            |                       | `[crawlId+inlinks+seq]`          | sort by inlinks                               |
 * |            |                       | `[crawlId+isDuplicate+seq]`      | the `duplicate` status class                  |
 * | `bodies`   | `[crawlId+sha256]`    | (key prefix `crawlId`)           | body by hash; delete by crawl                 |
 * | `searchChunks` | `[crawlId+chunk]` | (key prefix `crawlId`)           | search and combined filters: one `getAll`     |
 * | `facetCounts`  | `crawlId`         |                                  | facets: one `get`                             |
 *
 * Schema version 3 adds two derived tables, written by `DexieCrawlStore.putPages`
 * in the same transaction as the rows (and built by the upgrade from existing
 * rows), so for every crawl, at every commit:
 * - {@link SearchChunk}: every page row of the crawl has exactly one entry, in
 *   chunk `floor(seq / SEARCH_CHUNK_ROWS)`, identified by its URL, holding the
 *   row's current search and filter keys. A page's `seq` never changes once
 *   written (the crawl runner's invariant), so a rewrite finds its entry there.
 * - {@link FacetCounts}: the counts of those same entries, per status key,
 *   media key and depth, plus duplicates and `rows` (the crawl's row count).
 * Readers still check `rows` against the row count they see and fall back to
 * the indexes when they disagree (rows written around the store).
 *
 * IndexedDB leaves a record out of an index when the index key is not a valid
 * key (`null`, `undefined`, missing), also when only one part of a compound key
 * is. Two frontier indexes rely on that and hold only the rows they serve:
 * `[crawlId+leaseRunId]` holds leased entries only (`leaseRunId` is null while
 * queued), and `[crawlId+origin+queuedSeq]` holds queued entries only
 * (`queuedSeq` is absent while leased). So `nextEntry` is one index lookup,
 * however long the host's queue and however many entries are leased.
 */
import { Dexie, type Table } from 'dexie';
import type { StoredBody } from '../core/crawl/ports.ts';
import type { CrawlRecord, FrontierEntry, HostState, PageRecord } from '../core/model.ts';

/** Name of the extension's database. Tests pass their own, one per test. */
export const DEFAULT_DATABASE_NAME = 'tabcrawl';

/** A key of the tables keyed by crawl and one more string: `[crawlId, url | origin | sha256]`. */
export type CrawlScopedKey = [crawlId: string, id: string];

/** A frontier entry as stored. */
export interface FrontierRow extends FrontierEntry {
  /**
   * Storage only: equals `seq` while the entry is queued (`leaseRunId === null`),
   * absent while it is leased. Never present on a {@link FrontierEntry} handed out.
   */
  queuedSeq?: number;
}

/**
 * Storage-only sort and filter keys of a page row (schema version 2). IndexedDB
 * leaves a row out of an index whose key is null or missing, so every key here
 * is a valid, non-null key; a missing value sorts before every present one.
 */
export interface PageKeys {
  /** HTTP status; -1 when failed at the network level (or never fetched), -2 when blocked by robots.txt. */
  statusKey: number;
  /** Lower-case media type without parameters (`text/html`); `''` without a content type. */
  mediaKey: string;
  /** `contentLength` in bytes; -1 when unknown. */
  sizeKey: number;
  /** `responseTimeMs` in ms; -1 when never requested. */
  timeKey: number;
  /** Lower-case title; `''` without one. */
  titleKey: string;
  /** 1 when `duplicateOf` is set, else 0 (booleans are not valid keys). */
  isDuplicate: 0 | 1;
}

/** A page as stored: the record plus its {@link PageKeys}. */
export interface PageRow extends PageRecord, PageKeys {}

/** Status key of failed rows (no HTTP status, not blocked). */
export const FAILED_STATUS_KEY = -1;
/** Status key of rows blocked by robots.txt. */
export const BLOCKED_STATUS_KEY = -2;

/** The media type of a `Content-Type` value: lower-case, without parameters; `''` for null or blank. */
export function mediaTypeOf(contentType: string | null): string {
  if (contentType === null) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** The derived keys of a page. */
export function pageKeysOf(page: PageRecord): PageKeys {
  return {
    statusKey: page.blockedBy !== null ? BLOCKED_STATUS_KEY : (page.status ?? FAILED_STATUS_KEY),
    mediaKey: mediaTypeOf(page.contentType),
    sizeKey: page.contentLength ?? -1,
    timeKey: page.responseTimeMs ?? -1,
    titleKey: (page.title ?? '').toLowerCase(),
    isDuplicate: page.duplicateOf === null ? 0 : 1,
  };
}

/** The stored form of a page: the record with its derived keys. */
export function toPageRow(page: PageRecord): PageRow {
  return { ...page, ...pageKeysOf(page) };
}

/** The page a stored row stands for: the row without its storage-only keys. */
export function fromPageRow(row: PageRow): PageRecord {
  const { statusKey: _s, mediaKey: _m, sizeKey: _z, timeKey: _t, titleKey: _i, isDuplicate: _d, ...page } = row;
  return page;
}

/** Rows per {@link SearchChunk}: a chunk record stays small enough to rewrite on every page write. */
export const SEARCH_CHUNK_ROWS = 256;

/**
 * Compact derived keys of up to {@link SEARCH_CHUNK_ROWS} page rows of one crawl
 * (schema version 3): entry `i` of every array is one row. Holds exactly the
 * rows whose `floor(seq / SEARCH_CHUNK_ROWS)` is `chunk`, each once (by URL),
 * in write order. Searches and combined filters read all of a crawl's chunks
 * with one request instead of walking an index.
 */
export interface SearchChunk {
  crawlId: string;
  chunk: number;
  seqs: number[];
  urls: string[];
  /** {@link PageKeys.titleKey} of each row. */
  titleKeys: string[];
  statusKeys: number[];
  mediaKeys: string[];
  depths: number[];
  duplicates: (0 | 1)[];
}

/**
 * Per-crawl counts over the crawl's {@link SearchChunk} entries (schema
 * version 3): a count is never zero (the key is removed instead), so the keys
 * of `mediaKeys` and `depths` are exactly the values present.
 */
export interface FacetCounts {
  crawlId: string;
  /** Page rows of the crawl. */
  rows: number;
  /** Rows per {@link PageKeys.statusKey}. */
  statusKeys: Record<string, number>;
  /** Rows per {@link PageKeys.mediaKey}. */
  mediaKeys: Record<string, number>;
  /** Rows per depth. */
  depths: Record<string, number>;
  /** Rows with `isDuplicate` 1. */
  duplicates: number;
}

/** The chunk a row's seq falls in. */
export function chunkOf(seq: number): number {
  return Math.floor(seq / SEARCH_CHUNK_ROWS);
}

export function emptySearchChunk(crawlId: string, chunk: number): SearchChunk {
  return { crawlId, chunk, seqs: [], urls: [], titleKeys: [], statusKeys: [], mediaKeys: [], depths: [], duplicates: [] };
}

export function emptyFacetCounts(crawlId: string): FacetCounts {
  return { crawlId, rows: 0, statusKeys: {}, mediaKeys: {}, depths: {}, duplicates: 0 };
}

function bump(counts: Record<string, number>, key: string | number, by: number): void {
  const next = (counts[key] ?? 0) + by;
  if (next === 0) delete counts[key];
  else counts[key] = next;
}

function countEntry(counts: FacetCounts, chunk: SearchChunk, i: number, by: 1 | -1): void {
  bump(counts.statusKeys, chunk.statusKeys[i] ?? 0, by);
  bump(counts.mediaKeys, chunk.mediaKeys[i] ?? '', by);
  bump(counts.depths, chunk.depths[i] ?? 0, by);
  if (chunk.duplicates[i] === 1) counts.duplicates += by;
}

/**
 * Records a written row in its chunk (`chunkOf(row.seq)`) and the crawl's
 * counts: a row already in the chunk (same URL) has its entry replaced, its
 * old keys uncounted first; a new row is appended and counted.
 */
export function recordRow(chunk: SearchChunk, counts: FacetCounts, row: PageRow): boolean {
  let i = chunk.urls.indexOf(row.url);
  if (i === -1) {
    i = chunk.urls.length;
    counts.rows += 1;
  } else if (
    chunk.seqs[i] === row.seq &&
    chunk.titleKeys[i] === row.titleKey &&
    chunk.statusKeys[i] === row.statusKey &&
    chunk.mediaKeys[i] === row.mediaKey &&
    chunk.depths[i] === row.depth &&
    chunk.duplicates[i] === row.isDuplicate
  ) {
    // A rewrite that changed nothing indexed here (e.g. inlinks or anchors): nothing to write back.
    return false;
  } else {
    countEntry(counts, chunk, i, -1);
  }
  chunk.seqs[i] = row.seq;
  chunk.urls[i] = row.url;
  chunk.titleKeys[i] = row.titleKey;
  chunk.statusKeys[i] = row.statusKey;
  chunk.mediaKeys[i] = row.mediaKey;
  chunk.depths[i] = row.depth;
  chunk.duplicates[i] = row.isDuplicate;
  countEntry(counts, chunk, i, 1);
  return true;
}

/** The stored form of an entry: `queuedSeq` set exactly when it is queued. */
export function toFrontierRow(entry: FrontierEntry): FrontierRow {
  return entry.leaseRunId === null ? { ...entry, queuedSeq: entry.seq } : entry;
}

/** The entry a stored row stands for: the row without its storage-only fields. */
export function fromFrontierRow(row: FrontierRow): FrontierEntry {
  const { queuedSeq: _storageOnly, ...entry } = row;
  return entry;
}

/** The pages schema of version 2. */
const PAGES_V2 =
  '[crawlId+url], [crawlId+seq], [crawlId+statusKey+seq], [crawlId+mediaKey+seq], [crawlId+sizeKey+seq], ' +
  '[crawlId+timeKey+seq], [crawlId+depth+seq], [crawlId+titleKey+seq], [crawlId+inlinks+seq], [crawlId+isDuplicate+seq]';

export class TabcrawlDatabase extends Dexie {
  declare readonly crawls: Table<CrawlRecord, string>;
  declare readonly hosts: Table<HostState, CrawlScopedKey>;
  declare readonly frontier: Table<FrontierRow, CrawlScopedKey>;
  declare readonly pages: Table<PageRow, CrawlScopedKey>;
  declare readonly bodies: Table<StoredBody, CrawlScopedKey>;
  declare readonly searchChunks: Table<SearchChunk, [crawlId: string, chunk: number]>;
  declare readonly facetCounts: Table<FacetCounts, string>;

  /** @param name IndexedDB database name. @default "tabcrawl" */
  constructor(name: string = DEFAULT_DATABASE_NAME) {
    super(name);
    /**
     * Schema version 1, shipped with Tabcrawl 0.1.0.
     *
     * Never edit a shipped version: browsers that already hold the database
     * would keep the old schema (or fail to open it). To change the schema, add
     * `this.version(n + 1).stores({ ...changed tables only })` below, with an
     * `.upgrade(tx => ...)` that rewrites the existing rows to the new shape.
     */
    this.version(1).stores({
      crawls: 'id, createdAt',
      hosts: '[crawlId+origin]',
      frontier: '[crawlId+url], [crawlId+origin+queuedSeq], [crawlId+leaseRunId]',
      pages: '[crawlId+url], [crawlId+seq]',
      bodies: '[crawlId+sha256]',
    });
    /**
     * Schema version 2, Tabcrawl 0.2.0: the results browser's sort and filter
     * indexes on pages (see the table above), over the keys of {@link PageKeys},
     * which the upgrade fills in on every existing page row.
     */
    this.version(2)
      .stores({ pages: PAGES_V2 })
      .upgrade((trans) =>
        trans
          .table<PageRow, CrawlScopedKey>('pages')
          .toCollection()
          .modify((row) => void Object.assign(row, pageKeysOf(row))),
      );
    /**
     * Schema version 3, Tabcrawl 0.3.0: the derived {@link SearchChunk} and
     * {@link FacetCounts} records (see the invariants above), built here from
     * every existing page row in one pass.
     */
    this.version(3)
      .stores({ searchChunks: '[crawlId+chunk]', facetCounts: 'crawlId' })
      .upgrade(async (trans) => {
        const chunks = new Map<string, SearchChunk>();
        const counts = new Map<string, FacetCounts>();
        await trans
          .table<PageRow, CrawlScopedKey>('pages')
          .toCollection()
          .each((stored) => {
            const row: PageRow = { ...stored, ...pageKeysOf(stored) };
            const chunkKey = JSON.stringify([row.crawlId, chunkOf(row.seq)]);
            let chunk = chunks.get(chunkKey);
            if (chunk === undefined) chunks.set(chunkKey, (chunk = emptySearchChunk(row.crawlId, chunkOf(row.seq))));
            let crawlCounts = counts.get(row.crawlId);
            if (crawlCounts === undefined) counts.set(row.crawlId, (crawlCounts = emptyFacetCounts(row.crawlId)));
            recordRow(chunk, crawlCounts, row);
          });
        await trans.table<SearchChunk, [string, number]>('searchChunks').bulkPut([...chunks.values()]);
        await trans.table<FacetCounts, string>('facetCounts').bulkPut([...counts.values()]);
      });
  }
}

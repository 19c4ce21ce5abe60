/**
 * {@link PageQueries} over IndexedDB (schema version 7, see `database.ts`).
 *
 * Strategy:
 * - An unfiltered window near either end of any sort (within
 *   {@link PageQueriesOptions.indexWindowMax} rows) is read from that sort's
 *   index `[crawlId+<key>+seq]` (URL: the primary key), from the nearer end:
 *   a few ms, always current, and it needs nothing loaded first. This is how
 *   the results page shows its first rows at once.
 * - Everything else (filters, searches, windows deep in a sort) is answered
 *   from the crawl's result chunks (`results-chunks.ts`) held in memory as a
 *   {@link ResultsProjection}: it finds the window's URLs, and only the
 *   window's rows are read, by key. The chunks are read once per crawl (one
 *   range read, ~400 records at 100,000 rows; started in the background by the
 *   first query of a crawl), then kept current at every query by reading only
 *   the chunks written since (the `[crawlId+rev]` index; none while nothing
 *   changed). Catching up, matching and reading the rows happen in one read
 *   transaction, so a window and its total always agree.
 * - Facets come from the crawl's `facetCounts` record (one `get`).
 *
 * Rows written around the store (no `facetCounts` record for a crawl that has
 * rows) are still answered, from a projection built by reading every row:
 * slow, but correct; the store never leaves a crawl that way.
 *
 * Order (both strategies): by the column's key, ties by `seq`, ascending for
 * an ascending sort; a descending sort is exactly the ascending one reversed.
 * A missing value (null status, content type, size, response time or title)
 * sorts before every present value. Status sorts as: blocked, failed, then the
 * HTTP status. Content type sorts by its media type (lower case, no
 * parameters); title by its lower case.
 */
import { Dexie, type IndexableType } from 'dexie';
import {
  SORT_COLUMNS,
  toPageListRow,
  type PageFacets,
  type PageQueries,
  type PageQuery,
  type PageQueryResult,
  type SortColumn,
  type StatusClass,
  type IndexabilityValue,
} from './page-queries.ts';
import { pageKeysOf, type CrawlScopedKey, type PageRow, type TabcrawlDatabase } from './database.ts';
import {
  chunkOf,
  emptyFacetCounts,
  emptyResultsChunk,
  recordRow,
  type FacetCounts,
  type ResultsChunk,
} from './results-chunks.ts';
import { sortIndexOf } from './results-columns.ts';
import {
  byFrequency,
  classOfStatusKey,
  emptyIndexabilityCounts,
  emptyKindCounts,
  hasFilter,
  ResultsProjection,
} from './results-projection.ts';
import type { RowKind } from '../core/model.ts';

/** Tuning of {@link DexieCrawlPageQueries}; tests set these to reach each path with few rows. */
export interface PageQueriesOptions {
  /**
   * An unfiltered window starting at most this many rows from either end of
   * its sort is read from the sort's index (each row skipped costs 3 to 15 µs).
   * @default 1000
   */
  indexWindowMax?: number;
  /** Start reading a crawl's result chunks in the background on its first query. @default true */
  preload?: boolean;
}

/** Crawls whose projections are kept in memory (a few tens of MB per 100,000 rows each: URLs and titles dominate). */
const PROJECTIONS_KEPT = 2;

/** The index each sort column walks. */
const SORT_INDEX = Object.fromEntries(SORT_COLUMNS.map((column) => [column, sortIndexOf(column)])) as Record<
  SortColumn,
  string
>;

/** A crawl's projection, and what it was read at. */
interface Held {
  projection: ResultsProjection;
  /** Built from the rows themselves (no `facetCounts` record): the row count it was built at. */
  fromRows?: number;
}

/** The facets of a crawl's counts. */
function facetsOfCounts(counts: FacetCounts): PageFacets {
  const statusClasses: Record<StatusClass, number> = {
    '2xx': 0,
    '3xx': 0,
    '4xx': 0,
    '5xx': 0,
    failed: 0,
    blocked: 0,
    duplicate: counts.duplicates,
  };
  for (const [key, count] of Object.entries(counts.statusKeys)) statusClasses[classOfStatusKey(Number(key))] += count;
  const kinds = emptyKindCounts();
  for (const [kind, count] of Object.entries(counts.kinds)) if (kind in kinds) kinds[kind as RowKind] += count;
  const indexability = emptyIndexabilityCounts();
  for (const [value, count] of Object.entries(counts.indexability))
    if (value in indexability) indexability[value as IndexabilityValue] += count;
  return {
    kinds,
    indexability,
    statusClasses,
    mediaTypes: Object.entries(counts.mediaKeys)
      .map(([mediaType, count]) => ({ mediaType, count }))
      .sort(byFrequency),
    depths: Object.keys(counts.depths)
      .map(Number)
      .sort((a, b) => a - b),
  };
}

export class DexieCrawlPageQueries implements PageQueries {
  /** Projections by crawl id, least recently used first. */
  private readonly held = new Map<string, Held>();
  /** Projections being read, by crawl id. */
  private readonly loading = new Map<string, Promise<Held>>();
  /** Work started in the background, not awaited by any query. */
  private readonly background = new Set<Promise<void>>();
  private readonly indexWindowMax: number;
  private readonly preload: boolean;

  constructor(
    private readonly db: TabcrawlDatabase,
    options: PageQueriesOptions = {},
  ) {
    this.indexWindowMax = options.indexWindowMax ?? 1000;
    this.preload = options.preload ?? true;
  }

  async query(query: PageQuery): Promise<PageQueryResult> {
    const { crawlId } = query;
    const limit = Math.max(0, Math.floor(query.limit));
    const offset = Math.max(0, Math.floor(query.offset));
    if (!hasFilter(query.filter)) {
      const fromIndex = await this.indexWindow(query, offset, limit);
      if (this.preload) this.prepareInBackground(crawlId, query.sort.column);
      if (fromIndex !== null) return fromIndex;
    }
    await this.load(crawlId);
    const { pages, resultChunks, facetCounts } = this.db;
    return this.db.transaction('r', [pages, resultChunks, facetCounts], async () => {
      const { projection } = await this.caughtUp(crawlId);
      const window = projection.window(query.filter, query.sort, offset, limit);
      const rows = await pages.bulkGet(window.urls.map((url): CrawlScopedKey => [crawlId, url]));
      return { rows: rows.filter((row): row is PageRow => row !== undefined).map(toPageListRow), total: window.total };
    });
  }

  async facets(crawlId: string): Promise<PageFacets> {
    const counts = await this.db.transaction('r', [this.db.facetCounts], () => this.db.facetCounts.get(crawlId));
    if (counts !== undefined) return facetsOfCounts(counts);
    await this.load(crawlId);
    const { pages, resultChunks, facetCounts } = this.db;
    return this.db.transaction('r', [pages, resultChunks, facetCounts], async () =>
      (await this.caughtUp(crawlId)).projection.facets(),
    );
  }

  /**
   * The window from the sort's index when it starts within `indexWindowMax`
   * rows of either end (walked from that end); null otherwise.
   */
  private indexWindow(query: PageQuery, offset: number, limit: number): Promise<PageQueryResult | null> {
    const { pages, facetCounts } = this.db;
    return this.db.transaction('r', [pages, facetCounts], async () => {
      const { crawlId } = query;
      const counts = await facetCounts.get(crawlId);
      const total =
        counts?.rows ??
        (await pages.where('[crawlId+url]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).count());
      const take = Math.max(0, Math.min(limit, total - offset));
      if (take === 0) return { rows: [], total };
      const fromEnd = offset + take / 2 > total / 2;
      const skip = fromEnd ? total - offset - take : offset;
      if (skip > this.indexWindowMax) return null;
      const range = pages
        .where(SORT_INDEX[query.sort.column])
        .between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey] as IndexableType, true, false);
      const rows = await (query.sort.descending !== fromEnd ? range.reverse() : range)
        .offset(skip)
        .limit(take)
        .toArray();
      if (fromEnd) rows.reverse();
      return { rows: rows.map(toPageListRow), total };
    });
  }

  /** Resolves when the reads and sorts started in the background are done (for benchmarks and tests). */
  async whenIdle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  /**
   * Reads the crawl's projection in the background unless held, then (in a
   * task of its own, after the window was shown) computes the order of the
   * column the user sorts by, so that the first filter in that order does not
   * pay for it.
   */
  private prepareInBackground(crawlId: string, column: SortColumn): void {
    const task = this.load(crawlId)
      .then((held) => new Promise<void>((done) => setTimeout(() => done(held.projection.prepare(column)), 0)))
      .catch(() => undefined)
      .finally(() => this.background.delete(task));
    this.background.add(task);
  }

  /** The crawl's projection: held, being read, or read now (in a transaction of its own). */
  private load(crawlId: string): Promise<Held> {
    const held = this.held.get(crawlId);
    if (held !== undefined) return Promise.resolve(held);
    let loading = this.loading.get(crawlId);
    if (loading === undefined) {
      const { pages, resultChunks, facetCounts } = this.db;
      loading = this.db
        .transaction('r', [pages, resultChunks, facetCounts], () => this.read(crawlId))
        .then((read) => {
          this.hold(crawlId, read);
          return read;
        })
        .finally(() => this.loading.delete(crawlId));
      this.loading.set(crawlId, loading);
    }
    return loading;
  }

  private hold(crawlId: string, held: Held): void {
    this.held.delete(crawlId);
    this.held.set(crawlId, held);
    for (const oldest of this.held.keys()) {
      if (this.held.size <= PROJECTIONS_KEPT) break;
      this.held.delete(oldest);
    }
  }

  /**
   * The held projection brought up to date inside the caller's read
   * transaction: the chunks written since its `rev` replace theirs; a crawl
   * without counts is read again from its rows when its row count changed.
   */
  private async caughtUp(crawlId: string): Promise<Held> {
    // Held unless dropped for other crawls since `load`.
    const held = this.held.get(crawlId) ?? (await this.read(crawlId));
    const counts = await this.db.facetCounts.get(crawlId);
    let current = held;
    if (counts === undefined) {
      const rows = await this.db.pages
        .where('[crawlId+url]')
        .between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey])
        .count();
      if (held.fromRows !== rows) current = await this.fromRows(crawlId);
    } else if (held.fromRows !== undefined || counts.rev < held.projection.rev) {
      const chunks = await this.db.resultChunks
        .where('[crawlId+chunk]')
        .between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey])
        .toArray();
      current = { projection: new ResultsProjection(chunks, counts.rev) };
    } else if (counts.rev > held.projection.rev) {
      const written = await this.db.resultChunks
        .where('[crawlId+rev]')
        .between([crawlId, held.projection.rev], [crawlId, Dexie.maxKey], false, true)
        .toArray();
      held.projection.update(written, counts.rev);
    }
    this.hold(crawlId, current);
    return current;
  }

  /** The crawl's projection read from its chunks, or from its rows when it has no counts. In the caller's transaction. */
  private async read(crawlId: string): Promise<Held> {
    const counts = await this.db.facetCounts.get(crawlId);
    if (counts === undefined) return this.fromRows(crawlId);
    const chunks = await this.db.resultChunks
      .where('[crawlId+chunk]')
      .between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey])
      .toArray();
    return { projection: new ResultsProjection(chunks, counts.rev) };
  }

  /** A projection built from every row of the crawl (rows written around the store). */
  private async fromRows(crawlId: string): Promise<Held> {
    const chunks = new Map<number, ResultsChunk>();
    const counts = emptyFacetCounts(crawlId);
    await this.db.pages
      .where('[crawlId+url]')
      .between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey])
      .each((stored) => {
        const row: PageRow = { ...stored, ...pageKeysOf(stored) };
        let chunk = chunks.get(chunkOf(row.seq));
        if (chunk === undefined) chunks.set(chunkOf(row.seq), (chunk = emptyResultsChunk(crawlId, chunkOf(row.seq))));
        recordRow(chunk, counts, row);
      });
    return { projection: new ResultsProjection(chunks.values(), 0), fromRows: counts.rows };
  }
}

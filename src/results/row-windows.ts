/**
 * The rows of a virtualized table, fetched window by window.
 *
 * A window is `windowSize` consecutive rows of the current query's answer,
 * fetched with one `query({ offset, limit })`. The table asks for the range it
 * shows ({@link RowWindows.ensure}); missing windows are fetched once, the last
 * few used are kept, older ones are dropped. Changing the sort or the filter
 * ({@link RowWindows.setQuery}) starts a new generation: the cache is cleared
 * and any reply still on its way for an older query is ignored, so stale rows
 * never show.
 *
 * While a crawl runs, the same query gets new answers: {@link RowWindows.refresh}
 * drops the cached windows but keeps the query, and fetches again the windows
 * last asked for. Until a window's fresh reply arrives, its previous rows are
 * shown; a window is always replaced whole, so stale and fresh rows never mix
 * within one window.
 *
 * Platform-free: no Preact, no browser APIs.
 */
import type { PageListRow, PageQueries, PageQuery } from '../storage/page-queries.ts';

/** A query without its window: what the table's sort and filters decide. */
export type BaseQuery = Omit<PageQuery, 'offset' | 'limit'>;

export interface RowWindowsOptions {
  /** Rows per fetched window. @default 100 */
  windowSize?: number;
  /** Windows kept in memory (the ones on screen are never dropped). @default 8 */
  maxWindows?: number;
}

/** A stable text key for a base query: equal keys, same answer. */
export function queryKey(query: BaseQuery): string {
  const { filter } = query;
  return JSON.stringify([
    query.crawlId,
    query.sort.column,
    query.sort.descending,
    filter.statusClasses ?? [],
    filter.kind ?? null,
    filter.mediaType ?? null,
    filter.depth ?? null,
    filter.indexability ?? null,
    filter.search ?? '',
  ]);
}

export class RowWindows {
  private readonly windowSize: number;
  private readonly maxWindows: number;
  /** Fetched windows of the current generation, by window index; Map order is least recently used first. */
  private readonly windows = new Map<number, PageListRow[]>();
  /**
   * Windows of the previous generation of the same query, shown after a
   * {@link refresh} until their fresh reply replaces them (whole); empty after
   * a new query.
   */
  private stale = new Map<number, PageListRow[]>();
  /** Window indexes of the current generation being fetched. */
  private readonly inFlight = new Set<number>();
  private key: string | null = null;
  private base: BaseQuery | null = null;
  /** Bumped on every new query; a reply carrying an older generation is dropped. */
  private generation = 0;
  /** Rows matching the current query; null until its first reply. */
  private currentTotal: number | null = null;
  private currentError: unknown = null;
  /** Windows of the range last asked for: never evicted. */
  private keep = { first: 0, last: 0 };

  /**
   * @param queries Where rows come from.
   * @param onChange Called after a reply of the current query was stored (or failed).
   */
  constructor(
    private readonly queries: PageQueries,
    private readonly onChange: () => void,
    options: RowWindowsOptions = {},
  ) {
    this.windowSize = options.windowSize ?? 100;
    this.maxWindows = Math.max(options.maxWindows ?? 8, 1);
  }

  /** Rows matching the current query; null until the first reply. */
  get total(): number | null {
    return this.currentTotal;
  }

  /** Why the last fetch of the current query failed; null when none did. */
  get error(): unknown {
    return this.currentError;
  }

  /** Switches to `query`; a no-op when it equals the current one. Returns whether it changed. */
  setQuery(query: BaseQuery): boolean {
    const key = queryKey(query);
    if (key === this.key) return false;
    this.key = key;
    this.base = query;
    this.generation += 1;
    this.windows.clear();
    this.stale.clear();
    this.inFlight.clear();
    this.currentTotal = null;
    this.currentError = null;
    return true;
  }

  /**
   * Keeps the query but forgets its answer: the rows changed underneath (a
   * running crawl wrote more). The windows last asked for are fetched again;
   * meanwhile they show their previous rows and the previous total, so the
   * table neither empties nor jumps. Replies to fetches made before are ignored.
   */
  refresh(): void {
    const base = this.base;
    if (base === null) return;
    this.generation += 1;
    const previous = new Map([...this.stale, ...this.windows]);
    this.stale = new Map();
    for (let index = this.keep.first; index <= this.keep.last; index += 1) {
      const rows = previous.get(index);
      if (rows !== undefined) this.stale.set(index, rows);
    }
    this.windows.clear();
    this.inFlight.clear();
    for (let index = this.keep.first; index <= this.keep.last; index += 1) this.fetch(base, index);
  }

  /** The row at `index` of the current answer, or undefined while its window is not fetched. */
  rowAt(index: number): PageListRow | undefined {
    const windowIndex = Math.floor(index / this.windowSize);
    const window = this.windows.get(windowIndex) ?? this.stale.get(windowIndex);
    return window?.[index % this.windowSize];
  }

  /** Fetches the windows covering rows `first` to `last` (inclusive) that are neither cached nor on their way. */
  ensure(first: number, last: number): void {
    const base = this.base;
    if (base === null) return;
    const lastRow = this.currentTotal === null ? last : Math.min(last, this.currentTotal - 1);
    const firstWindow = Math.floor(Math.max(first, 0) / this.windowSize);
    const lastWindow = Math.max(Math.floor(Math.max(lastRow, 0) / this.windowSize), firstWindow);
    for (let index = firstWindow; index <= lastWindow; index += 1) {
      const cached = this.windows.get(index);
      if (cached !== undefined) {
        // Most recently used goes last.
        this.windows.delete(index);
        this.windows.set(index, cached);
      } else if (!this.inFlight.has(index)) {
        this.fetch(base, index);
      }
    }
    this.keep = { first: firstWindow, last: lastWindow };
    this.evict();
  }

  private fetch(base: BaseQuery, index: number): void {
    const generation = this.generation;
    this.inFlight.add(index);
    this.queries.query({ ...base, offset: index * this.windowSize, limit: this.windowSize }).then(
      (result) => {
        if (generation !== this.generation) return;
        this.inFlight.delete(index);
        this.stale.delete(index);
        this.windows.set(index, result.rows);
        this.evict();
        this.currentTotal = result.total;
        this.currentError = null;
        this.onChange();
      },
      (error: unknown) => {
        if (generation !== this.generation) return;
        this.inFlight.delete(index);
        this.currentError = error;
        this.onChange();
      },
    );
  }

  /** Drops the least recently used windows beyond the limit, never one of the range last asked for. */
  private evict(): void {
    for (const index of this.windows.keys()) {
      if (this.windows.size <= this.maxWindows) return;
      if (index < this.keep.first || index > this.keep.last) this.windows.delete(index);
    }
  }
}

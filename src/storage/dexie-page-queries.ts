/**
 * {@link PageQueries} over the IndexedDB indexes of schema version 2 and the
 * derived records of version 3 (see `database.ts`): facets are read from the
 * crawl's `facetCounts` record (one `get`), and searches and combined filters
 * are matched in memory against a projection read once per crawl from its
 * `searchChunks` (one `getAll`, ~400 records per 100,000 rows) and extended
 * with newer rows by seq; matched that way, a window by seq is read by key at
 * once. When those records do not cover exactly the rows seen (rows written
 * around the store), the index strategies below are used instead.
 *
 * Costs measured on a 2-core machine (`npm run bench:results`):
 * every IndexedDB entry touched costs about 3 to 15 µs (a count or a bulk
 * key read) and a row value 25 to 50 µs, so a query must touch few entries.
 *
 * Order: every sort walks one index `[crawlId+<key>+seq]` (URL: the primary
 * key). Ties are broken by `seq`: ascending for an ascending sort, descending
 * for a descending one (a descending sort is exactly the ascending one
 * reversed). A missing value (null status, content type, size, response time
 * or title) sorts before every present value: first ascending, last
 * descending. Status sorts as: blocked, failed, then the HTTP status. Content
 * type sorts by its media type (lower case, no parameters); title by its lower
 * case.
 *
 * Strategy per query:
 * - No filter: one range of the sort index, skipping `offset` with
 *   `IDBCursor.advance` from whichever end of the range is nearer (by `seq`
 *   it seeks straight to the window: seqs are 1..n). `total` is the crawl's
 *   `counts.done` (the rows written; equals the highest seq).
 * - One filter dimension (status classes without `duplicate` mixed in, a
 *   media type, a depth, no search): `total` from the facets (computed once
 *   per crawl size and cached; a depth: one index count), rows by walking the
 *   sort index's values in chunks and testing each row, from the nearer end,
 *   reading at most `walkRowsMax` rows (else as below). When the filter's
 *   own index range is already in the sort's order (a depth or a media type
 *   by seq or by its own column, one status class by status, duplicates by
 *   seq), that range is read with `advance` like an unfiltered view.
 * - Other filters: each dimension (status classes, media type, depth) is a set of
 *   ranges of one index; the rows it keeps ("in") or the rows it drops
 *   ("out"), whichever side is smaller, are read as primary keys (probing both
 *   sides with growing limits). Search is matched in memory against a cached
 *   projection of (URL, title) read once per crawl from the title index's keys
 *   and extended with newer rows. The sets give the exact `total`; the window
 *   is sorted in memory when few rows match ({@link PageQueriesOptions}),
 *   else found by walking the sort index's primary keys (bulk reads, again
 *   from the nearer end). The last resolved filter is cached, so scrolling a
 *   filtered view only reads its window.
 */
import { Dexie, type Collection, type IndexableType } from 'dexie';
import { toPageListRow, type PageFacets, type PageFilter, type PageListRow, type PageQueries, type PageQuery, type PageQueryResult, type SortColumn, type StatusClass } from './page-queries.ts';
import {
  BLOCKED_STATUS_KEY,
  FAILED_STATUS_KEY,
  type CrawlScopedKey,
  type FacetCounts,
  type PageRow,
  type TabcrawlDatabase,
} from './database.ts';

/** Tuning of {@link DexieCrawlPageQueries}; tests shrink these to reach every path with few rows. */
export interface PageQueriesOptions {
  /** A filter keeping at most this many rows is sorted in memory from their values (about 25 to 50 µs a row). @default 2500 */
  inMemorySortMax?: number;
  /** First limit, in rows, of the primary-key probes of a filter dimension; grows four-fold. @default 2048 */
  probeStart?: number;
  /** A one-dimension filter's window reads at most about this many row values before reading by key instead. @default 3000 */
  walkRowsMax?: number;
}

/** The index each sort column walks. */
const SORT_INDEX: Record<SortColumn, string> = {
  seq: '[crawlId+seq]',
  url: '[crawlId+url]',
  status: '[crawlId+statusKey+seq]',
  contentType: '[crawlId+mediaKey+seq]',
  size: '[crawlId+sizeKey+seq]',
  responseTime: '[crawlId+timeKey+seq]',
  depth: '[crawlId+depth+seq]',
  title: '[crawlId+titleKey+seq]',
  inlinks: '[crawlId+inlinks+seq]',
};

/** The sort key of a row for a column, as its index orders it. */
function sortKeyOf(row: PageRow, column: SortColumn): number | string {
  switch (column) {
    case 'seq':
      return row.seq;
    case 'url':
      return row.url;
    case 'status':
      return row.statusKey;
    case 'contentType':
      return row.mediaKey;
    case 'size':
      return row.sizeKey;
    case 'responseTime':
      return row.timeKey;
    case 'depth':
      return row.depth;
    case 'title':
      return row.titleKey;
    case 'inlinks':
      return row.inlinks;
  }
}

/** Index order of two rows for a column: the key, then `seq`. */
export function compareRows(a: PageRow, b: PageRow, column: SortColumn): number {
  const ka = sortKeyOf(a, column);
  const kb = sortKeyOf(b, column);
  if (ka !== kb) return ka < kb ? -1 : 1;
  return a.seq - b.seq;
}

/** A half-open key range `[lower, upper)` of one index. */
interface KeyRange {
  lower: IndexableType;
  upper: IndexableType;
}

/** One filter dimension: the ranges it keeps and the ranges it drops, of one index. */
interface Dimension {
  index: string;
  keep: KeyRange[];
  drop: KeyRange[];
  /** Rows kept, when known (from cached facets): then only the smaller side is read. */
  keptRows?: number;
}

/** The rows a filter part keeps, as URLs: the kept ones, or every row but the dropped ones. */
type UrlSet = { kind: 'in'; urls: Set<string> } | { kind: 'out'; urls: Set<string> };

/** The six status classes every row is in exactly one of, as ranges of `statusKey`. */
const CLASS_BOUNDS: Record<Exclude<StatusClass, 'duplicate'>, [number, number]> = {
  blocked: [BLOCKED_STATUS_KEY, BLOCKED_STATUS_KEY + 1],
  failed: [FAILED_STATUS_KEY, FAILED_STATUS_KEY + 1],
  '2xx': [0, 300],
  '3xx': [300, 400],
  '4xx': [400, 500],
  '5xx': [500, Infinity],
};
const BASE_CLASSES = Object.keys(CLASS_BOUNDS) as Exclude<StatusClass, 'duplicate'>[];

/** Whether a status key is in a status class. */
function isInClass(statusKey: number, statusClass: Exclude<StatusClass, 'duplicate'>): boolean {
  const [low, high] = CLASS_BOUNDS[statusClass];
  return statusKey >= low && statusKey < high;
}

function classRange(crawlId: string, statusClass: Exclude<StatusClass, 'duplicate'>): KeyRange {
  const [low, high] = CLASS_BOUNDS[statusClass];
  return { lower: [crawlId, low], upper: high === Infinity ? [crawlId, Dexie.maxKey] : [crawlId, high] };
}

/** Rows of `[crawlId+<key>+seq]` whose key equals `value`. */
function equalRange(crawlId: string, value: string | number): KeyRange {
  return { lower: [crawlId, value], upper: [crawlId, value, Dexie.maxKey] };
}

/** Keeps rows whose second key part equals `value`; drops the others. */
function equalDimension(crawlId: string, index: string, value: string | number): Dimension {
  return {
    index,
    keep: [equalRange(crawlId, value)],
    drop: [
      { lower: [crawlId, Dexie.minKey], upper: [crawlId, value] },
      { lower: [crawlId, value, Dexie.maxKey], upper: [crawlId, Dexie.maxKey] },
    ],
  };
}

/** A filter on one dimension: its exact total, a test of a row, and the index range holding exactly its rows when one does. */
interface SingleDimension {
  total: number;
  keeps: (row: PageRow) => boolean;
  /** A range of `index` holding exactly the kept rows, in the order of each of `columns` (then seq). */
  aligned?: { index: string; range: KeyRange; columns: SortColumn[] };
}

/** What a search matches against: one entry per row. */
interface SearchEntry {
  seq: number;
  url: string;
  /** Lower-case URL. */
  urlKey: string;
  /** Lower-case title, `''` without one. */
  titleKey: string;
  /** The row's filter keys: present on every entry of a projection with `hasKeys`. */
  keys?: { statusKey: number; mediaKey: string; depth: number; isDuplicate: 0 | 1 };
}

/** The search projection of one crawl, for rows with `seq <= maxSeq`. */
interface SearchProjection {
  maxSeq: number;
  entries: SearchEntry[];
  /** Every entry has `keys` (read from the search chunks), so any filter can be matched in memory. */
  hasKeys: boolean;
}

/** The facets counted in a crawl's {@link FacetCounts}. */
function facetsOfCounts(counts: FacetCounts): PageFacets {
  const statusClasses: Record<StatusClass, number> = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, failed: 0, blocked: 0, duplicate: counts.duplicates };
  for (const [key, count] of Object.entries(counts.statusKeys)) {
    const statusClass = BASE_CLASSES.find((candidate) => isInClass(Number(key), candidate));
    if (statusClass !== undefined) statusClasses[statusClass] += count;
  }
  return {
    statusClasses,
    mediaTypes: Object.entries(counts.mediaKeys)
      .map(([mediaType, count]) => ({ mediaType, count }))
      .sort(byFrequency),
    depths: Object.keys(counts.depths)
      .map(Number)
      .sort((a, b) => a - b),
  };
}

/** The rows a filter keeps, how many, and (when matched in memory) their URLs in ascending seq order. */
interface ResolvedFilter {
  urls: UrlSet;
  total: number;
  bySeq?: string[];
}

/** Snapshot facts of a crawl a query needs first. */
interface CrawlShape {
  /** Rows of the crawl. */
  total: number;
  /** Highest seq; 0 without rows. */
  maxSeq: number;
  /** Seqs are exactly 1..total (the crawl runner's invariant), so a seq window is a seek. */
  isDense: boolean;
}


/** `facets` with `rows` (rows not counted in them yet) added. */
function withRows(facets: PageFacets, rows: PageRow[]): PageFacets {
  const statusClasses = { ...facets.statusClasses };
  const media = new Map(facets.mediaTypes.map((entry) => [entry.mediaType, entry.count]));
  const depths = new Set(facets.depths);
  for (const row of rows) {
    const statusClass = BASE_CLASSES.find((candidate) => isInClass(row.statusKey, candidate));
    if (statusClass !== undefined) statusClasses[statusClass] += 1;
    if (row.isDuplicate === 1) statusClasses.duplicate += 1;
    media.set(row.mediaKey, (media.get(row.mediaKey) ?? 0) + 1);
    depths.add(row.depth);
  }
  return {
    statusClasses,
    mediaTypes: [...media].map(([mediaType, count]) => ({ mediaType, count })).sort(byFrequency),
    depths: [...depths].sort((a, b) => a - b),
  };
}

/** Most frequent first, then by media type. */
function byFrequency(a: { mediaType: string; count: number }, b: { mediaType: string; count: number }): number {
  return b.count - a.count || (a.mediaType < b.mediaType ? -1 : a.mediaType > b.mediaType ? 1 : 0);
}

function hasFilter(filter: PageFilter): boolean {
  return (filter.statusClasses?.length ?? 0) > 0 || filter.mediaType !== undefined || filter.depth !== undefined || (filter.search ?? '') !== '';
}

export class DexieCrawlPageQueries implements PageQueries {
  /** Search projections by crawl id; valid while rows are only appended (seq grows). */
  private readonly projections = new Map<string, SearchProjection>();
  /** The last filter resolved: its key (crawl, row count, filter) and the rows it keeps. */
  private lastFilter: (ResolvedFilter & { key: string }) | null = null;
  /** Facets by crawl id, with the row count they were computed at (and whether seqs were 1..total then). */
  private readonly facetCache = new Map<string, { total: number; isDense: boolean; facets: PageFacets }>();

  private readonly inMemorySortMax: number;
  private readonly probeStart: number;
  private readonly walkRowsMax: number;

  constructor(
    private readonly db: TabcrawlDatabase,
    options: PageQueriesOptions = {},
  ) {
    this.inMemorySortMax = options.inMemorySortMax ?? 2500;
    this.probeStart = Math.max(1, options.probeStart ?? 2048);
    this.walkRowsMax = options.walkRowsMax ?? 3000;
  }

  query(query: PageQuery): Promise<PageQueryResult> {
    return this.db.transaction('r', [this.db.pages, this.db.crawls, this.db.searchChunks, this.db.facetCounts], async () => {
      const shape = await this.shapeOf(query.crawlId);
      const limit = Math.max(0, Math.floor(query.limit));
      const offset = Math.max(0, Math.floor(query.offset));
      if (!hasFilter(query.filter)) {
        return { rows: await this.unfilteredWindow(query, shape, offset, limit), total: shape.total };
      }
      const single = await this.singleDimension(query.crawlId, query.filter, shape);
      if (single !== null) {
        const take = Math.max(0, Math.min(limit, single.total - offset));
        if (take === 0) return { rows: [], total: single.total };
        if (single.aligned !== undefined && single.aligned.columns.includes(query.sort.column)) {
          const { index, range } = single.aligned;
          const fromEnd = offset + take / 2 > single.total / 2;
          const between = this.db.pages.where(index).between(range.lower, range.upper, true, false);
          const rows = await (query.sort.descending !== fromEnd ? between.reverse() : between)
            .offset(fromEnd ? single.total - offset - take : offset)
            .limit(take)
            .toArray();
          if (fromEnd) rows.reverse();
          return { rows: rows.map(toPageListRow), total: single.total };
        }
        // Kept rows spread evenly need about window * rows / kept values read; when that exceeds the kept rows
        // themselves (or the cap), reading the kept rows by key is cheaper.
        const expectedRows = ((Math.min(offset, single.total - offset - take) + take) * shape.total) / Math.max(1, single.total);
        if (expectedRows <= Math.min(single.total, this.walkRowsMax)) {
          const rows = await this.valueWalk(query, single.keeps, offset, take, single.total, this.walkRowsMax);
          if (rows !== null) return { rows: rows.map(toPageListRow), total: single.total };
        }
      }
      const { urls, total, bySeq } = await this.resolveFilter(query.crawlId, query.filter, shape);
      const take = Math.max(0, Math.min(limit, total - offset));
      if (take === 0) return { rows: [], total };
      if (bySeq !== undefined && query.sort.column === 'seq') {
        // Matched in memory: the kept rows' order by seq is known, so the window is read by key at once.
        const start = query.sort.descending ? total - offset - take : offset;
        const window = bySeq.slice(start, start + take);
        if (query.sort.descending) window.reverse();
        return { rows: (await this.rowsOf(query.crawlId, window)).map(toPageListRow), total };
      }
      const inMemory = async (kept: Set<string>): Promise<PageQueryResult> => {
        const rows = await this.rowsOf(query.crawlId, [...kept]);
        rows.sort((a, b) => compareRows(a, b, query.sort.column));
        if (query.sort.descending) rows.reverse();
        return { rows: rows.slice(offset, offset + take).map(toPageListRow), total };
      };
      if (urls.kind === 'in' && urls.urls.size <= this.inMemorySortMax) return inMemory(urls.urls);
      const keeps = urls.kind === 'in' ? (url: string) => urls.urls.has(url) : (url: string) => !urls.urls.has(url);
      // Reading keys costs about a quarter of reading values: past 4 keys per kept row, sort the kept rows in memory.
      const maxKeys = urls.kind === 'in' ? urls.urls.size * 4 : Infinity;
      const rows = await this.walkWindow(query, keeps, { offset, take, total, crawlRows: shape.total, maxKeys });
      if (rows === null && urls.kind === 'in') return inMemory(urls.urls);
      return { rows: rows ?? [], total };
    });
  }

  facets(crawlId: string): Promise<PageFacets> {
    return this.db.transaction('r', [this.db.pages, this.db.crawls, this.db.searchChunks, this.db.facetCounts], async () => {
      const shape = await this.shapeOf(crawlId);
      const cached = this.facetCache.get(crawlId);
      if (cached !== undefined && cached.total === shape.total) return cached.facets;
      // The counts written with the rows (schema version 3), when they cover exactly the rows seen.
      const written = await this.db.facetCounts.get(crawlId);
      if (written !== undefined && written.rows === shape.total) {
        const facets = facetsOfCounts(written);
        this.facetCache.set(crawlId, { total: shape.total, isDense: shape.isDense, facets });
        return facets;
      }
      if (cached !== undefined && cached.isDense && shape.isDense && cached.total < shape.total) {
        // A running crawl only appends rows (seqs total+1..): count the new rows into the cached facets.
        const newer = await this.db.pages.where('[crawlId+seq]').between([crawlId, cached.total], [crawlId, Dexie.maxKey], false, true).toArray();
        const facets = withRows(cached.facets, newer);
        this.facetCache.set(crawlId, { total: shape.total, isDense: true, facets });
        return facets;
      }

      const countRange = (index: string, range: KeyRange): Promise<number> =>
        this.db.pages.where(index).between(range.lower, range.upper, true, false).count();
      // 2xx is usually most rows: derive it from the others, so counting touches only the rest.
      const statusClasses: Record<StatusClass, number> = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, failed: 0, blocked: 0, duplicate: 0 };
      let others = 0;
      for (const statusClass of BASE_CLASSES) {
        if (statusClass === '2xx') continue;
        statusClasses[statusClass] = await countRange('[crawlId+statusKey+seq]', classRange(crawlId, statusClass));
        others += statusClasses[statusClass];
      }
      statusClasses['2xx'] = shape.total - others;
      statusClasses.duplicate = await countRange('[crawlId+isDuplicate+seq]', equalRange(crawlId, 1));

      const mediaKeys = await this.distinctSecondKeys(crawlId, '[crawlId+mediaKey+seq]');
      // Likewise the most common media type is derived: text/html when present, else counted too.
      const counts = new Map<string, number>();
      let counted = 0;
      for (const mediaKey of mediaKeys) {
        if (mediaKey === 'text/html') continue;
        const count = await countRange('[crawlId+mediaKey+seq]', equalRange(crawlId, mediaKey));
        counts.set(String(mediaKey), count);
        counted += count;
      }
      if (mediaKeys.includes('text/html')) counts.set('text/html', shape.total - counted);
      const mediaTypes = [...counts]
        .map(([mediaType, count]) => ({ mediaType, count }))
        .sort(byFrequency);
      const depths = await this.distinctSecondKeys(crawlId, '[crawlId+depth+seq]');

      const facets: PageFacets = { mediaTypes, depths: depths.filter((d): d is number => typeof d === 'number'), statusClasses };
      this.facetCache.set(crawlId, { total: shape.total, isDense: shape.isDense, facets });
      return facets;
    });
  }

  /**
   * A filter on one dimension whose row count is known from the facets (status
   * classes, or a media type) or one index count (a depth): its exact total and
   * a test of a row. Null for searches and combined filters.
   */
  private async singleDimension(crawlId: string, filter: PageFilter, shape: CrawlShape): Promise<SingleDimension | null> {
    const classes = new Set(filter.statusClasses ?? []);
    const dimensions = (classes.size > 0 ? 1 : 0) + (filter.mediaType !== undefined ? 1 : 0) + (filter.depth !== undefined ? 1 : 0);
    if (dimensions !== 1 || (filter.search ?? '') !== '') return null;
    const { depth, mediaType } = filter;
    if (depth !== undefined) {
      const range = equalRange(crawlId, depth);
      const total = await this.db.pages.where('[crawlId+depth+seq]').between(range.lower, range.upper, true, false).count();
      return { total, keeps: (row) => row.depth === depth, aligned: { index: '[crawlId+depth+seq]', range, columns: ['seq', 'depth'] } };
    }
    const facets = await this.facets(crawlId);
    if (mediaType !== undefined) {
      const mediaKey = mediaType.toLowerCase();
      const total = facets.mediaTypes.find((entry) => entry.mediaType === mediaKey)?.count ?? 0;
      const aligned = { index: '[crawlId+mediaKey+seq]', range: equalRange(crawlId, mediaKey), columns: ['seq', 'contentType'] as SortColumn[] };
      return { total, keeps: (row) => row.mediaKey === mediaKey, aligned };
    }
    const base = BASE_CLASSES.filter((statusClass) => classes.has(statusClass));
    if (classes.has('duplicate') && base.length > 0) return null; // the overlap of duplicates and classes is not counted
    const total = classes.has('duplicate') ? facets.statusClasses.duplicate : base.reduce((sum, statusClass) => sum + facets.statusClasses[statusClass], 0);
    if (classes.has('duplicate')) {
      return { total, keeps: (row) => row.isDuplicate === 1, aligned: { index: '[crawlId+isDuplicate+seq]', range: equalRange(crawlId, 1), columns: ['seq'] } };
    }
    const [onlyClass] = base;
    const keeps = (row: PageRow): boolean => base.some((statusClass) => isInClass(row.statusKey, statusClass));
    if (base.length !== 1 || onlyClass === undefined) return { total, keeps };
    return { total, keeps, aligned: { index: '[crawlId+statusKey+seq]', range: classRange(crawlId, onlyClass), columns: ['status'] } };
  }

  /**
   * The window of rows passing `keeps`, walking the sort index's row values in
   * chunks from the nearer end (resuming after the last row's index key). Null
   * when that would read more than `maxRows` rows (a sparse filter, or one
   * correlated with the sort, e.g. blocked rows by title): the caller then
   * reads the filter's rows by key instead.
   */
  private async valueWalk(
    query: PageQuery,
    keeps: (row: PageRow) => boolean,
    offset: number,
    take: number,
    total: number,
    maxRows: number,
  ): Promise<PageRow[] | null> {
    const { crawlId } = query;
    const column = query.sort.column;
    const fromEnd = offset + take / 2 > total / 2;
    const skip = fromEnd ? total - offset - take : offset;
    const reverse = query.sort.descending !== fromEnd;
    const keyOf = (row: PageRow): IndexableType => (column === 'url' ? [crawlId, row.url] : [crawlId, sortKeyOf(row, column), row.seq]);
    const kept: PageRow[] = [];
    let last: PageRow | undefined;
    let scanned = 0;
    for (let chunk = 64; kept.length < skip + take; chunk = Math.min(chunk * 2, 2048)) {
      if (scanned > maxRows) return null;
      const lower: IndexableType = !reverse && last !== undefined ? keyOf(last) : [crawlId, Dexie.minKey];
      const upper: IndexableType = reverse && last !== undefined ? keyOf(last) : [crawlId, Dexie.maxKey];
      const range = this.db.pages.where(SORT_INDEX[column]).between(lower, upper, last === undefined || reverse, false);
      const rows = await (reverse ? range.reverse() : range).limit(chunk).toArray();
      scanned += rows.length;
      for (const row of rows) if (keeps(row)) kept.push(row);
      last = rows[rows.length - 1];
      if (rows.length < chunk) break;
    }
    const window = kept.slice(skip, skip + take);
    return fromEnd ? window.reverse() : window;
  }

  /** Row count and highest seq: from the crawl record when it agrees with the seq index, else counted. */
  private async shapeOf(crawlId: string): Promise<CrawlShape> {
    const bySeq = (): Collection<PageRow, CrawlScopedKey> => this.db.pages.where('[crawlId+seq]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]);
    const seqOf = (keys: IndexableType[]): number | undefined => {
      const [key] = keys;
      return Array.isArray(key) && typeof key[1] === 'number' ? key[1] : undefined;
    };
    const [crawl, last, first] = await Promise.all([this.db.crawls.get(crawlId), bySeq().reverse().limit(1).keys(), bySeq().limit(1).keys()]);
    const maxSeq = seqOf(last);
    if (maxSeq === undefined) return { total: 0, maxSeq: 0, isDense: true };
    const firstSeq = seqOf(first);
    if (crawl !== undefined && crawl.counts.done === maxSeq && firstSeq === 1) return { total: maxSeq, maxSeq, isDense: true };
    const total = await this.db.pages.where('[crawlId+url]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).count();
    return { total, maxSeq, isDense: total === maxSeq && firstSeq === 1 };
  }

  /** The distinct second parts of `[crawlId+<key>+seq]`, ascending: one index lookup per distinct value. */
  private async distinctSecondKeys(crawlId: string, index: string): Promise<(string | number)[]> {
    const found: (string | number)[] = [];
    let lower: IndexableType = [crawlId, Dexie.minKey];
    for (;;) {
      const [key] = await this.db.pages.where(index).between(lower, [crawlId, Dexie.maxKey], true, false).limit(1).keys();
      const value: unknown = Array.isArray(key) ? key[1] : undefined;
      if (typeof value !== 'string' && typeof value !== 'number') return found;
      found.push(value);
      lower = [crawlId, value, Dexie.maxKey] as IndexableType;
    }
  }

  private sortCollection(query: PageQuery, lower: IndexableType, reverse: boolean): Collection<PageRow, CrawlScopedKey> {
    const collection = this.db.pages.where(SORT_INDEX[query.sort.column]).between(lower, [query.crawlId, Dexie.maxKey], true, false);
    return reverse ? collection.reverse() : collection;
  }

  private async unfilteredWindow(query: PageQuery, shape: CrawlShape, offset: number, limit: number): Promise<PageListRow[]> {
    const take = Math.max(0, Math.min(limit, shape.total - offset));
    if (take === 0) return [];
    const { crawlId } = query;
    if (query.sort.column === 'seq' && shape.isDense) {
      const low = query.sort.descending ? shape.total - offset - take + 1 : offset + 1;
      const rows = await this.db.pages.where('[crawlId+seq]').between([crawlId, low], [crawlId, low + take], true, false).toArray();
      if (query.sort.descending) rows.reverse();
      return rows.map(toPageListRow);
    }
    // Walk from the nearer end: positions [offset, offset + take) are [total - offset - take, total - offset) backwards.
    const fromEnd = offset + take / 2 > shape.total / 2;
    const skip = fromEnd ? shape.total - offset - take : offset;
    const rows = await this.sortCollection(query, [crawlId, Dexie.minKey], query.sort.descending !== fromEnd)
      .offset(skip)
      .limit(take)
      .toArray();
    if (fromEnd) rows.reverse();
    return rows.map(toPageListRow);
  }

  /**
   * The window of a filtered view that keeps too many rows to sort in memory:
   * the sort index's primary keys are read in bulk from the nearer end, with a
   * limit that grows four-fold until the window is covered. Null when the
   * limit would pass four times `maxKeys` (kept rows bunched at the far end).
   */
  private async walkWindow(
    query: PageQuery,
    keeps: (url: string) => boolean,
    window: { offset: number; take: number; total: number; crawlRows: number; maxKeys: number },
  ): Promise<PageListRow[] | null> {
    const { offset, take, total, crawlRows, maxKeys } = window;
    const fromEnd = offset + take / 2 > total / 2;
    const skip = fromEnd ? total - offset - take : offset;
    const collection = (): Collection<PageRow, CrawlScopedKey> =>
      this.sortCollection(query, [query.crawlId, Dexie.minKey], query.sort.descending !== fromEnd);
    let urls: string[] = [];
    // Kept rows are spread over the index about evenly: expect (skip + take) * rows / kept entries, plus a margin.
    const expected = Math.ceil(((skip + take) * crawlRows) / Math.max(1, total) * 1.25) + 64;
    for (let limit = expected; ; limit *= 4) {
      if (limit > maxKeys * 4) return null;
      const keys = await collection().limit(limit).primaryKeys();
      const kept = keys.map((key) => key[1]).filter(keeps);
      if (kept.length >= skip + take || keys.length < limit) {
        urls = kept.slice(skip, skip + take);
        break;
      }
    }
    if (fromEnd) urls.reverse();
    return (await this.rowsOf(query.crawlId, urls)).map(toPageListRow);
  }

  private async rowsOf(crawlId: string, urls: string[]): Promise<PageRow[]> {
    const rows = await this.db.pages.bulkGet(urls.map((url): CrawlScopedKey => [crawlId, url]));
    return rows.filter((row): row is PageRow => row !== undefined);
  }

  /** The rows a filter keeps, and how many; the last one is cached for scrolling. */
  private async resolveFilter(crawlId: string, filter: PageFilter, shape: CrawlShape): Promise<ResolvedFilter> {
    const key = JSON.stringify([crawlId, shape.total, shape.maxSeq, filter.statusClasses ?? [], filter.mediaType ?? null, filter.depth ?? null, filter.search ?? '']);
    if (this.lastFilter?.key === key) return this.lastFilter;

    const projection = await this.projectionOf(crawlId, shape);
    if (projection?.hasKeys === true) {
      const resolved = { key, ...matchInMemory(projection, filter) };
      this.lastFilter = resolved;
      return resolved;
    }

    const facets = this.facetCache.get(crawlId);
    const known = facets !== undefined && facets.total === shape.total ? facets.facets : undefined;
    const parts: UrlSet[] = [];
    const classes = new Set(filter.statusClasses ?? []);
    const baseClasses = BASE_CLASSES.filter((statusClass) => classes.has(statusClass));
    if (classes.size > 0) {
      const statusPart =
        baseClasses.length === 0
          ? ({ kind: 'in', urls: new Set<string>() } as const)
          : await this.resolveDimension({
              index: '[crawlId+statusKey+seq]',
              keep: baseClasses.map((statusClass) => classRange(crawlId, statusClass)),
              drop: BASE_CLASSES.filter((statusClass) => !classes.has(statusClass)).map((statusClass) => classRange(crawlId, statusClass)),
              ...(known === undefined ? {} : { keptRows: baseClasses.reduce((sum, statusClass) => sum + known.statusClasses[statusClass], 0) }),
            }, shape.total);
      if (classes.has('duplicate')) {
        const duplicates = await this.resolveDimension(equalDimension(crawlId, '[crawlId+isDuplicate+seq]', 1), shape.total, true);
        // (rows in statusPart) or duplicates: union of "in" sets; for an "out" set, no longer drop the duplicates.
        for (const url of duplicates.urls) {
          if (statusPart.kind === 'in') statusPart.urls.add(url);
          else statusPart.urls.delete(url);
        }
      }
      parts.push(statusPart);
    }
    if (filter.mediaType !== undefined) {
      const mediaType = filter.mediaType.toLowerCase();
      const dimension = equalDimension(crawlId, '[crawlId+mediaKey+seq]', mediaType);
      if (known !== undefined) dimension.keptRows = known.mediaTypes.find((entry) => entry.mediaType === mediaType)?.count ?? 0;
      parts.push(await this.resolveDimension(dimension, shape.total));
    }
    if (filter.depth !== undefined) parts.push(await this.resolveDimension(equalDimension(crawlId, '[crawlId+depth+seq]', filter.depth), shape.total));
    if ((filter.search ?? '') !== '') parts.push(await this.searchPart(crawlId, filter.search ?? '', shape));

    const ins = parts.filter((part) => part.kind === 'in').sort((a, b) => a.urls.size - b.urls.size);
    const outs = parts.filter((part) => part.kind === 'out');
    let urls: UrlSet;
    let total: number;
    const [smallest, ...otherIns] = ins;
    if (smallest !== undefined) {
      const kept = [...smallest.urls].filter((url) => otherIns.every((part) => part.urls.has(url)) && outs.every((part) => !part.urls.has(url)));
      urls = { kind: 'in', urls: new Set(kept) };
      total = kept.length;
    } else {
      const dropped = new Set<string>();
      for (const part of outs) for (const url of part.urls) dropped.add(url);
      urls = { kind: 'out', urls: dropped };
      total = shape.total - dropped.size;
    }
    const resolved = { key, urls, total };
    this.lastFilter = resolved;
    return resolved;
  }

  /**
   * The smaller side of a dimension as URLs: the kept rows ("in") or the
   * dropped rows ("out"), probing both with limits growing four-fold, so the
   * cost is about proportional to the smaller side. With `keptRows` known,
   * reads the smaller side at once. `keepOnly` reads the kept side alone.
   */
  private async resolveDimension(dimension: Dimension, crawlRows: number, keepOnly: true): Promise<{ kind: 'in'; urls: Set<string> }>;
  private async resolveDimension(dimension: Dimension, crawlRows: number, keepOnly?: boolean): Promise<UrlSet>;
  private async resolveDimension(dimension: Dimension, crawlRows: number, keepOnly = false): Promise<UrlSet> {
    if (dimension.keptRows !== undefined && !keepOnly) {
      const side = dimension.keptRows <= crawlRows - dimension.keptRows ? 'in' : 'out';
      const urls = await this.urlsIn(dimension.index, side === 'in' ? dimension.keep : dimension.drop, Infinity);
      if (urls !== null) return { kind: side, urls };
    }
    for (let limit = keepOnly ? Infinity : this.probeStart; ; limit *= 4) {
      const kept = await this.urlsIn(dimension.index, dimension.keep, limit);
      if (kept !== null) return { kind: 'in', urls: kept };
      const dropped = await this.urlsIn(dimension.index, dimension.drop, limit);
      if (dropped !== null) return { kind: 'out', urls: dropped };
    }
  }

  /** URLs of the rows in `ranges`, or null when there are more than `limit`. */
  private async urlsIn(index: string, ranges: KeyRange[], limit: number): Promise<Set<string> | null> {
    const urls = new Set<string>();
    for (const range of ranges) {
      const left = limit - urls.size;
      const collection = this.db.pages.where(index).between(range.lower, range.upper, true, false);
      const keys = await (left === Infinity ? collection : collection.limit(left + 1)).primaryKeys();
      for (const key of keys) urls.add(key[1]);
      if (urls.size > limit) return null;
    }
    return urls;
  }

  /**
   * The crawl's search projection, up to date with `shape`: built once from
   * the search chunks (one `getAll`; with filter keys) when they hold exactly
   * the crawl's rows, else from a key-only walk of the title index (without);
   * then extended with rows written since (by seq). Null for a crawl without rows.
   */
  private async projectionOf(crawlId: string, shape: CrawlShape): Promise<SearchProjection | null> {
    if (shape.total === 0) return null;
    let projection = this.projections.get(crawlId);
    if (projection === undefined || projection.maxSeq > shape.maxSeq) {
      projection = (await this.chunkProjection(crawlId, shape)) ?? (await this.titleIndexProjection(crawlId, shape));
      this.projections.set(crawlId, projection);
    } else if (projection.maxSeq < shape.maxSeq) {
      const newer = await this.db.pages.where('[crawlId+seq]').between([crawlId, projection.maxSeq], [crawlId, Dexie.maxKey], false, true).toArray();
      for (const row of newer) {
        const { statusKey, mediaKey, depth, isDuplicate } = row;
        projection.entries.push({ seq: row.seq, url: row.url, urlKey: row.url.toLowerCase(), titleKey: row.titleKey, keys: { statusKey, mediaKey, depth, isDuplicate } });
      }
      projection.maxSeq = shape.maxSeq;
    }
    return projection;
  }

  /** The projection from the crawl's search chunks; null when they do not hold exactly `shape.total` rows. */
  private async chunkProjection(crawlId: string, shape: CrawlShape): Promise<SearchProjection | null> {
    const chunks = await this.db.searchChunks.where('[crawlId+chunk]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).toArray();
    const entries: SearchEntry[] = [];
    let maxSeq = 0;
    for (const chunk of chunks) {
      chunk.urls.forEach((url, i) => {
        maxSeq = Math.max(maxSeq, chunk.seqs[i] ?? 0);
        entries.push({
          seq: chunk.seqs[i] ?? 0,
          url,
          urlKey: url.toLowerCase(),
          titleKey: chunk.titleKeys[i] ?? '',
          keys: { statusKey: chunk.statusKeys[i] ?? 0, mediaKey: chunk.mediaKeys[i] ?? '', depth: chunk.depths[i] ?? 0, isDuplicate: chunk.duplicates[i] ?? 0 },
        });
      });
    }
    if (entries.length !== shape.total || maxSeq !== shape.maxSeq) return null;
    return { maxSeq, entries, hasKeys: true };
  }

  /** The projection from a key-only walk of the title index: its keys hold the title, its primary keys the URL. */
  private async titleIndexProjection(crawlId: string, shape: CrawlShape): Promise<SearchProjection> {
    const entries: SearchEntry[] = [];
    await this.db.pages
      .where('[crawlId+titleKey+seq]')
      .between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey])
      .eachKey((key, cursor) => {
        const url = cursor.primaryKey[1];
        const parts = key as IndexableType[];
        entries.push({ seq: Number(parts[2]), url, urlKey: url.toLowerCase(), titleKey: String(parts[1]) });
      });
    return { maxSeq: shape.maxSeq, entries, hasKeys: false };
  }

  /** Rows whose URL or title contains `search`, case-insensitively, from the crawl's cached projection. */
  private async searchPart(crawlId: string, search: string, shape: CrawlShape): Promise<UrlSet> {
    const projection = await this.projectionOf(crawlId, shape);
    const needle = search.toLowerCase();
    const urls = new Set<string>();
    for (const entry of projection?.entries ?? []) if (entry.urlKey.includes(needle) || entry.titleKey.includes(needle)) urls.add(entry.url);
    return { kind: 'in', urls };
  }
}

/** The rows of a projection with filter keys that `filter` keeps, and how many. */
function matchInMemory(projection: SearchProjection, filter: PageFilter): Required<ResolvedFilter> {
  const classes = new Set(filter.statusClasses ?? []);
  const baseClasses = BASE_CLASSES.filter((statusClass) => classes.has(statusClass));
  const withDuplicates = classes.has('duplicate');
  const mediaType = filter.mediaType?.toLowerCase();
  const { depth } = filter;
  const needle = (filter.search ?? '').toLowerCase();
  const kept: SearchEntry[] = [];
  for (const entry of projection.entries) {
    const { keys } = entry;
    if (keys === undefined) continue;
    if (classes.size > 0 && !((withDuplicates && keys.isDuplicate === 1) || baseClasses.some((statusClass) => isInClass(keys.statusKey, statusClass)))) continue;
    if (mediaType !== undefined && keys.mediaKey !== mediaType) continue;
    if (depth !== undefined && keys.depth !== depth) continue;
    if (needle !== '' && !entry.urlKey.includes(needle) && !entry.titleKey.includes(needle)) continue;
    kept.push(entry);
  }
  kept.sort((a, b) => a.seq - b.seq);
  const bySeq = kept.map((entry) => entry.url);
  return { urls: { kind: 'in', urls: new Set(bySeq) }, total: bySeq.length, bySeq };
}

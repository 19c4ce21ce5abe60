/**
 * In-memory stand-ins for the results browser's data: a {@link PageQueries}
 * that implements the contract simply (filter, sort, slice) and records every
 * query, and a {@link RowReader} over a list of rows. Plus row builders.
 */
import {
  emptyCounts,
  type CrawlRecord,
  type NotCrawledReason,
  type NotCrawledUrl,
  type PageRecord,
  type RowKind,
} from '../../../src/core/model.ts';
import { DEFAULT_SETTINGS } from '../../../src/core/settings.ts';
import { mediaType } from '../../../src/results/format.ts';
import type { RowReader } from '../../../src/results/row-reader.ts';
import { queryKey } from '../../../src/results/row-windows.ts';
import type {
  PageFacets,
  PageListRow,
  PageQueries,
  PageQuery,
  PageQueryResult,
  SortColumn,
  StatusClass,
} from '../../../src/storage/page-queries.ts';
import { indexabilityCode, INDEXABILITY_VALUES, toPageListRow } from '../../../src/storage/page-queries.ts';

export const SITE = 'https://site.example';
export const CRAWL_ID = 'crawl-1';

export function crawlRecord(overrides: Partial<CrawlRecord> = {}): CrawlRecord {
  return {
    id: CRAWL_ID,
    settings: { ...DEFAULT_SETTINGS, excludePatterns: ['*/private/*'], startUrl: `${SITE}/` },
    state: 'finished',
    createdAt: 1_700_000_000_000,
    endedAt: 1_700_000_100_000,
    counts: { ...emptyCounts(), admitted: 12, done: 10, fetched: 9, errors: 2, blocked: 1 },
    message: null,
    nextSeq: 13,
    ...overrides,
  };
}

/** A full row: a 200 HTML page at depth 1 unless overridden. */
export function pageRecord(seq: number, overrides: Partial<PageRecord> = {}): PageRecord {
  return {
    crawlId: CRAWL_ID,
    url: `${SITE}/p${seq}`,
    origin: SITE,
    kind: 'page',
    depth: 1,
    referrer: `${SITE}/`,
    anchors: [],
    inlinks: 0,
    seq,
    status: 200,
    contentType: 'text/html; charset=utf-8',
    contentLength: 2048,
    location: null,
    methods: ['GET'],
    fetchedAt: 1_700_000_000_000 + seq * 1000,
    responseTimeMs: 40 + seq,
    headers: [['content-type', 'text/html; charset=utf-8']],
    statusLine: null,
    requestHeaders: null,
    ipAddress: null,
    sha256: null,
    duplicateOf: null,
    truncated: false,
    title: `Page ${seq}`,
    links: [],
    linkTexts: [],
    resources: [],
    blockedBy: null,
    blockedRule: null,
    error: null,
    ...overrides,
  };
}

/** What the results table shows of a full row (the real mapping). */
export const listRowOf = toPageListRow;

/** `count` list rows made cheaply: statuses cycle 200, 200, 301, 404, 500; depth = seq % 5. */
export function manyListRows(count: number): PageListRow[] {
  const statuses = [200, 200, 301, 404, 500] as const;
  const rows: PageListRow[] = [];
  for (let seq = 1; seq <= count; seq += 1) {
    const status = statuses[seq % statuses.length] ?? 200;
    rows.push({
      seq,
      url: `${SITE}/page/${seq}`,
      kind: 'page',
      status,
      contentType: 'text/html',
      contentLength: 1000 + seq,
      responseTimeMs: seq % 997,
      depth: seq % 5,
      title: `Title ${seq}`,
      inlinks: seq % 13,
      location: status === 301 ? `${SITE}/page/${seq + 1}` : null,
      blockedBy: null,
      error: null,
      duplicateOf: null,
      // 200: indexable but every 7th (noindex); 301: redirected; 404, 500: not-200.
      indexability:
        status === 200
          ? seq % 7 === 0
            ? { indexable: false, reason: 'noindex' }
            : { indexable: true }
          : { indexable: false, reason: status === 301 ? 'redirected' : 'not-200' },
      wordCount: (seq * 37) % 500,
      h1Count: seq % 3,
      h1: seq % 3 === 0 ? null : `Heading ${seq}`,
      internalLinks: (seq * 11) % 40,
      outboundLinks: seq % 4,
      rendered: seq % 10 === 0 ? 'rendered' : '',
    });
  }
  return rows;
}

/** The one status class of a row (duplicate aside). */
function statusClassOf(row: PageListRow): Exclude<StatusClass, 'duplicate'> {
  if (row.blockedBy !== null) return 'blocked';
  if (row.status === null) return 'failed';
  if (row.status < 300) return '2xx';
  if (row.status < 400) return '3xx';
  if (row.status < 500) return '4xx';
  return '5xx';
}

function matches(row: PageListRow, query: PageQuery): boolean {
  const { filter } = query;
  if (filter.kind !== undefined && row.kind !== filter.kind) return false;
  if (filter.statusClasses !== undefined && filter.statusClasses.length > 0) {
    const isIn =
      filter.statusClasses.includes(statusClassOf(row)) ||
      (filter.statusClasses.includes('duplicate') && row.duplicateOf !== null);
    if (!isIn) return false;
  }
  if (filter.mediaType !== undefined && mediaType(row.contentType) !== filter.mediaType) return false;
  if (filter.depth !== undefined && row.depth !== filter.depth) return false;
  if (
    filter.indexability !== undefined &&
    indexabilityCode(row.indexability) !== INDEXABILITY_VALUES.indexOf(filter.indexability)
  )
    return false;
  if (filter.search !== undefined && filter.search !== '') {
    const needle = filter.search.toLowerCase();
    if (!row.url.toLowerCase().includes(needle) && !(row.title ?? '').toLowerCase().includes(needle)) return false;
  }
  return true;
}

const SORT_VALUES: Record<SortColumn, (row: PageListRow) => string | number | null> = {
  seq: (row) => row.seq,
  url: (row) => row.url,
  status: (row) => row.status,
  contentType: (row) => row.contentType,
  size: (row) => row.contentLength,
  responseTime: (row) => row.responseTimeMs,
  depth: (row) => row.depth,
  title: (row) => row.title,
  inlinks: (row) => row.inlinks,
  indexability: (row) => indexabilityCode(row.indexability),
  words: (row) => row.wordCount,
  h1Count: (row) => row.h1Count,
  internalLinks: (row) => row.internalLinks,
  outboundLinks: (row) => row.outboundLinks,
  rendered: (row) => row.rendered,
};

/** Compares two sort values; nulls first ascending. */
function compare(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

/** A reply held back until the test lets it go. */
export interface HeldReply {
  query: PageQuery;
  release: () => void;
}

/** {@link PageQueries} over an array: filters, sorts (ties by seq) and slices; records every call. */
export class FakePageQueries implements PageQueries {
  /** Every query received, in order. */
  readonly queries: PageQuery[] = [];
  readonly facetCalls: string[] = [];
  /** When true, replies wait in {@link held} until released. */
  isHolding = false;
  readonly held: HeldReply[] = [];
  private readonly sorted = new Map<string, PageListRow[]>();

  constructor(
    private readonly rows: readonly PageListRow[],
    private readonly facetsAnswer: PageFacets = facetsOf(rows),
  ) {}

  query(query: PageQuery): Promise<PageQueryResult> {
    this.queries.push(query);
    const key = queryKey(query);
    let answer = this.sorted.get(key);
    if (answer === undefined) {
      const values = SORT_VALUES[query.sort.column];
      const direction = query.sort.descending ? -1 : 1;
      answer = this.rows.filter((row) => matches(row, query));
      if (query.sort.column !== 'seq')
        answer.sort((a, b) => direction * compare(values(a), values(b)) || a.seq - b.seq);
      else if (query.sort.descending) answer.reverse();
      this.sorted.set(key, answer);
    }
    const result: PageQueryResult = {
      rows: answer.slice(query.offset, query.offset + query.limit),
      total: answer.length,
    };
    if (!this.isHolding) return Promise.resolve(result);
    return new Promise((resolve) => this.held.push({ query, release: () => resolve(result) }));
  }

  facets(crawlId: string): Promise<PageFacets> {
    this.facetCalls.push(crawlId);
    return Promise.resolve(this.facetsAnswer);
  }

  /** The last query received; throws when there is none. */
  lastQuery(): PageQuery {
    const last = this.queries[this.queries.length - 1];
    if (last === undefined) throw new Error('no query received');
    return last;
  }
}

/** Facets computed from rows, as the real implementation would. */
export function facetsOf(rows: readonly PageListRow[]): PageFacets {
  const statusClasses: Record<StatusClass, number> = {
    '2xx': 0,
    '3xx': 0,
    '4xx': 0,
    '5xx': 0,
    failed: 0,
    blocked: 0,
    duplicate: 0,
  };
  const types = new Map<string, number>();
  const depths = new Set<number>();
  const kinds: Record<RowKind, number> = { page: 0, sitemap: 0, resource: 0, file: 0, external: 0 };
  const indexability = Object.fromEntries(INDEXABILITY_VALUES.map((value) => [value, 0])) as PageFacets['indexability'];
  for (const row of rows) {
    const value = INDEXABILITY_VALUES[indexabilityCode(row.indexability)];
    if (value !== undefined) indexability[value] += 1;
    statusClasses[statusClassOf(row)] += 1;
    kinds[row.kind] += 1;
    if (row.duplicateOf !== null) statusClasses.duplicate += 1;
    const type = mediaType(row.contentType);
    types.set(type, (types.get(type) ?? 0) + 1);
    depths.add(row.depth);
  }
  return {
    statusClasses,
    mediaTypes: [...types].map(([type, count]) => ({ mediaType: type, count })).sort((a, b) => b.count - a.count),
    depths: [...depths].sort((a, b) => a - b),
    kinds,
    indexability,
  };
}

/** {@link RowReader} over full rows; counts `rowsAfter` calls. */
export class FakeRowReader implements RowReader {
  readonly rowsAfterCalls: { afterSeq: number; limit: number }[] = [];
  private readonly byUrl: Map<string, PageRecord>;
  private readonly bySeq: PageRecord[];

  constructor(
    rows: readonly PageRecord[],
    private readonly crawl: CrawlRecord | undefined = crawlRecord(),
    /** URLs left unvisited, as the store holds them. */
    private readonly notCrawled: readonly NotCrawledUrl[] = [],
  ) {
    this.byUrl = new Map(rows.map((row) => [row.url, row]));
    this.bySeq = [...rows].sort((a, b) => a.seq - b.seq);
  }

  /** Bodies by digest, as the store holds them. */
  readonly bodies = new Map<string, Uint8Array>();

  getBody(crawlId: string, sha256: string): Promise<Uint8Array | undefined> {
    return Promise.resolve(crawlId === CRAWL_ID ? this.bodies.get(sha256) : undefined);
  }

  getRow(crawlId: string, url: string): Promise<PageRecord | undefined> {
    return Promise.resolve(crawlId === CRAWL_ID ? this.byUrl.get(url) : undefined);
  }

  getRows(crawlId: string, urls: readonly string[]): Promise<(PageRecord | undefined)[]> {
    return Promise.resolve(urls.map((url) => (crawlId === CRAWL_ID ? this.byUrl.get(url) : undefined)));
  }

  rowsAfter(crawlId: string, afterSeq: number, limit: number): Promise<PageRecord[]> {
    this.rowsAfterCalls.push({ afterSeq, limit });
    if (crawlId !== CRAWL_ID) return Promise.resolve([]);
    return Promise.resolve(this.bySeq.filter((row) => row.seq > afterSeq).slice(0, limit));
  }

  getCrawl(crawlId: string): Promise<CrawlRecord | undefined> {
    return Promise.resolve(crawlId === CRAWL_ID ? this.crawl : undefined);
  }

  notCrawledAfter(
    crawlId: string,
    afterUrl: string | null,
    limit: number,
    reason: NotCrawledReason | null,
  ): Promise<NotCrawledUrl[]> {
    const urls = this.notCrawled
      .filter(
        (u) =>
          u.crawlId === crawlId && (reason === null || u.reason === reason) && (afterUrl === null || u.url > afterUrl),
      )
      .sort((a, b) => (a.url < b.url ? -1 : 1));
    return Promise.resolve(urls.slice(0, limit));
  }
}

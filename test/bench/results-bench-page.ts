/**
 * Browser side of `npm run bench:results` (bundled by esbuild, served by
 * `results-bench.ts`): seeds a crawl of varied rows, then times the results
 * browser's queries. Exposes {@link ResultsBenchApi} on `window`.
 */
import type { CrawlRecord, PageRecord } from '../../src/core/model.ts';
import { emptyCounts } from '../../src/core/model.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { TabcrawlDatabase } from '../../src/storage/database.ts';
import { DexieCrawlPageQueries } from '../../src/storage/dexie-page-queries.ts';
import { DexieCrawlStore } from '../../src/storage/dexie-crawl-store.ts';
import { SORT_COLUMNS, type PageFilter, type PageQuery, type SortColumn } from '../../src/storage/page-queries.ts';

export const BENCH_DATABASE = 'tabcrawl-results-bench';
export const BENCH_CRAWL = 'bench';

/** One timing: the first (cold) run and the median of the repetitions, in ms. */
export interface Timing {
  name: string;
  firstMs: number;
  medianMs: number;
  /** `total` of the query (or of facet entries), to show what was answered. */
  total: number;
}

export interface ResultsBenchApi {
  /** Writes `rows` rows in batches; resolves with the time taken, in ms. */
  seed(rows: number): Promise<number>;
  /** Runs every measurement, each `repeat` times. */
  measure(repeat: number): Promise<Timing[]>;
}

const WORDS = [
  'product',
  'blog',
  'about',
  'news',
  'guide',
  'pricing',
  'docs',
  'team',
  'career',
  'support',
  'widget',
  'garden',
  'travel',
  'recipe',
];
const MEDIA = [
  'text/html; charset=utf-8',
  'text/html; charset=utf-8',
  'text/html; charset=utf-8',
  'text/html; charset=utf-8',
  'text/html; charset=utf-8',
  'text/html; charset=utf-8',
  'text/html; charset=utf-8',
  'image/png',
  'image/jpeg',
  'text/css',
  'application/javascript',
  'application/pdf',
];

/** A deterministic pseudo-random number in [0, 1) for row `i`, stream `k`. */
function noise(i: number, k: number): number {
  const x = Math.sin(i * 12.9898 + k * 78.233) * 43758.5453;
  return x - Math.floor(x);
}

function word(i: number, k: number): string {
  return WORDS[Math.floor(noise(i, k) * WORDS.length)] ?? 'page';
}

/** A row as a crawl writes it: about 30 links, a few headers; statuses, types, depths and titles varied. */
function benchPage(seq: number): PageRecord {
  const origin = 'https://www.example.com';
  const url = `${origin}/${word(seq, 1)}/${word(seq, 2)}-${seq}${seq % 9 === 0 ? `?page=${seq % 50}` : ''}`;
  const r = noise(seq, 3);
  const blocked = r < 0.02;
  const failed = !blocked && r < 0.04;
  const status = blocked || failed ? null : r < 0.84 ? 200 : r < 0.92 ? 301 : r < 0.98 ? 404 : 503;
  const contentType = status === null ? null : (MEDIA[Math.floor(noise(seq, 4) * MEDIA.length)] ?? null);
  const isHtml = contentType?.startsWith('text/html') === true;
  const links = isHtml
    ? Array.from(
        { length: 30 },
        (_, k) => `${origin}/${word(seq + k, 5)}/${word(seq + k, 6)}-${(seq * 7 + k) % 100_000}`,
      )
    : [];
  return {
    crawlId: BENCH_CRAWL,
    url,
    origin,
    // What is not HTML: mostly page resources, some linked files.
    kind: isHtml || status === null ? 'page' : noise(seq, 18) < 0.8 ? 'resource' : 'file',
    depth: Math.min(12, Math.floor(-Math.log(1 - noise(seq, 7) * 0.999) * 2)),
    referrer: `${origin}/`,
    seq,
    status,
    contentType,
    contentLength: status === null || noise(seq, 8) < 0.1 ? null : Math.floor(noise(seq, 9) * 200_000),
    location: status === 301 ? `${origin}/moved/${seq}` : null,
    methods: blocked ? [] : ['GET'],
    fetchedAt: blocked ? null : 1_767_225_600_000 + seq * 500,
    responseTimeMs: blocked ? null : Math.floor(noise(seq, 10) * 2000),
    headers:
      status === null
        ? []
        : [
            ['content-type', contentType ?? ''],
            ['server', 'nginx'],
            ['date', 'Thu, 01 Jan 2026 00:00:00 GMT'],
            ['cache-control', 'max-age=600'],
          ],
    statusLine: status === null ? null : `HTTP/1.1 ${status}`,
    requestHeaders: null,
    ipAddress: status === null ? null : '127.0.0.1',
    sha256: isHtml ? seq.toString(16).padStart(64, '0') : null,
    duplicateOf: isHtml && noise(seq, 11) < 0.05 ? `${origin}/` : null,
    truncated: false,
    title: isHtml && noise(seq, 12) > 0.05 ? `${word(seq, 13)} ${word(seq, 14)} – Example ${seq}` : null,
    links,
    linkTexts: links.map((_, k) => word(seq + k, 15)),
    resources: [],
    anchors: [word(seq, 16)],
    inlinks: Math.floor(noise(seq, 17) ** 3 * 400),
    blockedBy: blocked ? 'robots' : null,
    blockedRule: blocked ? 'Disallow: /private' : null,
    error: failed ? { code: 'timeout', message: 'no answer in 30 s' } : null,
    // HTML pages carry their page facts (a few noindex or canonicalised elsewhere).
    facts: isHtml
      ? {
          canonical: noise(seq, 19) < 0.05 ? `${origin}/` : noise(seq, 19) < 0.7 ? url : null,
          canonicalHeader: null,
          robots: noise(seq, 20) < 0.04 ? ['noindex'] : [],
          description: null,
          h1: `${word(seq, 21)} ${seq}`,
          h1Count: Math.floor(noise(seq, 22) * 3),
          lang: 'en',
          hreflang: [],
          wordCount: Math.floor(noise(seq, 23) * 3000),
          internalLinks: links.length,
          outboundLinks: Math.floor(noise(seq, 24) * 12),
          otherLinks: [],
          imagesWithoutAlt: [],
          mixedContent: [],
          anchorIds: [],
          fragmentLinks: [],
        }
      : null,
  };
}

async function seed(rows: number): Promise<number> {
  const started = performance.now();
  const db = new TabcrawlDatabase(BENCH_DATABASE);
  await db.delete();
  await db.open();
  const store = new DexieCrawlStore(db);
  const crawl = {
    id: BENCH_CRAWL,
    settings: { ...DEFAULT_SETTINGS, startUrl: 'https://www.example.com/' },
    state: 'finished',
    createdAt: 1_767_225_600_000,
    endedAt: 1_767_225_600_000 + rows * 500,
    counts: { ...emptyCounts(), admitted: rows, done: rows },
    message: null,
    nextSeq: rows + 1,
  } satisfies CrawlRecord;
  await store.transaction((tx) => tx.putCrawl(crawl));
  // Through the store, as a crawl writes them, so the derived records (search chunks, facet counts) are written too.
  const BATCH = 2000;
  for (let first = 1; first <= rows; first += BATCH) {
    const batch: PageRecord[] = [];
    for (let seq = first; seq < first + BATCH && seq <= rows; seq += 1) batch.push(benchPage(seq));
    await store.transaction((tx) => tx.putPages(batch));
  }
  db.close();
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function pageQuery(column: SortColumn, descending: boolean, filter: PageFilter = {}, offset = 0): PageQuery {
  return { crawlId: BENCH_CRAWL, sort: { column, descending }, filter, offset, limit: 50 };
}

const COLUMNS: readonly SortColumn[] = SORT_COLUMNS;

async function measure(repeat: number): Promise<Timing[]> {
  const timings: Timing[] = [];
  /** The results page the user works in, once opened. */
  let page: DexieCrawlPageQueries | null = null;
  /** Times `run` `repeat` times on a query object from `make` (a fresh one per run when it makes one). */
  const time = async (
    name: string,
    run: (queries: DexieCrawlPageQueries) => Promise<number>,
    make: () => DexieCrawlPageQueries,
  ): Promise<void> => {
    const durations: number[] = [];
    let total = 0;
    for (let i = 0; i < repeat; i += 1) {
      const queries = make();
      const started = performance.now();
      total = await run(queries);
      durations.push(performance.now() - started);
      // Untimed: let background reads and sorts finish, so they do not slow the next measurement.
      await queries.whenIdle();
      if (queries !== page) databases.pop()?.close();
    }
    timings.push({ name, firstMs: durations[0] ?? Number.NaN, medianMs: median(durations), total });
  };
  const run = (query: PageQuery) => async (queries: DexieCrawlPageQueries) => (await queries.query(query)).total;
  const databases: TabcrawlDatabase[] = [];
  /** A new database connection and query object, as when the results page opens. */
  const opened = (): DexieCrawlPageQueries => {
    const db = new TabcrawlDatabase(BENCH_DATABASE);
    databases.push(db);
    return new DexieCrawlPageQueries(db);
  };

  // Opening the results page: the first window, then (as the page does) the facets.
  await time('open: database + first window by seq', run(pageQuery('seq', false)), opened);
  for (const column of COLUMNS) {
    await time(`open: first window by ${column} ascending`, run(pageQuery(column, false)), opened);
    await time(`open: first window by ${column} descending`, run(pageQuery(column, true)), opened);
  }
  await time(
    'open: facets',
    async (queries) => {
      const facets = await queries.facets(BENCH_CRAWL);
      return facets.mediaTypes.length + facets.depths.length;
    },
    opened,
  );
  // The first window starts reading the result chunks in the background: a filter chosen at once waits for them.
  await time(
    'open: first window, then at once a filter (waits for the chunks)',
    async (queries) => {
      await queries.query(pageQuery('seq', false));
      return (await queries.query(pageQuery('title', true, { statusClasses: ['4xx'] }))).total;
    },
    opened,
  );
  await time(
    'open: a filter as the very first query (reads the chunks first)',
    run(pageQuery('seq', false, { statusClasses: ['4xx'] })),
    opened,
  );

  // Then the user filters, searches, sorts and scrolls: one results page, chunks read.
  page = new DexieCrawlPageQueries(new TabcrawlDatabase(BENCH_DATABASE));
  await page.query(pageQuery('seq', false));
  await page.whenIdle();
  const shared = (): DexieCrawlPageQueries => page ?? opened();
  const filters: [string, PageFilter][] = [
    ['filter 2xx', { statusClasses: ['2xx'] }],
    ['filter 4xx', { statusClasses: ['4xx'] }],
    ['filter 4xx + 5xx + failed', { statusClasses: ['4xx', '5xx', 'failed'] }],
    ['filter blocked', { statusClasses: ['blocked'] }],
    ['filter duplicate', { statusClasses: ['duplicate'] }],
    ['filter text/html', { mediaType: 'text/html' }],
    ['filter image/png', { mediaType: 'image/png' }],
    ['filter depth 1', { depth: 1 }],
    ['filter depth 6', { depth: 6 }],
    ['filter 4xx + duplicate', { statusClasses: ['4xx', 'duplicate'] }],
    ['filter 4xx + image/png', { statusClasses: ['4xx'], mediaType: 'image/png' }],
    ['filter 2xx + text/html + depth 2', { statusClasses: ['2xx'], mediaType: 'text/html', depth: 2 }],
    ['filter resources', { kind: 'resource' }],
    ['filter resources + errors', { kind: 'resource', statusClasses: ['4xx', '5xx', 'failed', 'blocked'] }],
    ['filter files + depth 1', { kind: 'file', depth: 1 }],
    ['filter indexable', { indexability: 'indexable' }],
    ['filter noindex', { indexability: 'noindex' }],
    ['filter canonicalised + depth 2', { indexability: 'canonicalised', depth: 2 }],
  ];
  // Each sort order is computed once per data revision: the first run of a column pays for it.
  for (const [name, filter] of filters) {
    await time(`${name}, by seq`, run(pageQuery('seq', false, filter)), shared);
    await time(`${name}, by title descending`, run(pageQuery('title', true, filter)), shared);
    await time(`${name}, by inlinks descending`, run(pageQuery('inlinks', true, filter)), shared);
  }
  await time('search "garden"', run(pageQuery('seq', false, { search: 'garden' })), shared);
  await time(
    'search "product/guide", by size descending',
    run(pageQuery('size', true, { search: 'product/guide' })),
    shared,
  );
  await time('search "zzz" (no match)', run(pageQuery('seq', false, { search: 'zzz' })), shared);
  await time(
    'search "garden" + 4xx, by url',
    run(pageQuery('url', false, { search: 'garden', statusClasses: ['4xx'] })),
    shared,
  );
  await time(
    'filter 2xx, scrolled to row 40,000',
    run(pageQuery('seq', false, { statusClasses: ['2xx'] }, 40_000)),
    shared,
  );
  await time('deep window: offset 90,000 by seq', run(pageQuery('seq', false, {}, 90_000)), shared);
  await time('deep window: offset 50,000 by title (the middle)', run(pageQuery('title', false, {}, 50_000)), shared);
  await time('deep window: offset 10,000 by size descending', run(pageQuery('size', true, {}, 10_000)), shared);
  await time('deep window: offset 50,000 by response time', run(pageQuery('responseTime', false, {}, 50_000)), shared);
  await time('deep window: offset 50,000 by words descending', run(pageQuery('words', true, {}, 50_000)), shared);
  await time(
    'filter indexable, by words descending',
    run(pageQuery('words', true, { indexability: 'indexable' })),
    shared,
  );
  await time(
    'filter 2xx, by outbound links descending',
    run(pageQuery('outboundLinks', true, { statusClasses: ['2xx'] })),
    shared,
  );
  // Write path: one transaction per page through the store, as the crawl writes (a new row, then an inlinks update).
  await time(
    'write path: 200 x putPages of 1 new row (µs per row in total)',
    async () => {
      const db = new TabcrawlDatabase(BENCH_DATABASE);
      const store = new DexieCrawlStore(db);
      const crawlId = `write-${Math.random()}`;
      const started = performance.now();
      for (let seq = 1; seq <= 200; seq += 1)
        await store.transaction((tx) => tx.putPages([{ ...benchPage(seq), crawlId }]));
      const perRow = (performance.now() - started) / 200;
      await store.deleteCrawl(crawlId);
      db.close();
      return Math.round(perRow * 1000);
    },
    shared,
  );
  await time(
    'write path: 200 x putPages updating 1 existing row (µs per row in total)',
    async () => {
      const db = new TabcrawlDatabase(BENCH_DATABASE);
      const store = new DexieCrawlStore(db);
      const started = performance.now();
      for (let seq = 1; seq <= 200; seq += 1)
        await store.transaction((tx) => tx.putPages([{ ...benchPage(seq * 97), inlinks: seq }]));
      const perRow = (performance.now() - started) / 200;
      db.close();
      return Math.round(perRow * 1000);
    },
    shared,
  );
  return timings;
}

const api: ResultsBenchApi = { seed, measure };
Object.assign(window, { resultsBench: api });

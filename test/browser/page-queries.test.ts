import { expect } from 'chai';
import { Dexie } from 'dexie';
import { emptyCounts, type PageRecord } from '../../src/core/model.ts';
import { TabcrawlDatabase, mediaTypeOf, toPageRow } from '../../src/storage/database.ts';
import { DexieCrawlStore } from '../../src/storage/dexie-crawl-store.ts';
import { DexieCrawlPageQueries, type PageQueriesOptions } from '../../src/storage/dexie-page-queries.ts';
import {
  INDEXABILITY_VALUES,
  type PageFilter,
  type PageQuery,
  type SortColumn,
  type StatusClass,
} from '../../src/storage/page-queries.ts';
import { classOf, COLUMNS, reference, referenceIndexability, variedPage } from '../support/results-reference.ts';
import { crawlFixture } from '../support/store-contract.ts';

const opened: TabcrawlDatabase[] = [];
let serial = 0;

function openDatabase(): TabcrawlDatabase {
  const db = new TabcrawlDatabase(`tabcrawl-queries-${Date.now()}-${(serial += 1)}`);
  opened.push(db);
  return db;
}

afterEach(async () => {
  const databases = opened.splice(0);
  for (const db of databases) db.close();
  for (const db of databases) await Dexie.delete(db.name);
});

function referenceOf(pages: PageRecord[], query: PageQuery): { seqs: number[]; total: number } {
  const { rows, total } = reference(pages, query.filter, query.sort, query.offset, query.limit);
  return { seqs: rows.map((page) => page.seq), total };
}

const ROWS = 240;

/** A crawl of {@link ROWS} varied rows written through the store, plus a few rows of another crawl. */
async function seeded(
  options: PageQueriesOptions = {},
): Promise<{ queries: DexieCrawlPageQueries; pages: PageRecord[]; db: TabcrawlDatabase }> {
  const db = openDatabase();
  const pages = Array.from({ length: ROWS }, (_, i) => variedPage('c1', i + 1));
  const crawl = { ...crawlFixture('c1'), counts: { ...emptyCounts(), admitted: ROWS, done: ROWS } };
  await new DexieCrawlStore(db).transaction(async (tx) => {
    await tx.putCrawl(crawl);
    await tx.putPages(pages);
    await tx.putPages([variedPage('c0', 1), variedPage('c2', 2)]);
  });
  return { queries: new DexieCrawlPageQueries(db, options), pages, db };
}

function queryOf(sort: SortColumn, descending: boolean, filter: PageFilter = {}, offset = 0, limit = 1000): PageQuery {
  return { crawlId: 'c1', sort: { column: sort, descending }, filter, offset, limit };
}

async function expectSameAsReference(
  queries: DexieCrawlPageQueries,
  pages: PageRecord[],
  query: PageQuery,
): Promise<void> {
  const result = await queries.query(query);
  const expected = referenceOf(pages, query);
  expect({ seqs: result.rows.map((row) => row.seq), total: result.total }, JSON.stringify(query)).to.deep.equal(
    expected,
  );
}

const FILTERS: PageFilter[] = [
  { statusClasses: ['2xx'] },
  { statusClasses: ['4xx', '5xx'] },
  { statusClasses: ['failed'] },
  { statusClasses: ['blocked', '3xx'] },
  { statusClasses: ['duplicate'] },
  { statusClasses: ['4xx', 'duplicate'] },
  { statusClasses: ['2xx', '3xx', '4xx', '5xx', 'failed', 'duplicate'] },
  { mediaType: 'text/html' },
  { mediaType: '' },
  { mediaType: 'image/png' },
  { mediaType: 'video/none' },
  { depth: 2 },
  { depth: 9 },
  { search: 'APPLE' },
  { search: '/007/' },
  { search: 'äpfel' },
  { search: 'no such text' },
  { statusClasses: ['2xx'], mediaType: 'text/html' },
  { statusClasses: ['2xx', 'duplicate'], depth: 1 },
  { mediaType: 'text/html', depth: 3, search: 'a' },
  { statusClasses: ['4xx'], search: 'banana' },
  { kind: 'page' },
  { kind: 'resource' },
  { kind: 'file' },
  { kind: 'sitemap' },
  { kind: 'resource', statusClasses: ['4xx', '5xx', 'failed', 'blocked'] },
  { kind: 'file', mediaType: 'application/pdf' },
  { kind: 'page', depth: 1, search: 'a' },
  ...INDEXABILITY_VALUES.map((indexability): PageFilter => ({ indexability })),
  { indexability: 'indexable', kind: 'file' },
  { indexability: 'not-200', statusClasses: ['4xx'], search: 'p1' },
  { indexability: 'noindex', depth: 1 },
];

describe('DexieCrawlPageQueries', () => {
  /** The two ways an unfiltered window is read: from the sort's index, and from the result chunks. */
  const PATHS: [string, PageQueriesOptions][] = [
    ['from the sort index', { indexWindowMax: Infinity, preload: false }],
    ['from the result chunks', { indexWindowMax: -1 }],
  ];
  for (const [path, options] of PATHS) {
    for (const column of COLUMNS) {
      it(`sorts every row by ${column}, both directions, as a plain sort with seq breaking ties (${path})`, async () => {
        const { queries, pages } = await seeded(options);
        await expectSameAsReference(queries, pages, queryOf(column, false));
        await expectSameAsReference(queries, pages, queryOf(column, true));
      });
    }
  }

  it('puts rows without a status, type, size, time or title first ascending and last descending', async () => {
    const { queries } = await seeded();
    const ascending = await queries.query(queryOf('responseTime', false, {}, 0, 3));
    const descending = await queries.query(queryOf('responseTime', true, {}, ROWS - 3, 3));
    expect(ascending.rows.map((row) => row.responseTimeMs)).to.deep.equal([null, null, null]);
    expect(descending.rows.map((row) => row.responseTimeMs)).to.deep.equal([null, null, null]);
    const byStatus = await queries.query(queryOf('status', false, {}, 0, 1));
    expect(byStatus.rows[0]?.blockedBy).to.equal('robots');
  });

  it('answers each filter alone and combined, sorted by every column, with exact totals', async function (this: MochaContext) {
    // Hundreds of queries, each checked against the reference: 4 to 8 s alone on Chromium 156.0.8078.129,
    // more under npm test's load. A check of answers, not of speed (that is npm run bench:results).
    this.timeout(60_000);
    const { queries, pages } = await seeded();
    for (const filter of FILTERS) {
      for (const column of COLUMNS)
        await expectSameAsReference(queries, pages, queryOf(column, column === 'title', filter));
    }
  });

  it('answers windows anywhere in a filtered view, each way, by every column', async function (this: MochaContext) {
    // Hundreds of queries, each checked against the reference: 4 to 8 s alone on Chromium 156.0.8078.129,
    // more under npm test's load. A check of answers, not of speed (that is npm run bench:results).
    this.timeout(60_000);
    const { queries, pages } = await seeded();
    for (const filter of FILTERS) {
      const { total } = referenceOf(pages, queryOf('seq', false, filter));
      for (const offset of [1, Math.floor(total / 2), Math.max(0, total - 3)]) {
        for (const column of COLUMNS)
          await expectSameAsReference(queries, pages, queryOf(column, offset % 2 === 0, filter, offset, 5));
      }
    }
  });

  it('catches up with rows rewritten and added after it read the chunks, in the same snapshot as the rows', async () => {
    const { queries, pages, db } = await seeded();
    await expectSameAsReference(queries, pages, queryOf('inlinks', true, { statusClasses: ['2xx'] }, 0, 20));
    // As a running crawl writes: inlinks raised on old rows, a title and status changed, new rows appended.
    const changed = pages.map((page) =>
      page.seq % 9 === 0
        ? { ...page, inlinks: page.inlinks + 50 }
        : page.seq === 5
          ? { ...page, status: 200, title: 'Now Found' }
          : page,
    );
    const added = [variedPage('c1', ROWS + 1), { ...variedPage('c1', ROWS + 2), inlinks: 99 }];
    await new DexieCrawlStore(db).transaction(async (tx) => {
      await tx.putPages(changed.filter((page) => page.seq % 9 === 0 || page.seq === 5));
      await tx.putPages(added);
    });
    const now = [...changed, ...added];
    await expectSameAsReference(queries, now, queryOf('inlinks', true, { statusClasses: ['2xx'] }, 0, 20));
    await expectSameAsReference(queries, now, queryOf('title', false, { search: 'now found' }));
    await expectSameAsReference(queries, now, queryOf('seq', true, {}, 100, 30));
    await expectSameAsReference(queries, now, queryOf('inlinks', true, {}, 0, 5));
    expect((await queries.facets('c1')).statusClasses['2xx']).to.equal(
      now.filter((page) => classOf(page) === '2xx').length,
    );
  });

  it('returns windows anywhere in a one-dimension filter, read from the nearer end', async () => {
    const { queries, pages } = await seeded();
    const singles: PageFilter[] = [
      { statusClasses: ['2xx'] },
      { statusClasses: ['4xx', 'failed'] },
      { statusClasses: ['duplicate'] },
      { mediaType: 'text/html' },
      { depth: 1 },
      { kind: 'resource' },
    ];
    for (const filter of singles) {
      const { total } = referenceOf(pages, queryOf('seq', false, filter));
      for (const offset of [total - 3, Math.floor(total / 2), 1]) {
        await expectSameAsReference(queries, pages, queryOf('size', false, filter, offset, 5));
        await expectSameAsReference(queries, pages, queryOf('url', true, filter, offset, 5));
        await expectSameAsReference(queries, pages, queryOf('seq', true, filter, offset, 5));
        await expectSameAsReference(queries, pages, queryOf('status', false, filter, offset, 5));
      }
    }
  });

  it('returns offset/limit windows from the start, the middle and past the end, each way, by either path', async () => {
    for (const [, options] of [...PATHS, ['mixed', { indexWindowMax: 60 }] as const]) {
      const { queries, pages } = await seeded(options);
      for (const column of ['seq', 'title', 'size'] as const) {
        for (const descending of [false, true]) {
          for (const [offset, limit] of [
            [0, 50],
            [95, 50],
            [200, 50],
            [239, 5],
            [240, 5],
            [1000, 5],
            [10, 0],
          ] as const) {
            await expectSameAsReference(queries, pages, queryOf(column, descending, {}, offset, limit));
          }
        }
      }
    }
  });

  it('counts every row of the crawl when the crawl record is missing or disagrees', async () => {
    const { queries, pages, db } = await seeded();
    await db.crawls.delete('c1');
    await expectSameAsReference(queries, pages, queryOf('seq', true, {}, 10, 20));
    await expectSameAsReference(queries, pages, queryOf('url', false, {}, 200, 20));
  });

  it('answers an empty result for a crawl without rows', async () => {
    const { queries } = await seeded();
    expect(await queries.query({ ...queryOf('seq', false), crawlId: 'none' })).to.deep.equal({ rows: [], total: 0 });
    expect(await queries.query({ ...queryOf('title', true, { search: 'a' }), crawlId: 'none' })).to.deep.equal({
      rows: [],
      total: 0,
    });
  });

  it('returns rows with the fields the results table shows, as stored', async () => {
    const { queries, pages } = await seeded();
    const [row] = (await queries.query(queryOf('seq', false, {}, 22, 1))).rows;
    const page = pages[22];
    expect(row).to.deep.equal({
      seq: page?.seq,
      url: page?.url,
      kind: page?.kind,
      status: page?.status,
      contentType: page?.contentType,
      contentLength: page?.contentLength,
      responseTimeMs: page?.responseTimeMs,
      depth: page?.depth,
      title: page?.title,
      inlinks: page?.inlinks,
      location: page?.location,
      blockedBy: page?.blockedBy,
      error: page?.error,
      duplicateOf: page?.duplicateOf,
      indexability: { indexable: false, reason: 'blocked' },
      wordCount: page?.facts?.wordCount,
      h1Count: page?.facts?.h1Count,
      h1: page?.facts?.h1,
      internalLinks: page?.facts?.internalLinks,
      outboundLinks: page?.facts?.outboundLinks,
      rendered: 'failed: crashed',
    });
    expect(page?.facts?.wordCount, 'a row with facts').to.be.a('number');
    expect(page?.render?.outcome, 'a row whose render crashed').to.equal('crashed');
  });

  it('finds rows written after a first search', async () => {
    const { queries, pages, db } = await seeded();
    await expectSameAsReference(queries, pages, queryOf('seq', false, { search: 'fresh' }));
    const fresh = { ...variedPage('c1', ROWS + 1), title: 'Fresh page' };
    await new DexieCrawlStore(db).transaction(async (tx) => {
      await tx.putPages([fresh]);
      await tx.putCrawl({ ...crawlFixture('c1'), counts: { ...emptyCounts(), admitted: ROWS + 1, done: ROWS + 1 } });
    });
    expect((await queries.query(queryOf('seq', false, { search: 'FRESH' }))).rows.map((row) => row.seq)).to.deep.equal([
      ROWS + 1,
    ]);
  });

  it('lists facets: rows per status class, kind and indexability, media types by frequency, depths ascending', async () => {
    const { queries, pages } = await seeded();
    const facets = await queries.facets('c1');
    const classes: StatusClass[] = ['2xx', '3xx', '4xx', '5xx', 'failed', 'blocked'];
    const expectedClasses = Object.fromEntries(
      classes.map((c) => [c, pages.filter((page) => classOf(page) === c).length]),
    );
    expectedClasses['duplicate'] = pages.filter((page) => page.duplicateOf !== null).length;
    const mediaCounts = new Map<string, number>();
    for (const page of pages)
      mediaCounts.set(mediaTypeOf(page.contentType), (mediaCounts.get(mediaTypeOf(page.contentType)) ?? 0) + 1);
    const expectedMedia = [...mediaCounts]
      .map(([mediaType, count]) => ({ mediaType, count }))
      .sort((a, b) => b.count - a.count || (a.mediaType < b.mediaType ? -1 : 1));
    const kinds = Object.fromEntries(
      (['page', 'sitemap', 'resource', 'file', 'external'] as const).map((kind) => [
        kind,
        pages.filter((page) => page.kind === kind).length,
      ]),
    );
    const indexability = Object.fromEntries(
      INDEXABILITY_VALUES.map((value) => [value, pages.filter((page) => referenceIndexability(page) === value).length]),
    );
    expect(facets).to.deep.equal({
      mediaTypes: expectedMedia,
      depths: [0, 1, 2, 3],
      statusClasses: expectedClasses,
      kinds,
      indexability,
    });
    for (const value of INDEXABILITY_VALUES)
      expect(indexability[value], `the fixture has ${value} rows`).to.be.above(0);
  });

  it('counts rows written after the first facets into the next facets', async () => {
    const { queries, pages, db } = await seeded();
    await queries.facets('c1');
    const more = [
      { ...variedPage('c1', ROWS + 1), status: 404, contentType: 'font/woff2', depth: 7 },
      variedPage('c1', ROWS + 2),
    ];
    await new DexieCrawlStore(db).transaction(async (tx) => {
      await tx.putPages(more);
      await tx.putCrawl({ ...crawlFixture('c1'), counts: { ...emptyCounts(), admitted: ROWS + 2, done: ROWS + 2 } });
    });
    const fresh = new DexieCrawlPageQueries(db);
    expect(await queries.facets('c1')).to.deep.equal(await fresh.facets('c1'));
    expect((await queries.facets('c1')).depths).to.deep.equal([0, 1, 2, 3, 7]);
    await expectSameAsReference(queries, [...pages, ...more], queryOf('seq', false, { statusClasses: ['4xx'] }));
  });

  it('stores the derived keys on page rows and hands out records without them', async () => {
    const { db, pages } = await seeded();
    const page = pages[0];
    if (page === undefined) throw new Error('no fixture');
    expect(await db.pages.get(['c1', page.url])).to.deep.equal(toPageRow(page));
    expect(await new DexieCrawlStore(db).pagesAfter('c1', 0, 1)).to.deep.equal([page]);
  });

  it('answers every filter and the facets from the rows themselves when the derived records are missing', async () => {
    const { pages, db } = await seeded();
    const expectedFacets = await new DexieCrawlPageQueries(db).facets('c1');
    await db.resultChunks.clear();
    await db.facetCounts.clear();
    const queries = new DexieCrawlPageQueries(db);
    expect(await queries.facets('c1')).to.deep.equal(expectedFacets);
    for (const filter of FILTERS) {
      await expectSameAsReference(queries, pages, queryOf('seq', false, filter, 30, 10));
      await expectSameAsReference(queries, pages, queryOf('inlinks', true, filter, 0, 7));
    }
  });

  it('keeps the search chunks and facet counts exact when rows are written again', async () => {
    const { pages, db } = await seeded();
    // Rewrites as the crawl does (inlinks and anchors merged), plus changed titles and statuses, some twice.
    const rewritten = pages
      .map((page) =>
        page.seq % 10 === 0
          ? {
              ...page,
              inlinks: page.inlinks + 1,
              title: `Renamed ${page.seq}`,
              status: 404,
              blockedBy: null,
              depth: 5,
              kind: page.seq % 30 === 0 ? ('file' as const) : page.kind,
            }
          : page,
      )
      .map((page) =>
        page.seq % 8 === 4 && page.facts
          ? { ...page, status: 200, blockedBy: null, facts: { ...page.facts, robots: ['noindex'], wordCount: 999 } }
          : page,
      );
    const store = new DexieCrawlStore(db);
    await store.transaction(async (tx) => {
      await tx.putPages(rewritten.filter((page) => page.seq % 10 === 0));
      await tx.putPages(rewritten.filter((page) => page.seq % 20 === 0));
      await tx.putPages(rewritten.filter((page) => page.seq % 8 === 4));
    });
    const queries = new DexieCrawlPageQueries(db);
    const facets = await queries.facets('c1');
    expect(facets.depths).to.deep.equal([0, 1, 2, 3, 5]);
    expect(facets.statusClasses['4xx']).to.equal(rewritten.filter((page) => classOf(page) === '4xx').length);
    expect((await db.facetCounts.get('c1'))?.rows).to.equal(ROWS);
    expect(facets.kinds.file).to.equal(rewritten.filter((page) => page.kind === 'file').length);
    expect(facets.indexability.noindex).to.equal(
      rewritten.filter((page) => referenceIndexability(page) === 'noindex').length,
    );
    for (const filter of [
      { search: 'renamed' },
      { statusClasses: ['4xx'], depth: 5 },
      { mediaType: 'text/html', search: 'a' },
      { kind: 'file' },
      { kind: 'page', depth: 5 },
      { indexability: 'noindex' },
      { indexability: 'indexable' },
    ] satisfies PageFilter[]) {
      await expectSameAsReference(queries, rewritten, queryOf('seq', false, filter));
      await expectSameAsReference(queries, rewritten, queryOf('words', true, filter));
    }
  });
});

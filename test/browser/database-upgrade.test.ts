import { expect } from 'chai';
import { Dexie } from 'dexie';
import { emptyCounts, type PageRecord } from '../../src/core/model.ts';
import { TabcrawlDatabase, toPageRow } from '../../src/storage/database.ts';
import { RESULTS_CHUNK_ROWS, type ResultsChunk } from '../../src/storage/results-chunks.ts';
import { DexieCrawlStore } from '../../src/storage/dexie-crawl-store.ts';
import { DexieCrawlPageQueries } from '../../src/storage/dexie-page-queries.ts';
import { crawlFixture, entryFixture, hostFixture, pageFixture } from '../support/store-contract.ts';
import { reference, variedPage } from '../support/results-reference.ts';

/** The schema of version 1 as shipped in Tabcrawl 0.1.0, copied so that this test keeps testing it. */
const V1_STORES = {
  crawls: 'id, createdAt',
  hosts: '[crawlId+origin]',
  frontier: '[crawlId+url], [crawlId+origin+queuedSeq], [crawlId+leaseRunId]',
  pages: '[crawlId+url], [crawlId+seq]',
  bodies: '[crawlId+sha256]',
};

/** The pages schema of version 4 as shipped in Tabcrawl 0.4.0 (and kept by version 5). */
const V4_PAGES =
  '[crawlId+url], [crawlId+seq], [crawlId+statusKey+seq], [crawlId+mediaKey+seq], [crawlId+sizeKey+seq], ' +
  '[crawlId+timeKey+seq], [crawlId+depth+seq], [crawlId+titleKey+seq], [crawlId+inlinks+seq]';

/** Version 6's page row as Tabcrawl 0.6.0 stored it: the record and the keys of version 2, none of version 7's. */
function v6Row(page: PageRecord): Record<string, unknown> {
  const { indexKey: _x, wordsKey: _w, h1Key: _h, internalKey: _n, outboundKey: _o, ...row } = v9Row(page);
  return row;
}

/** Version 9's page row: the record and the keys up to version 7's, without version 10's `renderKey`. */
function v9Row(page: PageRecord): Record<string, unknown> {
  const { renderKey: _r, ...row } = toPageRow(page);
  return row;
}

/** The pages schema of version 2 as shipped in Tabcrawl 0.2.0. */
const V2_PAGES =
  '[crawlId+url], [crawlId+seq], [crawlId+statusKey+seq], [crawlId+mediaKey+seq], [crawlId+sizeKey+seq], ' +
  '[crawlId+timeKey+seq], [crawlId+depth+seq], [crawlId+titleKey+seq], [crawlId+inlinks+seq], [crawlId+isDuplicate+seq]';

/** The version `TabcrawlDatabase` opens at: every test upgrades to it. */
const LATEST_VERSION = 10;

/** The pages schema of version 7 as shipped in Tabcrawl 0.7.0. */
const V7_PAGES = `${V4_PAGES}, [crawlId+indexKey+seq], [crawlId+wordsKey+seq], [crawlId+h1Key+seq], [crawlId+internalKey+seq], [crawlId+outboundKey+seq]`;

const A = 'https://a.example';
const names: string[] = [];

/** Each shipped schema version's changed tables, as Tabcrawl declared them, copied so these tests keep testing them. */
const SHIPPED_SCHEMAS: readonly Record<string, string | null>[] = [
  V1_STORES,
  { pages: V2_PAGES },
  { searchChunks: '[crawlId+chunk]', facetCounts: 'crawlId' },
  { pages: V4_PAGES, searchChunks: null, resultChunks: '[crawlId+chunk], [crawlId+rev]' },
  { linkTallies: '[crawlId+batch]' },
  {},
  { pages: V7_PAGES },
  { notCrawled: '[crawlId+url], [crawlId+reason+url]' },
  {},
];

/** A database named `name` (removed after the test) with the schema Tabcrawl shipped as `version`, not opened yet. */
function shippedDatabase(name: string, version: number): Dexie {
  names.push(name);
  const old = new Dexie(name);
  SHIPPED_SCHEMAS.slice(0, version).forEach((stores, i) => old.version(i + 1).stores(stores));
  return old;
}

afterEach(async () => {
  for (const name of names.splice(0)) await Dexie.delete(name);
});

function v1Pages(): PageRecord[] {
  return [
    { ...pageFixture('c1', `${A}/b`, 1), title: 'Beta', status: 404 },
    { ...pageFixture('c1', `${A}/a`, 2), title: null, contentType: 'IMAGE/PNG; q=1', responseTimeMs: null },
    { ...pageFixture('c1', `${A}/c`, 3), status: null, contentType: null, blockedBy: 'robots', duplicateOf: `${A}/a` },
  ];
}

/** The seqs a result chunk holds, ascending. */
function seqsOf(chunk: ResultsChunk): number[] {
  return [...chunk.present].flatMap((present, slot) =>
    present === 1 ? [chunk.chunk * RESULTS_CHUNK_ROWS + slot] : [],
  );
}

describe('TabcrawlDatabase schema upgrade', () => {
  it('keeps every row of a version 1 database and answers results queries over the upgraded pages', async () => {
    const name = `tabcrawl-upgrade-${Date.now()}`;
    const old = shippedDatabase(name, 1);
    const crawl = {
      ...crawlFixture('c1'),
      counts: { ...emptyCounts(), admitted: 4, done: 3, fetched: 2, errors: 1, blocked: 1 },
    };
    const queued = { ...entryFixture('c1', A, '/q', 4), queuedSeq: 4 };
    const body = { crawlId: 'c1', sha256: 'cd'.repeat(32), url: `${A}/b`, bytes: new Uint8Array([1, 2, 3]) };
    await old.table('crawls').put(crawl);
    await old.table('hosts').put(hostFixture('c1', A));
    await old.table('frontier').put(queued);
    await old.table('pages').bulkPut(v1Pages());
    await old.table('bodies').put(body);
    old.close();

    const db = new TabcrawlDatabase(name);
    try {
      await db.open();
      expect(db.verno).to.equal(LATEST_VERSION);
      expect(await db.linkTallies.count()).to.equal(0);
      expect(await db.crawls.toArray()).to.deep.equal([crawl]);
      expect(await db.hosts.toArray()).to.deep.equal([hostFixture('c1', A)]);
      expect(await db.frontier.toArray()).to.deep.equal([queued]);
      expect(await db.bodies.toArray()).to.deep.equal([body]);
      expect(await db.pages.orderBy('[crawlId+seq]').toArray()).to.deep.equal(v1Pages().map(toPageRow));

      const store = new DexieCrawlStore(db);
      expect(await store.pagesAfter('c1', 0, 10)).to.deep.equal(v1Pages());
      const queries = new DexieCrawlPageQueries(db);
      // No title first, then 'beta' before 'ünïcödé title ✓' (code unit order of the lower case).
      const byTitle = await queries.query({
        crawlId: 'c1',
        sort: { column: 'title', descending: false },
        filter: {},
        offset: 0,
        limit: 10,
      });
      expect({ seqs: byTitle.rows.map((row) => row.seq), total: byTitle.total }).to.deep.equal({
        seqs: [2, 1, 3],
        total: 3,
      });
      const png = await queries.query({
        crawlId: 'c1',
        sort: { column: 'seq', descending: false },
        filter: { mediaType: 'image/png' },
        offset: 0,
        limit: 10,
      });
      expect(png.rows.map((row) => row.url)).to.deep.equal([`${A}/a`]);
      const facets = await queries.facets('c1');
      expect(facets.statusClasses).to.deep.equal({
        '2xx': 1,
        '3xx': 0,
        '4xx': 1,
        '5xx': 0,
        failed: 0,
        blocked: 1,
        duplicate: 1,
      });
    } finally {
      db.close();
    }
  });

  it('builds the result chunks and facet counts of a version 2 database from its rows', async () => {
    const name = `tabcrawl-upgrade-v2-${Date.now()}`;
    const old = shippedDatabase(name, 2);
    // Rows spread over three chunks of c1, and one row of another crawl.
    const seqs = [1, 2, 3, RESULTS_CHUNK_ROWS + 5, 2 * RESULTS_CHUNK_ROWS];
    const pages = seqs.map((seq, i) => ({
      ...pageFixture('c1', `${A}/P${seq}`, seq),
      title: i === 1 ? 'Garden Tools' : `Page ${seq}`,
      status: i === 2 ? 404 : 200,
      depth: i % 2,
      duplicateOf: i === 3 ? `${A}/P1` : null,
    }));
    await old.table('crawls').put({ ...crawlFixture('c1'), counts: { ...emptyCounts(), admitted: 5, done: 5 } });
    await old.table('pages').bulkPut([...pages, pageFixture('c2', `${A}/other`, 1)].map(toPageRow));
    old.close();

    const db = new TabcrawlDatabase(name);
    try {
      await db.open();
      expect(db.verno).to.equal(LATEST_VERSION);
      expect(await db.linkTallies.count()).to.equal(0);
      const chunks = await db.resultChunks
        .where('[crawlId+chunk]')
        .between(['c1', Dexie.minKey], ['c1', Dexie.maxKey])
        .toArray();
      expect(chunks.map((chunk) => [chunk.chunk, seqsOf(chunk)])).to.deep.equal([
        [0, [1, 2, 3]],
        [1, [RESULTS_CHUNK_ROWS + 5]],
        [2, [2 * RESULTS_CHUNK_ROWS]],
      ]);
      const counts = await db.facetCounts.get('c1');
      expect(counts?.rows).to.equal(5);
      expect(counts?.depths).to.deep.equal({ 0: 3, 1: 2 });
      expect((await db.facetCounts.get('c2'))?.rows).to.equal(1);

      // Seqs are not 1..n here: the queries count the rows, and still agree with the counts.
      const queries = new DexieCrawlPageQueries(db);
      const facets = await queries.facets('c1');
      expect(facets.statusClasses).to.deep.equal({
        '2xx': 4,
        '3xx': 0,
        '4xx': 1,
        '5xx': 0,
        failed: 0,
        blocked: 0,
        duplicate: 1,
      });
      expect(facets.depths).to.deep.equal([0, 1]);
      const found = await queries.query({
        crawlId: 'c1',
        sort: { column: 'seq', descending: false },
        filter: { search: 'garden' },
        offset: 0,
        limit: 10,
      });
      expect({ seqs: found.rows.map((row) => row.seq), total: found.total }).to.deep.equal({ seqs: [2], total: 1 });
      const combined = await queries.query({
        crawlId: 'c1',
        sort: { column: 'seq', descending: true },
        filter: { statusClasses: ['2xx'], depth: 1, search: 'p' },
        offset: 0,
        limit: 10,
      });
      expect({ seqs: combined.rows.map((row) => row.seq), total: combined.total }).to.deep.equal({
        seqs: [RESULTS_CHUNK_ROWS + 5, 2],
        total: 2,
      });

      // Writes through the store keep them in step, and deleting the crawl removes them.
      const store = new DexieCrawlStore(db);
      const [first] = pages;
      if (first === undefined) throw new Error('no fixture');
      await store.transaction((tx) => tx.putPages([{ ...first, status: 500, inlinks: 3 }]));
      expect((await db.facetCounts.get('c1'))?.rows).to.equal(5);
      expect((await db.facetCounts.get('c1'))?.statusKeys).to.deep.equal({ 200: 3, 404: 1, 500: 1 });
      await store.deleteCrawl('c1');
      expect(
        await db.resultChunks.where('[crawlId+chunk]').between(['c1', Dexie.minKey], ['c1', Dexie.maxKey]).count(),
      ).to.equal(0);
      expect(await db.facetCounts.get('c1')).to.equal(undefined);
      expect(await db.facetCounts.get('c2')).to.not.equal(undefined);
    } finally {
      db.close();
    }
  });

  it('replaces the search chunks of a version 3 database by result chunks, keeping every row', async () => {
    const name = `tabcrawl-upgrade-v3-${Date.now()}`;
    const old = shippedDatabase(name, 3);
    const pages = [1, 2, 3].map((seq) => ({
      ...pageFixture('c1', `${A}/p${seq}`, seq),
      inlinks: 10 - seq,
      status: seq === 2 ? 404 : 200,
    }));
    await old.table('crawls').put({ ...crawlFixture('c1'), counts: { ...emptyCounts(), admitted: 3, done: 3 } });
    await old.table('pages').bulkPut(pages.map(toPageRow));
    // Version 3's records as Tabcrawl 0.3.0 wrote them (no inlinks, sizes or times; counts without rev).
    await old.table('searchChunks').put({
      crawlId: 'c1',
      chunk: 0,
      seqs: [1, 2, 3],
      urls: pages.map((page) => page.url),
      titleKeys: ['', '', ''],
      statusKeys: [200, 404, 200],
      mediaKeys: ['text/html', 'text/html', 'text/html'],
      depths: [0, 0, 0],
      duplicates: [0, 0, 0],
    });
    await old.table('facetCounts').put({
      crawlId: 'c1',
      rows: 3,
      statusKeys: { 200: 2, 404: 1 },
      mediaKeys: { 'text/html': 3 },
      depths: { 0: 3 },
      duplicates: 0,
    });
    old.close();

    const db = new TabcrawlDatabase(name);
    try {
      await db.open();
      expect(db.verno).to.equal(LATEST_VERSION);
      expect(await db.linkTallies.count()).to.equal(0);
      expect(db.tables.map((table) => table.name)).to.not.include('searchChunks');
      expect(await db.pages.orderBy('[crawlId+seq]').toArray()).to.deep.equal(pages.map(toPageRow));
      const [chunk] = await db.resultChunks.toArray();
      expect(chunk === undefined ? [] : [...chunk.inlinks.slice(1, 4)]).to.deep.equal([9, 8, 7]);
      // Built at revision 1 by version 4's upgrade, then again at 2 by version 7's and at 3 by version 10's.
      expect((await db.facetCounts.get('c1'))?.rev).to.equal(3);
      const queries = new DexieCrawlPageQueries(db);
      const byInlinks = await queries.query({
        crawlId: 'c1',
        sort: { column: 'inlinks', descending: false },
        filter: { statusClasses: ['2xx'] },
        offset: 0,
        limit: 10,
      });
      expect({ seqs: byInlinks.rows.map((row) => row.seq), total: byInlinks.total }).to.deep.equal({
        seqs: [3, 1],
        total: 2,
      });
    } finally {
      db.close();
    }
  });

  it('gives the result chunks and facet counts of a version 5 database the kind of every row', async () => {
    const name = `tabcrawl-upgrade-v5-${Date.now()}`;
    const old = shippedDatabase(name, 5);
    const kinds = ['page', 'resource', 'resource', 'file', 'sitemap', 'page'] as const;
    const pages = kinds.map((kind, i) => ({
      ...pageFixture('c1', `${A}/k${i + 1}`, i + 1),
      kind,
      status: i === 2 ? 404 : 200,
    }));
    await old.table('crawls').put({ ...crawlFixture('c1'), counts: { ...emptyCounts(), admitted: 6, done: 6 } });
    await old.table('pages').bulkPut(pages.map(toPageRow));
    // Version 5's records as Tabcrawl 0.5.0 wrote them: no kind column, no counts per kind.
    const chunk = {
      crawlId: 'c1',
      chunk: 0,
      rev: 7,
      present: new Uint8Array(RESULTS_CHUNK_ROWS),
      urls: new Array<string>(RESULTS_CHUNK_ROWS).fill(''),
    } as Record<string, unknown>;
    await old.table('resultChunks').put(chunk);
    await old
      .table('facetCounts')
      .put({ crawlId: 'c1', rows: 0, statusKeys: {}, mediaKeys: {}, depths: {}, duplicates: 0, rev: 7 });
    old.close();

    const db = new TabcrawlDatabase(name);
    try {
      await db.open();
      expect(db.verno).to.equal(LATEST_VERSION);
      expect(await db.pages.orderBy('[crawlId+seq]').toArray()).to.deep.equal(pages.map(toPageRow));
      const counts = await db.facetCounts.get('c1');
      expect(counts?.kinds).to.deep.equal({ page: 2, resource: 2, file: 1, sitemap: 1 });
      expect(counts?.rows).to.equal(6);
      // Rebuilt by version 7's upgrade (8), then by version 10's (9).
      expect(counts?.rev, 'above the revision a reader may hold').to.equal(9);
      const [rebuilt] = await db.resultChunks.toArray();
      expect(rebuilt?.rev).to.equal(9);
      expect(rebuilt === undefined ? [] : [...rebuilt.kinds.slice(1, 7)]).to.deep.equal([0, 2, 2, 3, 1, 0]);

      const queries = new DexieCrawlPageQueries(db);
      expect((await queries.facets('c1')).kinds).to.deep.equal({
        page: 2,
        sitemap: 1,
        resource: 2,
        file: 1,
        external: 0,
      });
      const resources = await queries.query({
        crawlId: 'c1',
        sort: { column: 'seq', descending: false },
        filter: { kind: 'resource' },
        offset: 0,
        limit: 10,
      });
      expect({
        seqs: resources.rows.map((row) => row.seq),
        kinds: resources.rows.map((row) => row.kind),
        total: resources.total,
      }).to.deep.equal({
        seqs: [2, 3],
        kinds: ['resource', 'resource'],
        total: 2,
      });
      const broken = await queries.query({
        crawlId: 'c1',
        sort: { column: 'seq', descending: false },
        filter: { kind: 'resource', statusClasses: ['4xx'] },
        offset: 0,
        limit: 10,
      });
      expect(broken.rows.map((row) => row.url)).to.deep.equal([`${A}/k3`]);

      // Written through the store afterwards, the kind column stays in step.
      const [first] = pages;
      if (first === undefined) throw new Error('no fixture');
      await new DexieCrawlStore(db).transaction((tx) => tx.putPages([{ ...first, kind: 'file' }]));
      expect((await db.facetCounts.get('c1'))?.kinds).to.deep.equal({ page: 1, resource: 2, file: 2, sitemap: 1 });
    } finally {
      db.close();
    }
  });

  it('gives the page rows, result chunks and facet counts of a version 6 database the page facts, so the table sorts and filters by them', async () => {
    const name = `tabcrawl-upgrade-v6-${Date.now()}`;
    const old = shippedDatabase(name, 6);
    // Rows with and without facts, of every kind, over two chunks; and a row of another crawl.
    const pages = [
      ...Array.from({ length: 40 }, (_, i) => variedPage('c1', i + 1)),
      variedPage('c1', RESULTS_CHUNK_ROWS + 3),
    ];
    await old
      .table('crawls')
      .put({ ...crawlFixture('c1'), counts: { ...emptyCounts(), admitted: pages.length, done: pages.length } });
    await old.table('pages').bulkPut([...pages, variedPage('c2', 1)].map(v6Row));
    // Version 6's records as Tabcrawl 0.6.0 wrote them: no facts columns, no counts per indexability.
    const chunk = {
      crawlId: 'c1',
      chunk: 0,
      rev: 4,
      present: new Uint8Array(RESULTS_CHUNK_ROWS),
      urls: new Array<string>(RESULTS_CHUNK_ROWS).fill(''),
      kinds: new Uint8Array(RESULTS_CHUNK_ROWS),
    };
    await old.table('resultChunks').put(chunk);
    await old
      .table('facetCounts')
      .put({ crawlId: 'c1', rows: 0, statusKeys: {}, mediaKeys: {}, depths: {}, duplicates: 0, kinds: {}, rev: 4 });
    old.close();

    const db = new TabcrawlDatabase(name);
    try {
      await db.open();
      expect(db.verno).to.equal(LATEST_VERSION);
      expect(
        await db.pages.where('[crawlId+seq]').between(['c1', Dexie.minKey], ['c1', Dexie.maxKey]).toArray(),
      ).to.deep.equal(pages.map(toPageRow));
      expect(await new DexieCrawlStore(db).pagesAfter('c1', 0, 100)).to.deep.equal(pages);
      const counts = await db.facetCounts.get('c1');
      expect(counts?.rows).to.equal(pages.length);
      // Versions 7 and 10 each rebuild the results, each at a revision above the one before.
      expect(counts?.rev, 'above the revision a reader may hold').to.equal(6);

      // Both ways a window is read: the new sort indexes, and the rebuilt chunks (a filter).
      const queries = new DexieCrawlPageQueries(db, { preload: false });
      for (const column of ['indexability', 'words', 'h1Count', 'internalLinks', 'outboundLinks'] as const) {
        for (const descending of [false, true]) {
          const sort = { column, descending };
          const fromIndex = await queries.query({ crawlId: 'c1', sort, filter: {}, offset: 0, limit: 100 });
          expect(
            fromIndex.rows.map((row) => row.seq),
            `${column} from its index`,
          ).to.deep.equal(reference(pages, {}, sort, 0, 100).rows.map((page) => page.seq));
          const filter = { statusClasses: ['2xx' as const] };
          const fromChunks = await queries.query({ crawlId: 'c1', sort, filter, offset: 0, limit: 100 });
          expect(
            fromChunks.rows.map((row) => row.seq),
            `${column} from the chunks`,
          ).to.deep.equal(reference(pages, filter, sort, 0, 100).rows.map((page) => page.seq));
        }
      }
      const facets = await queries.facets('c1');
      for (const value of ['indexable', 'noindex', 'canonicalised', 'not-200', 'redirected', 'blocked'] as const) {
        expect(facets.indexability[value], value).to.equal(
          reference(pages, { indexability: value }, { column: 'seq', descending: false }, 0, 100).total,
        );
        const found = await queries.query({
          crawlId: 'c1',
          sort: { column: 'seq', descending: false },
          filter: { indexability: value },
          offset: 0,
          limit: 100,
        });
        expect(
          found.rows.map((row) => row.seq),
          value,
        ).to.deep.equal(
          reference(pages, { indexability: value }, { column: 'seq', descending: false }, 0, 100).rows.map(
            (page) => page.seq,
          ),
        );
      }
      expect(facets.indexability.noindex).to.be.above(0);
      expect(facets.indexability.canonicalised).to.be.above(0);
    } finally {
      db.close();
    }
  });

  it('opens a version 7 database with its crawls and rows as they were and an empty list of URLs not crawled, which a crawl then fills', async () => {
    const name = `tabcrawl-upgrade-v7-${Date.now()}`;
    const old = shippedDatabase(name, 7);
    const crawl = {
      ...crawlFixture('c1'),
      state: 'finished' as const,
      counts: { ...emptyCounts(), admitted: 2, done: 2 },
    };
    const pages = [pageFixture('c1', `${A}/a`, 1), pageFixture('c1', `${A}/b`, 2)];
    await old.table('crawls').put(crawl);
    await old.table('pages').bulkPut(pages.map(toPageRow));
    old.close();

    const db = new TabcrawlDatabase(name);
    try {
      await db.open();
      expect(db.verno).to.equal(LATEST_VERSION);
      const store = new DexieCrawlStore(db);
      expect(await store.getCrawl('c1'), 'no count of URLs not crawled: it was not kept then').to.deep.equal(crawl);
      expect(await store.pagesAfter('c1', 0, 10)).to.deep.equal(pages);
      expect(await store.notCrawledAfter('c1', null, 10)).to.deep.equal([]);
      const left = { crawlId: 'c1', url: `${A}/deep`, reason: 'depth' as const, depth: 21, referrer: `${A}/b` };
      await store.transaction((tx) => tx.putNotCrawled([left]));
      expect(await store.notCrawledAfter('c1', null, 10, 'depth')).to.deep.equal([left]);
      await store.deleteCrawl('c1');
      expect(await store.notCrawledAfter('c1', null, 10)).to.deep.equal([]);
    } finally {
      db.close();
    }
  });

  it('marks a crawl a version 8 database holds as imported by its message, turns its cookies off, and leaves a crawl Tabcrawl made as it was', async () => {
    const name = `tabcrawl-upgrade-v8-${Date.now()}`;
    const old = shippedDatabase(name, 8);
    const base = crawlFixture('c1');
    const withCookies = { ...base.settings, withCookies: true };
    const imported = {
      ...base,
      id: 'imp',
      settings: withCookies,
      message: 'Imported from evil.wacz (Tabcrawl WACZ); when crawled: Finished',
    };
    const importedWarc = { ...base, id: 'warc', message: 'Imported from site (1).warc.gz (WARC)' };
    const own = {
      ...base,
      id: 'own',
      settings: withCookies,
      message: 'Imported from nowhere, says a crawl Tabcrawl made',
    };
    await old.table('crawls').bulkPut([imported, importedWarc, own]);
    old.close();

    const db = new TabcrawlDatabase(name);
    try {
      await db.open();
      expect(db.verno).to.equal(LATEST_VERSION);
      const store = new DexieCrawlStore(db);
      expect(await store.getCrawl('imp')).to.deep.equal({
        ...imported,
        importedFrom: 'evil.wacz',
        settings: { ...withCookies, withCookies: false },
      });
      expect(await store.getCrawl('warc')).to.deep.equal({ ...importedWarc, importedFrom: 'site (1).warc.gz' });
      expect(await store.getCrawl('own')).to.deep.equal(own);
    } finally {
      db.close();
    }
  });

  it('gives the page rows and result chunks of a version 9 database the Rendered column, so the table sorts by it', async () => {
    const name = `tabcrawl-upgrade-v9-${Date.now()}`;
    const old = shippedDatabase(name, 9);
    // Rows some of which hold a render record (issue 29), over two chunks.
    const pages = [
      ...Array.from({ length: 40 }, (_, i) => variedPage('c1', i + 1)),
      variedPage('c1', RESULTS_CHUNK_ROWS + 3),
    ];
    expect(pages.filter((page) => page.render !== undefined).length).to.be.above(5);
    await old
      .table('crawls')
      .put({ ...crawlFixture('c1'), counts: { ...emptyCounts(), admitted: pages.length, done: pages.length } });
    await old.table('pages').bulkPut(pages.map(v9Row));
    old.close();

    const db = new TabcrawlDatabase(name);
    try {
      await db.open();
      expect(db.verno).to.equal(LATEST_VERSION);
      expect(
        await db.pages.where('[crawlId+seq]').between(['c1', Dexie.minKey], ['c1', Dexie.maxKey]).toArray(),
      ).to.deep.equal(pages.map(toPageRow));
      const queries = new DexieCrawlPageQueries(db, { preload: false });
      for (const descending of [false, true]) {
        const sort = { column: 'rendered' as const, descending };
        const fromIndex = await queries.query({ crawlId: 'c1', sort, filter: {}, offset: 0, limit: 100 });
        expect(
          fromIndex.rows.map((row) => [row.seq, row.rendered]),
          'from its index',
        ).to.deep.equal(reference(pages, {}, sort, 0, 100).rows.map((page) => [page.seq, toPageRow(page).renderKey]));
        const filter = { statusClasses: ['2xx' as const] };
        const fromChunks = await queries.query({ crawlId: 'c1', sort, filter, offset: 0, limit: 100 });
        expect(
          fromChunks.rows.map((row) => row.seq),
          'from the chunks',
        ).to.deep.equal(reference(pages, filter, sort, 0, 100).rows.map((page) => page.seq));
      }
    } finally {
      db.close();
    }
  });

  it('opens a version 9 database with an empty render queue, which a crawl then fills', async () => {
    const name = `tabcrawl-upgrade-v9-renders-${Date.now()}`;
    const old = shippedDatabase(name, 9);
    const crawl = crawlFixture('c1');
    await old.table('crawls').put(crawl);
    old.close();

    const db = new TabcrawlDatabase(name);
    try {
      await db.open();
      expect(db.verno).to.equal(LATEST_VERSION);
      const store = new DexieCrawlStore(db);
      expect(await store.getCrawl('c1')).to.deep.equal(crawl);
      expect(await store.transaction((tx) => tx.nextRender('c1'))).to.equal(undefined);
      const waiting = { crawlId: 'c1', url: `${A}/shell`, seq: 1, why: 'always', attempts: 0 };
      await store.transaction((tx) => tx.putRenders([waiting]));
      expect(await store.transaction((tx) => tx.nextRender('c1'))).to.deep.equal(waiting);
      await store.deleteCrawl('c1');
      expect(await store.transaction((tx) => tx.nextRender('c1'))).to.equal(undefined);
    } finally {
      db.close();
    }
  });
});

import { expect } from 'chai';
import { Dexie } from 'dexie';
import type { PageRecord } from '../../src/core/model.ts';
import { TabcrawlDatabase, toPageRow } from '../../src/storage/database.ts';
import { DexieCrawlStore } from '../../src/storage/dexie-crawl-store.ts';
import { DexieCrawlPageQueries } from '../../src/storage/dexie-page-queries.ts';
import { crawlFixture, entryFixture, hostFixture, pageFixture } from '../support/store-contract.ts';

/** The schema of version 1 as shipped in Tabcrawl 0.1.0, copied so that this test keeps testing it. */
const V1_STORES = {
  crawls: 'id, createdAt',
  hosts: '[crawlId+origin]',
  frontier: '[crawlId+url], [crawlId+origin+queuedSeq], [crawlId+leaseRunId]',
  pages: '[crawlId+url], [crawlId+seq]',
  bodies: '[crawlId+sha256]',
};

const A = 'https://a.example';
const names: string[] = [];

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

describe('TabcrawlDatabase schema upgrade', () => {
  it('keeps every row of a version 1 database and answers results queries over the upgraded pages', async () => {
    const name = `tabcrawl-upgrade-${Date.now()}`;
    names.push(name);
    const old = new Dexie(name);
    old.version(1).stores(V1_STORES);
    const crawl = { ...crawlFixture('c1'), counts: { admitted: 4, done: 3, fetched: 2, errors: 1, blocked: 1 } };
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
      expect(db.verno).to.equal(2);
      expect(await db.crawls.toArray()).to.deep.equal([crawl]);
      expect(await db.hosts.toArray()).to.deep.equal([hostFixture('c1', A)]);
      expect(await db.frontier.toArray()).to.deep.equal([queued]);
      expect(await db.bodies.toArray()).to.deep.equal([body]);
      expect(await db.pages.orderBy('[crawlId+seq]').toArray()).to.deep.equal(v1Pages().map(toPageRow));

      const store = new DexieCrawlStore(db);
      expect(await store.pagesAfter('c1', 0, 10)).to.deep.equal(v1Pages());
      const queries = new DexieCrawlPageQueries(db);
      // No title first, then 'beta' before 'ünïcödé title ✓' (code unit order of the lower case).
      const byTitle = await queries.query({ crawlId: 'c1', sort: { column: 'title', descending: false }, filter: {}, offset: 0, limit: 10 });
      expect({ seqs: byTitle.rows.map((row) => row.seq), total: byTitle.total }).to.deep.equal({ seqs: [2, 1, 3], total: 3 });
      const png = await queries.query({ crawlId: 'c1', sort: { column: 'seq', descending: false }, filter: { mediaType: 'image/png' }, offset: 0, limit: 10 });
      expect(png.rows.map((row) => row.url)).to.deep.equal([`${A}/a`]);
      const facets = await queries.facets('c1');
      expect(facets.statusClasses).to.deep.equal({ '2xx': 1, '3xx': 0, '4xx': 1, '5xx': 0, failed: 0, blocked: 1, duplicate: 1 });
    } finally {
      db.close();
    }
  });
});

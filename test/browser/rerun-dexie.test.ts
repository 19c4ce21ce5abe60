/**
 * *Re-run extraction*'s store (`storage/dexie-rerun-store.ts`) in Chromium's IndexedDB: it writes a row's
 * `custom` field and the crawl's two rule settings and nothing else, and an emptied rule list removes the
 * findings. The re-run itself is `core/custom-rules/rerun-rules.ts` (unit-tested with a store in memory).
 */
import { expect } from 'chai';
import { Dexie } from 'dexie';
import { rerunRules } from '../../src/core/custom-rules/rerun-rules.ts';
import { emptyCounts, type PageRecord } from '../../src/core/model.ts';
import { TabcrawlDatabase } from '../../src/storage/database.ts';
import { DexieCrawlStore } from '../../src/storage/dexie-crawl-store.ts';
import { DexieRerunStore } from '../../src/storage/dexie-rerun-store.ts';
import { factsOf } from '../support/page-facts-fixture.ts';
import { crawlFixture, pageFixture } from '../support/store-contract.ts';

const HTML = '<html><body><p class="price">€ 3</p> discontinued</body></html>';

describe('re-running custom rules on a crawl in IndexedDB', () => {
  let db: TabcrawlDatabase;

  beforeEach(() => {
    db = new TabcrawlDatabase(`tabcrawl-rerun-${Date.now()}`);
  });

  afterEach(async () => {
    db.close();
    await Dexie.delete(db.name);
  });

  it('writes the findings and the rules only, and removes the findings when the rules are emptied', async () => {
    const store = new DexieCrawlStore(db);
    const bytes = new TextEncoder().encode(HTML);
    const page: PageRecord = {
      ...pageFixture('c1', 'https://a.test/', 1),
      sha256: 'abc',
      contentType: 'text/html',
      facts: factsOf(),
      title: 'Kept as it was',
    };
    const crawl = { ...crawlFixture('c1'), state: 'finished' as const, counts: { ...emptyCounts(), done: 1 } };
    await store.transaction(async (tx) => {
      await tx.putCrawl(crawl);
      await tx.putPages([page]);
      await tx.putBody({ crawlId: 'c1', sha256: 'abc', url: page.url, bytes });
    });
    const rerun = new DexieRerunStore(db);
    const result = await rerunRules(rerun, crawl, {
      searches: ['old=discontinued'],
      extractions: ['price=css:.price'],
    });
    expect(result).to.deep.equal({ ok: true, rows: 1, pages: 1, withoutBody: 0 });
    const [row] = await store.pagesAfter('c1', 0, 10);
    expect(row?.custom).to.deep.equal({ searches: { old: 1 }, extracted: { price: ['€ 3'] } });
    expect(row?.title).to.equal('Kept as it was');
    const stored = await store.getCrawl('c1');
    expect(stored?.settings.searches).to.deep.equal(['old=discontinued']);
    expect(stored?.settings.extractions).to.deep.equal(['price=css:.price']);
    expect(stored?.counts.done).to.equal(1);
    expect(stored?.state).to.equal('finished');

    await rerunRules(rerun, crawl, { searches: [], extractions: [] });
    const [cleared] = await store.pagesAfter('c1', 0, 10);
    expect(cleared).to.not.have.property('custom');
    expect((await store.getCrawl('c1'))?.settings.searches).to.deep.equal([]);
  });
});

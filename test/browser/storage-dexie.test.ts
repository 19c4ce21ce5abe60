import { expect } from 'chai';
import { Dexie } from 'dexie';
import type { FrontierEntry } from '../../src/core/model.ts';
import { TabcrawlDatabase } from '../../src/storage/database.ts';
import { DexieCrawlStore } from '../../src/storage/dexie-crawl-store.ts';
import { DexieCrawlPageQueries } from '../../src/storage/dexie-page-queries.ts';
import { variedPage } from '../support/results-reference.ts';
import { crawlFixture, entryFixture, hostFixture, pageFixture, storeContract } from '../support/store-contract.ts';

const A = 'https://a.example';
const B = 'https://b.example';

/** Databases opened by the current test; closed and deleted after it. */
const opened: TabcrawlDatabase[] = [];
let serial = 0;

/** A database of its own for one test. Reopen by passing the name of an earlier one. */
function openDatabase(name = `tabcrawl-test-${Date.now()}-${(serial += 1)}`): TabcrawlDatabase {
  const db = new TabcrawlDatabase(name);
  opened.push(db);
  return db;
}

afterEach(async () => {
  const databases = opened.splice(0);
  for (const db of databases) db.close();
  for (const name of new Set(databases.map((db) => db.name))) await Dexie.delete(name);
});

storeContract('DexieCrawlStore', async () => new DexieCrawlStore(openDatabase()), {
  describe,
  it,
  assertEqual: (actual, expected) => {
    expect(actual).to.deep.equal(expected);
  },
});

describe('DexieCrawlStore on IndexedDB', () => {
  it('keeps every record when the database is closed and opened again', async () => {
    const first = openDatabase();
    const body = { crawlId: 'c1', sha256: 'ab'.repeat(32), url: `${A}/p`, bytes: new Uint8Array([0, 1, 254, 255]) };
    await new DexieCrawlStore(first).transaction(async (tx) => {
      await tx.putCrawl(crawlFixture('c1'));
      await tx.putHosts([hostFixture('c1', A)]);
      await tx.putEntries([entryFixture('c1', A, '/q', 2), entryFixture('c1', A, '/l', 1, 'run-1')]);
      await tx.putPages([pageFixture('c1', `${A}/p`, 1)]);
      await tx.putBody(body);
    });
    first.close();

    const store = new DexieCrawlStore(openDatabase(first.name));
    expect(await store.listCrawls()).to.deep.equal([crawlFixture('c1')]);
    expect(await store.pagesAfter('c1', 0, 10)).to.deep.equal([pageFixture('c1', `${A}/p`, 1)]);
    expect(await store.getBody('c1', body.sha256)).to.deep.equal(body);
    const frontier = await store.transaction(async (tx) => ({
      hosts: await tx.listHosts('c1'),
      next: await tx.nextEntry('c1', A),
      leased: await tx.leasedEntries('c1'),
    }));
    expect(frontier).to.deep.equal({
      hosts: [hostFixture('c1', A)],
      next: entryFixture('c1', A, '/q', 2),
      leased: [entryFixture('c1', A, '/l', 1, 'run-1')],
    });
  });

  it('nextEntry finds the lowest queued entry of a host among 5,000', async function (this: MochaContext) {
    this.timeout(30_000);
    const store = new DexieCrawlStore(openDatabase());
    const entries: FrontierEntry[] = [];
    // Seqs 1..5000 in a scrambled order (7919 is prime, so the map is a permutation); the three lowest are leased.
    for (let i = 0; i < 5000; i += 1) {
      const seq = ((i * 7919) % 5000) + 1;
      entries.push(entryFixture('c1', A, `/page-${seq}`, seq, seq <= 3 ? `run-${seq}` : null));
    }
    entries.push(entryFixture('c1', B, '/lower-seq-other-host', 0), entryFixture('c2', A, '/other-crawl', 0));
    await store.transaction((tx) => tx.putEntries(entries));

    const found = await store.transaction(async (tx) => ({
      next: await tx.nextEntry('c1', A),
      queued: (await tx.queuedEntries('c1', A, 3)).map((entry) => entry.seq),
      leased: (await tx.leasedEntries('c1')).length,
    }));
    expect(found).to.deep.equal({ next: entryFixture('c1', A, '/page-4', 4), queued: [4, 5, 6], leased: 3 });
  });

  it('stores the queue position only on queued frontier rows and hands out entries without it', async () => {
    const db = openDatabase();
    const store = new DexieCrawlStore(db);
    await store.transaction((tx) =>
      tx.putEntries([entryFixture('c1', A, '/q', 7), entryFixture('c1', A, '/l', 8, 'run-1')]),
    );

    expect(await db.frontier.get(['c1', `${A}/q`])).to.deep.equal({ ...entryFixture('c1', A, '/q', 7), queuedSeq: 7 });
    expect(await db.frontier.get(['c1', `${A}/l`])).to.deep.equal(entryFixture('c1', A, '/l', 8, 'run-1'));
    const entries = await store.transaction((tx) => tx.getEntries('c1', [`${A}/q`, `${A}/l`]));
    expect(entries).to.deep.equal([entryFixture('c1', A, '/q', 7), entryFixture('c1', A, '/l', 8, 'run-1')]);
  });

  it('keeps one transaction alive across many awaited calls made from nested async functions', async () => {
    const store = new DexieCrawlStore(openDatabase());
    await store.transaction((tx) => tx.putCrawl(crawlFixture('c1')));

    const incrementDone = async (tx: Parameters<Parameters<DexieCrawlStore['transaction']>[0]>[0]): Promise<void> => {
      const crawl = await tx.getCrawl('c1');
      if (crawl === undefined) throw new Error('crawl c1 is missing');
      await tx.putCrawl({ ...crawl, counts: { ...crawl.counts, done: crawl.counts.done + 1 } });
    };
    const long = store.transaction(async (tx) => {
      for (let i = 0; i < 50; i += 1) await incrementDone(tx);
      await Promise.resolve();
      return (await tx.getCrawl('c1'))?.counts.done;
    });
    const seenByNext = store.transaction(async (tx) => (await tx.getCrawl('c1'))?.counts.done);

    expect(await long).to.equal(50);
    expect(await seenByNext).to.equal(50);
  });

  it('commits the writes made before a work awaits a timer, and fails its next call', async () => {
    // IndexedDB commits a transaction as soon as it has no request pending at the end of a task.
    // This is why a work must await nothing but tx calls: see DexieCrawlStore.
    const store = new DexieCrawlStore(openDatabase());
    let error: unknown;
    try {
      await store.transaction(async (tx) => {
        await tx.putCrawl(crawlFixture('before'));
        // Writes are not awaited one by one (PipelinedWrites): a read made after it answers once it is done.
        await tx.getCrawl('before');
        await new Promise((resolve) => setTimeout(resolve, 10));
        await tx.putCrawl(crawlFixture('after'));
      });
    } catch (caught: unknown) {
      error = caught;
    }

    // Dexie's TransactionInactiveError for a read; IndexedDB's InvalidStateError (the transaction has finished) for a write.
    expect(['TransactionInactiveError', 'InvalidStateError']).to.include((error as Error).name);
    expect((await store.listCrawls()).map((crawl) => crawl.id)).to.deep.equal(['before']);
  });

  it('sends writes without waiting for each, in order: rows written by many calls at once leave the same results chunks and facets as one call', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => variedPage('c1', i + 1));
    const rewritten = rows
      .filter((_, i) => i % 6 === 0)
      .map((row) => ({ ...row, status: 404, contentType: 'text/plain' }));
    const pipelined = openDatabase();
    await new DexieCrawlStore(pipelined).transaction(async (tx) => {
      await tx.putCrawl(crawlFixture('c1'));
      // Not awaited one by one: each call's chunk and facet update must still follow the one before.
      await Promise.all([...rows.map((row) => tx.putPages([row])), ...rewritten.map((row) => tx.putPages([row]))]);
      // A read made after the writes sees them.
      expect((await tx.getPages('c1', [rows[0]?.url ?? ''])).map((row) => row?.status)).to.deep.equal([404]);
    });
    const reference = openDatabase();
    const final = rows.map((row) => rewritten.find((again) => again.url === row.url) ?? row);
    await new DexieCrawlStore(reference).transaction(async (tx) => {
      await tx.putCrawl(crawlFixture('c1'));
      await tx.putPages(final);
    });

    const facets = await new DexieCrawlPageQueries(pipelined).facets('c1');
    expect(facets.statusClasses['4xx']).to.be.at.least(rewritten.length);
    expect(facets).to.deep.equal(await new DexieCrawlPageQueries(reference).facets('c1'));
    // `rev` counts the chunk's writes: one per call in the first database, one in all in the second.
    const withoutRev = (chunks: { rev: number }[]): unknown[] => chunks.map(({ rev: _rev, ...chunk }) => chunk);
    expect(withoutRev(await pipelined.resultChunks.toArray())).to.deep.equal(
      withoutRev(await reference.resultChunks.toArray()),
    );
  });

  it('a write the browser refuses fails the whole transaction, though the work did not wait for it: nothing of it is stored', async () => {
    const store = new DexieCrawlStore(openDatabase());
    await store.transaction((tx) => tx.putCrawl(crawlFixture('c1')));
    let error: unknown;
    try {
      await store.transaction(async (tx) => {
        await tx.putHosts([hostFixture('c1', A)]);
        await tx.putPages([pageFixture('c1', `${A}/1`, 1)]);
        await tx.putEntries([entryFixture('c1', A, '/2', 2)]);
        // A value IndexedDB cannot store (a function) is refused.
        await tx.putCrawl({
          ...crawlFixture('c1'),
          state: 'paused',
          settings: { ...crawlFixture('c1').settings, startUrl: (() => 'x') as unknown as string },
        });
      });
    } catch (caught: unknown) {
      error = caught;
    }

    expect((error as Error | undefined)?.name).to.equal('DataCloneError');
    expect((await store.getCrawl('c1'))?.state).to.equal('running');
    expect(await store.listHosts('c1')).to.deep.equal([]);
    expect(await store.latestPages('c1', 10)).to.deep.equal([]);
    expect(await store.transaction((tx) => tx.nextEntry('c1', A))).to.equal(undefined);
  });
});

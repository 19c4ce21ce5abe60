/**
 * Group commit (`core/crawl/commit-queue.ts`): works queued while a transaction
 * runs share the next one, run in order and see each other's changes; a batch
 * is all or nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CommitQueue, type Committed } from '../../src/core/crawl/commit-queue.ts';
import { createCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { unfetchedRow } from '../../src/core/crawl/frontier-queue.ts';
import { StorageFullError } from '../../src/core/crawl/ports.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { settingsFor } from '../support/crawl-world.ts';

const A = 'http://a.test';

async function setUp() {
  const store = new MemoryCrawlStore();
  await createCrawl(store, settingsFor({ startUrl: `${A}/` }), { id: 'c1', now: 0 });
  let transactions = 0;
  const transaction = store.transaction.bind(store);
  store.transaction = (work) => {
    transactions += 1;
    return transaction(work);
  };
  const committed: Committed[] = [];
  const queue = new CommitQueue(store, (c) => committed.push(c));
  return { store, queue, committed, transactions: () => transactions };
}

describe('commit queue', () => {
  it('runs the works queued in one turn in one transaction, in order, each seeing the changes before it', async () => {
    const { store, queue, committed, transactions } = await setUp();
    const results = await Promise.all(
      [1, 2, 3].map((n) =>
        queue.run(
          'c1',
          async (writes) => {
            const host = await writes.host(A);
            host.lastResponseMs += n;
            writes.crawl.counts.errors += 1;
            return host.lastResponseMs;
          },
          -1,
        ),
      ),
    );
    assert.deepEqual(results, [1, 3, 6]);
    assert.equal(transactions(), 1);
    assert.equal((await store.getCrawl('c1'))?.counts.errors, 3);
    assert.equal((await store.listHosts('c1')).find((h) => h.origin === A)?.lastResponseMs, 6);
    assert.equal(committed.length, 1);
    assert.equal(committed[0]?.hosts.find((h) => h.origin === A)?.lastResponseMs, 6, 'told of the hosts as stored');
  });

  it('puts the works queued while a transaction runs into the next one, together', async () => {
    const { queue, transactions } = await setUp();
    const first = queue.run('c1', async (writes) => void (await writes.host(A)), undefined);
    await Promise.resolve(); // the first batch has started
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    const later = Array.from({ length: 10 }, () =>
      queue.run('c1', async (writes) => void (await writes.host(A)), undefined),
    );
    await Promise.all([first, ...later]);
    assert.equal(transactions(), 2);
  });

  it('answers ifGone without running the work when the crawl does not exist', async () => {
    const { queue } = await setUp();
    let ran = false;
    const result = await queue.run(
      'nope',
      async () => {
        ran = true;
        return 'ran';
      },
      'gone',
    );
    assert.equal(result, 'gone');
    assert.equal(ran, false);
  });

  it('fails every work of a batch when one throws, and stores none of it', async () => {
    const { store, queue } = await setUp();
    const bump = queue.run(
      'c1',
      async (writes) => {
        writes.crawl.counts.errors += 1;
      },
      undefined,
    );
    const broken = queue.run(
      'c1',
      async () => {
        throw new StorageFullError('full');
      },
      undefined,
    );
    await assert.rejects(bump, StorageFullError);
    await assert.rejects(broken, StorageFullError);
    assert.equal((await store.getCrawl('c1'))?.counts.errors, 0);
    // The queue goes on with the next batch.
    await queue.run('c1', async (writes) => void (writes.crawl.counts.errors += 5), undefined);
    assert.equal((await store.getCrawl('c1'))?.counts.errors, 5);
  });

  it('writes a row changed by several works of a batch once', async () => {
    const { store, queue } = await setUp();
    let puts = 0;
    const transaction = store.transaction.bind(store);
    store.transaction = (work) =>
      transaction((tx) =>
        work({
          ...tx,
          putPages: (pages) => {
            puts += pages.length;
            return tx.putPages(pages);
          },
        }),
      );
    const row = {
      ...unfetchedRow({
        crawlId: 'c1',
        url: `${A}/x`,
        origin: A,
        kind: 'page',
        depth: 0,
        referrer: null,
        seq: 1,
        anchors: [],
        inlinks: 0,
        attempts: 0,
        leaseRunId: null,
      }),
      seq: 1,
    };
    await Promise.all(
      [1, 2, 3].map(() =>
        queue.run(
          'c1',
          async (writes) => {
            const [stored] = await writes.getPages([row.url]);
            if (stored) stored.inlinks += 1;
            else writes.putPages([{ ...row, inlinks: 1 }]);
          },
          undefined,
        ),
      ),
    );
    assert.equal(puts, 1);
    const [stored] = await store.transaction((tx) => tx.getPages('c1', [row.url]));
    assert.equal(stored?.inlinks, 3);
  });
});

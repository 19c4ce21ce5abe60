/**
 * The crawl loop's view of one crawl (`core/crawl/crawl-view.ts`): read once when a run starts, kept
 * from what each batch committed, and read again only after a wake or every VIEW_REFRESH_MS. On a
 * memory store that counts its reads, with a fake clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CommitQueue } from '../../src/core/crawl/commit-queue.ts';
import { createCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { CrawlView, VIEW_REFRESH_MS } from '../../src/core/crawl/crawl-view.ts';
import { HostRules } from '../../src/core/crawl/host-rules.ts';
import type { Clock } from '../../src/core/crawl/ports.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { settingsFor } from '../support/crawl-world.ts';

const A = 'http://a.test';

async function setUp() {
  const store = new MemoryCrawlStore();
  await createCrawl(store, settingsFor({ startUrl: `${A}/` }), { id: 'c1', now: 0 });
  let reads = 0;
  const getCrawl = store.getCrawl.bind(store);
  store.getCrawl = (crawlId) => {
    reads += 1;
    return getCrawl(crawlId);
  };
  let now = 1000;
  const clock: Clock = { now: () => now, sleep: () => Promise.resolve() };
  // Told of the batches only once the view exists (the queue's first commit comes later).
  const queue = new CommitQueue(store, (committed) => view.committed(committed));
  const view = await CrawlView.open(store, clock, new HostRules(() => 0), queue, 'c1', 2);
  return {
    store,
    view,
    queue,
    reads: () => reads,
    advance: (ms: number) => void (now += ms),
    now: () => now,
  };
}

describe('crawl view', () => {
  it('reads the crawl and its hosts when a run opens it', async () => {
    const { view, reads } = await setUp();
    assert.equal(view.crawlId, 'c1');
    assert.equal(view.crawl?.state, 'running');
    assert.equal(reads(), 1);
  });

  it('keeps the record it holds for a turn until it is older than VIEW_REFRESH_MS, then reads it again', async () => {
    const { store, view, reads, advance, now } = await setUp();
    assert.equal(await view.current(store, now()), view.crawl);
    advance(VIEW_REFRESH_MS - 1);
    await view.current(store, now());
    assert.equal(reads(), 1, 'still fresh');
    advance(1);
    await view.current(store, now());
    assert.equal(reads(), 2, 'read again');
  });

  it('reads the record again at the next turn after a wake, which also ends the wait it was given for', async () => {
    const { store, view, reads, now } = await setUp();
    const woken = view.woken();
    view.wake();
    await woken;
    await view.current(store, now());
    assert.equal(reads(), 2);
    await view.current(store, now());
    assert.equal(reads(), 2, 'once per wake');
  });

  it('ends the wait on a poke without reading the record again', async () => {
    const { store, view, reads, now } = await setUp();
    const woken = view.woken();
    view.poke();
    await woken;
    await view.current(store, now());
    assert.equal(reads(), 1);
  });

  it('keeps the record, hosts and tallied links of each committed batch without reading them', async () => {
    const { view, queue, reads } = await setUp();
    await queue.run(
      'c1',
      async (writes) => {
        const host = await writes.host(A);
        host.lastResponseMs = 42;
        writes.crawl.counts.errors += 1;
        writes.tallyLink(`${A}/`, true, []);
        writes.tallyLink(`${A}/`, true, []);
      },
      undefined,
    );
    assert.equal(view.crawl?.counts.errors, 1);
    assert.equal(view.hosts.get(A)?.lastResponseMs, 42);
    assert.equal(view.folds.isDue(), true, 'two links tallied, a fold due at two');
    assert.equal(reads(), 1);
  });
});

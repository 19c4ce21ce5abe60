/**
 * How a failed run of a crawl ends (`endWithFailure` in `core/crawl/run-ends.ts`): a full store pauses
 * the crawl, any other error is recorded on it, and a store too full even for the pause throws. On a
 * memory store, with a fixed clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CommitQueue } from '../../src/core/crawl/commit-queue.ts';
import { createCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { HostRules } from '../../src/core/crawl/host-rules.ts';
import { StorageFullError, type Clock } from '../../src/core/crawl/ports.ts';
import { endWithFailure } from '../../src/core/crawl/run-ends.ts';
import { STORAGE_FULL_MESSAGE, type StepContext } from '../../src/core/crawl/run-context.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { settingsFor } from '../support/crawl-world.ts';
import { FakeSite } from '../support/fake-site.ts';
import { VirtualClock } from '../support/virtual-clock.ts';

const NOW = 5000;

async function setUp() {
  const store = new MemoryCrawlStore();
  await createCrawl(store, settingsFor({ startUrl: 'http://a.test/' }), { id: 'c1', now: 0 });
  const clock: Clock = { now: () => NOW, sleep: () => Promise.resolve() };
  const ctx: StepContext = {
    store,
    fetcher: new FakeSite(new VirtualClock()),
    clock,
    runId: 'r1',
    commits: new CommitQueue(store),
    rules: new HostRules(() => 0),
    admitFollowed: () => Promise.resolve(),
    admitAnyHost: () => Promise.resolve(),
  };
  return { store, ctx };
}

describe('end of a failed run', () => {
  it('pauses the crawl and says why when the store is full', async () => {
    const { store, ctx } = await setUp();
    await endWithFailure(ctx, 'c1', new StorageFullError('over quota'));
    const crawl = await store.getCrawl('c1');
    assert.equal(crawl?.state, 'paused');
    assert.equal(crawl?.pausedAt, NOW);
    assert.equal(crawl?.message, STORAGE_FULL_MESSAGE);
  });

  it('records any other error on the crawl, which fails', async () => {
    const { store, ctx } = await setUp();
    await endWithFailure(ctx, 'c1', new TypeError('a bug'));
    const crawl = await store.getCrawl('c1');
    assert.equal(crawl?.state, 'failed');
    assert.equal(crawl?.endedAt, NOW);
    assert.match(crawl?.message ?? '', /TypeError/);
  });

  it('throws the full store’s error when not even the pause can be written', async () => {
    const { store, ctx } = await setUp();
    const full = new StorageFullError('over quota');
    store.transaction = () => Promise.reject(new StorageFullError('still over quota'));
    await assert.rejects(endWithFailure(ctx, 'c1', full), (error) => error === full);
  });
});

/**
 * One step for one host (`core/crawl/host-step.ts`), without the loop: its claim, the host's robots.txt
 * first, its pages, and going on with the host's next request in the transaction that records the
 * previous one while the loop lets it. On the virtual clock, a fake site and a memory store.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Admission } from '../../src/core/crawl/admission.ts';
import { CommitQueue } from '../../src/core/crawl/commit-queue.ts';
import { createCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { CrawlWrites } from '../../src/core/crawl/crawl-writes.ts';
import { HostRules } from '../../src/core/crawl/host-rules.ts';
import { HostScheduler } from '../../src/core/crawl/host-scheduler.ts';
import { hostStep, type StepView } from '../../src/core/crawl/host-step.ts';
import type { StepContext } from '../../src/core/crawl/run-context.ts';
import { settingsFor, world } from '../support/crawl-world.ts';
import { page } from '../support/fake-site.ts';

const A = 'http://a.test';

/** A crawl of a site whose `/` links to `/a` and `/b`, at delay 0, and what a step of it needs. */
async function setUp() {
  const w = world();
  w.site.route(`${A}/robots.txt`, { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' });
  w.site.route(`${A}/`, page(['/a', '/b']));
  w.site.route(`${A}/a`, page([]));
  w.site.route(`${A}/b`, page([]));
  const crawl = await createCrawl(w.store, settingsFor({ startUrl: `${A}/`, delayMs: 0 }), {
    id: 'c1',
    now: w.clock.now(),
  });
  let transactions = 0;
  const transaction = w.store.transaction.bind(w.store);
  w.store.transaction = (work) => {
    transactions += 1;
    return transaction(work);
  };
  const rules = new HostRules(() => 0);
  const admission = new Admission(rules, () => null);
  const commits = new CommitQueue(w.store, undefined, (tx, record) => new CrawlWrites(tx, record, null));
  const ctx: StepContext = {
    store: w.store,
    fetcher: w.site,
    clock: w.clock,
    runId: 'r1',
    commits,
    rules,
    admitFollowed: (writes, candidates) => admission.admitFollowed(writes, candidates),
    admitAnyHost: (writes, candidates) => admission.admitAnyHost(writes, candidates),
  };
  const view: StepView = { crawlId: 'c1', crawl, scheduler: new HostScheduler(rules, w.clock) };
  /** Runs one step for `A`; resolves to whether it did anything and how often it freed its slot. */
  const step = async (mayGoOn: boolean): Promise<{ worked: boolean; slotFrees: number }> => {
    let slotFrees = 0;
    const worked = await w.clock.run(
      hostStep(
        ctx,
        view,
        crawl,
        A,
        new AbortController().signal,
        () => (slotFrees += 1),
        () => mayGoOn,
      ),
    );
    return { worked, slotFrees };
  };
  const fetched = async (): Promise<string[]> =>
    (await w.store.pagesAfter('c1', 0, 100))
      .filter((row) => row.status === 200)
      .map((row) => row.url)
      .sort();
  return { step, fetched, view, transactions: () => transactions };
}

describe('host step', () => {
  it('fetches the host’s robots.txt alone in its first step, and frees its slot once', async () => {
    const { step, fetched } = await setUp();
    assert.deepEqual(await step(true), { worked: true, slotFrees: 1 });
    assert.deepEqual(await fetched(), []);
  });

  it('goes on with the host’s next page in the transaction that records the last while the loop lets it, then finds nothing', async () => {
    const { step, fetched, view, transactions } = await setUp();
    await step(true);
    const before = transactions();
    assert.deepEqual(await step(true), { worked: true, slotFrees: 1 });
    assert.deepEqual(await fetched(), [`${A}/`, `${A}/a`, `${A}/b`]);
    assert.equal(transactions() - before, 4, 'one claim, then one transaction per page');
    assert.equal(view.scheduler.requestsOut(A), 0, 'no request left counted out');
    assert.deepEqual(await step(true), { worked: false, slotFrees: 0 }, 'nothing left to claim');
  });

  it('hands the host back to the loop after one page when it may not go on', async () => {
    const { step, fetched, view } = await setUp();
    await step(false);
    assert.deepEqual(await step(false), { worked: true, slotFrees: 1 });
    assert.deepEqual(await fetched(), [`${A}/`]);
    assert.equal(view.scheduler.requestsOut(A), 0);
  });

  it('claims nothing while a request outside the steps wants the host, and goes on once it is released', async () => {
    const { step, fetched, view } = await setUp();
    await step(true);
    const release = view.scheduler.wantTurn(A);
    assert.deepEqual(await step(true), { worked: false, slotFrees: 0 }, 'the host is handed over');
    assert.deepEqual(await fetched(), []);
    release();
    assert.deepEqual(await step(true), { worked: true, slotFrees: 1 });
    assert.deepEqual(await fetched(), [`${A}/`, `${A}/a`, `${A}/b`]);
  });

  it('stops chaining the host’s pages as soon as a turn is wanted, after the page in flight', async () => {
    const { step, fetched, view } = await setUp();
    await step(true);
    let release: (() => void) | null = null;
    const seen = view.scheduler;
    // The turn is wanted while the first page is in flight: the step records it and claims no more.
    const requestStarted = seen.requestStarted.bind(seen);
    seen.requestStarted = (origin) => {
      requestStarted(origin);
      release ??= seen.wantTurn(origin);
    };
    assert.deepEqual(await step(true), { worked: true, slotFrees: 1 });
    assert.deepEqual(await fetched(), [`${A}/`]);
    (release as (() => void) | null)?.();
  });
});

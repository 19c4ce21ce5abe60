/**
 * The push channel's sending side (background/crawl-events.ts): which writes
 * make an event, when it is sent, and that a whole crawl run through the
 * manager tells the pages about every change of state, on a virtual clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CRAWL_EVENT_MIN_MS, CrawlEvents, observeCrawlChanges } from '../../src/shells/background/crawl-events.ts';
import { CrawlManager } from '../../src/shells/background/crawl-manager.ts';
import type { EventMessage } from '../../src/messaging/protocol.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { FakeSite, page } from '../support/fake-site.ts';
import { VirtualClock } from '../support/virtual-clock.ts';

const A = 'http://a.test';

/** Timers whose time moves only when told; due callbacks run on `advance`. */
function fakeTimers() {
  let now = 1_000_000;
  const due: { at: number; callback: () => void }[] = [];
  return {
    now: () => now,
    setTimeout: (callback: () => void, ms: number) => void due.push({ at: now + ms, callback }),
    advance(ms: number) {
      now += ms;
      for (const timer of due.filter((t) => t.at <= now)) {
        due.splice(due.indexOf(timer), 1);
        timer.callback();
      }
    },
  };
}

function recorder() {
  const sent: EventMessage[] = [];
  return { sent, post: async (message: EventMessage) => void sent.push(message) };
}

describe('crawl events: when they are sent', () => {
  it('sends the first change of a crawl at once', () => {
    const timers = fakeTimers();
    const { sent, post } = recorder();
    new CrawlEvents(post, timers).changed('c1', false);
    assert.deepEqual(sent, [{ event: 'crawl/changed', payload: { crawlId: 'c1', isDeleted: false } }]);
  });

  it(`sends one event for a burst of changes within ${CRAWL_EVENT_MIN_MS} ms, and always the last`, () => {
    const timers = fakeTimers();
    const { sent, post } = recorder();
    const events = new CrawlEvents(post, timers);
    events.changed('c1', false);
    for (let i = 0; i < 50; i += 1) {
      timers.advance(2);
      events.changed('c1', false);
    }
    assert.equal(sent.length, 1, 'the burst waits for the interval');
    timers.advance(CRAWL_EVENT_MIN_MS);
    assert.equal(sent.length, 2, 'the last change of the burst is sent');
    timers.advance(10 * CRAWL_EVENT_MIN_MS);
    assert.equal(sent.length, 2, 'nothing more without a change');
  });

  it('keeps each crawl on its own interval', () => {
    const timers = fakeTimers();
    const { sent, post } = recorder();
    const events = new CrawlEvents(post, timers);
    events.changed('c1', false);
    events.changed('c2', false);
    assert.deepEqual(
      sent.map((m) => m.payload.crawlId),
      ['c1', 'c2'],
    );
  });

  it('sends a delete at once and drops a change scheduled before it', () => {
    const timers = fakeTimers();
    const { sent, post } = recorder();
    const events = new CrawlEvents(post, timers);
    events.changed('c1', false);
    events.changed('c1', false);
    events.changed('c1', true);
    timers.advance(CRAWL_EVENT_MIN_MS);
    assert.deepEqual(
      sent.map((m) => m.payload.isDeleted),
      [false, true],
    );
  });

  it('ignores a page-less browser: a rejected post is not an error', async () => {
    const events = new CrawlEvents(() => Promise.reject(new Error('Receiving end does not exist')), fakeTimers());
    events.changed('c1', false);
    await new Promise((resolve) => setImmediate(resolve));
  });
});

describe('crawl events: which writes count', () => {
  it('reports a crawl after a committed transaction that wrote its record or hosts, and after its delete', async () => {
    const reported: [string, boolean][] = [];
    const store = observeCrawlChanges(new MemoryCrawlStore(), (crawlId, isDeleted) =>
      reported.push([crawlId, isDeleted]),
    );
    const clock = new VirtualClock();
    const site = new FakeSite(clock);
    site.route(`${A}/robots.txt`, { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\n' });
    site.route(`${A}/`, page(['/a']));
    site.route(`${A}/a`, page([]));
    let ids = 0;
    const manager = new CrawlManager({
      store,
      fetcher: site,
      clock,
      runId: 'run',
      newId: () => `crawl-${++ids}`,
      onActiveChange: () => undefined,
    });
    const crawl = await manager.start({ startUrl: `${A}/`, delayMs: 100 });
    await clock.run(
      (async () => {
        while ((await store.getCrawl(crawl.id))?.state === 'running') await clock.sleep(50);
      })(),
    );
    assert.equal((await store.getCrawl(crawl.id))?.state, 'finished');
    assert.ok(reported.length >= 3, `a report per change: ${reported.length}`);
    assert.ok(reported.every(([id, isDeleted]) => id === crawl.id && !isDeleted));
    reported.length = 0;
    await manager.delete(crawl.id);
    assert.deepEqual(reported.at(-1), [crawl.id, true]);
  });

  it('reports nothing for a transaction that failed', async () => {
    const reported: string[] = [];
    const store = observeCrawlChanges(new MemoryCrawlStore(), (crawlId) => reported.push(crawlId));
    await assert.rejects(
      store.transaction(async (tx) => {
        await tx.putHosts([]);
        throw new Error('work failed');
      }),
    );
    assert.deepEqual(reported, []);
  });

  it('passes reads through to the store', async () => {
    const inner = new MemoryCrawlStore();
    const store = observeCrawlChanges(inner, () => undefined);
    assert.deepEqual(await store.listCrawls(), []);
    assert.equal(await store.getCrawl('none'), undefined);
  });
});

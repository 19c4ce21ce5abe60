/**
 * The background's side of a full store: when not even a crawl's pause can be
 * written (a store over its quota refuses every write), the crawl is still
 * shown paused with the reason, is not restarted by the watchdog, and runs
 * again when the user resumes it; deleting a crawl works on a full store.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CrawlManager } from '../../src/shells/background/crawl-manager.ts';
import { createHandlers, dispatch } from '../../src/shells/background/message-handlers.ts';
import { STORAGE_FULL_MESSAGE } from '../../src/core/crawl/run-context.ts';
import type { MessageOf, RequestType } from '../../src/messaging/protocol.ts';
import { storeThatFillsUp } from '../support/full-store.ts';
import { FakeSite, page } from '../support/fake-site.ts';
import { VirtualClock } from '../support/virtual-clock.ts';

const A = 'http://a.test';

function background() {
  const clock = new VirtualClock();
  const site = new FakeSite(clock);
  site.route(`${A}/robots.txt`, { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\n' });
  site.route(`${A}/`, page(Array.from({ length: 10 }, (_, i) => `/p${i}`)));
  for (let i = 0; i < 10; i += 1) site.route(`${A}/p${i}`, page([], `<p>${'x'.repeat(2000)}${i}</p>`));
  // Over its limit, the store refuses every write, as IndexedDB over its quota does.
  const { store, freeSpace } = storeThatFillsUp(6_000);
  let ids = 0;
  const manager = new CrawlManager({
    store,
    fetcher: site,
    clock,
    runId: 'run',
    newId: () => `crawl-${++ids}`,
    onActiveChange: () => undefined,
  });
  const handlers = createHandlers(store, manager, clock);
  const send = async <K extends RequestType>(message: MessageOf<K>) => {
    const reply = await dispatch(handlers, message);
    if (!reply.ok) throw new Error(reply.error.message);
    return reply.value;
  };
  /** Runs the virtual clock until `done` holds. */
  const until = (done: () => Promise<boolean>) =>
    clock.run(
      (async () => {
        while (!(await done())) await clock.sleep(100);
      })(),
    );
  return { clock, site, store, manager, send, until, freeSpace };
}

describe('a crawl whose pause cannot be stored', () => {
  it('is shown paused with the reason, stays put on a watchdog wake, and finishes when resumed after space is freed', async () => {
    const bg = background();
    const { crawl } = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/`, delayMs: 50 } } });
    await bg.until(
      async () => (await bg.send({ type: 'crawl/get', payload: { crawlId: crawl.id } })).crawl.state !== 'running',
    );
    const shown = (await bg.send({ type: 'crawl/get', payload: { crawlId: crawl.id } })).crawl;
    assert.equal(shown.state, 'paused');
    assert.equal(shown.message, STORAGE_FULL_MESSAGE);
    assert.equal((await bg.send({ type: 'crawl/list', payload: {} })).crawls[0]?.state, 'paused');
    assert.equal((await bg.store.getCrawl(crawl.id))?.state, 'running', 'the store could not record the pause');

    const requests = bg.site.requests.length;
    await bg.manager.resumeAll();
    await bg.clock.run(bg.clock.sleep(5_000));
    assert.equal(bg.site.requests.length, requests, 'the watchdog does not restart it');

    bg.freeSpace();
    await bg.send({ type: 'crawl/resume', payload: { crawlId: crawl.id } });
    await bg.until(
      async () => (await bg.send({ type: 'crawl/get', payload: { crawlId: crawl.id } })).crawl.state === 'finished',
    );
    assert.equal((await bg.store.pagesAfter(crawl.id, 0, 100)).length, 11);
  });

  it('deletes a crawl while the store is full', async () => {
    const bg = background();
    const { crawl } = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/`, delayMs: 50 } } });
    await bg.until(
      async () => (await bg.send({ type: 'crawl/get', payload: { crawlId: crawl.id } })).crawl.state !== 'running',
    );
    await bg.send({ type: 'crawl/delete', payload: { crawlId: crawl.id } });
    assert.deepEqual((await bg.send({ type: 'crawl/list', payload: {} })).crawls, []);
  });
});

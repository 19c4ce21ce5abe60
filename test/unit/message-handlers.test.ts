import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CrawlManager } from '../../src/background/crawl-manager.ts';
import { createHandlers, dispatch } from '../../src/background/message-handlers.ts';
import type { MessageOf, RequestType } from '../../src/messaging/protocol.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { FakeSite, page } from '../support/fake-site.ts';
import { VirtualClock } from '../support/virtual-clock.ts';

const A = 'http://a.test';

function background() {
  const clock = new VirtualClock();
  const site = new FakeSite(clock);
  const store = new MemoryCrawlStore();
  let ids = 0;
  const active: boolean[] = [];
  const manager = new CrawlManager({ store, fetcher: site, clock, runId: 'run', newId: () => `crawl-${++ids}`, onActiveChange: (a) => active.push(a) });
  const handlers = createHandlers(store, manager);
  const send = <K extends RequestType>(message: MessageOf<K>) => dispatch(handlers, message);
  /** Lets virtual time pass until the crawl is no longer running. */
  const settle = async (crawlId: string) =>
    clock.run(
      (async () => {
        while ((await store.getCrawl(crawlId))?.state === 'running') await clock.sleep(100);
      })(),
    );
  return { clock, site, store, manager, send, settle, active };
}

describe('message handlers', () => {
  it('refuses invalid settings with one message per field, and starts nothing', async () => {
    const bg = background();
    const reply = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: 'chrome://extensions', delayMs: -5 } } });
    assert.equal(reply.ok, false);
    if (reply.ok) return;
    assert.equal(reply.error.code, 'invalid-settings');
    assert.deepEqual(reply.error.fields?.map((f) => f.field).sort(), ['delayMs', 'startUrl']);
    assert.equal((await bg.store.listCrawls()).length, 0);
  });

  it('refuses an exclude pattern that matches the start URL itself', async () => {
    const bg = background();
    const reply = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/`, excludePatterns: ['*a.test*'] } } });
    assert.equal(reply.ok ? null : reply.error.fields?.[0]?.field, 'excludePatterns');
  });

  it('refuses a second crawl of a site that is being crawled', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page([]));
    const first = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/` } } });
    assert.equal(first.ok, true);
    const second = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/other` } } });
    assert.equal(second.ok ? null : second.error.code, 'already-running');
    if (first.ok) await bg.settle(first.value.crawl.id);
  });

  it('answers not-found and bad-request as data', async () => {
    const bg = background();
    const missing = await bg.send({ type: 'crawl/get', payload: { crawlId: 'nope' } });
    assert.equal(missing.ok ? null : missing.error.code, 'not-found');
    const bad = await bg.send({ type: 'pages/latest', payload: { crawlId: '', limit: 5 } });
    assert.equal(bad.ok ? null : bad.error.code, 'bad-request');
  });

  it('runs a crawl to the end, lists it, pages through its export and deletes it', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page(['/1', '/2', '/3', '/4', '/5']));
    const started = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/`, delayMs: 500 } } });
    assert.ok(started.ok);
    if (!started.ok) return;
    const crawlId = started.value.crawl.id;
    await bg.settle(crawlId);
    assert.deepEqual(bg.active, [true, false], 'the worker is kept alive exactly while the crawl runs');

    const listed = await bg.send({ type: 'crawl/list', payload: {} });
    assert.ok(listed.ok && listed.value.crawls[0]?.state === 'finished' && listed.value.crawls[0].queued === 0);

    const lines: string[] = [];
    let afterSeq = 0;
    for (let chunks = 0; chunks < 10; chunks += 1) {
      const chunk = await bg.send({ type: 'export/chunk', payload: { crawlId, format: 'jsonl', afterSeq, limit: 4 } });
      assert.ok(chunk.ok);
      if (!chunk.ok) return;
      lines.push(...chunk.value.text.split('\n').filter(Boolean));
      afterSeq = chunk.value.lastSeq;
      if (chunk.value.done) break;
    }
    assert.equal(lines.length, 6);
    assert.equal(new Set(lines.map((l) => (JSON.parse(l) as { url: string }).url)).size, 6);

    const latest = await bg.send({ type: 'pages/latest', payload: { crawlId, limit: 2 } });
    assert.ok(latest.ok && latest.value.pages.length === 2 && (latest.value.pages[0]?.seq ?? 0) > (latest.value.pages[1]?.seq ?? 0));

    assert.equal((await bg.send({ type: 'crawl/delete', payload: { crawlId } })).ok, true);
    const gone = await bg.send({ type: 'crawl/get', payload: { crawlId } });
    assert.equal(gone.ok ? null : gone.error.code, 'not-found');
    assert.equal((await bg.store.pagesAfter(crawlId, 0, 10)).length, 0);
  });

  it('stops a running crawl: no request starts after the stop', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page(Array.from({ length: 20 }, (_, i) => `/p${i}`)));
    const started = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/`, delayMs: 1000 } } });
    if (!started.ok) throw new Error('not started');
    const crawlId = started.value.crawl.id;
    let stoppedAt = 0;
    await bg.clock.run(
      (async () => {
        while (bg.site.requests.length < 3) await bg.clock.sleep(100);
        stoppedAt = bg.clock.now();
        const stopped = await bg.send({ type: 'crawl/stop', payload: { crawlId } });
        assert.ok(stopped.ok && stopped.value.crawl.state === 'stopped');
        await bg.clock.sleep(10_000);
      })(),
    );
    assert.ok(bg.site.requests.length >= 3);
    assert.equal(bg.site.requests.filter((r) => r.startedAt > stoppedAt).length, 0);
    const again = await bg.send({ type: 'crawl/stop', payload: { crawlId } });
    assert.ok(again.ok && again.value.crawl.state === 'stopped', 'stopping twice is harmless');
  });
});

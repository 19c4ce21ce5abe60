/**
 * The crawl core when the store fills up (issue 5, "Storage limits"): the
 * crawl pauses with a message instead of failing, nothing stored is lost, and
 * it finishes after space is freed. On a fake web, a virtual clock and the
 * in-memory store with a body-bytes limit standing in for a quota; the same in
 * Chromium with a real quota is in test/e2e/storage.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createCrawl,
  noteBrowserRestart,
  RESUMED_AFTER_BROWSER_START_MESSAGE,
  resumeCrawl,
} from '../../src/core/crawl/crawl-lifecycle.ts';
import { CrawlRunner } from '../../src/core/crawl/crawl-runner.ts';
import { STORAGE_FULL_MESSAGE } from '../../src/core/crawl/run-context.ts';
import { StorageFullError } from '../../src/core/crawl/ports.ts';
import { validateSettings } from '../../src/core/settings.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { FakeSite, page } from '../support/fake-site.ts';
import { storeThatFillsUp } from '../support/full-store.ts';
import { VirtualClock } from '../support/virtual-clock.ts';

const A = 'http://a.test';
const PAGES = 12;

/** A site of {@link PAGES} pages of about 1 KB each, all linked from the start page. */
function world(bodyBytesLimit: number) {
  const clock = new VirtualClock();
  const site = new FakeSite(clock);
  site.route(`${A}/robots.txt`, { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' });
  site.route(`${A}/`, page(Array.from({ length: PAGES }, (_, i) => `/p${i}`)));
  for (let i = 0; i < PAGES; i += 1) site.route(`${A}/p${i}`, page([], `<p>${String(i).repeat(1000)}</p>`));
  const store = new MemoryCrawlStore({ bodyBytesLimit });
  return { clock, site, store };
}

async function start(w: ReturnType<typeof world>) {
  const result = validateSettings({ startUrl: `${A}/`, delayMs: 100 });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const crawl = await createCrawl(w.store, result.settings, { id: 'c1', now: w.clock.now() });
  return {
    crawl,
    runner: new CrawlRunner({ store: w.store, fetcher: w.site, clock: w.clock, runId: 'run-1', random: () => 0 }),
  };
}

describe('a crawl whose store fills up', () => {
  it('pauses with a message, keeps every row stored so far, and finishes once space is freed', async () => {
    const w = world(5_000);
    const { crawl, runner } = await start(w);
    const paused = await w.clock.run(runner.run(crawl.id, new AbortController().signal));
    assert.equal(paused?.state, 'paused');
    assert.equal(paused?.message, STORAGE_FULL_MESSAGE);
    const before = await w.store.pagesAfter(crawl.id, 0, 1000);
    assert.ok(before.length >= 2 && before.length < PAGES + 1, `${before.length} rows before the limit`);
    for (const row of before) {
      if (row.sha256 === null) continue;
      assert.ok(await w.store.getBody(crawl.id, row.sha256), `the body of ${row.url} is still there`);
    }
    const requestsBefore = w.site.requests.length;

    // The user frees space and resumes.
    w.store.bodyBytesLimit = Infinity;
    await resumeCrawl(w.store, crawl.id, w.clock.now());
    const finished = await w.clock.run(runner.run(crawl.id, new AbortController().signal));
    assert.equal(finished?.state, 'finished');
    assert.equal(finished?.message, null);
    const rows = await w.store.pagesAfter(crawl.id, 0, 1000);
    assert.deepEqual(rows.slice(0, before.length), before, 'the rows stored before are unchanged');
    assert.equal(rows.length, PAGES + 1, 'every URL once');
    assert.equal(new Set(rows.map((row) => row.url)).size, rows.length);
    const repeated = w.site.requests.length - requestsBefore - (PAGES + 1 - before.length);
    assert.ok(repeated <= 1, `${repeated} requests repeated after the pause`);
    assert.equal(w.site.requestsFor(`${A}/robots.txt`).length, 1);
  });

  it('throws StorageFullError when not even the pause can be written, and leaves the crawl to be tried again', async () => {
    const full = storeThatFillsUp(5_000);
    const w = { ...world(Infinity), store: full.store };
    const { crawl, runner } = await start(w);
    await assert.rejects(w.clock.run(runner.run(crawl.id, new AbortController().signal)), StorageFullError);
    assert.equal((await w.store.getCrawl(crawl.id))?.state, 'running', 'nothing could be written');
    const requests = w.site.requests.length;
    // Tried again while still full: it requests nothing (its first write is refused before any fetch).
    await assert.rejects(w.clock.run(runner.run(crawl.id, new AbortController().signal)), StorageFullError);
    assert.equal(w.site.requests.length, requests);

    // Space freed: the next run releases its own stale lease and finishes.
    full.freeSpace();
    const finished = await w.clock.run(runner.run(crawl.id, new AbortController().signal));
    assert.equal(finished?.state, 'finished');
    assert.equal((await w.store.pagesAfter(crawl.id, 0, 1000)).length, PAGES + 1);
  });
});

describe('a crawl interrupted by the browser closing', () => {
  it('says so when the browser starts again, and keeps the note to the end', async () => {
    const w = world(Infinity);
    const { crawl, runner } = await start(w);
    const noted = await noteBrowserRestart(w.store, crawl.id);
    assert.equal(noted?.message, RESUMED_AFTER_BROWSER_START_MESSAGE);
    const finished = await w.clock.run(runner.run(crawl.id, new AbortController().signal));
    assert.equal(finished?.state, 'finished');
    assert.equal(finished?.message, RESUMED_AFTER_BROWSER_START_MESSAGE);
  });
});

/**
 * Pacing: the crawl loop itself must not lengthen a host's gap. With a store
 * whose every transaction takes 15 ms (the database shared by several hosts),
 * the next request to a host still starts when its gap ends, not a
 * transaction later, and never before. On the virtual clock, so exact.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { CrawlRunner } from '../../src/core/crawl/crawl-runner.ts';
import { CLAIM_AHEAD_MS } from '../../src/core/crawl/host-scheduler.ts';
import { validateSettings } from '../../src/core/settings.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { FakeSite, page } from '../support/fake-site.ts';
import { VirtualClock } from '../support/virtual-clock.ts';
import { crawl, row, world } from '../support/crawl-world.ts';

const A = 'http://a.test';
const TRANSACTION_MS = 15;

describe('pacing', () => {
  it('starts each request when the host gap ends, however long the store takes, as long as that is under the claim lead', async () => {
    assert.ok(TRANSACTION_MS < CLAIM_AHEAD_MS);
    const clock = new VirtualClock();
    const site = new FakeSite(clock);
    site.route(`${A}/robots.txt`, {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nCrawl-delay: 0.25\n',
    });
    site.route(`${A}/`, page(Array.from({ length: 10 }, (_, i) => `/p${i}`)));
    for (let i = 0; i < 10; i += 1) site.route(`${A}/p${i}`, page([]));
    const store = new MemoryCrawlStore();
    const transaction = store.transaction.bind(store);
    store.transaction = async (work) => {
      await clock.sleep(TRANSACTION_MS);
      return transaction(work);
    };
    const settings = validateSettings({ startUrl: `${A}/`, delayMs: 0, jitterMs: 0 });
    if (!settings.ok) throw new Error(JSON.stringify(settings.errors));
    const crawl = await clock.run(createCrawl(store, settings.settings, { id: 'c1', now: clock.now() }));
    const runner = new CrawlRunner({ store, fetcher: site, clock, runId: 'run', random: () => 0 });
    const final = await clock.run(runner.run(crawl.id, new AbortController().signal));
    assert.equal(final?.state, 'finished');
    const pages = site.requests.filter((request) => request.url !== `${A}/robots.txt`);
    assert.equal(pages.length, 11);
    const gaps = pages.slice(1).map((request, i) => request.startedAt - (pages[i]?.endedAt ?? 0));
    // The gap is 250 ms plus the square of the response time (10 ms: 0.1 ms), rounded up by the clock.
    for (const gap of gaps) assert.ok(gap >= 250 && gap <= 251, `a gap of ${gap} ms`);
  });
});

describe('one transaction per page at delay 0', () => {
  it("claims a host's next URL in the transaction that records the previous one, when it is due at once", async () => {
    const clock = new VirtualClock();
    const site = new FakeSite(clock);
    site.route(`${A}/`, page(Array.from({ length: 30 }, (_, i) => `/p${i}`)));
    for (let i = 0; i < 30; i += 1) site.route(`${A}/p${i}`, page([]));
    const store = new MemoryCrawlStore();
    let transactions = 0;
    const transaction = store.transaction.bind(store);
    store.transaction = (work) => {
      transactions += 1;
      return transaction(work);
    };
    const settings = validateSettings({ startUrl: `${A}/`, delayMs: 0, jitterMs: 0 });
    if (!settings.ok) throw new Error(JSON.stringify(settings.errors));
    const crawl = await clock.run(createCrawl(store, settings.settings, { id: 'c1', now: clock.now() }));
    const before = transactions;
    const runner = new CrawlRunner({ store, fetcher: site, clock, runId: 'run', random: () => 0 });
    const final = await clock.run(runner.run(crawl.id, new AbortController().signal));
    assert.equal(final?.state, 'finished');
    const pages = site.requests.filter((request) => request.url !== `${A}/robots.txt`);
    assert.equal(pages.length, 31);
    // 31 pages and robots.txt: one transaction each, plus a few around (recover, the first claims, the end).
    const used = transactions - before;
    assert.ok(used <= 31 + 10, `${used} transactions for 31 pages`);
    // And the spacing rule still holds: each request after the previous response ended.
    for (const [i, request] of pages.slice(1).entries())
      assert.ok(request.startedAt >= (pages[i]?.endedAt ?? Infinity));
  });
});

describe('the end of a crawl', () => {
  it('ends with its last response when the last URLs found are disallowed, not a Crawl-delay later', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nCrawl-delay: 0.25\nDisallow: /private/\n',
    });
    w.site.route(`${A}/`, page(['/p0']));
    w.site.route(`${A}/p0`, page(['/p1', '/private/a']));
    w.site.route(`${A}/p1`, page(['/private/b']));
    const { final, byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 0, jitterMs: 0 });
    assert.equal(final?.state, 'finished');
    assert.deepEqual(
      w.site.requests.map((request) => request.url),
      [`${A}/robots.txt`, `${A}/`, `${A}/p0`, `${A}/p1`],
    );
    for (const url of [`${A}/private/a`, `${A}/private/b`]) {
      assert.equal(row(byUrl, url).blockedBy, 'robots');
      assert.equal(row(byUrl, url).blockedRule, 'Disallow: /private/');
    }
    // The store takes no time on this clock: the crawl ends the moment its last response is recorded
    // (it ended 250 ms later, less the claim's lead, when a disallowed URL waited for the host's turn).
    assert.equal((final?.endedAt ?? 0) - (w.site.requests.at(-1)?.endedAt ?? 0), 0);
  });
});

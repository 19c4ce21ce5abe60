/**
 * Folds while the crawl loop is idle: a polite crawl adds the links it kept
 * to their rows while it waits for its hosts' gaps, never delaying a request
 * for it, and a crawl at delay 0 never does (it folds at the loop's end).
 * On the virtual clock, with a store whose transactions take time.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { CrawlRunner } from '../../src/core/crawl/crawl-runner.ts';
import { CLAIM_AHEAD_MS } from '../../src/core/crawl/host-scheduler.ts';
import { IDLE_FOLD_MS, IDLE_FOLD_URLS, mayFoldWhileIdle } from '../../src/core/crawl/link-tallies.ts';
import { crawl, settingsFor, world, type World } from '../support/crawl-world.ts';
import { page } from '../support/fake-site.ts';

const A = 'http://a.test';
const PAGES = 40;
/** Each transaction of the store takes this long (the database shared by several hosts): under the claim's lead. */
const TRANSACTION_MS = 15;

/** `/` links to the first ten pages, page n to n+10 and two others, every page back to `/`: most links are to fetched pages. */
function buildSite(w: World, robots: string): void {
  w.site.route(`${A}/robots.txt`, { headers: { 'content-type': 'text/plain' }, body: robots });
  w.site.route(`${A}/`, page(Array.from({ length: 10 }, (_, i) => `/p${i}`)));
  for (let n = 0; n < PAGES; n += 1) {
    const links = [n + 10, (n * 7) % PAGES, (n * 13 + 5) % PAGES]
      .filter((t) => t < PAGES && t !== n)
      .map((t) => `/p${t}`);
    w.site.route(`${A}/p${n}`, page(['/', ...links]));
  }
}

/** The URLs in stored tallies at a time (ms) while the crawl ran. */
interface Sample {
  at: number;
  urls: number;
}

/**
 * Builds the site with `robots` and crawls it at delay 0 on a store with slow transactions, sampling the
 * URLs in stored tallies every 5 ms while it runs.
 */
async function crawlSampling(robots: string): Promise<{ w: World; state: string | undefined; samples: Sample[] }> {
  const w = world();
  buildSite(w, robots);
  const transaction = w.store.transaction.bind(w.store);
  w.store.transaction = async (work) => {
    await w.clock.sleep(TRANSACTION_MS);
    return transaction(work);
  };
  const record = await w.clock.run(
    createCrawl(w.store, settingsFor({ startUrl: `${A}/`, delayMs: 0, jitterMs: 0 }), { id: 'c1', now: w.clock.now() }),
  );
  const runner = new CrawlRunner({ store: w.store, fetcher: w.site, clock: w.clock, runId: 'r1', random: () => 0 });
  const running = runner.run(record.id, new AbortController().signal);
  const samples: Sample[] = [];
  const sampler = (async () => {
    for (;;) {
      const [crawlRecord, tallies] = await Promise.all([
        w.store.getCrawl(record.id),
        transaction((tx) => tx.linkTallies(record.id)),
      ]);
      if (crawlRecord?.state !== 'running') return;
      samples.push({ at: w.clock.now(), urls: tallies.reduce((sum, tally) => sum + tally.urls.length, 0) });
      await w.clock.sleep(5);
    }
  })();
  const [final] = await w.clock.run(Promise.all([running, sampler]));
  return { w, state: final?.state, samples };
}

/** Every stored row's inlinks and anchors, against a serial crawl of the same site at delay 0. */
async function assertExactInlinks(w: World, robots: string): Promise<void> {
  const rows = await w.store.pagesAfter('c1', 0, 1000);
  const serial = world();
  buildSite(serial, robots);
  const one = await crawl(serial, { startUrl: `${A}/`, delayMs: 0 });
  const inlinks = (list: typeof rows): string[] =>
    list.map((r) => `${r.url} ${r.inlinks} ${[...r.anchors].sort().join('|')}`).sort();
  assert.deepEqual(inlinks(rows), inlinks(one.rows));
  for (const row of rows) assert.equal(row.inlinks, rows.filter((r) => r.links.includes(row.url)).length, row.url);
}

describe('mayFoldWhileIdle', () => {
  it('only when the next claim is far enough and every running host waits long between requests', () => {
    assert.equal(mayFoldWhileIdle(1000, 1000 + IDLE_FOLD_MS, []), true);
    assert.equal(mayFoldWhileIdle(1000, 1000 + IDLE_FOLD_MS - 1, []), false);
    // Nothing due at all is not idle: a host waiting for a free slot, or only running steps.
    assert.equal(mayFoldWhileIdle(1000, Number.POSITIVE_INFINITY, []), false);
    assert.equal(mayFoldWhileIdle(1000, 5000, [250, 2 * IDLE_FOLD_MS]), true);
    // A running host at delay 0 claims its next request in its step's transaction: that must not wait.
    assert.equal(mayFoldWhileIdle(1000, 5000, [250, 0]), false);
    assert.equal(mayFoldWhileIdle(1000, 5000, [2 * IDLE_FOLD_MS - 1]), false);
  });
});

describe('folds while idle', () => {
  it('with a Crawl-delay, the links kept go into their rows while the crawl waits, and no gap grows', async () => {
    const robots = 'User-agent: *\nCrawl-delay: 0.25\n';
    const { w, state, samples } = await crawlSampling(robots);
    assert.equal(state, 'finished');
    // Links to fetched pages are tallied at every page; folded while idle, the stored tallies keep coming back to nothing.
    const lastResponse = Math.max(...w.site.requests.map((request) => request.endedAt));
    const peak = Math.max(...samples.map((sample) => sample.urls));
    assert.ok(peak > 0 && peak <= 2 * IDLE_FOLD_URLS, `at most ${peak} URLs in stored tallies`);
    const emptied = samples.filter(
      (sample, i) =>
        sample.at < lastResponse && sample.urls === 0 && samples.slice(0, i).some((earlier) => earlier.urls > 0),
    );
    assert.ok(emptied.length > 0, 'folded while the crawl ran');
    await assertExactInlinks(w, robots);
    // Every request still starts when its host's gap ends (250 ms and the square of a 10 ms answer, rounded up).
    const pages = w.site.requests.filter((request) => request.url !== `${A}/robots.txt`);
    assert.equal(pages.length, PAGES + 1);
    assert.ok(TRANSACTION_MS < CLAIM_AHEAD_MS);
    const gaps = pages.slice(1).map((request, i) => request.startedAt - (pages[i]?.endedAt ?? 0));
    for (const gap of gaps) assert.ok(gap >= 250 && gap <= 251, `a gap of ${gap} ms`);
  });

  it('at delay 0 the loop is never idle: the links kept wait for its end, and no request waits for a fold', async () => {
    const robots = 'User-agent: *\nAllow: /\n';
    const { w, state, samples } = await crawlSampling(robots);
    assert.equal(state, 'finished');
    // They shrink only once the last response is in (the fold at the loop's end, before the crawl is marked finished).
    const lastResponse = Math.max(...w.site.requests.map((request) => request.endedAt));
    for (const [i, sample] of samples.entries()) {
      const before = samples[i - 1];
      if (before !== undefined && sample.urls < before.urls)
        assert.ok(
          sample.at > lastResponse,
          `the stored tallies shrank at ${sample.at}, before the last response at ${lastResponse}`,
        );
    }
    assert.ok(Math.max(...samples.map((sample) => sample.urls)) > IDLE_FOLD_URLS);
    assert.deepEqual(await w.clock.run(w.store.transaction((tx) => tx.linkTallies('c1'))), [], 'folded at the end');
    await assertExactInlinks(w, robots);
  });
});

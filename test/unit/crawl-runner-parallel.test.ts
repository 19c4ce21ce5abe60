/**
 * Several requests in flight to one host (`requestsPerHost`): only when there
 * is no spacing to keep (delay and jitter 0, no Crawl-delay, no back-off),
 * never more than asked, robots.txt still first and alone, every URL once, and
 * the same rows as a crawl with one request at a time. On the virtual clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCrawl, stopCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { CrawlRunner } from '../../src/core/crawl/crawl-runner.ts';
import { crawl, settingsFor, world, type World } from '../support/crawl-world.ts';
import { page, type LoggedRequest } from '../support/fake-site.ts';

const A = 'http://a.test';
const B = 'http://b.test';
const PAGES = 60;

/** A site of `PAGES` pages: `/` links to the first ten, page n to n+10 and two others; answers take 10 to 40 ms. */
function buildSite(w: World, origin: string, robots = 'User-agent: *\nAllow: /\n'): void {
  w.site.route(`${origin}/robots.txt`, { headers: { 'content-type': 'text/plain' }, body: robots });
  w.site.route(`${origin}/`, page(Array.from({ length: 10 }, (_, i) => `/p${i}`)));
  for (let n = 0; n < PAGES; n += 1) {
    const links = [n + 10, (n * 7) % PAGES, (n * 13 + 5) % PAGES]
      .filter((t) => t < PAGES && t !== n)
      .map((t) => `/p${t}`);
    w.site.route(`${origin}/p${n}`, { ...page(links), responseMs: 10 + ((n * 17) % 31) });
  }
}

/** The most requests of `origin` in flight at one time (a request ending at t does not overlap one starting at t). */
function peakInFlight(requests: readonly LoggedRequest[], origin: string): number {
  const events: [number, number][] = [];
  for (const r of requests.filter((request) => request.url.startsWith(`${origin}/`)))
    events.push([r.startedAt, 1], [r.endedAt, -1]);
  events.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let now = 0;
  let peak = 0;
  for (const [, step] of events) peak = Math.max(peak, (now += step));
  return peak;
}

function requestCounts(requests: readonly LoggedRequest[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r.url, (counts.get(r.url) ?? 0) + 1);
  return counts;
}

describe('crawl runner: several requests per host at delay 0', () => {
  it('keeps exactly the number asked in flight, robots.txt first and alone, every URL once, the same rows as one at a time', async () => {
    const serial = world();
    buildSite(serial, A);
    const one = await crawl(serial, { startUrl: `${A}/`, delayMs: 0, requestsPerHost: 1 });
    assert.equal(peakInFlight(serial.site.requests, A), 1);

    const w = world();
    buildSite(w, A);
    const four = await crawl(w, { startUrl: `${A}/`, delayMs: 0, requestsPerHost: 4 });
    assert.equal(four.final?.state, 'finished');
    assert.equal(peakInFlight(w.site.requests, A), 4, 'four in flight at the peak, never five');
    const [robots, ...rest] = w.site.requests;
    assert.equal(robots?.url, `${A}/robots.txt`);
    assert.ok(
      rest.every((r) => r.startedAt >= (robots?.endedAt ?? Infinity)),
      'nothing requested before robots.txt answered',
    );
    assert.ok(
      [...requestCounts(w.site.requests).values()].every((n) => n === 1),
      'every URL requested once',
    );
    assert.ok(w.clock.now() - 0 < serial.clock.now(), 'finished sooner on the virtual clock');

    assert.equal(four.rows.length, one.rows.length);
    const summary = (rows: typeof one.rows): string[] => rows.map((r) => `${r.url} ${r.status} ${r.inlinks}`).sort();
    assert.deepEqual(summary(four.rows), summary(one.rows), 'same URLs, statuses and inlink counts');
    assert.deepEqual(
      four.rows.map((r) => r.seq).sort((x, y) => x - y),
      four.rows.map((_, i) => i + 1),
      'row numbers 1..n, each once',
    );
  });

  it("claims a slot's next URL in the transaction that records its answer: about one transaction per page, not two", async () => {
    const w = world();
    buildSite(w, A);
    let transactions = 0;
    const transaction = w.store.transaction.bind(w.store);
    w.store.transaction = (work) => {
      transactions += 1;
      return transaction(work);
    };
    const four = await crawl(w, { startUrl: `${A}/`, delayMs: 0, requestsPerHost: 4 });
    assert.equal(four.final?.state, 'finished');
    assert.equal(peakInFlight(w.site.requests, A), 4, 'still four in flight at the peak');
    const pages = w.site.requests.filter((r) => r.url !== `${A}/robots.txt`).length;
    assert.equal(pages, PAGES + 1);
    // One per page (its record and the slot's next claim), plus a few around: the first claims, the folds, the end.
    // A claim of its own for each page would make it about two per page.
    assert.ok(transactions <= pages + 15, `${transactions} transactions for ${pages} pages`);
  });

  it('keeps one request at a time with a delay, with jitter, or when robots.txt sets a Crawl-delay (even 0)', async () => {
    const cases: [string, Parameters<typeof settingsFor>[0], string | undefined][] = [
      ['delay 50 ms', { startUrl: `${A}/`, delayMs: 50, requestsPerHost: 8 }, undefined],
      ['jitter', { startUrl: `${A}/`, delayMs: 0, jitterMs: 20, requestsPerHost: 8 }, undefined],
      [
        'Crawl-delay: 0.05',
        { startUrl: `${A}/`, delayMs: 0, requestsPerHost: 8 },
        'User-agent: *\nCrawl-delay: 0.05\n',
      ],
      ['Crawl-delay: 0', { startUrl: `${A}/`, delayMs: 0, requestsPerHost: 8 }, 'User-agent: *\nCrawl-delay: 0\n'],
    ];
    for (const [name, settings, robots] of cases) {
      const w = world();
      buildSite(w, A, robots);
      const { final } = await crawl(w, settings);
      assert.equal(final?.state, 'finished', name);
      assert.equal(peakInFlight(w.site.requests, A), 1, name);
      const pages = w.site.requests;
      const gaps = pages.slice(1).map((r, i) => r.startedAt - (pages[i]?.endedAt ?? 0));
      const least = robots === undefined ? (settings.delayMs ?? 0) : robots.includes('0.05') ? 50 : 0;
      assert.ok(Math.min(...gaps) >= least, `${name}: smallest gap ${Math.min(...gaps)} ms`);
    }
  });

  it('gives each host its own slots: a host with a Crawl-delay stays at one while another runs four', async () => {
    const w = world();
    buildSite(w, A);
    buildSite(w, B, 'User-agent: *\nCrawl-delay: 0.02\n');
    w.site.route(`${A}/`, page([...Array.from({ length: 10 }, (_, i) => `/p${i}`), `${B}/`]));
    const { final } = await crawl(w, { startUrl: `${A}/`, delayMs: 0, requestsPerHost: 4, extraOrigins: [B] });
    assert.equal(final?.state, 'finished');
    assert.equal(peakInFlight(w.site.requests, A), 4);
    assert.equal(peakInFlight(w.site.requests, B), 1);
  });

  it('drops to one request at a time while the host backs us off (429, Retry-After), and waits it out', async () => {
    const w = world();
    buildSite(w, A);
    w.site.route(`${A}/p5`, (attempt) =>
      attempt === 0 ? { status: 429, headers: { 'retry-after': '2' }, body: '' } : page([]),
    );
    const { final, byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 0, requestsPerHost: 4 });
    assert.equal(final?.state, 'finished');
    assert.equal(byUrl.get(`${A}/p5`)?.status, 200);
    const refused = w.site.requestsFor(`${A}/p5`)[0];
    assert.ok(refused);
    const during = w.site.requests.filter((r) => r.startedAt > refused.endedAt && r.startedAt < refused.endedAt + 2000);
    assert.deepEqual(during, [], 'no request starts during the 2 s back-off');
  });

  it('resumes after the worker died with four requests in flight: each of them repeated once, nothing lost', async () => {
    const w = world();
    buildSite(w, A);
    for (const n of [20, 21, 22, 23]) w.site.hang.add(`${A}/p${n}`);
    const settings = settingsFor({ startUrl: `${A}/`, delayMs: 0, requestsPerHost: 4 });
    const record = await createCrawl(w.store, settings, { id: 'c1', now: w.clock.now() });
    const first = new CrawlRunner({ store: w.store, fetcher: w.site, clock: w.clock, runId: 'dead', random: () => 0 });
    void first.run(record.id, new AbortController().signal); // its four hanging requests never answer
    await w.clock.run(
      (async () => {
        while (w.site.requests.filter((r) => w.site.hang.has(r.url)).length < 4) await w.clock.sleep(50);
        await w.clock.sleep(1000);
      })(),
    );
    const hung = w.site.requests.filter((r) => w.site.hang.has(r.url)).map((r) => r.url);
    assert.equal(hung.length, 4, 'all four slots stuck');
    w.site.hang.clear();
    const second = new CrawlRunner({
      store: w.store,
      fetcher: w.site,
      clock: w.clock,
      runId: 'alive',
      random: () => 0,
    });
    const final = await w.clock.run(second.run(record.id, new AbortController().signal));
    assert.equal(final?.state, 'finished');
    const rows = await w.store.pagesAfter(record.id, 0, 1000);
    assert.equal(rows.length, PAGES + 1, 'every page has its row');
    assert.equal(new Set(rows.map((r) => r.url)).size, rows.length, 'each once');
    const counts = requestCounts(w.site.requests);
    for (const url of hung) assert.equal(counts.get(url), 2, `${url}: the cut-off request repeated once`);
    assert.equal([...counts.values()].filter((n) => n > 1).length, 4, 'nothing else repeated');
    // The links the dead worker tallied were stored with its pages: every count is whole.
    const serial = world();
    buildSite(serial, A);
    const one = await crawl(serial, { startUrl: `${A}/`, delayMs: 0, requestsPerHost: 1 });
    const inlinks = (list: typeof rows): string[] => list.map((r) => `${r.url} ${r.inlinks}`).sort();
    assert.deepEqual(inlinks(rows), inlinks(one.rows));
  });

  it('with folds while it runs (every 20 links), counts every link once: rows keep their fetch-time inlinks until the loop ends, and a stopped and resumed crawl ends exact', async () => {
    const w = world();
    buildSite(w, A);
    const settings = settingsFor({ startUrl: `${A}/`, delayMs: 0, requestsPerHost: 4 });
    const record = await createCrawl(w.store, settings, { id: 'c1', now: w.clock.now() });
    const controller = new AbortController();
    const first = new CrawlRunner({
      store: w.store,
      fetcher: w.site,
      clock: w.clock,
      runId: 'r1',
      random: () => 0,
      foldLinksAt: 20,
    });
    let sawKept = false;
    const running = first.run(record.id, controller.signal);
    // The loop looks at its tallies when it turns (at least every VIEW_REFRESH_MS): stopped once a fold kept some.
    const stopper = (async () => {
      while (!sawKept && (await w.store.getCrawl(record.id))?.state === 'running') {
        const tallies = await w.store.transaction((tx) => tx.linkTallies(record.id));
        sawKept = tallies.some((tally) => tally.rowsOnly === true);
        await w.clock.sleep(5);
      }
      controller.abort();
    })();
    await w.clock.run(Promise.all([running, stopper]));
    assert.ok(sawKept, 'a fold while running kept the links to fetched rows');
    assert.ok((await w.store.pagesAfter(record.id, 0, 1000)).length < PAGES + 1, 'stopped midway');
    assert.deepEqual(
      await w.store.transaction((tx) => tx.linkTallies(record.id)),
      [],
      'the loop folded them all as it ended',
    );
    const second = new CrawlRunner({
      store: w.store,
      fetcher: w.site,
      clock: w.clock,
      runId: 'r2',
      random: () => 0,
      foldLinksAt: 20,
    });
    const final = await w.clock.run(second.run(record.id, new AbortController().signal));
    assert.equal(final?.state, 'finished');
    const rows = await w.store.pagesAfter(record.id, 0, 1000);
    const serial = world();
    buildSite(serial, A);
    const one = await crawl(serial, { startUrl: `${A}/`, delayMs: 0, requestsPerHost: 1 });
    const inlinks = (list: typeof rows): string[] =>
      list.map((r) => `${r.url} ${r.inlinks} ${[...r.anchors].sort().join('|')}`).sort();
    assert.deepEqual(inlinks(rows), inlinks(one.rows));
  });

  it('counts every link found so far in the rows and entries of a crawl stopped midway', async () => {
    const w = world();
    buildSite(w, A);
    const settings = settingsFor({ startUrl: `${A}/`, delayMs: 0, requestsPerHost: 4 });
    const record = await createCrawl(w.store, settings, { id: 'c1', now: w.clock.now() });
    const controller = new AbortController();
    const runner = new CrawlRunner({ store: w.store, fetcher: w.site, clock: w.clock, runId: 'r1', random: () => 0 });
    const running = runner.run(record.id, controller.signal);
    const stopper = (async () => {
      while ((await w.store.pagesAfter(record.id, 0, 100)).length < 25) await w.clock.sleep(5);
      await stopCrawl(w.store, record.id, w.clock.now());
      controller.abort();
    })();
    await w.clock.run(Promise.all([running, stopper]));
    const rows = await w.store.pagesAfter(record.id, 0, 1000);
    assert.ok(rows.length >= 25 && rows.length < PAGES + 1, `${rows.length} rows`);
    assert.deepEqual(await w.store.transaction((tx) => tx.linkTallies(record.id)), [], 'no tally left');
    const urls = await w.store.knownUrls(record.id);
    const held = await w.store.transaction(async (tx) => {
      const [entries, pages] = await Promise.all([tx.getEntries(record.id, urls), tx.getPages(record.id, urls)]);
      return urls.map((url, i) => ({ url, inlinks: (entries[i] ?? pages[i])?.inlinks }));
    });
    for (const { url, inlinks } of held) {
      const linking = rows.filter((r) => r.links.includes(url)).length;
      assert.equal(inlinks, linking, `${url}: ${inlinks} inlinks, linked from ${linking} stored pages`);
    }
  });
});

/**
 * The URLs a crawl leaves unvisited by its own rules (`core/crawl/not-crawled.ts`, `admission.ts`):
 * recorded once each, with the first reason, counted by reason when the crawl finishes, and only those
 * the crawl never visited in the end. On a fake site with a virtual clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCrawl, stopCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { CrawlRunner } from '../../src/core/crawl/crawl-runner.ts';
import { CrawlWrites } from '../../src/core/crawl/crawl-writes.ts';
import { unfetchedRow } from '../../src/core/crawl/frontier-queue.ts';
import { RecordedUrls, recordNotCrawled, settleNotCrawled, SETTLE_SLICE } from '../../src/core/crawl/not-crawled.ts';
import type { NotCrawledUrl, PageRecord } from '../../src/core/model.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { crawl, settingsFor, world } from '../support/crawl-world.ts';
import { page } from '../support/fake-site.ts';

const A = 'http://a.test';

/** Every URL recorded as not crawled, as `url reason depth referrer` lines. */
async function listed(store: MemoryCrawlStore, crawlId = 'c1'): Promise<string[]> {
  return (await store.notCrawledAfter(crawlId, null, 100_000)).map(
    (u) => `${u.url} ${u.reason} ${u.depth} ${u.referrer ?? '-'}`,
  );
}

describe('URLs a crawl leaves unvisited', () => {
  it('counts the links deeper than the depth limit, once each, and lists them with the page that linked them', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/d1', '/d1b']));
    // Both depth-1 pages link the same two deeper URLs, and back to the start (known: not counted).
    w.site.route(`${A}/d1`, page(['/d2', '/d2b', '/']));
    w.site.route(`${A}/d1b`, page(['/d2', '/d2b', '/d1']));
    const { final, byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, maxDepth: 1 });
    assert.deepEqual([...byUrl.keys()].sort(), [`${A}/`, `${A}/d1`, `${A}/d1b`]);
    assert.deepEqual(final?.counts.notCrawled, { depth: 2 });
    assert.deepEqual(await listed(w.store), [`${A}/d2 depth 2 ${A}/d1`, `${A}/d2b depth 2 ${A}/d1`]);
  });

  it('counts the links past the page limit', async () => {
    const w = world();
    w.site.route(`${A}/`, page(Array.from({ length: 20 }, (_, i) => `/p${i}`)));
    const { final, rows } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, maxPages: 5 });
    assert.equal(rows.length, 5);
    assert.deepEqual(final?.counts.notCrawled, { 'page-limit': 16 });
    assert.equal((await listed(w.store)).length, 16);
  });

  it('counts the links outside the path prefix and those excluded, and not a link to another site it checked', async () => {
    const w = world();
    w.site.route(
      `${A}/docs/`,
      page(['/docs/a', '/blog/x', '/docs/cgi-bin/run', 'http://elsewhere.test/', 'mailto:x@a.test']),
    );
    w.site.route(`${A}/docs/a`, page(['/blog/x', '/blog/y']));
    const { final } = await crawl(w, {
      startUrl: `${A}/docs/`,
      delayMs: 10,
      pathPrefix: '/docs/',
      excludePatterns: ['*/cgi-bin/*'],
    });
    assert.deepEqual(final?.counts.notCrawled, { prefix: 2, excluded: 1 });
    assert.deepEqual(await listed(w.store), [
      `${A}/blog/x prefix 1 ${A}/docs/`,
      `${A}/blog/y prefix 2 ${A}/docs/a`,
      `${A}/docs/cgi-bin/run excluded 1 ${A}/docs/`,
    ]);
  });

  it("lists the links to other sites it did not check: past the limit per site, past the crawl's limit, kept out by robots.txt (issue 26, item 3)", async () => {
    const X = 'http://x.test';
    const Y = 'http://y.test';
    const w = world();
    w.site.route(
      `${A}/`,
      page([`${X}/1`, `${X}/2`, `${X}/3`, `${X}/private/4`, `${Y}/1`, `${Y}/2`, 'http://z.test/1']),
    );
    w.site.route(`${X}/robots.txt`, {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\n',
    });
    const { final, byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, maxExternal: 5, maxExternalPerHost: 3 });
    // x.test: /1, /2, /3 admitted (its 3), /private/4 past them; y.test: /1, /2 (5 in all); z.test past the crawl's 5.
    assert.deepEqual(final?.counts.notCrawled, { 'external-host-limit': 1, 'external-limit': 1 });
    assert.deepEqual(await listed(w.store), [
      `${X}/private/4 external-host-limit 1 ${A}/`,
      `http://z.test/1 external-limit 1 ${A}/`,
    ]);

    const robotsWorld = world();
    robotsWorld.site.route(`${A}/`, page([`${X}/ok`, `${X}/private/b`]));
    robotsWorld.site.route(`${X}/robots.txt`, {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\n',
    });
    const blocked = await crawl(robotsWorld, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(blocked.byUrl.get(`${X}/private/b`)?.blockedBy, 'robots', 'its blocked row stays');
    assert.deepEqual(blocked.final?.counts.notCrawled, { 'external-robots': 1 });
    assert.deepEqual(await listed(robotsWorld.store), [`${X}/private/b external-robots 1 ${A}/`]);
    assert.equal(byUrl.has(`${X}/private/4`), false);
  });

  it('lists every link to another site as not checked in a crawl that does not check them (issue 26, item 3)', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/a', 'http://x.test/1', 'http://y.test/2']));
    w.site.route(`${A}/a`, page(['http://x.test/1', '/']));
    const { final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, checkExternal: false });
    assert.equal(
      w.site.requests.some((r) => !r.url.startsWith(A)),
      false,
      'nothing asked of another site',
    );
    assert.deepEqual(final?.counts.notCrawled, { 'external-off': 2 });
    assert.deepEqual(await listed(w.store), [
      `http://x.test/1 external-off 1 ${A}/`,
      `http://y.test/2 external-off 1 ${A}/`,
    ]);
  });

  it('counts the links the trap rules refuse', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/a/a/a/x', '/ok']));
    w.site.route(`${A}/ok`, page([]));
    const { final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.deepEqual(final?.counts.notCrawled, { trap: 1 });
  });

  it('says nothing of a crawl with nothing left out', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/a']));
    w.site.route(`${A}/a`, page(['/']));
    const { final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.deepEqual(final?.counts.notCrawled, {});
  });

  it('counts only when the crawl finishes: a stopped crawl has no count, and a new run of the crawl counts each URL once', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/d1', '/d1b', '/d1c']));
    for (const path of ['/d1', '/d1b', '/d1c']) w.site.route(`${A}${path}`, page(['/deep']));
    w.site.hang.add(`${A}/d1c`);
    const record = await createCrawl(w.store, settingsFor({ startUrl: `${A}/`, delayMs: 10, maxDepth: 1 }), {
      id: 'c1',
      now: w.clock.now(),
    });
    // The first worker hangs on /d1c after /d1 and /d1b recorded /deep; a new one (a restarted worker) goes on.
    const first = new CrawlRunner({ store: w.store, fetcher: w.site, clock: w.clock, runId: 'dead', random: () => 0 });
    void first.run(record.id, new AbortController().signal);
    await w.clock.run(
      (async () => {
        while (w.site.requestsFor(`${A}/d1c`).length === 0) await w.clock.sleep(100);
      })(),
    );
    w.site.hang.delete(`${A}/d1c`);
    assert.deepEqual(await listed(w.store), [`${A}/deep depth 2 ${A}/d1`]);
    assert.equal((await w.store.getCrawl(record.id))?.counts.notCrawled, undefined, 'no count while the crawl runs');
    const second = new CrawlRunner({
      store: w.store,
      fetcher: w.site,
      clock: w.clock,
      runId: 'alive',
      random: () => 0,
    });
    const final = await w.clock.run(second.run(record.id, new AbortController().signal));
    assert.equal(final?.state, 'finished');
    assert.deepEqual(final?.counts.notCrawled, { depth: 1 });

    const w2 = world();
    w2.site.route(`${A}/`, page(['/d1']));
    w2.site.route(`${A}/d1`, page(['/deep']));
    const stopped = await createCrawl(w2.store, settingsFor({ startUrl: `${A}/`, delayMs: 10, maxDepth: 0 }), {
      id: 'c2',
      now: w2.clock.now(),
    });
    await stopCrawl(w2.store, stopped.id, w2.clock.now());
    assert.equal((await w2.store.getCrawl(stopped.id))?.counts.notCrawled, undefined);
  });
});

describe('recording and settling URLs left unvisited', () => {
  const refused = (url: string, reason: NotCrawledUrl['reason'] = 'depth') => ({
    candidate: {
      url,
      origin: new URL(url).origin,
      kind: 'page' as const,
      depth: 3,
      referrer: `${A}/`,
      anchor: null,
      isLink: true,
    },
    reason,
  });

  it('writes a URL once per run, keeps the first reason of a batch, and skips URLs the crawl holds', async () => {
    const store = new MemoryCrawlStore();
    const crawl = await createCrawl(store, settingsFor({ startUrl: `${A}/` }), { id: 'c1', now: 0 });
    const recorded = new RecordedUrls();
    await store.transaction(async (tx) => {
      const writes = new CrawlWrites(tx, crawl);
      await recordNotCrawled(writes, [refused(`${A}/x`), refused(`${A}/x`, 'page-limit'), refused(`${A}/`)], recorded);
    });
    assert.deepEqual(await listed(store), [`${A}/x depth 3 ${A}/`], 'the start URL is held: not recorded');
    // Written once per run: a second sighting in this run is not written again, whatever its reason.
    await store.transaction(async (tx) =>
      recordNotCrawled(new CrawlWrites(tx, crawl), [refused(`${A}/x`, 'page-limit')], recorded),
    );
    assert.deepEqual(await listed(store), [`${A}/x depth 3 ${A}/`]);
  });

  it('forgets every URL past its capacity instead of growing', () => {
    const recorded = new RecordedUrls(2);
    assert.deepEqual(
      ['a', 'b', 'a', 'c', 'a'].map((url) => recorded.note(url)),
      [true, true, false, true, true],
    );
  });

  it('when settling, drops the URLs the crawl visited after all, counts the rest by reason, across several slices', async () => {
    const store = new MemoryCrawlStore();
    const crawl = await createCrawl(store, settingsFor({ startUrl: `${A}/` }), { id: 'c1', now: 0 });
    const urls = Array.from({ length: SETTLE_SLICE * 2 + 5 }, (_, i) => `${A}/u${String(i).padStart(5, '0')}`);
    await store.transaction(async (tx) => {
      await tx.putNotCrawled(
        urls.map((url, i): NotCrawledUrl => ({
          crawlId: 'c1',
          url,
          reason: i % 3 === 0 ? 'page-limit' : 'depth',
          depth: 2,
          referrer: null,
        })),
      );
      // Every tenth was visited later (a row of the crawl).
      const visited = urls
        .filter((_, i) => i % 10 === 0)
        .map((url, seq): PageRecord => ({
          ...unfetchedRow({
            crawlId: 'c1',
            url,
            origin: A,
            kind: 'page',
            depth: 1,
            referrer: null,
            anchors: [],
            inlinks: 0,
          }),
          seq: seq + 1,
        }));
      await tx.putPages(visited);
    });
    const counts = await store.transaction(async (tx) => settleNotCrawled(new CrawlWrites(tx, crawl)));
    const left = urls.filter((_, i) => i % 10 !== 0);
    assert.deepEqual(counts, {
      'page-limit': left.filter((url) => urls.indexOf(url) % 3 === 0).length,
      depth: left.filter((url) => urls.indexOf(url) % 3 !== 0).length,
    });
    assert.equal((await store.notCrawledAfter('c1', null, 100_000)).length, left.length);
    assert.equal((await store.notCrawledAfter('c1', null, 100_000, 'page-limit')).length, counts['page-limit']);
  });
});

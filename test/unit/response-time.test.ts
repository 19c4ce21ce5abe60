/**
 * The response time the host's adaptive gap counts (`core/crawl/response-time.ts`): the server's own time
 * when the browser reported it, else the fetch's duration. On the virtual clock: a crawler that takes 3 s to
 * read answers the server ended at once keeps the host's delay when the server's time is known, and
 * slows down as for a 3 s server when it is not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { CrawlRunner } from '../../src/core/crawl/crawl-runner.ts';
import type { FetchOutcome, Fetcher } from '../../src/core/crawl/ports.ts';
import { gapResponseMs } from '../../src/core/crawl/response-time.ts';
import { validateSettings } from '../../src/core/settings.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { FakeSite, page } from '../support/fake-site.ts';
import { VirtualClock } from '../support/virtual-clock.ts';

const A = 'http://a.test';

function answered(durationMs: number, serverMs?: number | null): Extract<FetchOutcome, { ok: true }> {
  return {
    ok: true,
    status: 200,
    headers: [],
    location: null,
    body: null,
    truncated: false,
    wire: { statusLine: null, requestHeaders: null, ipAddress: null, ...(serverMs === undefined ? {} : { serverMs }) },
    startedAt: 1_000,
    endedAt: 1_000 + durationMs,
  };
}

describe('gapResponseMs', () => {
  it("is the server's time when the browser reported it", () => {
    assert.equal(gapResponseMs(answered(3_000, 12)), 12);
    assert.equal(gapResponseMs(answered(3_000, 0)), 0);
  });

  it("is the fetch's duration without it, or when it cannot be true", () => {
    assert.equal(gapResponseMs(answered(3_000)), 3_000);
    assert.equal(gapResponseMs(answered(3_000, null)), 3_000);
    assert.equal(gapResponseMs(answered(3_000, -5)), 3_000);
    assert.equal(gapResponseMs(answered(3_000, Number.NaN)), 3_000);
    assert.equal(gapResponseMs({ ...answered(3_000), wire: null }), 3_000);
    assert.equal(
      gapResponseMs({ ok: false, error: { code: 'network', message: 'x' }, startedAt: 0, endedAt: 700 }),
      700,
    );
  });

  it("is never longer than the fetch's duration (another process's clock)", () => {
    assert.equal(gapResponseMs(answered(40, 55)), 40);
  });
});

/** Crawls A from its home at a 200 ms delay with `fetcher`, on the virtual clock, until the crawl finishes. */
async function crawlToTheEnd(clock: VirtualClock, fetcher: Fetcher): Promise<void> {
  const store = new MemoryCrawlStore();
  const settings = validateSettings({ startUrl: `${A}/`, delayMs: 200, jitterMs: 0 });
  if (!settings.ok) throw new Error(JSON.stringify(settings.errors));
  const crawl = await clock.run(createCrawl(store, settings.settings, { id: 'c1', now: clock.now() }));
  const runner = new CrawlRunner({ store, fetcher, clock, runId: 'run', random: () => 0 });
  const final = await clock.run(runner.run(crawl.id, new AbortController().signal));
  assert.equal(final?.state, 'finished');
}

/** Crawls 6 pages of A with a fetcher that takes 3 s longer than the server to hand each answer over. */
async function crawlWithSlowReader(serverMs: number | null): Promise<number[]> {
  const clock = new VirtualClock();
  const site = new FakeSite(clock);
  site.route(`${A}/`, page(Array.from({ length: 5 }, (_, i) => `/p${i}`)));
  for (let i = 0; i < 5; i += 1) site.route(`${A}/p${i}`, page([]));
  const fetcher: Fetcher = {
    async fetch(request) {
      const outcome = await site.fetch(request);
      await clock.sleep(3_000);
      if (!outcome.ok) return { ...outcome, endedAt: clock.now() };
      const wire = { statusLine: null, requestHeaders: null, ipAddress: null, ...outcome.wire, serverMs };
      return { ...outcome, wire, endedAt: clock.now() };
    },
  };
  await crawlToTheEnd(clock, fetcher);
  const pages = site.requests.filter((request) => request.url !== `${A}/robots.txt`);
  assert.equal(pages.length, 6);
  // From the end of one answer as the crawl got it to the next request's start.
  return pages.slice(1).map((request, i) => request.startedAt - ((pages[i]?.endedAt ?? 0) + 3_000));
}

describe("the host's gap after a slow reader", () => {
  it("keeps the delay when the server's own time (5 ms) is known", async () => {
    for (const gap of await crawlWithSlowReader(5)) assert.ok(gap >= 200 && gap <= 202, `a gap of ${gap} ms`);
  });

  it('grows as for a 3 s server when only the fetch took 3 s', async () => {
    // The adaptive term: 3 s squared = 9 s.
    for (const gap of await crawlWithSlowReader(null)) assert.ok(gap >= 9_000, `a gap of ${gap} ms`);
  });
});

describe('a failed request the browser never sent', () => {
  it('is no response time of the server (null), whatever it lasted', () => {
    const failed = {
      ok: false as const,
      error: { code: 'timeout' as const, message: 'x' },
      startedAt: 0,
      endedAt: 5_000,
    };
    assert.equal(gapResponseMs({ ...failed, unsent: true }), null);
    assert.equal(gapResponseMs({ ...failed, unsent: false }), 5_000);
    assert.equal(gapResponseMs(failed), 5_000);
  });

  /**
   * Crawls A's home and 3 pages at a 200 ms delay; the fetch of `/p0` times out after 5 s without reaching the
   * site (as Firefox once held a fetch back), marked `unsent` or not. Returns the wait, in ms, from that
   * failure's end to the site's next request.
   */
  async function gapAfterHeldBackTimeout(unsent: boolean): Promise<number> {
    const clock = new VirtualClock();
    const site = new FakeSite(clock);
    site.route(`${A}/`, page(['/p0', '/p1', '/p2']));
    for (let i = 0; i < 3; i += 1) site.route(`${A}/p${i}`, page([]));
    let failedAt: number | null = null;
    const fetcher: Fetcher = {
      async fetch(request) {
        if (request.url !== `${A}/p0` || failedAt !== null) return site.fetch(request);
        const startedAt = clock.now();
        await clock.sleep(5_000);
        failedAt = clock.now();
        return { ok: false, error: { code: 'timeout', message: 'timed out' }, startedAt, endedAt: failedAt, unsent };
      },
    };
    await crawlToTheEnd(clock, fetcher);
    const next = site.requests.find((request) => failedAt !== null && request.startedAt >= failedAt);
    assert.ok(next !== undefined && failedAt !== null, 'a request after the failure');
    return next.startedAt - failedAt;
  }

  it("keeps the host's delay after it, where a sent one that timed out grows the gap", async () => {
    const afterUnsent = await gapAfterHeldBackTimeout(true);
    assert.ok(afterUnsent >= 200 && afterUnsent <= 202, `a gap of ${afterUnsent} ms after the unsent request`);
    // The adaptive term of a 5 s response time: 5 s squared = 25 s.
    const afterSent = await gapAfterHeldBackTimeout(false);
    assert.ok(afterSent >= 25_000, `a gap of ${afterSent} ms after the sent one`);
  });
});

/**
 * Site access withdrawn mid-crawl: the fetcher (`withAccessGuard` in the
 * extension) answers `no-access` without sending anything; the crawl pauses
 * with a message instead of recording every URL left as a network error, and
 * goes on, nothing lost or repeated, once access is back and it is resumed.
 * On the virtual clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCrawl, resumeCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { CrawlRunner } from '../../src/core/crawl/crawl-runner.ts';
import { accessLostMessage } from '../../src/core/crawl/run-context.ts';
import type { FetchOutcome, FetchRequest, Fetcher } from '../../src/core/crawl/ports.ts';
import { settingsFor, world } from '../support/crawl-world.ts';
import { page } from '../support/fake-site.ts';

const A = 'http://a.test';
const B = 'http://b.test';
const MESSAGE = 'Tabcrawl has no access to http://b.test any more';

/** The fake web behind a switch: while `allowed(url)` is false, nothing is sent and the answer is `no-access`. */
function guarded(web: Fetcher, allowed: (url: string) => boolean, now: () => number): Fetcher & { refused: string[] } {
  const refused: string[] = [];
  return {
    refused,
    async fetch(request: FetchRequest): Promise<FetchOutcome> {
      if (allowed(request.url)) return web.fetch(request);
      refused.push(request.url);
      return { ok: false, error: { code: 'no-access', message: MESSAGE }, startedAt: now(), endedAt: now() };
    },
  };
}

describe('crawl runner: site access withdrawn mid-crawl', () => {
  for (const when of ['before its robots.txt', 'after a few pages'] as const) {
    it(`pauses with a message when access to an extra site goes ${when}, records no error, and finishes once resumed`, async () => {
      const w = world();
      w.site.route(`${A}/robots.txt`, { body: 'User-agent: *\nAllow: /\n' });
      w.site.route(`${A}/`, page(['/a1', `${B}/`]));
      w.site.route(`${A}/a1`, page([]));
      w.site.route(`${B}/robots.txt`, { body: 'User-agent: *\nAllow: /\n' });
      w.site.route(`${B}/`, page(['/b1', '/b2', '/b3']));
      for (const path of ['/b1', '/b2', '/b3']) w.site.route(`${B}${path}`, page([]));
      // B's access goes at its first request, or after two; it comes back when the test says so.
      let restored = false;
      let bSent = 0;
      const fetcher = guarded(
        w.site,
        (url) => {
          if (restored || !url.startsWith(B)) return true;
          if (when === 'before its robots.txt' || bSent >= 2) return false;
          bSent += 1;
          return true;
        },
        () => w.clock.now(),
      );
      const settings = settingsFor({ startUrl: `${A}/`, delayMs: 100, extraOrigins: [B] });
      const record = await createCrawl(w.store, settings, { id: 'c1', now: w.clock.now() });
      const runner = new CrawlRunner({ store: w.store, fetcher, clock: w.clock, runId: 'run-1', random: () => 0 });

      const paused = await w.clock.run(runner.run(record.id, new AbortController().signal));
      assert.equal(paused?.state, 'paused');
      assert.equal(paused?.message, accessLostMessage(MESSAGE));
      assert.equal(fetcher.refused.length, 1, 'one request refused, then the crawl stopped asking');
      const rows = await w.store.pagesAfter(record.id, 0, 100);
      assert.deepEqual(
        rows.filter((r) => r.error !== null),
        [],
        'no URL recorded as an error',
      );

      // Access is back: the crawl goes on where it stopped.
      restored = true;
      await w.clock.run(resumeCrawl(w.store, record.id, w.clock.now()));
      const resumed = new CrawlRunner({ store: w.store, fetcher, clock: w.clock, runId: 'run-2', random: () => 0 });
      const final = await w.clock.run(resumed.run(record.id, new AbortController().signal));
      assert.equal(final?.state, 'finished');
      assert.equal(final?.message, null);
      const urls = (await w.store.pagesAfter(record.id, 0, 100)).map((r) => `${r.url} ${r.status}`).sort();
      assert.deepEqual(urls, [`${A}/ 200`, `${A}/a1 200`, `${B}/ 200`, `${B}/b1 200`, `${B}/b2 200`, `${B}/b3 200`]);
      const sent = w.site.requests.map((r) => r.url);
      assert.equal(new Set(sent).size, sent.length, `no URL sent twice: ${sent.join(', ')}`);
    });
  }
});

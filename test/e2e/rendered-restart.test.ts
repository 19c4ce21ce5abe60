/**
 * A rendered crawl survives restarts (issue 29): the worker is stopped while pages are being rendered, a few
 * times; the next worker closes the render window the stopped one left open and renders that page again,
 * with what was already fetched served from the store. The crawl ends with every page rendered, at most one
 * repeated request per stop, robots.txt once per host, nothing disallowed requested, no gap under the delay,
 * and no render window left open. About half a minute.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestLogEntry } from '../../src/shells/cli/local-site.ts';
import type { ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import { startRenderedSite } from '../support/rendered-site.ts';
import { requestCounts, serverGaps } from '../support/server-log.ts';
import { crawlToEnd, exportRows, launch, sleep, stopMidRender } from './helpers.ts';

const DELAY_MS = 150;

/** Requests beyond the first of each URL. */
const repeated = (log: readonly RequestLogEntry[]): number =>
  [...requestCounts(log).values()].reduce((sum, n) => sum + n - 1, 0);

/** How many windows the browser has open (an extension page asks). */
async function windowCount(session: ExtensionSession): Promise<number> {
  const page = await session.openPage('src/shells/popup/index.html');
  try {
    return (await page.evaluate(
      '(async () => (await chrome.windows.getAll()).filter((w) => w.type === "normal").length)()',
    )) as number;
  } finally {
    await page.close();
  }
}

describe('a rendered crawl survives restarts', () => {
  it('stops the worker mid-render and still renders every page, politely, leaving no window open', async () => {
    const site = await startRenderedSite();
    const session = await launch();
    try {
      const windowsBefore = await windowCount(session);
      // A render takes about 1.5 s here: a stop every 1.5 to 2.5 s.
      const stopper = stopMidRender(() => session.stopServiceWorker(), { maxStops: 4, spacingMs: 1500 });
      const crawl = await crawlToEnd(
        session,
        { startUrl: site.startUrl, delayMs: DELAY_MS, timeoutMs: 5000, render: 'always', renderTimeoutMs: 4000 },
        stopper.during,
        240_000,
      );
      const stops = stopper.stops();
      assert.ok(stops >= 3, `the worker was stopped only ${stops} times while rendering`);
      assert.equal(crawl.state, 'finished', crawl.message ?? '');
      const rows = await exportRows(session, crawl.id);
      for (const page of site.pages) {
        const row = rows.find((r) => r.url === page.url) as {
          title?: string | null;
          render?: { outcome: string; message?: string | null };
        };
        assert.equal(row?.render?.outcome, 'rendered', `${page.url}: ${row?.render?.message ?? ''}`);
        assert.equal(row?.title, page.title, page.url);
      }
      const log = [...site.logs.shop, ...site.logs.api];
      const repeats = repeated(site.logs.shop) + repeated(site.logs.api);
      assert.ok(repeats <= stops, `${repeats} repeated requests for ${stops} stops`);
      assert.equal(log.filter((r) => r.url === '/robots.txt').length, 2, 'robots.txt once on each host');
      assert.deepEqual(site.disallowedRequests(), []);
      for (const gaps of [serverGaps(site.logs.shop), serverGaps(site.logs.api)])
        for (const gap of gaps) assert.ok(gap >= DELAY_MS, `a gap of ${gap.toFixed(1)} ms across a restart`);
      // The windows stopped workers left mid-render were closed by the next worker, and the last worker's
      // render window closes once no render has used it for 5 s (RENDER_WINDOW_IDLE_MS).
      let windows = await windowCount(session);
      for (const deadline = Date.now() + 10_000; windows !== windowsBefore && Date.now() < deadline;) {
        await sleep(250);
        windows = await windowCount(session);
      }
      assert.equal(windows, windowsBefore, 'no render window left open');
    } finally {
      await session.close();
      await site.close();
    }
  });
});

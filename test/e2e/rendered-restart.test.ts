/**
 * A rendered crawl survives restarts (issue 29): the worker is stopped while pages are being rendered, a few
 * times; the next worker closes the render window the stopped one left open and renders that page again,
 * with what was already fetched served from the store. The crawl ends with every page rendered, at most one
 * repeated request per stop (robots.txt included, when a stop cut its fetch), robots.txt first on each host,
 * nothing disallowed requested, no gap under the delay,
 * and no render window left open. About half a minute.
 *
 * Those politeness checks are made on the requests the crawl sent (its User-Agent). A request with Chrome's own
 * User-Agent is one the killed worker's debugger held and Chrome let go when the worker died: the known gap of
 * docs/rendering.md ("A known gap, in Chrome"; `stopServiceWorker` kills the worker from outside, as a crash or
 * an update would; Chrome never stops a worker with the debugger attached for idleness). Seen in about one run
 * of three under load, so it is bounded here, not forbidden: only a render tab's request can leak that way, at
 * most the few a page holds at once, each from a stop.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestLogEntry } from '../../src/shells/cli/local-site.ts';
import type { ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import { startRenderedSite } from '../support/rendered-site.ts';
import { requestCounts, serverGaps } from '../support/server-log.ts';
import { crawlToEnd, exportRows, launch, sleep, stopMidRender } from './helpers.ts';

const DELAY_MS = 150;
/** Most requests one stop may let go (a page's held requests at once: its document's scripts, styles, data). */
const MAX_LET_GO_PER_STOP = 4;

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
          status?: number | null;
          error?: unknown;
          render?: { outcome: string; message?: string | null };
        };
        assert.equal(
          row?.render?.outcome,
          'rendered',
          `${page.url}: ${row ? JSON.stringify({ status: row.status, error: row.error, render: row.render }).slice(0, 1500) : 'no row'}`,
        );
        assert.equal(row?.title, page.title, page.url);
      }
      const byCrawl = (entry: RequestLogEntry): boolean => /tabcrawl/.test(entry.userAgent ?? '');
      const shop = site.logs.shop.filter(byCrawl);
      const api = site.logs.api.filter(byCrawl);
      // The documented gap: what dying workers let go, with Chrome's User-Agent, a few requests a stop at most.
      const letGo = [...site.logs.shop, ...site.logs.api].filter((entry) => !byCrawl(entry));
      assert.ok(
        letGo.length <= MAX_LET_GO_PER_STOP * stops,
        `${letGo.length} requests let go by ${stops} stops: ${letGo.map((r) => r.url).join(' ')}`,
      );
      const repeats = repeated(shop) + repeated(api);
      assert.ok(repeats <= stops, `${repeats} repeated requests for ${stops} stops`);
      // robots.txt first on each host. A worker stopped while it was in flight (the api host's is asked during a
      // render) asks it again: a repeated request, counted above like any other a stop repeats.
      assert.equal(shop[0]?.url, '/robots.txt', "robots.txt first on the shop's host");
      assert.equal(api[0]?.url, '/robots.txt', "robots.txt first on the api's host");
      assert.deepEqual(
        site.disallowedRequests().filter(byCrawl),
        [],
        'the crawl never asked for a URL robots.txt disallows',
      );
      for (const gaps of [serverGaps(shop), serverGaps(api)])
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

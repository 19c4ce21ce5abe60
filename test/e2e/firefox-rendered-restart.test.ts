/**
 * A rendered crawl in Firefox survives its event page being stopped mid-render (issue 29), as
 * `rendered-restart.test.ts` checks in Chromium: the next event page closes the render window the stopped one
 * left open (noted in `storage.session`) and renders that page again. The crawl ends with every page rendered,
 * robots.txt once per host, nothing disallowed requested, no gap under the delay across the stops (the render
 * tabs' requests counted: a stopped page's held requests must not slip out), and no render window left open.
 * The requests the stopped page's listener still held are cancelled and its render tabs blocked when Firefox
 * suspends the page (render-suspension.ts); before that, Firefox let them go with the browser's User-Agent.
 * (Repeated requests are not counted: in Firefox a rendered page asks its document and shared scripts again by
 * design, docs/rendering-firefox.md.) About a minute or two.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FirefoxSession } from '../../src/shells/cli/firefox-driver.ts';
import { startRenderedSite } from '../support/rendered-site.ts';
import { serverGaps } from '../support/server-log.ts';
import { evaluate, launchFirefox } from './firefox-helpers.ts';
import { crawlToEnd, exportRows, sleep, stopMidRender } from './helpers.ts';

const DELAY_MS = 150;

/** How many normal windows Firefox has open (the driver page asks). */
const windowCount = (session: FirefoxSession): Promise<number> =>
  evaluate<number>(
    session.driverPage,
    `browser.windows.getAll().then((all) => all.filter((w) => w.type === 'normal').length)`,
  );

/** How many render containers (render-containers.ts) Firefox has (the driver page asks). */
const renderContainerCount = (session: FirefoxSession): Promise<number> =>
  evaluate<number>(
    session.driverPage,
    `browser.contextualIdentities.query({ name: 'Tabcrawl rendering' }).then((all) => all.length)`,
  );

describe('a rendered crawl in Firefox survives its event page being stopped', { timeout: 400_000 }, () => {
  it('stops the event page mid-render and still renders every page, politely, leaving no window or container open', async () => {
    const site = await startRenderedSite();
    const session = await launchFirefox();
    try {
      const windowsBefore = await windowCount(session);
      // A render in Firefox takes 2 to 4 s (each of the page's requests waits for its host's turn): a stop every 5 s or so.
      // The cap is well above that: under load in CI a 4 s cap ended a render `no document within 4000 ms`.
      const stopper = stopMidRender(() => session.stopBackground(), { maxStops: 3, spacingMs: 5000 });
      const crawl = await crawlToEnd(
        session,
        { startUrl: site.startUrl, delayMs: DELAY_MS, timeoutMs: 5000, render: 'always', renderTimeoutMs: 10_000 },
        stopper.during,
        300_000,
      );
      const stops = stopper.stops();
      assert.ok(stops >= 3, `the event page was stopped only ${stops} times while rendering`);
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
      assert.equal(log.filter((r) => r.url === '/robots.txt').length, 2, 'robots.txt once on each host');
      assert.deepEqual(site.disallowedRequests(), []);
      // A request the stopped page's listener held and Firefox let go would carry the browser's User-Agent
      // (it did before render-suspension.ts: /private/track among them).
      for (const request of log) assert.match(request.userAgent ?? '', /tabcrawl/, `${request.url}'s User-Agent`);
      for (const gaps of [serverGaps(site.logs.shop), serverGaps(site.logs.api)])
        for (const gap of gaps) assert.ok(gap >= DELAY_MS, `a gap of ${gap.toFixed(1)} ms across a stop`);
      // The windows stopped event pages left were closed by the next one, and the last one's render window
      // closes once no render has used it for 5 s (RENDER_WINDOW_IDLE_MS).
      let windows = await windowCount(session);
      for (const deadline = Date.now() + 10_000; windows !== windowsBefore && Date.now() < deadline;) {
        await sleep(250);
        windows = await windowCount(session);
      }
      assert.equal(windows, windowsBefore, 'no render window left open');
      // Nor a render tab's container (render-containers.ts): each is removed after its tab, and those a stopped
      // page left by the next one.
      let containers = await renderContainerCount(session);
      for (const deadline = Date.now() + 5_000; containers !== 0 && Date.now() < deadline;) {
        await sleep(250);
        containers = await renderContainerCount(session);
      }
      assert.equal(containers, 0, 'no render container left');
    } finally {
      await session.close();
      await site.close();
    }
  });
});

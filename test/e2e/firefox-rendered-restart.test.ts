/**
 * A rendered crawl in Firefox survives its event page being stopped mid-render (issue 29), as
 * `rendered-restart.test.ts` checks in Chromium: the next event page closes the render window the stopped one
 * left open (noted in `storage.session`) and renders that page again. The crawl ends with every page rendered;
 * robots.txt first on each host, asked again only after a stop cut it; nothing disallowed requested; no gap
 * under the delay across the stops (the render tabs' requests counted: a stopped page's held requests must not
 * slip out); and no render window left open.
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
        {
          startUrl: site.startUrl,
          delayMs: DELAY_MS,
          timeoutMs: 5000,
          render: 'always',
          renderTimeoutMs: 10_000,
          // Not the page that polls forever: after stops, its render stalled the shop for 25 to 30 s under load
          // (the known gap in docs/rendering-firefox.md); the polling page is crawled by the tests without stops.
          excludePatterns: ['*/live'],
        },
        stopper.during,
        300_000,
      );
      const stops = stopper.stops();
      assert.ok(stops >= 3, `the event page was stopped only ${stops} times while rendering`);
      assert.equal(crawl.state, 'finished', crawl.message ?? '');
      const rows = await exportRows(session, crawl.id);
      for (const page of site.pages.filter((p) => p.path !== '/live')) {
        const row = rows.find((r) => r.url === page.url) as {
          title?: string | null;
          status?: number | null;
          error?: unknown;
          render?: { outcome: string; message?: string | null };
        };
        // On a failure: the page's row, when its host was asked for it (ms from the first request; `…` still
        // open), the stops, and the host's slow requests, for a failure that shows only in CI.
        const t0 = site.logs.shop[0]?.startedAt ?? 0;
        const at = (ms: number | null): string => (ms === null ? '…' : (ms - t0).toFixed(0));
        const asked = site.logs.shop
          .filter((r) => r.url === page.path)
          .map((r) => `${at(r.startedAt)}-${at(r.endedAt)}`)
          .join(' ');
        const all = [
          ...site.logs.shop.map((r) => ({ ...r, host: 'A' })),
          ...site.logs.api.map((r) => ({ ...r, host: 'B' })),
        ]
          .sort((a, b) => a.startedAt - b.startedAt)
          .map((r) => `${r.host}${r.url} ${at(r.startedAt)}-${at(r.endedAt)}`)
          .join(', ');
        const slow = site.logs.shop
          .filter((r) => r.endedAt === null || r.endedAt - r.startedAt > 1000)
          .map((r) => `${r.url} ${at(r.startedAt)}-${at(r.endedAt)}`)
          .join(', ');
        assert.equal(
          row?.render?.outcome,
          'rendered',
          `${page.url}: ${row ? JSON.stringify({ status: row.status, error: row.error, render: row.render }).slice(0, 1500) : 'no row'}; asked at ${asked}; stops at ${stopper.stoppedAt().map(at).join(' ')}; requests open over 1 s: ${slow}; every request: ${all}`,
        );
        assert.equal(row?.title, page.title, page.url);
      }
      const log = [...site.logs.shop, ...site.logs.api];
      // robots.txt first on each host, and asked again only after a stop: an event page stopped while it was in
      // flight (the api host's is asked during a render) never read the answer.
      for (const [name, hostLog] of Object.entries(site.logs)) {
        assert.equal(hostLog[0]?.url, '/robots.txt', `robots.txt first on the ${name} host`);
        const asked = hostLog.filter((r) => r.url === '/robots.txt');
        for (let i = 1; i < asked.length; i++) {
          const [before, again] = [asked[i - 1]?.startedAt ?? 0, asked[i]?.startedAt ?? 0];
          assert.ok(
            stopper.stoppedAt().some((at) => at > before && at <= again + 50),
            `robots.txt asked again on the ${name} host with no stop between (${(again - before).toFixed(0)} ms later)`,
          );
        }
      }
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

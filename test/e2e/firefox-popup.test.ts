/**
 * The popup of the Firefox build, in headless Firefox: a site typed into its
 * Start URL field and Start pressed, as a person would (keystrokes and a click
 * over WebDriver BiDi), starts a crawl of that site with the typed settings;
 * the popup shows it running, then finished, with the figures the background
 * holds and the latest rows.
 *
 * Build first: `npx vite build --mode firefox` (or set TABCRAWL_FIREFOX_DIST).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FirefoxSession } from '../../src/shells/cli/firefox-driver.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import { startTestSite, type TestSite } from '../support/test-site.ts';
import { evaluate, launchFirefox, waitInPage } from './firefox-helpers.ts';
import { sleep } from './helpers.ts';

/** The text of the element with `data-testid="<id>"`, as an expression for `evaluate` (null when absent). */
const textOf = (id: string): string => `(document.querySelector('[data-testid="${id}"]')?.textContent ?? null)`;

describe('Firefox: the popup of the built add-on', () => {
  let session: FirefoxSession;
  let site: TestSite;

  before(async () => {
    session = await launchFirefox();
    site = await startTestSite();
  });

  after(async () => {
    await session?.close();
    await site?.close();
  });

  it('starts a crawl of a typed site, shows it running and then finished with the background’s figures', async () => {
    const popup = await session.openPage('src/shells/popup/index.html');
    // The popup's size. Firefox ESR 140 lacks the BiDi command puppeteer's setViewport also sends
    // (`emulation.setScreenOrientationOverride`): there the page keeps its tab's size, which the test does not need.
    await popup.setViewport({ width: 400, height: 640 }).catch((error: unknown) => {
      if (!String(error).includes('setScreenOrientationOverride')) throw error;
    });
    // Typed as input events, not with puppeteer's locators, whose waits time out in Firefox ESR 140 (seen here).
    await popup.waitForSelector('[data-testid="start"]');
    const fill = (testId: string, value: string): Promise<void> =>
      popup.evaluate(
        (id, text) => {
          const input = document.querySelector<HTMLInputElement>(`[data-testid="${id}"]`);
          if (input === null) throw new Error(`no input ${id}`);
          input.focus();
          input.value = text;
          input.dispatchEvent(new Event('input', { bubbles: true }));
          input.dispatchEvent(new Event('change', { bubbles: true }));
        },
        testId,
        value,
      );
    await fill('start-url', `${site.origin}/`);
    await fill('delay', '0.2');
    await fill('max-pages', '50');
    assert.deepEqual((await session.request('crawl/list', {})).crawls, [], 'no crawl before Start');
    // A real click (WebDriver input), not a script's: Start asks for the host permission, which needs a user's gesture.
    const start = await popup.$('[data-testid="start"]');
    assert.ok(start !== null, 'the Start button');
    await start.click();

    // The background has a crawl of the typed URL, with the typed settings.
    const deadline = Date.now() + 10_000;
    let started: CrawlSummary | undefined;
    while ((started = (await session.request('crawl/list', {})).crawls[0]) === undefined) {
      if (Date.now() > deadline)
        assert.fail(`Start did not start a crawl within 10 s: ${await popup.evaluate(() => document.body.innerText)}`);
      await sleep(100);
    }
    assert.equal(started.startUrl, `${site.origin}/`);
    assert.equal(started.settings.delayMs, 200);
    assert.equal(started.settings.maxPages, 50);

    // The popup shows it while it runs (about 6 s at 0.2 s a URL and a 2.5 s page).
    const shownRunning = await waitInPage<boolean>(
      popup,
      `${textOf('crawl-state')} === 'running'`,
      'the popup showing the crawl running',
      5_000,
    );
    assert.equal(shownRunning, true);
    assert.equal(
      (await session.request('crawl/get', { crawlId: started.id })).crawl.state,
      'running',
      'the background says running too',
    );
    assert.equal(
      await evaluate<string | null>(popup, `document.querySelector('.crawl-site')?.textContent ?? null`),
      site.origin,
      'the popup names the crawled site',
    );

    // Then finished, with the figures the background holds.
    await waitInPage(popup, `${textOf('crawl-state')} === 'finished'`, 'the popup showing the crawl finished', 60_000);
    const { crawl: ended } = await session.request('crawl/get', { crawlId: started.id });
    assert.equal(ended.state, 'finished', ended.message ?? '');
    assert.equal(ended.counts.blocked, 1);
    assert.ok(ended.counts.fetched >= 15, `fetched ${ended.counts.fetched}`);
    assert.equal(await evaluate<string | null>(popup, textOf('count-fetched')), String(ended.counts.fetched));
    assert.equal(await evaluate<string | null>(popup, textOf('count-blocked')), '1');
    assert.match(
      (await evaluate<string | null>(popup, textOf('progress-text'))) ?? '',
      /^\d+ done \(\d+ pages, 0 resources, 1 file\) · page limit 50$/,
    );
    // The latest rows: the table refreshes once more after the end; wait for a row we know is there.
    await waitInPage(
      popup,
      `document.querySelector('[data-testid="results"] [title="${site.origin}/private/secret"]') !== null`,
      'the blocked URL in the results table',
      10_000,
    );
    const table = (await evaluate<string | null>(popup, textOf('results'))) ?? '';
    assert.match(table, /blocked/);
    assert.match(table, /301/);

    // The crawl the popup started was as polite as any: robots.txt first, the Tabcrawl User-Agent throughout.
    assert.equal(site.requests[0]?.url, '/robots.txt');
    for (const request of site.requests)
      assert.match(request.userAgent ?? '', /^Mozilla\/5\.0 \(compatible; tabcrawl\//, request.url);
    assert.equal((await session.request('crawl/list', {})).crawls.length, 1, 'one press, one crawl');
  });
});

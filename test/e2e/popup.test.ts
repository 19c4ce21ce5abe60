import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startTestSite } from '../support/test-site.ts';
import { progressText } from '../../src/ui/crawl-progress-text.ts';
import { launch, sleep } from './helpers.ts';
import { screenshot } from './screenshots.ts';
import { checkInfo } from '../../src/audit/checks.ts';
import { severityCountsText, worstChecksFirst } from '../../src/audit/audit.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';

describe('the popup of the built extension', () => {
  it('starts a crawl of a typed site, shows its progress, latest results and issues, opens them in the Issues view, and can start the next one', async () => {
    const session = await launch();
    const site = await startTestSite();
    try {
      const popup = await session.openPage('src/shells/popup/index.html');
      await popup.setViewportSize({ width: 400, height: 640 });
      await popup.getByTestId('start-url').fill(`${site.origin}/`);
      await popup.getByTestId('delay').fill('0.05');
      await popup.getByTestId('max-pages').fill('50');
      await popup.getByTestId('start').click();

      await popup.getByTestId('crawl-state').filter({ hasText: 'finished' }).waitFor({ timeout: 60_000 });
      const fetched = Number(await popup.getByTestId('count-fetched').innerText());
      // A site without page resources, but with a linked file (/file.bin): the rows done by kind.
      assert.match(
        await popup.getByTestId('progress-text').innerText(),
        /^\d+ done \(\d+ pages, 0 resources, 1 file\) · page limit 50$/,
      );
      const blocked = Number(await popup.getByTestId('count-blocked').innerText());
      assert.equal(blocked, 1);
      assert.ok(fetched >= 15, `fetched ${fetched}`);
      // The table refreshes once more after the end; wait for a row we know is there.
      const results = popup.getByTestId('results');
      await results.locator(`[title="${site.origin}/private/secret"]`).waitFor({ timeout: 10_000 });
      const text = await results.innerText();
      assert.match(text, /blocked/);
      assert.match(text, /301/);

      // The Issues summary: the background's counts by severity, and the checks with the most issues.
      const issues = await session.request('crawl/issues', {
        crawlId: newestCrawl(await session.request('crawl/list', {})).id,
      });
      assert.ok(issues.checks.length > 0, 'the test site has issues (a 404, a redirect)');
      const counts = popup.getByTestId('popup-issues-counts');
      await counts.waitFor({ timeout: 30_000 });
      assert.equal(await counts.innerText(), severityCountsText(issues.bySeverity).replaceAll(', ', ' · '));
      // The three worst checks, by title: errors first, then the most issues (ties in the registry's order, the reply's).
      const top = await popup
        .getByTestId('popup-issues-top')
        .locator('li')
        .evaluateAll((items) =>
          items.map((item) => [item.getAttribute('data-check'), item.querySelector('.issues-top-title')?.textContent]),
        );
      const expectedTop = worstChecksFirst(issues.checks).slice(0, 3);
      assert.equal(
        checkInfo(top[0]?.[0] as Parameters<typeof checkInfo>[0]).severity,
        'error',
        'the test site has a broken link: an error comes first',
      );
      assert.deepEqual(
        top,
        expectedTop.map(({ check }) => [check, checkInfo(check).title]),
      );

      await screenshot(popup, 'popup', { isReadmeImage: true });

      // Open Issues: the results page of that crawl, on its Issues view, with the same counts.
      const [resultsTab] = await Promise.all([
        session.context.waitForEvent('page'),
        popup.getByTestId('open-issues').click(),
      ]);
      await resultsTab.waitForURL(/view=issues/);
      assert.match(resultsTab.url(), /\/src\/shells\/results\/index\.html\?crawl=[^&]+&view=issues$/);
      await resultsTab
        .getByTestId('issues')
        .and(resultsTab.locator('[data-state="ready"]'))
        .waitFor({ timeout: 30_000 });
      assert.equal(await resultsTab.getByTestId('tab-issues').getAttribute('aria-pressed'), 'true');
      assert.equal(await resultsTab.getByTestId('issues-summary').innerText(), severityCountsText(issues.bySeverity));
      await resultsTab.close();

      // A bad value is refused where it was typed, and nothing is sent.
      await popup.getByTestId('delay').fill('-1');
      await popup.getByTestId('start').click();
      await popup.getByText('Delay must be from 0 s to 3600 s, not -1 s').waitFor({ timeout: 5000 });
      const { crawls } = await session.request('crawl/list', {});
      assert.equal(crawls.length, 1);
    } finally {
      await session.close();
      await site.close();
    }
  });

  it('counts pages, resources and files apart while it crawls a site with page resources, paused and once finished', async () => {
    const session = await launch();
    const site = await startTestSite({ pages: 6, resources: true });
    try {
      const popup = await session.openPage('src/shells/popup/index.html');
      await popup.setViewportSize({ width: 400, height: 600 });
      await popup.getByTestId('start-url').fill(`${site.origin}/`);
      await popup.getByTestId('delay').fill('0.3');
      await popup.getByTestId('max-pages').fill('50');
      await popup.getByTestId('start').click();
      const state = popup.getByTestId('crawl-state');
      const progress = popup.getByTestId('progress-text');

      // While it runs: the rows done by kind, once a resource is among them.
      await popup.waitForFunction(
        () =>
          document.querySelector('[data-testid="crawl-state"]')?.textContent === 'running' &&
          /^\d+ done \(\d+ pages?, [1-9]\d* resources?, \d+ files?\) · \d+ queued · page limit 50$/.test(
            document.querySelector('[data-testid="progress-text"]')?.textContent ?? '',
          ),
        undefined,
        { timeout: 30_000 },
      );
      assert.match(await popup.getByTestId('rate').innerText(), /URLs\/min$/);
      // The longer line wraps between its parts, never inside one.
      const linesPerPart = await progress
        .locator('.progress-part')
        .evaluateAll((parts) => parts.map((part) => part.getClientRects().length));
      assert.deepEqual(linesPerPart, [1, 1, 1]);
      await screenshot(popup, 'popup-resources-running', { fullPage: true });

      // Paused: the popup shows what the crawl holds, by kind (the requests in flight land first).
      await popup.getByTestId('pause').click();
      await state.filter({ hasText: 'paused' }).waitFor({ timeout: 10_000 });
      const paused = await shownAsStored(
        async () => {
          const [crawl] = (await session.request('crawl/list', {})).crawls;
          assert.ok(crawl !== undefined);
          return { crawl, text: progressText(crawl) };
        },
        () => progress.innerText(),
      );
      assert.ok((paused.counts.resources ?? 0) > 0, JSON.stringify(paused.counts));

      await popup.getByTestId('resume').click();
      await state.filter({ hasText: 'finished' }).waitFor({ timeout: 60_000 });
      const { crawl: finished } = await session.request('crawl/get', { crawlId: paused.id });
      // Every resource of the site: two stylesheets, a font, a background, six images and the missing one; and /file.bin.
      assert.deepEqual([finished.counts.resources, finished.counts.files], [11, 1]);
      const pages = finished.counts.done - 12;
      await progress
        .filter({ hasText: `${finished.counts.done} done (${pages} pages, 11 resources, 1 file) · page limit 50` })
        .waitFor({ timeout: 5000 });
      assert.equal(await popup.getByTestId('progress-bar').getAttribute('aria-valuenow'), '100');
      await screenshot(popup, 'popup-resources-finished', { fullPage: true });
    } finally {
      await session.close();
      await site.close();
    }
  });

  it('says how many URLs a finished crawl left unvisited and why, and lists them in the results page', async () => {
    const session = await launch();
    const site = await startTestSite();
    try {
      const popup = await session.openPage('src/shells/popup/index.html');
      await popup.setViewportSize({ width: 400, height: 640 });
      await popup.getByTestId('start-url').fill(`${site.origin}/`);
      await popup.getByTestId('delay').fill('0');
      // The test site has about 25 URLs: 8 leave the rest past the page limit.
      await popup.getByTestId('max-pages').fill('8');
      await popup.getByTestId('start').click();
      await popup.getByTestId('crawl-state').filter({ hasText: 'finished' }).waitFor({ timeout: 60_000 });
      const { crawl } = await session.request('crawl/get', {
        crawlId: newestCrawl(await session.request('crawl/list', {})).id,
      });
      const left = crawl.counts.notCrawled?.['page-limit'] ?? 0;
      assert.ok(left > 0, JSON.stringify(crawl.counts));
      assert.deepEqual(crawl.counts.notCrawled, { 'page-limit': left });
      await popup
        .getByTestId('not-crawled')
        .filter({ hasText: `${left} URLs not crawled: past the page limit (8) · List them` })
        .waitFor({ timeout: 5000 });

      const [resultsTab] = await Promise.all([
        session.context.waitForEvent('page'),
        popup.getByTestId('open-not-crawled').click(),
      ]);
      await resultsTab.waitForURL(/view=not-crawled/);
      await resultsTab
        .getByTestId('not-crawled')
        .and(resultsTab.locator('[data-state="ready"]'))
        .waitFor({ timeout: 30_000 });
      assert.equal(
        await resultsTab.getByTestId('not-crawled-summary').innerText(),
        `${left} URLs not crawled: past the page limit (8)`,
      );
      assert.equal(await resultsTab.getByTestId('tab-not-crawled').innerText(), `Not crawled (${left})`);
      const listed = await resultsTab
        .getByTestId('not-crawled-row')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-url') ?? ''));
      assert.equal(listed.length, left);
      // None of them was requested, and each is a link of a page the crawl holds.
      const requested = new Set(site.requests.map((request) => `${site.origin}${request.url}`));
      for (const url of listed) assert.equal(requested.has(url), false, `${url} was requested`);
      await screenshot(resultsTab, 'results-not-crawled');
      await resultsTab.close();
    } finally {
      await session.close();
      await site.close();
    }
  });

  it('fits More settings in the 600 px Chrome gives a popup, whichever of its folded groups is open', async () => {
    const session = await launch();
    try {
      const popup = await session.openPage('src/shells/popup/index.html');
      await popup.setViewportSize({ width: 400, height: 600 });
      await popup.getByTestId('start-url').fill('https://example.com/');
      await popup.getByText('More settings').click();
      for (const group of ['limits', 'politeness', 'scope', 'requests', 'rendering', 'archive', 'audit']) {
        await popup.getByTestId(`settings-group-${group}`).locator('summary').click();
        // One group open at a time: the one opened before folds when this one opens.
        await popup.waitForFunction((name) => {
          const open = Array.from(document.querySelectorAll('details.settings-fold[open]'));
          return open.length === 1 && open[0]?.getAttribute('data-testid') === `settings-group-${name}`;
        }, group);
        const height = await popup.evaluate(() => document.documentElement.scrollHeight);
        assert.ok(height <= 600, `with ${group} open the popup is ${height} px high`);
        if (group === 'politeness') await screenshot(popup, 'popup-more-settings', { isReadmeImage: true });
      }
    } finally {
      await session.close();
    }
  });
});

/**
 * Waits until the popup shows the line of the crawl as stored (a paused crawl's requests in flight
 * land after the pause): reads both until they agree.
 * @returns the crawl as stored when they did.
 */
async function shownAsStored<T>(
  stored: () => Promise<{ crawl: T; text: string }>,
  shown: () => Promise<string>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { crawl, text } = await stored();
    const onScreen = await shown();
    if (onScreen === text) return crawl;
    if (Date.now() > deadline) assert.fail(`the popup shows "${onScreen}", the crawl as stored reads "${text}"`);
    await sleep(200);
  }
}

/** The newest crawl of a `crawl/list` reply; fails the test when there is none. */
function newestCrawl({ crawls }: { crawls: CrawlSummary[] }): CrawlSummary {
  const [crawl] = crawls;
  assert.ok(crawl !== undefined, 'no crawl stored');
  return crawl;
}

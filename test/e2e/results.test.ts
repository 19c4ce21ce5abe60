import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RESULTS_PAGE_PATH } from '../../src/messaging/routes.ts';
import { startTestSite } from '../support/test-site.ts';
import { crawlToEnd, launch } from './helpers.ts';
import { screenshot } from './screenshots.ts';

describe('the results browser of the built extension', () => {
  it('lists a crawl, filters to broken links, opens a URL detail and shows the reports', async () => {
    const session = await launch();
    const site = await startTestSite();
    try {
      const crawl = await crawlToEnd(session, { startUrl: `${site.origin}/`, delayMs: 20, timeoutMs: 1000 });
      assert.equal(crawl.state, 'finished');
      const page = await session.openPage(`${RESULTS_PAGE_PATH}?crawl=${crawl.id}`);
      await page.setViewportSize({ width: 1280, height: 800 });
      const total = page.getByTestId('results-total');
      await total.filter({ hasText: `${crawl.counts.done} URLs` }).waitFor({ timeout: 10_000 });
      await screenshot(page, 'results-all');

      // Broken: 4xx and 5xx.
      await page.getByTestId('filter-4xx').click();
      await page.getByTestId('filter-5xx').click();
      await total.filter({ hasText: '2 URLs' }).waitFor({ timeout: 5000 });
      const broken = await page.getByTestId('results-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-url')));
      assert.deepEqual(broken.sort(), [`${site.origin}/broken`, `${site.origin}/missing`]);
      await screenshot(page, 'results-broken');

      // Search finds the redirect; Enter opens its detail with the chain.
      await page.getByTestId('filter-4xx').click();
      await page.getByTestId('filter-5xx').click();
      await page.getByTestId('results-search').fill('/old');
      await total.filter({ hasText: '1 URL' }).waitFor({ timeout: 5000 });
      await page.getByTestId('results-row').first().click();
      await page.keyboard.press('Enter');
      const detail = page.getByTestId('detail');
      await detail.waitFor({ timeout: 5000 });
      assert.equal(await detail.getAttribute('data-url'), `${site.origin}/old`);
      // The chain is read after the detail opens ("Following redirects…" until then).
      await page.getByTestId('detail-chain').filter({ hasText: '301' }).waitFor({ timeout: 10_000 });
      const chain = await page.getByTestId('detail-chain').innerText();
      assert.match(chain, /301/);
      assert.match(chain, /\/new/);
      assert.match(await page.getByTestId('detail-response-headers').innerText(), /location/i);
      await screenshot(page, 'results-detail', { isReadmeImage: true });
      await page.keyboard.press('Escape');
      await detail.waitFor({ state: 'detached', timeout: 5000 });

      // Reports: the broken links report names the page that links to the 404.
      await page.getByTestId('tab-reports').click();
      const table = page.getByTestId('report-table');
      await table.filter({ hasText: '/missing' }).waitFor({ timeout: 10_000 });
      assert.match(await table.innerText(), /link \/missing/);
      await screenshot(page, 'results-reports', { isReadmeImage: true });
    } finally {
      await session.close();
      await site.close();
    }
  });

  it('follows a crawl paused and resumed elsewhere to its end without a reload, and acts on it from the tab', async () => {
    const session = await launch();
    const site = await startTestSite({ pages: 30 });
    try {
      const { crawl } = await session.request('crawl/start', { settings: { startUrl: `${site.origin}/`, delayMs: 100, timeoutMs: 1000 } });
      const page = await session.openPage(`${RESULTS_PAGE_PATH}?crawl=${crawl.id}`);
      await page.setViewportSize({ width: 1280, height: 800 });
      const state = page.getByTestId('results-crawl-state');
      await state.filter({ hasText: 'running' }).waitFor({ timeout: 10_000 });
      // Paused from the tab itself, resumed from elsewhere (as the popup does): the tab follows both.
      await page.getByTestId('results-pause').click();
      await state.filter({ hasText: 'paused' }).waitFor({ timeout: 10_000 });
      await page.getByTestId('results-resume').waitFor({ timeout: 5000 });
      await session.request('crawl/resume', { crawlId: crawl.id });
      await state.filter({ hasText: 'running' }).waitFor({ timeout: 10_000 });
      await state.filter({ hasText: 'finished' }).waitFor({ timeout: 60_000 });
      const { crawl: ended } = await session.request('crawl/get', { crawlId: crawl.id });
      await page.getByTestId('results-total').filter({ hasText: `${ended.counts.done} URLs` }).waitFor({ timeout: 10_000 });
      assert.equal(await page.getByTestId('results-progress').getAttribute('aria-valuenow'), '100');
      assert.match(await page.getByTestId('results-run-time').innerText(), /^took /);
      await screenshot(page, 'results-tab', { isReadmeImage: true });
    } finally {
      await session.close();
      await site.close();
    }
  });
});

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
      const broken = await page
        .getByTestId('results-row')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-url')));
      assert.deepEqual(broken.sort(), [`${site.origin}/broken`, `${site.origin}/missing`]);
      await screenshot(page, 'results-broken');

      // Both are not indexable (not 200): the Indexability column says so.
      assert.deepEqual(await page.getByTestId('results-row').locator('.cell-indexability').allInnerTexts(), [
        'not 200',
        'not 200',
      ]);
      await page.getByTestId('filter-4xx').click();
      await page.getByTestId('filter-5xx').click();

      // The Indexability filter keeps the indexable pages only; a Words column chosen stays after a reload.
      await page.getByTestId('filter-indexability').selectOption('indexability:indexable');
      await page
        .getByTestId('results-row')
        .locator('.cell-indexability')
        .first()
        .filter({ hasText: 'Indexable' })
        .waitFor({ timeout: 5000 });
      const indexable = await page.getByTestId('results-row').locator('.cell-indexability').allInnerTexts();
      assert.ok(indexable.length > 0 && indexable.every((text) => text === 'Indexable'), indexable.join(', '));
      await page.getByTestId('column-chooser-open').click();
      await page.getByTestId('column-words').check();
      await page.getByTestId('sort-words').waitFor({ timeout: 5000 });
      // A reload keeps the filter too (it is in the address); All shows every URL again.
      await page.reload();
      await page.getByTestId('sort-words').waitFor({ timeout: 10_000 });
      assert.equal(await page.getByTestId('filter-indexability').inputValue(), 'indexability:indexable');
      await page.getByTestId('filter-indexability').selectOption('all');
      await total.filter({ hasText: `${crawl.counts.done} URLs` }).waitFor({ timeout: 10_000 });
      assert.ok(
        (await page.getByTestId('results-row').locator('.cell-words').allInnerTexts()).some((text) => Number(text) > 0),
      );

      // Search finds the redirect; Enter opens its detail with the chain.
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

  it('exports from the results tab without opening a tab, and comes Back from a URL opened in the Issues view to that view', async () => {
    const session = await launch();
    const site = await startTestSite();
    try {
      const crawl = await crawlToEnd(session, { startUrl: `${site.origin}/`, delayMs: 20, timeoutMs: 1000 });
      const page = await session.openPage(`${RESULTS_PAGE_PATH}?crawl=${crawl.id}`);
      await page
        .getByTestId('results-total')
        .filter({ hasText: `${crawl.counts.done} URLs` })
        .waitFor({ timeout: 10_000 });

      // Four exports: four files in the downloads, no export tab left behind.
      const tabsBefore = session.context.pages().length;
      await page.getByTestId('results-export-format').selectOption('jsonl');
      for (let i = 0; i < 4; i += 1) {
        await page.getByTestId('results-export').click();
        await page
          .getByTestId('results-export-saved')
          .filter({ hasText: /^Saved .+\.jsonl/ })
          .waitFor({ timeout: 20_000 });
      }
      assert.equal(session.context.pages().length, tabsBefore, 'no tab opened for an export from the results tab');

      // Issues: open the broken links check, then one of its URLs; Back returns to the Issues view, the check open.
      await page.getByTestId('tab-issues').click();
      const check = page.locator('[data-testid="issue-check"][data-check="broken-link-internal"]');
      await check.getByTestId('issue-toggle').click();
      await check.getByTestId('issue-url').first().click();
      await page.getByTestId('detail').waitFor({ timeout: 10_000 });
      assert.match(page.url(), /[?&]url=/);
      await page.goBack();
      await check.getByTestId('issue-url').first().waitFor({ timeout: 10_000 });
      assert.equal(await page.getByTestId('tab-issues').getAttribute('aria-pressed'), 'true');
      assert.match(page.url(), /[?&]view=issues(&|$)/);
      assert.match(page.url(), /[?&]check=broken-link-internal(&|$)/);
      // A reload shows the same.
      await page.reload();
      await check.getByTestId('issue-url').first().waitFor({ timeout: 10_000 });
    } finally {
      await session.close();
      await site.close();
    }
  });

  it('filters to broken resources, shows which pages use one and what a page uses, and reports them', async () => {
    const session = await launch();
    const site = await startTestSite({ resources: true });
    try {
      const crawl = await crawlToEnd(session, { startUrl: `${site.origin}/`, delayMs: 20, timeoutMs: 1000 });
      assert.equal(crawl.state, 'finished');
      const page = await session.openPage(`${RESULTS_PAGE_PATH}?crawl=${crawl.id}`);
      await page.setViewportSize({ width: 1280, height: 800 });
      const total = page.getByTestId('results-total');
      await total.filter({ hasText: `${crawl.counts.done} URLs` }).waitFor({ timeout: 10_000 });

      // Kind: resources, with the crawl's count; then only the broken ones.
      const kind = page.getByTestId('filter-kind');
      assert.ok((await kind.locator('option').allInnerTexts()).includes(`Resources (${crawl.counts.resources ?? 0})`));
      await kind.selectOption('kind:resource');
      await total.filter({ hasText: `${crawl.counts.resources ?? 0} URLs` }).waitFor({ timeout: 5000 });
      await page.getByTestId('filter-errors').click();
      await total.filter({ hasText: '1 URL' }).waitFor({ timeout: 5000 });
      const row = page.getByTestId('results-row').first();
      assert.equal(await row.getAttribute('data-url'), `${site.origin}/s/missing.png`);
      assert.equal(await row.getByTestId('kind-tag').innerText(), 'resource');

      // Its detail: the page that uses it.
      await row.click();
      const usedBy = page.getByTestId('detail-used-by');
      await usedBy.getByTestId('resource-user').first().waitFor({ timeout: 10_000 });
      assert.deepEqual(
        await page.getByTestId('resource-user').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-url'))),
        [`${site.origin}/p/5`],
      );

      // That page's detail: its resources, the missing one marked broken.
      await usedBy.getByRole('link').first().click();
      await page
        .getByTestId('detail')
        .and(page.locator(`[data-url="${site.origin}/p/5"]`))
        .waitFor({ timeout: 5000 });
      await page.getByTestId('resource').nth(2).waitFor({ timeout: 10_000 });
      const statuses = await page.getByTestId('resource-status').allInnerTexts();
      assert.deepEqual(statuses, ['200', '200', '404 · broken']);
      await screenshot(page, 'results-resources');

      // Reports: the broken resources, with what it is and who uses it; the broken links are links only.
      await page.getByTestId('tab-reports').click();
      const table = page.getByTestId('report-table');
      await table.waitFor({ timeout: 10_000 });
      assert.doesNotMatch(await table.innerText(), /missing\.png/);
      await page.getByTestId('report-select').selectOption('broken-resources');
      await table.filter({ hasText: '/s/missing.png' }).waitFor({ timeout: 5000 });
      const cells = await table.locator('tbody tr').first().locator('td').allInnerTexts();
      assert.deepEqual(cells.slice(1, 3), ['image', '404']);
      assert.match(cells[3] ?? '', /\/p\/5/);
    } finally {
      await session.close();
      await site.close();
    }
  });

  it('follows a crawl paused and resumed elsewhere to its end without a reload, and acts on it from the tab', async () => {
    const session = await launch();
    const site = await startTestSite({ pages: 30 });
    try {
      const { crawl } = await session.request('crawl/start', {
        settings: { startUrl: `${site.origin}/`, delayMs: 100, timeoutMs: 1000 },
      });
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
      await page
        .getByTestId('results-total')
        .filter({ hasText: `${ended.counts.done} URLs` })
        .waitFor({ timeout: 10_000 });
      assert.equal(await page.getByTestId('results-progress').getAttribute('aria-valuenow'), '100');
      assert.match(await page.getByTestId('results-run-time').innerText(), /^took /);
      await screenshot(page, 'results-tab', { isReadmeImage: true });
    } finally {
      await session.close();
      await site.close();
    }
  });
});

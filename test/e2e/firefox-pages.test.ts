/**
 * The extension's pages in Firefox, unchanged from Chrome: the results browser (table, filters, a
 * redirect's detail, reports, Issues), the options page (a default saved and read back), the export
 * page saving a WACZ through Firefox's downloads, as a person's click on Export does, and the toolbar
 * badge (`action`), as badge.test.ts checks it in Chromium, and the import page opening an archive picked
 * in its file input (as import.test.ts checks it in Chromium).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ElementHandle, Page } from 'puppeteer-core';
import { exportPagePath, IMPORT_PAGE_PATH, OPTIONS_PAGE_PATH, resultsPagePath } from '../../src/messaging/routes.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import { findFirefox } from '../../src/shells/cli/firefox.ts';
import { launchFirefoxExtension, type FirefoxSession } from '../../src/shells/cli/firefox-driver.ts';
import { IMPORT_INPUT_SELECTOR } from '../../src/shells/cli/import-through-page.ts';
import { checkWacz } from '../support/archive-checks.ts';
import { WARC_FIXTURES } from '../support/warc-fixtures.ts';
import { startTestSite, type TestSite } from '../support/test-site.ts';
import { FIREFOX_DIST_DIR, waitInPage } from './firefox-helpers.ts';
import { crawlToEnd, sleep } from './helpers.ts';

/** `document.querySelector(…)`'s text, or '' (an expression for the page). */
const textOf = (selector: string): string => `(document.querySelector(${JSON.stringify(selector)})?.textContent ?? '')`;
const click = (page: Page, selector: string): Promise<unknown> =>
  page.evaluate(`document.querySelector(${JSON.stringify(selector)}).click()`);

describe('the extension pages in Firefox', () => {
  let session: FirefoxSession;
  let site: TestSite;
  let crawl: CrawlSummary;
  const downloads = mkdtempSync(join(tmpdir(), 'tabcrawl-firefox-downloads-'));

  before(async () => {
    session = await launchFirefoxExtension({
      distDir: FIREFOX_DIST_DIR,
      firefoxPath: findFirefox(process.env),
      // Downloads into a folder of ours, without asking: what a person's settings may say.
      prefs: {
        'browser.download.folderList': 2,
        'browser.download.dir': downloads,
        'browser.download.useDownloadDir': true,
        'browser.download.always_ask_before_handling_new_types': false,
      },
    });
    site = await startTestSite();
    crawl = await crawlToEnd(session, { startUrl: `${site.origin}/`, delayMs: 20, timeoutMs: 1000 });
    assert.equal(crawl.state, 'finished', crawl.message ?? '');
  });
  after(async () => {
    await session?.close();
    await site?.close();
    rmSync(downloads, { recursive: true, force: true });
  });

  it('the results browser lists the crawl, filters to broken links, opens a redirect with its chain, and reports', async () => {
    const page = await session.openPage(resultsPagePath(crawl.id));
    await waitInPage(
      page,
      `${textOf('[data-testid="results-total"]')}.includes('${crawl.counts.done} URLs')`,
      'the total',
    );
    await click(page, '[data-testid="filter-4xx"]');
    await click(page, '[data-testid="filter-5xx"]');
    await waitInPage(page, `${textOf('[data-testid="results-total"]')}.includes('2 URLs')`, 'two broken URLs');
    const broken = (await page.evaluate(
      `[...document.querySelectorAll('[data-testid="results-row"]')].map((row) => row.getAttribute('data-url'))`,
    )) as string[];
    assert.deepEqual(broken.sort(), [`${site.origin}/broken`, `${site.origin}/missing`]);
    await click(page, '[data-testid="filter-4xx"]');
    await click(page, '[data-testid="filter-5xx"]');

    // A redirect's detail, opened by its address as a report's link does.
    const detail = await session.openPage(resultsPagePath(crawl.id, `${site.origin}/old`));
    const chain = await waitInPage<string>(
      detail,
      `${textOf('[data-testid="detail-chain"]')}.includes('301') && ${textOf('[data-testid="detail-chain"]')}`,
      'the redirect chain',
    );
    assert.match(chain, /\/new/);
    await detail.close();

    await click(page, '[data-testid="tab-reports"]');
    const report = await waitInPage<string>(
      page,
      `${textOf('[data-testid="report-table"]')}.includes('/missing') && ${textOf('[data-testid="report-table"]')}`,
      'the broken links report',
    );
    assert.match(report, /link \/missing/);

    await click(page, '[data-testid="tab-issues"]');
    const summary = await waitInPage<string>(
      page,
      `document.querySelector('[data-testid="issues"]')?.dataset.state === 'ready' && ${textOf('[data-testid="issues-summary"]')}`,
      'the Issues view',
    );
    assert.match(summary, /error/);
    assert.match(
      (await page.evaluate(textOf('[data-testid="issues"]'))) as string,
      /broken-link-internal|Broken links/i,
    );
    await page.close();
  });

  it('the options page saves a default and shows it again after a reload', async () => {
    const page = await session.openPage(OPTIONS_PAGE_PATH);
    await waitInPage(page, `!!document.querySelector('[data-testid="max-pages"]')`, 'the form');
    assert.equal(await page.evaluate(`document.querySelector('[data-testid="max-pages"]').value`), '500');
    await page.evaluate(
      `(() => { const input = document.querySelector('[data-testid="max-pages"]'); input.focus(); input.select(); })()`,
    );
    await page.keyboard.type('42');
    await click(page, '[data-testid="save-defaults"]');
    await waitInPage(page, `document.querySelector('[data-testid="save-status"]')?.dataset.state === 'saved'`, 'saved');
    // BiDi's own reload waits for a load event it never reports on moz-extension:// pages: the page reloads itself.
    await page.evaluate('location.reload()');
    await sleep(500);
    await waitInPage(
      page,
      `document.querySelector('[data-testid="max-pages"]')?.value === '42'`,
      'the saved default after a reload',
      10_000,
    );
    await page.close();
  });

  it('the export page saves a WACZ through the downloads, whole', async () => {
    const page = await session.openPage(exportPagePath(crawl.id, 'wacz'));
    // The page says when the file is saved; Firefox then moves it from its .part name.
    await waitInPage(page, `document.body.innerText.match(/saved|Saved/)`, 'the export saved', 60_000);
    let files: string[] = [];
    for (let i = 0; i < 50 && !(files.length === 1 && files[0]?.endsWith('.wacz')); i++) {
      files = readdirSync(downloads).filter((name) => !name.endsWith('.part'));
      await sleep(100);
    }
    assert.equal(files.length, 1, `one file downloaded: ${files.join(', ')}`);
    assert.match(files[0] ?? '', /\.wacz$/);
    const wacz = await checkWacz(readFileSync(join(downloads, files[0] ?? '')));
    assert.equal(wacz.pages.length > 10, true, `${wacz.pages.length} pages in pages.jsonl`);
    await page.close();
  });

  it('the toolbar badge counts rows while crawling, marks a pause, and shows a check mark at the end', async () => {
    const badge = (): Promise<string> =>
      session.driverPage.evaluate('browser.action.getBadgeText({})') as Promise<string>;
    const badgeWhen = async (accept: (text: string) => boolean, what: string, timeoutMs = 30_000): Promise<string> => {
      const deadline = Date.now() + timeoutMs;
      let text = '';
      while (Date.now() < deadline) {
        text = await badge();
        if (accept(text)) return text;
        await sleep(100);
      }
      throw new Error(`badge never showed ${what}; last "${text}"`);
    };
    // 0.4 s between requests: a crawl of about 20 URLs runs for several seconds.
    const { crawl: second } = await session.request('crawl/start', {
      settings: { startUrl: `${site.origin}/`, delayMs: 400, maxPages: 50 },
    });
    assert.ok(Number(await badgeWhen((text) => /^[1-9]\d*$/.test(text), 'a row count')) >= 1);
    await session.request('crawl/pause', { crawlId: second.id });
    await badgeWhen((text) => text === '‖', 'the pause mark');
    await session.request('crawl/resume', { crawlId: second.id });
    await badgeWhen((text) => /^\d+$/.test(text), 'the count again');
    await badgeWhen((text) => text === '✓', 'the check mark', 60_000);
  });

  it('the import page opens a picked WARC as a crawl with a link to its results, and refuses a cut one, storing nothing', async () => {
    const before = (await session.request('crawl/list', {})).crawls.length;
    const page = await session.openPage(IMPORT_PAGE_PATH);
    const input = (await page.waitForSelector(IMPORT_INPUT_SELECTOR)) as ElementHandle<HTMLInputElement> | null;
    assert.ok(input !== null, 'the file input');
    await input.uploadFile(join(WARC_FIXTURES, 'example-iana.warc'));
    const status = await waitInPage<string>(
      page,
      `document.querySelector('main')?.dataset.state === 'done' && ${textOf('[data-testid="import-status"]')}`,
      'the import done',
      60_000,
    );
    assert.match(status, /^Imported \d+ URLs from example-iana\.warc$/);
    const crawlId = (await page.evaluate(`document.querySelector('main').dataset.crawlId`)) as string;
    const href = await page.evaluate(`document.querySelector('[data-testid="open-results"]').getAttribute('href')`);
    assert.equal(href, `${session.pagesOrigin}/src/shells/results/index.html?crawl=${crawlId}`);
    assert.equal((await session.request('crawl/list', {})).crawls.length, before + 1);
    // The link opens the results of the imported crawl, its rows marked as from an archive.
    const { crawl: imported } = await session.request('crawl/get', { crawlId });
    const results = await session.openPage(resultsPagePath(crawlId));
    await waitInPage(
      results,
      `${textOf('[data-testid="results-total"]')}.includes('${imported.counts.done} URL')`,
      'the imported crawl in the results',
    );
    await results.close();

    const cut = mkdtempSync(join(tmpdir(), 'tabcrawl-firefox-import-cut-'));
    try {
      const file = join(cut, 'cut.warc.gz');
      writeFileSync(file, readFileSync(join(WARC_FIXTURES, 'example.warc.gz')).subarray(0, 2000));
      await input.uploadFile(file);
      const refused = await waitInPage<string>(
        page,
        `document.querySelector('main')?.dataset.state === 'failed' && ${textOf('[data-testid="import-status"]')}`,
        'the import refused',
        60_000,
      );
      assert.match(refused, /^cut\.warc\.gz: .*byte \d+/);
      assert.match(
        (await page.evaluate(textOf('[data-testid="import-nothing-stored"]'))) as string,
        /^Nothing was stored\./,
      );
      assert.equal((await session.request('crawl/list', {})).crawls.length, before + 1, 'no crawl for the cut file');
    } finally {
      rmSync(cut, { recursive: true, force: true });
      await page.close();
    }
  });
});

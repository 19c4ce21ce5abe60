/**
 * The toolbar badge of the built extension, read back with
 * `chrome.action.getBadgeText` from an extension page: the count of rows while
 * a crawl runs, `‖` while it is paused, `✓` once it finished.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestSite } from '../support/test-site.ts';
import { launch, sleep } from './helpers.ts';

/** The one extension API these page scripts call (the Node test project has no Chrome types). */
declare const chrome: { action: { getBadgeText(details: object): Promise<string> } };

/** Polls the badge until `accept` takes its text; returns that text. */
async function badgeWhen(
  page: Page,
  accept: (text: string) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = await page.evaluate(() => chrome.action.getBadgeText({}));
    if (accept(text)) return text;
    await sleep(100);
  }
  throw new Error(`badge never showed ${what}; last "${text}"`);
}

describe('the toolbar badge', () => {
  it('counts rows while crawling, marks a pause, and shows a check mark at the end', async () => {
    const session = await launch();
    const site = await startTestSite();
    try {
      const page = await session.openPage('src/shells/options/index.html');
      assert.equal(await page.evaluate(() => chrome.action.getBadgeText({})), '');
      // 0.4 s between requests: a crawl of about 20 URLs runs for several seconds.
      const { crawl } = await session.request('crawl/start', {
        settings: { startUrl: `${site.origin}/`, delayMs: 400, maxPages: 50 },
      });
      const counting = await badgeWhen(page, (text) => /^[1-9]\d*$/.test(text), 'a row count');
      assert.ok(Number(counting) >= 1);

      await session.request('crawl/pause', { crawlId: crawl.id });
      await badgeWhen(page, (text) => text === '‖', 'the pause mark');
      await session.request('crawl/resume', { crawlId: crawl.id });
      await badgeWhen(page, (text) => /^\d+$/.test(text), 'the count again');

      await badgeWhen(page, (text) => text === '✓', 'the check mark', 60_000);
      const { crawl: finished } = await session.request('crawl/get', { crawlId: crawl.id });
      assert.equal(finished.state, 'finished');
    } finally {
      await session.close();
      await site.close();
    }
  });
});

/**
 * Links to other sites in ReplayWeb.page (Webrecorder's own viewer, in headless Chromium): a link the crawl
 * only checked was never archived, whether it was asked for with HEAD or, HEAD refused, with GET (whose body
 * is cancelled unread). ReplayWeb.page must say so for both, not show an archived blank page. The WACZ is
 * written by the export's own writer from rows as the crawl stores them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import QUIET_FLAGS from '../../src/shells/cli/chromium-flags.json' with { type: 'json' };
import { findChromium } from '../../src/shells/cli/chromium.ts';
import { writeWacz } from '../../src/export/wacz.ts';
import { openReplay, serveReplay, type ReplayServer } from '../support/replay-web-page.ts';
import {
  collectBytes,
  countingContext,
  externalFixtureRows,
  FIXTURE_START,
  fixtureRows,
  fixtureSource,
  OTHER_GET,
  OTHER_HEAD,
} from '../support/export-fixtures.ts';

/** The text ReplayWeb.page shows in the archived page's frame for `url`. */
async function replayedText(browser: Browser, replay: ReplayServer, url: string): Promise<string> {
  const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
  try {
    const frame = await openReplay(await context.newPage(), replay, url);
    return await frame.evaluate(() => document.body.innerText);
  } finally {
    await context.close();
  }
}

describe('links to other sites, checked, in ReplayWeb.page', () => {
  let browser: Browser;
  let replay: ReplayServer;

  before(async () => {
    const { context } = countingContext();
    const wacz = await collectBytes(writeWacz(fixtureSource([...fixtureRows(), ...externalFixtureRows()]), context));
    browser = await chromium.launch({
      executablePath: findChromium(process.env),
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ...QUIET_FLAGS],
    });
    replay = await serveReplay(wacz);
  });

  after(async () => {
    await browser?.close();
    await replay?.close();
  });

  it('shows the archived start page', async () => {
    assert.match(await replayedText(browser, replay, FIXTURE_START), /old\s+copy/);
  });

  for (const [how, url] of [
    ['HEAD', OTHER_HEAD],
    ['GET after a refused HEAD', OTHER_GET],
  ] as const) {
    it(`says a link checked with ${how} is not in the archive`, async () => {
      const text = await replayedText(browser, replay, url);
      assert.match(text, /Archived Page Not Found/, `ReplayWeb.page showed: ${JSON.stringify(text.slice(0, 200))}`);
    });
  }
});

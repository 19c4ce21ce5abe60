import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startTestSite } from '../support/test-site.ts';
import { launch } from './helpers.ts';
import { screenshot } from './screenshots.ts';

describe('the popup of the built extension', () => {
  it('starts a crawl of a typed site, shows its progress and latest results, and can start the next one', async () => {
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
      const blocked = Number(await popup.getByTestId('count-blocked').innerText());
      assert.equal(blocked, 1);
      assert.ok(fetched >= 15, `fetched ${fetched}`);
      // The table refreshes once more after the end; wait for a row we know is there.
      const results = popup.getByTestId('results');
      await results.locator(`[title="${site.origin}/private/secret"]`).waitFor({ timeout: 10_000 });
      const text = await results.innerText();
      assert.match(text, /blocked/);
      assert.match(text, /301/);

      await screenshot(popup, 'popup', { isReadmeImage: true });

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

  it('fits More settings in the 600 px Chrome gives a popup, whichever of its folded groups is open', async () => {
    const session = await launch();
    try {
      const popup = await session.openPage('src/shells/popup/index.html');
      await popup.setViewportSize({ width: 400, height: 600 });
      await popup.getByTestId('start-url').fill('https://example.com/');
      await popup.getByText('More settings').click();
      for (const group of ['limits', 'politeness', 'scope', 'requests', 'archive']) {
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

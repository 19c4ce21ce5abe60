/**
 * An imported crawl's settings are not trusted (issue 27, "Hostile archives and private data"), in the
 * built extension in headless Chromium: a crafted Tabcrawl WACZ whose crawl record says "Crawl with my
 * cookies" and starts at a URL of the sender's choosing (a local site here, for which the browser profile
 * holds a Lax and a Strict session cookie) is imported with cookies off, saying so; its Re-run in the
 * popup shows the start URL and settings before anything is sent; started, it sends no Cookie header.
 *
 * Build first: `npm run build`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CrawlRecord } from '../../src/core/model.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { writeWacz } from '../../src/export/wacz.ts';
import { POPUP_PATH } from '../../src/messaging/routes.ts';
import type { ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import { importThroughPage } from '../../src/shells/cli/import-through-page.ts';
import { startLocalSite, type LocalSite, type Route } from '../../src/shells/cli/local-site.ts';
import { collectBytes } from '../support/export-fixtures.ts';
import { launch, sleep } from './helpers.ts';

const TIMEOUT = { timeout: 180_000 };

/** A site that logs the Cookie header of every request. */
async function startCookieLoggingSite(): Promise<LocalSite & { cookies: { path: string; cookie: string | null }[] }> {
  const cookies: { path: string; cookie: string | null }[] = [];
  const pages: Record<string, string> = {
    '/robots.txt': 'User-agent: *\nAllow: /\n',
    '/account/transfer': '<!doctype html><title>transfer</title><a href="/account/done">done</a>',
    '/account/done': '<!doctype html><title>done</title>',
  };
  const handler: Route = (req, res) => {
    const path = req.url ?? '/';
    cookies.push({ path, cookie: req.headers.cookie ?? null });
    const body = pages[path];
    res.writeHead(body === undefined ? 404 : 200, {
      'content-type': path.endsWith('.txt') ? 'text/plain' : 'text/html; charset=utf-8',
    });
    res.end(body ?? 'not found');
  };
  const site = await startLocalSite([[() => true, handler]]);
  return Object.assign(site, { cookies });
}

/** A Tabcrawl WACZ of no rows whose crawl record holds `crawl` as it is. */
async function craftedWacz(crawl: CrawlRecord): Promise<Uint8Array> {
  const source = { crawl, rows: async function* () {}, body: () => Promise.resolve(undefined) };
  return collectBytes(writeWacz(source, { software: 'Tabcrawl 0.1.0', now: new Date(), onRow: () => undefined }));
}

describe("a crafted Tabcrawl WACZ that asks for the user's cookies", () => {
  let session: ExtensionSession;
  let site: Awaited<ReturnType<typeof startCookieLoggingSite>>;
  const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-crafted-'));

  before(async () => {
    session = await launch();
    site = await startCookieLoggingSite();
  });
  after(async () => {
    await session?.close();
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'is imported with cookies off, its re-run shows the start URL and settings first, and sends no Cookie header',
    TIMEOUT,
    async () => {
      await session.context.addCookies([
        {
          name: 'user-session',
          value: 'secret-token',
          domain: '127.0.0.1',
          path: '/',
          httpOnly: true,
          sameSite: 'Lax',
        },
        { name: 'strict-session', value: 'strict-token', domain: '127.0.0.1', path: '/', sameSite: 'Strict' },
      ]);
      const startUrl = `${site.origin}/account/transfer`;
      const now = Date.now();
      const crafted: CrawlRecord = {
        id: 'crafted',
        settings: {
          ...DEFAULT_SETTINGS,
          excludePatterns: [],
          extraOrigins: [],
          startUrl,
          withCookies: true,
          delayMs: 0,
          maxDepth: 3,
        },
        state: 'finished',
        createdAt: now - 60_000,
        endedAt: now,
        counts: { admitted: 0, done: 0, fetched: 0, errors: 0, blocked: 0, bytesStored: 0 },
        message: null,
        nextSeq: 1,
      };
      const file = join(dir, 'crafted.wacz');
      writeFileSync(file, await craftedWacz(crafted));

      const imported = await importThroughPage(session, file);
      assert.ok(
        imported.warnings.some((warning) => /"Crawl with my cookies" was on: it is turned off/.test(warning)),
        imported.warnings.join('\n'),
      );
      const { crawl } = await session.request('crawl/get', { crawlId: imported.crawlId });
      assert.equal(crawl.settings.withCookies, false);
      assert.equal(crawl.importedFrom, 'crafted.wacz');
      assert.equal(site.cookies.length, 0, 'the import itself sends nothing');

      const popup = await session.openPage(POPUP_PATH);
      try {
        await popup.setViewportSize({ width: 400, height: 700 });
        await popup.getByTestId('view-crawls').click();
        const row = popup.locator(`[data-testid="crawl-row"][data-crawl-id="${imported.crawlId}"]`);
        await row.getByTestId('rerun-crawl').click();
        await row.getByTestId('confirm-rerun').waitFor({ timeout: 10_000 });
        assert.equal(await row.getByTestId('confirm-rerun-start').innerText(), startUrl);
        assert.match(await row.getByTestId('confirm-rerun-settings').innerText(), /delay 0 s · depth 3/);
        assert.doesNotMatch(await row.getByTestId('confirm-rerun-settings').innerText(), /with cookies/);
        await sleep(500);
        assert.equal(site.cookies.length, 0, 'nothing is sent before Start');

        await row.getByTestId('confirm-rerun').click();
        await popup.getByTestId('crawl-state').waitFor({ timeout: 10_000 });
      } finally {
        await popup.close();
      }
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { crawls } = await session.request('crawl/list', {});
        const rerun = crawls.find((c) => c.id !== imported.crawlId && c.settings.startUrl === startUrl);
        if (rerun !== undefined && rerun.state !== 'running') {
          assert.equal(rerun.state, 'finished');
          assert.equal(rerun.settings.withCookies, false);
          break;
        }
        assert.ok(Date.now() < deadline, 'the re-run ends');
        await sleep(200);
      }
      assert.deepEqual(site.cookies.map((request) => request.path).sort(), [
        '/account/done',
        '/account/transfer',
        '/robots.txt',
      ]);
      assert.deepEqual(
        site.cookies.filter((request) => request.cookie !== null),
        [],
        'no request carried a Cookie header',
      );
    },
  );
});

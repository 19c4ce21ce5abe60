import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { findChromium } from '../../src/shells/cli/chromium.ts';
import { launchExtension, type ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import { checkRowsArchived, checkWacz, checkWarc, responsePayload } from '../support/archive-checks.ts';
import { EXACT_BODIES, startTestSite, type TestSite } from '../support/test-site.ts';
import type { JsonlRow } from '../../src/export/jsonl.ts';
import { DIST_DIR, exportRows, ROOT } from './helpers.ts';
import { screenshot } from './screenshots.ts';

describe('exporting from the popup of the built extension', () => {
  let session: ExtensionSession;
  let site: TestSite;
  let downloads: string;

  before(async () => {
    downloads = mkdtempSync(join(tmpdir(), 'tabcrawl-downloads-'));
    session = await launchExtension({
      distDir: DIST_DIR,
      chromePath: findChromium(process.env),
      copyDist: true,
      downloadDir: downloads,
    });
    // Pages with resources: a stylesheet chain, a font, images, a missing one.
    site = await startTestSite({ resources: true });
  });
  after(async () => {
    await session?.close();
    await site?.close();
    rmSync(downloads, { recursive: true, force: true });
  });

  it('downloads a WACZ that replays the crawl: hashes, index and byte-exact pages and resources check out', async () => {
    const popup = await session.openPage('src/shells/popup/index.html');
    await popup.setViewportSize({ width: 400, height: 700 });
    await popup.getByTestId('start-url').fill(`${site.origin}/`);
    await popup.getByTestId('delay').fill('0.02');
    await popup.getByTestId('start').click();
    await popup.getByTestId('crawl-state').filter({ hasText: 'finished' }).waitFor({ timeout: 60_000 });

    await popup.getByTestId('export-format').selectOption('wacz');
    const opened = session.context.waitForEvent('page');
    await popup.getByTestId('export').click();
    const exportPage = await opened;
    await exportPage.locator('main[data-state="done"], main[data-state="failed"]').waitFor({ timeout: 60_000 });
    await screenshot(exportPage, 'export-page-done');
    await screenshot(popup, 'popup-export', { fullPage: true });
    const status = await exportPage.getByTestId('export-status').innerText();
    assert.match(status, /^Saved 127\.0\.0\.1_\d+-\d{4}-\d{2}-\d{2}\.wacz$/);
    assert.match(await exportPage.getByTestId('export-open-hint').innerText(), /ReplayWeb\.page/);
    // No leftover tab: the page closes itself when asked.
    const closed = exportPage.waitForEvent('close', { timeout: 5000 });
    // The page may be gone before Playwright's click has finished (the race failed one CI run): that is the point.
    await exportPage
      .getByTestId('close-tab')
      .click()
      .catch((error: unknown) => {
        if (!exportPage.isClosed()) throw error;
      });
    await closed;

    const files = readdirSync(downloads);
    assert.equal(files.length, 1, 'one file downloaded');
    const wacz = await checkWacz(readFileSync(join(downloads, files[0] ?? '')));
    for (const [path, bytes] of Object.entries(EXACT_BODIES)) {
      assert.deepEqual(
        responsePayload(wacz.records, `${site.origin}${path}`),
        Buffer.from(bytes),
        `${path} replays byte for byte`,
      );
    }
    const gzipped = wacz.records.find(
      (r) => r.type === 'response' && r.field('WARC-Target-URI') === `${site.origin}/gzipped`,
    );
    assert.equal(gzipped?.http?.get('content-encoding'), null, 'a decoded body is not marked as still encoded');
    assert.equal(gzipped?.http?.get('content-length'), String(EXACT_BODIES['/gzipped']?.byteLength));
    const redirect = wacz.index.find((l) => l.url === `${site.origin}/old`);
    assert.equal(redirect?.fields['status'], '301');
    assert.equal(
      wacz.index.some((l) => l.url === `${site.origin}/private/secret`),
      false,
      'a blocked URL is not indexed as a capture',
    );
    assert.ok(
      wacz.records.some((r) => r.type === 'metadata' && r.field('WARC-Target-URI') === `${site.origin}/private/secret`),
    );
    const { crawls } = await session.request('crawl/list', {});
    const rows = await exportRows(session, crawls[0]?.id ?? '');
    const htmlPages = rows
      .filter((r) => r.status !== null && r.status >= 200 && r.status < 300 && /^text\/html/.test(r.contentType ?? ''))
      .map((r) => r.url);
    assert.deepEqual(
      wacz.pages.map((p) => p['url']).sort(),
      htmlPages.sort(),
      'pages.jsonl lists every HTML page of the crawl',
    );
    assert.equal(wacz.pages.find((p) => p['url'] === `${site.origin}/latin1`)?.['title'], 'Café');
    // Every resource is in the archive with its whole body; the index covers every capture; pages.jsonl only pages.
    assert.ok(rows.filter((r) => r.kind === 'resource').length >= 10, 'the crawl archived the resources');
    checkRowsArchived(wacz, rows);
    assert.deepEqual(
      responsePayload(wacz.records, `${site.origin}/s/site.css`),
      Buffer.from('@import "more.css"; body { background: url(/s/bg.png) }'),
    );
  });
});

describe('exporting from the command line', () => {
  it('writes WARC, WACZ, CSV and JSON Lines files that agree with each other, resources included', async () => {
    const site = await startTestSite({ resources: true });
    const out = mkdtempSync(join(tmpdir(), 'tabcrawl-cli-export-'));
    try {
      const files = ['site.warc.gz', 'site.wacz', 'site.csv', 'site.jsonl', 'site.warc'].map((name) => join(out, name));
      const code = await new Promise<number | null>((done) => {
        const child = spawn(
          resolve(ROOT, 'node_modules/.bin/tsx'),
          ['src/shells/cli/main.ts', `${site.origin}/`, '--delay', '0.02', ...files.flatMap((f) => ['--out', f])],
          { cwd: ROOT, stdio: 'ignore' },
        );
        child.on('close', done);
      });
      assert.equal(code, 0);
      const [warcGz = '', wacz = '', csv = '', jsonl = '', warc = ''] = files;

      const jsonRows = readFileSync(jsonl, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as JsonlRow);
      const csvRows = parse(readFileSync(csv), { columns: true, bom: true }) as Record<string, string>[];
      assert.deepEqual(
        csvRows.map((r) => r['url']),
        jsonRows.map((r) => r.url),
        'CSV and JSON Lines list the same URLs in the same order',
      );
      assert.deepEqual(
        csvRows.map((r) => r['status']),
        jsonRows.map((r) => (r.status === null ? '' : String(r.status))),
      );
      assert.deepEqual(
        csvRows.map((r) => [r['kind'], r['resourceCount'], r['brokenResourceCount']]),
        jsonRows.map((r) => [r.kind, String(r.resourceCount), String(r.brokenResourceCount)]),
      );
      // Every numbered page uses the stylesheet and its image; the last one a missing image too.
      const counts = (path: string): [number, number] | undefined => {
        const row = jsonRows.find((r) => r.url === `${site.origin}${path}`);
        return row === undefined ? undefined : [row.resourceCount, row.brokenResourceCount];
      };
      assert.deepEqual(counts('/p/0'), [2, 0]);
      assert.deepEqual(counts('/p/5'), [3, 1]);
      assert.deepEqual(counts('/s/site.css'), [2, 0], 'a stylesheet counts what it imports and loads');
      assert.equal(jsonRows.find((r) => r.url === `${site.origin}/s/missing.png`)?.kind, 'resource');
      // Page facts: every HTML page read has them, resources none; CSV says what JSON Lines says.
      const htmlRows = jsonRows.filter(
        (r) => r.kind === 'page' && r.status === 200 && /^text\/html/.test(r.contentType ?? ''),
      );
      assert.ok(htmlRows.length > 0);
      for (const r of htmlRows) {
        assert.equal(typeof r.wordCount, 'number', r.url);
        assert.equal(typeof r.internalLinks, 'number', r.url);
        assert.equal(typeof r.indexable, 'boolean', r.url);
      }
      assert.equal(jsonRows.find((r) => r.url === `${site.origin}/s/site.css`)?.wordCount, null);
      const text = (value: number | boolean | null): string => (value === null ? '' : String(value));
      assert.deepEqual(
        csvRows.map((r) => [r['indexable'], r['indexabilityReason'], r['wordCount'], r['h1Count'], r['internalLinks']]),
        jsonRows.map((r) => [
          text(r.indexable),
          r.indexabilityReason ?? '',
          text(r.wordCount),
          text(r.h1Count),
          text(r.internalLinks),
        ]),
      );

      for (const path of [warcGz, warc]) {
        const records = await checkWarc(readFileSync(path));
        const fetched = jsonRows
          .filter((r) => r.status !== null)
          .map((r) => r.url)
          .sort();
        const captured = [
          ...new Set(
            records.filter((r) => r.type === 'response' || r.type === 'revisit').map((r) => r.field('WARC-Target-URI')),
          ),
        ].sort();
        assert.deepEqual(captured, fetched, `${path}: one capture per fetched URL`);
        for (const [p, bytes] of Object.entries(EXACT_BODIES))
          assert.deepEqual(responsePayload(records, `${site.origin}${p}`), Buffer.from(bytes));
      }
      const checked = await checkWacz(readFileSync(wacz));
      assert.equal(checked.index.length, jsonRows.filter((r) => r.status !== null).length);
      checkRowsArchived(checked, jsonRows);
    } finally {
      await site.close();
      rmSync(out, { recursive: true, force: true });
    }
  });
});

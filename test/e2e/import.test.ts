/**
 * Import (issue 18) through the built extension: each fixture archive of test/fixtures/warc/, put
 * into the import page's file input in Chromium (Playwright's setInputFiles, as the command line
 * does), gives one row per captured URL with the status warcio.js reads for it; the round trip
 * (crawl the local test site, export a WACZ, import it in a fresh profile) gives back the same rows
 * and the same JSONL and CSV exports byte for byte but for the export dates; and
 * `npm run crawl -- --import x.wacz --out y.jsonl` in Chromium and in Firefox writes those rows.
 *
 * Build first: `npx vite build --mode chrome` and `--mode firefox`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { normalizeUrl } from '../../src/core/url/normalize-url.ts';
import type { JsonlRow } from '../../src/export/jsonl.ts';
import { IMPORT_PAGE_PATH } from '../../src/messaging/routes.ts';
import { exportThroughPage } from '../../src/shells/cli/export-through-page.ts';
import type { ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import { IMPORT_INPUT_SELECTOR, importThroughPage } from '../../src/shells/cli/import-through-page.ts';
import { startTestSite, type TestSite } from '../support/test-site.ts';
import { readWithWarcio, WARC_FIXTURES, warcFixture, warcFixtureNames } from '../support/warc-fixtures.ts';
import { crawlToEnd, exportRows, launch, ROOT } from './helpers.ts';

const TIMEOUT = { timeout: 180_000 };

/** URL → status of the first capture of each http(s) URL, as warcio.js reads the archive (a resource record: 200). */
async function warcioCaptures(bytes: Uint8Array): Promise<Map<string, number | null>> {
  const captures = new Map<string, number | null>();
  for (const record of await readWithWarcio(bytes)) {
    if (!['response', 'revisit', 'resource'].includes(record.type) || record.targetUri === null) continue;
    const url = normalizeUrl(record.targetUri);
    if (url === null || !/^https?:/.test(url) || captures.has(url)) continue;
    if (record.type === 'resource') {
      captures.set(url, 200);
      continue;
    }
    const status = /^HTTP\/\S+\s+(\d{3})/.exec(record.startLine ?? '')?.[1];
    captures.set(url, status === undefined ? null : Number(status));
  }
  return captures;
}

/** Runs `npm run crawl -- ...args` as a user would (through tsx, like the npm script). */
function crawlCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(resolve(ROOT, 'node_modules/.bin/tsx'), ['src/shells/cli/main.ts', ...args], {
      cwd: ROOT,
      env: process.env,
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => done({ code, stderr }));
  });
}

/** A row without what names the crawl it is stored in. */
function withoutCrawl(row: JsonlRow): Record<string, unknown> {
  const { crawlId: _crawlId, source: _source, ...rest } = row as JsonlRow & { crawlId?: unknown; source?: unknown };
  return rest;
}

describe('importing each fixture archive through the import page', () => {
  let session: ExtensionSession;
  before(async () => {
    session = await launch();
  });
  after(async () => {
    await session?.close();
  });

  for (const name of warcFixtureNames()) {
    it(`${name}: one row per captured URL, with the status warcio.js reads`, TIMEOUT, async () => {
      const progress: number[] = [];
      const imported = await importThroughPage(session, join(WARC_FIXTURES, name), {
        onProgress: (p) => progress.push(p.bytesRead),
      });
      const rows = await exportRows(session, imported.crawlId);
      assert.equal(rows.length, imported.rows, 'the page counts the rows stored');
      const expected = await warcioCaptures(warcFixture(name));
      const got = new Map(rows.map((row) => [row.url, row.status]));
      assert.deepEqual(got, expected);
      const { crawl } = await session.request('crawl/get', { crawlId: imported.crawlId });
      assert.equal(crawl.state, 'finished');
      assert.equal(crawl.counts.done, rows.length);
    });
  }

  it(
    'the page itself: a picked file shows the summary and links to the results of the new crawl; a cut file is refused, nothing stored',
    TIMEOUT,
    async () => {
      const before = (await session.request('crawl/list', {})).crawls.length;
      const page = await session.openPage(IMPORT_PAGE_PATH);
      try {
        await page.setInputFiles(IMPORT_INPUT_SELECTOR, join(WARC_FIXTURES, 'example-iana.warc'));
        await page.locator('main[data-state="done"]').waitFor({ timeout: 60_000 });
        assert.match(
          await page.getByTestId('import-status').innerText(),
          /^Imported \d+ URLs from example-iana\.warc$/,
        );
        const crawlId = await page.locator('main').getAttribute('data-crawl-id');
        const href = await page.getByTestId('open-results').getAttribute('href');
        assert.equal(
          href,
          `chrome-extension://${session.extensionId}/src/shells/results/index.html?crawl=${crawlId ?? ''}`,
        );
        assert.equal((await session.request('crawl/list', {})).crawls.length, before + 1);

        const cut = mkdtempSync(join(tmpdir(), 'tabcrawl-import-cut-'));
        try {
          const file = join(cut, 'cut.warc.gz');
          const whole = readFileSync(join(WARC_FIXTURES, 'example.warc.gz'));
          const { writeFileSync } = await import('node:fs');
          writeFileSync(file, whole.subarray(0, 2000));
          await page.setInputFiles(IMPORT_INPUT_SELECTOR, file);
          await page.locator('main[data-state="failed"]').waitFor({ timeout: 60_000 });
          assert.match(await page.getByTestId('import-status').innerText(), /^cut\.warc\.gz: .*byte \d+/);
          assert.match(await page.getByTestId('import-nothing-stored').innerText(), /^Nothing was stored\./);
          assert.equal(
            (await session.request('crawl/list', {})).crawls.length,
            before + 1,
            'no crawl for the cut file',
          );
        } finally {
          rmSync(cut, { recursive: true, force: true });
        }
      } finally {
        await page.close();
      }
    },
  );
});

describe('the round trip: crawl → WACZ → import in a fresh profile', () => {
  let site: TestSite;
  const out = mkdtempSync(join(tmpdir(), 'tabcrawl-import-round-'));
  let firstRows: JsonlRow[] = [];
  let importedRows: JsonlRow[] = [];
  const wacz = join(out, 'site.wacz');

  before(async () => {
    site = await startTestSite({ resources: true });
    const first = await launch();
    try {
      const crawl = await crawlToEnd(first, { startUrl: `${site.origin}/`, delayMs: 20, timeoutMs: 2000 });
      assert.equal(crawl.state, 'finished');
      firstRows = await exportRows(first, crawl.id);
      await exportThroughPage(first, crawl.id, 'wacz', wacz);
      await exportThroughPage(first, crawl.id, 'jsonl', join(out, 'first.jsonl'));
      await exportThroughPage(first, crawl.id, 'csv', join(out, 'first.csv'));
      await exportThroughPage(first, crawl.id, 'issues.csv', join(out, 'first.issues.csv'));
    } finally {
      await first.close();
    }
    const second = await launch();
    try {
      assert.deepEqual((await second.request('crawl/list', {})).crawls, [], 'a fresh profile');
      const imported = await importThroughPage(second, wacz);
      importedRows = await exportRows(second, imported.crawlId);
      await exportThroughPage(second, imported.crawlId, 'jsonl', join(out, 'second.jsonl'));
      await exportThroughPage(second, imported.crawlId, 'csv', join(out, 'second.csv'));
      await exportThroughPage(second, imported.crawlId, 'issues.csv', join(out, 'second.issues.csv'));
    } finally {
      await second.close();
    }
  });
  after(async () => {
    await site?.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('gives back the same rows', TIMEOUT, () => {
    assert.ok(firstRows.length > 10, `${firstRows.length} rows crawled`);
    assert.deepEqual(importedRows.map(withoutCrawl), firstRows.map(withoutCrawl));
  });

  for (const name of ['jsonl', 'csv', 'issues.csv']) {
    it(`gives back the same ${name} export, byte for byte`, TIMEOUT, () => {
      const first = readFileSync(join(out, `first.${name}`), 'utf8');
      const second = readFileSync(join(out, `second.${name}`), 'utf8');
      assert.equal(second, first);
    });
  }
});

describe('npm run crawl -- --import', () => {
  let site: TestSite;
  const out = mkdtempSync(join(tmpdir(), 'tabcrawl-import-cli-'));
  const wacz = join(out, 'x.wacz');
  let expected: string;

  before(async () => {
    site = await startTestSite();
    const run = await crawlCli([
      `${site.origin}/`,
      '--delay',
      '0.02',
      '--timeout',
      '2',
      '--out',
      wacz,
      '--out',
      join(out, 'crawled.jsonl'),
    ]);
    assert.equal(run.code, 0, run.stderr);
    expected = readFileSync(join(out, 'crawled.jsonl'), 'utf8');
  });
  after(async () => {
    await site?.close();
    rmSync(out, { recursive: true, force: true });
  });

  for (const browser of ['chrome', 'firefox']) {
    it(
      `in ${browser === 'chrome' ? 'Chromium' : 'Firefox'}: writes the imported crawl, sums it up and exits 0`,
      TIMEOUT,
      async () => {
        const y = join(out, `${browser}.jsonl`);
        const run = await crawlCli(['--import', wacz, '--out', y, '--browser', browser]);
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stderr, /^tabcrawl: importing .+x\.wacz \(.+\)$/m);
        const rows = expected.trim().split('\n').length;
        assert.match(run.stderr, new RegExp(`^tabcrawl: wrote ${rows} URLs \\(.+\\) to .+${browser}\\.jsonl$`, 'm'));
        assert.match(run.stderr, new RegExp(`^tabcrawl: imported ${rows} URLs from .+x\\.wacz$`, 'm'));
        assert.doesNotMatch(run.stderr, /crawl finished/);
        assert.equal(readFileSync(y, 'utf8'), expected);
      },
    );
  }

  for (const browser of ['chrome', 'firefox']) {
    it(
      `in ${browser === 'chrome' ? 'Chromium' : 'Firefox'}: applies --search and --extract to the archive's pages as stored, asking the site nothing`,
      TIMEOUT,
      async () => {
        const y = join(out, `${browser}-rules.jsonl`);
        const asked = site.requests.length;
        const run = await crawlCli([
          '--import',
          wacz,
          '--search',
          'has title=<title>',
          '--extract',
          'title=css:title',
          '--out',
          y,
          '--browser',
          browser,
        ]);
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stderr, /^tabcrawl: applying 1 search and 1 extraction to the imported pages$/m);
        assert.match(run.stderr, /^tabcrawl: applied to \d+ HTML pages?$/m);
        assert.equal(site.requests.length, asked, 'the site was asked nothing');
        const rows = readFileSync(y, 'utf8')
          .trim()
          .split('\n')
          .map(
            (line) =>
              JSON.parse(line) as {
                url: string;
                title: string | null;
                searches: Record<string, number> | null;
                extracted: Record<string, string[]> | null;
              },
          );
        const titled = rows.filter((row) => row.title !== null && row.title !== '');
        assert.ok(titled.length > 0, 'the archive has pages with titles');
        // Each HTML page's extracted title is the title the crawl read; its search found the element.
        for (const row of titled) {
          assert.deepEqual(row.extracted?.['title'], [row.title], row.url);
          assert.ok((row.searches?.['has title'] ?? 0) >= 1, row.url);
        }
      },
    );
  }

  it('an archive cut short exits 1, names the file and the byte, and writes nothing', TIMEOUT, async () => {
    const cut = join(out, 'cut.wacz');
    const { writeFileSync, existsSync } = await import('node:fs');
    writeFileSync(cut, readFileSync(wacz).subarray(0, 3000));
    const run = await crawlCli(['--import', cut, '--out', join(out, 'cut.jsonl')]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^tabcrawl: could not import .+cut\.wacz: cut\.wacz: .*byte/m);
    assert.match(run.stderr, /^tabcrawl: nothing was stored$/m);
    assert.equal(existsSync(join(out, 'cut.jsonl')), false);
  });
});

/**
 * Custom search and extraction (issue 30), as a user runs them: `npm run crawl -- URL --search … --extract …
 * --out x.csv --out x.jsonl`, in Chromium and in Firefox (the built extension each time). A local site plants
 * the values: prices in elements a CSS selector finds, authors in a meta tag an XPath reads, SKUs a regex
 * captures, a phrase on 3 of 12 pages. Each export must hold exactly the planted values, and the CSV must
 * round-trip through a CSV parser with one column per name. A bad rule stops the command line before any
 * browser starts, with the rule named. *Re-run extraction* in the results page (Chromium) gives a crawl made
 * without rules the same values, from its stored bodies, while the server sees no request.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { RESULTS_PAGE_PATH } from '../../src/messaging/routes.ts';
import { startLocalSite, type LocalSite, type Route } from '../../src/shells/cli/local-site.ts';
import { ROOT, crawlToEnd, exportRows, launch } from './helpers.ts';
import { screenshot } from './screenshots.ts';

const PAGES = 12;
/** The pages that still say "discontinued" (twice each on page 4, in two cases on page 9). */
const DISCONTINUED = new Map([
  [2, 1],
  [4, 2],
  [9, 1],
]);

const price = (n: number): string =>
  `€ ${n}.${String(n * 7)
    .padStart(2, '0')
    .slice(-2)}`;
const author = (n: number): string => `Author ${String.fromCharCode(64 + n)}`;
const sku = (n: number): string => `${1000 + n}`;

function page(n: number): Route {
  const links = Array.from({ length: PAGES }, (_, i) => `<a href="/p/${i + 1}">page ${i + 1}</a>`).join(' ');
  const said = DISCONTINUED.get(n) ?? 0;
  // Page 9 also says it with a capital: a case-sensitive search does not count that one.
  const notes = `${'<p>This kettle is discontinued.</p>'.repeat(said)}${n === 9 ? '<p>Discontinued</p>' : ''}`;
  // Page 5 has no price: its cell stays empty; page 6 has two: both kept, in document order.
  const prices =
    n === 5
      ? ''
      : n === 6
        ? `<span class="price">${price(6)}</span><div class="price">€ 1.00</div>`
        : `<span class="price">${price(n)}</span>`;
  return {
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!DOCTYPE html><html><head><title>Page ${n}</title><meta name="author" content="${author(n)}"></head>
<body><h1>Kettle ${n}</h1>${prices}${notes}<p data-sku="SKU-${sku(n)}">Order code</p><nav>${links}</nav></body></html>`,
  };
}

/** Runs `npm run crawl -- ...args` as a user would (through tsx, like the npm script). */
function crawlCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(resolve(ROOT, 'node_modules/.bin/tsx'), ['src/shells/cli/main.ts', ...args], {
      cwd: ROOT,
      env: process.env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The planted site on a port of its own. */
function startShop(): Promise<LocalSite> {
  const routes: Record<string, Route> = { '/robots.txt': { body: 'User-agent: *\nAllow: /\n' }, '/': page(1) };
  for (let n = 1; n <= PAGES; n++) routes[`/p/${n}`] = page(n);
  return startLocalSite(routes);
}

/** Page n's number, from its URL (null for other rows). */
const pageNumber = (url: string): number | null => {
  const found = /\/p\/(\d+)$/.exec(url);
  return found === null ? null : Number(found[1]);
};

/** What the rules must find on page n. */
function planted(n: number): { searches: Record<string, number>; extracted: Record<string, string[]> } {
  const said = DISCONTINUED.get(n) ?? 0;
  return {
    searches: { discontinued: said, 'any case': said + (n === 9 ? 1 : 0) },
    extracted: {
      price: n === 5 ? [] : n === 6 ? [price(6), '€ 1.00'] : [price(n)],
      author: [author(n)],
      sku: [sku(n)],
    },
  };
}

const RULES = [
  '--search',
  'discontinued=discontinued',
  '--search',
  'any case=regex:(?i)discontinued',
  '--extract',
  'price=css:.price',
  '--extract',
  'author=xpath://meta[@name="author"]/@content',
  '--extract',
  'sku=regex:data-sku="SKU-(\\d+)"',
];

interface JsonlRow {
  url: string;
  kind: string;
  searches: Record<string, number> | null;
  extracted: Record<string, string[]> | null;
}

for (const browser of ['chrome', 'firefox'] as const) {
  describe(`custom search and extraction on the command line, in ${browser}`, { timeout: 240_000 }, () => {
    let site: LocalSite;
    const out = mkdtempSync(join(tmpdir(), `tabcrawl-extract-${browser}-`));
    let run: { code: number | null; stdout: string; stderr: string };

    before(async () => {
      site = await startShop();
      run = await crawlCli([
        '--browser',
        browser,
        `${site.origin}/`,
        '--delay',
        '0',
        ...RULES,
        '--out',
        join(out, 'x.csv'),
        '--out',
        join(out, 'x.jsonl'),
      ]);
    });

    after(async () => {
      await site?.close();
      rmSync(out, { recursive: true, force: true });
    });

    it('gives exactly the planted values in the JSON Lines and the CSV', () => {
      assert.equal(run.code, 0, run.stderr);
      const rows = readFileSync(join(out, 'x.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as JsonlRow);
      const csv = parse(readFileSync(join(out, 'x.csv')), { bom: true, columns: true }) as Record<string, string>[];
      const pages = rows.filter((row) => /\/p\/\d+$/.test(row.url));
      assert.equal(pages.length, PAGES);
      for (const row of pages) {
        const wanted = planted(pageNumber(row.url) ?? 0);
        assert.deepEqual({ searches: row.searches, extracted: row.extracted }, wanted, row.url);
        const line = csv.find((r) => r['url'] === row.url);
        assert.ok(line !== undefined, row.url);
        assert.equal(line['search:discontinued'], String(wanted.searches['discontinued']));
        assert.equal(line['search:any case'], String(wanted.searches['any case']));
        assert.equal(line['extract:price'], wanted.extracted['price']?.join(' | '));
        assert.equal(line['extract:author'], wanted.extracted['author']?.[0]);
        assert.equal(line['extract:sku'], wanted.extracted['sku']?.[0]);
      }
      // 3 of 12 pages contain the phrase; rows that are not pages read were not searched (empty cells, null).
      assert.equal(pages.filter((row) => (row.searches?.['discontinued'] ?? 0) > 0).length, 3);
      const robots = rows.find((row) => row.url.endsWith('/robots.txt'));
      if (robots !== undefined) assert.equal(robots.searches, null);
    });
  });
}

describe('a bad custom rule on the command line', () => {
  it('is refused before any browser starts, naming the rule', async () => {
    const run = await crawlCli(['http://127.0.0.1:9/', '--extract', 'price=css:[[', '--out', '/tmp/never.csv']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--extract: "price=css:\[\[": not a CSS selector/);
    const nested = await crawlCli(['http://127.0.0.1:9/', '--search', 'slow=regex:(a+)+$']);
    assert.equal(nested.code, 2);
    assert.match(nested.stderr, /nests repetition/);
  });
});

describe('Re-run extraction in the results page', { timeout: 180_000 }, () => {
  it('finds the planted values in a crawl made without rules, from its stored bodies, requesting nothing', async () => {
    const site = await startShop();
    const session = await launch();
    try {
      const crawl = await crawlToEnd(session, { startUrl: `${site.origin}/`, delayMs: 0 });
      assert.equal(crawl.state, 'finished');
      assert.ok((await exportRows(session, crawl.id)).every((row) => row.searches === null));
      const requestsAfterCrawl = site.requests.length;
      const page = await session.openPage(`${RESULTS_PAGE_PATH}?crawl=${crawl.id}`);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByTestId('rerun-panel').locator('summary').click();
      // A bad rule is named, and nothing is written.
      await page.getByTestId('rerun-extractions').fill('price=css:[[');
      await page.getByTestId('rerun-run').click();
      await page.getByTestId('rerun-problems').filter({ hasText: 'price=css:[[' }).waitFor({ timeout: 10_000 });
      const values = (flag: string): string =>
        RULES.flatMap((arg, i) => (RULES[i - 1] === flag ? [arg] : [])).join('\n');
      await page.getByTestId('rerun-searches').fill(values('--search'));
      await page.getByTestId('rerun-extractions').fill(values('--extract'));
      await page.getByTestId('rerun-run').click();
      await page
        .getByTestId('rerun-done')
        .filter({ hasText: `${PAGES + 1} pages searched` })
        .waitFor({ timeout: 30_000 });
      await screenshot(page, 'results-extraction', { isReadmeImage: true });
      assert.equal(site.requests.length, requestsAfterCrawl, 'the server saw no request during the re-run');
      const rows = await exportRows(session, crawl.id);
      const pages = rows.filter((row) => pageNumber(row.url) !== null);
      assert.equal(pages.length, PAGES);
      for (const row of pages)
        assert.deepEqual({ searches: row.searches, extracted: row.extracted }, planted(pageNumber(row.url) ?? 0));
      // The URL detail shows them too: page 6's two prices, in order.
      await page.goto(page.url().replace(/&.*$/, '') + `&url=${encodeURIComponent(`${site.origin}/p/6`)}`);
      const extracted = page.getByTestId('detail-extracted').filter({ hasText: 'price' });
      await extracted.waitFor({ timeout: 10_000 });
      assert.deepEqual(await extracted.locator('li').allInnerTexts(), [price(6), '€ 1.00']);
      assert.equal(site.requests.length, requestsAfterCrawl, 'nor while the results were shown');
    } finally {
      await session.close();
      await site.close();
    }
  });
});

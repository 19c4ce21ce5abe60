/**
 * Custom search and extraction (issue 30), as a user runs them: `npm run crawl -- URL --search … --extract …
 * --out x.csv --out x.jsonl`, in Chromium and in Firefox (the built extension each time). A local site plants
 * the values: prices in elements a CSS selector finds, authors in a meta tag an XPath reads, SKUs a regex
 * captures, a phrase on 3 of 12 pages. Each export must hold exactly the planted values, and the CSV must
 * round-trip through a CSV parser with one column per name. A bad rule stops the command line before any
 * browser starts, with the rule named.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { startLocalSite, type LocalSite, type Route } from '../../src/shells/cli/local-site.ts';
import { ROOT } from './helpers.ts';

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
      const routes: Record<string, Route> = {
        '/robots.txt': { body: 'User-agent: *\nAllow: /\n' },
        '/': page(1),
      };
      for (let n = 1; n <= PAGES; n++) routes[`/p/${n}`] = page(n);
      site = await startLocalSite(routes);
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
        const n = Number(/\/p\/(\d+)$/.exec(row.url)?.[1]);
        const said = DISCONTINUED.get(n) ?? 0;
        const prices = n === 5 ? [] : n === 6 ? [price(6), '€ 1.00'] : [price(n)];
        assert.deepEqual(row.searches, { discontinued: said, 'any case': said + (n === 9 ? 1 : 0) }, row.url);
        assert.deepEqual(row.extracted, { price: prices, author: [author(n)], sku: [sku(n)] }, row.url);
        const line = csv.find((r) => r['url'] === row.url);
        assert.ok(line !== undefined, row.url);
        assert.equal(line['search:discontinued'], String(said));
        assert.equal(line['search:any case'], String(said + (n === 9 ? 1 : 0)));
        assert.equal(line['extract:price'], prices.join(' | '));
        assert.equal(line['extract:author'], author(n));
        assert.equal(line['extract:sku'], sku(n));
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
    assert.match(run.stderr, /--extract: custom extractions: "price=css:\[\[": not a CSS selector/);
    const nested = await crawlCli(['http://127.0.0.1:9/', '--search', 'slow=regex:(a+)+$']);
    assert.equal(nested.code, 2);
    assert.match(nested.stderr, /nests repetition/);
  });
});

/**
 * Benchmark of the results browser's queries (`DexieCrawlPageQueries`) on a
 * crawl of many rows in a real, on-disk IndexedDB in headless Chromium. Not a
 * test: it asserts nothing, it measures and prints.
 *
 * `npm run bench:results -- [--rows 100000] [--repeat 5]`
 *
 * Seeds the rows in one browser session, closes it, then measures in a new
 * session on the same profile (so the first query opens the database as the
 * results page would). Each figure: the first run and the median of `repeat`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { findChromium } from '../../src/shells/cli/chromium.ts';
import QUIET_FLAGS from '../../src/shells/cli/chromium-flags.json' with { type: 'json' };
import type { ResultsBenchApi, Timing } from './results-bench-page.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: { rows: { type: 'string', default: '100000' }, repeat: { type: 'string', default: '5' } },
});
const rows = Number(values.rows);
const repeat = Number(values.repeat);
if (!Number.isInteger(rows) || rows < 1 || !Number.isInteger(repeat) || repeat < 1) {
  process.stderr.write('usage: npm run bench:results -- [--rows N] [--repeat N]\n');
  process.exit(2);
}
const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** What the page exposes, as seen from Node. */
interface BenchWindow {
  resultsBench: ResultsBenchApi;
}

async function serve(): Promise<Server> {
  const bundle = await build({
    entryPoints: [join(ROOT, 'test/bench/results-bench-page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  const html = readFileSync(join(ROOT, 'test/bench/results-bench.html'), 'utf8');
  const server = createServer((request, response) => {
    const isScript = request.url === '/results-bench-page.js';
    response.setHeader('content-type', isScript ? 'text/javascript' : 'text/html; charset=utf-8');
    response.end(isScript ? script : html);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return server;
}

async function withPage<T>(profileDir: string, origin: string, work: (page: Page) => Promise<T>): Promise<T> {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const context: BrowserContext = await chromium.launchPersistentContext(join(profileDir, 'user-data'), {
    executablePath: findChromium(process.env),
    headless: true,
    args: ['--headless=new', ...(isRoot ? ['--no-sandbox'] : []), ...QUIET_FLAGS],
    env: { ...process.env, TMPDIR: join(profileDir, 'tmp'), HOME: join(profileDir, 'home') },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'resultsBench' in window);
    return await work(page);
  } finally {
    await context.close();
  }
}

const profileDir = mkdtempSync(join(tmpdir(), 'tabcrawl-results-bench-'));
for (const dir of ['user-data', 'tmp', 'home']) mkdirSync(join(profileDir, dir), { recursive: true });
const server = await serve();
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
try {
  log(`seeding ${rows} rows into an on-disk IndexedDB`);
  const seedMs = await withPage(profileDir, origin, (page) =>
    page.evaluate((count) => (window as unknown as BenchWindow).resultsBench.seed(count), rows),
  );
  log(`seeded in ${(seedMs / 1000).toFixed(1)} s; measuring in a new browser session (${repeat} runs each)`);
  const timings: Timing[] = await withPage(profileDir, origin, (page) =>
    page.evaluate((times) => (window as unknown as BenchWindow).resultsBench.measure(times), repeat),
  );
  console.log(`results queries over ${rows} rows (${process.platform} ${process.arch}, node ${process.version}); ms`);
  console.table(
    timings.map((t) => ({
      query: t.name,
      'first ms': Math.round(t.firstMs),
      'median ms': Math.round(t.medianMs),
      total: t.total,
    })),
  );
  mkdirSync(resolve(ROOT, '.tmp/bench'), { recursive: true });
  writeFileSync(
    resolve(ROOT, `.tmp/bench/results-${rows}.json`),
    `${JSON.stringify({ rows, repeat, seedMs, timings }, null, 2)}\n`,
  );
} finally {
  server.close();
  rmSync(profileDir, { recursive: true, force: true });
}

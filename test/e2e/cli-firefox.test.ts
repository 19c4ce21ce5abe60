/**
 * The acceptance, as a user runs it: `npm run crawl -- --browser firefox <url> --out x.wacz`
 * crawls politely in Firefox (judged from the server's log) and writes an archive that warcio.js reads
 * and ReplayWeb.page opens (in Chromium: the archive, not the browser that wrote it, is under test).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { findChromium } from '../../src/shells/cli/chromium.ts';
import QUIET_FLAGS from '../../src/shells/cli/chromium-flags.json' with { type: 'json' };
import { checkWacz, responsePayload, type CheckedWacz } from '../support/archive-checks.ts';
import { openReplay, serveReplay, type ReplayServer } from '../support/replay-web-page.ts';
import { serverGaps } from '../support/server-log.ts';
import { EXACT_BODIES, startTestSite, type TestSite } from '../support/test-site.ts';
import { ROOT } from './helpers.ts';

const DELAY_MS = 100;

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

describe('npm run crawl -- --browser firefox', () => {
  let site: TestSite;
  let run: { code: number | null; stderr: string };
  let wacz: CheckedWacz;
  let waczBytes: Buffer;
  let rows: Record<string, unknown>[];
  const out = mkdtempSync(join(tmpdir(), 'tabcrawl-cli-firefox-'));

  before(async () => {
    site = await startTestSite();
    run = await crawlCli([
      '--browser',
      'firefox',
      `${site.origin}/`,
      '--delay',
      String(DELAY_MS / 1000),
      '--timeout',
      '1',
      '--out',
      join(out, 'x.wacz'),
      '--out',
      join(out, 'x.jsonl'),
    ]);
    waczBytes = readFileSync(join(out, 'x.wacz'));
    wacz = await checkWacz(waczBytes);
    rows = readFileSync(join(out, 'x.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  });
  after(async () => {
    await site?.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('exits 0, says it is starting Firefox only if slow, and sums up the crawl', () => {
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^tabcrawl: crawling http:\/\/127\.0\.0\.1:\d+\/$/m);
    assert.match(run.stderr, /^tabcrawl: wrote 18 URLs \(.+\) to .+x\.wacz$/m);
    assert.match(run.stderr, /^tabcrawl: crawl finished in .+: 18 URLs/m);
    assert.doesNotMatch(run.stderr, /Chromium/, 'nothing says Chromium when Firefox ran');
  });

  it('crawls politely: robots.txt first and once, nothing disallowed asked, no gap under the delay, its User-Agent', () => {
    assert.equal(site.requests[0]?.url, '/robots.txt');
    assert.equal(site.requests.filter((r) => r.url === '/robots.txt').length, 1);
    assert.equal(
      site.requests.some((r) => r.url.startsWith('/private/secret')),
      false,
    );
    for (const gap of serverGaps(site.requests)) assert.ok(gap >= DELAY_MS, `a gap of ${gap.toFixed(1)} ms`);
    for (const request of site.requests)
      assert.match(request.userAgent ?? '', /^Mozilla\/5\.0 \(compatible; tabcrawl\/\d+\.\d+\.\d+; /);
  });

  it('records every URL of the site, redirects and errors as Chromium does', () => {
    const byPath = new Map(rows.map((row) => [new URL(String(row['url'])).pathname, row]));
    assert.deepEqual([...byPath.keys()].sort(), [...site.expectedPaths].sort());
    assert.equal(byPath.get('/old')?.['status'], 301);
    assert.equal(byPath.get('/old')?.['location'], `${site.origin}/new`);
    assert.equal(byPath.get('/missing')?.['status'], 404);
    assert.equal(byPath.get('/broken')?.['status'], 500);
    assert.equal(byPath.get('/private/secret')?.['blockedBy'], 'robots');
  });

  it('writes a WACZ whose bodies warcio.js reads back byte for byte', () => {
    for (const [path, body] of Object.entries(EXACT_BODIES)) {
      assert.deepEqual(new Uint8Array(responsePayload(wacz.records, `${site.origin}${path}`) ?? []), body, path);
    }
    const requests = wacz.records.filter((record) => record.type === 'request');
    assert.ok(requests.length >= 15, `${requests.length} request records`);
    for (const request of requests)
      assert.match(request.http?.get('user-agent') ?? '', /tabcrawl\//, 'the request as sent, User-Agent included');
  });

  it('opens in ReplayWeb.page, which shows the start page as it was', async () => {
    let browser: Browser | null = null;
    let replay: ReplayServer | null = null;
    try {
      browser = await chromium.launch({
        executablePath: findChromium(process.env),
        args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ...QUIET_FLAGS],
      });
      replay = await serveReplay(waczBytes);
      const page = await browser.newPage();
      const before = site.requests.length;
      const frame = await openReplay(page, replay, `${site.origin}/`);
      const start = rows.find((row) => row['url'] === `${site.origin}/`);
      assert.ok(typeof start?.['title'] === 'string' && start['title'] !== '');
      assert.equal(await frame.title(), start['title'], 'the replayed page is the crawled one');
      assert.ok((await frame.locator('a[href]').count()) > 3, 'with its links');
      assert.equal(site.requests.length, before, 'the replay never reached the live site');
    } finally {
      await browser?.close();
      await replay?.close();
    }
  });
});

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startLocalSite } from '../../src/shells/cli/local-site.ts';
import { startTestSite, type TestSite } from '../support/test-site.ts';
import { ROOT } from './helpers.ts';
import { closedPort } from '../support/closed-port.ts';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Longest time without any stderr output, from the first output to the exit, in ms. */
  longestSilenceMs: number;
  /** When the first stderr output came, ms since the epoch (the exit time if none). */
  firstOutputAt: number;
}

/** Runs `npm run crawl -- ...args` as a user would (through tsx, like the npm script). */
function crawlCli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(resolve(ROOT, 'node_modules/.bin/tsx'), ['src/shells/cli/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    let lastOutputAt: number | null = null;
    let longestSilenceMs = 0;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (lastOutputAt !== null) longestSilenceMs = Math.max(longestSilenceMs, Date.now() - lastOutputAt);
      lastOutputAt = Date.now();
    });
    let firstOutputAt: number | null = null;
    child.stderr.once('data', () => (firstOutputAt = Date.now()));
    child.on('close', (code) =>
      done({
        code,
        stdout,
        stderr,
        longestSilenceMs: Math.max(longestSilenceMs, Date.now() - (lastOutputAt ?? Date.now())),
        firstOutputAt: firstOutputAt ?? Date.now(),
      }),
    );
  });
}

describe('the command line', () => {
  let site: TestSite;
  let out: string;

  before(async () => {
    site = await startTestSite();
    out = mkdtempSync(join(tmpdir(), 'tabcrawl-cli-'));
  });
  after(async () => {
    await site.close();
    rmSync(out, { recursive: true, force: true });
  });

  for (const [args, pattern] of [
    [['ftp://example.com/'], /only http and https/],
    [['chrome://extensions'], /only http and https/],
    [['http://127.0.0.1/', '--delay', '-1'], /--delay/],
    [['http://127.0.0.1/', '--max-pages', 'many'], /--max-pages/],
    [['http://127.0.0.1/', '--bogus'], /--bogus/],
    [[], /start URL/i],
    [['http://127.0.0.1/', '--out', 'x.pdf'], /\.jsonl/],
    [
      ['http://127.0.0.1:8090/ with space'],
      /space in it .*; did you mean http:\/\/127\.0\.0\.1:8090\/%20with%20space \?$/,
    ],
  ] as const) {
    it(`exits 2 with a one-line message for: ${args.join(' ') || '(no arguments)'}`, async () => {
      const run = await crawlCli([...args]);
      assert.equal(run.code, 2, run.stderr);
      const [first] = run.stderr.trim().split('\n');
      assert.match(first ?? '', /^tabcrawl: /);
      assert.match(first ?? '', pattern);
    });
  }

  it('crawls a local site, prints progress on stderr and writes JSON Lines and the URLs it left out, exit 0', async () => {
    const file = join(out, 'nested', 'site.jsonl');
    const leftOutFile = join(out, 'nested', 'site.not-crawled.csv');
    const run = await crawlCli([
      `${site.origin}/`,
      '--out',
      file,
      '--out',
      leftOutFile,
      '--delay',
      '0.05',
      '--max-pages',
      '12',
      '--exclude',
      '*/p/3',
      '--timeout',
      '5',
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /fetched \d+ · queued \d+ · with errors \d+ · blocked \d+/);
    const rows = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(rows.length, 12);
    for (const key of [
      'url',
      'status',
      'contentType',
      'contentLength',
      'location',
      'depth',
      'referrer',
      'fetchedAt',
      'responseTimeMs',
      'sha256',
      'duplicateOf',
      'anchors',
      'links',
      'blockedBy',
      'error',
    ]) {
      assert.ok(key in (rows[0] ?? {}), `rows carry ${key}`);
    }
    assert.equal(rows[0]?.url, `${site.origin}/`);
    assert.equal(
      rows.some((r) => r.url === `${site.origin}/p/3`),
      false,
      '--exclude honoured',
    );
    assert.equal(
      site.requests.some((r) => r.url === '/p/3'),
      false,
    );
    // The summary says what the limit and the pattern left out: every link (and redirect target) of the site's
    // own pages without a row.
    const crawled = new Set(rows.map((r) => r.url));
    const found = rows.flatMap((r) => [
      ...(r.links as string[]),
      ...(typeof r.location === 'string' ? [r.location] : []),
    ]);
    const leftOut = new Set(found.filter((url) => url.startsWith(`${site.origin}/`) && !crawled.has(url)));
    assert.ok(leftOut.has(`${site.origin}/p/3`));
    const pastLimit = leftOut.size - 1;
    assert.ok(pastLimit > 0);
    assert.ok(
      run.stderr.includes(
        `tabcrawl: ${leftOut.size} URLs not crawled: ${pastLimit} past the page limit (12), 1 excluded by a pattern\n`,
      ),
      run.stderr,
    );
    assert.ok(run.stderr.includes(`tabcrawl: wrote ${leftOut.size} URLs (`), run.stderr);
    // --out NAME.not-crawled.csv lists every one: the URL, why, the page that linked it.
    const lines = readFileSync(leftOutFile, 'utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    assert.equal(lines[0], 'url,reason,why,depth,found_on');
    const listed = lines.slice(1).map((line) => line.split(','));
    assert.deepEqual(new Set(listed.map(([url]) => url)), leftOut);
    const excluded = listed.find(([url]) => url === `${site.origin}/p/3`);
    assert.equal(excluded?.[1], 'excluded');
    assert.ok(
      rows.some((r) => r.url === excluded?.[4] && (r.links as string[]).includes(`${site.origin}/p/3`)),
      'found_on names a page that links it',
    );
  });

  it('exits 1 when the start URL cannot be reached, the reason first and no summary of nothing', async () => {
    const run = await crawlCli([`http://127.0.0.1:${await closedPort()}/`, '--delay', '0']);
    assert.equal(run.code, 1, run.stderr);
    const lines = run.stderr.trim().split('\n');
    const reason = lines.findIndex((line) =>
      /^tabcrawl: the crawl failed: could not reach http:\/\/127\.0\.0\.1:\d+/.test(line),
    );
    assert.ok(reason >= 0, run.stderr);
    assert.doesNotMatch(run.stderr, /crawl failed in|0 URLs/, 'no summary of a crawl that recorded nothing');
    assert.ok(
      reason < lines.indexOf('tabcrawl: no --out given: nothing written'),
      'the reason comes before what follows it',
    );
  });

  it('prefixes each of its messages once (progress lines are figures, without a prefix)', async () => {
    const run = await crawlCli([`http://127.0.0.1:${await closedPort()}/`, '--delay', '0']);
    for (const line of run.stderr.trim().split('\n'))
      assert.match(line, /^(tabcrawl: (?!tabcrawl:)|fetched \d+ · )/, line);
  });

  it('is never silent for more than 10 s: a 12 s Crawl-delay is named while it waits', async () => {
    const slow = await startLocalSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nCrawl-delay: 12\n' },
      // One page: robots.txt, then 12 s later the page; the note comes at about 10 s.
      '/': { headers: { 'content-type': 'text/html' }, body: 'one page' },
    });
    try {
      const run = await crawlCli([`${slow.origin}/`, '--delay', '0']);
      assert.equal(run.code, 0, run.stderr);
      assert.match(
        run.stderr,
        /^tabcrawl: still crawling, \d+ s in: 127\.0\.0\.1:\d+ · 1 queued · waiting \d+ s · robots\.txt Crawl-delay 12 s$/m,
      );
      assert.ok(run.longestSilenceMs <= 10_000, `silent for ${run.longestSilenceMs} ms:\n${run.stderr}`);
    } finally {
      await slow.close();
    }
  });

  it('runs as the tabcrawl command from any folder, writing its outputs there', async () => {
    const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { bin?: Record<string, string> };
    const bin = resolve(ROOT, pkg.bin?.['tabcrawl'] ?? 'missing');
    assert.ok((statSync(bin).mode & 0o111) !== 0, 'the bin script is executable');
    const elsewhere = mkdtempSync(join(tmpdir(), 'tabcrawl-elsewhere-'));
    try {
      const run = (args: string[]): Promise<Pick<Run, 'code' | 'stdout' | 'stderr'>> =>
        new Promise((done) => {
          const child = spawn(bin, args, { cwd: elsewhere, env: process.env });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
          child.on('close', (code) => done({ code, stdout, stderr }));
        });
      const help = await run(['--help']);
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /tabcrawl <start-url> \[options\]/);
      const crawl = await run([`${site.origin}/`, '--delay', '0.02', '--max-pages', '3', '--out', 'here.csv']);
      assert.equal(crawl.code, 0, crawl.stderr);
      assert.match(readFileSync(join(elsewhere, 'here.csv'), 'utf8'), new RegExp(`${site.origin}/`));
      assert.equal((await run(['ftp://example.com/'])).code, 2, 'the same exit codes');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('exits 1 with one prefixed line naming the reason when Chromium does not start', async () => {
    const broken = join(out, 'broken-chromium');
    writeFileSync(
      broken,
      '#!/bin/sh\necho "chromium: error while loading shared libraries: libnss3.so" >&2\nexit 127\n',
      { mode: 0o755 },
    );
    const run = await crawlCli([`${site.origin}/`], { CHROME_PATH: broken });
    assert.equal(run.code, 1, run.stderr);
    for (const line of run.stderr.trim().split('\n')) assert.match(line, /^tabcrawl: (?!tabcrawl:)/, line);
    assert.match(
      run.stderr,
      /^tabcrawl: Chromium \(.*broken-chromium\) did not start \(exit code 127\): chromium: error while loading shared libraries: libnss3\.so; set CHROME_PATH/m,
    );
  });

  it('is never silent for more than 10 s while Chromium is slow to start', async () => {
    const slow = join(out, 'slow-chromium');
    writeFileSync(slow, '#!/bin/sh\nsleep 12\necho "chromium: gave up" >&2\nexit 1\n', { mode: 0o755 });
    const startedAt = Date.now();
    const run = await crawlCli([`${site.origin}/`], { CHROME_PATH: slow });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^tabcrawl: starting Chromium with the extension, \d+ s so far$/m);
    assert.ok(
      run.longestSilenceMs <= 10_000 && run.firstOutputAt - startedAt <= 10_000,
      `silent for ${run.longestSilenceMs} ms:\n${run.stderr}`,
    );
  });

  it('exits 1 with advice when no Chromium can be found', async () => {
    const run = await crawlCli([`${site.origin}/`], { CHROME_PATH: '/nonexistent/chromium' });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /CHROME_PATH/);
  });
});

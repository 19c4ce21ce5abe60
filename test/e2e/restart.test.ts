/**
 * Restarts, end to end, on a site whose pages use page resources (a
 * stylesheet chain, a font, images, a missing one): the service worker stopped at random moments, the
 * browser closed mid-crawl and started again on the same profile, and a worker
 * left alone through a response and a Crawl-delay each longer than Chromium's
 * 30 s idle limit. Every case checks, from the server's own log, that no URL is
 * lost, at most one request repeats per interruption, and no gap between two
 * requests to the host is shorter than its delay.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findChromium } from '../../src/shells/cli/chromium.ts';
import { launchExtension, type ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import { startLocalSite, type RequestLogEntry } from '../../src/shells/cli/local-site.ts';
import type { JsonlRow } from '../../src/export/jsonl.ts';
import { launchPipeBrowser } from '../support/pipe-browser.ts';
import { startTestSite, type TestSite } from '../support/test-site.ts';
import { crawlToEnd, DIST_DIR, exportRows, sleep } from './helpers.ts';

/** Gaps between the end of one response and the start of the next request, in ms, as the server saw them. */
function serverGaps(requests: RequestLogEntry[]): number[] {
  return requests.slice(1).map((r, i) => r.startedAt - (requests[i]?.endedAt ?? Number.POSITIVE_INFINITY));
}

/** Requests beyond the first of each URL. */
function repeatedRequests(requests: RequestLogEntry[]): number {
  const counts = new Map<string, number>();
  for (const request of requests) counts.set(request.url, (counts.get(request.url) ?? 0) + 1);
  return [...counts.values()].reduce((sum, n) => sum + n - 1, 0);
}

/** A URL of the test site as its path (each test site has a port of its own). */
const pathOf = (url: string | null): string | null => (url === null ? null : new URL(url).pathname);

/** What a crawl found, without the fields that depend on timing or the site's port. */
function comparable(rows: JsonlRow[]): Record<string, unknown>[] {
  return rows
    .map((row) => ({
      url: pathOf(row.url),
      status: row.status,
      contentType: row.contentType,
      location: pathOf(row.location),
      depth: row.depth,
      title: row.title,
      sha256: row.sha256,
      kind: (row as { kind?: unknown }).kind ?? null,
      blockedBy: row.blockedBy,
      errorCode: row.errorCode,
      inlinks: row.inlinks,
    }))
    .sort((a, b) => ((a.url ?? '') < (b.url ?? '') ? -1 : 1));
}

/** A small deterministic generator (mulberry32): random moments that a failure can be replayed from. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const DELAY_MS = 200;
const launch = (profileDir?: string): Promise<ExtensionSession> =>
  launchExtension({
    distDir: DIST_DIR,
    chromePath: findChromium(process.env),
    copyDist: true,
    ...(profileDir === undefined ? {} : { profileDir }),
  });

describe('a crawl survives restarts', () => {
  let undisturbed: Record<string, unknown>[] = [];

  /** The reference: the same site crawled with nothing interrupting. */
  async function crawlUndisturbed(): Promise<Record<string, unknown>[]> {
    if (undisturbed.length > 0) return undisturbed;
    const session = await launch();
    const site = await startTestSite({ pages: 16, resources: true });
    try {
      const crawl = await crawlToEnd(session, { startUrl: `${site.origin}/`, delayMs: DELAY_MS, timeoutMs: 5000 });
      assert.equal(crawl.state, 'finished');
      undisturbed = comparable(await exportRows(session, crawl.id));
      // The reference holds the resources: 16 images, two stylesheets, a font, a background and a missing image.
      const resources = undisturbed.filter((row) => row['kind'] === 'resource').map((row) => row['url']);
      assert.deepEqual(
        resources.sort(),
        [
          '/s/bg.png',
          '/s/font.woff2',
          '/s/missing.png',
          '/s/more.css',
          ...Array.from({ length: 16 }, (_, i) => `/s/p${i}.png`),
          '/s/site.css',
        ].sort(),
      );
      return undisturbed;
    } finally {
      await session.close();
      await site.close();
    }
  }

  it('stops the worker at ten random moments and still stores the same rows as an undisturbed crawl', async () => {
    const expected = await crawlUndisturbed();
    const session = await launch();
    const site: TestSite = await startTestSite({ pages: 16, resources: true });
    const random = randomFrom(20261121);
    try {
      let stops = 0;
      let nextStopAt = Date.now() + 200 + random() * 800;
      const crawl = await crawlToEnd(
        session,
        { startUrl: `${site.origin}/`, delayMs: DELAY_MS, timeoutMs: 5000 },
        async () => {
          if (stops >= 10 || Date.now() < nextStopAt) return;
          await session.stopServiceWorker();
          stops += 1;
          nextStopAt = Date.now() + 150 + random() * 700;
        },
      );
      assert.ok(stops >= 5, `the worker was stopped only ${stops} times mid-crawl`);
      assert.equal(crawl.state, 'finished', crawl.message ?? '');
      const rows = comparable(await exportRows(session, crawl.id));
      assert.deepEqual(rows, expected, 'the same rows as the undisturbed crawl');
      const repeats = repeatedRequests(site.requests);
      assert.ok(repeats <= stops, `${repeats} repeated requests for ${stops} stops`);
      assert.equal(site.requests.filter((r) => r.url === '/robots.txt').length, 1);
      assert.ok(!site.requests.some((r) => r.url === '/private/secret'), 'a disallowed URL was requested');
      for (const gap of serverGaps(site.requests))
        assert.ok(gap >= DELAY_MS, `a gap of ${gap.toFixed(1)} ms across a restart`);
    } finally {
      await session.close();
      await site.close();
    }
  });

  it('resumes a crawl by itself when the browser is closed mid-crawl and started again on the same profile', async () => {
    const expected = await crawlUndisturbed();
    const profileDir = mkdtempSync(join(tmpdir(), 'tabcrawl-restart-'));
    const site = await startTestSite({ pages: 16, resources: true });
    let session = await launch(profileDir);
    try {
      const { crawl } = await session.request('crawl/start', {
        settings: { startUrl: `${site.origin}/`, delayMs: DELAY_MS, timeoutMs: 5000 },
      });
      while (site.requests.length < 8) await sleep(50);
      await session.context.close();
      const closedAt = Date.now();
      const seenBeforeClose = site.requests.length;

      session = await launch(profileDir);
      // No message first: the crawl must go on by itself once the browser is back.
      while (site.requests.length === seenBeforeClose && Date.now() - closedAt < 30_000) await sleep(100);
      assert.ok(
        site.requests.length > seenBeforeClose,
        'the crawl did not resume by itself within 30 s of the restart',
      );
      const deadline = Date.now() + 120_000;
      let state = 'running';
      while (state === 'running' && Date.now() < deadline) {
        await sleep(300);
        state = (await session.request('crawl/get', { crawlId: crawl.id })).crawl.state;
      }
      const { crawl: ended } = await session.request('crawl/get', { crawlId: crawl.id });
      assert.equal(ended.state, 'finished', ended.message ?? '');
      assert.match(
        ended.message ?? '',
        /restarted during this crawl; it resumed by itself/,
        'the crawl says it was interrupted',
      );
      const rows = comparable(await exportRows(session, crawl.id));
      assert.deepEqual(rows, expected, 'the same rows as the undisturbed crawl');
      assert.ok(
        repeatedRequests(site.requests) <= 1,
        `${repeatedRequests(site.requests)} repeated requests for one restart`,
      );
      assert.equal(site.requests.filter((r) => r.url === '/robots.txt').length, 1);
      for (const gap of serverGaps(site.requests))
        assert.ok(gap >= DELAY_MS, `a gap of ${gap.toFixed(1)} ms across the browser restart`);
    } finally {
      await session.context.close().catch(() => undefined);
      await site.close();
      const { rmSync } = await import('node:fs');
      rmSync(profileDir, { recursive: true, force: true });
    }
  });

  it('keeps its worker alive through a 32 s response and a 32 s Crawl-delay, with nothing else waking it', async () => {
    const SLOW_MS = 32_000;
    const site = await startLocalSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nCrawl-delay: 32\n' },
      '/': { headers: { 'content-type': 'text/html' }, body: '<title>home</title><a href="/slow">slow</a>' },
      '/slow': { delayMs: SLOW_MS, headers: { 'content-type': 'text/html' }, body: '<title>slow</title>' },
    });
    const browser = await launchPipeBrowser({
      chromePath: findChromium(process.env),
      distDir: DIST_DIR,
      profileDir: mkdtempSync(join(tmpdir(), 'tabcrawl-alive-')),
    });
    try {
      const { crawl } = await browser.request('crawl/start', {
        settings: { startUrl: `${site.origin}/`, delayMs: 0, timeoutMs: 60_000 },
      });
      const startedWorkers = browser.workerEvents.length;
      // Nothing talks to the worker now: wait on the server's log alone until /slow was answered.
      const deadline = Date.now() + 150_000;
      while (!site.requests.some((r) => r.url === '/slow' && Number.isFinite(r.endedAt)) && Date.now() < deadline)
        await sleep(500);
      await sleep(1000);
      const died = browser.workerEvents.slice(startedWorkers).filter((event) => event.event === 'destroyed');
      assert.deepEqual(died, [], 'the service worker was stopped while the crawl waited');
      const { crawl: ended } = await browser.request('crawl/get', { crawlId: crawl.id });
      assert.equal(ended.state, 'finished', ended.message ?? '');
      assert.equal(ended.counts.fetched, 2);
      assert.deepEqual(
        site.requests.map((r) => r.url),
        ['/robots.txt', '/', '/slow'],
        'each URL once, robots.txt first',
      );
      const gaps = serverGaps(site.requests);
      for (const gap of gaps.slice(1))
        assert.ok(gap >= 32_000, `a gap of ${gap.toFixed(0)} ms under the 32 s Crawl-delay`);
    } finally {
      await browser.close();
      await site.close();
    }
  });
});

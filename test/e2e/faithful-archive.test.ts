/**
 * The faithful archive, judged as its users judge it: a site whose pages need
 * every kind of page resource (some on a second host whose robots.txt
 * disallows a folder) is crawled by the built extension, exported as WACZ, and
 * opened in ReplayWeb.page, Webrecorder's own viewer; the replay must look
 * like the live site did in the same browser, pixel for pixel, with its images
 * loaded, its stylesheets applied and its scripts run. The servers' logs judge
 * politeness (robots.txt first and once per host, each resource once, nothing
 * disallowed, no gap under the delay) and warcio.js reads every body back.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import QUIET_FLAGS from '../../src/shells/cli/chromium-flags.json' with { type: 'json' };
import { findChromium } from '../../src/shells/cli/chromium.ts';
import { exportThroughPage } from '../../src/shells/cli/export-through-page.ts';
import type { RequestLogEntry } from '../../src/shells/cli/local-site.ts';
import type { JsonlRow } from '../../src/export/jsonl.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import { checkRowsArchived, checkWacz, responsePayload, type CheckedWacz } from '../support/archive-checks.ts';
import { openReplay, serveReplay, type ReplayServer } from '../support/replay-web-page.ts';
import { startResourceSites, type ResourceSites } from '../support/resource-site.ts';
import { requestCounts, serverGaps } from '../support/server-log.ts';
import { crawlToEnd, exportRows, launch } from './helpers.ts';

const DELAY_MS = 100;
const VIEWPORT = { width: 800, height: 600 };
/**
 * Pixels that may differ between the live page and its replay, as a share of the screenshot. Both are drawn
 * by the same browser from the same bytes, so any real loss (an image, a stylesheet, a script's text) shows
 * as thousands of pixels; this allows a little anti-aliasing noise only.
 */
const MAX_DIFFERENT_PIXELS = 0.002;

/** What a page shows, read from its document: the facts a broken archive gets wrong. */
interface PageLook {
  /** Images by their original (un-rewritten) file name: loaded (`naturalWidth` > 0) or not. */
  images: Record<string, boolean>;
  /** Text the scripts wrote, by element id. */
  scriptText: Record<string, string>;
  /** Computed styles the stylesheets set (the `@import` chain, `url()` backgrounds, a CDN sheet, inline styles). */
  styles: Record<string, string>;
  /** The iframe's own image loaded. */
  frameImageLoaded: boolean;
}

/**
 * Reads a page's look in its document. A string, not a function: the test's compiler names inner
 * functions with a helper that does not exist in the page.
 */
const READ_LOOK = `(async () => {
  const images = Array.from(document.images);
  await Promise.all(images.map((img) => (img.complete ? null : new Promise((done) => img.addEventListener('loadend', done)))));
  const fileName = (src) => src.split('/').pop();
  const style = (selector, property) => {
    const element = document.querySelector(selector);
    return element === null ? 'missing' : getComputedStyle(element).getPropertyValue(property);
  };
  // Background images are named by file only: replay rewrites their URLs.
  const background = (selector) => fileName(style(selector, 'background-image').replace(/^url\\("?|"?\\)$/g, ''));
  return {
    images: Object.fromEntries(images.map((img) => [fileName(img.currentSrc || img.src), img.naturalWidth > 0])),
    scriptText: { 'from-script': document.getElementById('from-script')?.textContent ?? '', 'from-module': document.getElementById('from-module')?.textContent ?? '' },
    styles: {
      'h1 color (main.css)': style('h1', 'color'),
      '#from-script color (colors.css, imported twice over)': style('#from-script', 'color'),
      'body background (main.css url())': background('body'),
      '.cdn-box background (cdn.css on the other host)': background('.cdn-box'),
      '.from-style-block background (<style>)': background('.from-style-block'),
    },
  };
})()`;

/** Reads a page's look in `frame` (the live page, or ReplayWeb.page's frame of the archived page). */
async function lookOf(frame: Frame): Promise<PageLook> {
  const look = (await frame.evaluate(READ_LOOK)) as Omit<PageLook, 'frameImageLoaded'>;
  const child = frame.childFrames()[0];
  const frameImageLoaded =
    child === undefined
      ? false
      : ((await child.evaluate("(document.querySelector('img')?.naturalWidth ?? 0) > 0")) as boolean);
  return { ...look, frameImageLoaded };
}

/** Pixels that differ between two screenshots of the same size, as a share of all. */
function differentShare(a: Buffer, b: Buffer): number {
  const left = PNG.sync.read(a);
  const right = PNG.sync.read(b);
  assert.deepEqual([right.width, right.height], [left.width, left.height], 'screenshots of one size');
  return (
    pixelmatch(left.data, right.data, undefined, left.width, left.height, { threshold: 0.1 }) /
    (left.width * left.height)
  );
}

/** Opens `url` in a fresh page of `browser` and waits until it and its resources have loaded. */
async function openLive(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  await page.goto(url, { waitUntil: 'networkidle' });
  return page;
}

describe('a faithful archive replays as the site looked', () => {
  let sites: ResourceSites;
  let crawl: CrawlSummary;
  let rows: JsonlRow[];
  let wacz: CheckedWacz;
  let waczBytes: Buffer;
  /** The servers' logs at the end of the crawl, before anything else asked them. */
  let crawlLog: { site: RequestLogEntry[]; cdn: RequestLogEntry[] };
  let browser: Browser;
  let replay: ReplayServer;
  const out = mkdtempSync(join(tmpdir(), 'tabcrawl-faithful-'));
  const row = (url: string): JsonlRow | undefined => rows.find((r) => r.url === url);

  before(async () => {
    sites = await startResourceSites();
    const session = await launch();
    try {
      crawl = await crawlToEnd(session, { startUrl: `${sites.site.origin}/`, delayMs: DELAY_MS, timeoutMs: 5000 });
      crawlLog = { site: [...sites.site.requests], cdn: [...sites.cdn.requests] };
      rows = await exportRows(session, crawl.id);
      await exportThroughPage(session, crawl.id, 'wacz', join(out, 'site.wacz'));
    } finally {
      await session.close();
    }
    waczBytes = readFileSync(join(out, 'site.wacz'));
    wacz = await checkWacz(waczBytes);
    browser = await chromium.launch({
      executablePath: findChromium(process.env),
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ...QUIET_FLAGS],
    });
    replay = await serveReplay(waczBytes);
  });

  after(async () => {
    await browser?.close();
    await replay?.close();
    await sites?.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('finishes, counting pages, resources and files apart', () => {
    assert.equal(crawl.state, 'finished', crawl.message ?? '');
    const kinds = (kind: string): string[] =>
      rows
        .filter((r) => r.kind === kind)
        .map((r) => new URL(r.url).pathname)
        .sort();
    assert.deepEqual(kinds('page'), ['/', '/about', '/frame'], 'the iframe is a page');
    assert.deepEqual(kinds('file'), ['/docs/guide.pdf', '/img/photo.png'], 'linked files');
    assert.equal(crawl.counts.files, 2);
    assert.equal(crawl.counts.resources, kinds('resource').length);
    // Every other path of both hosts but robots.txt, the missing image and the disallowed script included.
    const notResources = new Set(['/robots.txt', ...kinds('page'), ...kinds('file')]);
    const resources = [
      ...sites.sitePaths.filter((p) => !notResources.has(p)).map((p) => `${sites.site.origin}${p}`),
      ...[...sites.cdnPaths, sites.disallowedCdnPath]
        .filter((p) => !notResources.has(p))
        .map((p) => `${sites.cdn.origin}${p}`),
    ];
    assert.deepEqual(
      rows
        .filter((r) => r.kind === 'resource')
        .map((r) => r.url)
        .sort(),
      resources.sort(),
    );
  });

  it('asks each host for robots.txt first and once, and for every resource once', () => {
    for (const [name, log, paths] of [
      ['site', crawlLog.site, sites.sitePaths],
      ['cdn', crawlLog.cdn, sites.cdnPaths],
    ] as const) {
      assert.equal(log[0]?.url, '/robots.txt', `${name}: robots.txt first`);
      const counts = requestCounts(log);
      assert.deepEqual([...counts.keys()].sort(), [...paths].sort(), `${name}: exactly these paths`);
      for (const [path, count] of counts)
        assert.equal(count, 1, `${name}: ${path} asked for once, though two pages use some`);
      for (const request of log)
        assert.match(request.userAgent ?? '', /tabcrawl/, `${name}: ${request.url} names Tabcrawl`);
    }
  });

  it('never asks for what the other host disallows, and records it as blocked', () => {
    assert.equal(
      crawlLog.cdn.some((r) => r.url.startsWith('/private/')),
      false,
    );
    const blocked = row(`${sites.cdn.origin}${sites.disallowedCdnPath}`);
    assert.equal(blocked?.kind, 'resource');
    assert.equal(blocked?.blockedBy, 'robots');
  });

  it('keeps the delay between any two requests to one host, resources included', () => {
    for (const [name, log] of [
      ['site', crawlLog.site],
      ['cdn', crawlLog.cdn],
    ] as const) {
      for (const gap of serverGaps(log))
        assert.ok(gap >= DELAY_MS, `${name}: a gap of ${gap.toFixed(1)} ms is shorter than ${DELAY_MS} ms`);
    }
  });

  it('records the missing image with its status and the page that uses it', () => {
    const missing = row(`${sites.site.origin}/img/missing.png`);
    assert.equal(missing?.kind, 'resource');
    assert.equal(missing?.status, 404);
    assert.equal(missing?.referrer, `${sites.site.origin}/`, 'found on the home page');
    // The missing image, and the script robots.txt keeps out (the home page and /about both use it).
    assert.equal(row(`${sites.site.origin}/`)?.brokenResourceCount, 2, 'the home page counts its broken resources');
    assert.equal(row(`${sites.site.origin}/about`)?.brokenResourceCount, 1);
  });

  it('holds every body byte for byte in the WACZ, as warcio.js reads it', () => {
    checkRowsArchived(wacz, rows);
    for (const [url, body] of sites.bodies) {
      if (url.endsWith('/robots.txt') || url.includes('/private/')) continue;
      assert.deepEqual(responsePayload(wacz.records, url), body, `${url} is archived whole`);
    }
    assert.equal(responsePayload(wacz.records, `${sites.cdn.origin}${sites.disallowedCdnPath}`), undefined);
  });

  for (const path of ['/', '/about']) {
    it(`ReplayWeb.page shows ${path} as it looked live: same pixels, images loaded, styles applied, scripts run`, async () => {
      const url = `${sites.site.origin}${path}`;
      const livePage = await openLive(browser, url);
      const live = { shot: await livePage.screenshot(), look: await lookOf(livePage.mainFrame()) };
      await livePage.close();

      const before = { site: sites.site.requests.length, cdn: sites.cdn.requests.length };
      const context = await browser.newContext({ viewport: VIEWPORT });
      try {
        const page = await context.newPage();
        const frame = await openReplay(page, replay, url);
        const replayed = { look: await lookOf(frame), shot: await page.screenshot() };
        assert.deepEqual(replayed.look, live.look, 'what the page shows');
        for (const [image, loaded] of Object.entries(live.look.images))
          assert.equal(loaded, image !== 'missing.png', `live: ${image}`);
        assert.deepEqual(live.look.scriptText, sites.scriptText, 'the scripts ran live');
        if (path === '/') assert.equal(live.look.frameImageLoaded, true);
        const share = differentShare(live.shot, replayed.shot);
        assert.ok(
          share <= MAX_DIFFERENT_PIXELS,
          `${(share * 100).toFixed(2)} % of the pixels differ from the live page`,
        );
        assert.deepEqual(
          { site: sites.site.requests.length, cdn: sites.cdn.requests.length },
          before,
          'the replay never reached the live site',
        );
      } finally {
        await context.close();
      }
    });
  }
});

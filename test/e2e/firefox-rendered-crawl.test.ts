/**
 * The rendered crawl, end to end in headless Firefox ESR with the built add-on (`dist/firefox/`, issue 29):
 * the client-rendered shop of `test/support/rendered-site.ts`, as `rendered-crawl.test.ts` crawls it in
 * Chromium. Firefox's renderer answers through the network (docs/rendering-firefox.md): a render tab's request
 * is the crawl's, so the servers' logs hold the crawl's requests and the tabs' together, and every check of
 * politeness below counts both. With `always`, every page is found rendered with its script-written title and
 * links and every response its scripts used is stored; robots.txt first and once on each host, no disallowed
 * URL ever requested, no gap under the delay, the poll bounded by the cap; the WACZ replays a product page in
 * ReplayWeb.page (in Chromium) with its script-written text, style and image. With `auto`, the shells are
 * rendered and the static page not. Needs `npm run build:firefox` first; a few minutes on a loaded machine.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import QUIET_FLAGS from '../../src/shells/cli/chromium-flags.json' with { type: 'json' };
import { findChromium } from '../../src/shells/cli/chromium.ts';
import { exportThroughPage } from '../../src/shells/cli/export-through-page.ts';
import type { RequestLogEntry } from '../../src/shells/cli/local-site.ts';
import type { JsonlRow } from '../../src/export/jsonl.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import { openReplay, serveReplay, type ReplayServer } from '../support/replay-web-page.ts';
import { startRenderedSite, type RenderedSite } from '../support/rendered-site.ts';
import { serverGaps } from '../support/server-log.ts';
import { launchFirefox } from './firefox-helpers.ts';
import { crawlToEnd, exportRows } from './helpers.ts';

const DELAY_MS = 150;
/** The render cap of these crawls: `/live` polls until it. */
const CAP_MS = 4000;

type Render = {
  outcome?: string;
  why?: string;
  capped?: boolean;
  refused?: { url: string; because: string }[];
} | null;
const renderOf = (row: JsonlRow | undefined): Render => (row as { render?: Render } | undefined)?.render ?? null;

/** Crawls the site with `render` in Firefox; returns the crawl, its rows, and the logs as they were when it ended. */
async function crawlSite(site: RenderedSite, render: 'auto' | 'always', out?: string) {
  const session = await launchFirefox();
  try {
    const crawl = await crawlToEnd(
      session,
      { startUrl: site.startUrl, delayMs: DELAY_MS, timeoutMs: 5000, render, renderTimeoutMs: CAP_MS },
      undefined,
      300_000,
    );
    const logs = { shop: [...site.logs.shop], api: [...site.logs.api] };
    const rows = await exportRows(session, crawl.id);
    if (out !== undefined) await exportThroughPage(session, crawl.id, 'wacz', out);
    return { crawl, rows, logs };
  } finally {
    await session.close();
  }
}

describe('a rendered crawl (always) of a client-rendered shop, in Firefox', { timeout: 400_000 }, () => {
  let site: RenderedSite;
  let crawl: CrawlSummary;
  let rows: JsonlRow[];
  let logs: { shop: RequestLogEntry[]; api: RequestLogEntry[] };
  let browser: Browser | undefined;
  let replay: ReplayServer | undefined;
  const out = mkdtempSync(join(tmpdir(), 'tabcrawl-ff-rendered-'));
  const row = (url: string): JsonlRow | undefined => rows.find((r) => r.url === url);

  before(async () => {
    site = await startRenderedSite();
    ({ crawl, rows, logs } = await crawlSite(site, 'always', join(out, 'shop.wacz')));
  });

  after(async () => {
    await browser?.close();
    await replay?.close();
    await site?.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('finds every page, each rendered, with the title, links and words its script wrote', () => {
    assert.equal(crawl.state, 'finished', crawl.message ?? '');
    for (const page of site.pages) {
      const found = row(page.url);
      assert.equal(found?.status, 200, page.url);
      assert.equal(renderOf(found)?.outcome, 'rendered', `${page.url}: ${JSON.stringify(renderOf(found))}`);
      assert.equal(found?.title, page.title, page.url);
      assert.deepEqual(found?.links, page.links, page.url);
    }
    assert.equal(crawl.counts.rendered, site.pages.length);
  });

  it('stores every response the rendered pages used, on both hosts', () => {
    for (const page of site.pages)
      for (const url of page.uses) assert.equal(row(url)?.status, 200, `${url}, used by ${page.url}`);
  });

  it("asks each host for robots.txt first and once, never for a URL it disallows, and keeps every gap, the tabs' requests counted", () => {
    for (const [name, log] of Object.entries(logs)) {
      assert.equal(log[0]?.url, '/robots.txt', `${name}: robots.txt first`);
      assert.equal(log.filter((r) => r.url === '/robots.txt').length, 1, `${name}: robots.txt once`);
      for (const gap of serverGaps(log)) assert.ok(gap >= DELAY_MS, `${name}: a gap of ${gap.toFixed(1)} ms`);
      // The crawl's own fetches and the render tabs' requests alike carry the crawl's User-Agent.
      for (const request of log) assert.match(request.userAgent ?? '', /tabcrawl/, `${name}: ${request.url}`);
    }
    assert.deepEqual(site.disallowedRequests(), []);
    for (const url of [...site.disallowed.shop, ...site.disallowed.api])
      assert.equal(row(url)?.blockedBy, 'robots', url);
    const refused = renderOf(row(site.startUrl))?.refused ?? [];
    assert.ok(
      refused.some((r) => r.because === 'robots'),
      JSON.stringify(refused),
    );
  });

  it('bounds the page that polls forever: its render is capped, and its polls kept the gap', () => {
    const live = row(`${new URL(site.startUrl).origin}/live`);
    assert.equal(renderOf(live)?.capped, true, JSON.stringify(renderOf(live)));
    // In Firefox the poll, a URL the crawl holds once fetched, is asked again on each of its host's turns
    // (`go`): more than once, never closer than the delay (checked above), so at most one per gap in the cap.
    const polls = logs.shop.filter((r) => r.url === new URL(site.pollUrl).pathname).length;
    assert.ok(polls >= 1 && polls <= Math.ceil(CAP_MS / DELAY_MS) + 1, `${polls} polls`);
  });

  it("replays a product page in ReplayWeb.page (in Chromium) with its script-written text, style and image, from the bytes the tabs' requests were copied from", async () => {
    const product = site.pages.find((page) => page.path === '/product/1');
    assert.ok(product);
    browser = await chromium.launch({
      executablePath: findChromium(process.env),
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ...QUIET_FLAGS],
    });
    replay = await serveReplay(readFileSync(join(out, 'shop.wacz')));
    const page = await browser.newPage();
    const frame = await openReplay(page, replay, product.url);
    await frame.waitForFunction((h1) => document.querySelector('h1')?.textContent === h1, product.h1, {
      timeout: 20_000,
    });
    const look = (await frame.evaluate(`(async () => {
      const images = Array.from(document.querySelectorAll('#app img'));
      await Promise.all(images.map((img) => (img.complete ? null : new Promise((done) => img.addEventListener('loadend', done)))));
      return {
        text: document.getElementById('text')?.textContent ?? '',
        h1Color: getComputedStyle(document.querySelector('h1')).color,
        images: images.map((img) => img.naturalWidth > 0),
      };
    })()`)) as { text: string; h1Color: string; images: boolean[] };
    assert.equal(look.text, product.text);
    assert.equal(look.h1Color, 'rgb(181, 137, 0)', 'style.css, added by the script, applies');
    assert.ok(look.images.length > 0 && look.images.every(Boolean), `images loaded: ${JSON.stringify(look.images)}`);
  });
});

describe('rendering auto on the same shop, in Firefox', { timeout: 400_000 }, () => {
  it('renders the shells and not the static page', async () => {
    const site = await startRenderedSite();
    try {
      const { crawl, rows } = await crawlSite(site, 'auto');
      assert.equal(crawl.state, 'finished', crawl.message ?? '');
      for (const page of site.pages) {
        const render = renderOf(rows.find((r) => r.url === page.url));
        if (page.isShell) assert.match(render?.why ?? '', /^auto: /, page.url);
        else assert.equal(render, null, `${page.url} is not rendered`);
      }
      assert.deepEqual(site.disallowedRequests(), []);
    } finally {
      await site.close();
    }
  });
});

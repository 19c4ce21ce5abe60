/**
 * The rendered crawl, end to end in headless Chromium with the built extension (issue 29): a client-rendered
 * shop on two local hosts (`test/support/rendered-site.ts`: shells whose script fetches JSON on both hosts and
 * writes the links, titles and text, adds a stylesheet and an image, asks each host for a URL its robots.txt
 * disallows; a page that polls forever; a static page). With `always`, every page and every response the
 * pages use is found and stored; the servers' logs show robots.txt first and once on each host, no
 * disallowed URL ever requested, no gap under the delay counting every request, the poll bounded; titles and
 * links are the rendered ones; the WACZ replays a product page in ReplayWeb.page with its script-written
 * text, style and image. With `auto`, the shells are rendered and the static page not; with `off`, the crawl
 * reads the shells as they are. About a minute.
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
import { crawlToEnd, exportRows, launch } from './helpers.ts';

const DELAY_MS = 150;
/** The render cap of these crawls: `/live` polls until it. */
const CAP_MS = 4000;

type Render = { outcome?: string; why?: string; refused?: { url: string; because: string }[] } | null;
const renderOf = (row: JsonlRow | undefined): Render => (row as { render?: Render } | undefined)?.render ?? null;

/** Crawls the site with `render`; returns the crawl, its rows, and the logs as they were when it ended. */
async function crawlSite(site: RenderedSite, render: 'off' | 'auto' | 'always', out?: string) {
  const session = await launch();
  try {
    const crawl = await crawlToEnd(
      session,
      { startUrl: site.startUrl, delayMs: DELAY_MS, timeoutMs: 5000, render, renderTimeoutMs: CAP_MS },
      undefined,
      180_000,
    );
    const logs = { shop: [...site.logs.shop], api: [...site.logs.api] };
    const rows = await exportRows(session, crawl.id);
    if (out !== undefined) await exportThroughPage(session, crawl.id, 'wacz', out);
    return { crawl, rows, logs };
  } finally {
    await session.close();
  }
}

describe('a rendered crawl (always) of a client-rendered shop', () => {
  let site: RenderedSite;
  let crawl: CrawlSummary;
  let rows: JsonlRow[];
  let logs: { shop: RequestLogEntry[]; api: RequestLogEntry[] };
  let browser: Browser | undefined;
  let replay: ReplayServer | undefined;
  const out = mkdtempSync(join(tmpdir(), 'tabcrawl-rendered-'));
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
      assert.equal(renderOf(found)?.outcome, 'rendered', page.url);
      assert.equal(found?.title, page.title, page.url);
      assert.deepEqual(found?.links, page.links, page.url);
    }
    assert.equal(crawl.counts.rendered, site.pages.length);
  });

  it('stores every response the rendered pages used, on both hosts', () => {
    for (const page of site.pages)
      for (const url of page.uses) assert.equal(row(url)?.status, 200, `${url}, used by ${page.url}`);
  });

  it('asks each host for robots.txt first and once, never for a URL it disallows, and keeps every gap', () => {
    for (const [name, log] of Object.entries(logs)) {
      assert.equal(log[0]?.url, '/robots.txt', `${name}: robots.txt first`);
      assert.equal(log.filter((r) => r.url === '/robots.txt').length, 1, `${name}: robots.txt once`);
      for (const gap of serverGaps(log)) assert.ok(gap >= DELAY_MS, `${name}: a gap of ${gap.toFixed(1)} ms`);
      for (const request of log) assert.match(request.userAgent ?? '', /tabcrawl/, `${name}: ${request.url}`);
    }
    assert.deepEqual(site.disallowedRequests(), []);
    // The pages' own scripts asked for them: recorded as blocked, and on each page as refused by robots.txt.
    for (const url of [...site.disallowed.shop, ...site.disallowed.api])
      assert.equal(row(url)?.blockedBy, 'robots', url);
    const refused = renderOf(row(site.startUrl))?.refused ?? [];
    assert.ok(
      refused.some((r) => r.because === 'robots'),
      JSON.stringify(refused),
    );
  });

  it('bounds the page that polls forever: its render is capped, and the poll reached the server once', () => {
    const live = row(`${new URL(site.startUrl).origin}/live`);
    assert.equal((renderOf(live) as { capped?: boolean } | null)?.capped, true);
    assert.equal(logs.shop.filter((r) => r.url === new URL(site.pollUrl).pathname).length, 1);
  });

  it('replays a product page in ReplayWeb.page with its script-written text, style and image', async () => {
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
    // The script's product image (on the API host); the pixel robots.txt disallows was never archived.
    assert.ok(look.images.length > 0 && look.images.every(Boolean), `images loaded: ${JSON.stringify(look.images)}`);
  });
});

describe('rendering off and auto on the same shop', () => {
  it('auto renders the shells and not the static page', async () => {
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

  it('off reads the shells as served: the script-written pages are never found, nothing is rendered', async () => {
    const site = await startRenderedSite();
    try {
      const { crawl, rows, logs } = await crawlSite(site, 'off');
      assert.equal(crawl.state, 'finished', crawl.message ?? '');
      const home = rows.find((r) => r.url === site.startUrl);
      assert.equal(home?.title, 'Loading');
      assert.equal(renderOf(home), null);
      assert.equal(crawl.counts.renders ?? 0, 0);
      assert.equal(
        rows.find((r) => r.url.includes('/product/')),
        undefined,
      );
      assert.deepEqual(
        logs.api.map((r) => r.url),
        [],
        'the API host is never asked',
      );
    } finally {
      await site.close();
    }
  });
});

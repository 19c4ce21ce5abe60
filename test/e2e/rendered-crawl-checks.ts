/**
 * What the rendered crawl's end-to-end tests check, in Chromium (`rendered-crawl.test.ts`) and in Firefox
 * (`firefox-rendered-crawl.test.ts`) alike, of a crawl of the client-rendered shop
 * (`test/support/rendered-site.ts`): the crawl, its rows as exported, and the servers' logs as they were when
 * it ended. Each browser's test keeps what differs (how the never-ending poll is bounded).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import QUIET_FLAGS from '../../src/shells/cli/chromium-flags.json' with { type: 'json' };
import { findChromium } from '../../src/shells/cli/chromium.ts';
import { exportThroughPage, type SinkPageOpener } from '../../src/shells/cli/export-through-page.ts';
import type { ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import type { RequestLogEntry } from '../../src/shells/cli/local-site.ts';
import type { JsonlRow } from '../../src/export/jsonl.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import { openReplay, serveReplay } from '../support/replay-web-page.ts';
import type { RenderedSite } from '../support/rendered-site.ts';
import { serverGaps } from '../support/server-log.ts';
import { crawlToEnd, exportRows } from './helpers.ts';

/** The render cap of these crawls: `/live` polls until it. */
export const CAP_MS = 4000;

export type Render = {
  outcome?: string;
  why?: string;
  capped?: boolean;
  refused?: { url: string; because: string }[];
} | null;

/** A row's `render` object as the JSON Lines export writes it, or null when the page was not rendered. */
export const renderOf = (row: JsonlRow | undefined): Render => (row as { render?: Render } | undefined)?.render ?? null;

/** One crawl of the shop: its summary, its rows, and each host's log as it was when the crawl ended. */
export interface ShopCrawl {
  crawl: CrawlSummary;
  rows: JsonlRow[];
  logs: { shop: RequestLogEntry[]; api: RequestLogEntry[] };
}

/**
 * Crawls the shop with `render` in a browser `open` starts (and closes after), the delay `delayMs`; with
 * `waczPath`, also exports the crawl there as WACZ through the extension's own page.
 */
export async function crawlShop(
  open: () => Promise<Pick<ExtensionSession, 'request' | 'close'> & SinkPageOpener>,
  site: RenderedSite,
  options: { render: 'off' | 'auto' | 'always'; delayMs: number; timeoutMs: number; waczPath?: string },
): Promise<ShopCrawl> {
  const session = await open();
  try {
    const crawl = await crawlToEnd(
      session,
      {
        startUrl: site.startUrl,
        delayMs: options.delayMs,
        timeoutMs: 5000,
        render: options.render,
        renderTimeoutMs: CAP_MS,
      },
      undefined,
      options.timeoutMs,
    );
    const logs = { shop: [...site.logs.shop], api: [...site.logs.api] };
    const rows = await exportRows(session, crawl.id);
    if (options.waczPath !== undefined) await exportThroughPage(session, crawl.id, 'wacz', options.waczPath);
    return { crawl, rows, logs };
  } finally {
    await session.close();
  }
}

/** Every page found, each rendered, with the title and links its script wrote. */
export function checkRenderedAsScripted(site: RenderedSite, { crawl, rows }: ShopCrawl): void {
  assert.equal(crawl.state, 'finished', crawl.message ?? '');
  for (const page of site.pages) {
    const found = rows.find((r) => r.url === page.url);
    assert.equal(found?.status, 200, page.url);
    assert.equal(renderOf(found)?.outcome, 'rendered', `${page.url}: ${JSON.stringify(renderOf(found))}`);
    assert.equal(found?.title, page.title, page.url);
    assert.deepEqual(found?.links, page.links, page.url);
  }
  assert.equal(crawl.counts.rendered, site.pages.length);
}

/** Every response the rendered pages used stored, on both hosts. */
export function checkUsedStored(site: RenderedSite, { rows }: ShopCrawl): void {
  for (const page of site.pages)
    for (const url of page.uses)
      assert.equal(rows.find((r) => r.url === url)?.status, 200, `${url}, used by ${page.url}`);
}

/**
 * From the servers' logs (every request, the crawl's and the pages'): robots.txt first and once on each host,
 * no gap under `delayMs`, the crawl's User-Agent on each; no URL robots.txt disallows requested, each recorded
 * blocked, and on the start page refused by robots.txt.
 */
export function checkPolite(site: RenderedSite, { rows, logs }: ShopCrawl, delayMs: number): void {
  for (const [name, log] of Object.entries(logs)) {
    assert.equal(log[0]?.url, '/robots.txt', `${name}: robots.txt first`);
    assert.equal(log.filter((r) => r.url === '/robots.txt').length, 1, `${name}: robots.txt once`);
    for (const gap of serverGaps(log)) assert.ok(gap >= delayMs, `${name}: a gap of ${gap.toFixed(1)} ms`);
    for (const request of log) assert.match(request.userAgent ?? '', /tabcrawl/, `${name}: ${request.url}`);
  }
  assert.deepEqual(site.disallowedRequests(), []);
  // The pages' own scripts asked for them: recorded as blocked, and on each page as refused by robots.txt.
  for (const url of [...site.disallowed.shop, ...site.disallowed.api])
    assert.equal(rows.find((r) => r.url === url)?.blockedBy, 'robots', url);
  const refused = renderOf(rows.find((r) => r.url === site.startUrl))?.refused ?? [];
  assert.ok(
    refused.some((r) => r.because === 'robots'),
    JSON.stringify(refused),
  );
}

/** With `auto`: the shells rendered, the static page not, nothing disallowed requested. */
export function checkAutoRendersShells(site: RenderedSite, { crawl, rows }: ShopCrawl): void {
  assert.equal(crawl.state, 'finished', crawl.message ?? '');
  for (const page of site.pages) {
    const render = renderOf(rows.find((r) => r.url === page.url));
    if (page.isShell) assert.match(render?.why ?? '', /^auto: /, page.url);
    else assert.equal(render, null, `${page.url} is not rendered`);
  }
  assert.deepEqual(site.disallowedRequests(), []);
}

/** The WACZ at `waczPath` replays `/product/1` in ReplayWeb.page (in Chromium) with its script-written text, style and image. */
export async function checkReplaysProduct(site: RenderedSite, waczPath: string): Promise<void> {
  const product = site.pages.find((page) => page.path === '/product/1');
  assert.ok(product);
  const browser = await chromium.launch({
    executablePath: findChromium(process.env),
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ...QUIET_FLAGS],
  });
  const replay = await serveReplay(readFileSync(waczPath));
  try {
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
  } finally {
    await browser.close();
    await replay.close();
  }
}

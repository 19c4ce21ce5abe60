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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startRenderedSite, type RenderedSite } from '../support/rendered-site.ts';
import { launch } from './helpers.ts';
import {
  checkAutoRendersShells,
  checkPolite,
  checkRenderedAsScripted,
  checkReplaysProduct,
  checkUsedStored,
  crawlShop,
  renderOf,
  type ShopCrawl,
} from './rendered-crawl-checks.ts';

const DELAY_MS = 150;

/** Crawls the site with `render` in Chromium. */
const crawlSite = (site: RenderedSite, render: 'off' | 'auto' | 'always', waczPath?: string): Promise<ShopCrawl> =>
  crawlShop(launch, site, { render, delayMs: DELAY_MS, timeoutMs: 180_000, waczPath });

describe('a rendered crawl (always) of a client-rendered shop', () => {
  let site: RenderedSite;
  let shop: ShopCrawl;
  const out = mkdtempSync(join(tmpdir(), 'tabcrawl-rendered-'));

  before(async () => {
    site = await startRenderedSite();
    shop = await crawlSite(site, 'always', join(out, 'shop.wacz'));
  });

  after(async () => {
    await site?.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('finds every page, each rendered, with the title, links and words its script wrote', () => {
    checkRenderedAsScripted(site, shop);
  });

  it('stores every response the rendered pages used, on both hosts', () => {
    checkUsedStored(site, shop);
  });

  it('asks each host for robots.txt first and once, never for a URL it disallows, and keeps every gap', () => {
    checkPolite(site, shop, DELAY_MS);
  });

  it('bounds the page that polls forever: its render is capped, and the poll reached the server once', () => {
    const live = shop.rows.find((r) => r.url === `${new URL(site.startUrl).origin}/live`);
    assert.equal(renderOf(live)?.capped, true);
    assert.equal(shop.logs.shop.filter((r) => r.url === new URL(site.pollUrl).pathname).length, 1);
  });

  it('replays a product page in ReplayWeb.page with its script-written text, style and image', async () => {
    await checkReplaysProduct(site, join(out, 'shop.wacz'));
  });
});

describe('rendering off and auto on the same shop', () => {
  it('auto renders the shells and not the static page', async () => {
    const site = await startRenderedSite();
    try {
      checkAutoRendersShells(site, await crawlSite(site, 'auto'));
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

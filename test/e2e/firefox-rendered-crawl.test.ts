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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startRenderedSite, type RenderedSite } from '../support/rendered-site.ts';
import { launchFirefox } from './firefox-helpers.ts';
import {
  CAP_MS,
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

/** Crawls the site with `render` in Firefox. */
const crawlSite = (site: RenderedSite, render: 'auto' | 'always', waczPath?: string): Promise<ShopCrawl> =>
  crawlShop(launchFirefox, site, { render, delayMs: DELAY_MS, timeoutMs: 300_000, waczPath });

describe('a rendered crawl (always) of a client-rendered shop, in Firefox', { timeout: 400_000 }, () => {
  let site: RenderedSite;
  let shop: ShopCrawl;
  const out = mkdtempSync(join(tmpdir(), 'tabcrawl-ff-rendered-'));

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

  it("asks each host for robots.txt first and once, never for a URL it disallows, and keeps every gap, the tabs' requests counted", () => {
    // The crawl's own fetches and the render tabs' requests alike carry the crawl's User-Agent.
    checkPolite(site, shop, DELAY_MS);
  });

  it('bounds the page that polls forever: its render is capped, and its polls kept the gap', () => {
    const live = shop.rows.find((r) => r.url === `${new URL(site.startUrl).origin}/live`);
    assert.equal(renderOf(live)?.capped, true, JSON.stringify(renderOf(live)));
    // In Firefox the poll, a URL the crawl holds once fetched, is asked again on each of its host's turns
    // (`go`): more than once, never closer than the delay (checked above), so at most one per gap in the cap.
    const polls = shop.logs.shop.filter((r) => r.url === new URL(site.pollUrl).pathname).length;
    assert.ok(polls >= 1 && polls <= Math.ceil(CAP_MS / DELAY_MS) + 1, `${polls} polls`);
  });

  it("replays a product page in ReplayWeb.page (in Chromium) with its script-written text, style and image, from the bytes the tabs' requests were copied from", async () => {
    await checkReplaysProduct(site, join(out, 'shop.wacz'));
  });
});

describe('rendering auto on the same shop, in Firefox', { timeout: 400_000 }, () => {
  it('renders the shells and not the static page', async () => {
    const site = await startRenderedSite();
    try {
      checkAutoRendersShells(site, await crawlSite(site, 'auto'));
    } finally {
      await site.close();
    }
  });
});

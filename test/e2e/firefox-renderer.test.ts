/**
 * The Firefox renderer (`src/shells/background/adapters/firefox-renderer.ts`) in a real headless Firefox ESR:
 * a probe add-on, bundled here from the adapter and the fetcher decorator (`tab-request-fetcher.ts`) with
 * esbuild, renders the pages of `chrome-renderer-site.ts`. Its `serve` plays the crawl core's part for a
 * renderer that answers through the network: the page's document is a URL the crawl holds (answered `go`),
 * every other GET is "fetched by the crawl's step" through the decorator, which lets the tab's held request go
 * and copies its response. The servers' logs tell whether anything of the page reached them any other way.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findFirefox } from '../../src/shells/cli/firefox.ts';
import { launchFirefoxExtension, type FirefoxSession } from '../../src/shells/cli/firefox-driver.ts';
import { PROBE_UA, buildProbe, type ProbeOptions, type ProbeResult } from './firefox-renderer-probe.ts';
import { startRenderSite, type RenderSite } from './chrome-renderer-site.ts';

/** The host, port, path and query of a URL (`a.test:PORT/path?query`), as the site logs it. */
const bare = (url: string): string => url.replace(/^https?:\/\//, '');

describe('the Firefox renderer', { timeout: 180_000 }, () => {
  let dir = '';
  let site: RenderSite;
  let session: FirefoxSession;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tabcrawl-ff-render-'));
    const probe = await buildProbe(join(dir, 'probe'), [
      'webRequest',
      'webRequestBlocking',
      'webRequestFilterResponse',
      'scripting',
      'cookies',
      'contextualIdentities',
      'storage',
    ]);
    site = await startRenderSite();
    session = await launchFirefoxExtension({
      distDir: probe,
      firefoxPath: findFirefox(process.env),
      prefs: { 'network.dns.localDomains': 'a.test,b.test' },
    });
  });

  after(async () => {
    await session?.close();
    await site?.close();
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  async function render(url: string, options: ProbeOptions): Promise<ProbeResult> {
    const args = `${JSON.stringify(url)}, ${JSON.stringify(options)}`;
    return (await session.driverPage.evaluate(
      `browser.runtime.getBackgroundPage().then((page) => page.probeRender(${args}))`,
    )) as ProbeResult;
  }

  it("lets each request of a hostile page reach a server once, as the crawl's go or its fetch, and nothing else", async () => {
    const from = site.log.length;
    const result = await render(`${site.a}/app.html`, { timeoutMs: 5_000, quietMs: 500, maxHtmlChars: 1_000_000 });
    const outcome = result.outcome;
    assert.ok(outcome.ok, `render failed: ${JSON.stringify(outcome)}`);
    const received = site.log.slice(from);
    const urls = received.map((entry) => entry.url);
    // Every request that reached a server is one the crawl answered go, or fetched (through the tab), once each.
    const answered = new Set([...Object.keys(result.ended), ...Object.keys(result.fetched)].map(bare));
    for (const url of urls) assert.ok(answered.has(url), `${url} reached a server only as the crawl's request`);
    assert.equal(new Set(urls).size, urls.length, `no URL twice: ${urls.join(' ')}`);
    assert.deepEqual(result.fetchedOutside, [], 'the decorator found a held request for every URL the crawl fetched');
    assert.deepEqual(
      received.filter((entry) => entry.upgrade),
      [],
      'no WebSocket upgrade reached a server',
    );
    for (const never of [
      '/refused.json',
      '/beacon',
      '/ping-target',
      '/popup.html',
      '/elsewhere.html',
      '/download.bin',
    ]) {
      assert.ok(!urls.some((url) => url.includes(never)), `${never} never reached a server`);
    }
    // The tab's requests carried the crawl's User-Agent and no cookie; the page's document went once (go), ended once.
    for (const entry of received) {
      assert.equal(entry.userAgent, PROBE_UA, `${entry.url} carried the crawl's User-Agent`);
      assert.equal(entry.cookie, undefined, `${entry.url} carried no cookie`);
    }
    assert.deepEqual(result.ended, { [`${site.a}/app.html`]: 1 });
    // What the crawl fetched is what the tab received, copied as it passed.
    assert.deepEqual(result.fetched[`${site.a}/data.json`], {
      ok: true,
      status: 200,
      location: null,
      truncated: false,
      userAgent: PROBE_UA,
      text: '{"heading":"Rendered shop"}',
    });
    // The page navigating itself (a link clicked, location set) makes Firefox abort its loads under way, though
    // the navigation is cancelled at once: those fetches fail, as the crawl records them. A poll still under
    // way when the cap ends the render is cut (`NS_ERROR_ABORT`, firefox-tab-requests.ts `end`): on a slow
    // machine the render can end while one is in flight. The others are copies.
    for (const [url, fetch] of Object.entries(result.fetched)) {
      const cut =
        /NS_BINDING_ABORTED/.test(fetch.error ?? '') ||
        (url.includes('/poll') && /NS_ERROR_ABORT/.test(fetch.error ?? ''));
      assert.ok(fetch.ok || cut, `${url}: ${JSON.stringify(fetch)}`);
    }
    // The DOM as the scripts left it: their fetches answered, the refused one failed, no popup.
    assert.match(outcome.html, /^<!DOCTYPE html>\n<html>/);
    assert.match(outcome.html, /<title>Rendered shop<\/title>/);
    assert.match(outcome.html, /<h1>Rendered shop<\/h1>/);
    assert.match(outcome.html, /popup blocked/);
    assert.ok(!result.cookies.some((cookie) => cookie.startsWith('seen@')), `no Set-Cookie landed: ${result.cookies}`);
    // The script's document.cookie write landed in the render tab's own container, removed with it: not in the
    // user's store (it did land there before render-containers.ts), and no render container is left.
    assert.ok(!result.cookies.includes('planted@a.test'), `no cookie a script set landed: ${result.cookies}`);
    assert.equal(result.containersAfter, 0, 'the render container was removed');
    // The page's uncaught errors, kept from the moment its document committed (firefox-isolated-world.ts).
    for (const marker of ['error-marker', 'rejection-marker'])
      assert.ok(
        outcome.scriptErrors.some((text) => text.includes(marker)),
        `${marker} in ${outcome.scriptErrors.join(' | ')}`,
      );
    // Bounded: the poll ran until the cap; nothing asked after the end; nothing left held or open.
    assert.equal(outcome.capped, true);
    assert.ok(result.durationMs < 5_000 + 3_000, `took ${result.durationMs} ms`);
    assert.ok(result.asked.filter((request) => request.url.includes('/poll')).length > 3, 'the page polled');
    assert.equal(result.askedLate, 0);
    assert.equal(result.heldAfter, 0);
    assert.equal(outcome.requests, result.asked.length);
    assert.ok(outcome.navigations.includes(`${site.a}/elsewhere.html`), outcome.navigations.join(' '));
    assert.equal(result.windowsAfter, result.windowsBefore);
    const asked = result.asked.map((request) => `${request.type} ${bare(request.url)}`);
    for (const wanted of [
      `document ${bare(site.a)}/app.html`,
      `fetch ${bare(site.a)}/data.json`,
      `document ${bare(site.b)}/frame.html`,
    ]) {
      assert.ok(asked.includes(wanted), `serve was asked ${wanted}; asked: ${asked.join(', ')}`);
    }
  });

  it('ends a quiet page before the cap, after scrolling once to the bottom', async () => {
    const result = await render(`${site.a}/quiet.html`, { timeoutMs: 10_000, quietMs: 400, maxHtmlChars: 1_000_000 });
    const outcome = result.outcome;
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(outcome.capped, false);
    assert.ok(result.durationMs < 6_000, `took ${result.durationMs} ms`);
    assert.match(outcome.html, /<h1>Rendered shop<\/h1>/);
    assert.match(outcome.html, /loaded on scroll/);
    const paths = result.asked.map((request) => new URL(request.url).pathname);
    for (const path of ['/quiet.html', '/data.json', '/lazy.json']) assert.ok(paths.includes(path), paths.join(' '));
    assert.equal(result.windowsAfter, result.windowsBefore);
  });

  it('copies a redirect as a redirect, and its target as a request of its own, each reaching the server once', async () => {
    const from = site.log.length;
    const result = await render(`${site.a}/redirecting.html`, {
      timeoutMs: 10_000,
      quietMs: 400,
      maxHtmlChars: 100_000,
    });
    assert.ok(result.outcome.ok, JSON.stringify(result.outcome));
    assert.match(result.outcome.html, /<h1>Rendered shop<\/h1>/);
    const moved = result.fetched[`${site.a}/moved.json`];
    assert.deepEqual([moved?.status, moved?.location, moved?.text], [302, `${site.a}/data.json`, undefined]);
    assert.equal(result.fetched[`${site.a}/data.json`]?.text, '{"heading":"Rendered shop"}');
    const paths = site.log.slice(from).map((entry) => entry.url.replace(/^[^/]*/, ''));
    assert.equal(paths.filter((path) => path === '/moved.json').length, 1);
    assert.equal(paths.filter((path) => path === '/data.json').length, 1);
  });

  it("copies at most the crawl's body limit, says truncated, and the page gets what was copied", async () => {
    const result = await render(`${site.a}/quiet.html`, {
      timeoutMs: 6_000,
      quietMs: 300,
      maxHtmlChars: 1_000_000,
      bodyLimit: 10,
    });
    assert.ok(result.outcome.ok, JSON.stringify(result.outcome));
    const data = result.fetched[`${site.a}/data.json`];
    assert.deepEqual([data?.text, data?.truncated], ['{"heading"', true]);
    assert.doesNotMatch(result.outcome.html, /<h1>Rendered shop<\/h1>/, 'the page read the cut JSON and failed');
  });

  it('cuts the DOM at maxHtmlChars and says so', async () => {
    const { outcome } = await render(`${site.a}/quiet.html`, { timeoutMs: 10_000, quietMs: 200, maxHtmlChars: 40 });
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(outcome.truncated, true);
    assert.equal(outcome.html.length, 40);
  });

  it('answers timeout when the document is not answered by the cap, and the document never reaches the server', async () => {
    const result = await render(`${site.a}/hang.html`, { timeoutMs: 1_500, quietMs: 200, maxHtmlChars: 1_000 });
    assert.equal(!result.outcome.ok && result.outcome.code, 'timeout', JSON.stringify(result.outcome));
    assert.ok(result.durationMs < 4_000, `took ${result.durationMs} ms`);
    assert.equal(result.windowsAfter, result.windowsBefore);
    assert.ok(!site.log.some((entry) => entry.url.includes('/hang')));
  });

  it("takes the document's turn before the tab asks for it, and the crawl's fetches go on meanwhile", async () => {
    // Firefox never holds the main frame for its turn: while one was held, a fetch of the crawl's that began
    // meanwhile was not sent until the wait ended (seen in cli-firefox-render.test.ts under load: 15 s, the
    // render's whole cap; not reproduced by this probe's plain fetch: docs/rendering-firefox.md).
    const from = site.log.length;
    // On 127.0.0.1, the host of the side fetch too (the probe's fetch of a.test fails in Firefox).
    const result = await render(`${site.a.replace('a.test', '127.0.0.1')}/quiet.html`, {
      timeoutMs: 8_000,
      quietMs: 200,
      maxHtmlChars: 10_000,
      sideFetchWhileDocumentWaitsMs: 2_000,
    });
    assert.ok(result.outcome.ok, JSON.stringify(result.outcome));
    assert.equal(result.sideFetch?.documentAskedWhileWaiting, false, 'the tab asked for its document before its turn');
    assert.equal(result.sideFetch?.answered, true, JSON.stringify(result.sideFetch));
    const side = site.log.findIndex((entry, i) => i >= from && entry.url.includes('/data.json?side'));
    const page = site.log.findIndex((entry, i) => i >= from && entry.url.includes('/quiet.html'));
    assert.ok(side !== -1 && page > side, 'the side fetch reached the server before the document');
  });

  it('gives up on a page whose script loops forever within seconds, and still closes its window', async () => {
    const result = await render(`${site.a}/busy.html`, { timeoutMs: 10_000, quietMs: 300, maxHtmlChars: 10_000 });
    assert.equal(!result.outcome.ok && result.outcome.code, 'failed', JSON.stringify(result.outcome));
    assert.ok(result.durationMs < 8_000, `took ${result.durationMs} ms`);
    assert.equal(result.windowsAfter, result.windowsBefore);
  });

  it('answers crashed when its tab goes away, and still closes the window', async () => {
    const result = await render(`${site.a}/app.html`, {
      timeoutMs: 10_000,
      quietMs: 500,
      maxHtmlChars: 1_000,
      closeTabAfterMs: 1_000,
    });
    assert.equal(!result.outcome.ok && result.outcome.code, 'crashed', JSON.stringify(result.outcome));
    assert.ok(result.durationMs < 4_000, `took ${result.durationMs} ms`);
    assert.equal(result.windowsAfter, result.windowsBefore);
    assert.equal(result.heldAfter, 0);
  });

  it('answers stopped when the crawl aborts, and still closes the window', async () => {
    const result = await render(`${site.a}/app.html`, {
      timeoutMs: 10_000,
      quietMs: 500,
      maxHtmlChars: 1_000_000,
      abortAfterMs: 800,
    });
    assert.equal(!result.outcome.ok && result.outcome.code, 'stopped', JSON.stringify(result.outcome));
    assert.ok(result.durationMs < 3_000, `took ${result.durationMs} ms`);
    assert.equal(result.windowsAfter, result.windowsBefore);
    assert.equal(result.heldAfter, 0);
  });
});

describe('the Firefox renderer without its permissions', { timeout: 120_000 }, () => {
  it('answers unavailable, opens no window and sends nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-ff-render-bare-'));
    const site = await startRenderSite();
    let session: FirefoxSession | undefined;
    try {
      // webRequest (observing) and storage only, as Tabcrawl's Chrome-shaped manifest would give.
      const probe = await buildProbe(join(dir, 'probe'), ['webRequest', 'storage', 'cookies']);
      session = await launchFirefoxExtension({ distDir: probe, firefoxPath: findFirefox(process.env) });
      const args = `${JSON.stringify(`${site.a}/quiet.html`)}, ${JSON.stringify({ timeoutMs: 5_000, quietMs: 200, maxHtmlChars: 1_000 })}`;
      const result = (await session.driverPage.evaluate(
        `browser.runtime.getBackgroundPage().then((page) => page.probeRender(${args}))`,
      )) as ProbeResult;
      assert.equal(!result.outcome.ok && result.outcome.code, 'unavailable', JSON.stringify(result.outcome));
      assert.equal(result.windowsAfter, result.windowsBefore);
      assert.deepEqual(site.log, []);
    } finally {
      await session?.close();
      await site.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * The Firefox renderer (`src/shells/background/adapters/firefox-renderer.ts`) in a real headless Firefox ESR:
 * a probe add-on, bundled here from the adapter and the fetcher decorator (`tab-request-fetcher.ts`) with
 * esbuild, renders the pages of `chrome-renderer-site.ts`. Its `serve` plays the crawl core's part for a
 * renderer that answers through the network: the page's document is a URL the crawl holds (answered `go`),
 * every other GET is "fetched by the crawl's step" through the decorator, which lets the tab's held request go
 * and copies its response. The servers' logs tell whether anything of the page reached them any other way.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import type { PageRequest, RenderOutcome } from '../../src/core/crawl/ports.ts';
import { findFirefox } from '../../src/shells/cli/firefox.ts';
import { DRIVER_PAGE_PATH } from '../../src/shells/cli/extension-driver.ts';
import { launchFirefoxExtension, type FirefoxSession } from '../../src/shells/cli/firefox-driver.ts';
import { ROOT } from './helpers.ts';
import { startRenderSite, type RenderSite } from './chrome-renderer-site.ts';

/** The crawl's fetch of one URL, as the decorator returned it. */
interface FetchSummary {
  ok: boolean;
  status?: number;
  location?: string | null;
  text?: string;
  truncated?: boolean;
  userAgent?: string | null;
  error?: string;
}

interface ProbeResult {
  outcome: RenderOutcome;
  durationMs: number;
  asked: PageRequest[];
  /** URLs the crawl "fetched" through the decorator, with what it returned. */
  fetched: Record<string, FetchSummary>;
  /** URLs answered `go`, and how many times each one's `ended` was called. */
  ended: Record<string, number>;
  /** URLs the decorator fetched itself (no held request for them): none expected. */
  fetchedOutside: string[];
  askedLate: number;
  heldAfter: number;
  windowsBefore: number;
  windowsAfter: number;
  cookies: string[];
}

interface ProbeOptions {
  timeoutMs: number;
  quietMs: number;
  maxHtmlChars: number;
  bodyLimit?: number;
  abortAfterMs?: number;
}

const PROBE_UA = 'TabcrawlFirefoxRenderProbe/1';

const PROBE_BACKGROUND = (adapters: string): string => `
import { FirefoxRenderer } from ${JSON.stringify(join(adapters, 'firefox-renderer.ts'))};
import { HeldRequests, withTabRequests } from ${JSON.stringify(join(adapters, 'tab-request-fetcher.ts'))};
const held = new HeldRequests();
const fetchedOutside = [];
const inner = { async fetch(request) { fetchedOutside.push(request.url); return { ok: false, error: { code: 'network', message: 'outside' }, startedAt: 0, endedAt: 0 }; } };
const fetcher = withTabRequests(inner, held);
const renderer = new FirefoxRenderer(held, ${JSON.stringify(PROBE_UA)});
window.probeRender = async (url, options) => {
  fetchedOutside.length = 0;
  const asked = [];
  const fetched = {};
  const ended = {};
  const inFlight = new Map();
  const crawlHolds = new Set([url]);
  let over = false;
  let askedLate = 0;
  const controller = new AbortController();
  if (options.abortAfterMs !== undefined) setTimeout(() => controller.abort(), options.abortAfterMs);
  const decoder = new TextDecoder();
  async function crawlFetch(u) {
    const outcome = await fetcher.fetch({ url: u, method: 'GET', timeoutMs: 5000, bodyLimit: () => options.bodyLimit ?? 1000000 });
    const ua = outcome.ok && outcome.wire && outcome.wire.requestHeaders ? (outcome.wire.requestHeaders.find(([n]) => n === 'user-agent') || [])[1] ?? null : null;
    fetched[u] = outcome.ok
      ? { ok: true, status: outcome.status, location: outcome.location, truncated: outcome.truncated, userAgent: ua,
          text: outcome.body === null ? undefined : decoder.decode(outcome.body) }
      : { ok: false, error: outcome.error.code + ': ' + outcome.error.message };
    crawlHolds.add(u);
    return outcome;
  }
  const job = {
    url, timeoutMs: options.timeoutMs, quietMs: options.quietMs, maxHtmlChars: options.maxHtmlChars,
    signal: controller.signal,
    async serve(request) {
      if (over) askedLate += 1;
      asked.push(request);
      if (request.navigation) return { kind: 'refused', because: 'navigation' };
      if (request.method !== 'GET') return { kind: 'refused', because: 'method' };
      if (!/^https?:/.test(request.url) || request.type === 'websocket') return { kind: 'refused', because: 'scheme' };
      if (request.url.includes('/refused')) return { kind: 'refused', because: 'robots' };
      if (request.url.includes('/hang')) {
        await new Promise((resolve) => setTimeout(resolve, options.timeoutMs + 500));
        return { kind: 'refused', because: 'timeout' };
      }
      // A URL the crawl holds: the host's turn has come, the tab's request may go.
      if (crawlHolds.has(request.url) && !inFlight.has(request.url)) {
        return { kind: 'go', ended: async () => { ended[request.url] = (ended[request.url] ?? 0) + 1; } };
      }
      // Else the crawl's step fetches it (once per URL, as the core admits it once) and answers from its row.
      if (!inFlight.has(request.url)) inFlight.set(request.url, crawlFetch(request.url).finally(() => inFlight.delete(request.url)));
      const outcome = await inFlight.get(request.url);
      if (!outcome.ok) return { kind: 'refused', because: 'failed' };
      return { kind: 'response', status: outcome.status, headers: outcome.headers, body: outcome.body ?? new Uint8Array(0) };
    },
  };
  const windowsBefore = (await browser.windows.getAll()).length;
  const started = Date.now();
  const outcome = await renderer.render(job);
  const durationMs = Date.now() - started;
  over = true;
  const windowsAfter = (await browser.windows.getAll()).length;
  await new Promise((resolve) => setTimeout(resolve, 800));
  const cookies = (await browser.cookies.getAll({})).map((c) => c.name + '@' + c.domain);
  return { outcome, durationMs, asked, fetched, ended, fetchedOutside: [...fetchedOutside], askedLate, heldAfter: held.size, windowsBefore, windowsAfter, cookies };
};
`;

const PROBE_ID = 'firefox-renderer-probe@tabcrawl.test';

/** Builds the probe add-on into `dir`; `permissions` are its manifest's. */
async function buildProbe(dir: string, permissions: string[]): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, '..', `${PROBE_ID}-${permissions.length}.ts`);
  writeFileSync(entry, PROBE_BACKGROUND(join(ROOT, 'src/shells/background/adapters')));
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    outfile: join(dir, 'background.js'),
    logLevel: 'error',
  });
  const manifest = {
    manifest_version: 3,
    name: 'Tabcrawl Firefox renderer probe',
    version: '0.0.1',
    background: { scripts: ['background.js'] },
    permissions,
    host_permissions: ['<all_urls>'],
    browser_specific_settings: { gecko: { id: PROBE_ID, strict_min_version: '140.0' } },
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  const driverPage = join(dir, DRIVER_PAGE_PATH);
  mkdirSync(join(driverPage, '..'), { recursive: true });
  writeFileSync(driverPage, '<!doctype html><title>probe</title>');
  return dir;
}

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
    // the navigation is cancelled at once: those fetches fail, as the crawl records them. The others are copies.
    for (const [url, fetch] of Object.entries(result.fetched)) {
      assert.ok(fetch.ok || /NS_BINDING_ABORTED/.test(fetch.error ?? ''), `${url}: ${JSON.stringify(fetch)}`);
    }
    // The DOM as the scripts left it: their fetches answered, the refused one failed, no popup.
    assert.match(outcome.html, /^<!DOCTYPE html>\n<html>/);
    assert.match(outcome.html, /<title>Rendered shop<\/title>/);
    assert.match(outcome.html, /<h1>Rendered shop<\/h1>/);
    assert.match(outcome.html, /popup blocked/);
    assert.ok(!result.cookies.some((cookie) => cookie.startsWith('seen@')), `no Set-Cookie landed: ${result.cookies}`);
    // Not guarded in Firefox (docs/rendering-firefox.md): a script's document.cookie write lands in the profile.
    assert.ok(result.cookies.includes('planted@a.test'), result.cookies.join(' '));
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

  it('gives up on a page whose script loops forever within seconds, and still closes its window', async () => {
    const result = await render(`${site.a}/busy.html`, { timeoutMs: 10_000, quietMs: 300, maxHtmlChars: 10_000 });
    assert.equal(!result.outcome.ok && result.outcome.code, 'failed', JSON.stringify(result.outcome));
    assert.ok(result.durationMs < 8_000, `took ${result.durationMs} ms`);
    assert.equal(result.windowsAfter, result.windowsBefore);
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

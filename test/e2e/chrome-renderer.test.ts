/**
 * The Chrome renderer (`src/shells/background/adapters/chrome-renderer.ts`) in a real headless Chromium:
 * a probe extension, bundled here from the adapter with esbuild, renders the pages of
 * `chrome-renderer-site.ts`; its `serve` fetches each request itself and logs it, so the servers' logs
 * tell whether anything of the page reached them any other way.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import { chromium, type BrowserContext, type Worker } from 'playwright-core';
import type { PageRequest, RenderOutcome } from '../../src/core/crawl/ports.ts';
import { findChromium } from '../../src/shells/cli/chromium.ts';
import { chromiumArgs } from '../../src/shells/cli/extension-driver.ts';
import { ROOT } from './helpers.ts';
import { startRenderSite, type RenderSite } from './chrome-renderer-site.ts';

/** What the probe's `probeRender` returns. */
interface ProbeResult {
  outcome: RenderOutcome;
  durationMs: number;
  /** Every request the renderer asked `serve` about, in order. */
  asked: PageRequest[];
  /** The URLs `serve` fetched (each once per fetch). */
  fetched: string[];
  /** Requests asked after `render` resolved. */
  askedLate: number;
  windowsBefore: number;
  /** Windows open a second after the render (the render window's idle time is 300 ms here); -1 with `keepWindow`. */
  windowsAfter: number;
  /** Tabs with an http(s) page right after the render resolved (its own tab is closed by then). */
  tabsRightAfter: number;
}

interface ProbeOptions {
  timeoutMs: number;
  quietMs: number;
  maxHtmlChars: number;
  abortAfterMs?: number;
  /** Answer right after the render, without waiting for the render window to close. */
  keepWindow?: boolean;
}

/** The probe's background: the adapter, and a `serve` that refuses some requests and fetches the rest. */
const PROBE_BACKGROUND = (adapters: string): string => `
import { ChromeRenderer } from ${JSON.stringify(join(adapters, 'chrome-renderer.ts'))};
import { RenderWindowHost } from ${JSON.stringify(join(adapters, 'render-window-host.ts'))};
// The render window closes 300 ms after its last render here (5 s in the extension), so that a test sees it go.
const renderer = new ChromeRenderer(new RenderWindowHost(300));
let windowsOpened = 0;
chrome.windows.onCreated.addListener(() => { windowsOpened += 1; });
globalThis.windowsOpened = () => windowsOpened;
globalThis.probeRender = async (url, options) => {
  const asked = [];
  const fetched = [];
  let ended = false;
  let askedLate = 0;
  const controller = new AbortController();
  if (options.abortAfterMs !== undefined) setTimeout(() => controller.abort(), options.abortAfterMs);
  const job = {
    url, timeoutMs: options.timeoutMs, quietMs: options.quietMs, maxHtmlChars: options.maxHtmlChars,
    signal: controller.signal,
    async serve(request) {
      if (ended) askedLate += 1;
      asked.push(request);
      if (request.navigation) return { kind: 'refused', because: 'navigation' };
      if (request.method !== 'GET') return { kind: 'refused', because: 'method' };
      if (!/^https?:/.test(request.url)) return { kind: 'refused', because: 'scheme' };
      if (request.url.includes('/refused')) return { kind: 'refused', because: 'robots' };
      // A crawl that never answers in time: the answer comes long after the render's cap.
      if (request.url.includes('/hang')) {
        await new Promise((resolve) => setTimeout(resolve, options.timeoutMs + 500));
        return { kind: 'response', status: 200, headers: [['content-type', 'text/html']], body: new Uint8Array(0) };
      }
      fetched.push(request.url);
      const response = await fetch(request.url, { cache: 'no-store', credentials: 'omit' });
      return {
        kind: 'response', status: response.status, headers: [...response.headers],
        body: new Uint8Array(await response.arrayBuffer()),
      };
    },
  };
  const windowsBefore = (await chrome.windows.getAll()).length;
  const started = Date.now();
  const outcome = await renderer.render(job);
  const durationMs = Date.now() - started;
  ended = true;
  // Right after the render, its tab is closed: what is left is the render window's blank tab, if it opened.
  const tabsRightAfter = (await chrome.tabs.query({})).filter((tab) => /^https?:/.test(tab.url ?? tab.pendingUrl ?? '')).length;
  if (options.keepWindow === true) return { outcome, durationMs, asked, fetched, askedLate, windowsBefore, windowsAfter: -1, tabsRightAfter };
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const windowsAfter = (await chrome.windows.getAll()).length;
  return { outcome, durationMs, asked, fetched, askedLate, windowsBefore, windowsAfter, tabsRightAfter };
};
`;

/** Builds a probe extension into `dir/name`; `permissions` are its manifest's (`debugger` or none). */
async function buildProbe(dir: string, name: string, permissions: string[]): Promise<string> {
  const out = join(dir, name);
  mkdirSync(out, { recursive: true });
  const entry = join(dir, 'probe-background.ts');
  writeFileSync(entry, PROBE_BACKGROUND(join(ROOT, 'src/shells/background/adapters')));
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    outfile: join(out, 'background.js'),
    logLevel: 'error',
  });
  const manifest = {
    manifest_version: 3,
    name,
    version: '1',
    background: { service_worker: 'background.js' },
    permissions,
    host_permissions: ['<all_urls>'],
  };
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest));
  return out;
}

/** The service worker of the probe named `name`, once it runs. */
async function probeWorker(context: BrowserContext, name: string): Promise<Worker> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    for (const candidate of context.serviceWorkers()) {
      const found = await candidate
        .evaluate(
          () =>
            (
              globalThis as unknown as { chrome: { runtime: { getManifest(): { name: string } } } }
            ).chrome.runtime.getManifest().name,
        )
        .catch(() => '');
      if (found === name) return candidate;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the probe ${name} did not start`);
}

/** The path and query of a logged or fetched URL, without scheme (`a.test:PORT/path?query`). */
const bare = (url: string): string => url.replace(/^https?:\/\//, '');

describe('the Chrome renderer', { timeout: 120_000 }, () => {
  let dir = '';
  let site: RenderSite;
  let context: BrowserContext;
  let worker: Worker;
  let workerWithoutDebugger: Worker;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tabcrawl-render-'));
    for (const sub of ['tmp', 'home', 'user-data']) mkdirSync(join(dir, sub));
    const probe = await buildProbe(dir, 'render-probe', ['debugger']);
    const withoutDebugger = await buildProbe(dir, 'render-probe-without-debugger', []);
    site = await startRenderSite();
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    context = await chromium.launchPersistentContext(join(dir, 'user-data'), {
      executablePath: findChromium(process.env),
      headless: true,
      args: [
        ...chromiumArgs(`${probe},${withoutDebugger}`, { headless: true, isRoot }),
        '--host-resolver-rules=MAP *.test 127.0.0.1',
      ],
      env: { ...process.env, TMPDIR: join(dir, 'tmp'), HOME: join(dir, 'home') },
    });
    worker = await probeWorker(context, 'render-probe');
    workerWithoutDebugger = await probeWorker(context, 'render-probe-without-debugger');
  });

  after(async () => {
    await context?.close().catch(() => undefined);
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function render(url: string, options: ProbeOptions, probe = worker): Promise<ProbeResult> {
    return probe.evaluate(
      ([u, o]) =>
        (globalThis as unknown as { probeRender(u: string, o: ProbeOptions): Promise<ProbeResult> }).probeRender(u, o),
      [url, options] as const,
    );
  }

  it('lets nothing of a hostile page reach a server except through serve, and bounds its polling by the cap', async () => {
    // The user's profile holds a cookie for the site: the page's script must not see it, nor leave one.
    await context.addCookies([{ name: 'session', value: 'secret', url: site.a }]);
    const from = site.log.length;
    const result = await render(`${site.a}/app.html`, { timeoutMs: 4_000, quietMs: 500, maxHtmlChars: 1_000_000 });
    const outcome = result.outcome;
    assert.ok(outcome.ok, `render failed: ${JSON.stringify(outcome)}`);

    // What the servers received is exactly what serve fetched, request for request.
    const received = site.log.slice(from);
    assert.deepEqual(
      received.filter((entry) => entry.upgrade),
      [],
      'no WebSocket upgrade reached a server',
    );
    const fetched = result.fetched.map(bare).sort();
    assert.deepEqual(received.map((entry) => entry.url).sort(), fetched);
    for (const never of [
      '/refused.json',
      '/beacon',
      '/ping-target',
      '/popup.html',
      '/elsewhere.html',
      '/shared.js',
      '/from-shared.json',
    ]) {
      assert.ok(!received.some((entry) => entry.url.includes(never)), `${never} never reached a server`);
    }
    assert.ok(!received.some((entry) => entry.url.includes('/download.bin')), 'no download was fetched');

    // The page's frame on host B, its worker and its script's calls were all asked for through serve.
    const asked = result.asked.map((request) => `${request.type} ${bare(request.url)}`);
    const b = bare(site.b);
    const a = bare(site.a);
    for (const wanted of [
      `document ${a}/app.html`,
      // Chrome's Fetch domain names a fetch() an XHR.
      `xhr ${a}/data.json`,
      `stylesheet ${a}/style.css`,
      `image ${a}/pic.svg`,
      `xhr ${b}/api.json`,
      `document ${b}/frame.html`,
      `xhr ${b}/frame-data.json`,
      `xhr ${a}/from-worker.json`,
    ]) {
      assert.ok(asked.includes(wanted), `serve was asked ${wanted}; asked: ${asked.join(', ')}`);
    }
    assert.ok(
      result.asked.some((request) => request.url.endsWith('/worker.js')),
      'the worker script was asked for',
    );
    assert.ok(result.asked.some((request) => request.url.endsWith('/beacon') && request.method === 'POST'));

    // The DOM as the scripts left it.
    assert.match(outcome.html, /^<!DOCTYPE html>\n<html>/);
    assert.match(outcome.html, /<h1>Rendered shop<\/h1>/);
    assert.match(outcome.html, /<title>Rendered shop<\/title>/);
    assert.match(outcome.html, /from host B/);
    assert.match(outcome.html, /refused failed/);
    assert.match(outcome.html, /popup blocked/);
    assert.match(outcome.html, /cookie \[\]/);
    assert.deepEqual(
      (await context.cookies(site.a)).map((cookie) => cookie.name),
      ['session'],
      'the page left no cookie in the profile',
    );
    assert.equal(outcome.truncated, false);

    // Bounded: the poll ran until the cap, and nothing was asked once the render ended.
    assert.equal(outcome.capped, true);
    assert.ok(result.durationMs < 4_000 + 3_000, `took ${result.durationMs} ms`);
    assert.ok(result.asked.filter((request) => request.url.includes('/poll')).length > 3, 'the page polled');
    assert.equal(result.askedLate, 0);
    assert.equal(outcome.requests, result.asked.length);

    // Errors collected, the navigation recorded and not followed, the window closed.
    assert.ok(
      outcome.scriptErrors.some((text) => text.includes('error-marker')),
      outcome.scriptErrors.join(' | '),
    );
    assert.ok(
      outcome.scriptErrors.some((text) => text.includes('rejection-marker')),
      outcome.scriptErrors.join(' | '),
    );
    // The link with a download attribute to another origin is a navigation too (Chrome ignores the attribute there).
    assert.deepEqual(outcome.navigations, [`${site.b}/download.bin`, `${site.a}/elsewhere.html`]);
    assert.equal(result.windowsAfter, result.windowsBefore);
    const pagesOpen = context.pages().map((page) => page.url());
    assert.ok(
      !pagesOpen.some((url) => url.includes('.test:')),
      `no page of the site is left open: ${pagesOpen.join(' ')}`,
    );
  });

  it('ends a quiet page before the cap, after scrolling once to the bottom', async () => {
    const result = await render(`${site.a}/quiet.html`, { timeoutMs: 10_000, quietMs: 400, maxHtmlChars: 1_000_000 });
    const outcome = result.outcome;
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(outcome.capped, false);
    assert.ok(result.durationMs < 5_000, `took ${result.durationMs} ms`);
    assert.match(outcome.html, /<h1>Rendered shop<\/h1>/);
    assert.match(outcome.html, /loaded on scroll/);
    // The page, its JSON, Chrome's request for /favicon.ico (made by the page, so paused too), the JSON asked on scroll.
    assert.deepEqual(result.asked.map((request) => bare(request.url).replace(/^[^/]*/, '')).sort(), [
      '/data.json',
      '/favicon.ico',
      '/lazy.json',
      '/quiet.html',
    ]);
    assert.equal(outcome.requests, 4);
    assert.deepEqual(outcome.scriptErrors, []);
    assert.equal(result.windowsAfter, result.windowsBefore);
  });

  it('lets no request of a page that never stops asking reach a server after its render, in the page or its worker', async () => {
    // Every URL it asks for is refused by serve; its tab is closed before the debugger lets go, so none of
    // them, made while the render ends, can get out (the probe waits a second after the render).
    for (let round = 0; round < 3; round += 1) {
      const result = await render(`${site.a}/hammer.html`, { timeoutMs: 1_500, quietMs: 200, maxHtmlChars: 1_000 });
      assert.ok(result.outcome.ok && result.outcome.capped, JSON.stringify(result.outcome));
      assert.ok(result.asked.filter((request) => request.url.includes('/refused-hammer-worker')).length > 0);
      const escaped = site.log.filter((entry) => entry.url.includes('/refused-hammer'));
      assert.deepEqual(escaped.slice(0, 5), [], `${escaped.length} refused requests reached the server`);
    }
  });

  it('cuts the DOM at maxHtmlChars and says so', async () => {
    const { outcome } = await render(`${site.a}/quiet.html`, { timeoutMs: 10_000, quietMs: 200, maxHtmlChars: 40 });
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(outcome.truncated, true);
    assert.equal(outcome.html.length, 40);
  });

  it('answers timeout when the document is not answered by the cap, and ignores the late answer', async () => {
    const result = await render(`${site.a}/hang.html`, { timeoutMs: 1_500, quietMs: 200, maxHtmlChars: 1_000 });
    assert.equal(!result.outcome.ok && result.outcome.code, 'timeout', JSON.stringify(result.outcome));
    assert.ok(result.durationMs < 4_000, `took ${result.durationMs} ms`);
    assert.equal(result.windowsAfter, result.windowsBefore);
    assert.ok(!site.log.some((entry) => entry.url.includes('/hang')), 'the document never reached the server');
  });

  it('gives up on a page whose script loops forever within seconds, and still closes its window', async () => {
    const result = await render(`${site.a}/busy.html`, { timeoutMs: 10_000, quietMs: 300, maxHtmlChars: 10_000 });
    assert.equal(!result.outcome.ok && result.outcome.code, 'failed', JSON.stringify(result.outcome));
    assert.ok(result.durationMs < 7_000, `took ${result.durationMs} ms`);
    assert.equal(result.windowsAfter, result.windowsBefore);
  });

  it('answers unavailable without the debugger permission, and opens no window', async () => {
    const from = site.log.length;
    const options = { timeoutMs: 5_000, quietMs: 200, maxHtmlChars: 1_000 };
    const result = await render(`${site.a}/quiet.html`, options, workerWithoutDebugger);
    assert.equal(!result.outcome.ok && result.outcome.code, 'unavailable', JSON.stringify(result.outcome));
    assert.equal(result.windowsAfter, result.windowsBefore);
    assert.deepEqual(site.log.slice(from), []);
  });

  it("answers crashed when the page's renderer crashes, and still closes the window", async () => {
    // Playwright sees the render's tab as a page of the context: a second DevTools client sends it to
    // chrome://crash (a browser-side navigation, which crashes its renderer; Page.crash did not).
    // The render tab is the page that commits app.html (the render window's own tab stays blank).
    const crashed = (async () => {
      for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
        const page = context.pages().find((candidate) => /app\.html/.test(candidate.url()));
        if (page !== undefined) {
          const cdp = await context.newCDPSession(page);
          await cdp.send('Page.navigate', { url: 'chrome://crash' }).catch(() => undefined);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    crashed.catch(() => undefined);
    const result = await render(`${site.a}/app.html`, { timeoutMs: 10_000, quietMs: 500, maxHtmlChars: 1_000 });
    await crashed;
    assert.equal(!result.outcome.ok && result.outcome.code, 'crashed', JSON.stringify(result.outcome));
    assert.ok(result.durationMs < 5_000, `took ${result.durationMs} ms`);
    assert.equal(result.windowsAfter, result.windowsBefore);
  });

  it('answers stopped when the crawl aborts, and still closes the window', async () => {
    const result = await render(`${site.a}/app.html`, {
      timeoutMs: 10_000,
      quietMs: 500,
      maxHtmlChars: 1_000_000,
      abortAfterMs: 800,
    });
    assert.equal(result.outcome.ok, false);
    assert.equal(!result.outcome.ok && result.outcome.code, 'stopped');
    assert.ok(result.durationMs < 3_000, `took ${result.durationMs} ms`);
    assert.equal(result.windowsAfter, result.windowsBefore);
    assert.equal(result.askedLate, 0);
  });

  it('renders the pages of a crawl in tabs of one window, closing each tab when its page is read', async () => {
    // Chrome's memory grows with every window it opens (render-window-host.ts): one window serves a run of renders.
    const opened = (): Promise<number> =>
      worker.evaluate(() => (globalThis as unknown as { windowsOpened(): number }).windowsOpened());
    const before = await opened();
    const options = { timeoutMs: 4_000, quietMs: 300, maxHtmlChars: 1_000_000, keepWindow: true };
    const first = await render(`${site.a}/quiet.html`, options);
    const second = await render(`${site.a}/quiet.html`, options);
    const third = await render(`${site.a}/quiet.html`, { ...options, keepWindow: false });
    for (const result of [first, second, third]) {
      assert.ok(result.outcome.ok, JSON.stringify(result.outcome));
      assert.equal(result.tabsRightAfter, 0, "each render's tab is closed when it resolves");
    }
    assert.equal((await opened()) - before, 1, 'three renders in a row opened one window');
    assert.equal(third.windowsAfter, first.windowsBefore, 'the window closed once no render used it');
  });
});

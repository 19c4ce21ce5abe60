/**
 * The probe add-on of `firefox-renderer.test.ts`, built at test time: its background bundles the Firefox
 * renderer and the fetcher decorator (`tab-request-fetcher.ts`) with esbuild, and its `probeRender(url,
 * options)` renders one page with a `serve` that plays the crawl core's part for a renderer that answers
 * through the network: the page's document, a URL the crawl holds, is answered `go`; every other GET is
 * "fetched by the crawl's step" through the decorator (once per URL), which lets the tab's held request go;
 * POSTs, other schemes, WebSockets and `/refused` URLs are refused, `/hang` answered after the cap.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { PageRequest, RenderOutcome } from '../../src/core/crawl/ports.ts';
import { DRIVER_PAGE_PATH } from '../../src/shells/cli/extension-driver.ts';
import { ROOT } from './helpers.ts';

/** The crawl's fetch of one URL, as the decorator returned it. */
export interface FetchSummary {
  ok: boolean;
  status?: number;
  location?: string | null;
  text?: string;
  truncated?: boolean;
  userAgent?: string | null;
  error?: string;
}

export interface ProbeResult {
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
  /** With `sideFetchWhileDocumentWaitsMs`: whether the background's fetch was answered before the document's turn, and in how many ms. */
  sideFetch: { answered: boolean; ms: number | null; documentAskedWhileWaiting: boolean; error?: string } | null;
  heldAfter: number;
  windowsBefore: number;
  /** Windows open a second after the render (the render window's idle time is 300 ms here). */
  windowsAfter: number;
  /** The cookies of the profile's default store (the user's), as `name@domain`. */
  cookies: string[];
  /** Render containers left a second after the render (-1: no `contextualIdentities`). */
  containersAfter: number;
}

export interface ProbeOptions {
  timeoutMs: number;
  quietMs: number;
  maxHtmlChars: number;
  bodyLimit?: number;
  abortAfterMs?: number;
  /** Closes the render's tab this long after the render began, as a crash or the user would. */
  closeTabAfterMs?: number;
  /**
   * Holds the page's document this long before its turn is given, while the background fetches another URL of
   * the page's host, as a crawl's step would meanwhile: `sideFetch` says whether that fetch was answered first,
   * and whether the tab had asked for its document (webRequest saw the main frame) before the turn was given.
   */
  sideFetchWhileDocumentWaitsMs?: number;
}

export const PROBE_UA = 'TabcrawlFirefoxRenderProbe/1';

const PROBE_BACKGROUND = (adapters: string): string => `
import { FirefoxRenderer } from ${JSON.stringify(join(adapters, 'firefox-renderer.ts'))};
import { HeldRequests, withTabRequests } from ${JSON.stringify(join(adapters, 'tab-request-fetcher.ts'))};
import { RenderWindowHost } from ${JSON.stringify(join(adapters, 'render-window-host.ts'))};
import { RENDER_CONTAINER_NAME, firefoxRenderContainers } from ${JSON.stringify(join(adapters, 'render-containers.ts'))};
const held = new HeldRequests();
// Every main frame any tab asked for (the render tab's document among them), as webRequest saw it.
const mainFramesAsked = new Set();
browser.webRequest.onBeforeRequest.addListener((d) => { mainFramesAsked.add(d.url); }, { urls: ['<all_urls>'], types: ['main_frame'] });
const fetchedOutside = [];
const inner = { async fetch(request) { fetchedOutside.push(request.url); return { ok: false, error: { code: 'network', message: 'outside' }, startedAt: 0, endedAt: 0 }; } };
const fetcher = withTabRequests(inner, held);
// The render window closes 300 ms after its last render here (5 s in the add-on), so that a test sees it go.
const renderer = new FirefoxRenderer(held, ${JSON.stringify(PROBE_UA)}, new RenderWindowHost(300, 'normal', firefoxRenderContainers));
window.probeRender = async (url, options) => {
  fetchedOutside.length = 0;
  const asked = [];
  const fetched = {};
  const ended = {};
  const inFlight = new Map();
  const crawlHolds = new Set([url]);
  let over = false;
  let askedLate = 0;
  let sideFetch = null;
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
      if (options.sideFetchWhileDocumentWaitsMs !== undefined && request.url === url && sideFetch === null) {
        const began = Date.now();
        sideFetch = { answered: false, ms: null };
        fetch('http://127.0.0.1:' + new URL(url).port + '/data.json?side', { cache: 'no-store', credentials: 'omit', mode: 'no-cors' }).then(
          () => { sideFetch.ms = Date.now() - began; },
          (error) => { sideFetch.error = String(error) + ' after ' + (Date.now() - began) + ' ms'; },
        );
        await new Promise((resolve) => setTimeout(resolve, options.sideFetchWhileDocumentWaitsMs));
        sideFetch.answered = sideFetch.ms !== null;
        sideFetch.documentAskedWhileWaiting = mainFramesAsked.has(url);
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
  const tabsBefore = new Set((await browser.tabs.query({})).map((t) => t.id));
  if (options.closeTabAfterMs !== undefined) setTimeout(async () => {
    for (const t of await browser.tabs.query({})) if (!tabsBefore.has(t.id)) await browser.tabs.remove(t.id);
  }, options.closeTabAfterMs);
  const started = Date.now();
  const outcome = await renderer.render(job);
  const durationMs = Date.now() - started;
  over = true;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const windowsAfter = (await browser.windows.getAll()).length;
  const cookies = (await browser.cookies.getAll({})).map((c) => c.name + '@' + c.domain);
  const containersAfter = browser.contextualIdentities === undefined ? -1 : (await browser.contextualIdentities.query({ name: RENDER_CONTAINER_NAME })).length;
  return { outcome, durationMs, asked, fetched, ended, fetchedOutside: [...fetchedOutside], askedLate, sideFetch, heldAfter: held.size, windowsBefore, windowsAfter, cookies, containersAfter };
};
`;

const PROBE_ID = 'firefox-renderer-probe@tabcrawl.test';

/** Builds the probe add-on into `dir`; `permissions` are its manifest's. */
export async function buildProbe(dir: string, permissions: string[]): Promise<string> {
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

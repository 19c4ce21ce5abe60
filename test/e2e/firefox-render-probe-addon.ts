/**
 * A small MV3 add-on for the Firefox rendering probe (`firefox-render-probe.test.ts`), written to a
 * temporary folder at test time. Its background page renders one URL at a time in a tab opened in
 * the background (`tabs.create({ active: false })`) and holds every request of that tab in a blocking
 * `webRequest.onBeforeRequest` listener, then answers it as the test's plan says:
 * - `pass`: lets it go to the network;
 * - `data`: fetches the URL itself (as the crawl's `serve` would) and redirects the request to a
 *   `data:` URL of those bytes;
 * - `blob`: the same through a `blob:` URL of the background page;
 * - `filter`: fetches it itself, lets the request go, and replaces the response body with those
 *   bytes through `webRequest.filterResponseData`;
 * - `capture`: lets it go to the network and copies the response's bytes as they pass
 *   (`filterResponseData`, each chunk written through unchanged), with its status (`onHeadersReceived`);
 * - `reject`: the listener's promise rejects.
 * URLs containing one of `refuse` are cancelled (`{ cancel: true }`). Requests the page causes
 * outside its tab (a window it opens, its service worker) are logged with their `tabId` and let go.
 *
 * Its permissions are what Firefox asks for this: `webRequest`, `webRequestBlocking`,
 * `webRequestFilterResponse` (MV3 needs it for `filterResponseData`; without it the call throws, and
 * a blocking listener that throws lets its request through), `tabs`, `scripting` and every host.
 * Tabcrawl's Firefox manifest asks for the same (`FIREFOX_ONLY_PERMISSIONS`), for its renderer.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DRIVER_PAGE_PATH } from '../../src/shells/cli/extension-driver.ts';

/** How the probe answers requests: the main frame's (`doc`) and every other (`sub`). */
export type Answer = 'pass' | 'data' | 'blob' | 'filter' | 'capture' | 'reject';

export interface ProbePlan {
  doc: Answer;
  sub: Answer;
  /** URLs containing one of these are cancelled. */
  refuse: string[];
  /** How long each request is held before it is answered, in ms. */
  holdMs: number;
  /** When set, the tab's requests carry this User-Agent and no Cookie (set in `onBeforeSendHeaders`). */
  userAgent?: string;
  /** The longest the render waits for the page's `#out[data-done]`, in ms. */
  capMs: number;
}

/** One request the add-on saw. `at` is ms since the epoch when the listener was called. */
export interface SeenRequest {
  at: number;
  url: string;
  type: string;
  method: string;
  tabId: number;
  /** What the listener did: the plan's answer, `cancel`, or `outside` (not the render's tab). */
  action: string;
  /** With `capture`: the response's status and the bytes copied, as text (their length when not text). */
  status?: number;
  captured?: string;
  /** What the listener threw (its promise rejected: Firefox then lets the request go). */
  thrown?: string;
}

export interface ProbeResult {
  /** The tab's URL when the render ended. */
  tabUrl: string;
  /** The page's `#out` text parsed (its results), or null when it could not be read. */
  out: Record<string, unknown> | null;
  seen: SeenRequest[];
  /** `webRequest.onErrorOccurred` of the tab's requests: URL and Firefox's error name. */
  errors: { url: string; error: string }[];
  /** The page's `error` (`message @ filename`) and `unhandledrejection` (`rejection: reason`) events, as a content script saw them. */
  scriptErrors: string[];
}

/** A content script: tells the background of the page's uncaught errors and unhandled rejections. */
const ERRORS = String.raw`
window.addEventListener('error', (e) => { browser.runtime.sendMessage({ scriptError: e.message + ' @ ' + e.filename }); });
window.addEventListener('unhandledrejection', (e) => { browser.runtime.sendMessage({ scriptError: 'rejection: ' + String(e.reason) }); });
`;

export const PROBE_ADDON_ID = 'render-probe@tabcrawl.test';

const BACKGROUND = String.raw`
const state = { tabId: -2, origin: '', plan: null, seen: [], errors: [], scriptErrors: [] };
browser.runtime.onMessage.addListener((message, sender) => {
  if (sender.tab && sender.tab.id === state.tabId && typeof message.scriptError === 'string') state.scriptErrors.push(message.scriptError);
});
const captures = new Map();
browser.webRequest.onHeadersReceived.addListener((details) => {
  const entry = captures.get(details.requestId);
  if (entry) entry.status = details.statusCode;
}, { urls: ['<all_urls>'] });
const base64 = (bytes) => { let s = ''; for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000)); return btoa(s); };
async function fetched(url) {
  const response = await fetch(url, { cache: 'no-store', credentials: 'omit' });
  return { type: response.headers.get('content-type') || 'application/octet-stream', bytes: new Uint8Array(await response.arrayBuffer()) };
}
function answer(details) {
  const entry = { at: Date.now(), url: details.url, type: details.type, method: details.method, tabId: details.tabId, action: '' };
  state.seen.push(entry);
  return decide(details, entry).catch((error) => { entry.thrown = String(error); throw error; });
}
async function decide(details, entry) {
  const plan = state.plan;
  await new Promise((resolve) => setTimeout(resolve, plan.holdMs));
  if (plan.refuse.some((part) => details.url.includes(part))) { entry.action = 'cancel'; return { cancel: true }; }
  const how = details.type === 'main_frame' ? plan.doc : plan.sub;
  entry.action = how;
  if (how === 'pass') return {};
  if (how === 'capture') {
    captures.set(details.requestId, entry);
    const filter = browser.webRequest.filterResponseData(details.requestId);
    const chunks = [];
    filter.ondata = (event) => { chunks.push(new Uint8Array(event.data)); filter.write(event.data); };
    filter.onstop = () => {
      const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      let offset = 0;
      for (const c of chunks) { bytes.set(c, offset); offset += c.length; }
      entry.captured = /image/.test(details.type) ? String(bytes.length) : new TextDecoder().decode(bytes);
      filter.close();
    };
    return {};
  }
  if (how === 'reject') throw new Error('the listener failed');
  const { type, bytes } = await fetched(details.url);
  if (how === 'data') return { redirectUrl: 'data:' + type + ';base64,' + base64(bytes) };
  if (how === 'blob') return { redirectUrl: URL.createObjectURL(new Blob([bytes], { type })) };
  const filter = browser.webRequest.filterResponseData(details.requestId);
  filter.ondata = () => {};
  filter.onstop = () => { filter.write(bytes); filter.close(); };
  return {};
}
browser.webRequest.onBeforeRequest.addListener((details) => {
  if (details.tabId === state.tabId) return answer(details);
  const from = details.documentUrl || details.originUrl || '';
  if (state.origin !== '' && from.startsWith(state.origin))
    state.seen.push({ at: Date.now(), url: details.url, type: details.type, method: details.method, tabId: details.tabId, action: 'outside' });
  return {};
}, { urls: ['<all_urls>'] }, ['blocking']);
browser.webRequest.onBeforeSendHeaders.addListener((details) => {
  const ua = state.plan && state.plan.userAgent;
  if (details.tabId !== state.tabId || !ua) return {};
  const headers = details.requestHeaders.filter((h) => !['user-agent', 'cookie'].includes(h.name.toLowerCase()));
  return { requestHeaders: [...headers, { name: 'User-Agent', value: ua }] };
}, { urls: ['<all_urls>'] }, ['blocking', 'requestHeaders']);
browser.webRequest.onErrorOccurred.addListener((details) => {
  if (details.tabId === state.tabId) state.errors.push({ url: details.url, error: details.error });
}, { urls: ['<all_urls>'] });
const read = (tabId) => browser.scripting.executeScript({ target: { tabId }, func: () => {
  const o = document.getElementById('out');
  return { text: o ? o.textContent : null, done: !!(o && o.dataset.done) };
} }).then(([r]) => r.result, () => ({ text: null, done: false }));
window.probeRender = async (url, plan) => {
  const before = new Set((await browser.tabs.query({})).map((t) => t.id));
  Object.assign(state, { plan, seen: [], errors: [], scriptErrors: [], origin: new URL(url).origin });
  const tab = await browser.tabs.create({ url: 'about:blank', active: false });
  state.tabId = tab.id;
  await browser.tabs.update(tab.id, { url });
  const deadline = Date.now() + plan.capMs;
  let page = { text: null, done: false };
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    page = await read(tab.id);
    const last = state.seen.length === 0 ? 0 : state.seen[state.seen.length - 1].at;
    if (page.done && Date.now() - last > 500) break;
  }
  const tabUrl = (await browser.tabs.get(tab.id)).url;
  state.tabId = -2;
  for (const t of await browser.tabs.query({})) if (!before.has(t.id)) await browser.tabs.remove(t.id);
  state.origin = '';
  return { tabUrl, out: page.text ? JSON.parse(page.text) : null, seen: state.seen, errors: state.errors, scriptErrors: state.scriptErrors };
};
`;

/** Writes the add-on into a new temporary folder and returns its path (the caller removes it). */
export function writeProbeAddon(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-render-probe-'));
  const manifest = {
    manifest_version: 3,
    name: 'Tabcrawl render probe',
    version: '0.0.1',
    background: { scripts: ['background.js'] },
    permissions: ['webRequest', 'webRequestBlocking', 'webRequestFilterResponse', 'tabs', 'scripting'],
    host_permissions: ['<all_urls>'],
    content_scripts: [
      { matches: ['http://127.0.0.1/*'], js: ['errors.js'], run_at: 'document_start', all_frames: true },
    ],
    browser_specific_settings: { gecko: { id: PROBE_ADDON_ID, strict_min_version: '140.0' } },
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, 'background.js'), BACKGROUND);
  writeFileSync(join(dir, 'errors.js'), ERRORS);
  // The Firefox driver opens this page of the add-on to talk to it (DRIVER_PAGE_PATH); a blank one will do.
  const driverPage = join(dir, DRIVER_PAGE_PATH);
  mkdirSync(dirname(driverPage), { recursive: true });
  writeFileSync(driverPage, '<!doctype html><title>probe</title>');
  return dir;
}

/**
 * What the Chrome renderer puts around a rendered page so that nothing it does reaches the network
 * except through the crawl (docs/rendering.md, "In Chrome"): the script stubbed into every frame, the
 * headers it adds to or removes from every answer, and the names it maps. Plain data and functions.
 */
import type { PageRequestType, RefusedBecause } from '../../../core/crawl/ports.ts';

/**
 * Run in every frame before the page's own scripts (`Page.addScriptToEvaluateOnNewDocument`): what the
 * DevTools Fetch domain does not pause is removed from the page's reach. WebSockets and WebTransport
 * (their own protocols), WebRTC (STUN/TURN), shared workers (they run outside the tab, so no session
 * of the tab sees their requests), service workers, popups and dialogs; and `document.cookie` and
 * `cookieStore`, since the tab is in the user's profile: the crawl's requests carry no cookies, and the
 * page's scripts do not read the user's cookies for the site or leave cookies there. Each is made non-configurable,
 * so the page cannot put the original back on this window.
 */
export const GUARD_SCRIPT = `(() => {
  const disabled = (name) => function () {
    throw new DOMException(name + ' is disabled while Tabcrawl renders this page', 'SecurityError');
  };
  const pin = (target, key, value) => {
    try { Object.defineProperty(target, key, { value, writable: false, configurable: false }); } catch {}
  };
  for (const name of ['WebSocket', 'WebTransport', 'SharedWorker', 'RTCPeerConnection', 'webkitRTCPeerConnection']) {
    if (name in self) pin(self, name, disabled(name));
  }
  pin(self, 'open', () => null);
  pin(self, 'alert', () => undefined);
  pin(self, 'confirm', () => false);
  pin(self, 'prompt', () => null);
  pin(self, 'print', () => undefined);
  // The render runs in the user's profile: its scripts neither read the user's cookies for the site nor leave theirs.
  try {
    Object.defineProperty(Document.prototype, 'cookie', { get: () => '', set: () => {}, configurable: false });
  } catch {}
  if ('cookieStore' in self) pin(self, 'cookieStore', undefined);
  if (typeof ServiceWorkerContainer === 'function') {
    pin(ServiceWorkerContainer.prototype, 'register', () =>
      Promise.reject(new DOMException('service workers are disabled while Tabcrawl renders this page', 'SecurityError')));
  }
})();`;

/**
 * Added to the answer of every document, worker script and script (`Content-Security-Policy`, enforced
 * on top of the page's own policies, which can only restrict further):
 * - `connect-src` without `ws:`/`wss:`: no WebSocket from any realm the policy covers (including a
 *   worker, a blob worker or an `about:blank` frame, which a stub in the window cannot reach);
 * - `sandbox` without `allow-popups`, `allow-modals`, `allow-downloads` or `allow-top-navigation`: no
 *   new window, dialog or download, in the page and in every frame it holds. `allow-same-origin` and
 *   `allow-scripts` keep the page's origin and scripts as they are; `allow-forms` lets a form submit,
 *   which is a navigation the crawl refuses.
 * On a classic script a policy header has no effect; on a worker's main script it is the worker's policy.
 */
export const DOCUMENT_POLICY =
  'sandbox allow-scripts allow-same-origin allow-forms; connect-src http: https: data: blob:';
export const WORKER_POLICY = 'connect-src http: https: data: blob:';

/**
 * Response headers no render tab is given, in either browser: what the browser would act on outside the page
 * (cookies, a download, HSTS and Alt-Svc entries for the host, `Clear-Site-Data`, reporting endpoints it
 * uploads to itself, login prompts). Chrome's renderer also drops the body's encoding and length headers
 * (it hands over the body decoded); Firefox's passes the body as the server sent it.
 */
export const OUTSIDE_PAGE_HEADERS: ReadonlySet<string> = new Set([
  'set-cookie',
  'set-cookie2',
  'content-disposition',
  'strict-transport-security',
  'alt-svc',
  'clear-site-data',
  'report-to',
  'reporting-endpoints',
  'nel',
  'www-authenticate',
  'proxy-authenticate',
]);

/**
 * Response headers never passed to the tab, because the tab is in the user's profile and the browser would
 * act on them outside the page:
 * - the body is given whole and decoded: no `content-encoding`, `content-length`, `transfer-encoding`;
 * - nothing lands in or leaves the profile: no cookie set, no HSTS or Alt-Svc entry for the host, no
 *   `Clear-Site-Data` wiping the user's own data for the site, no download (`content-disposition`);
 * - no request the crawl does not make: no Reporting API or NEL endpoint (the browser uploads those
 *   reports itself, outside the tab), no login prompt (`www-authenticate`, `proxy-authenticate`).
 */
const DROPPED_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', ...OUTSIDE_PAGE_HEADERS]);

/** A header as `Fetch.fulfillRequest` takes it. */
export interface HeaderEntry {
  name: string;
  value: string;
}

/** The headers given to the tab for one answer, with the guard policy for the kind of resource. */
export function headersForTab(headers: readonly [string, string][], resourceType: string): HeaderEntry[] {
  const kept = headers
    .filter(([name]) => !DROPPED_HEADERS.has(name.toLowerCase()))
    .map(([name, value]) => ({ name, value }));
  if (resourceType === 'Document') kept.push({ name: 'content-security-policy', value: DOCUMENT_POLICY });
  else if (resourceType === 'Script' || resourceType === 'Other') {
    kept.push({ name: 'content-security-policy', value: WORKER_POLICY });
  }
  return kept;
}

/** Chrome's `Network.ResourceType` names, as the crawl's port names them. */
const REQUEST_TYPES: Readonly<Record<string, PageRequestType>> = {
  Document: 'document',
  Stylesheet: 'stylesheet',
  Script: 'script',
  Image: 'image',
  Font: 'font',
  Media: 'media',
  XHR: 'xhr',
  Fetch: 'fetch',
  EventSource: 'eventsource',
  WebSocket: 'websocket',
  Manifest: 'manifest',
  Ping: 'beacon',
  CSPViolationReport: 'beacon',
};

/** The port's type for a request Chrome paused; `other` for what the port has no name for (prefetch, preflight, track). */
export function requestTypeOf(resourceType: string): PageRequestType {
  return Object.hasOwn(REQUEST_TYPES, resourceType) ? (REQUEST_TYPES[resourceType] ?? 'other') : 'other';
}

/** Chrome's `Network.ErrorReason` for a request the crawl refused: the page sees a blocked request. */
export function failReasonOf(because: RefusedBecause): 'BlockedByClient' | 'TimedOut' | 'Failed' {
  if (because === 'timeout') return 'TimedOut';
  if (because === 'failed') return 'Failed';
  return 'BlockedByClient';
}

/** Bytes as base64, as `Fetch.fulfillRequest` takes a body; in slices, so a large body does not overflow the stack. */
export function base64Of(bytes: Uint8Array): string {
  // Chrome 140+ encodes natively (Uint8Array.prototype.toBase64), without building a binary string first.
  const native = (bytes as Uint8Array & { toBase64?: () => string }).toBase64;
  if (typeof native === 'function') return native.call(bytes);
  const SLICE = 0x8000;
  const parts: string[] = [];
  for (let start = 0; start < bytes.length; start += SLICE) {
    parts.push(String.fromCharCode(...bytes.subarray(start, start + SLICE)));
  }
  return btoa(parts.join(''));
}

/** At most this many characters of one script error are kept (the port's bound). */
export const MAX_ERROR_CHARS = 500;
/** At most this many script errors are kept (the port's bound). */
export const MAX_SCRIPT_ERRORS = 20;
/** At most this many navigations are recorded: a page that navigates in a loop cannot grow the list past it. */
export const MAX_NAVIGATIONS = 100;

/** The shape of `Runtime.exceptionThrown`'s details this module reads. */
export interface ExceptionDetails {
  text?: string;
  exception?: { description?: string; value?: unknown };
}

/** One uncaught error or unhandled rejection, as one line of at most {@link MAX_ERROR_CHARS} characters. */
export function scriptErrorText(details: ExceptionDetails): string {
  const description = details.exception?.description;
  const value = details.exception?.value;
  let text = details.text ?? 'Uncaught';
  if (typeof description === 'string') text = `${text} ${description}`;
  else if (value !== undefined) text = `${text} ${String(value)}`;
  return text.slice(0, MAX_ERROR_CHARS);
}

/**
 * The decisions of the Firefox renderer that need no browser API (docs/rendering-firefox.md): the port's
 * names for Firefox's request types, which requests of a render are the page's own, which headers the tab
 * sends and gets, and a copied response as a {@link FetchOutcome}. Plain data and functions, tested in Node.
 */
import type { FetchOutcome, PageRequestType } from '../../../core/crawl/ports.ts';
import { DOCUMENT_POLICY, OUTSIDE_PAGE_HEADERS, WORKER_POLICY } from './page-guards.ts';

/** Firefox's `webRequest.ResourceType` names, as the crawl's port names them. */
const REQUEST_TYPES: Readonly<Record<string, PageRequestType>> = {
  main_frame: 'document',
  sub_frame: 'document',
  stylesheet: 'stylesheet',
  script: 'script',
  image: 'image',
  imageset: 'image',
  font: 'font',
  media: 'media',
  // Firefox names fetch and XMLHttpRequest alike (measured by the probe); the crawl treats both the same.
  xmlhttprequest: 'fetch',
  beacon: 'beacon',
  ping: 'beacon',
  csp_report: 'beacon',
  websocket: 'websocket',
  web_manifest: 'manifest',
};

/** The port's type for a request Firefox reported; `other` for what the port has no name for (object, prefetch, speculative…). */
export function pageRequestTypeOf(firefoxType: string): PageRequestType {
  return Object.hasOwn(REQUEST_TYPES, firefoxType) ? (REQUEST_TYPES[firefoxType] ?? 'other') : 'other';
}

/**
 * Whether a request of the render tab is the browser's own request for the tab's icon (`/favicon.ico`, an
 * image), which the renderer cancels without asking the crawl: measured in Firefox ESR 153, that request, let
 * go with its response filtered, reached the server (a 404) and then neither ended nor failed until the tab
 * closed, holding its host's turn for the rest of the render. A page's own `<img src="/favicon.ico">` is
 * cancelled too.
 */
export function isTabIconRequest(firefoxType: string, url: string): boolean {
  if (firefoxType !== 'image' || !URL.canParse(url)) return false;
  return new URL(url).pathname === '/favicon.ico';
}

/** The URL without its fragment (the port's form; the server never sees a fragment). */
export function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

/** The fields of a `webRequest` event's details that say where a request comes from. */
export interface RequestSource {
  tabId: number;
  type: string;
  originUrl?: string;
  documentUrl?: string;
}

/**
 * What the renderer does with a request that is not of its tab, while it renders a page of `pageOrigin`:
 * `cancel` a request of a tab the render tab opened (`openedTabs`), and one with no tab (`tabId` -1: a
 * service worker, which Firefox reports so) whose document or origin is the rendered page's origin; `ignore`
 * anything else (the user's tabs, the crawl's own fetches, whose origin is the add-on's).
 */
export function outsideRequestAction(
  source: RequestSource,
  pageOrigin: string,
  openedTabs: ReadonlySet<number>,
): 'cancel' | 'ignore' {
  if (openedTabs.has(source.tabId)) return 'cancel';
  if (source.tabId !== -1) return 'ignore';
  const from = source.documentUrl ?? source.originUrl ?? '';
  return from === pageOrigin || from.startsWith(`${pageOrigin}/`) ? 'cancel' : 'ignore';
}

/** A header as `webRequest` gives and takes it. */
export interface HttpHeader {
  name: string;
  value?: string;
}

/**
 * The request headers the render tab sends: the crawl's User-Agent instead of the browser's, and no
 * `Cookie` (nor `Authorization`): the tab is in the user's profile, and the crawl's own requests carry none.
 */
export function requestHeadersForTab(headers: readonly HttpHeader[], userAgent: string): HttpHeader[] {
  const dropped = new Set(['user-agent', 'cookie', 'authorization']);
  const kept = headers.filter((header) => !dropped.has(header.name.toLowerCase()));
  kept.push({ name: 'User-Agent', value: userAgent });
  return kept;
}

/**
 * Response headers never passed to the tab, because the browser would act on them in the user's profile:
 * cookies, HSTS and Alt-Svc entries for the host, `Clear-Site-Data`, reporting endpoints the browser uploads
 * to itself, login prompts. (The body passes as the server sent it: its encoding and length headers stay.)
 */
const DROPPED_RESPONSE_HEADERS: ReadonlySet<string> = OUTSIDE_PAGE_HEADERS;

/**
 * The response headers the tab gets, with the guard policy Chrome's renderer adds (`page-guards.ts`): on a
 * frame's document, `sandbox` without popups, dialogs, downloads or top navigation and no WebSocket; on a
 * script (a worker's main script among them), no WebSocket.
 */
export function responseHeadersForTab(headers: readonly HttpHeader[], firefoxType: string): HttpHeader[] {
  const kept = headers.filter((header) => !DROPPED_RESPONSE_HEADERS.has(header.name.toLowerCase()));
  if (firefoxType === 'main_frame' || firefoxType === 'sub_frame') {
    kept.push({ name: 'Content-Security-Policy', value: DOCUMENT_POLICY });
  } else if (firefoxType === 'script') {
    kept.push({ name: 'Content-Security-Policy', value: WORKER_POLICY });
  }
  return kept;
}

/** Headers as the port stores them: lower-cased names, in the order served (a header without a value has ''). */
export function storedHeadersOf(headers: readonly HttpHeader[]): [string, string][] {
  return headers.map((header): [string, string] => [header.name.toLowerCase(), header.value ?? '']);
}

/** What was copied of one response the tab's request received. */
export interface CopiedResponse {
  status: number;
  /** As the server sent them, before the tab's were changed. */
  headers: [string, string][];
  statusLine: string | null;
  requestHeaders: [string, string][] | null;
  ipAddress: string | null;
  /** The server's time to answer, on the browser's network clock (`WireDetails.serverMs`); null when not seen. */
  serverMs: number | null;
  body: Uint8Array | null;
  truncated: boolean;
  startedAt: number;
  endedAt: number;
}

/** A `Location` resolved against the request URL, or null when absent or not a URL. */
export function resolvedLocation(headers: readonly [string, string][], requestUrl: string): string | null {
  const location = headers.find(([name]) => name === 'location')?.[1];
  if (location === undefined) return null;
  try {
    return new URL(location, requestUrl).href;
  } catch {
    return null;
  }
}

/** The copied response as the crawl's fetch outcome: a 3xx with its `Location` resolved and no body. */
export function outcomeOfCopy(copy: CopiedResponse, requestUrl: string): FetchOutcome {
  const isRedirect = copy.status >= 300 && copy.status < 400;
  return {
    ok: true,
    status: copy.status,
    headers: copy.headers,
    location: isRedirect ? resolvedLocation(copy.headers, requestUrl) : null,
    body: isRedirect ? null : copy.body,
    truncated: isRedirect ? false : copy.truncated,
    wire: {
      statusLine: copy.statusLine,
      requestHeaders: copy.requestHeaders,
      ipAddress: copy.ipAddress,
      serverMs: copy.serverMs,
    },
    startedAt: copy.startedAt,
    endedAt: copy.endedAt,
  };
}

/**
 * Joins copied chunks into one buffer of at most `limit` bytes.
 * @returns the bytes, and whether more than `limit` arrived.
 */
export function joinChunks(chunks: readonly Uint8Array[], limit: number): { bytes: Uint8Array; truncated: boolean } {
  const total = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  const size = Math.min(total, Math.max(0, limit));
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    if (offset >= size) break;
    const piece = chunk.subarray(0, size - offset);
    bytes.set(piece, offset);
    offset += piece.byteLength;
  }
  return { bytes, truncated: total > size };
}

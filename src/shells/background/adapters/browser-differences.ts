/**
 * Where Chrome's and Firefox's extension APIs differ, for the adapters that
 * use them. The two builds share every line of code: an adapter asks which
 * browser it runs in and takes that browser's entry here, instead of being
 * built twice. Plain data and functions (no browser API), so tested in Node.
 * docs/firefox.md lists every difference, these and the others.
 */
export type BrowserKind = 'chrome' | 'firefox';

/**
 * The browser, from the URL of Tabcrawl's own pages (`runtime.getURL('/')`): `moz-extension://` in
 * Firefox, `chrome-extension://` in Chrome (and the browsers built on Chromium).
 */
export function browserKindOf(pagesUrl: string): BrowserKind {
  return pagesUrl.startsWith('moz-extension:') ? 'firefox' : 'chrome';
}

/** The fields of an event's details that say where a request came from (Chrome and Firefox name them apart). */
export interface RequestOrigin {
  tabId: number;
  /** Chrome: the origin that started the request. */
  initiator?: string;
  /** Firefox: the URL of the document that started it (for the background, its generated page). */
  originUrl?: string;
}

/**
 * What differs between the browsers' `webRequest`:
 * - Chrome hides some headers (Cookie, Referer, …) unless a listener asks for `extraHeaders`; Firefox
 *   shows them all and rejects that value (the listener is not added, the background script stops).
 * - Chrome names the request's origin `initiator`; Firefox gives the `originUrl` of the document.
 */
export const WEB_REQUEST_DIFFERENCES: Readonly<
  Record<BrowserKind, { extraHeaders: 'extraHeaders'[]; isFrom: (details: RequestOrigin, origin: string) => boolean }>
> = {
  chrome: { extraHeaders: ['extraHeaders'], isFrom: (details, origin) => details.initiator === origin },
  firefox: { extraHeaders: [], isFrom: (details, origin) => details.originUrl?.startsWith(`${origin}/`) === true },
};

/**
 * The names `webRequest.onErrorOccurred` gives a host that cannot be reached, in each browser: Chrome's net
 * errors, Firefox's nsresult names. A host name that does not resolve (or whose resolution failed) is `dns`;
 * a connection refused (nothing listens on the port) is `refused`, and so is a port the browser itself never
 * connects to (Chromium's list of unsafe ports, such as 1 or 25; Firefox's banned ports): no browser reaches it, so
 * a link there is as broken as one to a closed port. Any other error is a plain network failure.
 */
export const UNREACHABLE_ERRORS: Readonly<Record<string, 'dns' | 'refused'>> = {
  'net::ERR_NAME_NOT_RESOLVED': 'dns',
  'net::ERR_NAME_RESOLUTION_FAILED': 'dns',
  'net::ERR_CONNECTION_REFUSED': 'refused',
  'net::ERR_UNSAFE_PORT': 'refused',
  NS_ERROR_UNKNOWN_HOST: 'dns',
  NS_ERROR_CONNECTION_REFUSED: 'refused',
  NS_ERROR_PORT_ACCESS_NOT_ALLOWED: 'refused',
};

/** Which kind of unreachable host a browser's error name says (see {@link UNREACHABLE_ERRORS}), or null for any other failure. */
export function unreachableKindOf(error: string | null): 'dns' | 'refused' | null {
  if (error === null || !Object.hasOwn(UNREACHABLE_ERRORS, error)) return null;
  return UNREACHABLE_ERRORS[error] ?? null;
}

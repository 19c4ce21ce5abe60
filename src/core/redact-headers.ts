/**
 * Credentials kept out of what Tabcrawl stores and exports. A crawl *with my
 * cookies* sends the profile's `Cookie` (and whatever `Authorization` the
 * browser adds); an archive is made to be shared, and whoever holds a live
 * session cookie holds the session. So:
 *
 * - the values of the request headers in {@link SECRET_REQUEST_HEADERS} are
 *   replaced by {@link REDACTED_VALUE} when the row is made (the name stays,
 *   so an archive still says the request carried one): nothing stored holds them;
 * - `Set-Cookie` response values are stored as served, but replaced the same
 *   way in exports (unless the user asks to keep them) and in the URL detail.
 *
 * Pure; names are matched in any case. docs/security.md says the same.
 */

/** What stands in for a removed header value. */
export const REDACTED_VALUE = '[removed by Tabcrawl]';

/** Request headers whose values are credentials: never stored. */
export const SECRET_REQUEST_HEADERS: ReadonlySet<string> = new Set(['cookie', 'authorization', 'proxy-authorization']);

/** Response headers that set cookies: removed from exports unless asked for. */
export const SET_COOKIE_HEADERS: ReadonlySet<string> = new Set(['set-cookie', 'set-cookie2']);

type Headers = readonly (readonly [string, string])[];

function redact(headers: Headers, names: ReadonlySet<string>): [string, string][] {
  return headers.map(([name, value]): [string, string] => [
    name,
    names.has(name.toLowerCase()) ? REDACTED_VALUE : value,
  ]);
}

/** Request headers with the values of `Cookie`, `Authorization` and `Proxy-Authorization` replaced; null stays null. */
export function redactRequestHeaders(headers: Headers | null | undefined): [string, string][] | null {
  return headers === null || headers === undefined ? null : redact(headers, SECRET_REQUEST_HEADERS);
}

/** Response headers with the values of `Set-Cookie` (and `Set-Cookie2`) replaced. */
export function redactSetCookies(headers: Headers): [string, string][] {
  return redact(headers, SET_COOKIE_HEADERS);
}

/** Whether any header would be redacted: a row that needs no copy is passed on as it is. */
function holdsAny(headers: Headers | null, names: ReadonlySet<string>): boolean {
  return headers !== null && headers.some(([name, value]) => value !== REDACTED_VALUE && names.has(name.toLowerCase()));
}

/**
 * A row as exported: its request credentials always replaced (rows stored
 * before they were removed at capture, or imported from another archive,
 * may hold them), its `Set-Cookie` values too unless `keepSetCookies`.
 * The row itself is not changed; one that holds none is returned as it is.
 */
export function redactRow<T extends { headers: Headers; requestHeaders: Headers | null }>(
  row: T,
  options: { keepSetCookies: boolean },
): T {
  const request = holdsAny(row.requestHeaders, SECRET_REQUEST_HEADERS);
  const response = !options.keepSetCookies && holdsAny(row.headers, SET_COOKIE_HEADERS);
  if (!request && !response) return row;
  return {
    ...row,
    requestHeaders: request ? redactRequestHeaders(row.requestHeaders) : row.requestHeaders,
    headers: response ? redactSetCookies(row.headers) : row.headers,
  };
}

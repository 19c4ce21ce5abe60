/**
 * SURT keys ("Sort-friendly URI Reordering Transform") for CDXJ indexes:
 * `https://www.Example.com:8080/a/B?z=1&a=2` → `com,example:8080)/a/b?a=2&z=1`.
 *
 * The key must be the one ReplayWeb.page computes for a URL it looks up:
 * wabac.js keys its index lookups with warcio.js's `getSurt`, so these rules
 * follow that function (read in warcio.js 2.4.11, `src/lib/utils.ts`):
 *
 * - only `http:` and `https:` URLs are transformed; anything else is its own key;
 * - the whole URL is lower-cased (path and query included);
 * - one leading `www.` label (also `www2.`, `www13.` ...) is dropped;
 * - the scheme is dropped; host labels are reversed and joined by `,`
 *   (IPv4 addresses too: unlike Python `surt`, warcio.js does not special-case them);
 * - a non-default port follows the host as `:port`; default ports vanish;
 * - then `)`, the path, and the query's `&`-separated arguments sorted by
 *   UTF-16 code unit; an empty query and the fragment are dropped.
 *
 * One deliberate difference: warcio.js matches `http`/`www` before lower-casing,
 * so it keeps `WWW.` in `http://WWW.example.com/`. Here case never matters.
 * For URLs already serialized by the WHATWG URL parser (what the crawl
 * stores: lower-case scheme and host) the two agree.
 *
 * @see https://github.com/webrecorder/warcio.js/blob/main/src/lib/utils.ts (`getSurt`)
 * @see https://specs.webrecorder.net/cdxj/0.1.0/ (the key is a SURT)
 */

/** A leading `www`, `www2`, ... label, after the scheme. */
const LEADING_WWW = /^(https?:\/\/)www\d*\./;

/**
 * The SURT key of `url` as wabac.js computes it. Never throws: a URL that
 * does not parse is its own key (as in warcio.js).
 */
export function surt(url: string): string {
  const lower = url.toLowerCase();
  if (!lower.startsWith('http:') && !lower.startsWith('https:')) return url;
  let parsed: URL;
  try {
    parsed = new URL(lower.replace(LEADING_WWW, '$1'));
  } catch {
    return url;
  }
  const host = parsed.hostname.split('.').reverse().join(',');
  const port = parsed.port === '' ? '' : `:${parsed.port}`;
  const query = parsed.search === '' ? '' : `?${sortedQuery(parsed.search.slice(1))}`;
  return `${host}${port})${parsed.pathname}${query}`;
}

/** Query arguments sorted by UTF-16 code unit (JavaScript's default sort, as warcio.js). */
function sortedQuery(query: string): string {
  return query.split('&').sort().join('&');
}

/**
 * The key of a capture made with another method than GET: the method is
 * appended as a `__wb_method=<method>` query argument before the SURT is
 * taken, the convention of pywb and warcio.js (`appendRequestQuery`), so a
 * HEAD capture never answers a lookup for the GET of the same URL.
 */
export function surtForMethod(url: string, method: string): string {
  if (method.toUpperCase() === 'GET') return surt(url);
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  const separator = base.endsWith('?') ? '' : base.includes('?') ? '&' : '?';
  return surt(`${base}${separator}__wb_method=${method.toLowerCase()}`);
}

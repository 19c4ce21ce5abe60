/**
 * URL normalization: one canonical string per crawlable resource, so that the
 * frontier and the crawl table can key on it.
 *
 * Pure: only the WHATWG `URL` parser, which lower-cases the host, converts
 * IDN hosts to punycode, drops default ports, resolves dot segments and gives
 * http(s) URLs a path of at least "/", and the removal of session ids.
 */
import { stripSessionIds } from './session-ids.ts';

/** ASCII whitespace as HTML strips it from attribute values (tab, LF, FF, CR, space). */
const ASCII_WHITESPACE = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;

/**
 * Resolves `href` against `base` and returns the normalized absolute URL, or
 * null when it is not a crawlable http(s) URL.
 *
 * Normalization is only what the WHATWG parser does (host lower-cased and
 * punycoded, default port dropped, dot segments resolved, empty path → "/")
 * plus dropping the fragment, which never reaches the server, and session
 * ids (`;jsessionid=`, `PHPSESSID=`..., see {@link stripSessionIds}), which
 * would give every page a new URL on every visit. Other query parameters keep
 * their order and percent-encoding is left as the parser leaves it
 * (`%zz` and a lone `%` included): reordering or decoding could name a
 * different resource.
 *
 * @param href a URL as written in a page, e.g. an `href` attribute value;
 *   surrounding ASCII whitespace is ignored.
 * @param base absolute URL that a relative `href` is resolved against.
 * @returns the absolute URL without fragment, or null for invalid URLs and
 *   schemes other than http and https (`javascript:`, `mailto:`, `data:`, ...).
 */
export function normalizeUrl(href: string, base?: string): string | null {
  let url: URL;
  try {
    url = new URL(href.replace(ASCII_WHITESPACE, ''), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  stripSessionIds(url);
  return url.href;
}

/**
 * Scheme, host and port of an absolute URL, e.g. `https://example.com:8443`
 * (no port when it is the scheme's default): the unit of politeness.
 *
 * @param url an absolute URL, normally one returned by {@link normalizeUrl}.
 * @throws TypeError when `url` is not an absolute URL: a caller bug, since
 *   every URL in the crawl is normalized first.
 */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/**
 * The origin of an http(s) URL, or null for anything else (`chrome://`,
 * `about:blank`, no URL, not a URL): for what pages show and compare, where
 * a tab's URL may be anything. Never throws.
 */
export function httpOrigin(url: string | null | undefined): string | null {
  if (url === null || url === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
}

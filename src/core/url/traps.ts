/**
 * Crawler traps: URL spaces without end that sites make by accident, such as
 * relative links that nest a path forever (`/a/b/a/b/...`), calendars whose
 * "next month" link never runs out, filters and sort orders that combine
 * without limit, redirect chains. The page limit and the depth always end a
 * crawl; the rules here keep one trap from spending the whole page limit.
 * Session ids in URLs are removed earlier, by `normalizeUrl`.
 *
 * Pure: small functions of a URL, and one counter that the crawl keeps per
 * crawl for query variants.
 */

/**
 * Longest URL followed, in characters (of the normalized, percent-encoded URL).
 * Longer URLs are almost always generated (parameters appended on every visit)
 * and most servers refuse them anyway: Apache and nginx answer 414 to a
 * request line over about 8 KB by default. Twice the 2,048 characters the
 * sitemap protocol allows, so real long URLs still pass.
 */
export const MAX_URL_LENGTH = 4096;

/**
 * Most path segments followed (`/a/b/c` has 3). Sites organised by hand stay
 * far below; deeper paths come from relative links nesting themselves.
 */
export const MAX_PATH_SEGMENTS = 32;

/**
 * How many times in a row one run of path segments may appear. `/a/a` and
 * `/x/y/x/y` pass; `/a/a/a` and `/x/y/x/y/x/y` are a trap: a page that links
 * to `a/` relative to itself. Three in a row, not two, because sites do have
 * `/2024/10/10/` or `/docs/docs/`.
 */
export const MAX_SEGMENT_RUN_REPEATS = 2;

/**
 * Most redirects in a row followed from one URL: the target of the 21st is
 * recorded as the `location` of the 20th hop but not queued. The limit
 * browsers and the Fetch standard use (a redirect count of 20 is a network error).
 * @see https://fetch.spec.whatwg.org/#http-redirect-fetch
 */
export const MAX_REDIRECT_HOPS = 20;

/**
 * Fewest query variants (distinct URLs with the same scheme, host, port and
 * path, and a query) admitted per path, whatever the page limit. A listing
 * paged with `?page=N` or a search with a few facets stays under it.
 */
export const MIN_QUERY_VARIANTS_PER_PATH = 50;

/**
 * Share of the page limit one path's query variants may take when that is
 * more than {@link MIN_QUERY_VARIANTS_PER_PATH}: a calendar at
 * `/events?date=...` or a filter page whose parameters combine without end
 * gets at most a tenth of the crawl.
 */
export const QUERY_VARIANTS_SHARE = 0.1;

/** Why a URL is not followed: which of the rules above it breaks. */
export type TrapReason = 'long-url' | 'deep-path' | 'repeated-segments' | 'query-variants';

/**
 * The rule a URL breaks on its own (length, path depth, repeated segments),
 * or null when it breaks none. A string that is not an absolute URL breaks
 * none here: the crawl's scope rejects it.
 */
export function urlTrapReason(url: string): TrapReason | null {
  if (url.length > MAX_URL_LENGTH) return 'long-url';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const segments = pathSegments(parsed.pathname);
  if (segments.length > MAX_PATH_SEGMENTS) return 'deep-path';
  if (hasRepeatedRun(segments, MAX_SEGMENT_RUN_REPEATS + 1)) return 'repeated-segments';
  return null;
}

/** The segments of a path, without the empty one a trailing `/` makes: `/a//b/` → `['a', '', 'b']`. */
export function pathSegments(pathname: string): string[] {
  const segments = pathname.split('/').slice(1);
  if (segments.at(-1) === '') segments.pop();
  return segments;
}

/**
 * Whether some run of one or more consecutive segments appears `times` times
 * in a row: with `times` = 3, `a/a/a` and `x/a/b/a/b/a/b/y` do; `a/b/a/c/a` does not.
 */
export function hasRepeatedRun(segments: readonly string[], times: number): boolean {
  const count = segments.length;
  for (let length = 1; length * times <= count; length += 1) {
    for (let start = 0; start + length * times <= count; start += 1) {
      let repeats = true;
      for (let k = length; k < length * times && repeats; k += 1) {
        repeats = segments[start + k] === segments[start + (k % length)];
      }
      if (repeats) return true;
    }
  }
  return false;
}

/** Most query variants admitted per path for a crawl of `maxPages` URLs. */
export function queryVariantsCap(maxPages: number): number {
  return Math.max(MIN_QUERY_VARIANTS_PER_PATH, Math.ceil(maxPages * QUERY_VARIANTS_SHARE));
}

/**
 * What query variants are counted under: scheme, host, port and path of a URL
 * with a non-empty query (`http://a.test/cal?m=5` → `http://a.test/cal`);
 * null for a URL without one, or not a URL.
 */
export function queryVariantKey(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.search === '' ? null : `${parsed.origin}${parsed.pathname}`;
  } catch {
    return null;
  }
}

/**
 * Counts the query variants of each path in one crawl and says when a path
 * has had its share ({@link queryVariantsCap}).
 */
export class QueryVariantCounter {
  private readonly counts = new Map<string, number>();

  /** @param cap most variants admitted per path. */
  constructor(readonly cap: number) {}

  /** Counts a URL the crawl already holds (when rebuilding the counts). */
  add(url: string): void {
    const key = queryVariantKey(url);
    if (key !== null) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** Whether a new URL may be admitted; counts it when it may. URLs without a query always may. */
  admit(url: string): boolean {
    const key = queryVariantKey(url);
    if (key === null) return true;
    const count = this.counts.get(key) ?? 0;
    if (count >= this.cap) return false;
    this.counts.set(key, count + 1);
    return true;
  }

  /** Variants counted for the path of `url`. */
  countFor(url: string): number {
    const key = queryVariantKey(url);
    return key === null ? 0 : (this.counts.get(key) ?? 0);
  }
}

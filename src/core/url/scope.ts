/**
 * Crawl scope: which URLs a crawl may admit, decided from the settings alone.
 *
 * Pure and synchronous; patterns and the start URL are parsed once, in
 * {@link createScope}, because `check` runs for every link of every page.
 */
import type { CrawlSettings } from '../settings.ts';

/**
 * Whether a URL is in scope and, when it is not, the first rule that rejected it:
 * - `scheme`: not an http(s) URL (or not parseable), or, without
 *   `includeSubdomains`, another scheme than the start URL's;
 * - `host`: another host, or another port, than the scope allows;
 * - `prefix`: the path does not start with `pathPrefix` (never for a URL of one of `extraOrigins`);
 * - `excluded`: the URL matches `pattern`, one of `excludePatterns`.
 */
export type ScopeVerdict =
  { inScope: true } | { inScope: false; reason: 'scheme' | 'host' | 'prefix' | 'excluded'; pattern?: string };

/** A compiled scope. */
export interface Scope {
  /** Checks one absolute URL (normally already normalized). Never throws. */
  check(url: string): ScopeVerdict;
}

const IN_SCOPE: ScopeVerdict = Object.freeze({ inScope: true });

/**
 * Compiles the scope rules of a crawl:
 * - default: same origin as `startUrl` (scheme, host and port);
 * - `includeSubdomains`: http or https, the host equal to the start host
 *   without its leading `www.` or ending in `.` + that; the port must be the
 *   same as the start's (when the start uses its scheme's default port, any
 *   URL on its own scheme's default port is accepted, so http:80 and https:443 mix);
 * - `extraOrigins`: a URL whose origin (scheme, host and port) is one of
 *   them is in scope too, whatever the rules above say of its host;
 * - `pathPrefix` (non-empty): the URL's path must start with it. The prefix
 *   is percent-encoded as the URL parser encodes paths, so `/café/` matches
 *   `/caf%C3%A9/`. It applies to the start site (and its subdomains), not to
 *   the extra origins: a prefix is a place in one site's tree (`/docs/`), and
 *   another site named on its own is meant whole, so its links are followed
 *   from its root. To narrow an extra site, use an exclude pattern;
 * - `excludePatterns`: see {@link matchesWildcard}; they apply to every URL,
 *   extra origins included.
 *
 * @throws TypeError when `startUrl` is not an absolute URL (settings are
 *   validated before a scope is built).
 */
export function createScope(
  options: Pick<CrawlSettings, 'startUrl' | 'includeSubdomains' | 'pathPrefix' | 'excludePatterns'> & {
    /** Validated origins (`URL.origin` form); absent on crawls stored before the setting existed. */
    extraOrigins?: readonly string[];
  },
): Scope {
  const start = new URL(options.startUrl);
  const extraOrigins: ReadonlySet<string> = new Set(options.extraOrigins ?? []);
  const rootHost = start.hostname.startsWith('www.') ? start.hostname.slice('www.'.length) : start.hostname;
  const pathPrefix = encodePathPrefix(options.pathPrefix);
  const patterns = options.excludePatterns.map((pattern) => ({ pattern, matches: compileWildcard(pattern) }));

  return {
    check(text: string): ScopeVerdict {
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        return { inScope: false, reason: 'scheme' };
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return { inScope: false, reason: 'scheme' };
      if (extraOrigins.size > 0 && extraOrigins.has(url.origin)) return excluded(url.href);
      if (options.includeSubdomains) {
        const host = url.hostname;
        if (url.port !== start.port || (host !== rootHost && !host.endsWith(`.${rootHost}`))) {
          return { inScope: false, reason: 'host' };
        }
      } else {
        // Another site first: a link to http://other.example from an https start is another site, not the
        // start site over another scheme.
        if (url.host !== start.host) return { inScope: false, reason: 'host' };
        if (url.protocol !== start.protocol) return { inScope: false, reason: 'scheme' };
      }
      if (pathPrefix !== '' && !url.pathname.startsWith(pathPrefix)) return { inScope: false, reason: 'prefix' };
      return excluded(url.href);
    },
  };

  /** The verdict of the exclude patterns on a URL every other rule admits. */
  function excluded(href: string): ScopeVerdict {
    for (const { pattern, matches } of patterns) {
      if (matches(href)) return { inScope: false, reason: 'excluded', pattern };
    }
    return IN_SCOPE;
  }
}

/** What decides which sites a crawl may request (path prefix and exclude patterns narrow URLs, not sites). */
export type SiteSettings = Pick<CrawlSettings, 'startUrl' | 'includeSubdomains'> & { extraOrigins?: readonly string[] };

/**
 * A site (origin) both crawls may request, or null when they can never
 * request the same one. Each crawl keeps its hosts' gaps on its own clocks,
 * so two crawls sharing a site could send it two requests closer than the
 * delay: the caller runs only one of them at a time.
 *
 * Sound for the sites a crawl names (its start site and extra sites) and for
 * subdomains: two subdomain scopes share a host only when one root ends with
 * the other, and then the one's start host is in the other's scope.
 */
export function sharedSite(a: SiteSettings, b: SiteSettings): string | null {
  const sitesOf = (settings: SiteSettings): string[] => [
    new URL(settings.startUrl).origin,
    ...(settings.extraOrigins ?? []),
  ];
  const scopeOf = (settings: SiteSettings): Scope => createScope({ ...settings, pathPrefix: '', excludePatterns: [] });
  const [scopeA, scopeB] = [scopeOf(a), scopeOf(b)];
  for (const origin of sitesOf(a)) if (scopeB.check(`${origin}/`).inScope) return origin;
  for (const origin of sitesOf(b)) if (scopeA.check(`${origin}/`).inScope) return origin;
  return null;
}

/**
 * Whether `url` matches `pattern` as a whole (anchored at both ends).
 * `*` matches any run of characters, including none and `/`; every other
 * character is literal (`.`, `?`, `+` ... have no special meaning).
 * Case-sensitive. Examples: `*?sessionid=*`, `*.pdf`, `http*://example.com/cgi-bin/*`.
 *
 * Matching is a left-to-right scan for the literal pieces, so its cost is
 * linear-ish in the URL's length whatever the pattern (a regex of `.*` runs
 * can backtrack badly on hostile URLs).
 */
export function matchesWildcard(pattern: string, url: string): boolean {
  return compileWildcard(pattern)(url);
}

/** Splits a wildcard pattern once into its literal pieces and returns the matcher. */
function compileWildcard(pattern: string): (url: string) => boolean {
  const pieces = pattern.split('*');
  const first = pieces[0] ?? '';
  if (pieces.length === 1) return (url) => url === pattern;
  const last = pieces[pieces.length - 1] ?? '';
  const middle = pieces.slice(1, -1).filter((piece) => piece !== '');
  return (url) => {
    if (url.length < first.length + last.length || !url.startsWith(first) || !url.endsWith(last)) return false;
    const end = url.length - last.length;
    let position = first.length;
    // Taking the leftmost match of each piece leaves the most room for the next ones.
    for (const piece of middle) {
      const found = url.indexOf(piece, position);
      if (found < 0 || found + piece.length > end) return false;
      position = found + piece.length;
    }
    return true;
  };
}

/**
 * Percent-encodes a path prefix as URL paths are encoded; leaves it as given when it is not a plain path
 * (what {@link createScope} compares paths with; the Browsertrix hand-off writes the same prefix).
 */
export function encodePathPrefix(prefix: string): string {
  if (prefix === '' || !prefix.startsWith('/') || /[?#]/.test(prefix)) return prefix;
  try {
    return new URL(`http://prefix.invalid${prefix}`).pathname;
  } catch {
    return prefix;
  }
}

/**
 * A Tabcrawl crawl's scope (`core/url/scope.ts`) as the regular expressions
 * Browsertrix Crawler takes (`scopeType: custom`, `include`, `exclude`).
 *
 * Pure. Browsertrix tests its regexes with `RegExp.prototype.test` on each
 * URL (without its fragment, query parameters sorted), so every expression
 * here is anchored: `include` ones at the start (a prefix of the URL),
 * `exclude` ones at both ends (Tabcrawl's wildcard patterns match the whole URL).
 *
 * Why `custom` and not Browsertrix's own scope types: its `prefix`, `host`
 * and `domain` scopes take http and https alike and ignore a leading `www.`
 * (`www2.` too), where Tabcrawl's scope without subdomains is the start URL's
 * origin exactly (scheme, host and port); and its `domain` scope takes any
 * port. Written out, the regexes accept what Tabcrawl accepts.
 */
import type { CrawlSettings } from '../core/settings.ts';
import { encodePathPrefix } from '../core/url/scope.ts';

/** What the scope is decided from. */
export type ScopeSettings = Pick<
  CrawlSettings,
  'startUrl' | 'includeSubdomains' | 'pathPrefix' | 'excludePatterns' | 'extraOrigins'
>;

/** The scope as Browsertrix's `include` and `exclude` lists. */
export interface BrowsertrixScope {
  /** One regex for the start site (with its subdomains and path prefix), then one per extra site. */
  include: string[];
  /** One regex per exclude pattern, in the same order. */
  exclude: string[];
}

/**
 * `text` with every character that means something in a JavaScript regular
 * expression escaped. `/` and `-` are left alone: neither is special outside
 * a character class, and `\-` is an error in a `u`-flag regex.
 */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

/**
 * A Tabcrawl exclude pattern (`*` = any run of characters, everything else
 * literal, matched against the whole URL, case-sensitive; see `matchesWildcard`)
 * as an anchored regex: `*?sessionid=*` → `^.*\?sessionid=.*$`.
 * (URLs hold no line break, so `.` matches every character of one.)
 */
export function wildcardToRegex(pattern: string): string {
  // `**` matches what `*` does: one `.*` per run of stars keeps the regex from backtracking for nothing.
  return `^${pattern.split(/\*+/).map(escapeRegex).join('.*')}$`;
}

/** A regex that matches no URL (a path prefix with `?` or `#` admits none: paths have neither). */
const NOTHING = '^(?!)';

/**
 * The start site's regex: its origin, or with subdomains any host that is the
 * start host without its leading `www.` or ends with `.` + that, over http or
 * https, on the start URL's port; then the path prefix, percent-encoded as
 * Tabcrawl compares it.
 */
function startSiteRegex(settings: Pick<ScopeSettings, 'startUrl' | 'includeSubdomains' | 'pathPrefix'>): string {
  const start = new URL(settings.startUrl);
  const prefix = encodePathPrefix(settings.pathPrefix);
  if (prefix !== '' && (!prefix.startsWith('/') || /[?#]/.test(prefix))) return NOTHING;
  const path = escapeRegex(prefix === '' ? '/' : prefix);
  if (!settings.includeSubdomains) return `^${escapeRegex(start.origin)}${path}`;
  const rootHost = start.hostname.startsWith('www.') ? start.hostname.slice('www.'.length) : start.hostname;
  // Without a port in the start URL, only URLs on their own scheme's default port (no port written), as Tabcrawl.
  const port = start.port === '' ? '' : `:${start.port}`;
  // A label run before the root ends with `.`; `@` and `:` are kept out so that user info cannot pose as a host.
  return `^https?://(?:[^/?#@:]+\\.)?${escapeRegex(rootHost)}${escapeRegex(port)}${path}`;
}

/** An extra site's regex: its whole origin (the path prefix is the start site's only). */
export function originRegex(origin: string): string {
  return `^${escapeRegex(new URL(origin).origin)}/`;
}

/**
 * The crawl's scope as Browsertrix's lists. A URL is in Tabcrawl's scope
 * exactly when one `include` regex and no `exclude` regex matches it (checked
 * on a table of URLs in `test/unit/browsertrix-config.test.ts`), with one
 * difference on purpose: a URL with a user name or password in it
 * (`https://user@example.com/`) is in no `include`, where Tabcrawl admits it
 * and then cannot fetch it.
 */
export function browsertrixScope(settings: ScopeSettings): BrowsertrixScope {
  return {
    include: [startSiteRegex(settings), ...(settings.extraOrigins ?? []).map(originRegex)],
    exclude: settings.excludePatterns.map(wildcardToRegex),
  };
}

/**
 * robots.txt as a pure policy: which URLs of one origin we may request, the
 * Crawl-delay that applies to us and the sitemaps the file lists.
 *
 * robots-parser does the grouping and the matching (longest match, Allow wins
 * a tie, `*` and `$`). On its own it falls short of RFC 9309, so this module
 * hands it a cleaned copy of the file and guards every call:
 * - it ends a run of User-agent lines at ANY other line (Sitemap, Host,
 *   Crawl-delay, unknown records), so "User-agent: a / Crawl-delay: 5 /
 *   User-agent: b" makes two groups: we drop every line but User-agent, Allow
 *   and Disallow, and read Crawl-delay ourselves (each one is for the
 *   User-agent lines right above it: see {@link CleanedRobots.agentDelaysMs});
 * - it reads only `name: value` lines: we also take a line whose colon was
 *   forgotten (`disallow /private`), as Google's reference parser does;
 * - it keys groups by the User-agent value cut at "/" only, so "Tabcrawl 1.0"
 *   never matches: we rewrite each value to its product token;
 * - it compares paths without decoding %XX of unreserved characters, and
 *   encodes rules with `encodeURI` but URLs with the URL parser, which
 *   disagree (`|`, `[`, `'`...): we rewrite rules and paths to one form;
 * - it compares a literal `*` or `$` of a URL with the rule's `%2A` or `%24`
 *   as different octets: we write them encoded in the URL, so the rule that
 *   spells them encoded matches (RFC 9309 §2.2.3);
 * - a group whose User-agent lines end the file is forgotten (falls back to
 *   `*`): we close it with an empty Disallow;
 * - it answers `undefined` for a URL of another origin (and `isDisallowed`
 *   then says true): we throw a RangeError before asking it;
 * - it keeps a leading BOM in the first record's name: we strip it first.
 *
 * The cleaned copy keeps one line per original line, so the line number
 * robots-parser reports for a decision points back to the rule as written.
 *
 * Pure: no I/O and no browser API beyond `URL`, `TextEncoder`, `TextDecoder`.
 * @see RFC 9309 (Robots Exclusion Protocol)
 */
import robotsParser from 'robots-parser';

/** The verdict on one URL. */
export interface RobotsDecision {
  allowed: boolean;
  /** The rule that decided, e.g. "Disallow: /private" (as written, comment and outer spaces removed), or null when no rule matched. */
  rule: string | null;
}

/** What one robots.txt means for us. */
export interface RobotsPolicy {
  /**
   * Decision for an absolute URL of the same origin as robots.txt; `/robots.txt`
   * itself is always allowed.
   * @throws RangeError for a URL that is not absolute or not of that origin:
   *   the file says nothing about it, so neither answer would be true.
   * @see RFC 9309 §2.2.2 (longest match; Allow wins a tie), §2.2.3 (`*`, `$`)
   */
  isAllowed(url: string): RobotsDecision;
  /** Crawl-delay of the group that applies to us, in ms (fractions of a second allowed: "0.05" → 50), or null when none/invalid. Not capped here. */
  crawlDelayMs: number | null;
  /**
   * Absolute http(s) Sitemap URLs listed anywhere in the file, resolved against
   * the robots.txt URL, distinct, in order.
   * @see RFC 9309 §2.2.4
   */
  sitemaps: string[];
  /**
   * Which group applied: our product token (lower case), `'*'`, or null when
   * no group applies and everything is allowed.
   * @see RFC 9309 §2.2.1
   */
  group: string | null;
}

/** Bytes of robots.txt parsed at most (RFC 9309 §2.5: at least 500 KiB). */
export const ROBOTS_MAX_BYTES = 512 * 1024;

/** Most redirect hops followed for robots.txt (RFC 9309 §2.3.1.2). */
export const ROBOTS_MAX_REDIRECTS = 5;

/**
 * The text of a robots.txt body as read, up to {@link ROBOTS_MAX_BYTES}. When
 * the read was cut at that limit, the last line is dropped: it is cut too, and
 * a cut rule means something else (`Allow: /private/open` cut to `Allow: /`).
 * Invalid UTF-8 (a binary file) becomes U+FFFD and never matches a record.
 * @param truncated the body was cut at the size limit (more followed).
 * @see RFC 9309 §2.5
 */
export function decodeRobotsBody(bytes: Uint8Array, truncated: boolean): string {
  const text = new TextDecoder().decode(bytes);
  if (!truncated) return text;
  const lastBreak = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  return text.slice(0, lastBreak + 1);
}

/** The robots.txt URL of an origin: `"http://h:8080"` → `"http://h:8080/robots.txt"`. @see RFC 9309 §2.3 */
export function robotsUrlFor(origin: string): string {
  return new URL('/robots.txt', origin).href;
}

/**
 * What an HTTP status of /robots.txt means.
 * 2xx → `'parse'`; 3xx → `'redirect'`; 429 → `'unavailable'` (the server asks
 * us to slow down, as a 5xx does); other 4xx → `'allow-all'`; 5xx and
 * anything else (0, 1xx, 999) → `'unavailable'`.
 * @see RFC 9309 §2.3.1.2 (redirects), §2.3.1.3 (4xx), §2.3.1.4 (5xx)
 */
export function classifyRobotsStatus(status: number): 'parse' | 'redirect' | 'allow-all' | 'unavailable' {
  if (!Number.isInteger(status)) return 'unavailable';
  if (status >= 200 && status < 300) return 'parse';
  if (status >= 300 && status < 400) return 'redirect';
  if (status === 429) return 'unavailable';
  if (status >= 400 && status < 500) return 'allow-all';
  return 'unavailable';
}

/** A policy that allows everything, for a robots.txt that is unavailable with a 4xx. @see RFC 9309 §2.3.1.3 */
export function allowAllPolicy(): RobotsPolicy {
  return {
    isAllowed: (url) => {
      absoluteUrl(url);
      return { allowed: true, rule: null };
    },
    crawlDelayMs: null,
    sitemaps: [],
    group: null,
  };
}

/**
 * A policy that disallows everything but /robots.txt, for a robots.txt that
 * is unreachable (5xx, 429, network failure).
 * @param reason reported as the `rule` of every decision, e.g. "robots.txt unreachable (503)".
 * @see RFC 9309 §2.3.1.4
 */
export function disallowAllPolicy(reason: string): RobotsPolicy {
  return {
    isAllowed: (url) =>
      absoluteUrl(url).pathname === '/robots.txt' ? { allowed: true, rule: null } : { allowed: false, rule: reason },
    crawlDelayMs: null,
    sitemaps: [],
    group: null,
  };
}

/**
 * Parses a robots.txt body (a 2xx answer) into our policy. Never throws on
 * the body: a BOM, any line ends, comments, lines without a colon, HTML or
 * binary garbage are skipped. Only the first {@link ROBOTS_MAX_BYTES} UTF-8
 * bytes are read, and a line cut by that limit is dropped.
 * @param robotsUrl absolute http(s) URL the body came from (after redirects); its origin is the policy's.
 * @param productToken our product token (`[A-Za-z_-]+`), matched case-insensitively.
 * @throws RangeError for a robots URL that is not http(s) or a product token that is not valid.
 * @see RFC 9309 §2.2 (groups and rules), §2.5 (size limit)
 */
export function parseRobots(robotsUrl: string, body: string, productToken: string): RobotsPolicy {
  const base = absoluteUrl(robotsUrl);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new RangeError(`robots.txt URL must be http(s): ${robotsUrl}`);
  }
  if (!PRODUCT_TOKEN.test(productToken)) {
    throw new RangeError(`not a product token (RFC 9309 §2.2.1): ${productToken}`);
  }
  const origin = base.origin;
  const token = productToken.toLowerCase();
  const cleaned = clean(body, base.href);
  const robot = robotsParser(base.href, cleaned.text);
  const group = cleaned.agents.has(token) ? token : cleaned.agents.has('*') ? '*' : null;

  return {
    isAllowed(url) {
      const target = absoluteUrl(url);
      if (target.origin !== origin) {
        throw new RangeError(`${url} is not of the robots.txt origin ${origin}`);
      }
      if (target.pathname === '/robots.txt' || group === null) return { allowed: true, rule: null };
      // The normalized path only holds characters the URL parser keeps as they are, so robots-parser sees it unchanged.
      const line = robot.getMatchingLineNumber(origin + normalizePath(target.pathname + target.search), token);
      const rule = cleaned.rules.get(line);
      return rule ? { allowed: rule.allow, rule: rule.text } : { allowed: true, rule: null };
    },
    crawlDelayMs:
      group === null ? null : (cleaned.agentDelaysMs.get(group) ?? groupCrawlDelayMs(cleaned.groups, group)),
    sitemaps: cleaned.sitemaps,
    group,
  };
}

/** RFC 9309 §2.2.1: a product token is letters, `_` and `-`. */
const PRODUCT_TOKEN = /^[A-Za-z_-]+$/;
/** A Crawl-delay we accept: a non-negative decimal number of seconds. */
const DECIMAL_SECONDS = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * The Crawl-delay of every group that names an agent: the largest valid one
 * (robots-parser would keep the last one read; the largest is the stricter
 * reading of a file that says two things), or null. What applies when no
 * Crawl-delay is attributed to the agent itself ({@link CleanedRobots.agentDelaysMs}).
 * @param agent a product token in lower case, or `'*'`.
 */
function groupCrawlDelayMs(groups: readonly RobotsGroup[], agent: string): number | null {
  let delayMs: number | null = null;
  for (const group of groups) {
    if (!group.agents.has(agent)) continue;
    for (const value of group.crawlDelaysMs) delayMs = Math.max(delayMs ?? 0, value);
  }
  return delayMs;
}

/**
 * A Crawl-delay value in ms (fractions of a second allowed), or null when it
 * is not a non-negative decimal number of seconds ("abc", "-1", "0x10", "1e3",
 * "" and numbers too large for a double are not).
 */
function crawlDelayValueMs(value: string): number | null {
  if (!DECIMAL_SECONDS.test(value)) return null;
  const seconds = Number(value);
  // Whole microseconds, so that 0.07 s is 70 ms and not 70.00000000000001.
  return Number.isFinite(seconds) ? Math.round(seconds * 1e6) / 1e3 : null;
}

type Directive = 'user-agent' | 'allow' | 'disallow' | 'crawl-delay' | 'sitemap';

/** Record names we read, lower case, with the misspellings Google's reference parser also accepts. */
const DIRECTIVES = new Map<string, Directive>([
  ['user-agent', 'user-agent'],
  ['useragent', 'user-agent'],
  ['user agent', 'user-agent'],
  ['allow', 'allow'],
  ['disallow', 'disallow'],
  ['dissallow', 'disallow'],
  ['dissalow', 'disallow'],
  ['disalow', 'disallow'],
  ['diasllow', 'disallow'],
  ['disallaw', 'disallow'],
  ['crawl-delay', 'crawl-delay'],
  ['sitemap', 'sitemap'],
  ['site-map', 'sitemap'],
]);

/**
 * One group as RFC 9309 §2.2 reads it: a run of User-agent lines and the
 * lines after it up to the next run. Only Allow and Disallow lines end a run;
 * a Crawl-delay (or any other record) inside it does not (§2.2.4).
 */
interface RobotsGroup {
  /** Product tokens (lower case) and `*` the run names. */
  agents: Set<string>;
  /** Valid Crawl-delay values anywhere in the group, in ms, in file order. */
  crawlDelaysMs: number[];
}

interface CleanedRobots {
  /** The text for robots-parser: line n is the cleaned form of input line n (or empty). */
  text: string;
  /** Allow/Disallow rules with a path, by 1-based line number. */
  rules: Map<number, { allow: boolean; text: string }>;
  /** Product tokens (lower case) and `*` named on User-agent lines. */
  agents: Set<string>;
  /** The groups in file order, for Crawl-delay, which robots-parser never sees. */
  groups: RobotsGroup[];
  /**
   * The Crawl-delay of each agent (product token in lower case, or `*`), in
   * ms: the largest valid one written under its own User-agent lines, those
   * directly above the Crawl-delay since the previous record (Allow,
   * Disallow, Crawl-delay, Sitemap), as the engines that honour Crawl-delay
   * read it. `User-agent: OtherBot / Crawl-delay: 5 / User-agent: * /
   * Crawl-delay: 1` gives OtherBot 5 s and `*` 1 s, though both are one
   * group for the rules (RFC 9309 §2.2). An agent without one here takes the
   * largest of its groups' ({@link groupCrawlDelayMs}).
   */
  agentDelaysMs: Map<string, number>;
  sitemaps: string[];
}

/**
 * Rewrites the file into lines robots-parser reads the RFC's way: only
 * User-agent (value cut to its product token) and Allow/Disallow (pattern
 * normalized), each as `name: value`; every other line becomes empty, so
 * that only an Allow or Disallow line ends a run of User-agent lines for it
 * too. Crawl-delay is read here, into the groups.
 */
function clean(body: string, robotsUrl: string): CleanedRobots {
  const lines = truncateUtf8(body, ROBOTS_MAX_BYTES)
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\r|\n/);
  const out: string[] = [];
  const rules = new Map<number, { allow: boolean; text: string }>();
  const agents = new Set<string>();
  const groups: RobotsGroup[] = [];
  const sitemaps = new Set<string>();
  // True after a User-agent line until an Allow or Disallow line: the run goes on (RFC 9309 §2.2), and
  // robots-parser forgets such agents at the end of the file.
  let isGroupOpen = false;
  // The group the lines belong to; null before the first User-agent line.
  let group: RobotsGroup | null = null;
  const agentDelaysMs = new Map<string, number>();
  // The agents of the User-agent lines since the last other record: a Crawl-delay is theirs.
  let delayAgents: string[] = [];
  // The last record read was a User-agent line: the next one adds to `delayAgents`.
  let isAfterUserAgent = false;

  for (const [index, line] of lines.entries()) {
    const record = splitRecord(line);
    let cleanedLine = '';
    switch (record?.directive) {
      case 'user-agent': {
        if (!isGroupOpen || group === null) {
          group = { agents: new Set(), crawlDelaysMs: [] };
          groups.push(group);
        }
        const agent = agentToken(record.value);
        if (!isAfterUserAgent) delayAgents = [];
        if (agent !== null) {
          agents.add(agent);
          group.agents.add(agent);
          delayAgents.push(agent);
        }
        cleanedLine = `User-agent: ${agent ?? ''}`;
        isGroupOpen = true;
        break;
      }
      case 'allow':
      case 'disallow': {
        const pattern = normalizeRule(record.value);
        if (pattern !== '') rules.set(index + 1, { allow: record.directive === 'allow', text: record.written });
        cleanedLine = `${record.directive}: ${pattern}`;
        isGroupOpen = false;
        break;
      }
      case 'crawl-delay': {
        // Not for robots-parser: it would end the run of User-agent lines here. An invalid value is
        // ignored and, like a valid one, leaves the run open.
        const delayMs = crawlDelayValueMs(record.value);
        if (group !== null && delayMs !== null) group.crawlDelaysMs.push(delayMs);
        if (delayMs !== null)
          for (const agent of delayAgents) agentDelaysMs.set(agent, Math.max(agentDelaysMs.get(agent) ?? 0, delayMs));
        break;
      }
      case 'sitemap': {
        const sitemap = resolveHttpUrl(record.value, robotsUrl);
        if (sitemap !== null) sitemaps.add(sitemap);
        break;
      }
      case undefined:
        break;
    }
    // Blank, comment-only and unknown lines leave a run of User-agent lines going on.
    if (record !== null) isAfterUserAgent = record.directive === 'user-agent';
    out.push(cleanedLine);
  }
  // A group with no member lines still applies (and allows everything). @see RFC 9309 §2.2.1
  if (isGroupOpen) out.push('Disallow:');
  return { text: out.join('\n'), rules, agents, groups, agentDelaysMs, sitemaps: [...sitemaps] };
}

/** One record of a robots.txt line. */
interface RobotsRecord {
  directive: Directive;
  /** The value, trimmed, comment removed. */
  value: string;
  /** The record as written, comment and outer spaces removed: `Disallow: /x` or, colon forgotten, `disallow /x`. */
  written: string;
}

/**
 * One record, comment removed: `name: value`, or `name value` when the colon
 * was forgotten and the line is exactly two words, as Google's reference
 * parser reads it ("disallow /private"); null for blank, comment-only,
 * unknown or other colon-less lines ("user agent foobot" is three words).
 * @see RFC 9309 §2.2
 */
function splitRecord(line: string): RobotsRecord | null {
  const hash = line.indexOf('#');
  const content = hash === -1 ? line : line.slice(0, hash);
  const colon = content.indexOf(':');
  if (colon === -1) {
    const words = content.trim().split(/[ \t]+/u);
    if (words.length !== 2) return null;
    const [name = '', value = ''] = words;
    const directive = DIRECTIVES.get(name.toLowerCase());
    return directive === undefined ? null : { directive, value, written: `${name} ${value}` };
  }
  const name = content.slice(0, colon).trim();
  const value = content.slice(colon + 1).trim();
  const directive = DIRECTIVES.get(name.toLowerCase());
  return directive === undefined ? null : { directive, value, written: `${name}: ${value}` };
}

/**
 * The agent a User-agent value names: `*`, or its leading product token in
 * lower case ("Tabcrawl/2.0" and "tabcrawl bot" → "tabcrawl"), or null.
 * @see RFC 9309 §2.2.1
 */
function agentToken(value: string): string | null {
  if (/^\*(?:\s|$)/.test(value)) return '*';
  const match = /^[A-Za-z_-]+/.exec(value);
  return match ? match[0].toLowerCase() : null;
}

/**
 * A %XX escape, or a character outside the ones kept as they are: unreserved
 * and reserved characters but `'`, `[` and `]` (the URL parser encodes `'` in
 * a query, and `encodeURI` encodes `[` and `]`).
 */
const ESCAPE_OR_ENCODED = /%([0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&()*+,/:;=?@]/gu;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * A URL's path (with query) in the one spelling rules are written in (see
 * {@link normalizeEncoding}), with `*` and `$` percent-encoded: in a URL they
 * are only characters, so `Disallow: /a-%2A` and `Disallow: /a-*` both match
 * `/a-*` and `/a-%2A`.
 * @see RFC 9309 §2.2.3 (special characters; its Figure 6)
 */
function normalizePath(raw: string): string {
  return normalizeEncoding(raw).replace(/\*/gu, '%2A').replace(/\$/gu, '%24');
}

/**
 * An Allow or Disallow pattern in the one spelling of {@link normalizeEncoding}:
 * `*` stays the wildcard and a final `$` the end of the path, while a `$`
 * anywhere else is a character (as Google's reference parser reads it) and
 * is percent-encoded to match {@link normalizePath}.
 * @see RFC 9309 §2.2.3
 */
function normalizeRule(raw: string): string {
  return normalizeEncoding(raw).replace(/\$(?!$)/gu, '%24');
}

/**
 * One spelling for a path (with query) or a rule, so equal octets compare
 * equal: %XX of an unreserved character is decoded, other %XX upper-cased,
 * and other characters (non-ASCII as UTF-8, a lone `%`, spaces, quotes,
 * `|`...) percent-encoded. `/%7Efoo` and `/~foo` are one path; so are `/ä`
 * and `/%C3%A4`. `*` and `$` stay as they are here.
 * @see RFC 9309 §2.2.2, RFC 3986 §2.1–2.3
 */
function normalizeEncoding(raw: string): string {
  return raw.replace(ESCAPE_OR_ENCODED, (match, hex: string | undefined) => {
    if (hex === undefined) return percentEncode(match);
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

const utf8 = new TextEncoder();

function percentEncode(text: string): string {
  return Array.from(utf8.encode(text), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/**
 * The longest prefix of `text` of at most `maxBytes` UTF-8 bytes that ends
 * with a whole line; the whole text when it fits.
 */
function truncateUtf8(text: string, maxBytes: number): string {
  // A UTF-16 code unit is at most 3 UTF-8 bytes: short texts need no encoding.
  if (text.length * 3 <= maxBytes) return text;
  const bytes = utf8.encode(text);
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Step back to the first byte of a character (continuation bytes are 10xxxxxx).
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  const head = new TextDecoder().decode(bytes.subarray(0, end));
  const lastBreak = Math.max(head.lastIndexOf('\n'), head.lastIndexOf('\r'));
  return head.slice(0, lastBreak + 1);
}

function absoluteUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new RangeError(`not an absolute URL: ${url}`);
  }
}

function resolveHttpUrl(value: string, base: string): string | null {
  if (value === '') return null;
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

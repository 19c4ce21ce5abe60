/**
 * The hand-off to Browsertrix Crawler: a Tabcrawl crawl's settings as a YAML
 * config that Browsertrix Crawler 1.14.1 runs with `crawl --config FILE.yaml`,
 * for a site that outgrew the browser (docs/browsertrix.md).
 *
 * Pure: settings in, text out. The mapping never makes Browsertrix less polite
 * than the crawl it came from; what it cannot carry over (Browsertrix has no
 * per-host gap, reads no Crawl-delay, renders every page with all it loads…)
 * is said in a comment block at the top of the file, with the safe choice
 * taken instead.
 *
 * The YAML is written by hand: a few fixed shapes (scalars, lists of scalars,
 * the seeds' list of mappings) and comments, every string quoted, so no YAML
 * library ships in the extension's pages for it. Tests read it back with the
 * `yaml` package and check it against Browsertrix's own option list.
 */
import { withSessionGuard, type CrawlSettings } from '../core/settings.ts';
import { createScope } from '../core/url/scope.ts';
import { browsertrixScope } from './browsertrix-scope.ts';
import { crawlerUserAgent } from '../core/user-agent.ts';

/** The Browsertrix Crawler release the config is written for (its options: test/fixtures/browsertrix/crawler-options.json). */
export const BROWSERTRIX_CRAWLER_VERSION = '1.14.1';

/**
 * The links Browsertrix follows (`selectLinks`: a CSS selector, `->`, the
 * property read). Tabcrawl follows `<a href>` and `<area href>` (frames are
 * loaded with their page in Browsertrix), and, unless told to follow nofollow,
 * not those whose `rel` has `nofollow` (any case). No comma in them:
 * Browsertrix splits the option's values on commas.
 */
export function linkSelectors(followNofollow: boolean): string[] {
  const notNofollow = followNofollow ? '' : ':not([rel~="nofollow" i])';
  return [`a[href]${notNofollow}->href`, `area[href]${notNofollow}->href`];
}

/** The statuses that make Tabcrawl back a host off (and that Browsertrix is told to treat as rate limiting). */
export const BACK_OFF_STATUSES: readonly number[] = Object.freeze([429, 503]);

/** What the config is made from. */
export interface HandoffSource {
  /** The crawl's settings, as stored with it. */
  settings: CrawlSettings;
  /** Tabcrawl's version (the extension's), for the User-Agent and the header. */
  version: string;
  /** When the crawl started, ms since the epoch, for the header; none: not said. */
  createdAt?: number;
  /**
   * The name the config is saved under, which its `docker run` line mounts (a name, not a path: the line runs
   * from the folder that holds the file). @default the pages' name, {@link browsertrixConfigFileName}, when
   * `createdAt` is given; else `crawl-config.yaml`
   */
  fileName?: string;
}

/** A value of the config: what the YAML holds. */
export type ConfigScalar = string | number | boolean;
export type ConfigValue = ConfigScalar | ConfigScalar[] | Record<string, ConfigScalar>[];

/** The config as data, before it is written. */
export interface BrowsertrixConfig {
  /** Browsertrix's options, by the names it reads in a YAML config, in the order written. */
  options: Record<string, ConfigValue>;
  /** Option lines written commented out, each under its seed or key: off for politeness, on at the user's choice. */
  commentedOut: { sitemap: string };
  /** What each Tabcrawl setting became, one sentence each. */
  mapped: string[];
  /** What could not be carried over, and the safe choice taken instead, one sentence each. */
  notCarried: string[];
}

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`;
const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

/**
 * The config for a crawl: its options and the sentences of the header. Never
 * throws for settings a crawl was stored with (a crawl stored before a setting
 * existed reads it as its default).
 */
export function browsertrixConfig(source: HandoffSource): BrowsertrixConfig {
  const settings = withSessionGuard({ ...source.settings, extraOrigins: source.settings.extraOrigins ?? [], excludePatterns: source.settings.excludePatterns ?? [] });
  const start = new URL(settings.startUrl);
  const scope = browsertrixScope(settings);
  const inScope = createScope(settings);
  /** The extra sites whose home page Tabcrawl's scope admits (an exclude pattern may rule one out: Browsertrix never excludes a seed). */
  const extraSeeds = settings.extraOrigins.map((origin) => `${origin}/`).filter((url) => inScope.check(url).inScope);
  const delayMs = settings.delayMs + (settings.jitterMs ?? 0);
  const pageExtraDelay = Math.ceil(delayMs / 1000);
  const userAgent = crawlerUserAgent(source.version);
  const maxRetries = settings.maxRetries ?? 2;

  const options: Record<string, ConfigValue> = {
    seeds: [{ url: settings.startUrl }, ...extraSeeds.map((url) => ({ url }))],
    scopeType: 'custom',
    include: scope.include,
    ...(scope.exclude.length > 0 ? { exclude: scope.exclude } : {}),
    depth: settings.maxDepth,
    pageLimit: settings.maxPages,
    workers: 1,
    pageExtraDelay,
    useRobots: true,
    robotsAgent: settings.productToken,
    userAgent,
    selectLinks: linkSelectors(settings.followNofollow),
    maxPageRetries: 0,
    rateLimitStatusCodes: [...BACK_OFF_STATUSES],
    rateLimitMaxRetries: maxRetries,
    rateLimitInterruptCount: 1,
    generateWACZ: true,
  };

  const startSite = settings.includeSubdomains
    ? `${start.hostname.replace(/^www\./, '')} and its subdomains, over http and https${start.port === '' ? '' : ` on port ${start.port}`}`
    : `${start.origin} only (this scheme, host and port)`;
  const mapped = [
    `start URL ${settings.startUrl}: the first seed.`,
    ...(settings.extraOrigins.length === 0
      ? []
      : [
          `Also crawl these sites (${settings.extraOrigins.join(', ')}): ${extraSeeds.length === settings.extraOrigins.length ? 'a seed each' : `a seed each whose home page is in scope (${plural(extraSeeds.length, 'seed', 'seeds')})`}, so each site's home page is crawled even when no link leads there; all seeds share one scope, as in Tabcrawl, so links between the sites are followed.`,
        ]),
    `Scope: ${startSite}${settings.pathPrefix === '' ? '' : `, paths starting with ${settings.pathPrefix}`}${settings.extraOrigins.length === 0 ? '' : `, and each extra site whole`}: scopeType custom with one anchored regex per site in include. Browsertrix's own prefix, host and domain scopes would take http and https alike and ignore a leading www., which Tabcrawl does not.`,
    settings.excludePatterns.length === 0
      ? 'Exclude patterns: none.'
      : `Exclude patterns (${settings.excludePatterns.length}${settings.withCookies ? ', with the logout and delete guards of a crawl with cookies' : ''}): one regex each in exclude, anchored at both ends, * written .* and every other character literal.`,
    `Max depth ${settings.maxDepth}: depth ${settings.maxDepth} (Browsertrix counts it from each seed).`,
    `Max pages ${settings.maxPages}: pageLimit ${settings.maxPages}.`,
    `robots.txt, product token ${settings.productToken}: useRobots true, robotsAgent ${settings.productToken} (its group, else *).`,
    `User-Agent: userAgent, the same string as Tabcrawl's.`,
    `Delay ${seconds(settings.delayMs)}${(settings.jitterMs ?? 0) > 0 ? ` plus up to ${seconds(settings.jitterMs)} of jitter` : ''} between two requests to a host: workers 1 (one page at a time, all sites together) and pageExtraDelay ${pageExtraDelay} (seconds after each page, rounded up).`,
    `Requests at once per host ${settings.requestsPerHost ?? 1}, hosts at once ${settings.hostConcurrency ?? 8}: workers 1.`,
    `429 and 503 back a host off, retried up to ${plural(maxRetries, 'time', 'times')}: rateLimitStatusCodes [${BACK_OFF_STATUSES.join(', ')}], rateLimitMaxRetries ${maxRetries}, and rateLimitInterruptCount 1 (see below).`,
    'Each URL requested once: maxPageRetries 0 (Browsertrix retries a failed page twice by default).',
    settings.followNofollow
      ? 'Follow nofollow links: selectLinks takes every <a href> and <area href>.'
      : 'rel="nofollow" links not followed: selectLinks takes <a href> and <area href> without rel nofollow.',
    'The archive: generateWACZ true, a WACZ beside the WARCs (docs/browsertrix.md says how to bring it back).',
  ];

  const notCarried = [
    `The per-host gap: Browsertrix has none. One page at a time and pageExtraDelay ${pageExtraDelay} after each keep two pages at least ${pageExtraDelay} s apart on every site, slower than Tabcrawl where it crawled several sites at once; but a page's own resources load at browser speed, several at once.`,
    `robots.txt Crawl-delay: Browsertrix ignores it, and it is not known when this file is written. If a site's robots.txt asks for more than ${pageExtraDelay} s, raise pageExtraDelay to it.`,
    'The response-time rule (a response of t seconds makes the next gap t² seconds, up to 60): none in Browsertrix. Raise pageExtraDelay for a slow site.',
    'Back-off after 429 or 503 (Retry-After, else 5 s doubling, up to 10 minutes): Browsertrix does not slow down, so rateLimitInterruptCount 1 stops the crawl at the first such answer (exit code 18); it saves its state in the collection\'s crawls/ folder, and that file given as --config later goes on from there. 403 is not a back-off status here, as in Tabcrawl.',
    `Page resources: Browsertrix renders every page in a browser (scripts run, behaviors scroll and play media) and records all it loads, on any host, without reading robots.txt for them; Tabcrawl ${settings.archiveResources ? 'fetched each resource once, politely' : 'did not archive resources'}. Largest file (${Number((settings.maxFileBytes / 1048576).toFixed(1))} MiB), most resources (${settings.maxResources}) and downloading linked files have no counterpart.`,
    `Links to other sites${settings.checkExternal ? ' (checked with HEAD)' : ''}: Browsertrix does not check them.`,
    settings.withCookies
      ? 'Cookies: this crawl sent your cookies; Browsertrix starts a browser of its own without them (to crawl logged in, give it a browser profile: profile). The logout and delete guards stay in exclude.'
      : 'Cookies: none sent, as in Tabcrawl (Browsertrix starts a browser of its own).',
    settings.allowPrivateAddresses
      ? 'Your network: this crawl was allowed to reach private addresses, and so is Browsertrix, whose browser loads whatever the pages name.'
      : 'Your network: Tabcrawl asks nothing of a private address (loopback, 10.x, 192.168.x, link-local, metadata) that a public site names; this config sets no such rule, and Browsertrix\'s browser loads whatever the pages name: run it where nothing private is reachable.',
    'Sitemaps: Tabcrawl reads those that each robots.txt lists. Browsertrix fetches up to 5 sitemaps at once without a gap, so sitemap is left commented out under the first seed; uncomment it to read the sitemaps the start site\'s robots.txt lists.',
    'A robots.txt that fails (5xx, timeout, no connection): Browsertrix reads it as allowing everything, Tabcrawl as disallowing everything until it answers.',
    '<meta name="robots" content="nofollow"> on a page: Browsertrix follows its links anyway.',
    `Timeout ${seconds(settings.timeoutMs)} per request: not carried over; Browsertrix's pageLoadTimeout (90 s by default) is for a whole page and all it loads.`,
    'Browsertrix matches the regexes on URLs with their query parameters sorted, utm_ parameters removed and the path\'s percent-escapes decoded: a URL that differs only there may be judged otherwise (an exclude pattern such as *?print=* depends on the order of parameters; /%64ocs/ reads as /docs/).',
    'Browsertrix fetches each page URL directly first and, when the answer is HTML, loads it again in its browser: two requests back to back, where Tabcrawl\'s HEAD then GET wait for the host\'s gap between them.',
  ];

  return { options, commentedOut: { sitemap: `${start.origin}/robots.txt` }, mapped, notCarried };
}

/** Longest header line, in characters, before a sentence wraps. */
const WRAP_AT = 100;

/** One sentence as comment lines: `# - ` on the first, `#   ` on the rest, wrapped at word breaks. */
function commentLines(sentence: string, bullet = '- '): string[] {
  const words = oneLine(sentence).split(' ');
  const lines: string[] = [];
  let line = `# ${bullet}`;
  const indent = `# ${' '.repeat(bullet.length)}`;
  for (const word of words) {
    const empty = line === `# ${bullet}` || line === indent;
    if (!empty && line.length + 1 + word.length > WRAP_AT) {
      lines.push(line);
      line = indent;
    }
    line += line === `# ${bullet}` || line === indent ? word : ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** Text for a comment: control characters (a line break would end the comment) as spaces. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
}

/**
 * A string as a YAML scalar: single-quoted (nothing escaped but `'`, doubled),
 * which keeps a regex's backslashes as they are; double-quoted with JSON's
 * escapes (a subset of YAML's) when it holds a character single quotes cannot.
 */
export function yamlString(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]|[\ud800-\udfff]/.test(text)) return JSON.stringify(text).replace(/[\u007f-\u009f\u2028\u2029\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `'${text.replace(/'/g, "''")}'`;
}

function yamlScalar(value: ConfigScalar): string {
  if (typeof value === 'string') return yamlString(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`not a YAML number: ${value}`);
    return String(value);
  }
  return value ? 'true' : 'false';
}

/**
 * The config as YAML: the header (what it is, how to run it, what each
 * setting became, what could not be carried over), then the options.
 */
export function browsertrixConfigYaml(source: HandoffSource): string {
  const config = browsertrixConfig(source);
  const started = source.createdAt === undefined ? '' : ` (started ${new Date(source.createdAt).toISOString().replace(/\.\d{3}Z$/, 'Z')})`;
  const lines = [
    `# Browsertrix Crawler ${BROWSERTRIX_CRAWLER_VERSION} config, written by Tabcrawl ${oneLine(source.version)} from its crawl of`,
    `# ${oneLine(source.settings.startUrl)}${started}.`,
    '# Run it from the folder that holds this file (crawls/ receives the WARCs and the WACZ):',
    `#   docker run -v ${shellWord(`$PWD/${oneLine(savedAs(source))}`)}:/app/crawl-config.yaml \\`,
    '#     -v $PWD/crawls:/crawls/ webrecorder/browsertrix-crawler crawl --config /app/crawl-config.yaml',
    '# More in Tabcrawl\'s docs/browsertrix.md.',
    '#',
    '# What each Tabcrawl setting became:',
    ...config.mapped.flatMap((sentence) => commentLines(sentence)),
    '#',
    '# What could not be carried over, and the safe choice taken instead:',
    ...config.notCarried.flatMap((sentence) => commentLines(sentence)),
    '',
  ];
  for (const [key, value] of Object.entries(config.options)) {
    if (key === 'seeds') {
      lines.push('seeds:');
      (value as Record<string, ConfigScalar>[]).forEach((seed, index) => {
        Object.entries(seed).forEach(([field, fieldValue], at) => lines.push(`${at === 0 ? '  - ' : '    '}${field}: ${yamlScalar(fieldValue)}`));
        if (index === 0) {
          lines.push('    # Off: Browsertrix fetches up to 5 sitemaps at once, without a gap. On: the sitemaps this robots.txt lists.');
          lines.push(`    # sitemap: ${yamlString(config.commentedOut.sitemap)}`);
        }
      });
    } else if (Array.isArray(value)) {
      lines.push(`${key}:`);
      for (const item of value as ConfigScalar[]) lines.push(`  - ${yamlScalar(item)}`);
    } else {
      lines.push(`${key}: ${yamlScalar(value as ConfigScalar)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The name the config is saved under: {@link HandoffSource.fileName}, or its default. */
function savedAs(source: HandoffSource): string {
  if (source.fileName !== undefined) return source.fileName;
  return source.createdAt === undefined ? 'crawl-config.yaml' : browsertrixConfigFileName({ settings: source.settings, createdAt: source.createdAt });
}

/**
 * A word for a POSIX shell: as it is when it holds only characters no shell reads specially (and `$PWD` at
 * its start, which is meant to expand), else in double quotes with `"`, `\`, `` ` `` and any `$` but the
 * leading `$PWD`'s escaped.
 */
function shellWord(text: string): string {
  if (/^(\$PWD)?[A-Za-z0-9._/-]*$/.test(text)) return text;
  const rest = text.startsWith('$PWD') ? text.slice('$PWD'.length) : text;
  const head = text.startsWith('$PWD') ? '$PWD' : '';
  return `"${head}${rest.replace(/["\\`$]/g, (c) => `\\${c}`)}"`;
}

/** `<host>-<yyyy-mm-dd>.browsertrix.yaml`, named as the crawl's exports are (`exportFileName`). */
export function browsertrixConfigFileName(crawl: { settings: Pick<CrawlSettings, 'startUrl'>; createdAt: number }): string {
  const host = new URL(crawl.settings.startUrl).host.replace(/[^A-Za-z0-9.-]+/g, '_');
  const date = new Date(crawl.createdAt).toISOString().slice(0, 10);
  return `${host}-${date}.browsertrix.yaml`;
}

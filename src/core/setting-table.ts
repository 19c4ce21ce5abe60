/**
 * One entry per crawl setting: its default, its bounds, its field in the settings form, its command-line
 * option and help, how the popup's crawl list and the WARC's `warcinfo` show it, and how it carries over to
 * Browsertrix Crawler. The validator (`core/settings.ts`), the form (`settings/settings-values.ts`), the CLI's
 * parser, `--help` and docs/cli.md's option table (`shells/cli/`), the popup's digest (`popup/crawl-text.ts`), the
 * warcinfo record (`export/warc.ts`), the Browsertrix config (`handoff/browsertrix-config.ts`, through
 * `handoff/browsertrix-parts.ts`) and docs/browsertrix.md's mapping table (`handoff/browsertrix-docs.ts`) are
 * all read from here (issue 28).
 *
 * Pure data and small functions; imports nothing of ours but `setting-entry.ts`, which says what an entry
 * holds (its types are re-exported here).
 *
 * To add a crawl setting:
 * 1. Add it to `CrawlSettings` (`core/crawl-settings.ts`) and give it an entry here: the compiler asks for
 *    one ({@link SETTING_TABLE} is keyed by every setting). Its place in the table is its place in its form
 *    group, in `--help` and in docs/cli.md.
 * 2. Fill the entry: `default`, `label`, `limits` for a number, `form`; `cli` if the command line sets it;
 *    `digest` and `warcinfo` if the popup and the WARC show it (their `at` orders them).
 * 3. Say how it carries over to Browsertrix, in its `browsertrix` part ({@link BrowsertrixPart}): the options
 *    it changes (their YAML names, as test/fixtures/browsertrix/crawler-options.json lists
 *    Browsertrix's options; a unit test checks them); the options it writes (`writes`) and its sentence in the
 *    config's header (`became`, with its row of docs/browsertrix.md's table); or, when Browsertrix has no
 *    counterpart, its `lost` sentence: what is lost and the safe choice taken instead. `at` places each piece
 *    among the others (the hand-off's own parts, such as the start URL's, are in
 *    `handoff/browsertrix-parts.ts`). When another part already says it (it reads this setting too), name that
 *    part in `mappedBy` and add this setting to its text. A new value that several settings decide goes in
 *    {@link BrowsertrixHelp} (worked out in `browsertrixHelp`).
 * 4. Regenerate the docs' tables: `UPDATE_DOCS=1 npx tsx --test test/unit/cli-option-docs.test.ts
 *    test/unit/browsertrix-docs.test.ts`.
 * 5. Write the crawl code that uses it (`core/crawl/`). Numbers and true-or-false settings are checked from
 *    the table; a text or a list needs its check in `validateSettings` (`core/settings.ts`).
 */
import type { ConfigValue, SettingEntry, SettingLimits, TableKey } from './setting-entry.ts';

export { FORM_GROUPS } from './setting-entry.ts';
export type {
  TableKey,
  FormGroup,
  SettingLimits,
  FormSpec,
  CliRead,
  CliSpec,
  DigestFormat,
  SettingEntry,
  ConfigScalar,
  ConfigValue,
  BrowsertrixHelp,
  BrowsertrixPart,
} from './setting-entry.ts';

/**
 * What `maxPages` counts, in the words every place that names the setting uses after "Most pages: " (`--help`,
 * the options page and the popup's More settings, docs/cli.md).
 */
export const MAX_PAGES_COUNTS =
  'every URL of the crawled sites queued as a page counts (the start URL, links, redirect targets and sitemaps; HTML or a linked file; fetched, failed or blocked by robots.txt), but not page resources, links to other sites or robots.txt';

/** The label of `CrawlSettings.extraOrigins` in the form, which its messages start with. */
export const EXTRA_ORIGINS_LABEL = 'Also crawl these sites';

/**
 * Most extra sites one crawl takes (`CrawlSettings.extraOrigins`). Each is a
 * host with its own robots.txt and clock, and the crawl runs at most 32 hosts at
 * once, so more would mostly wait; it also bounds the host permissions asked for.
 */
export const MAX_EXTRA_ORIGINS = 50;

const MIB = 1024 * 1024;
/** Bounds of `requestsPerHost`, which its help names. */
const REQUESTS_PER_HOST: SettingLimits = { min: 1, max: 16, unit: 'count' };
const text = (value: unknown): string => String(value);
/** Milliseconds as the hand-off's header says them: `1.5 s`. */
const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`;
const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

/**
 * Every crawl setting, in the order the form shows each group's fields and `--help` and docs/cli.md list the
 * options. Keyed by setting, so a setting without an entry does not compile.
 */
export const SETTING_TABLE: { readonly [K in TableKey]: SettingEntry<K> } = Object.freeze({
  maxPages: {
    default: 500,
    label: 'Max pages',
    limits: { min: 1, max: 1_000_000, unit: 'count' },
    form: { group: 'Limits', unit: null, testId: 'max-pages', help: `Most pages: ${MAX_PAGES_COUNTS}.` },
    cli: {
      flag: '--max-pages',
      value: 'N',
      read: 'whole',
      help: [`most pages: ${MAX_PAGES_COUNTS}`],
      doc: `most pages: ${MAX_PAGES_COUNTS}`,
    },
    digest: { at: 1, text: (s) => (s.maxPages !== SETTING_TABLE.maxPages.default ? `limit ${s.maxPages}` : null) },
    warcinfo: { at: 7, fields: (s) => [['maxPages', text(s.maxPages)]] },
    browsertrix: {
      options: ['pageLimit'],
      writes: { at: 15, options: (s) => ({ pageLimit: s.maxPages }) },
      became: {
        at: 15,
        text: (s) => `Max pages ${s.maxPages}: pageLimit ${s.maxPages}.`,
        row: ['max pages', '`pageLimit`', ''],
      },
    },
  },
  maxDepth: {
    default: 20,
    label: 'Max depth',
    limits: { min: 0, max: 1000, unit: 'count' },
    form: { group: 'Limits', unit: null, testId: 'max-depth', help: 'Most link hops from the start URL (start = 0).' },
    cli: {
      flag: '--max-depth',
      value: 'N',
      read: 'whole',
      help: ['most link hops from the start URL'],
      doc: "most link hops from the start URL (start = 0; a redirect target keeps its source's depth)",
    },
    digest: { at: 3, text: (s) => (s.maxDepth !== SETTING_TABLE.maxDepth.default ? `depth ${s.maxDepth}` : null) },
    warcinfo: { at: 8, fields: (s) => [['maxDepth', text(s.maxDepth)]] },
    browsertrix: {
      options: ['depth'],
      writes: { at: 14, options: (s) => ({ depth: s.maxDepth }) },
      became: {
        at: 14,
        text: (s) => `Max depth ${s.maxDepth}: depth ${s.maxDepth} (Browsertrix counts it from each seed).`,
        row: ['max depth', '`depth`', 'Browsertrix counts it from each seed'],
      },
    },
  },
  maxBodyBytes: {
    default: 10 * MIB,
    label: 'Max body size',
    limits: { min: 1024, max: 1024 * MIB, unit: 'bytes' },
    form: { group: 'Limits', unit: 'MiB', testId: 'max-body-size', help: 'A longer page is cut and marked truncated.' },
    digest: {
      at: 16,
      text: (s, f) =>
        s.maxBodyBytes !== SETTING_TABLE.maxBodyBytes.default ? `bodies up to ${f.bytes(s.maxBodyBytes)}` : null,
    },
    warcinfo: { at: 9, fields: (s) => [['maxBodyBytes', text(s.maxBodyBytes)]] },
    browsertrix: { options: [] },
  },
  delayMs: {
    default: 1000,
    label: 'Delay',
    limits: { min: 0, max: 3_600_000, unit: 'ms' },
    form: {
      group: 'Politeness',
      unit: 's',
      testId: 'delay',
      help: 'Least wait between one response and the next request to the same host.',
    },
    cli: {
      flag: '--delay',
      value: 'SECONDS',
      read: 'seconds',
      help: ['wait between two requests to one host, decimals allowed'],
      doc: 'least wait between the end of one response and the next request to the same host; decimals allowed',
    },
    digest: {
      at: 2,
      text: (s, f) => (s.delayMs !== SETTING_TABLE.delayMs.default ? `delay ${f.seconds(s.delayMs)}` : null),
    },
    warcinfo: { at: 1, fields: (s) => [['delayMs', text(s.delayMs)]] },
    browsertrix: {
      options: ['pageExtraDelay', 'workers'],
      writes: { at: 16, options: (_, h) => ({ workers: 1, pageExtraDelay: h.pageExtraDelay }) },
      became: {
        at: 18,
        text: (s, h) =>
          `Delay ${seconds(s.delayMs)}${(s.jitterMs ?? 0) > 0 ? ` plus up to ${seconds(s.jitterMs)} of jitter` : ''} between two requests to a host: workers 1 (one page at a time, all sites together) and pageExtraDelay ${h.pageExtraDelay} (seconds after each page, rounded up).`,
        row: [
          'delay (plus jitter)',
          '`workers: 1`, `pageExtraDelay`',
          'one page at a time over every site, and after each page a pause of the delay plus the jitter in seconds, rounded up',
        ],
      },
      lost: {
        at: 10,
        text: (_, h) =>
          `The per-host gap: Browsertrix has none. One page at a time and pageExtraDelay ${h.pageExtraDelay} after each keep two pages at least ${h.pageExtraDelay} s apart on every site, slower than Tabcrawl where it crawled several sites at once; but a page's own resources load at browser speed, several at once.`,
      },
    },
  },
  jitterMs: {
    default: 0,
    label: 'Jitter',
    limits: { min: 0, max: 60_000, unit: 'ms' },
    form: { group: 'Politeness', unit: 's', testId: 'jitter', help: 'Largest random wait added to the delay.' },
    digest: {
      at: 12,
      text: (s, f) => (s.jitterMs !== SETTING_TABLE.jitterMs.default ? `jitter ${f.seconds(s.jitterMs)}` : null),
    },
    browsertrix: { options: ['pageExtraDelay'], mappedBy: 'delayMs' },
  },
  hostConcurrency: {
    default: 8,
    label: 'Hosts at once',
    limits: { min: 1, max: 32, unit: 'count' },
    form: {
      group: 'Politeness',
      unit: null,
      testId: 'hosts-at-once',
      help: 'Hosts crawled at the same time, each with its own requests and delay.',
    },
    digest: {
      at: 15,
      text: (s) =>
        s.hostConcurrency !== SETTING_TABLE.hostConcurrency.default ? `${s.hostConcurrency} hosts at once` : null,
    },
    browsertrix: { options: ['workers'], mappedBy: 'requestsPerHost' },
  },
  requestsPerHost: {
    default: 1,
    label: 'Requests at once per host',
    limits: REQUESTS_PER_HOST,
    form: {
      group: 'Politeness',

      unit: null,
      testId: 'requests-per-host',
      help: 'More than 1 only at delay 0 and jitter 0, when robots.txt sets no Crawl-delay and the host is not backing off (429/503); otherwise one at a time. For your own site.',
    },
    cli: {
      flag: '--parallel',
      value: 'N',
      read: 'whole',
      help: [
        `most requests in flight to one host at once, ${REQUESTS_PER_HOST.min} to ${REQUESTS_PER_HOST.max}; more than 1 only with --delay 0,`,
        'when robots.txt sets no Crawl-delay and the host is not backing off (429/503),',
        'otherwise one at a time: for your own site',
      ],
      doc: `most requests in flight to one host at once, ${REQUESTS_PER_HOST.min} to ${REQUESTS_PER_HOST.max} (*Requests at once per host* in More settings and on the options page). More than 1 is used only with \`--delay 0\`, while the host's robots.txt sets no \`Crawl-delay\` and the host is not backing off after a 429 or 503; otherwise that host gets one request at a time, each after its gap. For your own site or a staging server`,
    },
    digest: {
      at: 4,
      text: (s) =>
        s.requestsPerHost !== SETTING_TABLE.requestsPerHost.default ? `${s.requestsPerHost} at once per host` : null,
    },
    browsertrix: {
      options: ['workers'],
      became: {
        at: 19,
        text: (s) =>
          `Requests at once per host ${s.requestsPerHost ?? 1}, hosts at once ${s.hostConcurrency ?? 8}: workers 1.`,
        row: ['requests at once per host, hosts at once', '`workers: 1`', ''],
      },
    },
  },
  productToken: {
    default: 'tabcrawl',
    label: 'Robots product token',
    form: { group: 'Politeness', testId: 'product-token', help: 'Which robots.txt User-agent group is obeyed.' },
    cli: {
      flag: '--agent',
      value: 'TOKEN',
      read: 'text',
      help: ['robots.txt product token: the User-agent group obeyed'],
      doc: 'robots.txt product token: which `User-agent` group is obeyed (the `*` group when none matches)',
    },
    digest: {
      at: 9,
      text: (s) => (s.productToken !== SETTING_TABLE.productToken.default ? `agent ${s.productToken}` : null),
    },
    warcinfo: { at: 0, fields: (s) => [['productToken', s.productToken]] },
    browsertrix: {
      options: ['robotsAgent'],
      writes: { at: 17, options: (s) => ({ useRobots: true, robotsAgent: s.productToken }) },
      became: {
        at: 16,
        text: (s) =>
          `robots.txt, product token ${s.productToken}: useRobots true, robotsAgent ${s.productToken} (its group, else *).`,
        row: ['robots.txt, product token', '`useRobots: true`, `robotsAgent`', "the token's group, else `*`"],
      },
    },
  },
  pathPrefix: {
    default: '',
    label: 'Path prefix',
    form: {
      group: 'Scope',
      testId: 'path-prefix',
      help: 'Only crawl paths starting with this, e.g. /docs/. Empty: the whole site.',
    },
    cli: {
      flag: '--prefix',
      value: 'PATH',
      read: 'text',
      help: ['only crawl paths starting with PATH, e.g. /docs/'],
      doc: 'only crawl URLs whose path starts with PATH, e.g. `/docs/`',
    },
    digest: { at: 5, text: (s) => (s.pathPrefix !== SETTING_TABLE.pathPrefix.default ? `path ${s.pathPrefix}` : null) },
    warcinfo: { at: 3, fields: (s) => [['pathPrefix', s.pathPrefix]] },
    browsertrix: { options: ['include'], mappedBy: 'scope' },
  },
  includeSubdomains: {
    default: false,
    label: 'Include subdomains',
    form: {
      group: 'Scope',
      testId: 'include-subdomains',
      narrow: true,
      help: 'Also crawl subdomains of the start host, over http and https.',
    },
    cli: {
      flag: '--include-subdomains',
      read: 'on',
      help: ['also crawl subdomains of the start host'],
      doc: 'also crawl subdomains of the start host (leading `www.` removed), http and https',
    },
    digest: { at: 8, text: (s) => (s.includeSubdomains ? 'subdomains' : null) },
    warcinfo: { at: 2, fields: (s) => [['includeSubdomains', text(s.includeSubdomains)]] },
    browsertrix: { options: ['include'], mappedBy: 'scope' },
  },
  followNofollow: {
    default: false,
    label: 'Follow nofollow links',
    form: {
      group: 'Scope',
      testId: 'follow-nofollow',
      narrow: true,
      help: 'Also follow rel="nofollow" links and nofollow pages.',
    },
    cli: {
      flag: '--follow-nofollow',
      read: 'on',
      help: ['follow nofollow links too'],
      doc: 'also follow `rel="nofollow"` links and pages with `<meta name="robots" content="nofollow">`',
    },
    digest: { at: 11, text: (s) => (s.followNofollow ? 'follows nofollow' : null) },
    browsertrix: {
      options: ['selectLinks'],
      writes: { at: 19, options: (s, h) => ({ selectLinks: h.linkSelectors(s.followNofollow) }) },
      became: {
        at: 22,
        text: (s) =>
          s.followNofollow
            ? 'Follow nofollow links: selectLinks takes every <a href> and <area href>.'
            : 'rel="nofollow" links not followed: selectLinks takes <a href> and <area href> without rel nofollow.',
        row: [
          '`rel="nofollow"` links not followed (unless *Follow nofollow*)',
          '`selectLinks`: `<a href>` and `<area href>` without `rel~="nofollow"` (any case)',
          '',
        ],
      },
    },
  },
  excludePatterns: {
    default: [],
    label: 'Exclude patterns',
    form: {
      group: 'Scope',
      placeholder: '*?sessionid=*\nhttp*://*/cgi-bin/*',
      testId: 'exclude-patterns',
      help: 'One per line; * matches any characters of the whole URL.',
    },
    cli: {
      flag: '--exclude',
      value: 'PATTERN',
      read: 'list',
      help: ['never crawl URLs matching PATTERN (* = anything); repeatable'],
      doc: 'never crawl URLs matching PATTERN, `*` = any characters, matched against the whole URL, e.g. `http*://*/cgi-bin/*`; repeatable',
    },
    digest: {
      at: 6,
      text: (s) =>
        s.excludePatterns.length === 0
          ? null
          : s.excludePatterns.length === 1
            ? '1 exclude'
            : `${s.excludePatterns.length} excludes`,
    },
    warcinfo: {
      at: 4,
      fields: (s) => s.excludePatterns.map((pattern): [string, string] => ['excludePattern', pattern]),
    },
    browsertrix: {
      options: ['exclude'],
      writes: {
        at: 13,
        options: (_, h): Record<string, ConfigValue> => (h.exclude.length > 0 ? { exclude: [...h.exclude] } : {}),
      },
      became: {
        at: 13,
        text: (s) =>
          s.excludePatterns.length === 0
            ? 'Exclude patterns: none.'
            : `Exclude patterns (${s.excludePatterns.length}${s.withCookies ? ', with the logout and delete guards of a crawl with cookies' : ''}): one regex each in exclude, anchored at both ends, * written .* and every other character literal.`,
        row: [
          'exclude patterns (and, for a crawl with cookies, the logout and delete guards)',
          '`exclude`: one regex per pattern, anchored at both ends, `*` as `.*`, every other character escaped',
          '',
        ],
      },
    },
  },
  extraOrigins: {
    default: [],
    label: EXTRA_ORIGINS_LABEL,
    form: {
      group: 'Scope',

      placeholder: 'https://docs.example.com\nhttp://127.0.0.1:8081',
      testId: 'extra-origins',
      help: `One site per line (scheme://host:port, no path), crawled whole with the start site; each reads its own robots.txt and gets its own delay. At most ${MAX_EXTRA_ORIGINS}.`,
    },
    cli: {
      flag: '--also',
      value: 'ORIGIN',
      read: 'list',
      help: [
        'also crawl this site, e.g. https://docs.example.com or http://127.0.0.1:8081',
        '(whole, with its own robots.txt and delay); repeatable',
      ],
      doc: `also crawl this site (\`scheme://host[:port]\`, no path; at most ${MAX_EXTRA_ORIGINS}), e.g. \`https://docs.example.org\` or \`http://127.0.0.1:8081\`: its URLs are in scope, whole (\`--prefix\` applies to the start site only; \`--exclude\` to all), and it is its own host for politeness (its own robots.txt, first and once, and its own gap); repeatable`,
    },
    digest: {
      at: 7,
      text: (s) =>
        s.extraOrigins.length === 0
          ? null
          : s.extraOrigins.length === 1
            ? '1 more site'
            : `${s.extraOrigins.length} more sites`,
    },
    // `?? []`: crawls stored before the setting existed lack it.
    warcinfo: {
      at: 5,
      fields: (s) => (s.extraOrigins ?? []).map((origin): [string, string] => ['extraOrigin', origin]),
    },
    browsertrix: {
      // Its seeds and its `include` regex are written by the hand-off's scope part, with the start URL's.
      options: ['seeds', 'include'],
      became: {
        at: 11,
        text: (s, h) =>
          s.extraOrigins.length === 0
            ? null
            : `Also crawl these sites (${s.extraOrigins.join(', ')}): ${h.extraSeeds.length === s.extraOrigins.length ? 'a seed each' : `a seed each whose home page is in scope (${plural(h.extraSeeds.length, 'seed', 'seeds')})`}, so each site's home page is crawled even when no link leads there; all seeds share one scope, as in Tabcrawl, so links between the sites are followed.`,
        row: [
          '*Also crawl these sites*',
          '`seeds` (one per site whose home page is in scope)',
          "every seed shares one scope, as in Tabcrawl, so links between the sites are followed; each site's home page is crawled even when no link leads there",
        ],
      },
    },
  },
  timeoutMs: {
    default: 30_000,
    label: 'Timeout',
    limits: { min: 1000, max: 600_000, unit: 'ms' },
    form: { group: 'Requests', unit: 's', testId: 'timeout', help: 'Per request, to the end of the body.' },
    cli: {
      flag: '--timeout',
      value: 'SECONDS',
      read: 'seconds',
      help: ['per-request timeout'],
      doc: 'per-request timeout, to the end of the body',
    },
    digest: {
      at: 13,
      text: (s, f) => (s.timeoutMs !== SETTING_TABLE.timeoutMs.default ? `timeout ${f.seconds(s.timeoutMs)}` : null),
    },
    browsertrix: {
      options: [],
      lost: {
        at: 21,
        text: (s) =>
          `Timeout ${seconds(s.timeoutMs)} per request: not carried over; Browsertrix's pageLoadTimeout (90 s by default) is for a whole page and all it loads.`,
      },
    },
  },
  maxRetries: {
    default: 2,
    label: 'Retries',
    limits: { min: 0, max: 10, unit: 'count' },
    form: { group: 'Requests', unit: null, testId: 'retries', help: 'Retries of a URL answered 429 or 503.' },
    digest: {
      at: 14,
      text: (s) => (s.maxRetries !== SETTING_TABLE.maxRetries.default ? `${s.maxRetries} retries` : null),
    },
    browsertrix: {
      options: ['rateLimitMaxRetries'],
      writes: {
        at: 21,
        options: (s, h) => ({
          rateLimitStatusCodes: [...h.backOffStatuses],
          rateLimitMaxRetries: s.maxRetries ?? 2,
          rateLimitInterruptCount: 1,
        }),
      },
      became: {
        at: 20,
        text: (s, h) =>
          `429 and 503 back a host off, retried up to ${plural(s.maxRetries ?? 2, 'time', 'times')}: rateLimitStatusCodes [${h.backOffStatuses.join(', ')}], rateLimitMaxRetries ${s.maxRetries ?? 2}, and rateLimitInterruptCount 1 (see below).`,
        row: [
          'a 429 or 503 backs a host off, retries',
          '`rateLimitStatusCodes: [429, 503]`, `rateLimitInterruptCount: 1`, `rateLimitMaxRetries`',
          'Browsertrix cannot back off, so it stops: see below',
        ],
      },
      lost: {
        at: 13,
        text: () =>
          "Back-off after 429 or 503 (Retry-After, else 5 s doubling, up to 10 minutes): Browsertrix does not slow down, so rateLimitInterruptCount 1 stops the crawl at the first such answer (exit code 18); it saves its state in the collection's crawls/ folder, and that file given as --config later goes on from there. 403 is not a back-off status here, as in Tabcrawl.",
      },
    },
  },
  headBeforeGet: {
    default: false,
    label: 'HEAD before GET',
    form: { group: 'Requests', testId: 'head-before-get', help: 'GET only when a HEAD says the URL is HTML.' },
    cli: {
      flag: '--head',
      read: 'on',
      help: ['send HEAD first, GET only HTML'],
      doc: 'send HEAD first, and GET only when the HEAD says HTML',
    },
    digest: { at: 10, text: (s) => (s.headBeforeGet ? 'HEAD first' : null) },
    warcinfo: { at: 10, fields: (s) => [['headBeforeGet', text(s.headBeforeGet)]] },
    browsertrix: {
      options: [],
      lost: {
        at: 23,
        text: () =>
          "Browsertrix fetches each page URL directly first and, when the answer is HTML, loads it again in its browser: two requests back to back, where Tabcrawl's HEAD then GET wait for the host's gap between them.",
      },
    },
  },
  withCookies: {
    default: false,
    label: 'Crawl with my cookies',
    form: {
      group: 'Requests',
      testId: 'with-cookies',
      help: 'Send your cookies for the site, so the crawl sees it as you do, logged in. Off: requests carry no cookies.',
    },
    digest: { at: 21, text: (s) => (s.withCookies ? 'with cookies' : null) },
    warcinfo: { at: 6, fields: (s) => [['withCookies', text(s.withCookies === true)]] },
    browsertrix: {
      // Its logout and delete guards are exclude patterns (`withSessionGuard`), written with excludePatterns'.
      options: ['exclude'],
      lost: {
        at: 16,
        text: (s) =>
          s.withCookies
            ? 'Cookies: this crawl sent your cookies; Browsertrix starts a browser of its own without them (to crawl logged in, give it a browser profile: profile). The logout and delete guards stay in exclude.'
            : 'Cookies: none sent, as in Tabcrawl (Browsertrix starts a browser of its own).',
      },
    },
  },
  archiveResources: {
    default: true,
    label: 'Archive page resources',
    form: {
      group: 'Archive',
      testId: 'archive-resources',
      help: 'Stylesheets, scripts, images and fonts each page needs, on any host, each once, as politely as pages.',
    },
    cli: {
      flag: '--no-resources',
      read: 'switch',
      on: ['resources', 'page-requisites'],
      off: ['no-resources', 'no-page-requisites'],
      short: 'p',
      help: [
        'do not archive page resources (stylesheets, scripts, images, fonts each page needs,',
        'on any host, politely); --resources, -p or --page-requisites turn it on',
      ],
      doc: "do not archive page resources (stylesheets and what they import and load, scripts, images, fonts, icons, media: see [archiving.md](archiving.md)); `--resources`, `-p` or `--page-requisites` (as wget's) turn it on",
    },
    // `!== true`: crawls stored before resources were archived have neither setting: they archived none.
    digest: { at: 17, text: (s) => (s.archiveResources !== true ? 'no resources' : null) },
    warcinfo: { at: 11, fields: (s) => [['archiveResources', text(s.archiveResources === true)]] },
    browsertrix: {
      options: [],
      lost: {
        at: 14,
        text: (s) =>
          `Page resources: Browsertrix renders every page in a browser (scripts run, behaviors scroll and play media) and records all it loads, on any host, without reading robots.txt for them; Tabcrawl ${s.archiveResources ? 'fetched each resource once, politely' : 'did not archive resources'}. Largest file (${Number((s.maxFileBytes / MIB).toFixed(1))} MiB), most resources (${s.maxResources}) and downloading linked files have no counterpart.`,
      },
    },
  },
  downloadFiles: {
    default: true,
    label: 'Download linked files',
    form: {
      group: 'Archive',
      testId: 'download-files',
      help: 'Store linked files that are not HTML (PDFs, images, archives). Off: their headers only.',
    },
    cli: {
      flag: '--no-files',
      read: 'switch',
      on: ['files'],
      off: ['no-files'],
      help: [
        'keep only the headers of linked files that are not HTML (PDFs, images, archives);',
        '--files turns downloading on',
      ],
      doc: 'keep only the headers of linked files that are not HTML (PDFs, images, archives); `--files` turns downloading on',
    },
    digest: { at: 18, text: (s) => (s.downloadFiles !== true ? 'no files' : null) },
    warcinfo: { at: 12, fields: (s) => [['downloadFiles', text(s.downloadFiles === true)]] },
    browsertrix: { options: [], mappedBy: 'archiveResources' },
  },
  maxFileBytes: {
    default: 50 * MIB,
    label: 'Largest file',
    limits: { min: 1024, max: 1024 * MIB, unit: 'bytes' },
    form: {
      group: 'Archive',
      unit: 'MiB',
      testId: 'max-file-size',
      help: 'A larger resource or file is cut and marked truncated.',
    },
    cli: {
      flag: '--max-file-size',
      value: 'SIZE',
      read: 'size',
      help: [
        'largest resource or file stored, bytes or with K, M or G, e.g. 50M; a larger one',
        'is cut and marked truncated',
      ],
      doc: 'largest resource or linked file stored: bytes, or with `K`, `M`, `G` (`50M`, `1.5G` is refused: at most 1G); a larger one is cut and marked truncated',
    },
    // `??`: crawls stored before the setting existed lack it.
    digest: {
      at: 19,
      text: (s, f) =>
        (s.maxFileBytes ?? SETTING_TABLE.maxFileBytes.default) !== SETTING_TABLE.maxFileBytes.default
          ? `files up to ${f.bytes(s.maxFileBytes)}`
          : null,
    },
    warcinfo: { at: 13, fields: (s) => (s.maxFileBytes === undefined ? [] : [['maxFileBytes', text(s.maxFileBytes)]]) },
    browsertrix: { options: [], mappedBy: 'archiveResources' },
  },
  maxResources: {
    default: 10_000,
    label: 'Most resources and files',
    limits: { min: 0, max: 1_000_000, unit: 'count' },
    form: {
      group: 'Archive',
      unit: null,
      testId: 'max-resources',
      help: 'Past it, no resource is fetched and files keep their headers only.',
    },
    cli: {
      flag: '--max-resources',
      value: 'N',
      read: 'whole',
      help: ['most page resources plus downloaded files'],
      doc: 'most page resources plus downloaded files; past it, no resource is queued and files keep their headers only',
    },
    digest: {
      at: 20,
      text: (s) =>
        (s.maxResources ?? SETTING_TABLE.maxResources.default) !== SETTING_TABLE.maxResources.default
          ? `${s.maxResources} resources at most`
          : null,
    },
    warcinfo: { at: 14, fields: (s) => (s.maxResources === undefined ? [] : [['maxResources', text(s.maxResources)]]) },
    browsertrix: { options: [], mappedBy: 'archiveResources' },
  },
  checkExternal: {
    default: true,
    label: 'Check links to other sites',
    form: {
      group: 'Audit',
      testId: 'check-external',
      help: 'Ask each linked URL on another site once (HEAD, GET if refused; no body kept), following its redirects, as politely as pages.',
    },
    cli: {
      flag: '--no-check-external',
      read: 'switch',
      on: ['check-external'],
      off: ['no-check-external'],
      help: [
        'do not check links to other sites (each linked URL on another site is asked for once,',
        'HEAD then GET if refused, no body kept, redirects followed, politely);',
        '--check-external turns it on',
      ],
      doc: 'do not check links to other sites (see [audit.md](audit.md#links-to-other-sites)); `--check-external` turns it on',
    },
    browsertrix: {
      options: [],
      lost: {
        at: 15,
        text: (s) =>
          `Links to other sites${s.checkExternal ? ' (checked with HEAD)' : ''}: Browsertrix does not check them.`,
      },
    },
  },
  maxExternal: {
    default: 10_000,
    label: 'Most links to other sites',
    limits: { min: 0, max: 1_000_000, unit: 'count' },
    form: {
      group: 'Audit',
      unit: null,
      testId: 'max-external',
      help: 'Past it, links to other sites are not checked.',
    },
    cli: {
      flag: '--max-external',
      value: 'N',
      read: 'whole',
      help: ['most URLs on other sites checked'],
      doc: 'most URLs on other sites checked, redirect hops included',
    },
    browsertrix: { options: [], mappedBy: 'checkExternal' },
  },
  maxExternalPerHost: {
    default: 100,
    label: 'Most checks per other site',
    limits: { min: 1, max: 100_000, unit: 'count' },
    form: {
      group: 'Audit',
      unit: null,
      testId: 'max-external-per-host',
      help: 'URLs checked on any one other site, redirects included.',
    },
    cli: {
      flag: '--max-external-per-host',
      value: 'N',
      read: 'whole',
      help: ['most URLs checked on any one other site, redirects included'],
      doc: 'most URLs checked on any one other site, redirect hops included',
    },
    browsertrix: { options: [], mappedBy: 'checkExternal' },
  },
  allowPrivateAddresses: {
    default: false,
    label: 'Allow private addresses',
    form: {
      group: 'Requests',

      testId: 'allow-private-addresses',
      help: 'Let a crawl of a public site reach your own network (localhost, 10.x, 192.168.x, .local…), for a mixed intranet. Off: such URLs are listed as not checked. A crawl that starts on your network reaches it either way.',
    },
    cli: {
      flag: '--allow-private-addresses',
      read: 'on',
      help: [
        'let a crawl of a public site reach your own network (localhost, 10.x, 192.168.x,',
        '.local…), for a mixed intranet; off, such URLs are listed as not checked: private',
        'address. A crawl that starts on your network reaches it either way',
      ],
      doc: 'let a crawl that starts on a public site also reach your own network (loopback, 10.x, 192.168.x, link-local, metadata addresses, `*.local`…); off, such URLs are never requested and are listed as not crawled (`private-address`, *not checked: private address*). A crawl that starts on your network reaches it either way ([security.md](security.md#a-crawl-cannot-be-aimed-at-your-network))',
    },
    digest: { at: 22, text: (s) => (s.allowPrivateAddresses === true ? 'private addresses allowed' : null) },
    browsertrix: {
      options: [],
      lost: {
        at: 17,
        text: (s) =>
          s.allowPrivateAddresses
            ? 'Your network: this crawl was allowed to reach private addresses, and so is Browsertrix, whose browser loads whatever the pages name.'
            : "Your network: Tabcrawl asks nothing of a private address (loopback, 10.x, 192.168.x, link-local, metadata) that a public site names; this config sets no such rule, and Browsertrix's browser loads whatever the pages name: run it where nothing private is reachable.",
      },
    },
  },
});

/** One entry with its key, for code that walks the table. */
export type KeyedEntry = { [K in TableKey]: SettingEntry<K> & { key: K } }[TableKey];

/** Every entry with its key, in table order. */
export const SETTING_ENTRIES: readonly KeyedEntry[] = Object.freeze(
  (Object.keys(SETTING_TABLE) as TableKey[]).map((key) => ({ ...SETTING_TABLE[key], key }) as KeyedEntry),
);

/** Whether a setting holds its default (lists compared item by item). */
export function isDefaultValue(key: TableKey, value: unknown): boolean {
  const builtIn: unknown = SETTING_TABLE[key].default;
  return Array.isArray(value) && Array.isArray(builtIn) ? value.join('\n') === builtIn.join('\n') : value === builtIn;
}

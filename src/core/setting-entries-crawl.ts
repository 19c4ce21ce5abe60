/**
 * The settings table's entries for what a crawl takes and how fast: its limits (pages, depth, body size), its
 * pace (delay, jitter, hosts and requests at once, the robots.txt product token) and its scope (path, subdomains,
 * nofollow, excludes, other sites). Part of `SETTING_TABLE` (`setting-table.ts`, which says what an entry holds
 * and how to add one).
 */
import type { ConfigValue, SettingEntry, SettingLimits } from './setting-entry.ts';
import { MIB, text, seconds, plural } from './setting-text.ts';

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

/** Bounds of `requestsPerHost`, which its help names. */
const REQUESTS_PER_HOST: SettingLimits = { min: 1, max: 16, unit: 'count' };

/** Limits, pace and scope, in the order the form and `--help` list them. */
/** The settings of this part of the table. */
export type CrawlKey =
  | 'maxPages'
  | 'maxDepth'
  | 'maxBodyBytes'
  | 'delayMs'
  | 'jitterMs'
  | 'hostConcurrency'
  | 'requestsPerHost'
  | 'productToken'
  | 'pathPrefix'
  | 'includeSubdomains'
  | 'followNofollow'
  | 'excludePatterns'
  | 'extraOrigins';

export const CRAWL_ENTRIES: { readonly [K in CrawlKey]: SettingEntry<K> } = {
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
    digest: { at: 1, text: (s) => (s.maxPages !== CRAWL_ENTRIES.maxPages.default ? `limit ${s.maxPages}` : null) },
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
    digest: { at: 3, text: (s) => (s.maxDepth !== CRAWL_ENTRIES.maxDepth.default ? `depth ${s.maxDepth}` : null) },
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
        s.maxBodyBytes !== CRAWL_ENTRIES.maxBodyBytes.default ? `bodies up to ${f.bytes(s.maxBodyBytes)}` : null,
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
      text: (s, f) => (s.delayMs !== CRAWL_ENTRIES.delayMs.default ? `delay ${f.seconds(s.delayMs)}` : null),
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
      text: (s, f) => (s.jitterMs !== CRAWL_ENTRIES.jitterMs.default ? `jitter ${f.seconds(s.jitterMs)}` : null),
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
        s.hostConcurrency !== CRAWL_ENTRIES.hostConcurrency.default ? `${s.hostConcurrency} hosts at once` : null,
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
        s.requestsPerHost !== CRAWL_ENTRIES.requestsPerHost.default ? `${s.requestsPerHost} at once per host` : null,
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
      text: (s) => (s.productToken !== CRAWL_ENTRIES.productToken.default ? `agent ${s.productToken}` : null),
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
    digest: { at: 5, text: (s) => (s.pathPrefix !== CRAWL_ENTRIES.pathPrefix.default ? `path ${s.pathPrefix}` : null) },
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
};

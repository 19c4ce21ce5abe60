/**
 * The settings table's entries for how each URL is fetched and what else is: requests (timeout, retries, HEAD,
 * cookies), page resources and linked files, links to other sites and the user's own network. Part of
 * `SETTING_TABLE` (`setting-table.ts`, which says what an entry holds and how to add one).
 */
import type { SettingEntry } from './setting-entry.ts';
import { MIB, text, seconds, plural } from './setting-text.ts';

/** Requests, resources and files, links elsewhere, in the order the form and `--help` list them. */
/** The settings of this part of the table. */
export type FetchKey =
  | 'timeoutMs'
  | 'maxRetries'
  | 'headBeforeGet'
  | 'withCookies'
  | 'archiveResources'
  | 'downloadFiles'
  | 'maxFileBytes'
  | 'maxResources'
  | 'checkExternal'
  | 'maxExternal'
  | 'maxExternalPerHost'
  | 'allowPrivateAddresses';

export const FETCH_ENTRIES: { readonly [K in FetchKey]: SettingEntry<K> } = {
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
      text: (s, f) => (s.timeoutMs !== FETCH_ENTRIES.timeoutMs.default ? `timeout ${f.seconds(s.timeoutMs)}` : null),
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
      text: (s) => (s.maxRetries !== FETCH_ENTRIES.maxRetries.default ? `${s.maxRetries} retries` : null),
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
        (s.maxFileBytes ?? FETCH_ENTRIES.maxFileBytes.default) !== FETCH_ENTRIES.maxFileBytes.default
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
        (s.maxResources ?? FETCH_ENTRIES.maxResources.default) !== FETCH_ENTRIES.maxResources.default
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
};

/**
 * The Browsertrix hand-off's parts, in one list: each crawl setting's (its entry's `browsertrix` in
 * `core/setting-table.ts`) and the hand-off's own, which belong to no setting (the start URL and the scope,
 * the User-Agent, the archive, what Browsertrix does whatever the settings). `browsertrix-config.ts` writes
 * the config from them and `browsertrix-docs.ts` docs/browsertrix.md's mapping table; each list (options,
 * sentences, rows) is in the order of its parts' `at`.
 *
 * Pure: settings in, data out.
 */
import type { CrawlSettings } from '../core/settings.ts';
import { SETTING_ENTRIES, type BrowsertrixHelp, type BrowsertrixPart } from '../core/setting-table.ts';
import { createScope } from '../core/url/scope.ts';
import { crawlerUserAgent } from '../core/user-agent.ts';
import { browsertrixScope } from './browsertrix-scope.ts';

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

/**
 * What the parts read beside the settings, worked out once from several of them: the scope's regexes, the
 * extra sites that are seeds, the pause after each page; `version` is Tabcrawl's, for the User-Agent.
 * `settings` are the crawl's as {@link BrowsertrixPart} functions take them (lists present, guards added).
 */
export function browsertrixHelp(settings: CrawlSettings, version: string): BrowsertrixHelp {
  const scope = browsertrixScope(settings);
  const inScope = createScope(settings);
  return {
    include: scope.include,
    exclude: scope.exclude,
    // An exclude pattern may rule out an extra site's home page, and Browsertrix never excludes a seed.
    extraSeeds: settings.extraOrigins.map((origin) => `${origin}/`).filter((url) => inScope.check(url).inScope),
    pageExtraDelay: Math.ceil((settings.delayMs + (settings.jitterMs ?? 0)) / 1000),
    linkSelectors,
    backOffStatuses: BACK_OFF_STATUSES,
    userAgent: crawlerUserAgent(version),
  };
}

/** The start URL's part: the first seed (the extra sites' seeds follow it). */
const START_URL: BrowsertrixPart = {
  options: ['seeds', 'scopeType', 'include'],
  writes: {
    at: 10,
    options: (s, h) => ({
      seeds: [{ url: s.startUrl }, ...h.extraSeeds.map((url) => ({ url }))],
      scopeType: 'custom',
      include: [...h.include],
    }),
  },
  became: {
    at: 10,
    text: (s) => `start URL ${s.startUrl}: the first seed.`,
    row: ['start URL', '`seeds` (the first)', ''],
  },
};

/**
 * The scope's part (`mappedBy: 'scope'`): the start site (with subdomains and path prefix) and the extra
 * sites, as `include` regexes (`browsertrix-scope.ts`), written with the seeds by {@link START_URL}.
 */
const SCOPE: BrowsertrixPart = {
  options: ['include'],
  became: {
    at: 12,
    text: (s) => {
      const start = new URL(s.startUrl);
      const startSite = s.includeSubdomains
        ? `${start.hostname.replace(/^www\./, '')} and its subdomains, over http and https${start.port === '' ? '' : ` on port ${start.port}`}`
        : `${start.origin} only (this scheme, host and port)`;
      return `Scope: ${startSite}${s.pathPrefix === '' ? '' : `, paths starting with ${s.pathPrefix}`}${s.extraOrigins.length === 0 ? '' : `, and each extra site whole`}: scopeType custom with one anchored regex per site in include. Browsertrix's own prefix, host and domain scopes would take http and https alike and ignore a leading www., which Tabcrawl does not.`;
    },
    row: [
      'scope: the start origin, *Include subdomains*, path prefix, the extra sites',
      '`scopeType: custom`, `include`: one anchored regex per site',
      'see [The scope](#the-scope)',
    ],
  },
};

/** What the hand-off writes and says whatever the settings, and the parts above. */
const OWN_PARTS: readonly BrowsertrixPart[] = [
  START_URL,
  SCOPE,
  {
    options: ['userAgent'],
    writes: { at: 18, options: (_, h) => ({ userAgent: h.userAgent }) },
    became: {
      at: 17,
      text: () => "User-Agent: userAgent, the same string as Tabcrawl's.",
      row: [
        'the User-Agent',
        '`userAgent`',
        'the same string: `Mozilla/5.0 (compatible; tabcrawl/<version>; +https://github.com/tabcrawl/tabcrawl)`',
      ],
    },
  },
  {
    options: ['maxPageRetries'],
    writes: { at: 20, options: () => ({ maxPageRetries: 0 }) },
    became: {
      at: 21,
      text: () => 'Each URL requested once: maxPageRetries 0 (Browsertrix retries a failed page twice by default).',
      row: ['each URL requested once', '`maxPageRetries: 0`', 'Browsertrix retries a failed page twice by default'],
    },
  },
  {
    options: ['generateWACZ'],
    writes: { at: 22, options: () => ({ generateWACZ: true }) },
    became: {
      at: 23,
      text: () =>
        'The archive: generateWACZ true, a WACZ beside the WARCs (docs/browsertrix.md says how to bring it back).',
      row: ['the archive', '`generateWACZ: true`', ''],
    },
  },
  {
    // The option line itself is written by browsertrix-config.ts, commented out under the first seed.
    options: [],
    became: {
      at: 22.5,
      text: () => null,
      row: ['sitemaps listed in robots.txt', '`sitemap` of the first seed, written commented out', 'see below'],
    },
    lost: {
      at: 18,
      text: () =>
        "Sitemaps: Tabcrawl reads those that each robots.txt lists. Browsertrix fetches up to 5 sitemaps at once without a gap, so sitemap is left commented out under the first seed; uncomment it to read the sitemaps the start site's robots.txt lists.",
    },
  },
  {
    options: [],
    lost: {
      at: 11,
      text: (_, h) =>
        `robots.txt Crawl-delay: Browsertrix ignores it, and it is not known when this file is written. If a site's robots.txt asks for more than ${h.pageExtraDelay} s, raise pageExtraDelay to it.`,
    },
  },
  {
    options: [],
    lost: {
      at: 12,
      text: () =>
        'The response-time rule (a response of t seconds makes the next gap t² seconds, up to 60): none in Browsertrix. Raise pageExtraDelay for a slow site.',
    },
  },
  {
    options: [],
    lost: {
      at: 19,
      text: () =>
        'A robots.txt that fails (5xx, timeout, no connection): Browsertrix reads it as allowing everything, Tabcrawl as disallowing everything until it answers.',
    },
  },
  {
    options: [],
    lost: {
      at: 20,
      text: () => '<meta name="robots" content="nofollow"> on a page: Browsertrix follows its links anyway.',
    },
  },
  {
    options: [],
    lost: {
      at: 22,
      text: () =>
        "Browsertrix matches the regexes on URLs with their query parameters sorted, utm_ parameters removed and the path's percent-escapes decoded: a URL that differs only there may be judged otherwise (an exclude pattern such as *?print=* depends on the order of parameters; /%64ocs/ reads as /docs/).",
    },
  },
];

/** The parts whose `mappedBy` is `scope` point at this one (exported for the tests). */
export const SCOPE_PART: BrowsertrixPart = SCOPE;

/** Every part: the settings' in table order, then the hand-off's own. */
export const BROWSERTRIX_PARTS: readonly BrowsertrixPart[] = Object.freeze([
  ...SETTING_ENTRIES.map((entry) => entry.browsertrix),
  ...OWN_PARTS,
]);

/** The parts that have `pick`'s piece, in the order of its `at` (stable: equal places keep the parts' order). */
export function inOrder<T extends { at: number }>(pick: (part: BrowsertrixPart) => T | undefined): T[] {
  return BROWSERTRIX_PARTS.flatMap((part) => {
    const piece = pick(part);
    return piece === undefined ? [] : [piece];
  }).sort((a, b) => a.at - b.at);
}

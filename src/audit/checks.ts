/**
 * The registry of the Issues checks: every check's stable id, its severity,
 * its name, one line on why it matters and how to fix it, and the threshold
 * it uses (see `thresholds.ts`). The ids are a public contract: scripts read
 * them in the exports (`issues` column) and the Issues CSV; never rename one.
 *
 * Each issue sits on the URL that has the problem: a broken link's on the
 * broken URL (whose linking pages are its related URLs), a missing anchor's
 * on the linking page, a page fact's on the page. docs/audit.md lists the
 * same table for people.
 *
 * Pure: no Dexie, no browser API.
 */
import { RENDER_CHECK_INFOS } from './render-check-infos.ts';
import { DEFAULT_THRESHOLDS, type AuditThresholds } from './thresholds.ts';

/** How much an issue matters: an `error` breaks something for visitors or search engines, a `warning` likely costs, a `notice` is worth a look. */
export type Severity = 'error' | 'warning' | 'notice';

/** Every severity, worst first. */
export const SEVERITIES: readonly Severity[] = Object.freeze(['error', 'warning', 'notice']);

/** Every check id, in the order the Issues view lists them (by group). */
export const CHECK_IDS = Object.freeze([
  'broken-link-internal',
  'broken-link-external',
  'broken-resource',
  'missing-anchor',
  'link-to-redirect',
  'redirect-chain',
  'redirect-loop',
  'link-to-blocked',
  'title-missing',
  'title-duplicate',
  'title-too-long',
  'title-too-short',
  'description-missing',
  'description-duplicate',
  'h1-missing',
  'h1-multiple',
  'noindex-linked',
  'canonical-to-non-200',
  'canonical-elsewhere',
  'sitemap-orphan',
  'sitemap-non-indexable',
  'slow-response',
  'large-page',
  'deep-page',
  'mixed-content',
  'image-missing-alt',
  'duplicate-content',
  'rendered-links-only',
  'rendered-title-differs',
  'rendered-description-differs',
  'rendered-canonical-differs',
  'rendered-noindex-differs',
  'rendered-robots-differs',
  'render-script-errors',
  'render-blocked-request',
  'render-failed',
] as const);

export type CheckId = (typeof CHECK_IDS)[number];

/** The groups of checks, as the Issues view heads them. */
export type CheckGroup = 'links' | 'redirects' | 'titles' | 'indexing' | 'performance' | 'content' | 'rendering';

export interface CheckInfo {
  id: CheckId;
  severity: Severity;
  group: CheckGroup;
  /** What the view calls it, e.g. `Broken internal links`. */
  title: string;
  /** One line: why it matters and how to fix it. */
  why: string;
  /** The threshold in words, e.g. `over 60 characters`; null for a check without one. */
  threshold: string | null;
}

const kib = (bytes: number): string => (bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`);

/** Every check, described with the thresholds in force (the view and the docs show them). */
export function checkInfos(thresholds: AuditThresholds = DEFAULT_THRESHOLDS): readonly CheckInfo[] {
  const t = thresholds;
  const infos: { [K in CheckId]: Omit<CheckInfo, 'id'> } = {
    'broken-link-internal': {
      severity: 'error',
      group: 'links',
      title: 'Broken internal links',
      why: 'A URL of the site, linked from its pages, answers 4xx or 5xx or fails: visitors hit an error. Fix or remove the links (the linking pages are listed), or restore the page.',
      threshold: 'status 400 or more, or no answer',
    },
    'broken-link-external': {
      severity: 'error',
      group: 'links',
      title: 'Broken links to other sites',
      why: 'A link to another site ends in 4xx or 5xx or fails. Update the link to the page’s new address or remove it.',
      threshold: 'status 400 or more, or no answer, after its redirects',
    },
    'broken-resource': {
      severity: 'error',
      group: 'links',
      title: 'Broken page resources',
      why: 'An image, stylesheet, script or font a page loads is missing, fails or is blocked by robots.txt: the page shows or works wrong. Fix the reference or restore the file.',
      threshold: 'status 400 or more, no answer, or blocked by robots.txt',
    },
    'missing-anchor': {
      severity: 'warning',
      group: 'links',
      title: 'Links to missing anchors',
      why: 'A link to #fragment of a crawled page lands on no element with that id or name: the visitor is not taken to the section. Fix the fragment or add the id.',
      threshold: null,
    },
    'link-to-redirect': {
      severity: 'warning',
      group: 'redirects',
      title: 'Internal links to redirects',
      why: 'Pages link to a URL that redirects: every click costs an extra round trip. Link to the final URL instead.',
      threshold: 'status 3xx',
    },
    'redirect-chain': {
      severity: 'warning',
      group: 'redirects',
      title: 'Redirect chains',
      why: 'A redirect leads to another redirect: each hop slows visitors and search engines may stop following. Redirect straight to the final URL.',
      threshold: `${t.redirectChainHops} or more hops`,
    },
    'redirect-loop': {
      severity: 'error',
      group: 'redirects',
      title: 'Redirect loops',
      why: 'Redirects come back to a URL already on the chain: the page never loads. Break the loop so the chain ends on a page.',
      threshold: null,
    },
    'link-to-blocked': {
      severity: 'warning',
      group: 'redirects',
      title: 'Links to URLs blocked by robots.txt',
      why: 'Pages link to URLs that robots.txt disallows: search engines cannot read them. Allow them in robots.txt, or stop linking if they should stay hidden.',
      threshold: null,
    },
    'title-missing': {
      severity: 'error',
      group: 'titles',
      title: 'Missing or empty titles',
      why: 'An HTML page has no <title>, or an empty one: search results and tabs show the URL instead. Give every page a title of its own.',
      threshold: null,
    },
    'title-duplicate': {
      severity: 'warning',
      group: 'titles',
      title: 'Duplicate titles',
      why: 'Several pages share one title: search results cannot tell them apart. Make each title describe its page.',
      threshold: 'same title (white space collapsed) on 2 or more pages',
    },
    'title-too-long': {
      severity: 'notice',
      group: 'titles',
      title: 'Titles too long',
      why: 'Long titles are cut in search results. Put what matters first and shorten the rest.',
      threshold: `over ${t.titleMaxChars} characters`,
    },
    'title-too-short': {
      severity: 'notice',
      group: 'titles',
      title: 'Titles too short',
      why: 'A very short title says little about the page in search results. Describe the page in a few more words.',
      threshold: `under ${t.titleMinChars} characters`,
    },
    'description-missing': {
      severity: 'warning',
      group: 'titles',
      title: 'Missing meta descriptions',
      why: 'An HTML page has no meta description, or an empty one: search engines make up a snippet. Write a short summary of the page.',
      threshold: null,
    },
    'description-duplicate': {
      severity: 'warning',
      group: 'titles',
      title: 'Duplicate meta descriptions',
      why: 'Several pages share one meta description: their snippets look alike. Write one per page.',
      threshold: 'same description on 2 or more pages',
    },
    'h1-missing': {
      severity: 'warning',
      group: 'titles',
      title: 'Missing <h1>',
      why: 'An HTML page has no <h1> heading: readers, screen readers and search engines miss its main topic. Add one.',
      threshold: null,
    },
    'h1-multiple': {
      severity: 'notice',
      group: 'titles',
      title: 'More than one <h1>',
      why: 'A page has several <h1> headings: its main topic is unclear. Keep one <h1> and use <h2>… below it.',
      threshold: '2 or more <h1>',
    },
    'noindex-linked': {
      severity: 'warning',
      group: 'indexing',
      title: 'Noindex pages linked internally',
      why: 'A page says noindex (meta robots or X-Robots-Tag) yet the site links to it: links lead to a page search engines drop. Remove noindex or the links.',
      threshold: null,
    },
    'canonical-to-non-200': {
      severity: 'error',
      group: 'indexing',
      title: 'Canonicals to non-200 URLs',
      why: 'A page’s canonical points to a URL that redirects, is broken, is blocked by robots.txt or is on another site: search engines may ignore it. Point it at the live, final URL.',
      threshold: 'canonical target answers anything but 200, is blocked, or is on another site',
    },
    'canonical-elsewhere': {
      severity: 'notice',
      group: 'indexing',
      title: 'Pages canonicalised elsewhere',
      why: 'A page names another URL as its canonical: search engines index that one instead. Fine for true duplicates; otherwise make the canonical point to itself.',
      threshold: null,
    },
    'sitemap-orphan': {
      severity: 'warning',
      group: 'indexing',
      title: 'Sitemap URLs no page links to',
      why: 'A URL listed in a sitemap is linked from no crawled page (an orphan): visitors cannot reach it. Link to it from a page, or drop it from the sitemap.',
      threshold: null,
    },
    'sitemap-non-indexable': {
      severity: 'warning',
      group: 'indexing',
      title: 'Non-indexable URLs in sitemaps',
      why: 'A sitemap lists a URL that is not indexable (noindex, canonicalised elsewhere, blocked, a redirect or not 200): sitemaps should list only pages to index. Remove it or fix the page.',
      threshold: null,
    },
    'slow-response': {
      severity: 'warning',
      group: 'performance',
      title: 'Slow responses',
      why: 'The server took long to answer: visitors wait and crawlers fetch less. Cache the page or speed up the server.',
      threshold: `over ${t.slowResponseMs} ms`,
    },
    'large-page': {
      severity: 'notice',
      group: 'performance',
      title: 'Large pages',
      why: 'The HTML alone is large: slow to load on mobile networks, and crawlers may cut it. Move inline data and scripts out, paginate long lists.',
      threshold: `HTML over ${kib(t.largePageBytes)}`,
    },
    'deep-page': {
      severity: 'notice',
      group: 'performance',
      title: 'Deep pages',
      why: 'The page is many clicks from the start page: visitors and search engines find it late. Link to it from higher up.',
      threshold: `more than ${t.deepPageClicks} clicks from the start`,
    },
    'mixed-content': {
      severity: 'error',
      group: 'content',
      title: 'Mixed content',
      why: 'An https page loads http resources: browsers block or warn about them. Load them over https.',
      threshold: null,
    },
    'image-missing-alt': {
      severity: 'warning',
      group: 'content',
      title: 'Images without alt',
      why: 'Images without an alt attribute say nothing to screen readers or search engines. Describe each image in alt (alt="" for a decorative one).',
      threshold: null,
    },
    'duplicate-content': {
      severity: 'warning',
      group: 'content',
      title: 'Exact duplicate pages',
      why: 'Several URLs serve byte-identical pages: search engines pick one and links split between them. Redirect the copies, or add a canonical.',
      threshold: 'identical body, 2xx, 2 or more pages',
    },
    ...RENDER_CHECK_INFOS,
  };
  return Object.freeze(CHECK_IDS.map((id) => Object.freeze({ id, ...infos[id] })));
}

/** Every check with the default thresholds, in {@link CHECK_IDS} order. */
export const CHECKS: readonly CheckInfo[] = checkInfos();

const BY_ID = new Map(CHECKS.map((info) => [info.id, info]));

/** The registry entry of `id` (default thresholds). */
export function checkInfo(id: CheckId): CheckInfo {
  const info = BY_ID.get(id);
  if (info === undefined) throw new RangeError(`unknown check ${id}`);
  return info;
}

/** Whether `value` is a check id. */
export function isCheckId(value: unknown): value is CheckId {
  return typeof value === 'string' && BY_ID.has(value as CheckId);
}

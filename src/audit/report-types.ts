/**
 * The reports a site owner reads after a crawl, built from the crawl table:
 *
 * - **Broken links**: targets whose row is 4xx, 5xx or a network failure,
 *   with every page linking to them and the anchor text of each link. Links
 *   only: a broken page resource (a missing image) is in the broken
 *   resources, and here only when a page also links to it.
 * - **Broken resources**: page resources (stylesheets, scripts, images,
 *   fonts…) whose row answered 400 or more, failed at the network level or
 *   was blocked by robots.txt, each with what it is and every row using it
 *   (pages, and stylesheets for what they import or load). A URL first
 *   reached by a link (so its row is a page or a file) is here too when a
 *   row uses it as a resource.
 * - **Redirects**: every redirect chain of pages, files and sitemaps,
 *   followed through the rows, with loops and chains of more than one hop
 *   flagged. A resource that redirects is not a chain a visitor follows:
 *   the table shows them (kind *Resources*, *3xx*).
 * - **Blocked by robots.txt**: the site's pages, files and sitemaps never
 *   requested, with the rule and the page that led there (blocked resources
 *   are broken resources; a link to another site that its robots.txt
 *   disallows is not the site's to fix, as in the Issues).
 * - **Duplicate content**: groups of byte-identical pages that answered 2xx (identical error pages
 *   are not duplicate content: they are in the broken links). Pages only: one image served under two
 *   URLs, or one PDF, is not duplicate content. A page whose canonical names another page of its
 *   group is left out, as in the Issues (`duplicate-content`).
 *
 * The shapes of the five reports (`report-collectors.ts` and
 * `report-views.ts` build them, `reports.ts` runs them). Pure: no Dexie, no browser API.
 */
import { parseContentType } from '../core/links/decode-html.ts';
import type { RowKind } from '../core/model.ts';

/** The five reports, as named in file names and `data-testid`s. */
export type ReportKind = 'broken-links' | 'broken-resources' | 'redirects' | 'blocked' | 'duplicates';

/** Every {@link ReportKind}, in the order the UI lists them. */
export const REPORT_KINDS: readonly ReportKind[] = Object.freeze([
  'broken-links',
  'broken-resources',
  'redirects',
  'blocked',
  'duplicates',
]);

/** A page linking to a broken target. */
export interface LinkingPage {
  /** The linking row's URL. */
  url: string;
  /** Anchor text of its (first) link to the target; "" when the link had none (or came from a sitemap). */
  anchorText: string;
}

/** A crawled URL that answered 4xx or 5xx, or failed at the network level. */
export interface BrokenTarget {
  url: string;
  /** HTTP status, or null for a network failure. */
  status: number | null;
  /** `code: message` of a network failure; null when the server answered. */
  error: string | null;
  /** Rows whose `links` include `url`, each once, in `seq` order. */
  linkingPages: LinkingPage[];
}

export interface BrokenLinksReport {
  kind: 'broken-links';
  /** Most linking pages first; ties in `seq` order of the target row. */
  targets: BrokenTarget[];
}

/** What a page resource is, from its URL's extension, else its content type. */
export type ResourceType = 'image' | 'stylesheet' | 'script' | 'font' | 'other';

/** A row using a broken resource: a page, or a stylesheet (for what it imports or loads). */
export interface ResourceUserRef {
  url: string;
  kind: RowKind;
}

/** A page resource whose row answered 400 or more, failed at the network level, or was blocked by robots.txt. */
export interface BrokenResource {
  url: string;
  type: ResourceType;
  /** HTTP status, or null when it failed or was blocked. */
  status: number | null;
  /** `code: message` of a network failure; null otherwise. */
  error: string | null;
  /** Blocked by robots.txt: never requested. */
  isBlocked: boolean;
  /** The robots.txt rule that blocked it, when known. */
  blockedRule: string | null;
  /** The row that led to it: the first page (or stylesheet) using it, or the resource that redirected to it. */
  referrer: string | null;
  /** Rows whose `resources` include `url`, each once, in `seq` order (none for a redirect's target). */
  users: ResourceUserRef[];
}

export interface BrokenResourcesReport {
  kind: 'broken-resources';
  /** Most users first; ties in `seq` order of the resource row. */
  resources: BrokenResource[];
}

/** Extensions of page resources, by what they are. */
const TYPE_OF_EXTENSION: Readonly<Record<string, ResourceType>> = {
  ...Object.fromEntries(
    [
      'png',
      'apng',
      'jpg',
      'jpeg',
      'jpe',
      'jfif',
      'pjpeg',
      'gif',
      'webp',
      'avif',
      'svg',
      'svgz',
      'ico',
      'cur',
      'bmp',
      'tif',
      'tiff',
      'jxl',
      'heic',
    ].map((ext) => [ext, 'image']),
  ),
  css: 'stylesheet',
  ...Object.fromEntries(['js', 'mjs', 'cjs'].map((ext) => [ext, 'script'])),
  ...Object.fromEntries(['woff', 'woff2', 'ttf', 'otf', 'eot'].map((ext) => [ext, 'font'])),
};

/** What a media type says a resource is; null when it says nothing (HTML of an error page, none, or anything else). */
function typeOfMediaType(mediaType: string | null): ResourceType | null {
  if (mediaType === null) return null;
  if (mediaType.startsWith('image/')) return 'image';
  if (mediaType === 'text/css') return 'stylesheet';
  if (
    mediaType.startsWith('font/') ||
    mediaType === 'application/font-woff' ||
    mediaType === 'application/vnd.ms-fontobject'
  )
    return 'font';
  if (mediaType.includes('javascript') || mediaType.includes('ecmascript')) return 'script';
  return null;
}

/**
 * What a page resource is: from its URL's extension (a broken one's content
 * type is often that of an error page), else from its content type, else `other`.
 */
export function resourceTypeOf(url: string, contentType: string | null): ResourceType {
  let extension = '';
  try {
    const last = new URL(url).pathname.split('/').at(-1) ?? '';
    const dot = last.lastIndexOf('.');
    extension = dot < 0 ? '' : last.slice(dot + 1).toLowerCase();
  } catch {
    // Not a URL: no extension.
  }
  return TYPE_OF_EXTENSION[extension] ?? typeOfMediaType(parseContentType(contentType).mediaType) ?? 'other';
}

/** One redirect followed: a 3xx row. */
export interface RedirectHop {
  url: string;
  status: number;
}

/**
 * Where a chain stops:
 * - `page`: a row that is not a redirect (`status` null when it failed or was blocked);
 * - `not-crawled`: the next URL has no row (out of scope, over a limit, or still queued);
 * - `loop`: the next URL is one of the chain's hops again;
 * - `no-location`: the last hop is a 3xx without a `Location`.
 */
export type ChainEnd =
  | { kind: 'page'; url: string; status: number | null; error: string | null; isBlocked: boolean }
  | { kind: 'not-crawled'; url: string }
  | { kind: 'loop'; url: string }
  | { kind: 'no-location' };

export interface RedirectChain {
  /** The 3xx rows followed, from the chain's start; at least one. */
  hops: RedirectHop[];
  end: ChainEnd;
  /** More than one hop: every extra hop costs a round trip. */
  isLong: boolean;
  /** The chain comes back to one of its hops and never ends. */
  isLoop: boolean;
}

export interface RedirectsReport {
  kind: 'redirects';
  /** Loops first, then the longest chains; ties in `seq` order of the first hop. */
  chains: RedirectChain[];
}

/** A row robots.txt kept from being requested. */
export interface BlockedRow {
  url: string;
  /** The rule that matched (e.g. `Disallow: /private`), when known. */
  rule: string | null;
  /** The page whose link (or redirect, or sitemap) led to the URL; null for the start URL. */
  referrer: string | null;
}

export interface BlockedReport {
  kind: 'blocked';
  /** In `seq` order. */
  rows: BlockedRow[];
}

/** One capture of a duplicated body. */
export interface DuplicateMember {
  url: string;
  status: number | null;
  /** True for the first URL that served the body (the one stored); false for its duplicates. */
  isOriginal: boolean;
}

/** Rows with one body: the first capture, then every row whose `duplicateOf` names it. */
export interface DuplicateGroup {
  /** Hex SHA-256 of the body; null if no row of the group carries it. */
  sha256: string | null;
  /** The original first (when it has a row), then its duplicates in `seq` order. */
  members: DuplicateMember[];
}

export interface DuplicatesReport {
  kind: 'duplicates';
  /** Largest groups first; ties in `seq` order of the first duplicate. */
  groups: DuplicateGroup[];
}

export type Report = BrokenLinksReport | BrokenResourcesReport | RedirectsReport | BlockedReport | DuplicatesReport;

/** The report of one kind. */
export type ReportOf<K extends ReportKind> = Extract<Report, { kind: K }>;

/** All five reports. */
export type AllReports = { [K in ReportKind]: ReportOf<K> };

/** What a report lists one line per in the UI: targets, resources, chains, blocked rows or groups. */
export function reportCount(report: Report): number {
  switch (report.kind) {
    case 'broken-links':
      return report.targets.length;
    case 'broken-resources':
      return report.resources.length;
    case 'redirects':
      return report.chains.length;
    case 'blocked':
      return report.rows.length;
    case 'duplicates':
      return report.groups.length;
  }
}

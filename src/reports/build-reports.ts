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
 *   URLs, or one PDF, is not duplicate content.
 *
 * Pure: rows come in as a {@link RowScan}, a function that starts a fresh
 * scan of the crawl table in `seq` order. A report that needs to know a
 * row's fate before it can keep what points to it (broken links, redirect
 * targets, duplicate originals) reads the rows twice instead of holding the
 * crawl: memory stays proportional to the report, not the crawl. Every
 * builder runs its passes at most once each; {@link buildAllReports} runs the
 * five reports together in two scans.
 */
import { parseContentType } from '../core/links/decode-html.ts';
import type { PageRecord, RowKind } from '../core/model.ts';
import { isRedirectStatus, isSiteUrlRow } from '../audit/row-health.ts';
import { isBrokenResource } from '../export/broken-resources.ts';

/** Starts a scan of one crawl's rows in `seq` order; each call starts over from the first row. */
export type RowScan = () => AsyncIterable<PageRecord>;

/** The five reports, as named in file names and `data-testid`s. */
export type ReportKind = 'broken-links' | 'broken-resources' | 'redirects' | 'blocked' | 'duplicates';

/** Every {@link ReportKind}, in the order the UI lists them. */
export const REPORT_KINDS: readonly ReportKind[] = Object.freeze(['broken-links', 'broken-resources', 'redirects', 'blocked', 'duplicates']);

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
  ...Object.fromEntries(['png', 'apng', 'jpg', 'jpeg', 'jpe', 'jfif', 'pjpeg', 'gif', 'webp', 'avif', 'svg', 'svgz', 'ico', 'cur', 'bmp', 'tif', 'tiff', 'jxl', 'heic'].map((ext) => [ext, 'image'])),
  css: 'stylesheet',
  ...Object.fromEntries(['js', 'mjs', 'cjs'].map((ext) => [ext, 'script'])),
  ...Object.fromEntries(['woff', 'woff2', 'ttf', 'otf', 'eot'].map((ext) => [ext, 'font'])),
};

/** What a media type says a resource is; null when it says nothing (HTML of an error page, none, or anything else). */
function typeOfMediaType(mediaType: string | null): ResourceType | null {
  if (mediaType === null) return null;
  if (mediaType.startsWith('image/')) return 'image';
  if (mediaType === 'text/css') return 'stylesheet';
  if (mediaType.startsWith('font/') || mediaType === 'application/font-woff' || mediaType === 'application/vnd.ms-fontobject') return 'font';
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


/** The row answered 4xx or 5xx, or failed at the network level (a blocked row is not broken: it was never asked). */
export function isBrokenRow(row: PageRecord): boolean {
  if (row.status !== null) return row.status >= 400 && row.status < 600;
  return row.error !== null && row.blockedBy === null;
}

function errorText(row: PageRecord): string | null {
  return row.error === null ? null : `${row.error.code}: ${row.error.message}`;
}

/**
 * A report built from at most two scans: `first` sees every row of the
 * first scan; when `second` is given, it sees every row of a second scan.
 */
interface Collector<R> {
  first(row: PageRecord): void;
  second?: (row: PageRecord) => void;
  finish(): R;
}

/** Runs the collectors over one scan, then (if any asks for it) a second one. */
async function collect(scan: RowScan, collectors: readonly Collector<unknown>[]): Promise<void> {
  for await (const row of scan()) for (const collector of collectors) collector.first(row);
  const seconds = collectors.flatMap((collector) => (collector.second === undefined ? [] : [collector.second]));
  if (seconds.length === 0) return;
  for await (const row of scan()) for (const second of seconds) second(row);
}

/**
 * First scan: the broken rows. Second scan: the links pointing to them. A
 * broken resource is left out unless a page links to it (it is in the broken
 * resources).
 */
function brokenLinksCollector(): Collector<BrokenLinksReport> {
  /** Broken targets by URL, in `seq` order of their rows; linking pages keyed by URL (each page once). */
  const targets = new Map<string, { target: BrokenTarget; isResource: boolean; linkers: Map<string, LinkingPage> }>();
  return {
    first(row) {
      if (!isBrokenRow(row) || targets.has(row.url)) return;
      targets.set(row.url, { target: { url: row.url, status: row.status, error: errorText(row), linkingPages: [] }, isResource: row.kind === 'resource', linkers: new Map() });
    },
    second(row) {
      row.links.forEach((link, index) => {
        const entry = targets.get(link);
        if (entry === undefined || entry.linkers.has(row.url)) return;
        entry.linkers.set(row.url, { url: row.url, anchorText: row.linkTexts[index] ?? '' });
      });
    },
    finish() {
      const list = [...targets.values()]
        .filter(({ isResource, linkers }) => !isResource || linkers.size > 0)
        .map(({ target, linkers }) => ({ ...target, linkingPages: [...linkers.values()] }));
      // Array.prototype.sort is stable: equal counts keep `seq` order.
      list.sort((a, b) => b.linkingPages.length - a.linkingPages.length);
      return { kind: 'broken-links', targets: list };
    },
  };
}

/**
 * First scan: the broken rows (resources, and others that a row may use as
 * one). Second scan: the rows whose resources include them. Kept: the
 * resource rows, and the others some row uses.
 */
function brokenResourcesCollector(): Collector<BrokenResourcesReport> {
  const found = new Map<string, { resource: BrokenResource; isResource: boolean; users: Map<string, ResourceUserRef> }>();
  return {
    first(row) {
      if (!isBrokenResource(row) || found.has(row.url)) return;
      const resource: BrokenResource = {
        url: row.url,
        type: resourceTypeOf(row.url, row.contentType),
        status: row.status,
        error: errorText(row),
        isBlocked: row.blockedBy !== null,
        blockedRule: row.blockedRule,
        referrer: row.referrer,
        users: [],
      };
      found.set(row.url, { resource, isResource: row.kind === 'resource', users: new Map() });
    },
    second(row) {
      // `?? []`: rows of readers that do not fill it in (stored before resources were archived).
      for (const url of row.resources ?? []) {
        const entry = found.get(url);
        if (entry !== undefined && !entry.users.has(row.url)) entry.users.set(row.url, { url: row.url, kind: row.kind });
      }
    },
    finish() {
      const list = [...found.values()]
        .filter(({ isResource, users }) => isResource || users.size > 0)
        .map(({ resource, users }) => ({ ...resource, users: [...users.values()] }));
      list.sort((a, b) => b.users.length - a.users.length);
      return { kind: 'broken-resources', resources: list };
    },
  };
}

/** First scan: the 3xx rows (not resources) and where they point. Second scan: the rows those targets ended on. */
function redirectsCollector(): Collector<RedirectsReport> {
  /** 3xx rows by URL, in `seq` order. */
  const redirects = new Map<string, { status: number; location: string | null }>();
  /** Rows that are redirect targets but not redirects themselves, filled by the second scan. */
  const ends = new Map<string, ChainEnd>();
  /** Every `location` of `redirects`, made when the second scan starts. */
  let targets: Set<string> | null = null;
  return {
    first(row) {
      if (row.kind === 'resource') return;
      if (isRedirectStatus(row.status) && !redirects.has(row.url)) redirects.set(row.url, { status: row.status, location: row.location });
    },
    second(row) {
      targets ??= locationsOf(redirects);
      if (redirects.has(row.url) || ends.has(row.url) || !targets.has(row.url)) return;
      ends.set(row.url, { kind: 'page', url: row.url, status: row.status, error: errorText(row), isBlocked: row.blockedBy !== null });
    },
    finish() {
      return { kind: 'redirects', chains: redirectChains(redirects, ends) };
    },
  };
}

function locationsOf(redirects: ReadonlyMap<string, { location: string | null }>): Set<string> {
  const locations = new Set<string>();
  for (const { location } of redirects.values()) if (location !== null) locations.add(location);
  return locations;
}

/**
 * Follows every chain: from each 3xx row no other 3xx row points to, then
 * from the earliest 3xx row not visited yet (those are on loops with no way
 * in), so every redirect is reported in exactly one chain.
 */
function redirectChains(
  redirects: ReadonlyMap<string, { status: number; location: string | null }>,
  ends: ReadonlyMap<string, ChainEnd>,
): RedirectChain[] {
  const targeted = locationsOf(redirects);
  const visited = new Set<string>();
  /** Chains with the `seq` rank of their first hop (the map keeps `seq` order). */
  const chains: { chain: RedirectChain; rank: number }[] = [];
  const rankOf = new Map([...redirects.keys()].map((url, index) => [url, index]));

  const follow = (start: string): RedirectChain => {
    const hops: RedirectHop[] = [];
    const onChain = new Set<string>();
    let url = start;
    for (;;) {
      const redirect = redirects.get(url);
      if (redirect === undefined) {
        const end = ends.get(url) ?? { kind: 'not-crawled', url };
        return { hops, end, isLong: hops.length > 1, isLoop: false };
      }
      hops.push({ url, status: redirect.status });
      onChain.add(url);
      visited.add(url);
      if (redirect.location === null) return { hops, end: { kind: 'no-location' }, isLong: hops.length > 1, isLoop: false };
      if (onChain.has(redirect.location)) return { hops, end: { kind: 'loop', url: redirect.location }, isLong: hops.length > 1, isLoop: true };
      url = redirect.location;
    }
  };

  for (const url of redirects.keys()) {
    if (!targeted.has(url)) chains.push({ chain: follow(url), rank: rankOf.get(url) ?? 0 });
  }
  for (const url of redirects.keys()) {
    if (!visited.has(url)) chains.push({ chain: follow(url), rank: rankOf.get(url) ?? 0 });
  }
  chains.sort((a, b) => Number(b.chain.isLoop) - Number(a.chain.isLoop) || b.chain.hops.length - a.chain.hops.length || a.rank - b.rank);
  return chains.map(({ chain }) => chain);
}

/** One scan: the blocked rows that are not resources (those are broken resources). */
function blockedCollector(): Collector<BlockedReport> {
  const rows: BlockedRow[] = [];
  return {
    first(row) {
      // The site's own URLs, as the Issues check `link-to-blocked` counts them: not resources (broken
      // resources), not links to other sites (their robots.txt is not the site's to fix).
      if (row.blockedBy === 'robots' && isSiteUrlRow(row)) rows.push({ url: row.url, rule: row.blockedRule, referrer: row.referrer });
    },
    finish() {
      return { kind: 'blocked', rows };
    },
  };
}

/** First scan: the duplicates, grouped by the URL they duplicate. Second scan: those originals. */
function duplicatesCollector(): Collector<DuplicatesReport> {
  const groups = new Map<string, { sha256: string | null; original: DuplicateMember | null; duplicates: DuplicateMember[] }>();
  /**
   * Only pages that answered 2xx are content: five identical 404 pages are one error page, not duplicates, and
   * one image (or PDF) under two URLs is not duplicate content either.
   */
  const isContent = (row: PageRecord): boolean => row.kind === 'page' && row.status !== null && row.status >= 200 && row.status < 300;
  /** Originals that are not content (an error page, a resource), by URL. */
  const notContent = new Set<string>();
  return {
    first(row) {
      if (row.duplicateOf === null || row.duplicateOf === row.url || !isContent(row)) return;
      let group = groups.get(row.duplicateOf);
      if (group === undefined) {
        group = { sha256: row.sha256, original: null, duplicates: [] };
        groups.set(row.duplicateOf, group);
      }
      group.sha256 ??= row.sha256;
      group.duplicates.push({ url: row.url, status: row.status, isOriginal: false });
    },
    second(row) {
      const group = groups.get(row.url);
      if (group === undefined || group.original !== null) return;
      group.original = { url: row.url, status: row.status, isOriginal: true };
      if (!isContent(row)) notContent.add(row.url);
      group.sha256 ??= row.sha256;
    },
    finish() {
      const list = [...groups.entries()]
        .map(([url, group]): DuplicateGroup => {
          // An original without a row (never expected) is still named: the group is about its body. An original
          // that was not content (an error page or a resource that came first) is left out; its 2xx copies may
          // still be a group.
          const original = group.original ?? { url, status: null, isOriginal: true };
          const isOriginalContent = group.original === null || !notContent.has(url);
          return { sha256: group.sha256, members: [...(isOriginalContent ? [original] : []), ...group.duplicates] };
        })
        .filter((group) => group.members.length >= 2);
      list.sort((a, b) => b.members.length - a.members.length);
      return { kind: 'duplicates', groups: list };
    },
  };
}

async function buildOne<R>(scan: RowScan, collector: Collector<R>): Promise<R> {
  await collect(scan, [collector]);
  return collector.finish();
}

/** Broken links, in two scans. */
export function buildBrokenLinks(scan: RowScan): Promise<BrokenLinksReport> {
  return buildOne(scan, brokenLinksCollector());
}

/** Broken page resources, in two scans. */
export function buildBrokenResources(scan: RowScan): Promise<BrokenResourcesReport> {
  return buildOne(scan, brokenResourcesCollector());
}

/** Redirect chains and loops, in two scans. */
export function buildRedirects(scan: RowScan): Promise<RedirectsReport> {
  return buildOne(scan, redirectsCollector());
}

/** Rows blocked by robots.txt, in one scan. */
export function buildBlocked(scan: RowScan): Promise<BlockedReport> {
  return buildOne(scan, blockedCollector());
}

/** Duplicate content groups, in two scans. */
export function buildDuplicates(scan: RowScan): Promise<DuplicatesReport> {
  return buildOne(scan, duplicatesCollector());
}

/** The report of one kind. */
export function buildReport<K extends ReportKind>(kind: K, scan: RowScan): Promise<ReportOf<K>>;
export function buildReport(kind: ReportKind, scan: RowScan): Promise<Report> {
  switch (kind) {
    case 'broken-links':
      return buildBrokenLinks(scan);
    case 'broken-resources':
      return buildBrokenResources(scan);
    case 'redirects':
      return buildRedirects(scan);
    case 'blocked':
      return buildBlocked(scan);
    case 'duplicates':
      return buildDuplicates(scan);
  }
}

/** All five reports from two scans of the rows. */
export async function buildAllReports(scan: RowScan): Promise<AllReports> {
  const collectors = {
    'broken-links': brokenLinksCollector(),
    'broken-resources': brokenResourcesCollector(),
    redirects: redirectsCollector(),
    blocked: blockedCollector(),
    duplicates: duplicatesCollector(),
  };
  await collect(scan, Object.values(collectors));
  return {
    'broken-links': collectors['broken-links'].finish(),
    'broken-resources': collectors['broken-resources'].finish(),
    redirects: collectors.redirects.finish(),
    blocked: collectors.blocked.finish(),
    duplicates: collectors.duplicates.finish(),
  };
}

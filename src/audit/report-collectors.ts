/**
 * The collectors of the five reports (see `report-types.ts` for what each
 * holds). Each reads the crawl's rows in at most two scans, run by the audit
 * engine's scan loop (`engine.ts`), and judges rows with the predicates the
 * Issues checks use (`row-health.ts`) and follows redirects with their walker
 * (`redirect-chains.ts`): a report and the Issues never disagree on what is
 * broken, blocked or a redirect chain.
 *
 * Memory: one entry per row a report keeps (broken, redirecting, blocked,
 * duplicated), never one per row of the crawl. Pure: no Dexie, no browser API.
 */
import type { PageRecord } from '../core/model.ts';
import type { PassReader } from './engine.ts';
import { allRedirectChains } from './redirect-chains.ts';
import { isBrokenResource, isBrokenRow, isRedirectStatus, isSiteUrlRow, isSuccessStatus } from './row-health.ts';
import {
  resourceTypeOf,
  type BlockedReport,
  type BlockedRow,
  type BrokenLinksReport,
  type BrokenResource,
  type BrokenResourcesReport,
  type BrokenTarget,
  type ChainEnd,
  type DuplicateGroup,
  type DuplicateMember,
  type DuplicatesReport,
  type LinkingPage,
  type RedirectChain,
  type RedirectHop,
  type RedirectsReport,
  type ResourceUserRef,
} from './report-types.ts';

function errorText(row: PageRecord): string | null {
  return row.error === null ? null : `${row.error.code}: ${row.error.message}`;
}

/**
 * A report built from at most two scans: `first` sees every row of the
 * first scan; when `second` is given, it sees every row of a second scan.
 */
export interface ReportCollector<R> {
  first(row: PageRecord): void;
  second?: (row: PageRecord) => void;
  finish(): R;
}

/** The collector as the audit engine's scans read it (`engine.ts`): scan 1, and scan 2 when it has a `second`. */
export function passReaderOf(collector: ReportCollector<unknown>): PassReader {
  return {
    wants: (pass) => pass === 1 || (pass === 2 && collector.second !== undefined),
    see: (row, pass) => (pass === 1 ? collector.first(row) : collector.second?.(row)),
  };
}

/**
 * First scan: the broken rows. Second scan: the links pointing to them. A
 * broken resource is left out unless a page links to it (it is in the broken
 * resources).
 */
export function brokenLinksCollector(): ReportCollector<BrokenLinksReport> {
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
export function brokenResourcesCollector(): ReportCollector<BrokenResourcesReport> {
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
export function redirectsCollector(): ReportCollector<RedirectsReport> {
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
 * Every chain (`allRedirectChains`: each redirect in exactly one), loops
 * first, then the longest, ties in `seq` order of the first hop.
 */
function redirectChains(
  redirects: ReadonlyMap<string, { status: number; location: string | null }>,
  ends: ReadonlyMap<string, ChainEnd>,
): RedirectChain[] {
  /** The `seq` rank of each redirect (the map keeps `seq` order). */
  const rankOf = new Map([...redirects.keys()].map((url, index) => [url, index]));
  const chains = allRedirectChains(redirects).map(({ hops: urls, end: walkEnd }) => {
    const hops: RedirectHop[] = urls.flatMap((url) => {
      const redirect = redirects.get(url);
      return redirect === undefined ? [] : [{ url, status: redirect.status }];
    });
    const isLong = hops.length > 1;
    const isLoop = walkEnd.kind === 'loop';
    const end: ChainEnd =
      walkEnd.kind === 'no-location' ? { kind: 'no-location' } : isLoop ? { kind: 'loop', url: walkEnd.url } : (ends.get(walkEnd.url) ?? { kind: 'not-crawled', url: walkEnd.url });
    return { chain: { hops, end, isLong, isLoop }, rank: rankOf.get(urls[0] ?? '') ?? 0 };
  });
  chains.sort((a, b) => Number(b.chain.isLoop) - Number(a.chain.isLoop) || b.chain.hops.length - a.chain.hops.length || a.rank - b.rank);
  return chains.map(({ chain }) => chain);
}

/** One scan: the blocked rows that are not resources (those are broken resources). */
export function blockedCollector(): ReportCollector<BlockedReport> {
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
export function duplicatesCollector(): ReportCollector<DuplicatesReport> {
  const groups = new Map<string, { sha256: string | null; original: DuplicateMember | null; duplicates: DuplicateMember[] }>();
  /**
   * Only pages that answered 2xx are content: five identical 404 pages are one error page, not duplicates, and
   * one image (or PDF) under two URLs is not duplicate content either.
   */
  const isContent = (row: PageRecord): boolean => row.kind === 'page' && isSuccessStatus(row.status);
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

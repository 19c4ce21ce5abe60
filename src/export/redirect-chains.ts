/**
 * Where a redirect leads, for the exports: a 3xx row's chain of hops (each
 * hop its own row, as the crawl records redirects, on the site or on another
 * site) to the final URL and its status. What a link checker reports on a
 * link to another site: `http://a/old` → 301 → … → `http://b/new`, 404.
 *
 * Two ways to build the lookup, both holding one entry per redirect row and
 * per chain end, never one per row: two passes over a streamed source (the
 * CSV and JSON Lines files), or reads by key for a window of rows (the view
 * CSV, `export/chunk`).
 *
 * Pure: no Dexie, no browser API.
 */
import type { PageRecord } from '../core/model.ts';
import { normalizeUrl } from '../core/url/normalize-url.ts';
import type { ExportSource } from './export-source.ts';
import { walkRedirects, type RedirectStep } from '../audit/redirect-chains.ts';
import { isRedirectStatus } from '../audit/row-health.ts';
import { scanInPasses, type PassReader } from '../audit/engine.ts';

/** Most hops followed from one row (the crawl follows at most 20 on its site, 5 on other sites). */
const MAX_HOPS = 25;

/** Where a redirect row's chain ends. */
export interface RedirectChain {
  /** The URLs after this row's, in order, the final one last (a loop stops where it comes back). */
  hops: string[];
  /** The last URL reached: a row that is not a redirect, a URL not crawled, or where a loop comes back. */
  finalUrl: string;
  /** The status of the final URL's row; null when it has none (not crawled, blocked, failed) or the chain loops. */
  finalStatus: number | null;
  /** The chain comes back to a URL already on it. */
  loops: boolean;
}

/** The chain of each redirect row, by its URL. */
export interface RedirectLookup {
  chainOf(url: string): RedirectChain | null;
}

export const NO_REDIRECTS: RedirectLookup = Object.freeze({ chainOf: () => null });

/** A 3xx row with a `Location` (one without it ends no chain the exports follow). */
const isRedirect = (row: Pick<PageRecord, 'status' | 'location'>): boolean =>
  isRedirectStatus(row.status) && row.location !== null;

/** The normalized target of a redirect row, or null. */
function targetOf(row: Pick<PageRecord, 'status' | 'location'>): string | null {
  return isRedirect(row) && row.location !== null ? normalizeUrl(row.location) : null;
}

/** A lookup over known redirect targets (`next`) and the statuses of chain ends (`endStatus`), walked by `audit/redirect-chains.ts`. */
function lookupOf(next: ReadonlyMap<string, string>, endStatus: ReadonlyMap<string, number | null>): RedirectLookup {
  const redirectOf = (url: string): RedirectStep | undefined => {
    const location = next.get(url);
    return location === undefined ? undefined : { location };
  };
  return {
    chainOf(url) {
      if (!next.has(url)) return null;
      const { hops, end } = walkRedirects(url, redirectOf, { maxFollows: MAX_HOPS });
      // Every hop has a `Location` here, so the walk ends at a URL: an exit, a loop or the cut.
      const finalUrl = end.kind === 'no-location' ? (hops.at(-1) ?? url) : end.url;
      return {
        hops: [...hops.slice(1), finalUrl],
        finalUrl,
        finalStatus: end.kind === 'exit' ? (endStatus.get(finalUrl) ?? null) : null,
        loops: end.kind === 'loop',
      };
    },
  };
}

/** A {@link PassReader} that gathers a crawl's redirect chains; read {@link RedirectsReader.lookup} once its scans are over. */
export interface RedirectsReader extends PassReader {
  lookup(): RedirectLookup;
}

/**
 * Gathers the chains of the redirect rows in two scans: the redirects, then
 * the statuses of the URLs they lead to (no second scan when the crawl has no
 * redirect). Rides along the audit's scans in an export (`row-facts.ts`).
 */
export function redirectsReader(): RedirectsReader {
  const next = new Map<string, string>();
  const endStatus = new Map<string, number | null>();
  /** The chain ends: redirect targets that are not redirects, made when the second scan starts. */
  let ends: Set<string> | null = null;
  return {
    wants: (pass) => pass === 1 || (pass === 2 && next.size > 0),
    see(row, pass) {
      if (pass === 1) {
        const target = targetOf(row);
        if (target !== null) next.set(row.url, target);
        return;
      }
      ends ??= new Set([...next.values()].filter((url) => !next.has(url)));
      if (ends.has(row.url)) endStatus.set(row.url, row.status);
    },
    lookup: () => (next.size === 0 ? NO_REDIRECTS : lookupOf(next, endStatus)),
  };
}

/**
 * The chains of a source's redirect rows, in two passes over its rows (see
 * {@link redirectsReader}). None (and no second pass) when the crawl has no redirect.
 */
export async function redirectsOfSource(source: ExportSource): Promise<RedirectLookup> {
  const reader = redirectsReader();
  await scanInPasses(() => source.rows(), [reader]);
  return reader.lookup();
}

/**
 * The chains of the redirect rows among `rows`, following each hop by key
 * with `getRows` (a row not found ends the chain, as a URL not crawled).
 */
export async function redirectsByKey(
  rows: readonly Pick<PageRecord, 'url' | 'status' | 'location'>[],
  getRows: (urls: string[]) => Promise<(PageRecord | undefined)[]>,
): Promise<RedirectLookup> {
  const next = new Map<string, string>();
  const endStatus = new Map<string, number | null>();
  let frontier: string[] = [];
  for (const row of rows) {
    const target = targetOf(row);
    if (target === null) continue;
    next.set(row.url, target);
    frontier.push(target);
  }
  for (let round = 0; frontier.length > 0 && round < MAX_HOPS; round++) {
    const wanted = [...new Set(frontier)].filter((url) => !next.has(url) && !endStatus.has(url));
    frontier = [];
    const found = await getRows(wanted);
    for (const [i, url] of wanted.entries()) {
      const row = found[i];
      const target = row === undefined ? null : targetOf(row);
      if (target === null) endStatus.set(url, row?.status ?? null);
      else {
        next.set(url, target);
        frontier.push(target);
      }
    }
  }
  return lookupOf(next, endStatus);
}

/**
 * When a page resource is broken, and how many of a row's resources are:
 * the one definition the exports (CSV, JSON Lines), the results browser's
 * detail and the *Broken resources* report share.
 *
 * A resource is broken when the row of its URL (of whatever kind: a URL
 * first reached by a link keeps its page or file row) answered 400 or more,
 * failed at the network level (timeout, refused…), or was blocked by
 * robots.txt (never requested). A resource without a row (not fetched: the
 * resource budget was spent, or the crawl ended first) is not counted as
 * broken: nothing is known of it.
 *
 * Pure: no Dexie, no browser API.
 */
import { isBrokenResource, type ResourceHealthFields } from '../audit/row-health.ts';
import type { PageRecord } from '../core/model.ts';
import type { ExportSource } from './export-source.ts';
import { scanInPasses, type PassReader } from '../audit/engine.ts';

// The definition lives with the Issues checks (`broken-resource` uses it too).
export { isBrokenResource, type ResourceHealthFields };

/** The URLs known to be broken (a `Set` fits). */
export interface BrokenUrls {
  has(url: string): boolean;
}

/** No URL is broken: for rows that list no resources. */
export const NO_BROKEN_URLS: BrokenUrls = Object.freeze({ has: () => false });

/** A row's resources and how many of them are broken. */
export interface ResourceCounts {
  /** Resources the row uses (`PageRecord.resources`). */
  resourceCount: number;
  /** Of those, the ones whose row is broken ({@link isBrokenResource}). */
  brokenResourceCount: number;
}

/** The counts of one row, given the crawl's broken URLs. */
export function resourceCountsOf(row: Pick<PageRecord, 'resources'>, broken: BrokenUrls): ResourceCounts {
  let brokenResourceCount = 0;
  for (const url of row.resources) if (broken.has(url)) brokenResourceCount += 1;
  return { resourceCount: row.resources.length, brokenResourceCount };
}

/**
 * The URLs of every broken row (one pass over the rows): what a writer that
 * streams rows in `seq` order needs to count a page's broken resources,
 * which are mostly recorded after the page. Holds one URL per broken row,
 * never the rows.
 */
export async function brokenUrlsOf(rows: AsyncIterable<PageRecord>): Promise<Set<string>> {
  const broken = new Set<string>();
  for await (const row of rows) if (isBrokenResource(row)) broken.add(row.url);
  return broken;
}

/** The broken URLs among `rows` (all in memory): for a batch that holds its own resources' rows. */
export function brokenUrlsIn(rows: Iterable<ResourceHealthFields & Pick<PageRecord, 'url'>>): Set<string> {
  const broken = new Set<string>();
  for (const row of rows) if (isBrokenResource(row)) broken.add(row.url);
  return broken;
}

/** A {@link PassReader} that gathers the broken URLs in one scan; read {@link BrokenUrlsReader.urls} once it is over. */
export interface BrokenUrlsReader extends PassReader {
  urls(): BrokenUrls;
}

/**
 * The broken URLs an export needs, gathered in the first scan when the crawl
 * archived page resources (only then do rows list any); none otherwise,
 * without reading. Rides along the audit's scans in an export (`row-facts.ts`).
 * Memory: one URL per broken row, never a row or a body.
 */
export function brokenUrlsReader(archivedResources: boolean): BrokenUrlsReader {
  const broken = new Set<string>();
  return {
    wants: (pass) => archivedResources && pass === 1,
    see(row) {
      if (isBrokenResource(row)) broken.add(row.url);
    },
    urls: () => (archivedResources ? broken : NO_BROKEN_URLS),
  };
}

/**
 * The broken URLs an export of `source` needs: read in a first pass over its
 * rows when the crawl archived page resources (only then do rows list any);
 * none otherwise, without reading. Memory: one URL per broken row, never a
 * row or a body (a crawl has at most `maxPages` pages and `maxResources`
 * resources and files, and only its broken ones are held).
 */
export async function brokenUrlsOfSource(source: ExportSource): Promise<BrokenUrls> {
  const reader = brokenUrlsReader(source.crawl.settings.archiveResources === true);
  await scanInPasses(() => source.rows(), [reader]);
  return reader.urls();
}

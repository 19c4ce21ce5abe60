/**
 * What the CSV and JSON Lines exports must know of every row before they
 * write the first: the crawl's broken URLs (a row's broken resource count),
 * the checks that failed on each URL (its `issues`) and each redirect's chain
 * (its final URL and status). All three are gathered in the same scans of the
 * rows: the Issues checks' scans (`audit/engine.ts`, two or three), with the
 * broken URLs and the redirect chains riding along, so each scan reads the
 * crawl once for all. Then the writer reads the rows once more to write them.
 *
 * Memory: one entry per broken URL, per URL with an issue and per redirect,
 * never one per row.
 */
import { issuesByUrl, runAudit } from '../audit/audit.ts';
import { DEFAULT_THRESHOLDS } from '../audit/thresholds.ts';
import { brokenUrlsReader, type BrokenUrls } from './broken-resources.ts';
import type { ExportSource } from './export-source.ts';
import type { IssueLookup } from './issues-of-source.ts';
import { redirectsReader, type RedirectLookup } from './redirect-chains.ts';

/** What a row's exported fields need from the other rows. */
export interface RowFacts {
  broken: BrokenUrls;
  issues: IssueLookup;
  redirects: RedirectLookup;
}

/** The {@link RowFacts} of `source`'s rows, in the Issues checks' scans. */
export async function rowFactsOfSource(source: ExportSource): Promise<RowFacts> {
  const broken = brokenUrlsReader(source.crawl.settings.archiveResources === true);
  const redirects = redirectsReader();
  const result = await runAudit(() => source.rows(), DEFAULT_THRESHOLDS, [broken, redirects]);
  return { broken: broken.urls(), issues: issuesByUrl(result), redirects: redirects.lookup() };
}

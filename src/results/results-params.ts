/**
 * The results tab's address: `src/results-page/index.html?crawl=<id>` opens a
 * crawl, `&url=<url>` also opens that row's detail. Pure: no `location` here.
 */
import { RESULTS_PAGE_PATH } from '../storage/page-queries.ts';

export interface ResultsParams {
  /** Crawl to show; null when the address names none. */
  crawlId: string | null;
  /** URL whose detail is open; null when none. */
  url: string | null;
}

/** Reads `?crawl=` and `&url=` from a `location.search` string; empty values count as absent. */
export function parseResultsParams(search: string): ResultsParams {
  const params = new URLSearchParams(search);
  const crawlId = params.get('crawl');
  const url = params.get('url');
  return { crawlId: crawlId === null || crawlId === '' ? null : crawlId, url: url === null || url === '' ? null : url };
}

/** The `?crawl=...&url=...` search string of an address (no `url` when null). */
export function resultsSearch(crawlId: string, url: string | null): string {
  const params = new URLSearchParams({ crawl: crawlId });
  if (url !== null) params.set('url', url);
  return `?${params.toString()}`;
}

/** The page path with its search, as `runtime.getURL` takes it. */
export function resultsPagePath(crawlId: string, url: string | null = null): string {
  return `${RESULTS_PAGE_PATH}${resultsSearch(crawlId, url)}`;
}

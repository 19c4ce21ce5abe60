/** Which stored crawl the popup shows for the tab's site. Pure. */
import type { CrawlSummary } from '../messaging/protocol.ts';
import { httpOrigin } from '../core/url/normalize-url.ts';

/** The newest crawl whose start URL has this origin, or null. */
export function pickCrawlFor(crawls: readonly CrawlSummary[], origin: string): CrawlSummary | null {
  let newest: CrawlSummary | null = null;
  for (const crawl of crawls) {
    if (httpOrigin(crawl.settings.startUrl) !== origin) continue;
    if (newest === null || crawl.createdAt > newest.createdAt) newest = crawl;
  }
  return newest;
}

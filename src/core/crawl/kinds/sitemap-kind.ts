/**
 * A sitemap listed in robots.txt (or in a sitemap index): its body is read
 * when the answer is 2xx, and the URLs it lists are followed like links
 * (one level deeper than the sitemap), its child sitemaps at its own depth.
 */
import { parseSitemap, sitemapText } from '../../links/parse-sitemap.ts';
import type { Candidate } from '../candidate.ts';
import { originOf } from '../../url/normalize-url.ts';
import { MAX_LINKS_PER_PAGE } from './page-kind.ts';
import { isSuccess, NOTHING_FOUND, PAGE_LIKE, type WorkKind } from './work-kind.ts';

export const sitemapKind: WorkKind = {
  ...PAGE_LIKE,
  rowCounters: {},
  headFirst: () => false,
  bodyLimit: (crawl, status) => (isSuccess(status) ? crawl.settings.maxBodyBytes : 0),
  async read(_crawl, entry, row, body) {
    if (body === null) return NOTHING_FOUND;
    const sitemap = parseSitemap(await sitemapText(body), entry.url);
    row.links = sitemap.urls.slice(0, MAX_LINKS_PER_PAGE);
    return {
      follow: [
        ...sitemap.urls.map((url): Candidate => ({
          url,
          origin: originOf(url),
          kind: 'page',
          depth: entry.depth + 1,
          referrer: entry.url,
          anchor: null,
          isLink: false,
        })),
        ...sitemap.sitemaps.map((url): Candidate => ({
          url,
          origin: originOf(url),
          kind: 'sitemap',
          depth: entry.depth,
          referrer: entry.url,
          anchor: null,
          isLink: false,
        })),
      ],
      resources: [],
    };
  },
};

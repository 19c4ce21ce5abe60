/**
 * What a finished crawl left unvisited by its own rules, in words, as the
 * popup, the results page and the command line say it:
 * `13,242 URLs not crawled: deeper than 20`, or with several reasons
 * `13,250 URLs not crawled: 13,242 deeper than 20, 8 past the page limit (500)`.
 */
import { NOT_CRAWLED_REASONS, type NotCrawledCounts, type NotCrawledReason } from '../core/model.ts';
import type { CrawlSettings } from '../core/settings.ts';

export { NOT_CRAWLED_REASONS };

const grouped = new Intl.NumberFormat('en-US');

/** The settings the words name. */
export type NotCrawledSettings = Pick<CrawlSettings, 'maxDepth' | 'maxPages' | 'pathPrefix'> &
  Partial<Pick<CrawlSettings, 'maxExternal' | 'maxExternalPerHost'>>;

/**
 * Why, in words: `deeper than 20`, `past the page limit (500)`, `outside /docs/`, `excluded by a pattern`,
 * `likely traps`, and for links to other sites not checked `past the limit of checks per other site (100)`…
 */
export function notCrawledReasonText(reason: NotCrawledReason, settings: NotCrawledSettings): string {
  switch (reason) {
    case 'depth':
      return `deeper than ${settings.maxDepth}`;
    case 'page-limit':
      return `past the page limit (${grouped.format(settings.maxPages)})`;
    case 'prefix':
      return settings.pathPrefix === '' ? 'outside the path prefix' : `outside ${settings.pathPrefix}`;
    case 'excluded':
      return 'excluded by a pattern';
    case 'trap':
      return 'likely traps (repeating paths, endless query variants)';
    case 'external-host-limit':
      return `past the limit of checks per other site (${grouped.format(settings.maxExternalPerHost ?? 0)})`;
    case 'external-limit':
      return `past the limit of links to other sites to check (${grouped.format(settings.maxExternal ?? 0)})`;
    case 'external-off':
      return 'on other sites, not checked (checks turned off)';
    case 'external-robots':
      return 'on other sites whose robots.txt refused the check';
    case 'private-address':
      return 'not checked: private address (on your own network or computer)';
  }
}

/** The line for a crawl's {@link NotCrawledCounts}; null when nothing was left out (or it was not counted). */
export function notCrawledText(counts: NotCrawledCounts | undefined, settings: NotCrawledSettings): string | null {
  const present = NOT_CRAWLED_REASONS.filter((reason) => (counts?.[reason] ?? 0) > 0);
  if (counts === undefined || present.length === 0) return null;
  const total = present.reduce((sum, reason) => sum + (counts[reason] ?? 0), 0);
  const head = `${grouped.format(total)} ${total === 1 ? 'URL' : 'URLs'} not crawled`;
  const only = present.length === 1 ? present[0] : undefined;
  if (only !== undefined) return `${head}: ${notCrawledReasonText(only, settings)}`;
  return `${head}: ${present.map((reason) => `${grouped.format(counts[reason] ?? 0)} ${notCrawledReasonText(reason, settings)}`).join(', ')}`;
}

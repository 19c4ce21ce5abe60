/**
 * How far a crawl is and how long it has run, in figures and words, as the
 * popup, the results tab and the command line show them.
 */
import type { CrawlCounts, CrawlState } from '../core/model.ts';
import { formatDuration } from './format-time.ts';

/** The counts of a crawl by kind: the rows done, and the page resources, linked files and checked links to other sites among them. */
export type KindCounts = Pick<CrawlCounts, 'done' | 'resources' | 'files' | 'external'>;

/** What {@link progressPercent} and {@link progressText} read of a crawl (a `CrawlSummary`, or a record with its `queued` count). */
export interface CrawlProgressFields {
  state: CrawlState;
  counts: KindCounts & Pick<CrawlCounts, 'resourcesAdmitted' | 'externalAdmitted' | 'renders' | 'rendered'>;
  /** URLs admitted but not done yet: pages, sitemaps and page resources alike. */
  queued: number;
  settings: { maxPages: number };
}

/** Whether the crawl has rows other than pages and sitemaps: page resources, linked files or checked links to other sites. */
export function hasOtherKinds(counts: KindCounts): boolean {
  return (counts.resources ?? 0) > 0 || (counts.files ?? 0) > 0 || (counts.external ?? 0) > 0;
}

/**
 * The rows done by kind, when the crawl has resources, files or checked links to other sites:
 * `12 pages, 30 resources, 1 file` and `, 8 external links` when there are any (sitemaps count as
 * pages); null for a crawl of pages only (and crawls stored before resources existed).
 */
export function kindsText(counts: KindCounts): string | null {
  if (!hasOtherKinds(counts)) return null;
  const resources = counts.resources ?? 0;
  const files = counts.files ?? 0;
  const external = counts.external ?? 0;
  const pages = counts.done - resources - files - external;
  const n = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;
  const text = `${n(pages, 'page', 'pages')}, ${n(resources, 'resource', 'resources')}, ${n(files, 'file', 'files')}`;
  return external > 0 ? `${text}, ${n(external, 'external link', 'external links')}` : text;
}

/**
 * How far a crawl is, 0 to 100: a finished crawl is 100; otherwise the rows
 * done against what is known (done + queued). The page limit caps the pages
 * (linked files and sitemaps are admitted as pages) and nothing else: page
 * resources and links to other sites have budgets of their own and are
 * counted as they are known.
 * Never measured against the limit alone: a small site would sit at a few
 * percent to its end.
 */
export function progressPercent(crawl: CrawlProgressFields): number {
  if (crawl.state === 'finished') return 100;
  const { done } = crawl.counts;
  // Page resources and links to other sites have budgets of their own: counted as they are known.
  const resourcesDone = (crawl.counts.resources ?? 0) + (crawl.counts.external ?? 0);
  const resourcesQueued = Math.max(
    0,
    (crawl.counts.resourcesAdmitted ?? 0) + (crawl.counts.externalAdmitted ?? 0) - resourcesDone,
  );
  const pagesDone = done - resourcesDone;
  const pagesQueued = Math.max(0, crawl.queued - resourcesQueued);
  const pagesWhole = Math.max(pagesDone, Math.min(pagesDone + pagesQueued, crawl.settings.maxPages));
  const whole = pagesWhole + resourcesDone + resourcesQueued;
  return whole <= 0 ? 0 : Math.min(100, (done / whole) * 100);
}

/**
 * How far the crawl's renders are (`rendered 3 of 10`: renders ended of pages queued to render), or null
 * for a crawl that renders none.
 */
export function renderedText(counts: Pick<CrawlCounts, 'renders' | 'rendered'>): string | null {
  const queued = counts.renders ?? 0;
  return queued === 0 ? null : `rendered ${counts.rendered ?? 0} of ${queued}`;
}

/**
 * The parts of the progress line: `30 done`, `30 queued`, `limit 120`; for a
 * crawl with resources or files, the rows done by kind ({@link kindsText})
 * and the limit named as the pages' own: `43 done (12 pages, 30 resources,
 * 1 file)`, `40 queued`, `page limit 200`; for a crawl that renders, `rendered 3 of 10` after the rows done.
 * @param showQueued says how many are queued. @default true
 */
export function progressParts(crawl: CrawlProgressFields, showQueued = true): string[] {
  const kinds = kindsText(crawl.counts);
  const rendered = renderedText(crawl.counts);
  return [
    kinds === null ? `${crawl.counts.done} done` : `${crawl.counts.done} done (${kinds})`,
    ...(rendered === null ? [] : [rendered]),
    ...(showQueued ? [`${crawl.queued} queued`] : []),
    `${kinds === null ? 'limit' : 'page limit'} ${crawl.settings.maxPages}`,
  ];
}

/**
 * The progress line, {@link progressParts} joined: `30 done · 30 queued · limit 120`,
 * `43 done (12 pages, 30 resources, 1 file) · 40 queued · page limit 200`.
 * @param options.showQueued says how many are queued. @default true
 * @param options.separator between the parts. @default ' · '
 */
export function progressText(
  crawl: CrawlProgressFields,
  options: { showQueued?: boolean; separator?: string } = {},
): string {
  return progressParts(crawl, options.showQueued).join(options.separator ?? ' · ');
}

/**
 * How long a crawl has run, as a phrase: `running for 2 min` while it runs,
 * `ran 45 s` once paused or stopped, `took 3 min` once finished or failed.
 * Paused time is never counted.
 * @param elapsedMs its active time, in ms.
 */
export function runTimeText(state: CrawlState, elapsedMs: number): string {
  const duration = formatDuration(elapsedMs);
  switch (state) {
    case 'running':
      return `running for ${duration}`;
    case 'paused':
    case 'stopped':
      return `ran ${duration}`;
    case 'finished':
    case 'failed':
      return `took ${duration}`;
  }
}

/**
 * The time-left phrase of a running crawl: `nothing queued` only when no URL
 * is queued; else `about 3 min left` from the hosts' pace, `under 1 s left`.
 * @param etaMs the estimate (`etaMs` of `core/crawl/progress.ts`), in ms.
 */
export function etaText(queued: number, etaMs: number): string {
  if (queued === 0) return 'nothing queued';
  return etaMs < 500 ? 'under 1 s left' : `about ${formatDuration(etaMs)} left`;
}

/**
 * How far a crawl is and how long it has run, in figures and words, as the
 * popup and the results tab show them.
 */
import type { CrawlState } from '../core/model.ts';
import { formatDuration } from './format-time.ts';

/** What {@link progressPercent} reads of a crawl (a `CrawlSummary`, or a record with its `queued` count). */
export interface CrawlProgressFields {
  state: CrawlState;
  counts: { done: number };
  /** URLs admitted but not done yet. */
  queued: number;
  settings: { maxPages: number };
}

/**
 * How far a crawl is, 0 to 100: a finished crawl is 100; otherwise the rows
 * done against what is known (done + queued), with the page limit as a cap on
 * the whole. Never measured against the limit alone: a small site would sit
 * at a few percent to its end.
 */
export function progressPercent(crawl: CrawlProgressFields): number {
  if (crawl.state === 'finished') return 100;
  const done = crawl.counts.done;
  const whole = Math.max(done, Math.min(done + crawl.queued, crawl.settings.maxPages));
  return whole <= 0 ? 0 : Math.min(100, (done / whole) * 100);
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

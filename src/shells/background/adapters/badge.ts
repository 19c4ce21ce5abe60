/**
 * The toolbar badge: while any crawl runs, the number of rows it has done
 * (`123`, `1.2k`); when none runs, how the latest crawl ended: `✓` finished
 * (green), `!` failed (red), `‖` paused; nothing after a stop. A new crawl
 * replaces the mark with its count.
 *
 * The browser is reached through {@link BadgeAction} (`browser.action`), so
 * this file runs in tests without an extension.
 */
import type { CrawlStore } from '../../../core/crawl/ports.ts';
import { compactCount } from '../../../core/crawl/progress.ts';
import type { CrawlRecord } from '../../../core/model.ts';

/** Least time between two refreshes of the badge while a crawl runs, in ms. */
export const BADGE_REFRESH_MS = 1000;

/** What the badge shows: text (empty clears it) and a background colour (CSS colour). */
export interface BadgeView {
  text: string;
  color: string;
}

/** The part of `browser.action` (or Firefox MV2's `browser.browserAction`) the badge uses. */
export interface BadgeAction {
  setBadgeText(details: { text: string }): Promise<void>;
  setBadgeBackgroundColor(details: { color: string }): Promise<void>;
}

const RUNNING_COLOR = '#1a5fd0';
const FINISHED_COLOR = '#1b7a3a';
const FAILED_COLOR = '#b3261e';
const PAUSED_COLOR = '#5d6370';

/** When a crawl last changed state: its end, its pause, else its creation (ms since the epoch). */
function lastChangeAt(crawl: CrawlRecord): number {
  return crawl.endedAt ?? crawl.pausedAt ?? crawl.createdAt;
}

/**
 * The badge for these crawls: the rows done by the running ones (summed) while
 * any runs, else the mark of the one that changed state last.
 */
export function badgeFor(crawls: readonly CrawlRecord[]): BadgeView {
  const running = crawls.filter((c) => c.state === 'running');
  if (running.length > 0) {
    const done = running.reduce((sum, c) => sum + c.counts.done, 0);
    return { text: done === 0 ? '' : compactCount(done), color: RUNNING_COLOR };
  }
  let latest: CrawlRecord | null = null;
  for (const crawl of crawls) {
    if (latest === null || lastChangeAt(crawl) > lastChangeAt(latest)) latest = crawl;
  }
  switch (latest?.state) {
    case 'finished':
      return { text: '✓', color: FINISHED_COLOR };
    case 'failed':
      return { text: '!', color: FAILED_COLOR };
    case 'paused':
      return { text: '‖', color: PAUSED_COLOR };
    default:
      return { text: '', color: RUNNING_COLOR };
  }
}

/**
 * Keeps the badge in step with the store: {@link Badge.setActive} `true`
 * refreshes it every {@link BADGE_REFRESH_MS} while crawls run, `false` once
 * more for the final mark. The timer is memory only: a new worker calls
 * {@link Badge.refresh} on start.
 */
export class Badge {
  private timer: ReturnType<typeof setInterval> | null = null;
  private shown: BadgeView | null = null;
  private refreshing: Promise<void> | null = null;
  /** A refresh was asked for while one ran: the store may have changed after it read it. */
  private isStale = false;

  constructor(
    private readonly action: BadgeAction,
    private readonly store: Pick<CrawlStore, 'listCrawls'>,
  ) {}

  /** Starts or stops the periodic refresh; refreshes at once either way. */
  setActive(isActive: boolean): void {
    if (isActive && this.timer === null) {
      this.timer = setInterval(() => void this.refresh(), BADGE_REFRESH_MS);
    } else if (!isActive && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
    void this.refresh();
  }

  /**
   * Reads the crawls and updates the badge when what it shows changed. One
   * refresh at a time; one asked for meanwhile runs after it.
   */
  refresh(): Promise<void> {
    if (this.refreshing !== null) {
      this.isStale = true;
      return this.refreshing;
    }
    this.refreshing = this.update()
      .catch((error: unknown) => console.error('could not update the badge', error))
      .finally(() => {
        this.refreshing = null;
        if (this.isStale) {
          this.isStale = false;
          void this.refresh();
        }
      });
    return this.refreshing;
  }

  private async update(): Promise<void> {
    const view = badgeFor(await this.store.listCrawls());
    if (this.shown !== null && this.shown.text === view.text && this.shown.color === view.color) return;
    await this.action.setBadgeBackgroundColor({ color: view.color });
    await this.action.setBadgeText({ text: view.text });
    this.shown = view;
  }
}

/**
 * What the CLI prints about a crawl: the progress line and the summary.
 * Pure formatting plus a small reporter that rate-limits lines.
 */
import type { CrawlSummary } from '../messaging/protocol.ts';

/** `fetched N · queued N · errors N · blocked N` */
export function formatProgress(crawl: Pick<CrawlSummary, 'counts' | 'queued'>): string {
  const { fetched, errors, blocked } = crawl.counts;
  return `fetched ${fetched} · queued ${crawl.queued} · errors ${errors} · blocked ${blocked}`;
}

/** One line about a crawl that has ended, e.g. `crawl finished in 4.2 s: 17 URLs (15 fetched, 2 errors, 1 blocked)`. */
export function formatSummary(crawl: Pick<CrawlSummary, 'state' | 'counts' | 'createdAt' | 'endedAt'>, nowMs: number): string {
  const elapsedS = ((crawl.endedAt ?? nowMs) - crawl.createdAt) / 1000;
  const { done, fetched, errors, blocked } = crawl.counts;
  const urls = done === 1 ? '1 URL' : `${done} URLs`;
  return `crawl ${crawl.state} in ${elapsedS.toFixed(1)} s: ${urls} (${fetched} fetched, ${errors} ${errors === 1 ? 'error' : 'errors'}, ${blocked} blocked)`;
}

export interface ProgressReporterOptions {
  /** Writes text as is (no newline added), e.g. to stderr. */
  write: (text: string) => void;
  /** A terminal gets one line updated in place with `\r`; anything else gets whole lines. */
  isTTY: boolean;
  /** The clock, in ms. @default Date.now */
  now?: () => number;
  /** Least time between two printed lines when not a terminal, in ms. @default 1000 */
  minIntervalMs?: number;
}

export interface ProgressReporter {
  /** Shows the crawl's progress (possibly not at once, to keep to one line per interval). */
  update(crawl: Pick<CrawlSummary, 'counts' | 'queued'>): void;
  /** Ends the progress display (on a terminal, moves to a new line). */
  finish(): void;
}

/** Prints progress lines: in place on a terminal, else at most one per `minIntervalMs` and only when they change. */
export function createProgressReporter(options: ProgressReporterOptions): ProgressReporter {
  const now = options.now ?? Date.now;
  const minIntervalMs = options.minIntervalMs ?? 1000;
  let lastLine: string | null = null;
  let lastPrintedAt = Number.NEGATIVE_INFINITY;
  let hasOpenLine = false;
  return {
    update(crawl) {
      const line = formatProgress(crawl);
      if (options.isTTY) {
        if (line !== lastLine) options.write(`\r${line}\x1b[K`);
        hasOpenLine = true;
        lastLine = line;
        return;
      }
      const at = now();
      if (line === lastLine || at - lastPrintedAt < minIntervalMs) return;
      options.write(`${line}\n`);
      lastLine = line;
      lastPrintedAt = at;
    },
    finish() {
      if (hasOpenLine) options.write('\n');
      hasOpenLine = false;
    },
  };
}

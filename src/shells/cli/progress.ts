/**
 * What the CLI prints about a crawl: the progress line, a waiting note when
 * nothing has been printed for a while (what the crawl waits for and how
 * long it has run), and the summary. Pure formatting plus a small reporter
 * that rate-limits lines and knows when it has been quiet too long.
 */
import type { CrawlSummary, HostProgress } from '../../messaging/protocol.ts';
import { formatDuration } from '../../ui/format-time.ts';
import { hostLine } from '../../ui/host-wait-text.ts';
import { kindsText, renderedText } from '../../ui/crawl-progress-text.ts';
import { visibleControls } from '../../ui/visible-controls.ts';

/** Longest silence while the CLI waits, in ms: after it, a line says what it waits for. */
export const QUIET_MAX_MS = 10_000;

/**
 * `fetched N · queued N · with errors N · blocked N` (URLs, as the popup's and the results' counters
 * count them; the issues line counts issues), then the rows by kind (`kindsText`) when there are
 * resources or files, and `rendered N of M` when the crawl renders pages.
 */
export function formatProgress(crawl: Pick<CrawlSummary, 'counts' | 'queued'>): string {
  const { fetched, errors, blocked } = crawl.counts;
  const kinds = kindsText(crawl.counts);
  const rendered = renderedText(crawl.counts);
  return `fetched ${fetched} · queued ${crawl.queued} · with errors ${errors} · blocked ${blocked}${kinds === null ? '' : ` · ${kinds}`}${rendered === null ? '' : ` · ${rendered}`}`;
}

/**
 * One line about a crawl that has ended, e.g. `crawl finished in 4.2 s: 17 URLs (15 fetched, 2 with errors,
 * 1 blocked)`: URLs, where the issues line counts issues.
 */
export function formatSummary(
  crawl: Pick<CrawlSummary, 'state' | 'counts' | 'createdAt' | 'endedAt'>,
  nowMs: number,
): string {
  const elapsedS = ((crawl.endedAt ?? nowMs) - crawl.createdAt) / 1000;
  const { done, fetched, errors, blocked } = crawl.counts;
  const urls = done === 1 ? '1 URL' : `${done} URLs`;
  const kinds = kindsText(crawl.counts);
  const rendered = renderedText(crawl.counts);
  return `crawl ${crawl.state} in ${elapsedS.toFixed(1)} s: ${urls}${kinds === null ? '' : ` (${kinds})`} (${fetched} fetched, ${errors} with errors, ${blocked} blocked${rendered === null ? '' : `, ${rendered}`})`;
}

/**
 * A line for a crawl that has shown no progress for a while: how long it has
 * run and what its busiest host waits for, e.g. `still crawling, 40 s in:
 * 127.0.0.1:8080 · 64 queued · waiting 9 s · response time: last answer took
 * 3 s, so 9 s between requests (and 2 more hosts)`.
 * @param hosts the crawl's hosts with URLs left, most pending first (`crawl/hosts`).
 * @param now the current time, ms since the epoch.
 */
export function waitingNote(
  crawl: Pick<CrawlSummary, 'activeMs' | 'createdAt'>,
  hosts: readonly HostProgress[],
  now: number,
): string {
  const ranMs = crawl.activeMs ?? now - crawl.createdAt;
  const head = `still crawling, ${formatDuration(ranMs)} in`;
  const [busiest, ...others] = hosts;
  if (busiest === undefined) return `${head}: finishing`;
  const more = others.length === 0 ? '' : ` (and ${others.length} more ${others.length === 1 ? 'host' : 'hosts'})`;
  return `${head}: ${hostLine(busiest, now)}${more}`;
}

/**
 * A line for a crawl whose extension has not said what it waits for (its
 * `crawl/hosts` answer is late or failed): how long the crawl has run and,
 * when its last state is old, how long the extension has not answered, e.g.
 * `still crawling, 40 s in: no answer from the extension for 12 s`.
 * @param answeredAt when the crawl's state was last read, ms since the epoch.
 * @param now the current time, ms since the epoch.
 */
export function unansweredNote(
  crawl: Pick<CrawlSummary, 'activeMs' | 'createdAt'>,
  answeredAt: number,
  now: number,
): string {
  const silentMs = Math.max(0, now - answeredAt);
  const ranMs = crawl.activeMs === undefined ? now - crawl.createdAt : crawl.activeMs + silentMs;
  const head = `still crawling, ${formatDuration(ranMs)} in`;
  return silentMs < UNANSWERED_AFTER_MS
    ? `${head} (the extension did not say what it waits for)`
    : `${head}: no answer from the extension for ${formatDuration(silentMs)}`;
}

/** Time without a reply after which {@link unansweredNote} says the extension is not answering, in ms. */
export const UNANSWERED_AFTER_MS = 3000;

/**
 * A line about Chromium still starting: `starting Chromium with the extension, 12 s so far`.
 * @param elapsedMs time since the launch began, in ms.
 */
export function startingLine(elapsedMs: number, browserName = 'Chromium'): string {
  return `starting ${browserName} with the extension, ${formatDuration(elapsedMs)} so far`;
}

/**
 * A line about an export under way: `exporting out.wacz: 120 of 500 URLs, 12 s so far`,
 * or `exporting out.wacz: opening the crawl, 12 s so far` before the first rows.
 * @param elapsedMs time since the export started, in ms.
 */
export function exportingLine(
  output: string,
  progress: { done: number; total: number } | null,
  elapsedMs: number,
): string {
  const where = progress === null ? 'opening the crawl' : `${progress.done} of ${progress.total} URLs`;
  return `exporting ${output}: ${where}, ${formatDuration(elapsedMs)} so far`;
}

/** How often {@link watchSilence} looks at the time since the last line, in ms. */
export const QUIET_CHECK_MS = 500;
/** How long {@link watchSilence} waits for a note's details (e.g. the crawl's hosts) before it writes what it knows, in ms. */
export const NOTE_ANSWER_MS = 1000;

export interface SilenceWatchOptions {
  /** When a line was last written (the clock of `now`). */
  lastWrittenAt: () => number;
  /** The note to write; it may ask the extension first. A rejection or an answer later than `answerMs` gives `fallback` instead. */
  describe: () => string | Promise<string>;
  /** The note when `describe` fails or is late. */
  fallback: () => string;
  /** Writes a note; it must move `lastWrittenAt`. */
  write: (note: string) => void;
  /** The clock, in ms. @default Date.now */
  now?: () => number;
  /** Longest silence, in ms. @default QUIET_MAX_MS */
  quietMaxMs?: number;
  /** Time between two looks at the clock, in ms. @default QUIET_CHECK_MS */
  checkMs?: number;
  /** Most time given to `describe`, in ms. @default NOTE_ANSWER_MS */
  answerMs?: number;
}

/**
 * Keeps the CLI from being silent for more than `quietMaxMs` while it waits:
 * on a timer of its own (so a stalled poll or a late answer cannot hold it
 * up), it starts a note early enough that the note is written, with its
 * details or without them, before the silence reaches `quietMaxMs`.
 * @returns stops the watch; a note still being prepared is then dropped.
 */
export function watchSilence(options: SilenceWatchOptions): () => void {
  const now = options.now ?? Date.now;
  const quietMaxMs = options.quietMaxMs ?? QUIET_MAX_MS;
  const checkMs = options.checkMs ?? QUIET_CHECK_MS;
  const answerMs = options.answerMs ?? NOTE_ANSWER_MS;
  // A check comes at most checkMs after the silence passes this, and the note at most answerMs after that (one checkMs of slack for timer drift).
  const startAfterMs = Math.max(0, quietMaxMs - answerMs - 2 * checkMs);
  let isPreparing = false;
  let isStopped = false;
  const timer = setInterval(() => {
    if (isPreparing || now() - options.lastWrittenAt() < startAfterMs) return;
    isPreparing = true;
    let isWritten = false;
    const write = (note: () => string): void => {
      if (isWritten) return;
      isWritten = true;
      clearTimeout(late);
      isPreparing = false;
      if (!isStopped) options.write(note());
    };
    const late = setTimeout(() => write(options.fallback), answerMs);
    Promise.resolve()
      .then(options.describe)
      .then(
        (note) => write(() => note),
        () => write(options.fallback),
      );
  }, checkMs);
  return () => {
    isStopped = true;
    clearInterval(timer);
  };
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
  /** Silence after which {@link ProgressReporter.isQuiet} says a note is due, in ms. @default QUIET_MAX_MS */
  quietMs?: number;
}

export interface ProgressReporter {
  /** Shows the crawl's progress (possibly not at once, to keep to one line per interval). */
  update(crawl: Pick<CrawlSummary, 'counts' | 'queued'>): void;
  /** Whether nothing has been written for `quietMs`: time for a {@link ProgressReporter.note}. */
  isQuiet(): boolean;
  /** When anything was last written (the clock of `now`), or null before the first update. */
  lastWrittenAt(): number | null;
  /** Writes a line of its own now, e.g. a {@link waitingNote} (a terminal's progress line is drawn again after it). */
  note(text: string): void;
  /** Ends the progress display (on a terminal, moves to a new line). */
  finish(): void;
}

/**
 * Prints progress lines: in place on a terminal, else at most one per `minIntervalMs` and only when they change.
 * Its lines and notes have their control characters written out (`\x1B`); the only raw ones it writes are its own.
 */
export function createProgressReporter(options: ProgressReporterOptions): ProgressReporter {
  const now = options.now ?? Date.now;
  const minIntervalMs = options.minIntervalMs ?? 1000;
  const quietMs = options.quietMs ?? QUIET_MAX_MS;
  let lastLine: string | null = null;
  let lastPrintedAt = Number.NEGATIVE_INFINITY;
  /** When anything was last written, the first update included: the silence is counted from here. */
  let lastWrittenAt: number | null = null;
  let hasOpenLine = false;
  return {
    update(crawl) {
      const line = visibleControls(formatProgress(crawl));
      const at = now();
      lastWrittenAt ??= at;
      if (options.isTTY) {
        if (line !== lastLine) {
          options.write(`\r${line}\x1b[K`);
          lastWrittenAt = at;
        }
        hasOpenLine = true;
        lastLine = line;
        return;
      }
      if (line === lastLine || at - lastPrintedAt < minIntervalMs) return;
      options.write(`${line}\n`);
      lastLine = line;
      lastPrintedAt = at;
      lastWrittenAt = at;
    },
    isQuiet() {
      return lastWrittenAt !== null && now() - lastWrittenAt >= quietMs;
    },
    lastWrittenAt() {
      return lastWrittenAt;
    },
    note(note) {
      lastWrittenAt = now();
      // Its one line, controls written out: a note may name a host; the reporter's own \r and \x1b[K are added after.
      const text = visibleControls(note);
      if (options.isTTY && hasOpenLine) {
        options.write(`\r${text}\x1b[K\n`);
        if (lastLine !== null) options.write(`\r${lastLine}\x1b[K`);
        return;
      }
      options.write(`${text}\n`);
    },
    finish() {
      if (hasOpenLine) options.write('\n');
      hasOpenLine = false;
    },
  };
}

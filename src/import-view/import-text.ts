/**
 * The import page's words: progress, the time left, the summary and the
 * failure, as plain functions (tested without a page).
 */
import { formatBytes } from '../ui/format-bytes.ts';
import { formatDuration } from '../ui/format-time.ts';

/** How far an import is (the shape `importArchive` reports). */
export interface ImportProgress {
  bytesRead: number;
  totalBytes: number;
  records: number;
  rows: number;
}

/** What the page shows of a finished import. */
export interface ImportOutcome {
  crawlId: string;
  /** Rows stored: one per captured URL. */
  rows: number;
  warnings: string[];
}

/** The file types the picker offers (and the command line's `--import` takes). */
export const ARCHIVE_ACCEPT = '.wacz,.warc,.warc.gz,.gz';

const plural = (count: number, one: string, many: string = `${one}s`): string => `${count} ${count === 1 ? one : many}`;

/** Least time run before a time left is guessed, in ms: the first second says little. */
export const ESTIMATE_AFTER_MS = 1000;

/**
 * The time left, from the bytes read so far at the pace so far, e.g. `about 12 s left`;
 * null before {@link ESTIMATE_AFTER_MS} or while nothing was read.
 */
export function timeLeftText(progress: ImportProgress, elapsedMs: number): string | null {
  if (elapsedMs < ESTIMATE_AFTER_MS || progress.bytesRead <= 0 || progress.totalBytes <= 0) return null;
  const left = Math.max(0, progress.totalBytes - progress.bytesRead);
  if (left === 0) return 'finishing';
  return `about ${formatDuration((elapsedMs * left) / progress.bytesRead)} left`;
}

/**
 * `Read 3.2 MB of 10 MB (32%): 120 records, 80 URLs`, or the opening words before the first report. The URLs are
 * the rows stored so far, in the unit the summary counts them in (`Imported 80 URLs`: one row per URL).
 */
export function importProgressText(fileName: string, progress: ImportProgress | null): string {
  if (progress === null) return `Opening ${fileName}…`;
  const percent = progress.totalBytes > 0 ? ` (${Math.floor((100 * progress.bytesRead) / progress.totalBytes)}%)` : '';
  return `Read ${formatBytes(progress.bytesRead)} of ${formatBytes(progress.totalBytes)}${percent}: ${plural(progress.records, 'record')}, ${plural(progress.rows, 'URL')}`;
}

/** `Imported 42 URLs from site.wacz`. */
export function importedText(fileName: string, outcome: ImportOutcome): string {
  return `Imported ${plural(outcome.rows, 'URL')} from ${fileName}`;
}

/** `2 warnings` / `No warnings`. */
export function warningsText(count: number): string {
  return count === 0 ? 'No warnings' : plural(count, 'warning');
}

/** The tab's title for each state. */
export function importPageTitle(
  state: 'idle' | 'working' | 'done' | 'failed' | 'cancelled',
  progress: ImportProgress | null,
): string {
  switch (state) {
    case 'idle':
      return 'Open an archive · Tabcrawl';
    case 'working':
      return progress !== null && progress.totalBytes > 0
        ? `${Math.floor((100 * progress.bytesRead) / progress.totalBytes)}% importing · Tabcrawl`
        : 'Importing · Tabcrawl';
    case 'done':
      return 'Imported · Tabcrawl';
    case 'failed':
      return 'Import failed · Tabcrawl';
    case 'cancelled':
      return 'Import cancelled · Tabcrawl';
  }
}

/** Whether `error` is the rejection of an aborted import. */
export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

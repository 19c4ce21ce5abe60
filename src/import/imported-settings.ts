/**
 * The crawl record of a Tabcrawl WACZ (`tabcrawl/crawl.json`), made safe to
 * store. The file is whatever its sender wrote: its settings are what a
 * *Re-run* would start with, and its dates and counts what lists show. So:
 *
 * - the settings go through the checks a start makes (`validateSettings`,
 *   then `startUrlProblem`); a setting that fails is dropped (its default
 *   taken) and a warning says so; a start URL no crawl could start from
 *   makes the record unusable (the archive is then read as any other);
 * - *Crawl with my cookies* is always turned off: an archive cannot make
 *   Tabcrawl send the user's cookies;
 * - the state is a state an ended crawl has (`running` and `paused` become
 *   `stopped`: nothing resumes an import by itself); dates are in a sane
 *   range, in order; counts are whole numbers from 0; the message is text;
 * - fields that are not part of a crawl record are left out.
 *
 * Settings absent from the record take their defaults, except the three
 * flags that crawls stored before they existed lack and read as false
 * (`archiveResources`, `downloadFiles`, `checkExternal`), and `render`, read
 * as `off`. Pure.
 */
import {
  NOT_CRAWLED_REASONS,
  type CrawlCounts,
  type CrawlRecord,
  type CrawlState,
  type NotCrawledCounts,
} from '../core/model.ts';
import {
  DEFAULT_SETTINGS,
  parseHttpUrl,
  validateSettings,
  withSessionGuard,
  type CrawlSettings,
} from '../core/settings.ts';
import { startUrlProblem } from '../core/crawl/crawl-lifecycle.ts';

/** A crawl record without its id, made safe; the import gives it its own id and message. */
export type ImportedCrawlRecord = Omit<CrawlRecord, 'id'>;

export type ImportedCrawlResult =
  | { ok: true; crawl: ImportedCrawlRecord; warnings: string[] }
  /** The record cannot be used at all: why. */
  | { ok: false; problem: string };

/** Settings that crawls stored before they existed lack, read as false. */
const READ_AS_FALSE_WHEN_ABSENT = ['archiveResources', 'downloadFiles', 'checkExternal'] as const;

/** No Tabcrawl crawl is older than this (ms since the epoch, 2020-01-01): earlier dates are not believed. */
export const EARLIEST_CRAWL_DATE = Date.UTC(2020, 0, 1);
/** How far past the import a date may lie (clocks differ), in ms. */
const CLOCK_SLACK_MS = 24 * 60 * 60 * 1000;

const ENDED_STATES: readonly CrawlState[] = ['finished', 'stopped', 'failed'];
/** Longest message kept, in characters. */
const MAX_MESSAGE_LENGTH = 2000;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The record of `tabcrawl/crawl.json` made safe, with what was changed, or why it cannot be used.
 * @param record the parsed `crawl` of the file (anything).
 * @param now the import's time, ms since the epoch.
 */
export function sanitiseImportedCrawl(record: unknown, now: number): ImportedCrawlResult {
  if (!isObject(record) || !isObject(record['settings'])) return { ok: false, problem: 'its crawl has no settings' };
  const settings = sanitiseSettings(record['settings']);
  if (!settings.ok) return settings;
  const warnings = [...settings.warnings];
  const times = sanitiseTimes(record, now, warnings);
  const crawl: ImportedCrawlRecord = {
    settings: settings.settings,
    ...times,
    counts: sanitiseCounts(record['counts'], warnings),
    message: typeof record['message'] === 'string' ? record['message'].slice(0, MAX_MESSAGE_LENGTH) : null,
    nextSeq: wholeNumber(record['nextSeq']) ?? 0,
  };
  const linkBatch = wholeNumber(record['linkBatch']);
  if (linkBatch !== null) crawl.linkBatch = linkBatch;
  return { ok: true, crawl, warnings };
}

/** The settings a start would accept, what was dropped on the way, or why none can be made. */
export function sanitiseSettings(
  given: Record<string, unknown>,
): { ok: true; settings: CrawlSettings; warnings: string[] } | { ok: false; problem: string } {
  const start = given['startUrl'];
  const parsed = typeof start === 'string' ? parseHttpUrl(start) : 'it is not text';
  if (typeof parsed === 'string')
    return {
      ok: false,
      problem: `its start URL ${JSON.stringify(String(start)).slice(0, 200)} cannot start a crawl (${parsed})`,
    };

  const warnings: string[] = [];
  const candidate: Record<string, unknown> = { ...given };
  for (const flag of READ_AS_FALSE_WHEN_ABSENT) if (candidate[flag] === undefined) candidate[flag] = false;
  // A crawl from before rendering (issue 29) rendered nothing, whatever the default is now.
  if (candidate['render'] === undefined) candidate['render'] = 'off';
  if (candidate['withCookies'] === true)
    warnings.push(
      '"Crawl with my cookies" was on: it is turned off (an archive never makes Tabcrawl send your cookies)',
    );
  candidate['withCookies'] = false;

  // Drop each setting a start refuses, and check again, until none is left (each round drops at least one).
  const dropped = new Set<string>();
  for (;;) {
    const result = validateSettings(candidate as Partial<CrawlSettings> & { startUrl: string });
    const errors = result.ok
      ? [startUrlProblem(withSessionGuard(result.settings))].filter((e) => e !== null)
      : result.errors;
    if (result.ok && errors.length === 0) {
      if (dropped.size > 0)
        warnings.push(
          `settings a crawl could not start with were dropped (their defaults taken): ${[...dropped].join(', ')}`,
        );
      return { ok: true, settings: result.settings, warnings };
    }
    const fields = errors
      .map((error) => error.field)
      .filter((field) => field !== 'startUrl' && !dropped.has(field) && field in DEFAULT_SETTINGS);
    if (fields.length === 0)
      return {
        ok: false,
        problem: `its settings cannot start a crawl (${errors.map((error) => error.message).join('; ')})`,
      };
    for (const field of fields) {
      dropped.add(field);
      candidate[field] = DEFAULT_SETTINGS[field as keyof typeof DEFAULT_SETTINGS];
    }
  }
}

/** A date (ms since the epoch) Tabcrawl could have written, or null. */
function saneDate(value: unknown, now: number): number | null {
  return typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= EARLIEST_CRAWL_DATE &&
    value <= now + CLOCK_SLACK_MS
    ? value
    : null;
}

/** A whole number from 0, or null. */
function wholeNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

function sanitiseTimes(
  record: Record<string, unknown>,
  now: number,
  warnings: string[],
): Pick<ImportedCrawlRecord, 'state' | 'createdAt' | 'endedAt' | 'pausedAt' | 'pausedMs'> {
  const givenState = record['state'];
  const state = ENDED_STATES.find((ended) => ended === givenState) ?? 'stopped';
  if (state !== givenState)
    warnings.push(`the crawl was ${JSON.stringify(String(givenState)).slice(0, 40)}: it is imported as stopped`);

  const created = saneDate(record['createdAt'], now);
  let ended = record['endedAt'] === null ? null : saneDate(record['endedAt'], now);
  if (ended !== null && created !== null && ended < created) ended = null;
  const createdAt = created ?? ended ?? now;
  // An ended crawl has an end; without a believable one it ends when it started (no made-up duration).
  const endedAt = ended ?? createdAt;
  if (created === null || ended === null)
    warnings.push('its start or end date was missing or not believable: the crawl is dated by what was');

  const times: Pick<ImportedCrawlRecord, 'state' | 'createdAt' | 'endedAt' | 'pausedAt' | 'pausedMs'> = {
    state,
    createdAt,
    endedAt,
  };
  const pausedAt = saneDate(record['pausedAt'], now);
  if (pausedAt !== null && pausedAt >= createdAt && pausedAt <= endedAt) times.pausedAt = pausedAt;
  else if (record['pausedAt'] === null) times.pausedAt = null;
  const pausedMs = wholeNumber(record['pausedMs']);
  if (pausedMs !== null) times.pausedMs = Math.min(pausedMs, endedAt - createdAt);
  return times;
}

function sanitiseCounts(given: unknown, warnings: string[]): CrawlCounts {
  // The counts every record has; the others only when given (absent is read as 0, as in older crawls).
  const counts: CrawlCounts = { admitted: 0, done: 0, fetched: 0, errors: 0, blocked: 0, bytesStored: 0 };
  if (!isObject(given)) return counts;
  let fixed = false;
  const out = counts as unknown as Record<string, unknown>;
  for (const key of [
    'admitted',
    'done',
    'fetched',
    'errors',
    'blocked',
    'bytesStored',
    'resourcesAdmitted',
    'resources',
    'files',
    'externalAdmitted',
    'external',
  ]) {
    if (given[key] === undefined) continue;
    const value = wholeNumber(given[key]);
    if (value === null) fixed = true;
    else out[key] = value;
  }
  if (isObject(given['notCrawled'])) {
    const notCrawled: NotCrawledCounts = {};
    for (const reason of NOT_CRAWLED_REASONS) {
      const value = given['notCrawled'][reason];
      if (value === undefined) continue;
      const count = wholeNumber(value);
      if (count === null) fixed = true;
      else notCrawled[reason] = count;
    }
    counts.notCrawled = notCrawled;
  }
  if (fixed) warnings.push('counts that were not whole numbers from 0 were set to 0');
  return counts;
}

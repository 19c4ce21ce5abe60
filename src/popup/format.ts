/**
 * Pure helpers of the popup: form parsing, error routing and how a crawl
 * table row reads. No Preact, no browser APIs.
 */
import { asSentence } from '../ui/sentence.ts';
import type { CrawlSummary, PageSummary } from '../messaging/protocol.ts';
import { TabcrawlError } from '../messaging/protocol.ts';
import { DEFAULT_SETTINGS, type CrawlSettings, type SettingsError } from '../core/settings.ts';
import { SETTING_ENTRIES, type DigestFormat } from '../core/setting-table.ts';
import { fieldErrors, fromSettings, toSettings, type FormValues, type SettingKey } from '../settings/settings-values.ts';
import { formatBytes } from '../ui/format-bytes.ts';
export { formatBytes };
export { mediaType, rowTone, shortUrl } from '../ui/row-format.ts';
import { statusWithLocation } from '../ui/row-format.ts';
import { httpOrigin } from '../core/url/normalize-url.ts';
export { httpOrigin } from '../core/url/normalize-url.ts';
import { formatDuration, formatSeconds } from '../ui/format-time.ts';
export { clockTime, dateTime, formatDuration, formatSeconds } from '../ui/format-time.ts';
export { hostLabel, hostLine, hostWaitText } from '../ui/host-wait-text.ts';
export { etaText, progressParts, progressPercent, progressText, runTimeText } from '../ui/crawl-progress-text.ts';
import { hasOtherKinds, type KindCounts } from '../ui/crawl-progress-text.ts';

/** The Start form as typed: the start URL, and every other option as the settings form edits it. */
export interface StartFormValues {
  startUrl: string;
  /** Kept as text (seconds, MiB, one pattern per line) so nothing the user typed is ever lost. */
  settings: FormValues;
}

/** A setting the Start form shows a message for, named as in {@link CrawlSettings}. */
export type StartFormField = 'startUrl' | SettingKey;

/** One message per field; a field without a problem has no key. */
export type StartFormErrors = Partial<Record<StartFormField, string>>;

/** The Start form before anything is known: no start URL, the built-in defaults. */
export function defaultStartForm(): StartFormValues {
  return { startUrl: '', settings: fromSettings({}) };
}

/**
 * The form's text as the settings the validator takes: the trimmed start
 * URL and {@link toSettings} of the rest (an empty number field is left out,
 * so its default applies). Not validated.
 */
export function parseStartForm(values: StartFormValues): Partial<CrawlSettings> & { startUrl: string } {
  return { startUrl: values.startUrl.trim(), ...toSettings(values.settings) };
}

/** Settings `crawl/start` always carries, whatever their value. */
const ALWAYS_SENT: ReadonlySet<keyof CrawlSettings> = new Set<keyof CrawlSettings>(['startUrl', 'maxPages', 'delayMs']);

/**
 * The validated settings as `crawl/start` carries them: the start URL, max
 * pages and delay, and every other setting that differs from
 * {@link DEFAULT_SETTINGS}. The background fills a missing setting with that
 * same default (`validateSettings`), so the crawl gets every setting.
 */
export function startRequestSettings(settings: CrawlSettings): Partial<CrawlSettings> & { startUrl: string } {
  const sent: Partial<CrawlSettings> & { startUrl: string } = { startUrl: settings.startUrl };
  for (const key of Object.keys(settings) as (keyof CrawlSettings)[]) {
    if (key === 'startUrl') continue;
    const value = settings[key];
    const builtIn = DEFAULT_SETTINGS[key];
    const isDefault = Array.isArray(value) && Array.isArray(builtIn) ? value.join('\n') === builtIn.join('\n') : value === builtIn;
    if (ALWAYS_SENT.has(key) || !isDefault) Object.assign(sent, { [key]: Array.isArray(value) ? [...value] : value });
  }
  return sent;
}

/**
 * Routes settings errors to the fields that show them (sizes in MiB, as
 * their field reads); an error the form has no field for goes to the banner.
 */
export function splitErrors(errors: readonly SettingsError[]): { fields: StartFormErrors; other: string[] } {
  const fields: StartFormErrors = { ...fieldErrors(errors) };
  const other: string[] = [];
  for (const error of errors) {
    if (error.field === 'startUrl') fields.startUrl ??= error.message;
    else if (!(error.field in DEFAULT_SETTINGS)) other.push(error.message);
  }
  return { fields, other };
}

/** The message of anything a request may throw, to embed after a colon (`Could not …: no crawl x`). */
export function describeError(error: unknown): string {
  if (error instanceof TabcrawlError || error instanceof Error) return error.message;
  return String(error);
}

/** A banner on its own from anything a request may throw: {@link describeError} as a sentence (upper-case first letter). */
export function errorSentence(error: unknown): string {
  return asSentence(describeError(error));
}

/** The newest crawl whose start URL has this origin, or null. */
export function pickCrawlFor(crawls: readonly CrawlSummary[], origin: string): CrawlSummary | null {
  let newest: CrawlSummary | null = null;
  for (const crawl of crawls) {
    if (httpOrigin(crawl.settings.startUrl) !== origin) continue;
    if (newest === null || crawl.createdAt > newest.createdAt) newest = crawl;
  }
  return newest;
}

/**
 * The Status cell of a row: `"blocked"` for robots.txt, `"301 → <location>"`
 * for a redirect, the HTTP status, or the failure code of a network error.
 */
export function statusText(page: PageSummary): string {
  return statusWithLocation(page);
}

/** Pages per minute as shown: whole numbers from 10 up, one decimal below. */
export function formatRate(pagesPerMinute: number): string {
  return pagesPerMinute >= 10 ? String(Math.round(pagesPerMinute)) : String(Math.round(pagesPerMinute * 10) / 10);
}

/**
 * A crawl's rate, `30 pages/min` (`— pages/min` before there is one); `URLs/min`
 * for a crawl with page resources or linked files, whose rows are not all pages.
 * @param rowsPerMinute rows done per minute (`pagesPerMinute` of `core/crawl/progress.ts`), or null.
 */
export function rateText(rowsPerMinute: number | null, counts: KindCounts): string {
  const unit = hasOtherKinds(counts) ? 'URLs/min' : 'pages/min';
  return `${rowsPerMinute === null ? '—' : formatRate(rowsPerMinute)} ${unit}`;
}

/** The digest words of each setting that has some (`core/setting-table.ts`), in their order. */
const DIGESTS = SETTING_ENTRIES.flatMap((entry) => (entry.digest === undefined ? [] : [entry.digest])).sort((a, b) => a.at - b.at);

/**
 * The settings of a crawl that differ from the built-in defaults, in a few
 * words each, so crawls of one site can be told apart in a list: `limit 100 ·
 * delay 0 s · depth 3 · path /docs/ · 2 excludes · subdomains · with cookies`.
 * Empty when every setting is the default. Each setting's words are its
 * entry's `digest` in `core/setting-table.ts`.
 */
export function settingsDigest(settings: CrawlSettings): string {
  const format: DigestFormat = { seconds: formatSeconds, bytes: formatBytes };
  return DIGESTS.map((digest) => digest.text(settings, format))
    .filter((words): words is string => words !== null)
    .join(' · ');
}

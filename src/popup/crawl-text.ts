/**
 * The popup's words for a crawl: errors as a clause or a banner, a row's status, the rate, and the few
 * words that tell crawls of one site apart. Pure: no Preact, no browser APIs.
 */
import type { PageSummary } from '../messaging/protocol.ts';
import { TabcrawlError } from '../messaging/protocol.ts';
import type { CrawlSettings } from '../core/settings.ts';
import { SETTING_ENTRIES, type DigestFormat } from '../core/setting-table.ts';
import { asSentence } from '../ui/sentence.ts';
import { formatBytes } from '../ui/format-bytes.ts';
import { statusWithLocation } from '../ui/row-format.ts';
import { formatSeconds } from '../ui/format-time.ts';
import { hasOtherKinds, type KindCounts } from '../ui/crawl-progress-text.ts';

/** The message of anything a request may throw, to embed after a colon (`Could not …: no crawl x`). */
export function describeError(error: unknown): string {
  if (error instanceof TabcrawlError || error instanceof Error) return error.message;
  return String(error);
}

/** A banner on its own from anything a request may throw: {@link describeError} as a sentence (upper-case first letter). */
export function errorSentence(error: unknown): string {
  return asSentence(describeError(error));
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
const DIGESTS = SETTING_ENTRIES.flatMap((entry) => (entry.digest === undefined ? [] : [entry.digest])).sort(
  (a, b) => a.at - b.at,
);

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

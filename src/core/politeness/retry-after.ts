/**
 * Back-off after a host says it is overloaded (HTTP 429 or 503).
 * @see RFC 9110 §10.2.3 (Retry-After), RFC 6585 §4 (429 Too Many Requests)
 */

/** Longest back-off honoured, in ms (10 minutes). A larger Retry-After is cut to this. */
export const MAX_BACKOFF_MS = 10 * 60_000;
/** Smallest back-off after a 429/503 without a usable Retry-After, in ms. */
export const MIN_BACKOFF_MS = 5_000;

/** True for the statuses that ask the client to slow down and try again. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 503;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)';
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** `Sun, 06 Nov 1994 08:49:37 GMT` */
const IMF_FIXDATE = new RegExp(`^(?:mon|tue|wed|thu|fri|sat|sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} gmt$`);
/** `Sunday, 06-Nov-94 08:49:37 GMT` (obsolete, two-digit year) */
const RFC850_DATE = new RegExp(
  `^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} gmt$`,
);
/** `Sun Nov  6 08:49:37 1994` (obsolete, C's asctime; GMT although it does not say so) */
const ASCTIME_DATE = new RegExp(`^(?:mon|tue|wed|thu|fri|sat|sun) ${MONTH} (\\d{2}| \\d) ${TIME} (\\d{4})$`);

/**
 * Parses an HTTP-date in any of its three forms (IMF-fixdate, RFC 850,
 * asctime), all in GMT, to ms since the epoch; null for anything else.
 * Strict on the form, lenient on letter case and on surrounding whitespace;
 * the weekday is not checked against the date. A date that does not exist
 * (31 Feb, 25:00) is null, not rolled over.
 *
 * `Date.parse` is not used: it reads an asctime date in local time, and takes
 * garbage such as `soon 5` for a date in 2001.
 *
 * @param now ms since the epoch, to place an RFC 850 two-digit year: a year
 *   that would be more than 50 years in the future is the last one in the past with those digits.
 * @see RFC 9110 §5.6.7 (Date/Time Formats)
 */
export function parseHttpDate(value: string, now: number): number | null {
  const text = value.trim().toLowerCase();
  let day: string | undefined;
  let month: string | undefined;
  let year: number;
  let time: (string | undefined)[];
  let match = IMF_FIXDATE.exec(text);
  if (match) {
    [, day, month] = match;
    year = Number(match[3]);
    time = match.slice(4, 7);
  } else if ((match = RFC850_DATE.exec(text))) {
    [, day, month] = match;
    const thisYear = new Date(now).getUTCFullYear();
    year = Math.floor(thisYear / 100) * 100 + Number(match[3]);
    if (year > thisYear + 50) year -= 100;
    time = match.slice(4, 7);
  } else if ((match = ASCTIME_DATE.exec(text))) {
    month = match[1];
    day = match[2];
    time = match.slice(3, 6);
    year = Number(match[6]);
  } else {
    return null;
  }
  const monthIndex = MONTHS.indexOf(month ?? '');
  const [hours, minutes, seconds] = time.map(Number);
  const dayOfMonth = Number((day ?? '').trim());
  if (
    hours === undefined ||
    minutes === undefined ||
    seconds === undefined ||
    hours > 23 ||
    minutes > 59 ||
    seconds > 60
  )
    return null;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999.
  date.setUTCFullYear(year, monthIndex, dayOfMonth);
  // A leap second (:60) is read as :59, so that it stays in its own minute.
  date.setUTCHours(hours, minutes, Math.min(59, seconds), 0);
  if (date.getUTCDate() !== dayOfMonth || date.getUTCMonth() !== monthIndex || date.getUTCFullYear() !== year)
    return null;
  return date.getTime();
}

/**
 * Parses `Retry-After` as a wait in ms from `now`: either delay-seconds
 * (`120`) or an HTTP-date (any of its three forms). Returns null when absent
 * or unparseable (`-5`, `1.5`, `soon`); a date in the past gives 0. A huge
 * delay-seconds stays finite (at most `Number.MAX_SAFE_INTEGER`); callers
 * cap it with {@link backoffMs}.
 * @see RFC 9110 §10.2.3
 */
export function parseRetryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number.MAX_SAFE_INTEGER, Number(text) * 1000);
  const at = parseHttpDate(text, now);
  return at === null ? null : Math.max(0, at - now);
}

/**
 * Whether a server's Retry-After asks for more than we ever wait
 * ({@link MAX_BACKOFF_MS}). The crawl then records the answer as final
 * instead of retrying the URL: a retry after our cap would come earlier than
 * asked, and waiting as asked (hours, years) would stall the crawl.
 */
export function isRetryAfterBeyondCap(retryAfterMs: number | null): boolean {
  return retryAfterMs !== null && retryAfterMs > MAX_BACKOFF_MS;
}

/**
 * How long to back off a host after its `attempt`-th (0-based) retryable answer, in ms:
 * the server's Retry-After when given, else exponential from max(gap, 5 s); capped at 10 minutes.
 */
export function backoffMs(attempt: number, retryAfterMs: number | null, currentGapMs: number): number {
  const wanted = retryAfterMs ?? Math.max(currentGapMs, MIN_BACKOFF_MS) * 2 ** Math.max(0, attempt);
  return Math.min(MAX_BACKOFF_MS, Math.max(0, wanted));
}

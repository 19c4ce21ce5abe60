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

/**
 * Parses `Retry-After` as a wait in ms from `now`: either delay-seconds
 * (`120`) or an HTTP-date. Returns null when absent or unparseable; a date
 * in the past gives 0.
 */
export function parseRetryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // HTTP-date forms all contain a letter (weekday or month name); Date.parse also accepts plain numbers, which are not dates here.
  if (!/[A-Za-z]/.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/**
 * How long to back off a host after its `attempt`-th (0-based) retryable answer, in ms:
 * the server's Retry-After when given, else exponential from max(gap, 5 s); capped at 10 minutes.
 */
export function backoffMs(attempt: number, retryAfterMs: number | null, currentGapMs: number): number {
  const wanted = retryAfterMs ?? Math.max(currentGapMs, MIN_BACKOFF_MS) * 2 ** Math.max(0, attempt);
  return Math.min(MAX_BACKOFF_MS, Math.max(0, wanted));
}

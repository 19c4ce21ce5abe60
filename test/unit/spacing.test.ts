import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  backoffMs,
  isRetryableStatus,
  isRetryAfterBeyondCap,
  MAX_BACKOFF_MS,
  parseHttpDate,
  parseRetryAfterMs,
} from '../../src/core/politeness/retry-after.ts';
import {
  adaptiveGapMs,
  cappedCrawlDelayMs,
  gapMs,
  isHostReady,
  MAX_CRAWL_DELAY_MS,
  nextRequestAt,
  requestSlots,
} from '../../src/core/politeness/spacing.ts';

const base = { delayMs: 1000, crawlDelayMs: null, lastResponseMs: 0, jitterMs: 0, random: () => 0.5 };

describe('spacing rules', () => {
  it('uses the configured delay when nothing asks for more', () => {
    assert.equal(gapMs(base), 1000);
  });
  it('uses a robots Crawl-delay longer than the delay', () => {
    assert.equal(gapMs({ ...base, crawlDelayMs: 2500 }), 2500);
  });
  it('keeps the delay when the Crawl-delay is shorter, e.g. 0.05 s', () => {
    assert.equal(gapMs({ ...base, crawlDelayMs: 50 }), 1000);
    assert.equal(gapMs({ ...base, delayMs: 0, crawlDelayMs: 50 }), 50);
  });
  it('caps the Crawl-delay it honours at 60 s', () => {
    assert.equal(cappedCrawlDelayMs(86_400_000), MAX_CRAWL_DELAY_MS);
    assert.equal(cappedCrawlDelayMs(null), 0);
    assert.equal(cappedCrawlDelayMs(-5), 0);
  });
  it('squares the last response time in seconds for the adaptive term', () => {
    assert.equal(adaptiveGapMs(100), 10);
    assert.equal(adaptiveGapMs(2000), 4000);
    assert.equal(adaptiveGapMs(30_000), 60_000, 'capped');
    assert.equal(gapMs({ ...base, lastResponseMs: 3000 }), 9000);
  });
  it('adds jitter on top, so jitter never shortens the gap', () => {
    assert.equal(gapMs({ ...base, jitterMs: 400, random: () => 0 }), 1000);
    assert.equal(gapMs({ ...base, jitterMs: 400, random: () => 0.5 }), 1200);
    assert.ok(gapMs({ ...base, jitterMs: 400, random: () => 1 }) < 1400);
  });
  it('lets a host go at the later of its spacing and back-off clocks', () => {
    assert.equal(nextRequestAt({ nextAllowedAt: 100, backoffUntil: 0 }), 100);
    assert.equal(nextRequestAt({ nextAllowedAt: 100, backoffUntil: 500 }), 500);
    assert.equal(isHostReady({ nextAllowedAt: 100, backoffUntil: 0, inFlight: null }, 100), true);
    assert.equal(isHostReady({ nextAllowedAt: 100, backoffUntil: 0, inFlight: null }, 99), false);
    assert.equal(
      isHostReady({ nextAllowedAt: 0, backoffUntil: 0, inFlight: { url: 'x', startedAt: 0, runId: 'r' } }, 10),
      false,
    );
  });
});

describe('Retry-After and back-off', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  it('reads delay-seconds', () => {
    assert.equal(parseRetryAfterMs('120', now), 120_000);
    assert.equal(parseRetryAfterMs(' 0 ', now), 0);
  });
  it('reads an HTTP-date relative to now, a past date as 0', () => {
    assert.equal(parseRetryAfterMs('Thu, 01 Jan 2026 12:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfterMs('Thu, 01 Jan 2026 11:00:00 GMT', now), 0);
  });
  it('ignores missing and garbage values', () => {
    assert.equal(parseRetryAfterMs(null, now), null);
    assert.equal(parseRetryAfterMs('soon', now), null);
    assert.equal(parseRetryAfterMs('-5', now), null);
    assert.equal(parseRetryAfterMs('1.5', now), null);
  });
  it('backs off exponentially without Retry-After and caps every back-off at 10 minutes', () => {
    assert.equal(backoffMs(0, null, 1000), 5000);
    assert.equal(backoffMs(1, null, 1000), 10_000);
    assert.equal(backoffMs(0, null, 8000), 8000);
    assert.equal(backoffMs(0, 30_000, 1000), 30_000);
    assert.equal(backoffMs(0, 86_400_000, 1000), MAX_BACKOFF_MS);
    assert.equal(backoffMs(20, null, 1000), MAX_BACKOFF_MS);
  });
  it('reads the three HTTP-date forms as GMT: IMF-fixdate, RFC 850 and asctime', () => {
    const at = Date.UTC(1994, 10, 6, 8, 49, 37);
    const then = Date.UTC(1994, 0, 1);
    assert.equal(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT', then), at);
    assert.equal(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', then), at);
    assert.equal(parseHttpDate('Sun Nov  6 08:49:37 1994', then), at);
    assert.equal(parseHttpDate('Sun Nov 16 08:49:37 1994', then), Date.UTC(1994, 10, 16, 8, 49, 37));
    assert.equal(parseHttpDate('  sun, 06 nov 1994 08:49:37 gmt ', then), at, 'any letter case, outer spaces');
  });
  it('places an RFC 850 two-digit year no more than 50 years ahead', () => {
    const now = Date.UTC(2026, 0, 1);
    assert.equal(parseHttpDate('Thursday, 01-Jan-26 00:00:30 GMT', now), Date.UTC(2026, 0, 1, 0, 0, 30));
    assert.equal(parseHttpDate('Monday, 01-Jan-76 00:00:00 GMT', now), Date.UTC(2076, 0, 1));
    assert.equal(parseHttpDate('Saturday, 01-Jan-77 00:00:00 GMT', now), Date.UTC(1977, 0, 1));
  });
  it('reads four-digit years below 100 as written, not as 19xx', () => {
    const date = new Date(0);
    date.setUTCFullYear(50, 0, 1);
    assert.equal(parseHttpDate('Sat, 01 Jan 0050 00:00:00 GMT', now), date.getTime());
  });
  it('refuses dates that do not exist and text that is not an HTTP-date', () => {
    for (const text of [
      'Wed, 31 Feb 2026 00:00:00 GMT',
      'Thu, 01 Jan 2026 24:00:00 GMT',
      'Thu, 01 Jan 2026 12:60:00 GMT',
      'Thu, 01 Jan 2026 12:00:00 PST',
      'Thu, 1 Jan 2026 12:00:00 GMT',
      '2026-01-01T12:00:00Z',
      'soon 5',
      'x 2026',
      'tomorrow',
      '',
    ]) {
      assert.equal(parseHttpDate(text, now), null, text);
    }
  });
  it('reads a leap second as the last second of its minute', () => {
    assert.equal(parseHttpDate('Thu, 01 Jan 2026 11:59:60 GMT', now), Date.UTC(2026, 0, 1, 11, 59, 59));
  });
  it('reads Retry-After in either form, and absurd values without failing', () => {
    assert.equal(parseRetryAfterMs('Thursday, 01-Jan-26 12:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfterMs('Thu Jan  1 12:01:00 2026', now), 60_000);
    assert.equal(parseRetryAfterMs('Fri, 31 Dec 9999 23:59:59 GMT', now), Date.UTC(9999, 11, 31, 23, 59, 59) - now);
    assert.equal(parseRetryAfterMs('99999999999999999999999', now), Number.MAX_SAFE_INTEGER);
    assert.equal(parseRetryAfterMs('9'.repeat(400), now), Number.MAX_SAFE_INTEGER, 'no Infinity');
    assert.equal(parseRetryAfterMs('Thu, 01 Jan 1970 00:00:00 GMT', now), 0);
    for (const garbage of ['', ' ', '+5', '5s', '0x10', '1e3', 'soon 5', 'NaN', 'Infinity'])
      assert.equal(parseRetryAfterMs(garbage, now), null, garbage);
  });
  it('treats only a Retry-After longer than the longest back-off as beyond the cap', () => {
    assert.equal(isRetryAfterBeyondCap(null), false);
    assert.equal(isRetryAfterBeyondCap(MAX_BACKOFF_MS), false);
    assert.equal(isRetryAfterBeyondCap(MAX_BACKOFF_MS + 1), true);
    assert.equal(isRetryAfterBeyondCap(Number.MAX_SAFE_INTEGER), true);
  });
  it('caps the back-off of an absurd Retry-After at 10 minutes and never goes negative', () => {
    assert.equal(backoffMs(0, Number.MAX_SAFE_INTEGER, 1000), MAX_BACKOFF_MS);
    assert.equal(backoffMs(0, 0, 1000), 0);
    assert.equal(backoffMs(0, -5, 1000), 0);
  });
  it('retries only 429 and 503', () => {
    assert.deepEqual([429, 503, 500, 502, 404, 200].map(isRetryableStatus), [true, true, false, false, false, false]);
  });
});

describe('requests in flight per host', () => {
  const open = {
    requestsPerHost: 8,
    delayMs: 0,
    jitterMs: 0,
    robotsSettled: true,
    crawlDelayMs: null,
    backoffUntil: 0,
    now: 1000,
  };
  it('gives what the user asked when there is no spacing to keep', () => {
    assert.equal(requestSlots(open), 8);
    assert.equal(requestSlots({ ...open, requestsPerHost: 1 }), 1);
    assert.equal(requestSlots({ ...open, backoffUntil: 1000 }), 8, 'a back-off that has ended');
  });
  it('gives one for any spacing: a delay, jitter, a Crawl-delay (0 too), robots.txt not yet settled, a back-off', () => {
    assert.equal(requestSlots({ ...open, delayMs: 1 }), 1);
    assert.equal(requestSlots({ ...open, jitterMs: 1 }), 1);
    assert.equal(requestSlots({ ...open, crawlDelayMs: 0 }), 1);
    assert.equal(requestSlots({ ...open, crawlDelayMs: 250 }), 1);
    assert.equal(requestSlots({ ...open, robotsSettled: false }), 1);
    assert.equal(requestSlots({ ...open, backoffUntil: 1001 }), 1);
  });
  it('never gives less than one', () => {
    assert.equal(requestSlots({ ...open, requestsPerHost: 0 }), 1);
    assert.equal(requestSlots({ ...open, requestsPerHost: -3, delayMs: 5 }), 1);
  });
});

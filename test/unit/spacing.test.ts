import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffMs, isRetryableStatus, MAX_BACKOFF_MS, parseRetryAfterMs } from '../../src/core/politeness/retry-after.ts';
import { adaptiveGapMs, cappedCrawlDelayMs, gapMs, isHostReady, MAX_CRAWL_DELAY_MS, nextRequestAt } from '../../src/core/politeness/spacing.ts';

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
    assert.equal(isHostReady({ nextAllowedAt: 0, backoffUntil: 0, inFlight: { url: 'x', startedAt: 0, runId: 'r' } }, 10), false);
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
  it('retries only 429 and 503', () => {
    assert.deepEqual([429, 503, 500, 502, 404, 200].map(isRetryableStatus), [true, true, false, false, false, false]);
  });
});

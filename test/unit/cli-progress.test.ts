import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProgressReporter, formatProgress, formatSummary } from '../../src/cli/progress.ts';

const counts = (fetched: number, errors = 0, blocked = 0) => ({ admitted: fetched, done: fetched + blocked, fetched, errors, blocked, bytesStored: 0 });

describe('formatProgress', () => {
  test('shows fetched, queued, errors and blocked', () => {
    assert.equal(formatProgress({ counts: counts(12, 2, 1), queued: 30 }), 'fetched 12 · queued 30 · errors 2 · blocked 1');
  });
});

describe('formatSummary', () => {
  test('says how the crawl ended, how long it took and what it recorded', () => {
    const summary = formatSummary({ state: 'finished', counts: counts(15, 2, 1), createdAt: 1000, endedAt: 5200 }, 99_999);
    assert.equal(summary, 'crawl finished in 4.2 s: 16 URLs (15 fetched, 2 errors, 1 blocked)');
  });

  test('measures to now while the crawl has no end time', () => {
    assert.match(formatSummary({ state: 'stopped', counts: counts(1), createdAt: 1000, endedAt: null }, 3000), /^crawl stopped in 2\.0 s: 1 URL /);
  });
});

describe('createProgressReporter', () => {
  test('prints at most one line per second when not a terminal', () => {
    let now = 0;
    const out: string[] = [];
    const reporter = createProgressReporter({ write: (t) => out.push(t), isTTY: false, now: () => now });
    reporter.update({ counts: counts(1), queued: 5 });
    now = 500;
    reporter.update({ counts: counts(2), queued: 5 });
    now = 1000;
    reporter.update({ counts: counts(3), queued: 5 });
    reporter.finish();
    assert.deepEqual(out, ['fetched 1 · queued 5 · errors 0 · blocked 0\n', 'fetched 3 · queued 5 · errors 0 · blocked 0\n']);
  });

  test('does not repeat an unchanged line when not a terminal', () => {
    let now = 0;
    const out: string[] = [];
    const reporter = createProgressReporter({ write: (t) => out.push(t), isTTY: false, now: () => now });
    reporter.update({ counts: counts(1), queued: 5 });
    now = 5000;
    reporter.update({ counts: counts(1), queued: 5 });
    assert.equal(out.length, 1);
  });

  test('updates one line in place on a terminal and ends it with a newline', () => {
    const out: string[] = [];
    const reporter = createProgressReporter({ write: (t) => out.push(t), isTTY: true, now: () => 0 });
    reporter.update({ counts: counts(1), queued: 5 });
    reporter.update({ counts: counts(2), queued: 4 });
    reporter.finish();
    assert.deepEqual(out, ['\rfetched 1 · queued 5 · errors 0 · blocked 0\x1b[K', '\rfetched 2 · queued 4 · errors 0 · blocked 0\x1b[K', '\n']);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  createProgressReporter,
  exportingLine,
  formatProgress,
  formatSummary,
  QUIET_MAX_MS,
  startingLine,
  unansweredNote,
  waitingNote,
} from '../../src/shells/cli/progress.ts';
import type { HostProgress } from '../../src/messaging/protocol.ts';

const counts = (fetched: number, errors = 0, blocked = 0) => ({
  admitted: fetched,
  done: fetched + blocked,
  fetched,
  errors,
  blocked,
  bytesStored: 0,
});

describe('formatProgress', () => {
  test('shows fetched, queued, errors and blocked', () => {
    assert.equal(
      formatProgress({ counts: counts(12, 2, 1), queued: 30 }),
      'fetched 12 · queued 30 · with errors 2 · blocked 1',
    );
  });

  test('says how many renders ended of the pages queued to render, in a crawl that renders', () => {
    assert.equal(
      formatProgress({ counts: { ...counts(12), renders: 5, rendered: 2 }, queued: 3 }),
      'fetched 12 · queued 3 · with errors 0 · blocked 0 · rendered 2 of 5',
    );
    assert.equal(
      formatSummary(
        { state: 'finished', counts: { ...counts(4), renders: 2, rendered: 2 }, createdAt: 0, endedAt: 1000 },
        0,
      ),
      'crawl finished in 1.0 s: 4 URLs (4 fetched, 0 with errors, 0 blocked, rendered 2 of 2)',
    );
  });
});

describe('formatSummary', () => {
  test('says how the crawl ended, how long it took and what it recorded', () => {
    const summary = formatSummary(
      { state: 'finished', counts: counts(15, 2, 1), createdAt: 1000, endedAt: 5200 },
      99_999,
    );
    assert.equal(summary, 'crawl finished in 4.2 s: 16 URLs (15 fetched, 2 with errors, 1 blocked)');
  });

  test('measures to now while the crawl has no end time', () => {
    assert.match(
      formatSummary({ state: 'stopped', counts: counts(1), createdAt: 1000, endedAt: null }, 3000),
      /^crawl stopped in 2\.0 s: 1 URL /,
    );
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
    assert.deepEqual(out, [
      'fetched 1 · queued 5 · with errors 0 · blocked 0\n',
      'fetched 3 · queued 5 · with errors 0 · blocked 0\n',
    ]);
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
    assert.deepEqual(out, [
      '\rfetched 1 · queued 5 · with errors 0 · blocked 0\x1b[K',
      '\rfetched 2 · queued 4 · with errors 0 · blocked 0\x1b[K',
      '\n',
    ]);
  });
});

describe('never silent while it waits', () => {
  /** Polls every 500 ms for `forMs` with no change, noting when quiet; returns the times anything was written. */
  function stall(isTTY: boolean, forMs: number): number[] {
    let now = 0;
    const writtenAt: number[] = [];
    const reporter = createProgressReporter({ write: () => void writtenAt.push(now), isTTY, now: () => now });
    for (; now <= forMs; now += 500) {
      reporter.update({ counts: counts(1), queued: 63 });
      if (reporter.isQuiet()) reporter.note('still crawling');
    }
    return writtenAt;
  }

  for (const isTTY of [false, true]) {
    test(`writes at least every ${QUIET_MAX_MS / 1000} s of a 60 s stall (${isTTY ? 'terminal' : 'log'})`, () => {
      const writtenAt = stall(isTTY, 60_000);
      const gaps = writtenAt.slice(1).map((at, i) => at - (writtenAt[i] ?? 0));
      assert.ok(writtenAt.length >= 6, `${writtenAt.length} writes`);
      assert.ok(Math.max(...gaps, 60_000 - (writtenAt.at(-1) ?? 0)) <= QUIET_MAX_MS, `gaps ${gaps.join(', ')}`);
    });
  }

  test('is not quiet while progress is printed', () => {
    let now = 0;
    const reporter = createProgressReporter({ write: () => undefined, isTTY: false, now: () => now });
    for (let done = 1; done <= 30; done += 1, now += 1000) {
      reporter.update({ counts: counts(done), queued: 5 });
      assert.equal(reporter.isQuiet(), false);
    }
  });

  test('writes a note on a line of its own and draws the terminal line again after it', () => {
    const out: string[] = [];
    const reporter = createProgressReporter({ write: (t) => out.push(t), isTTY: true, now: () => 0 });
    reporter.update({ counts: counts(1), queued: 5 });
    reporter.note('still crawling, 20 s in: finishing');
    assert.deepEqual(out.slice(1), [
      '\rstill crawling, 20 s in: finishing\x1b[K\n',
      '\rfetched 1 · queued 5 · with errors 0 · blocked 0\x1b[K',
    ]);
  });
});

describe('waitingNote', () => {
  const NOW = 1_700_000_000_000;
  const host = (overrides: Partial<HostProgress>): HostProgress => ({
    origin: 'http://127.0.0.1:8080',
    pending: 64,
    gapMs: 9000,
    responseMs: 3000,
    typicalResponseMs: 3000,
    typicalGapMs: 9000,
    readyAt: NOW + 9000,
    wait: { kind: 'ready' },
    ...overrides,
  });

  test('names how long the crawl ran and what its busiest host waits for, and the rule behind it', () => {
    const hosts = [
      host({ wait: { kind: 'gap', until: NOW + 9000, rule: 'response-time', gapMs: 9000 } }),
      host({ origin: 'https://cdn.example', pending: 2 }),
    ];
    assert.equal(
      waitingNote({ activeMs: 40_000, createdAt: NOW - 40_000 }, hosts, NOW),
      'still crawling, 40 s in: 127.0.0.1:8080 · 64 queued · waiting 9 s · response time: last answer took 3 s, so 9 s between requests (and 1 more host)',
    );
    assert.equal(
      waitingNote(
        { createdAt: NOW - 65_000 },
        [host({ wait: { kind: 'gap', until: NOW + 25_000, rule: 'crawl-delay', gapMs: 30_000 } })],
        NOW,
      ),
      'still crawling, 1 min in: 127.0.0.1:8080 · 64 queued · waiting 25 s · robots.txt Crawl-delay 30 s',
    );
  });

  test('says it is finishing when no host has URLs left', () => {
    assert.equal(waitingNote({ activeMs: 12_000, createdAt: 0 }, [], NOW), 'still crawling, 12 s in: finishing');
  });
});

describe('unansweredNote', () => {
  test('says the extension did not say what the crawl waits for, when its state is fresh', () => {
    assert.equal(
      unansweredNote({ activeMs: 40_000, createdAt: 0 }, 1_000_000, 1_000_500),
      'still crawling, 41 s in (the extension did not say what it waits for)',
    );
  });

  test('says how long the extension has not answered, counting that time as crawl time', () => {
    assert.equal(
      unansweredNote({ activeMs: 40_000, createdAt: 0 }, 1_000_000, 1_012_000),
      'still crawling, 52 s in: no answer from the extension for 12 s',
    );
    assert.equal(
      unansweredNote({ createdAt: 1_000_000 - 40_000 }, 1_000_000, 1_012_000),
      'still crawling, 52 s in: no answer from the extension for 12 s',
    );
  });
});

describe('startingLine', () => {
  test('says Chromium is still starting and for how long', () => {
    assert.equal(startingLine(9_000), 'starting Chromium with the extension, 9 s so far');
  });
});

describe('exportingLine', () => {
  test('says how far an export is and how long it has taken', () => {
    assert.equal(
      exportingLine('out.wacz', { done: 120, total: 500 }, 12_000),
      'exporting out.wacz: 120 of 500 URLs, 12 s so far',
    );
    assert.equal(exportingLine('out.wacz', null, 11_000), 'exporting out.wacz: opening the crawl, 11 s so far');
  });
});

describe('progress and summary with page resources and files', () => {
  const counts = {
    admitted: 20,
    done: 26,
    fetched: 25,
    errors: 2,
    blocked: 1,
    bytesStored: 0,
    resourcesAdmitted: 6,
    resources: 5,
    files: 1,
  };
  test('counts pages, resources and files apart', () => {
    assert.equal(
      formatProgress({ counts, queued: 0 }),
      'fetched 25 · queued 0 · with errors 2 · blocked 1 · 20 pages, 5 resources, 1 file',
    );
    assert.equal(
      formatSummary({ state: 'finished', counts, createdAt: 0, endedAt: 5200 }, 0),
      'crawl finished in 5.2 s: 26 URLs (20 pages, 5 resources, 1 file) (25 fetched, 2 with errors, 1 blocked)',
    );
  });
  test('says nothing of kinds for a crawl of pages only', () => {
    assert.equal(
      formatProgress({ counts: { ...counts, resources: 0, files: 0 }, queued: 3 }),
      'fetched 25 · queued 3 · with errors 2 · blocked 1',
    );
  });
});

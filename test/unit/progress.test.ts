import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { badgeFor, Badge, type BadgeAction } from '../../src/shells/background/adapters/badge.ts';
import { newHostState } from '../../src/core/crawl/crawl-writes.ts';
import {
  activeMs,
  compactCount,
  currentGap,
  etaMs,
  hostsProgress,
  hostWait,
  MIN_RATE_WINDOW_MS,
  pagesPerMinute,
  RECENT_RESPONSES,
  typicalResponseMs,
  withRecentResponse,
} from '../../src/core/crawl/progress.ts';
import { HostRules } from '../../src/core/crawl/host-rules.ts';
import { etaText } from '../../src/ui/crawl-progress-text.ts';
import { emptyCounts, type CrawlRecord, type CrawlState, type HostState } from '../../src/core/model.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';

const NOW = 1_000_000;
const A = 'http://a.test';

function host(overrides: Partial<HostState> = {}): HostState {
  const base = newHostState('c', A);
  return { ...base, robots: { ...base.robots, phase: 'ready' }, pending: 1, ...overrides };
}

function crawl(state: CrawlState, overrides: Partial<CrawlRecord> = {}): CrawlRecord {
  return {
    id: 'c',
    settings: { ...DEFAULT_SETTINGS, startUrl: `${A}/`, excludePatterns: [] },
    state,
    createdAt: 0,
    endedAt: null,
    counts: emptyCounts(),
    message: null,
    nextSeq: 0,
    ...overrides,
  };
}

describe('progress: active time and rate', () => {
  it('counts a running crawl from its creation to now', () => {
    assert.equal(activeMs({ state: 'running', createdAt: 1000, endedAt: null }, 61_000), 60_000);
  });
  it('leaves out the time spent paused before a resume', () => {
    assert.equal(
      activeMs({ state: 'running', createdAt: 0, endedAt: null, pausedAt: null, pausedMs: 30_000 }, 90_000),
      60_000,
    );
  });
  it('stops counting while paused', () => {
    assert.equal(
      activeMs({ state: 'paused', createdAt: 0, endedAt: null, pausedAt: 40_000, pausedMs: 10_000 }, 500_000),
      30_000,
    );
  });
  it('counts a finished crawl to its end', () => {
    assert.equal(
      activeMs({ state: 'finished', createdAt: 0, endedAt: 20_000, pausedAt: null, pausedMs: 0 }, 500_000),
      20_000,
    );
  });
  it('counts a stopped crawl that was paused first to its pause', () => {
    assert.equal(
      activeMs({ state: 'stopped', createdAt: 0, endedAt: 90_000, pausedAt: 50_000, pausedMs: 0 }, 500_000),
      50_000,
    );
  });
  it('gives pages per minute over the active time', () => {
    assert.equal(pagesPerMinute(30, 60_000), 30);
    assert.equal(pagesPerMinute(10, 120_000), 5);
  });
  it('gives no rate before a few seconds of active time', () => {
    assert.equal(pagesPerMinute(3, MIN_RATE_WINDOW_MS - 1), null);
  });
});

describe('progress: what a host waits for', () => {
  it('says in-flight while a request to the host is under way', () => {
    const wait = hostWait(
      host({ inFlight: { url: `${A}/x`, startedAt: 5, runId: 'r' }, nextAllowedAt: NOW + 9000 }),
      NOW,
      1000,
      null,
    );
    assert.deepEqual(wait, { kind: 'in-flight', url: `${A}/x`, since: 5 });
  });
  it('says ready when every clock has passed', () => {
    assert.deepEqual(hostWait(host({ nextAllowedAt: NOW, backoffUntil: NOW - 1 }), NOW, 1000, null), { kind: 'ready' });
  });
  it('names the rule that set the gap and the gap itself: delay, Crawl-delay or response time', () => {
    // [delayMs, crawlDelayMs, lastResponseMs, rule, gapMs]
    const cases: [number, number | null, number, string, number][] = [
      [1000, 2000, 0, 'crawl-delay', 2000],
      [3000, 2000, 0, 'delay', 3000],
      [1000, null, 100, 'delay', 1000],
      // A 3 s answer at delay 0: the response-time rule asks 9 s (issue 13, defect 3).
      [0, null, 3000, 'response-time', 9000],
      [1000, 5000, 3000, 'response-time', 9000],
      [0, 0, 0, 'delay', 0],
      [2000, 2000, 0, 'delay', 2000],
      [0, 3_600_000, 0, 'crawl-delay', 60_000],
    ];
    for (const [delayMs, crawlDelayMs, lastResponseMs, rule, gapMs] of cases) {
      const label = JSON.stringify({ delayMs, crawlDelayMs, lastResponseMs });
      assert.deepEqual(currentGap(delayMs, crawlDelayMs, lastResponseMs), { gapMs, rule }, label);
      assert.deepEqual(
        hostWait(host({ nextAllowedAt: NOW + 1500, lastResponseMs }), NOW, delayMs, crawlDelayMs),
        { kind: 'gap', until: NOW + 1500, rule, gapMs },
        label,
      );
    }
  });
  it('says backoff when a 429 or 503 back-off ends after the spacing', () => {
    assert.deepEqual(hostWait(host({ nextAllowedAt: NOW + 1000, backoffUntil: NOW + 60_000 }), NOW, 1000, null), {
      kind: 'backoff',
      until: NOW + 60_000,
    });
  });
  it('says robots while an unavailable robots.txt waits for its retry', () => {
    const base = host();
    const wait = hostWait(
      { ...base, robots: { ...base.robots, phase: 'unavailable', retryAt: NOW + 5000 }, nextAllowedAt: NOW + 1000 },
      NOW,
      1000,
      null,
    );
    assert.deepEqual(wait, { kind: 'robots', retryAt: NOW + 5000 });
  });
  it('lists only hosts with URLs left, most pending first', () => {
    const hosts = [
      host({ origin: 'http://b.test', pending: 2 }),
      host({ origin: 'http://idle.test', pending: 0 }),
      host({ origin: 'http://c.test', pending: 7, nextAllowedAt: NOW + 500 }),
      host({ origin: 'http://d.test', pending: 0, inFlight: { url: 'http://d.test/', startedAt: NOW, runId: 'r' } }),
    ];
    const listed = hostsProgress(hosts, NOW, 1000, (h) => (h.origin === 'http://c.test' ? 4000 : null));
    assert.deepEqual(
      listed.map((h) => h.origin),
      ['http://c.test', 'http://b.test', 'http://d.test'],
    );
    assert.equal(listed[0]?.gapMs, 4000);
    assert.equal(listed[0]?.readyAt, NOW + 500);
    assert.equal(listed[1]?.gapMs, 1000);
  });
  it('gives each host the gap it gets now, the response-time term included, and its last response time', () => {
    const [listed] = hostsProgress(
      [host({ pending: 64, lastResponseMs: 3000, nextAllowedAt: NOW + 8000 })],
      NOW,
      0,
      () => null,
    );
    assert.equal(listed?.gapMs, 9000);
    assert.equal(listed?.responseMs, 3000);
  });
});

describe('progress: time left', () => {
  it('is 0 when nothing is pending', () => {
    assert.equal(etaMs([], NOW, 8), 0);
    assert.equal(etaMs([{ pending: 0, typicalGapMs: 2000, readyAt: NOW + 500, typicalResponseMs: 100 }], NOW, 8), 0);
  });
  it('waits the gap between each two requests of one host, after its next allowed time, and each response', () => {
    assert.equal(
      etaMs([{ pending: 4, typicalGapMs: 2000, readyAt: NOW + 500, typicalResponseMs: 0 }], NOW, 8),
      500 + 3 * 2000,
    );
    assert.equal(
      etaMs([{ pending: 4, typicalGapMs: 2000, readyAt: NOW + 500, typicalResponseMs: 100 }], NOW, 8),
      500 + 4 * 100 + 3 * 2000,
    );
  });
  it('counts a slow host at delay 0 by its typical response time and the gap that rule sets', () => {
    // 64 URLs of 3 s pages at delay 0 (every answer 3 s): each takes 3 s and waits 9 s after it.
    assert.equal(
      etaMs([{ pending: 64, typicalGapMs: 9000, readyAt: NOW + 9000, typicalResponseMs: 3000 }], NOW, 8),
      9000 + 64 * 3000 + 63 * 9000,
    );
  });
  it('is bound by the slowest host when hosts run in parallel', () => {
    const hosts = [
      { pending: 3, typicalGapMs: 1000, readyAt: 0, typicalResponseMs: 0 },
      { pending: 11, typicalGapMs: 1000, readyAt: 0, typicalResponseMs: 0 },
    ];
    assert.equal(etaMs(hosts, NOW, 8), 10_000);
  });
  it('is bound by the host limit when more hosts wait than run at once', () => {
    const hosts = Array.from({ length: 4 }, () => ({
      pending: 6,
      typicalGapMs: 1000,
      readyAt: 0,
      typicalResponseMs: 0,
    }));
    assert.equal(etaMs(hosts, NOW, 2), (4 * 5000) / 2);
  });
  it('after one slow answer among fast ones, waits out the gap it set, then counts the typical answer and gap, not the slow one', () => {
    // A 1 s delay, answers of 0.1 s, then one of 3 s: the response-time rule asks 9 s after it, once.
    const rules = new HostRules(() => 0);
    const settings = { ...DEFAULT_SETTINGS, startUrl: `${A}/`, excludePatterns: [], delayMs: 1000 };
    const state = host({ pending: 30 });
    let at = NOW - 60_000;
    for (let i = 0; i < 6; i += 1) {
      at += 1100;
      rules.requestEnded(settings, state, at, 100);
    }
    rules.requestEnded(settings, state, NOW, 3000);
    assert.equal(state.nextAllowedAt, NOW + 9000, 'the next request waits the 9 s the slow answer asks');
    const [listed] = hostsProgress([state], NOW, settings.delayMs, () => null);
    assert.ok(listed);
    assert.equal(listed.responseMs, 3000, 'the host line still says what the last answer took');
    assert.equal(listed.gapMs, 9000);
    assert.equal(listed.typicalResponseMs, 100);
    assert.equal(listed.typicalGapMs, 1000);
    // 9 s, then 30 answers of 0.1 s and 29 gaps of 1 s: 41 s, not 9 s + 30 × 3 s + 29 × 9 s (about 6 min).
    assert.equal(etaMs([listed], NOW, 8), 9000 + 30 * 100 + 29 * 1000);
    assert.equal(etaText(30, etaMs([listed], NOW, 8)), 'about 41 s left');
  });
});

describe("progress: a host's typical response time", () => {
  it('is the median of its recent answers (the lower middle one for an even count), its last for a host stored without them, 0 before any', () => {
    const cases: [number[] | undefined, number, number][] = [
      [undefined, 0, 0],
      [undefined, 700, 700],
      [[], 0, 0],
      [[3000], 3000, 3000],
      [[100, 3000], 3000, 100],
      [[100, 120, 3000], 3000, 120],
      [[3000, 3000, 100], 100, 3000],
      [[5, 1, 4, 2, 3], 3, 3],
    ];
    for (const [recentResponseMs, lastResponseMs, expected] of cases) {
      const label = JSON.stringify({ recentResponseMs, lastResponseMs });
      assert.equal(
        typicalResponseMs(recentResponseMs === undefined ? { lastResponseMs } : { lastResponseMs, recentResponseMs }),
        expected,
        label,
      );
    }
  });

  it(`keeps the last ${RECENT_RESPONSES} response times, oldest first`, () => {
    let recent: number[] | undefined;
    for (let ms = 1; ms <= RECENT_RESPONSES + 3; ms += 1) recent = withRecentResponse(recent, ms);
    assert.deepEqual(
      recent,
      Array.from({ length: RECENT_RESPONSES }, (_, i) => i + 4),
    );
  });
});

describe('progress: toolbar badge', () => {
  it('writes counts in at most four characters, rounding down', () => {
    assert.deepEqual([0, 7, 999, 1000, 1299, 12_345, 999_999, 1_250_000, 123_456_789].map(compactCount), [
      '0',
      '7',
      '999',
      '1k',
      '1.2k',
      '12k',
      '999k',
      '1.2M',
      '123M',
    ]);
  });
  it('shows the rows done while a crawl runs, summed over running crawls', () => {
    const view = badgeFor([
      crawl('running', { counts: { ...emptyCounts(), done: 1200 } }),
      crawl('finished', { endedAt: 9 }),
      crawl('running', { counts: { ...emptyCounts(), done: 34 } }),
    ]);
    assert.equal(view.text, '1.2k');
  });
  it('is cleared when a new crawl starts with nothing done yet', () => {
    assert.equal(badgeFor([crawl('finished', { endedAt: 5 }), crawl('running', { createdAt: 6 })]).text, '');
  });
  it('marks how the latest crawl ended: finished, failed, paused, stopped', () => {
    assert.equal(badgeFor([crawl('failed', { endedAt: 1 }), crawl('finished', { endedAt: 2 })]).text, '✓');
    assert.equal(badgeFor([crawl('finished', { endedAt: 1 }), crawl('failed', { endedAt: 2 })]).text, '!');
    assert.equal(badgeFor([crawl('finished', { endedAt: 1 }), crawl('paused', { pausedAt: 3 })]).text, '‖');
    assert.equal(badgeFor([crawl('finished', { endedAt: 1 }), crawl('stopped', { endedAt: 3 })]).text, '');
    assert.equal(badgeFor([]).text, '');
  });
  it('writes to the browser only when what it shows changes', async () => {
    const texts: string[] = [];
    const action: BadgeAction = {
      setBadgeText: async ({ text }) => {
        texts.push(text);
      },
      setBadgeBackgroundColor: async () => undefined,
    };
    let crawls = [crawl('running', { counts: { ...emptyCounts(), done: 5 } })];
    const badge = new Badge(action, { listCrawls: async () => crawls });
    await badge.refresh();
    await badge.refresh();
    crawls = [crawl('finished', { endedAt: 3, counts: { ...emptyCounts(), done: 5 } })];
    await badge.refresh();
    assert.deepEqual(texts, ['5', '✓']);
  });
});

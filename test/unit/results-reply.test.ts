import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { activeMs } from '../../src/core/crawl/progress.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import type { CrawlRecord } from '../../src/core/model.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import { isSuperseded, withReply, type ActionReply } from '../../src/results/reply-crawl.ts';

const CREATED = 1_700_000_000_000;

function record(overrides: Partial<CrawlRecord> = {}): CrawlRecord {
  return {
    id: 'c',
    settings: { ...DEFAULT_SETTINGS, startUrl: 'https://a.example/' },
    state: 'running',
    createdAt: CREATED,
    endedAt: null,
    pausedAt: null,
    pausedMs: 0,
    counts: { admitted: 20, done: 8, fetched: 8, errors: 0, blocked: 0, bytesStored: 0 },
    message: null,
    nextSeq: 21,
    ...overrides,
  };
}

function summary(from: CrawlRecord, overrides: Partial<CrawlSummary> = {}): CrawlSummary {
  const { id, state, createdAt, endedAt, counts, message, settings } = from;
  return {
    id,
    startUrl: settings.startUrl,
    state,
    createdAt,
    endedAt,
    counts,
    queued: counts.admitted - counts.done,
    message,
    settings,
    ...overrides,
  };
}

describe('a Pause / Resume / Stop reply shown before the crawl is read again', () => {
  it('keeps the run time of a paused reply fixed at its activeMs', () => {
    const shown = withReply(record(), {
      summary: summary(record(), { state: 'paused', activeMs: 61_000 }),
      receivedAt: CREATED + 90_000,
    });
    assert.equal(shown.state, 'paused');
    assert.equal(activeMs(shown, CREATED + 90_000), 61_000);
    assert.equal(activeMs(shown, CREATED + 500_000), 61_000);
  });

  it('moves the run time of a resumed reply on from its activeMs', () => {
    const paused = record({ state: 'paused', pausedAt: CREATED + 30_000, pausedMs: 0 });
    const shown = withReply(paused, {
      summary: summary(paused, { state: 'running', activeMs: 30_000 }),
      receivedAt: CREATED + 100_000,
    });
    assert.equal(shown.state, 'running');
    assert.equal(activeMs(shown, CREATED + 100_000), 30_000);
    assert.equal(activeMs(shown, CREATED + 110_000), 40_000);
  });

  it('takes the end, counts and message of a stopped reply', () => {
    const stopped = summary(record(), {
      state: 'stopped',
      endedAt: CREATED + 40_000,
      message: 'stopped by the user',
      counts: { admitted: 20, done: 9, fetched: 9, errors: 1, blocked: 0, bytesStored: 0 },
    });
    const shown = withReply(record(), { summary: stopped, receivedAt: CREATED + 40_000 });
    assert.deepEqual(
      [shown.state, shown.endedAt, shown.message, shown.counts.done],
      ['stopped', CREATED + 40_000, 'stopped by the user', 9],
    );
  });

  it('gives way to a newer read, not to the read it was made over or one as old as the click', () => {
    const before = record();
    const reply: ActionReply = { summary: summary(before, { state: 'paused' }), before, receivedAt: CREATED + 1 };
    assert.equal(isSuperseded(reply, before), false);
    assert.equal(
      isSuperseded(reply, { ...before }),
      false,
      'still running with no more rows: read before the pause was written',
    );
    assert.equal(isSuperseded(reply, { ...before, state: 'paused' }), true);
    assert.equal(isSuperseded(reply, { ...before, state: 'stopped' }), true);
    assert.equal(
      isSuperseded(reply, { ...before, counts: { ...before.counts, done: 9 } }),
      true,
      'running on: resumed elsewhere',
    );
    assert.equal(
      isSuperseded(reply, { ...before, pausedMs: 5_000 }),
      true,
      'paused and resumed elsewhere before any row was done',
    );
    const pausedBefore = record({ state: 'paused', pausedAt: CREATED + 10_000 });
    const resumed: ActionReply = {
      summary: summary(pausedBefore, { state: 'running' }),
      before: pausedBefore,
      receivedAt: CREATED + 20_000,
    };
    assert.equal(isSuperseded(resumed, { ...pausedBefore }), false);
    assert.equal(
      isSuperseded(resumed, { ...pausedBefore, pausedAt: CREATED + 30_000, pausedMs: 10_000 }),
      true,
      'paused again elsewhere',
    );
  });
});

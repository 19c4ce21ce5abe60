/**
 * The host scheduler (`core/crawl/host-scheduler.ts`, issue 28, item 2): when a host's turn comes (its gap,
 * its Crawl-delay, a Retry-After back-off, a robots.txt retry, an idle pause), how many steps it gets (its
 * request slots), how the two pools share `hostConcurrency`, and when the loop must wake. Every time is
 * given: a fake clock, no sleeping.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newHostState } from '../../src/core/crawl/crawl-writes.ts';
import { HostRules } from '../../src/core/crawl/host-rules.ts';
import {
  CLAIM_AHEAD_MS,
  HostScheduler,
  hostReadyAt,
  hostTurnAt,
  IDLE_HOST_MS,
} from '../../src/core/crawl/host-scheduler.ts';
import type { HostState } from '../../src/core/model.ts';
import { type CrawlSettings, DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { createScope } from '../../src/core/url/scope.ts';

const NOW = 1_000_000;
const SITE = 'https://example.com';

function settingsWith(more: Partial<CrawlSettings> = {}): CrawlSettings {
  return {
    ...DEFAULT_SETTINGS,
    startUrl: `${SITE}/`,
    delayMs: 0,
    jitterMs: 0,
    requestsPerHost: 1,
    hostConcurrency: 8,
    ...more,
  };
}

/** A host with robots.txt read (no rules, unless `robotsBody`), `pending` URLs queued and nothing in flight. */
function host(origin: string, more: Partial<HostState> = {}, robotsBody: string | null = null): HostState {
  const state = newHostState('c', origin);
  state.robots = { ...state.robots, phase: 'ready', body: robotsBody, fetchedAt: 0 };
  return { ...state, pending: 5, ...more };
}

/** One turn at `now`: the origins of the steps it starts (one per step), and what it found. */
function turn(scheduler: HostScheduler, hosts: HostState[], now = NOW, settings = settingsWith()): string[] {
  const started: string[] = [];
  scheduler.due(now, settings, createScope(settings), hosts, (h) => {
    started.push(h.origin);
    scheduler.started(h.origin);
  });
  return started;
}

/** A clock that stands still unless a sleep moves it (to the sleep's end). */
class FakeClock {
  constructor(public time = NOW) {}
  now(): number {
    return this.time;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted === true) throw new Error('aborted');
    this.time += ms;
  }
}

const schedulerOf = (clock = new FakeClock()): HostScheduler => new HostScheduler(new HostRules(() => 0), clock);

describe('hostReadyAt, hostTurnAt: when a host may be asked next', () => {
  it('is the later of its next allowed time (the gap) and its back-off (Retry-After)', () => {
    assert.equal(hostReadyAt(host(SITE, { nextAllowedAt: NOW + 500, backoffUntil: NOW + 200 })), NOW + 500);
    assert.equal(hostReadyAt(host(SITE, { nextAllowedAt: NOW + 500, backoffUntil: NOW + 9000 })), NOW + 9000);
  });

  it('waits for a robots.txt retry while robots.txt is unavailable, and only then', () => {
    const h = host(SITE, { nextAllowedAt: NOW });
    h.robots = { ...h.robots, phase: 'unavailable', retryAt: NOW + 60_000 };
    assert.equal(hostReadyAt(h), NOW + 60_000);
    h.robots = { ...h.robots, phase: 'ready' };
    assert.equal(hostReadyAt(h), NOW);
  });

  it('comes CLAIM_AHEAD_MS before the request may start, and never before the end of an idle pause', () => {
    const h = host(SITE, { nextAllowedAt: NOW + 1000 });
    assert.equal(hostTurnAt(h, 0), NOW + 1000 - CLAIM_AHEAD_MS);
    assert.equal(hostTurnAt(h, NOW + 5000), NOW + 5000);
  });
});

describe("HostScheduler: a host's turn", () => {
  it('steps a host whose gap has ended, and wakes for one whose gap has not', () => {
    const scheduler = schedulerOf();
    const ready = host(SITE);
    const waiting = host('https://b.example.com', { nextAllowedAt: NOW + 2000 });
    assert.deepEqual(turn(scheduler, [ready, waiting]), [SITE]);
    assert.equal(scheduler.wakeAt(), NOW + 2000 - CLAIM_AHEAD_MS);
    assert.equal(scheduler.hasWork(), true);
  });

  it("steps a host within CLAIM_AHEAD_MS of its gap's end (the claim runs during the wait)", () => {
    const scheduler = schedulerOf();
    assert.deepEqual(turn(scheduler, [host(SITE, { nextAllowedAt: NOW + CLAIM_AHEAD_MS })]), [SITE]);
    assert.deepEqual(turn(schedulerOf(), [host(SITE, { nextAllowedAt: NOW + CLAIM_AHEAD_MS + 1 })]), []);
  });

  it('waits for a Retry-After back-off, and wakes at its end', () => {
    const scheduler = schedulerOf();
    assert.deepEqual(turn(scheduler, [host(SITE, { backoffUntil: NOW + 30_000 })]), []);
    assert.equal(scheduler.wakeAt(), NOW + 30_000 - CLAIM_AHEAD_MS);
    assert.deepEqual(turn(scheduler, [host(SITE, { backoffUntil: NOW + 30_000 })], NOW + 30_000 - CLAIM_AHEAD_MS), [
      SITE,
    ]);
  });

  it('does not wake for a host whose step still runs (its end wakes the loop)', () => {
    const scheduler = schedulerOf();
    const h = host(SITE);
    assert.deepEqual(turn(scheduler, [h]), [SITE]);
    h.nextAllowedAt = NOW + 1000;
    assert.deepEqual(turn(scheduler, [h]), []);
    assert.equal(scheduler.wakeAt(), Number.POSITIVE_INFINITY);
  });

  it('leaves alone a host without URLs queued or in flight, and says there is no work', () => {
    const scheduler = schedulerOf();
    assert.deepEqual(turn(scheduler, [host(SITE, { pending: 0 })]), []);
    assert.equal(scheduler.hasWork(), false);
    assert.equal(scheduler.wakeAt(), Number.POSITIVE_INFINITY);
  });

  it('leaves a host whose step found nothing idle for IDLE_HOST_MS, until a step that did work ends', () => {
    const scheduler = schedulerOf();
    const idle = host(SITE);
    const other = host('https://b.example.com');
    assert.deepEqual(turn(scheduler, [idle]), [SITE]);
    scheduler.slotFreed(SITE);
    scheduler.ended(SITE, false, NOW);
    assert.deepEqual(turn(scheduler, [idle], NOW + IDLE_HOST_MS - 1), []);
    assert.equal(scheduler.wakeAt(), NOW + IDLE_HOST_MS);
    assert.deepEqual(turn(scheduler, [other], NOW + 1), ['https://b.example.com']);
    scheduler.slotFreed('https://b.example.com');
    scheduler.ended('https://b.example.com', true, NOW + 2);
    assert.deepEqual(turn(scheduler, [idle], NOW + 3), [SITE]);
  });

  it('keeps the idle pauses as they were when a step failed', () => {
    const scheduler = schedulerOf();
    const h = host(SITE);
    turn(scheduler, [h]);
    scheduler.slotFreed(SITE);
    scheduler.ended(SITE, false, NOW);
    turn(scheduler, [host('https://b.example.com')], NOW);
    scheduler.slotFreed('https://b.example.com');
    scheduler.ended('https://b.example.com', null, NOW);
    assert.deepEqual(turn(scheduler, [h], NOW + 1), []);
  });
});

describe('HostScheduler: request slots per host', () => {
  it('gives a host one step at a time when requests are spaced by a delay', () => {
    const scheduler = schedulerOf();
    const settings = settingsWith({ requestsPerHost: 8, delayMs: 500 });
    assert.deepEqual(turn(scheduler, [host(SITE)], NOW, settings), [SITE]);
    assert.deepEqual(turn(scheduler, [host(SITE)], NOW, settings), []);
  });

  it('gives a host one step at a time when its robots.txt sets a Crawl-delay (0 too)', () => {
    for (const delay of ['2', '0']) {
      const scheduler = schedulerOf();
      const settings = settingsWith({ requestsPerHost: 8 });
      assert.deepEqual(
        turn(scheduler, [host(SITE, {}, `User-agent: *\nCrawl-delay: ${delay}\n`)], NOW, settings),
        [SITE],
        delay,
      );
    }
  });

  it('gives an unspaced host one step per request slot, no more than its URLs', () => {
    const settings = settingsWith({ requestsPerHost: 4 });
    assert.deepEqual(turn(schedulerOf(), [host(SITE, { pending: 10 })], NOW, settings), [SITE, SITE, SITE, SITE]);
    assert.deepEqual(turn(schedulerOf(), [host(SITE, { pending: 2 })], NOW, settings), [SITE, SITE]);
  });

  it('fills a slot again once a step gave it back, its response ended', () => {
    const scheduler = schedulerOf();
    const settings = settingsWith({ requestsPerHost: 2 });
    const h = host(SITE, { pending: 10 });
    assert.equal(turn(scheduler, [h], NOW, settings).length, 2);
    assert.equal(turn(scheduler, [h], NOW, settings).length, 0);
    scheduler.slotFreed(SITE);
    assert.equal(turn(scheduler, [h], NOW, settings).length, 1);
  });

  it('gives one step to a host whose robots.txt is not read yet, whatever its slots', () => {
    const h = host(SITE, { pending: 10 });
    h.robots = { ...h.robots, phase: 'pending', body: null };
    assert.deepEqual(turn(schedulerOf(), [h], NOW, settingsWith({ requestsPerHost: 4 })), [SITE]);
  });

  it('gives one step at a time to a host backing the crawl off, once its back-off ended', () => {
    const settings = settingsWith({ requestsPerHost: 4 });
    assert.deepEqual(
      turn(schedulerOf(), [host(SITE, { backoffUntil: NOW + 10 })], NOW + 10 - CLAIM_AHEAD_MS, settings),
      [SITE],
    );
  });

  it("counts the run's requests out per host, and forgets a host once none is", () => {
    const scheduler = schedulerOf();
    scheduler.requestStarted(SITE);
    scheduler.requestStarted(SITE);
    assert.equal(scheduler.requestsOut(SITE), 2);
    scheduler.requestEnded(SITE);
    scheduler.requestEnded(SITE);
    scheduler.requestEnded(SITE);
    assert.equal(scheduler.requestsOut(SITE), 0);
    scheduler.requestStarted(SITE);
    assert.equal(scheduler.requestsOut(SITE), 1);
  });
});

describe('HostScheduler: turns wanted outside the steps', () => {
  it('counts each wanted turn per host until its release, a second release doing nothing', () => {
    const scheduler = schedulerOf();
    const first = scheduler.wantTurn(SITE);
    const second = scheduler.wantTurn(SITE);
    assert.equal(scheduler.turnsWanted(SITE), 2);
    assert.equal(scheduler.turnsWanted('https://other.example'), 0);
    first();
    first();
    assert.equal(scheduler.turnsWanted(SITE), 1);
    second();
    assert.equal(scheduler.turnsWanted(SITE), 0);
  });
});

describe('HostScheduler: pools of hosts at once', () => {
  const cdns = ['https://cdn1.example.net', 'https://cdn2.example.net', 'https://cdn3.example.net'];

  it('steps at most hostConcurrency hosts of the site at once, the others waiting for a free place', () => {
    const scheduler = schedulerOf();
    const settings = settingsWith({
      hostConcurrency: 2,
      extraOrigins: ['https://a.example.org', 'https://b.example.org'],
    });
    const hosts = [host(SITE), host('https://a.example.org'), host('https://b.example.org')];
    assert.deepEqual(turn(scheduler, hosts, NOW, settings), [SITE, 'https://a.example.org']);
    assert.equal(scheduler.waitsForSlot(), true);
    scheduler.slotFreed(SITE);
    scheduler.ended(SITE, true, NOW);
    assert.deepEqual(turn(scheduler, hosts.slice(1), NOW, settings), ['https://b.example.org']);
  });

  it('steps other hosts (a CDN, checked links) in a pool of their own, so they never hold the site up', () => {
    const scheduler = schedulerOf();
    const settings = settingsWith({ hostConcurrency: 2 });
    const started = turn(scheduler, [...cdns.map((o) => host(o)), host(SITE)], NOW, settings);
    assert.deepEqual(started, [cdns[0], cdns[1], SITE]);
    assert.equal(scheduler.waitsForSlot(), true);
  });

  it("lets a step go on with its host's next request while its pool has room, or no host of its pool waits", () => {
    const scheduler = schedulerOf();
    const settings = settingsWith({ hostConcurrency: 1, extraOrigins: ['https://a.example.org'] });
    const site = host(SITE);
    turn(scheduler, [site], NOW, settings);
    // A host of the other pool waiting does not hold the site's step.
    assert.equal(scheduler.mayGoOn(settings, [site, host(cdns[0] ?? '')], SITE), true);
    const waiting = host('https://a.example.org');
    assert.equal(scheduler.mayGoOn(settings, [site, waiting], SITE), false);
    assert.equal(scheduler.mayGoOn({ ...settings, hostConcurrency: 2 }, [site, waiting], SITE), true);
    assert.equal(scheduler.mayGoOn(settings, [site, { ...waiting, pending: 0 }], SITE), true);
  });

  it('lists the hosts with a step running', () => {
    const scheduler = schedulerOf();
    turn(scheduler, [host(SITE), host(cdns[0] ?? '')]);
    assert.deepEqual([...scheduler.running()], [SITE, cdns[0]]);
    scheduler.slotFreed(SITE);
    scheduler.ended(SITE, true, NOW);
    assert.deepEqual([...scheduler.running()], [cdns[0]]);
  });
});

describe('HostScheduler: waiting for a turn', () => {
  it('resolves at the time a claimed request may start, never before', async () => {
    const clock = new FakeClock();
    await schedulerOf(clock).waitForTurn(NOW + 1500, new AbortController().signal);
    assert.equal(clock.now(), NOW + 1500);
  });

  it('resolves at once when the time has come, or the run is stopped', async () => {
    const clock = new FakeClock();
    await schedulerOf(clock).waitForTurn(NOW - 10, new AbortController().signal);
    assert.equal(clock.now(), NOW);
    const stop = new AbortController();
    stop.abort();
    await schedulerOf(clock).waitForTurn(NOW + 1500, stop.signal);
    assert.equal(clock.now(), NOW);
  });
});

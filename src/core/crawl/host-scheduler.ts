/**
 * When each host of a running crawl may be asked next, and how many of its
 * requests may be out at once: the one object every request of a run waits
 * on for its host's turn (a page, a robots.txt, a resource, a checked link;
 * a rendered page's own sub-requests next). crawlee's `throttledUntil` is the
 * model: the rule deciding when a host may be stepped is one small pure
 * function ({@link hostTurnAt}); the rest is bookkeeping of what this run has
 * in flight, kept in memory only (safe to lose with the worker: a new run
 * starts with nothing in flight and releases stale leases, `run-ends.ts`).
 *
 * What it keeps, per host:
 * - its **steps** running (claim, wait for the gap, request, record), and of
 *   them those **holding a request slot** (a step at several requests per
 *   host hands its slot back as soon as its response has ended);
 * - its **requests out**: claimed by this run and not yet recorded
 *   (`claim.ts` counts them against the host's slots);
 * - its **turns wanted**: requests outside the steps (a rendered page's
 *   request for a URL the crawl holds, `render/render-turn.ts`) waiting for
 *   the host; while one waits, no step claims the host's next request
 *   (`claim.ts`), so the host's steps hand it over instead of chaining its
 *   queue and starving the waiter;
 * - its **idle pause**: a host whose last step found nothing to do is left
 *   alone for {@link IDLE_HOST_MS}, unless a step that did work (and may have
 *   queued URLs of any host) ends first;
 * - its **pool** (`host-pools.ts`): the crawl's own site, or the other hosts,
 *   each with `hostConcurrency` hosts at once.
 *
 * The host's clocks themselves (its next allowed time, its back-off, its
 * robots.txt retry) are stored on its `HostState` (`host-rules.ts` moves
 * them); this reads them.
 */
import type { HostState } from '../model.ts';
import { nextRequestAt } from '../politeness/spacing.ts';
import type { CrawlSettings } from '../settings.ts';
import type { Scope } from '../url/scope.ts';
import { type HostPool, HostPools } from './host-pools.ts';
import type { Clock } from './ports.ts';

/**
 * How early, in ms, a host's next request is claimed before its gap ends: the
 * claim's transaction then runs during the wait instead of after it, and the
 * request starts when the gap ends (never before: the step waits for
 * `notBefore`). It is what keeps a host with a Crawl-delay close to its ideal
 * rate when several hosts share the database.
 */
export const CLAIM_AHEAD_MS = 40;

/** How long, in ms, a host whose last step found nothing to do is left alone (unless a step that did work ends). */
export const IDLE_HOST_MS = 250;

/**
 * When the host's next request may start (a `Date.now()`-like timestamp, ms): its spacing (gap,
 * Crawl-delay) and back-off (429/503, Retry-After) clocks, and its robots.txt retry time while that
 * is unavailable.
 */
export function hostReadyAt(host: Pick<HostState, 'nextAllowedAt' | 'backoffUntil' | 'robots'>): number {
  const retry = host.robots.phase === 'unavailable' ? host.robots.retryAt : 0;
  return Math.max(nextRequestAt(host), retry);
}

/**
 * When the loop may next step the host (ms): {@link CLAIM_AHEAD_MS} before its next request may start
 * (see {@link hostReadyAt}), and never before the end of its idle pause (`idleUntil`, 0 for none).
 */
export function hostTurnAt(
  host: Pick<HostState, 'nextAllowedAt' | 'backoffUntil' | 'robots'>,
  idleUntil: number,
): number {
  return Math.max(hostReadyAt(host) - CLAIM_AHEAD_MS, idleUntil);
}

/** How many requests a host may have in flight now (`HostRules.slotsOf`: 1 unless nothing spaces them). */
export interface HostSlots {
  slotsOf(settings: CrawlSettings, host: HostState, now: number): number;
}

/** Adds `by` to a count per host, deleting it at 0 (so that a map's keys are the hosts counted). */
function bump(map: Map<string, number>, origin: string, by: number): void {
  const value = (map.get(origin) ?? 0) + by;
  if (value > 0) map.set(origin, value);
  else map.delete(origin);
}

/** The hosts of one run, their turns and what the run has in flight (see the module's comment). */
export class HostScheduler {
  /** Steps running per host (a key only while there is one). */
  private readonly steps = new Map<string, number>();
  /** Steps per host holding a request slot (a key only while there is one). */
  private readonly holding = new Map<string, number>();
  /** Requests of this run per host, claimed and not yet recorded (a key only while there is one). */
  private readonly out = new Map<string, number>();
  /** Turns wanted per host by requests outside the steps (a key only while there is one). */
  private readonly wanted = new Map<string, number>();
  /** Hosts whose last step found nothing to do, and until when (ms) to leave them alone. */
  private readonly idleUntil = new Map<string, number>();
  /** Each host's pool, derived from the crawl's scope on the first turn (it does not change within a run). */
  private pools: HostPools | null = null;
  /** The earliest turn (ms) of a host with no step running, found by the last {@link due}; Infinity: none. */
  private nextWake = Number.POSITIVE_INFINITY;
  /** Whether the last {@link due} found a host due but for a free place in its pool. */
  private slotWanted = false;
  /** Whether the last {@link due} found a host with work left (queued, in flight, or a step running). */
  private work = false;

  /**
   * @param rules how many requests a host may have at once.
   * @param clock the run's clock: {@link waitForTurn} sleeps on it.
   */
  constructor(
    private readonly rules: HostSlots,
    private readonly clock: Clock,
  ) {}

  /**
   * One turn of the loop at `now` (ms): calls `start` once for each step to begin now, one per free
   * request slot of each host whose turn has come ({@link hostTurnAt}), as long as its pool has room
   * (`settings.hostConcurrency` hosts at once) and it has URLs no step has yet (robots.txt first: one
   * step). The caller begins each step and tells {@link started}. Afterwards {@link wakeAt},
   * {@link waitsForSlot} and {@link hasWork} tell what the turn found.
   */
  due(
    now: number,
    settings: CrawlSettings,
    scope: Scope,
    hosts: Iterable<HostState>,
    start: (host: HostState) => void,
  ): void {
    const pools = (this.pools ??= new HostPools(scope));
    this.nextWake = Number.POSITIVE_INFINITY;
    this.slotWanted = false;
    this.work = false;
    for (const host of hosts) {
      const running = this.steps.get(host.origin) ?? 0;
      if (host.pending === 0 && host.inFlight === null && running === 0) continue;
      this.work = true;
      const turnAt = hostTurnAt(host, this.idleUntil.get(host.origin) ?? 0);
      if (turnAt > now) {
        if (running === 0) this.nextWake = Math.min(this.nextWake, turnAt);
        continue;
      }
      if (running === 0 && this.busy(pools.poolOf(host.origin)) >= settings.hostConcurrency) {
        this.slotWanted = true;
        continue;
      }
      const slots = this.rules.slotsOf(settings, host, now);
      const holding = this.holding.get(host.origin) ?? 0;
      const more = host.robots.phase === 'ready' ? Math.min(slots - holding, host.pending - running) : 1 - running;
      for (let n = 0; n < more; n += 1) start(host);
    }
  }

  /**
   * Resolves at `notBefore` (ms, by the clock, never before: a timer may fire by its own clock a little
   * early), the time a claimed request of the host may start (`Claim.notBefore`), or when `signal`
   * aborts; the request that follows then sees the abort and puts its claim back. Any request of the
   * run waits for its host's turn here.
   */
  async waitForTurn(notBefore: number, signal: AbortSignal): Promise<void> {
    const { clock } = this;
    for (let left = notBefore - clock.now(); left > 0 && !signal.aborted; left = notBefore - clock.now()) {
      await clock.sleep(left, signal).catch(() => undefined);
    }
  }

  /** The earliest time (ms) a host with no step running gets its turn, as of the last {@link due}; Infinity: none. */
  wakeAt(): number {
    return this.nextWake;
  }

  /** Whether the last {@link due} left a host whose turn had come waiting for a free place in its pool (due as soon as a step ends). */
  waitsForSlot(): boolean {
    return this.slotWanted;
  }

  /** Whether the last {@link due} found any host with work left. */
  hasWork(): boolean {
    return this.work;
  }

  /** A step for the host began, holding one of its request slots. */
  started(origin: string): void {
    bump(this.steps, origin, 1);
    bump(this.holding, origin, 1);
  }

  /** A step for the host gave its request slot back (its response ended; the step may still be recording). */
  slotFreed(origin: string): void {
    bump(this.holding, origin, -1);
  }

  /**
   * A step for the host ended at `now` (ms), its slot already given back. One that did work may have queued
   * URLs of any host: every idle host is looked at again; one that found nothing leaves its host idle for
   * {@link IDLE_HOST_MS}; one that failed (`didWork` null: the run ends) changes no idle pause.
   */
  ended(origin: string, didWork: boolean | null, now: number): void {
    if (didWork === true) this.idleUntil.clear();
    else if (didWork === false) this.idleUntil.set(origin, now + IDLE_HOST_MS);
    bump(this.steps, origin, -1);
  }

  /** URLs were queued outside a step (a rendered page's requests): no host is left idle for having found nothing. */
  workAdded(): void {
    this.idleUntil.clear();
  }

  /** Whether the host may go on to its next request in the step that holds it: its pool has room, or no host of its pool waits for a turn. */
  mayGoOn(settings: CrawlSettings, hosts: Iterable<HostState>, origin: string): boolean {
    // A step runs only after a turn: the pools exist.
    if (this.pools === null) return true;
    const pool = this.pools.poolOf(origin);
    return this.busy(pool) < settings.hostConcurrency || !this.anyHostWaiting(hosts, pool);
  }

  /** The hosts with a step running. */
  running(): IterableIterator<string> {
    return this.steps.keys();
  }

  /** How many requests of this run to the host are out (claimed, not yet recorded). */
  requestsOut(origin: string): number {
    return this.out.get(origin) ?? 0;
  }

  /** A request of this run to the host was claimed (see {@link requestsOut}). */
  requestStarted(origin: string): void {
    bump(this.out, origin, 1);
  }

  /** A request of this run to the host ended (recorded, released or failed). */
  requestEnded(origin: string): void {
    bump(this.out, origin, -1);
  }

  /**
   * A request outside the steps waits for the host's turn (`render/render-turn.ts`): until the returned
   * function is called (once; later calls do nothing), no step claims the host's next request.
   */
  wantTurn(origin: string): () => void {
    bump(this.wanted, origin, 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      bump(this.wanted, origin, -1);
    };
  }

  /** How many requests outside the steps wait for the host's turn (see {@link wantTurn}). */
  turnsWanted(origin: string): number {
    return this.wanted.get(origin) ?? 0;
  }

  /** How many hosts of `pool` have a step running. */
  private busy(pool: HostPool): number {
    if (this.pools === null) return 0;
    let n = 0;
    for (const origin of this.steps.keys()) if (this.pools.poolOf(origin) === pool) n += 1;
    return n;
  }

  /** Whether a host of `pool` with URLs left has no step running (it waits for a turn among the pool's `hostConcurrency`). */
  private anyHostWaiting(hosts: Iterable<HostState>, pool: HostPool): boolean {
    if (this.pools === null) return false;
    for (const host of hosts)
      if (host.pending > 0 && !this.steps.has(host.origin) && this.pools.poolOf(host.origin) === pool) return true;
    return false;
  }
}

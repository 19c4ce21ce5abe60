/**
 * The crawl loop. It keeps no truth in memory: every claim and every outcome
 * is written to the store in a transaction (see `commit-queue.ts`: the writes
 * that arrive while one is running share the next) before what depends on it
 * happens, so the process running it (a service worker) can be killed between
 * any two statements and a new runner resumes the crawl. What it keeps in
 * memory is a view of what it wrote (the hosts' clocks and counts), so that
 * it does not read them back.
 *
 * One step for one host:
 *
 * ```
 * claim (tx) ──► robots.txt fetch ──► record robots state (tx)
 *       │
 *       ├──► disallowed URLs: rows with blockedBy "robots" (same tx, no request)
 *       └──► fetch page (HEAD/GET) ──► hash, extract links ──► row + new URLs + host clocks (tx)
 * ```
 *
 * Steps for different hosts run side by side (`hostConcurrency`), and so do
 * steps for one host when it gets more than one request at a time
 * (`requestsPerHost`, only without any spacing to keep: see
 * {@link requestSlots}); otherwise a host's next step starts only after its
 * previous response was recorded, and its request waits for the host's gap.
 *
 * A claim leases the frontier entry and marks the host in flight with this
 * runner's `runId`. A lease held by another run id is stale (that worker
 * died mid-request): {@link CrawlRunner.run} releases it first and pushes the
 * host's next allowed time to `now + gap`, since its response ended no later
 * than now.
 */
import { decodeHtml, isHtmlType, looksBinary, parseContentType } from '../links/decode-html.ts';
import { extractLinks } from '../links/extract-links.ts';
import { parseSitemap, sitemapText } from '../links/parse-sitemap.ts';
import type { CrawlRecord, FrontierEntry, HostState, PageRecord, RobotsState } from '../model.ts';
import { backoffMs, isRetryableStatus, isRetryAfterBeyondCap, MAX_BACKOFF_MS, parseRetryAfterMs } from '../politeness/retry-after.ts';
import { gapMs, nextRequestAt, requestSlots } from '../politeness/spacing.ts';
import {
  allowAllPolicy,
  classifyRobotsStatus,
  decodeRobotsBody,
  disallowAllPolicy,
  parseRobots,
  ROBOTS_MAX_BYTES,
  ROBOTS_MAX_REDIRECTS,
  robotsUrlFor,
  type RobotsPolicy,
} from '../robots/robots-policy.ts';
import type { CrawlSettings } from '../settings.ts';
import { sha256Hex } from '../hash.ts';
import { normalizeUrl, originOf } from '../url/normalize-url.ts';
import { createScope, type Scope } from '../url/scope.ts';
import { MAX_REDIRECT_HOPS, QueryVariantCounter, queryVariantsCap, urlTrapReason } from '../url/traps.ts';
import { CommitQueue, type Committed } from './commit-queue.ts';
import { admit, type Candidate, CrawlWrites, finishEntry, foldLinkTallies, unfetchedRow } from './frontier.ts';
import { KnownUrls } from './known-urls.ts';
import { StorageFullError, type Clock, type CrawlStore, type FetchOutcome, type Fetcher, type StoreTx } from './ports.ts';

/** Why a crawl paused by itself when the browser refused to store more. */
export const STORAGE_FULL_MESSAGE =
  'Paused: the browser refused to store more (its storage for Tabcrawl or the disk is full). Nothing stored was lost. Delete crawls you no longer need or free disk space, then resume.';

/** Why a crawl paused by itself when Chrome no longer let Tabcrawl reach a site (`message`: the fetcher's words). */
export function accessLostMessage(message: string): string {
  return `Paused: ${message}. Nothing was lost. Give Tabcrawl access to the site again (Chrome's extension settings, Site access), then resume.`;
}

/** Pauses a running crawl (in a transaction's copy of its record) and says why. */
function pauseWithMessage(crawl: CrawlRecord, message: string, now: number): void {
  if (crawl.state !== 'running') return;
  crawl.state = 'paused';
  crawl.pausedAt = now;
  crawl.message = message;
}

/**
 * A host's robots.txt state taking another host's final answer for its own (a redirect to that host's
 * robots.txt, which one request answers for both): ready, with that answer's status, rules and time.
 */
function adoptRobots(robots: RobotsState, answer: RobotsState): RobotsState {
  return { ...robots, phase: 'ready', status: answer.status, body: answer.body, fetchedAt: answer.fetchedAt, retryAt: 0 };
}

/** Failed robots.txt fetches (5xx, 429, network) before the host's URLs are all recorded as blocked. */
export const ROBOTS_MAX_FAILURES = 3;
/**
 * Most outgoing links kept on one row, and followed, per page: the first ones
 * in document order. A page with 100,000 links costs no more than one with 10,000.
 */
export const MAX_LINKS_PER_PAGE = 10_000;
/** Most rows marked blocked in one transaction, so one transaction stays short. */
const BLOCKED_BATCH = 200;

/**
 * Wait before retrying an unavailable robots.txt, in ms: 5 s after the first failure, 20 s after the second.
 * @see RFC 9309 §2.3.1.4 (unreachable: assume complete disallow)
 */
export function robotsRetryDelayMs(failures: number): number {
  return 5_000 * 4 ** Math.max(0, failures - 1);
}

export interface RunnerDeps {
  store: CrawlStore;
  fetcher: Fetcher;
  clock: Clock;
  /** Identifies this runner (one per worker start); leases of other run ids are stale. */
  runId: string;
  /** Uniform random in [0, 1) for jitter. @default Math.random */
  random?: () => number;
}

type Claim =
  | { kind: 'none' }
  | { kind: 'progress' }
  /** `hopOrigin`: the other site a robots.txt redirect leads to, whose request this also is; null on the host's own. */
  | { kind: 'robots'; url: string; notBefore: number; hopOrigin: string | null }
  /** `slots`: the host's request slots when claimed (see {@link requestSlots}). */
  | { kind: 'fetch'; entry: FrontierEntry; notBefore: number; slots: number };

/**
 * How early, in ms, a host's next request is claimed before its gap ends: the
 * claim's transaction then runs during the wait instead of after it, and the
 * request starts when the gap ends (never before: the step waits for
 * `notBefore`). It is what keeps a host with a Crawl-delay close to its ideal
 * rate when several hosts share the database.
 */
export const CLAIM_AHEAD_MS = 40;

/**
 * Tallied links (see `CrawlWrites.defersLinks`) after which they are added to
 * the linked rows, in one transaction: the inlink counts a results view shows
 * during a fast crawl lag by at most this many links (about 1,400 pages of a
 * dozen links). Also folded when the loop ends and before the crawl is marked
 * finished. A fold rewrites each linked row once however many links it got,
 * so the fewer folds the fewer rewrites: at 4,096 a 2,000-page site of a dozen
 * random links a page had each row rewritten about five times, now under two.
 * Its memory is bounded by the slices it works in (`FOLD_SLICE_URLS`) and the
 * tallies themselves (one URL each: a few MB).
 */
export const FOLD_LINKS_AT = 16_384;

/** How often, in ms, the loop reads the crawl's record again while its steps run (pauses also wake it at once). */
export const VIEW_REFRESH_MS = 250;

/** The loop's view of one crawl it runs (see {@link CrawlRunner.openView}). */
interface CrawlView {
  crawlId: string;
  crawl: CrawlRecord | undefined;
  hosts: Map<string, HostState>;
  /** When `crawl` was last read from the store. */
  readAt: number;
  /** A wake came since: read the crawl again. */
  stale: boolean;
  /** Requests of this run in flight, per host: claimed, and not yet recorded (at several slots, a step that does not go on counts its request out when the response has ended). */
  requestsOut: Map<string, number>;
  /** Links tallied since the last fold was queued (see {@link FOLD_LINKS_AT}). */
  unfolded: number;
  /** Cuts the loop's current wait short and has it read the crawl again (see {@link CrawlRunner.wake}). */
  wake: () => void;
  /** Cuts the loop's current wait short (a request slot came free). */
  poke: () => void;
  /** URLs this run knows the crawl holds (dropped with the run, so a failed transaction's are never trusted). */
  known: KnownUrls;
}

/** True for 2xx statuses. */
const isSuccess = (status: number): boolean => status >= 200 && status < 300;

/** A response header (lower-case name) of a successful outcome, or null. */
const headerOf = (outcome: FetchOutcome, name: string): string | null => (outcome.ok ? (outcome.headers.find(([n]) => n === name)?.[1] ?? null) : null);

/**
 * How many redirects in a row led to `entry`: walks back its referrers while
 * each one is a redirect to the next, up to {@link MAX_REDIRECT_HOPS}.
 * Awaits only calls of `writes`.
 */
async function redirectsBefore(writes: CrawlWrites, entry: FrontierEntry): Promise<number> {
  let hops = 0;
  let url = entry.url;
  let referrer = entry.referrer;
  while (referrer !== null && hops < MAX_REDIRECT_HOPS) {
    const [row] = await writes.getPages([referrer]);
    const isRedirect = row !== undefined && row.status !== null && row.status >= 300 && row.status < 400;
    if (!isRedirect || row.location === null || normalizeUrl(row.location) !== url) break;
    hops += 1;
    url = row.url;
    referrer = row.referrer;
  }
  return hops;
}

export class CrawlRunner {
  private readonly random: () => number;
  /** Parsed robots.txt per crawl and host: derived from the stored body, safe to lose. */
  private readonly policies = new Map<string, { fetchedAt: number | null; policy: RobotsPolicy }>();
  private readonly scopes = new Map<string, Scope>();
  /**
   * Query variants admitted per path, per crawl (the trap rule of `url/traps.ts`).
   * Rebuilt from the store at the start of every {@link CrawlRunner.run}, so a
   * new worker counts on from where the last one stopped.
   */
  private readonly queryVariants = new Map<string, QueryVariantCounter>();
  /** Per crawl being run: the loop's view of it (see {@link CrawlRunner.openView}). */
  private readonly views = new Map<string, CrawlView>();
  /** Every write of the loop goes through here, grouped into as few transactions as the store allows. */
  private readonly commits: CommitQueue;

  constructor(private readonly deps: RunnerDeps) {
    this.random = deps.random ?? Math.random;
    this.commits = new CommitQueue(
      deps.store,
      (committed) => this.committed(committed),
      (tx, crawl) => new CrawlWrites(tx, crawl, this.views.get(crawl.id)?.known ?? null),
    );
  }

  /**
   * Runs the crawl until it finishes, is stopped (state no longer `running`)
   * or `signal` aborts. Safe to call for a crawl another runner left half done.
   * When the store is full, the crawl is paused with {@link STORAGE_FULL_MESSAGE}.
   * @returns the crawl record as it was when the loop ended.
   * @throws StorageFullError when the store is so full that not even the pause could be written.
   */
  async run(crawlId: string, signal: AbortSignal): Promise<CrawlRecord | undefined> {
    const { store, clock } = this.deps;
    let view: CrawlView;
    try {
      await this.recover(crawlId);
      await this.loadQueryVariants(crawlId);
      view = await this.openView(crawlId);
    } catch (error) {
      // Recorded on the crawl, as in the loop: a crawl left `running` with no loop would look stalled.
      if (!(error instanceof StorageFullError)) await this.fail(crawlId, error);
      else if (!(await this.pauseForStorage(crawlId))) throw error;
      return store.getCrawl(crawlId);
    }
    /** Steps running, each for one host: claim, wait for the gap, request, record. */
    const tasks = new Set<Promise<void>>();
    /** Steps running per host (an entry only while there is one), and those of them holding a request slot. */
    const stepsOf = new Map<string, number>();
    const holdingOf = new Map<string, number>();
    const bump = (map: Map<string, number>, origin: string, by: number): void => {
      const value = (map.get(origin) ?? 0) + by;
      if (value > 0) map.set(origin, value);
      else map.delete(origin);
    };
    /** Hosts whose last claim found nothing to do, and until when to leave them alone. */
    const idleUntil = new Map<string, number>();
    // An abort ends the current wait through the waker (a promise of the whole run raced in every turn
    // would keep one reaction per turn until the run ends: memory growing with the crawl).
    const onAbort = (): void => view.wake();
    signal.addEventListener('abort', onAbort, { once: true });
    let failure: unknown = null;

    try {
      while (!signal.aborted && failure === null) {
        // Set before the state is read, so a wake after that read ends this turn's wait.
        const woken = new Promise<void>((resolve) => {
          view.poke = resolve;
          view.wake = () => {
            view.stale = true;
            resolve();
          };
        });
        const crawl = await this.crawlOf(view);
        if (!crawl || crawl.state !== 'running') break;
        const now = clock.now();
        let wakeAt = Number.POSITIVE_INFINITY;
        let hasWork = false;

        for (const host of view.hosts.values()) {
          if (host.pending === 0 && host.inFlight === null && !stepsOf.has(host.origin)) continue;
          hasWork = true;
          const running = stepsOf.get(host.origin) ?? 0;
          const holding = holdingOf.get(host.origin) ?? 0;
          const claimAt = Math.max(this.hostReadyAt(host) - CLAIM_AHEAD_MS, idleUntil.get(host.origin) ?? 0);
          if (claimAt > now) {
            if (running === 0) wakeAt = Math.min(wakeAt, claimAt);
            continue;
          }
          if (running === 0 && stepsOf.size >= crawl.settings.hostConcurrency) continue;
          // One step per free slot, and no more than the URLs of the host no step has yet (robots.txt first: one step).
          const slots = this.slotsOf(crawl.settings, host, now);
          const more = host.robots.phase === 'ready' ? Math.min(slots - holding, host.pending - running) : 1 - running;
          for (let n = 0; n < more; n += 1) {
            bump(stepsOf, host.origin, 1);
            bump(holdingOf, host.origin, 1);
            let holds = true;
            /** Gives the slot back: when the response has ended (several per host), else when the step ends. */
            const freeSlot = (): void => {
              if (!holds) return;
              holds = false;
              bump(holdingOf, host.origin, -1);
            };
            const task: Promise<void> = this.step(
              view,
              crawl,
              host.origin,
              signal,
              () => {
                freeSlot();
                view.poke();
              },
              () => stepsOf.size < crawl.settings.hostConcurrency || !this.anyHostWaiting(view, stepsOf),
            )
              .then((didWork) => {
                // A step that did work may have queued URLs of any host: look at every idle host again.
                if (didWork) idleUntil.clear();
                else idleUntil.set(host.origin, clock.now() + 250);
              })
              .catch((error: unknown) => {
                failure ??= error;
              })
              .finally(() => {
                tasks.delete(task);
                freeSlot();
                bump(stepsOf, host.origin, -1);
              });
            tasks.add(task);
          }
        }

        if (view.unfolded >= FOLD_LINKS_AT) {
          view.unfolded = 0;
          const fold: Promise<void> = this.foldLinks(crawlId)
            .then(() => undefined)
            .catch((error: unknown) => {
              failure ??= error;
            })
            .finally(() => tasks.delete(fold));
          tasks.add(fold);
        }

        if (!hasWork && tasks.size === 0) {
          if (await this.finishIfDone(crawlId)) break;
          wakeAt = Math.min(wakeAt, now + 250);
        }
        const sleeper = new AbortController();
        if (signal.aborted) break;
        const waits: Promise<unknown>[] = [...tasks, woken];
        if (Number.isFinite(wakeAt)) waits.push(clock.sleep(Math.max(0, wakeAt - now), sleeper.signal).catch(() => undefined));
        else if (tasks.size === 0) waits.push(clock.sleep(1000, sleeper.signal).catch(() => undefined));
        // Also re-read the crawl's state now and then while steps run (a pause is also a wake).
        else waits.push(clock.sleep(VIEW_REFRESH_MS, sleeper.signal).catch(() => undefined));
        await Promise.race(waits);
        sleeper.abort();
      }
    } catch (error) {
      // The loop's own reads and writes (the hosts, the end of the crawl): recorded like a step's.
      failure ??= error;
    } finally {
      signal.removeEventListener('abort', onAbort);
      await Promise.allSettled([...tasks]);
      // What was tallied goes into the rows now that the loop stops (a pause, a stop, an error): a full
      // store refuses this too, and the tallies stay stored for the next run to fold.
      if (failure === null) await this.foldLinks(crawlId).catch((error: unknown) => (failure = error));
      // A new run of the crawl (a resume while this one was ending) has a view of its own.
      if (this.views.get(crawlId) === view) this.views.delete(crawlId);
    }
    if (failure instanceof StorageFullError) {
      if (!(await this.pauseForStorage(crawlId))) throw failure;
    } else if (failure !== null) {
      await this.fail(crawlId, failure);
    }
    return store.getCrawl(crawlId);
  }

  /**
   * Ends the current wait of the loop running this crawl, so it reads the
   * crawl's state again now (after a pause) instead of at its next timer.
   * Requests in flight are not touched. Does nothing when the crawl is not run here.
   */
  wake(crawlId: string): void {
    this.views.get(crawlId)?.wake();
  }

  /** When the host's next step may run: its spacing and back-off clocks, and a robots.txt retry time. */
  private hostReadyAt(host: HostState): number {
    const retry = host.robots.phase === 'unavailable' ? host.robots.retryAt : 0;
    return Math.max(nextRequestAt(host), retry);
  }

  /**
   * Releases every lease and in-flight mark of the crawl: left by a worker
   * that died mid-request, or by an earlier loop of this one that ended on a
   * refused write. No step of the crawl runs while `run` starts (one loop per
   * crawl at a time: the caller's rule), so none of them is live.
   */
  private async recover(crawlId: string): Promise<void> {
    await this.deps.store.transaction((tx) => this.releaseLeases(tx, crawlId, () => true, true));
  }

  /**
   * Puts leased entries back in the queue and clears in-flight marks, of the
   * runs `released` picks. The request of a released lease may have reached
   * the server: its host's gap counts from now.
   * @param countAttempt the cut-off request counts as an attempt (a worker that
   *   died mid-request, maybe because of it); not when the store refused to
   *   record an answer.
   */
  private async releaseLeases(tx: StoreTx, crawlId: string, released: (runId: string) => boolean, countAttempt: boolean): Promise<void> {
    const crawl = await tx.getCrawl(crawlId);
    if (!crawl) return;
    const stale = (await tx.leasedEntries(crawlId)).filter((e) => e.leaseRunId !== null && released(e.leaseRunId));
    for (const entry of stale) {
      entry.leaseRunId = null;
      if (countAttempt) entry.attempts += 1;
    }
    if (stale.length > 0) await tx.putEntries(stale);
    const now = this.deps.clock.now();
    const hosts = (await tx.listHosts(crawlId)).filter((h) => h.inFlight !== null && released(h.inFlight.runId));
    for (const host of hosts) {
      host.inFlight = null;
      // Its response ended at the latest now; the gap counts from now.
      host.nextAllowedAt = Math.max(host.nextAllowedAt, now + this.hostGapMs(crawl.settings, host));
    }
    if (hosts.length > 0) await tx.putHosts(hosts);
  }

  /**
   * The store is full: pauses the crawl with {@link STORAGE_FULL_MESSAGE}
   * instead of failing it. The transaction that hit the limit wrote nothing;
   * its URL goes back in the queue (one request repeats on resume).
   * @returns false when even this small write was refused (a store over its
   *   quota refuses every write): then `run` throws the {@link StorageFullError}
   *   and the caller keeps the pause (see `CrawlManager`).
   */
  private async pauseForStorage(crawlId: string): Promise<boolean> {
    const { store, clock } = this.deps;
    return store
      .transaction(async (tx) => {
        await this.releaseLeases(tx, crawlId, () => true, false);
        const crawl = await tx.getCrawl(crawlId);
        if (!crawl || crawl.state !== 'running') return;
        pauseWithMessage(crawl, STORAGE_FULL_MESSAGE, clock.now());
        await tx.putCrawl(crawl);
      })
      .then(
        () => true,
        () => false,
      );
  }

  /** Counts the query variants of every URL the crawl holds (rows and frontier); see {@link CrawlRunner.queryVariants}. */
  private async loadQueryVariants(crawlId: string): Promise<void> {
    const { store } = this.deps;
    const crawl = await store.getCrawl(crawlId);
    if (!crawl) return;
    const counter = new QueryVariantCounter(queryVariantsCap(crawl.settings.maxPages));
    for (const url of await store.knownUrls(crawlId)) counter.add(url);
    this.queryVariants.set(crawlId, counter);
  }

  /**
   * Admits candidates that pass the trap rules (`url/traps.ts`): those a URL
   * breaks on its own here, the query-variant share of its path in `admit`,
   * when the URL is new and the page budget has room.
   */
  private async admitFollowed(writes: CrawlWrites, candidates: Candidate[]): Promise<void> {
    let counter = this.queryVariants.get(writes.crawl.id);
    if (!counter) {
      counter = new QueryVariantCounter(queryVariantsCap(writes.crawl.settings.maxPages));
      this.queryVariants.set(writes.crawl.id, counter);
    }
    const variants = counter;
    await admit(
      writes,
      candidates.filter((c) => urlTrapReason(c.url) === null),
      (c) => variants.admit(c.url),
    );
  }

  /**
   * One step for one host, in one of its request slots: a claim, its request,
   * its record; and the host's next request too when it is due at once (delay
   * 0), claimed in the same transaction that records the previous one, as long
   * as `mayGoOn` agrees: one transaction per page instead of two (a claim, a
   * record), which at several requests per host also lets the steps' records
   * share transactions. Resolves to whether it did anything.
   * @param slotFree called once the step no longer occupies the slot: when the
   *   step ends, or, when it does not go on and the host had more than one
   *   slot when claimed, as soon as its response has ended (its row is still
   *   being recorded: another step's request need not wait for that).
   * @param mayGoOn whether the step may go on with the host's next request
   *   instead of handing the host back to the loop (no other host waiting for
   *   a turn among the crawl's `hostConcurrency`).
   */
  private async step(view: CrawlView, crawl: CrawlRecord, origin: string, signal: AbortSignal, slotFree: () => void, mayGoOn: () => boolean): Promise<boolean> {
    let claim = await this.claim(view, origin);
    if (claim.kind === 'none') return false;
    if (claim.kind === 'progress') return true;
    /** Whether this step counts a request in `view.requestsOut`. */
    let counted = true;
    const uncount = (): void => {
      if (!counted) return;
      counted = false;
      this.requestEnded(view, origin);
    };
    try {
      for (;;) {
        await this.waitUntil(claim.notBefore, signal);
        if (claim.kind === 'robots') {
          const { hopOrigin } = claim;
          try {
            await this.fetchRobots(crawl, origin, claim.url, hopOrigin, signal);
          } finally {
            if (hopOrigin !== null) this.requestEnded(view, hopOrigin);
          }
          break;
        }
        const goesOn = mayGoOn();
        const onResponseEnded = claim.slots > 1 && !goesOn ? (): void => (uncount(), slotFree()) : (): void => undefined;
        const next =
          goesOn
            ? async (writes: CrawlWrites): Promise<Claim> => {
                uncount();
                const following = await this.claimIn(writes, view, origin);
                counted = following.kind === 'fetch' || following.kind === 'robots';
                return following;
              }
            : null;
        const following = await this.fetchEntry(crawl, claim.entry, signal, onResponseEnded, next);
        // Nothing claimed, or blocked rows recorded instead: the host goes back to the loop.
        if (following === null || following.kind === 'none' || following.kind === 'progress') break;
        claim = following;
      }
    } finally {
      uncount();
      slotFree();
    }
    return true;
  }

  /** Whether a host with URLs left has no step running (it waits for a turn among the `hostConcurrency`). */
  private anyHostWaiting(view: CrawlView, stepsOf: ReadonlyMap<string, number>): boolean {
    for (const host of view.hosts.values()) if (host.pending > 0 && !stepsOf.has(host.origin)) return true;
    return false;
  }

  /** One request of this run to the host ended (recorded, released or failed). */
  private requestEnded(view: CrawlView, origin: string): void {
    const left = (view.requestsOut.get(origin) ?? 1) - 1;
    if (left > 0) view.requestsOut.set(origin, left);
    else view.requestsOut.delete(origin);
  }

  /** How many requests the host may have in flight now (see {@link requestSlots}). */
  private slotsOf(settings: CrawlSettings, host: HostState, now: number): number {
    if (settings.requestsPerHost <= 1) return 1;
    const robotsSettled = host.robots.phase === 'ready' || host.robots.phase === 'failed';
    return requestSlots({
      requestsPerHost: settings.requestsPerHost,
      delayMs: settings.delayMs,
      jitterMs: settings.jitterMs,
      robotsSettled,
      crawlDelayMs: robotsSettled ? this.policyFor(settings.productToken, host).crawlDelayMs : null,
      backoffUntil: host.backoffUntil,
      now,
    });
  }

  /**
   * The loop's view of a crawl: its hosts, read once when the run starts and
   * then kept from what each committed batch stored (this runner is the only
   * writer of a running crawl's hosts), and its record, kept likewise and read
   * again after a wake (a pause) or every {@link VIEW_REFRESH_MS}.
   */
  private async openView(crawlId: string): Promise<CrawlView> {
    const { store, clock } = this.deps;
    const hosts = new Map<string, HostState>();
    for (const host of await store.listHosts(crawlId)) hosts.set(host.origin, host);
    const view: CrawlView = { crawlId, crawl: await store.getCrawl(crawlId), hosts, readAt: clock.now(), stale: false, requestsOut: new Map(), unfolded: 0, wake: () => undefined, poke: () => undefined, known: new KnownUrls() };
    this.views.set(crawlId, view);
    return view;
  }

  /** The crawl record for this turn of the loop: read again when the view is stale or old. */
  private async crawlOf(view: CrawlView): Promise<CrawlRecord | undefined> {
    const { store, clock } = this.deps;
    const now = clock.now();
    if (view.crawl !== undefined && !view.stale && now - view.readAt < VIEW_REFRESH_MS) return view.crawl;
    view.stale = false;
    view.readAt = now;
    view.crawl = await store.getCrawl(view.crawlId);
    return view.crawl;
  }

  /** Keeps the views up to date with what a batch stored. */
  private committed({ crawl, hosts, talliedLinks }: Committed): void {
    const view = this.views.get(crawl.id);
    if (!view) return;
    view.crawl = crawl;
    for (const host of hosts) view.hosts.set(host.origin, host);
    view.unfolded += talliedLinks;
  }

  /** Adds the crawl's tallied links to the rows they link to (see {@link FOLD_LINKS_AT}). */
  private foldLinks(crawlId: string): Promise<number> {
    return this.commits.run(crawlId, (writes) => foldLinkTallies(writes), 0);
  }

  /**
   * Resolves at `time` (by the clock, never before: a timer may fire by its
   * own clock a little early) or when `signal` aborts; the fetch that follows
   * then sees the abort and puts its claim back.
   */
  private async waitUntil(time: number, signal: AbortSignal): Promise<void> {
    const { clock } = this.deps;
    for (let left = time - clock.now(); left > 0 && !signal.aborted; left = time - clock.now()) {
      await clock.sleep(left, signal).catch(() => undefined);
    }
  }

  private async claim(view: CrawlView, origin: string): Promise<Claim> {
    return this.commits.run<Claim>(view.crawlId, (writes) => this.claimIn(writes, view, origin), { kind: 'none' });
  }

  /**
   * Claims the host's next request in the transaction of `writes`, when the
   * host may have one now (or within {@link CLAIM_AHEAD_MS}): robots.txt
   * first, URLs robots.txt disallows recorded as blocked on the way.
   */
  private async claimIn(writes: CrawlWrites, view: CrawlView, origin: string): Promise<Claim> {
    const { clock, runId } = this.deps;
    const { crawlId } = view;
    const { crawl, tx } = writes;
    if (crawl.state !== 'running') return { kind: 'none' };
    const host = await writes.host(origin);
    const now = clock.now();
    const readyAt = this.hostReadyAt(host);
    const slots = this.slotsOf(crawl.settings, host, now);
    const out = view.requestsOut.get(origin) ?? 0;
    if ((slots === 1 && host.inFlight !== null) || out >= slots || now < readyAt - CLAIM_AHEAD_MS) return { kind: 'none' };
    /** When the claimed request may start: the end of the host's gap, or now. */
    const notBefore = Math.max(now, readyAt);
    const claimed = (url: string): void => {
      host.inFlight = { url, startedAt: notBefore, runId };
      view.requestsOut.set(origin, out + 1);
    };

    const { robots } = host;
    if (robots.phase === 'pending' || robots.phase === 'unavailable') {
      const hopOrigin = originOf(robots.nextUrl);
      if (hopOrigin === origin) {
        claimed(robots.nextUrl);
        return { kind: 'robots', url: robots.nextUrl, notBefore, hopOrigin: null };
      }
      // A robots.txt redirect to another site (http://example.com's to https://www.example.com's): the hop is
      // a request to that site, so it waits for that site's gap too, and that site waits for it.
      const other = await writes.host(hopOrigin);
      if (robots.nextUrl === robotsUrlFor(hopOrigin) && other.robots.phase === 'ready' && other.robots.redirects === 0) {
        // To that site's own robots.txt, which this crawl has read: its answer, without asking again.
        host.robots = adoptRobots(robots, other.robots);
        return { kind: 'progress' };
      }
      if (other.inFlight !== null || (view.requestsOut.get(hopOrigin) ?? 0) > 0) return { kind: 'none' };
      const startAt = Math.max(notBefore, nextRequestAt(other));
      claimed(robots.nextUrl);
      other.inFlight = { url: robots.nextUrl, startedAt: startAt, runId };
      view.requestsOut.set(hopOrigin, 1);
      return { kind: 'robots', url: robots.nextUrl, notBefore: startAt, hopOrigin };
    }

    const policy = this.policyFor(crawl.settings.productToken, host);
    let blocked = 0;
    while (blocked < BLOCKED_BATCH) {
      const entry = await tx.nextEntry(crawlId, origin);
      if (!entry) {
        // Nothing queued: what is pending is what is leased (in flight, or answered and not yet recorded).
        host.pending = (await tx.leasedEntries(crawlId)).filter((e) => e.origin === origin).length;
        return blocked > 0 ? { kind: 'progress' } : { kind: 'none' };
      }
      const decision = policy.isAllowed(entry.url);
      if (!decision.allowed) {
        const page = unfetchedRow(entry);
        page.blockedBy = 'robots';
        page.blockedRule = decision.rule;
        await finishEntry(writes, page);
        blocked += 1;
        continue;
      }
      entry.leaseRunId = runId;
      await tx.putEntries([entry]);
      claimed(entry.url);
      return { kind: 'fetch', entry, notBefore, slots };
    }
    return { kind: 'progress' };
  }

  /** The robots policy of a host whose robots.txt is settled (`ready` or `failed`). */
  private policyFor(productToken: string, host: HostState): RobotsPolicy {
    const { robots } = host;
    if (robots.phase === 'failed') {
      return disallowAllPolicy(`robots.txt unavailable (${robots.status === null ? 'network error' : `HTTP ${robots.status}`})`);
    }
    if (robots.phase !== 'ready' || robots.body === null) return allowAllPolicy();
    const cacheKey = `${host.crawlId} ${host.origin}`;
    const cached = this.policies.get(cacheKey);
    if (cached && cached.fetchedAt === robots.fetchedAt) return cached.policy;
    const policy = parseRobots(robotsUrlFor(host.origin), robots.body, productToken);
    this.policies.set(cacheKey, { fetchedAt: robots.fetchedAt, policy });
    return policy;
  }

  private scopeOf(crawl: CrawlRecord): Scope {
    let scope = this.scopes.get(crawl.id);
    if (!scope) {
      scope = createScope(crawl.settings);
      this.scopes.set(crawl.id, scope);
    }
    return scope;
  }

  /** The host's gap, in ms, with its current robots Crawl-delay and last response time. */
  private hostGapMs(settings: CrawlSettings, host: HostState): number {
    const settled = host.robots.phase === 'ready' || host.robots.phase === 'failed';
    const crawlDelayMs = settled ? this.policyFor(settings.productToken, host).crawlDelayMs : null;
    return gapMs({ delayMs: settings.delayMs, crawlDelayMs, lastResponseMs: host.lastResponseMs, jitterMs: settings.jitterMs, random: this.random });
  }

  /**
   * Requests the host's robots.txt (or the next hop of its redirects) and records the answer.
   * @param hopOrigin the other site a redirect hop goes to (see `claimIn`): its in-flight mark is cleared
   *   and its gap counts from this answer too; when the hop is that site's own robots.txt and it has not
   *   read it yet, the answer is its robots.txt as well (requested once).
   */
  private async fetchRobots(crawl: CrawlRecord, origin: string, url: string, hopOrigin: string | null, signal: AbortSignal): Promise<void> {
    const { fetcher, clock } = this.deps;
    const outcome = await fetcher.fetch({
      url,
      method: 'GET',
      timeoutMs: crawl.settings.timeoutMs,
      readBody: () => true,
      maxBodyBytes: ROBOTS_MAX_BYTES,
      signal,
    });
    await this.commits.run(
      crawl.id,
      async (writes) => {
        const { crawl: current } = writes;
        const host = await writes.host(origin);
        host.inFlight = null;
        const other = hopOrigin === null ? null : await writes.host(hopOrigin);
        if (other !== null) {
          if (other.inFlight?.url === url) other.inFlight = null;
          const endedAt = signal.aborted ? clock.now() : outcome.endedAt;
          other.lastResponseMs = outcome.endedAt - outcome.startedAt;
          other.nextAllowedAt = Math.max(other.nextAllowedAt, endedAt + this.hostGapMs(current.settings, other));
        }
        if (signal.aborted || (!outcome.ok && outcome.error.code === 'no-access')) {
          host.nextAllowedAt = Math.max(host.nextAllowedAt, clock.now() + this.hostGapMs(current.settings, host));
          // Site access withdrawn mid-crawl: robots.txt is asked again on resume.
          if (!outcome.ok && outcome.error.code === 'no-access') pauseWithMessage(current, accessLostMessage(outcome.error.message), clock.now());
          return;
        }
        const robots = host.robots;
        host.lastResponseMs = outcome.endedAt - outcome.startedAt;
        if (!outcome.ok && outcome.error.code === 'network' && current.counts.fetched === 0 && origin === originOf(current.settings.startUrl)) {
          // The very first request of the crawl failed at the network level: the site is unreachable
          // (refused, DNS, TLS). Say so now instead of retrying robots.txt for half a minute. A timeout
          // is not that: the server took the request, and a slow robots.txt is retried like a 5xx.
          current.state = 'failed';
          current.endedAt = outcome.endedAt;
          current.message = `could not reach ${origin}: ${outcome.error.message}`;
          robots.status = null;
          return;
        }
        const verdict = outcome.ok ? classifyRobotsStatus(outcome.status) : 'unavailable';
        robots.status = outcome.ok ? outcome.status : null;
        // A Location that is not an http(s) URL leads nowhere: like too many redirects, it makes robots.txt unavailable (allow all).
        const target = verdict === 'redirect' && outcome.ok && outcome.location !== null ? normalizeUrl(outcome.location) : null;
        if (target !== null && robots.redirects < ROBOTS_MAX_REDIRECTS) {
          robots.nextUrl = target;
          robots.redirects += 1;
          robots.phase = 'pending';
        } else if (verdict === 'unavailable') {
          robots.failures += 1;
          robots.phase = robots.failures >= ROBOTS_MAX_FAILURES ? 'failed' : 'unavailable';
          // The server's Retry-After, when longer than our schedule, up to the longest back-off we honour.
          const retryAfterMs = Math.min(MAX_BACKOFF_MS, parseRetryAfterMs(headerOf(outcome, 'retry-after'), outcome.endedAt) ?? 0);
          robots.retryAt = robots.phase === 'unavailable' ? outcome.endedAt + Math.max(robotsRetryDelayMs(robots.failures), retryAfterMs) : 0;
          robots.nextUrl = robotsUrlFor(origin);
          robots.redirects = 0;
          if (robots.phase === 'failed' && !outcome.ok && current.counts.fetched === 0 && origin === originOf(current.settings.startUrl)) {
            // The start host never answered at all, retries included (e.g. it drops connections): the site is unreachable.
            current.state = 'failed';
            current.endedAt = outcome.endedAt;
            current.message = `could not reach ${origin}: ${outcome.error.message}`;
          }
        } else {
          // 2xx: parse; 4xx or too many redirects: allow all (RFC 9309 §2.3.1.2-3).
          robots.phase = 'ready';
          robots.retryAt = 0;
          robots.fetchedAt = outcome.endedAt;
          robots.body = verdict === 'parse' && outcome.ok ? decodeRobotsBody(outcome.body ?? new Uint8Array(), outcome.truncated) : null;
        }
        host.nextAllowedAt = outcome.endedAt + this.hostGapMs(current.settings, host);
        const settled = [host];
        if (other !== null && robots.phase === 'ready' && url === robotsUrlFor(other.origin) && other.robots.phase === 'pending' && other.robots.redirects === 0) {
          // The other site's own robots.txt, answered for good: it is that site's too.
          other.robots = adoptRobots(other.robots, robots);
          settled.push(other);
        }
        for (const ready of robots.phase === 'ready' ? settled : []) {
          const sitemaps = this.policyFor(current.settings.productToken, ready).sitemaps;
          const scope = this.scopeOf(current);
          const candidates: Candidate[] = [];
          for (const sitemap of sitemaps) {
            const normalized = normalizeUrl(sitemap);
            if (normalized !== null && scope.check(normalized).inScope) {
              candidates.push({ url: normalized, origin: originOf(normalized), kind: 'sitemap', depth: 0, referrer: robotsUrlFor(ready.origin), anchor: null, isLink: false });
            }
          }
          await this.admitFollowed(writes, candidates);
        }
      },
      undefined,
    );
  }

  /** Fetches one frontier entry (HEAD first when asked) and returns the final outcome and the methods sent. */
  private async request(settings: CrawlSettings, entry: FrontierEntry, signal: AbortSignal): Promise<{ outcome: FetchOutcome; methods: ('GET' | 'HEAD')[] }> {
    const { fetcher } = this.deps;
    const isSitemap = entry.kind === 'sitemap';
    const get = (): Promise<FetchOutcome> =>
      fetcher.fetch({
        url: entry.url,
        method: 'GET',
        timeoutMs: settings.timeoutMs,
        readBody: (status, contentType) => (isSitemap ? isSuccess(status) : contentType === null || isHtmlType(contentType)),
        maxBodyBytes: settings.maxBodyBytes,
        signal,
      });
    if (!settings.headBeforeGet || isSitemap) return { outcome: await get(), methods: ['GET'] };
    const head = await fetcher.fetch({ url: entry.url, method: 'HEAD', timeoutMs: settings.timeoutMs, readBody: () => false, maxBodyBytes: 0, signal });
    if (!head.ok) return { outcome: head, methods: ['HEAD'] };
    const contentType = head.headers.find(([name]) => name === 'content-type')?.[1] ?? null;
    const wantsGet = (isSuccess(head.status) && (contentType === null || isHtmlType(contentType))) || head.status === 405 || head.status === 501;
    if (!wantsGet) return { outcome: head, methods: ['HEAD'] };
    // HEAD then GET of the same URL may go back to back.
    return { outcome: await get(), methods: ['HEAD', 'GET'] };
  }

  /**
   * @param responseEnded called when the response has ended (before it is recorded).
   * @param next run at the end of the transaction that records the answer: claims the host's next request.
   * @returns what `next` claimed; null when it did not run (no `next`, or the answer was not recorded:
   *   a stop, or a retry later).
   */
  private async fetchEntry(
    crawl: CrawlRecord,
    entry: FrontierEntry,
    signal: AbortSignal,
    responseEnded: () => void,
    next: ((writes: CrawlWrites) => Promise<Claim>) | null,
  ): Promise<Claim | null> {
    const { settings } = crawl;
    const { outcome, methods } = await this.request(settings, entry, signal);
    responseEnded();
    const endedAt = outcome.endedAt;

    if (signal.aborted || (!outcome.ok && outcome.error.code === 'aborted')) {
      await this.release(crawl.id, entry);
      return null;
    }
    if (!outcome.ok && outcome.error.code === 'no-access') {
      // Site access withdrawn mid-crawl: pause rather than record every URL left as a network error.
      await this.release(crawl.id, entry, accessLostMessage(outcome.error.message));
      return null;
    }

    const retryable = outcome.ok && isRetryableStatus(outcome.status);
    const retryAfterMs = parseRetryAfterMs(headerOf(outcome, 'retry-after'), endedAt);
    // A Retry-After beyond our longest back-off: the answer is final (see isRetryAfterBeyondCap).
    if (retryable && entry.attempts < settings.maxRetries && !isRetryAfterBeyondCap(retryAfterMs)) {
      await this.retryLater(crawl.id, entry, outcome);
      return null;
    }

    const page = unfetchedRow(entry);
    page.methods = methods;
    page.fetchedAt = outcome.startedAt;
    page.responseTimeMs = outcome.endedAt - outcome.startedAt;
    /** The target of a redirect, queued unless it ends a chain longer than {@link MAX_REDIRECT_HOPS}. */
    let redirect: Candidate | null = null;
    let linkCandidates: Candidate[] = [];
    if (!outcome.ok) {
      page.error = outcome.error;
    } else {
      const header = (name: string): string | null => outcome.headers.find(([n]) => n === name)?.[1] ?? null;
      page.status = outcome.status;
      page.headers = outcome.headers;
      page.statusLine = outcome.wire?.statusLine ?? null;
      page.requestHeaders = outcome.wire?.requestHeaders ?? null;
      page.ipAddress = outcome.wire?.ipAddress ?? null;
      page.contentType = header('content-type');
      const declared = Number.parseInt(header('content-length') ?? '', 10);
      page.contentLength = Number.isFinite(declared) && declared >= 0 ? declared : (outcome.body?.byteLength ?? null);
      page.truncated = outcome.truncated;
      page.location = outcome.location;
      const target = outcome.location === null ? null : normalizeUrl(outcome.location);
      if (target !== null && outcome.status >= 300 && outcome.status < 400) {
        // Redirects are recorded, not followed: the target is queued like a link, at the same depth.
        redirect = { url: target, origin: originOf(target), kind: entry.kind, depth: entry.depth, referrer: entry.url, anchor: null, isLink: false };
      }
      if (outcome.body !== null) {
        page.sha256 = await sha256Hex(outcome.body);
        if (isSuccess(outcome.status)) linkCandidates = await this.discover(crawl, entry, page, outcome.body);
      }
    }

    const scope = this.scopeOf(crawl);
    const inScope = (c: Candidate): boolean => c.depth <= settings.maxDepth && scope.check(c.url).inScope;

    return this.commits.run<Claim | null>(
      crawl.id,
      async (writes) => {
        const { tx, crawl: current } = writes;
        const host = await writes.host(entry.origin);
        // Links found while it was in flight added to its inlinks and anchors: take them from the stored entry.
        const [stored] = await tx.getEntries(crawl.id, [entry.url]);
        if (stored) {
          page.inlinks = stored.inlinks;
          page.anchors = stored.anchors;
        }
        if (page.sha256 !== null) {
          const owner = await tx.bodyOwner(crawl.id, page.sha256);
          if (owner !== undefined && owner !== page.url) {
            // Stored once; its links are still followed: relative ones resolve against this URL, and may
            // lead elsewhere than the first copy's (the same page served at /a/ and /b/).
            page.duplicateOf = owner;
          } else if (owner === undefined && outcome.ok && outcome.body !== null) {
            await tx.putBody({ crawlId: crawl.id, sha256: page.sha256, url: page.url, bytes: outcome.body });
            // `?? 0`: crawls stored before this counter existed lack it.
            current.counts.bytesStored = (current.counts.bytesStored ?? 0) + outcome.body.byteLength;
          }
        }
        const followRedirect = redirect !== null && (await redirectsBefore(writes, entry)) < MAX_REDIRECT_HOPS;
        await finishEntry(writes, page);
        await this.admitFollowed(writes, [...(followRedirect && redirect ? [redirect] : []), ...linkCandidates].filter(inScope));
        if (host.inFlight?.url === entry.url) host.inFlight = null;
        host.lastResponseMs = page.responseTimeMs ?? 0;
        host.nextAllowedAt = endedAt + this.hostGapMs(current.settings, host);
        if (retryable && outcome.ok) {
          host.backoffUntil = endedAt + backoffMs(entry.attempts, retryAfterMs, 0);
        }
        return next === null ? null : next(writes);
      },
      null,
    );
  }

  /** Reads links (HTML) or URLs (sitemap) from a body, fills the row's title and links. */
  private async discover(crawl: CrawlRecord, entry: FrontierEntry, page: PageRecord, body: Uint8Array): Promise<Candidate[]> {
    const { settings } = crawl;
    if (entry.kind === 'sitemap') {
      const sitemap = parseSitemap(await sitemapText(body), entry.url);
      page.links = sitemap.urls.slice(0, MAX_LINKS_PER_PAGE);
      return [
        ...sitemap.urls.map((url): Candidate => ({ url, origin: originOf(url), kind: 'page', depth: entry.depth + 1, referrer: entry.url, anchor: null, isLink: false })),
        ...sitemap.sitemaps.map((url): Candidate => ({ url, origin: originOf(url), kind: 'sitemap', depth: entry.depth, referrer: entry.url, anchor: null, isLink: false })),
      ];
    }
    const { mediaType } = parseContentType(page.contentType);
    if (mediaType !== null && !isHtmlType(mediaType)) return [];
    // Served without a Content-Type: read as HTML, as a browser sniffs it, unless it is binary.
    if (mediaType === null && looksBinary(body)) return [];
    const { text, charset } = decodeHtml(body, page.contentType);
    const found = extractLinks(text, entry.url, charset);
    page.title = found.title;
    // extractLinks lists each URL once, with the text of its first link.
    const kept = found.links.slice(0, MAX_LINKS_PER_PAGE);
    page.links = kept.map((l) => l.url);
    page.linkTexts = kept.map((l) => l.text);
    if (found.metaNofollow && !settings.followNofollow) return [];
    return kept
      .filter((link) => settings.followNofollow || !link.nofollow)
      .map((link): Candidate => ({ url: link.url, origin: originOf(link.url), kind: 'page', depth: entry.depth + 1, referrer: entry.url, anchor: link.text === '' ? null : link.text, isLink: true }));
  }

  /**
   * Puts a claimed entry back in the queue after its fetch was cut short (the crawl stopped) or not sent
   * (no access), its attempt not counted; its host's gap counts from now.
   * @param pauseWith pauses the running crawl with this message, in the same transaction.
   */
  private async release(crawlId: string, entry: FrontierEntry, pauseWith: string | null = null): Promise<void> {
    const { clock } = this.deps;
    await this.commits.run(
      crawlId,
      async (writes) => {
        const { tx, crawl } = writes;
        const host = await writes.host(entry.origin);
        const [stored = entry] = await tx.getEntries(crawlId, [entry.url]);
        stored.leaseRunId = null;
        await tx.putEntries([stored]);
        if (host.inFlight?.url === entry.url) host.inFlight = null;
        host.nextAllowedAt = Math.max(host.nextAllowedAt, clock.now() + this.hostGapMs(crawl.settings, host));
        if (pauseWith !== null) pauseWithMessage(crawl, pauseWith, clock.now());
      },
      undefined,
    );
  }

  /** 429/503 with retries left: requeue the entry and back the host off. */
  private async retryLater(crawlId: string, entry: FrontierEntry, outcome: FetchOutcome & { ok: true }): Promise<void> {
    await this.commits.run(
      crawlId,
      async (writes) => {
        const { tx, crawl } = writes;
        const host = await writes.host(entry.origin);
        if (host.inFlight?.url === entry.url) host.inFlight = null;
        host.lastResponseMs = outcome.endedAt - outcome.startedAt;
        const gap = this.hostGapMs(crawl.settings, host);
        host.nextAllowedAt = outcome.endedAt + gap;
        const retryAfter = parseRetryAfterMs(outcome.headers.find(([n]) => n === 'retry-after')?.[1] ?? null, outcome.endedAt);
        host.backoffUntil = outcome.endedAt + backoffMs(entry.attempts, retryAfter, gap);
        // The stored entry, with what links found while it was in flight added.
        const [stored = entry] = await tx.getEntries(crawlId, [entry.url]);
        stored.attempts = entry.attempts + 1;
        stored.leaseRunId = null;
        await tx.putEntries([stored]);
      },
      undefined,
    );
  }

  /** Marks the crawl finished when nothing is pending anywhere; `failed` when its start URL could not be fetched. */
  private async finishIfDone(crawlId: string): Promise<boolean> {
    const { clock } = this.deps;
    return this.commits.run(
      crawlId,
      async (writes) => {
        const { crawl } = writes;
        if (crawl.state !== 'running') return true;
        const hosts = await writes.listHosts();
        if (hosts.some((h) => h.pending > 0 || h.inFlight !== null)) return false;
        // Every link counted in the rows before the crawl says it is finished.
        await foldLinkTallies(writes);
        const startUrl = normalizeUrl(crawl.settings.startUrl);
        const [start] = startUrl === null ? [undefined] : await writes.getPages([startUrl]);
        crawl.endedAt = clock.now();
        crawl.state = 'finished';
        if (start?.error) {
          crawl.state = 'failed';
          crawl.message = `could not fetch the start URL: ${start.error.message}`;
        } else if (start?.blockedBy === 'robots') {
          crawl.message = `robots.txt does not let us fetch the start URL (${start.blockedRule ?? 'disallowed'})`;
        }
        return true;
      },
      true,
    );
  }

  /** Records an unexpected error (a bug or a storage failure) on the crawl and ends it. */
  private async fail(crawlId: string, error: unknown): Promise<void> {
    const { store, clock } = this.deps;
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    await store.transaction(async (tx) => {
      const crawl = await tx.getCrawl(crawlId);
      if (!crawl || crawl.state !== 'running') return;
      crawl.state = 'failed';
      crawl.endedAt = clock.now();
      crawl.message = `internal error: ${message}`;
      await tx.putCrawl(crawl);
    });
  }
}

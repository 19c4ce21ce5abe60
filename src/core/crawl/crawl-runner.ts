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
 *
 * This module is the loop and its wiring: beginning the steps the scheduler
 * says are due and the folds that are due, waiting, waking. The rest lives
 * beside it, each behind the ports: `crawl-view.ts` (the run's view of the
 * crawl: its record, hosts, and what the run keeps beside them),
 * `host-step.ts` (one step for one host: claim, wait for the turn, request,
 * record), `claim.ts` (what a host requests next, leased in a transaction),
 * `link-folds.ts` (when the run folds the links it tallied, and the folds;
 * the tallies themselves in `link-tallies.ts`), `robots-step.ts` (a
 * robots.txt request and its answer), `fetch-step.ts` (a request of any kind
 * of work, its row, what it leads to; the kinds in `kinds/`), `run-ends.ts`
 * (recovering leases, a full store, a failure, the end of a crawl); the rules
 * per host (robots policy, scope, gap, slots) in `host-rules.ts`; each host's
 * turn, its steps and request slots, its pool and this run's requests in
 * flight in `host-scheduler.ts` (every request waits for its host's turn
 * there); what they share in `run-context.ts`. A new kind of work is a module
 * in `kinds/` and a line in `kinds/registry.ts`, not more of this one.
 */
import type { CrawlRecord, HostState } from '../model.ts';
import { CommitQueue } from './commit-queue.ts';
import { CrawlWrites } from './crawl-writes.ts';
import { CrawlView, VIEW_REFRESH_MS } from './crawl-view.ts';
import { HostRules } from './host-rules.ts';
import { hostStep } from './host-step.ts';
import { Admission } from './admission.ts';
import { RenderLane } from './render/render-lane.ts';
import { endWithFailure, finishIfDone, recoverLeases } from './run-ends.ts';
import type { RunnerDeps, StepContext } from './run-context.ts';

export type { RunnerDeps } from './run-context.ts';

/** What one run's loop and the steps it begins share (one per run). */
interface LoopRun {
  view: CrawlView;
  signal: AbortSignal;
  /** Steps running, each for one host (claim, wait for the gap, request, record), and folds. */
  tasks: Set<Promise<void>>;
  /** The first error of a step, a fold or the loop itself; null while none. */
  failure: unknown;
  /** The crawl record of the current turn: the steps it begins run with it. */
  crawl: CrawlRecord | undefined;
  /** Begins one step for a host: {@link CrawlRunner.beginStep}, bound once per run. */
  start: (host: HostState) => void;
  /** The run's render lane: one page rendered at a time, beside the steps (`render/render-lane.ts`). */
  renders: RenderLane;
}

export class CrawlRunner {
  /** Robots policies, scopes and gaps of the hosts (caches of what is stored). */
  private readonly rules: HostRules;
  /** Which found URLs join the crawl, and the record of those left out (see `admission.ts`). */
  private readonly admission: Admission;
  /** Per crawl being run: the loop's view of it (see `crawl-view.ts`). */
  private readonly views = new Map<string, CrawlView>();
  /** Every write of the loop goes through here, grouped into as few transactions as the store allows. */
  private readonly commits: CommitQueue;
  /** What the steps (`host-step.ts`, `robots-step.ts`, `fetch-step.ts`, `run-ends.ts`) reach. */
  private readonly ctx: StepContext;

  constructor(private readonly deps: RunnerDeps) {
    this.rules = new HostRules(deps.random ?? Math.random);
    this.admission = new Admission(this.rules, (crawlId) => this.views.get(crawlId)?.notCrawled ?? null);
    this.commits = new CommitQueue(
      deps.store,
      // Keeps the view up to date with what a batch stored.
      (committed) => this.views.get(committed.crawl.id)?.committed(committed),
      (tx, crawl) => new CrawlWrites(tx, crawl, this.views.get(crawl.id)?.known ?? null),
    );
    this.ctx = {
      store: deps.store,
      fetcher: deps.fetcher,
      clock: deps.clock,
      runId: deps.runId,
      commits: this.commits,
      rules: this.rules,
      admitFollowed: (writes, candidates) => this.admission.admitFollowed(writes, candidates),
      admitAnyHost: (writes, candidates) => this.admission.admitAnyHost(writes, candidates),
    };
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
      await recoverLeases(this.ctx, crawlId);
      await this.admission.loadQueryVariants(store, crawlId);
      view = await CrawlView.open(store, clock, this.rules, this.commits, crawlId, this.deps.foldLinksAt);
      this.views.set(crawlId, view);
    } catch (error) {
      // Recorded on the crawl, as in the loop: a crawl left `running` with no loop would look stalled.
      await endWithFailure(this.ctx, crawlId, error);
      return store.getCrawl(crawlId);
    }
    const { scheduler, folds } = view;
    const loop: LoopRun = {
      view,
      signal,
      tasks: new Set(),
      failure: null,
      crawl: undefined,
      start: () => undefined,
      renders: new RenderLane(this.ctx, this.deps.renderer ?? null),
    };
    loop.start = (host) => this.beginStep(loop, host);
    const { tasks } = loop;
    // An abort ends the current wait through the waker (a promise of the whole run raced in every turn
    // would keep one reaction per turn until the run ends: memory growing with the crawl).
    const onAbort = (): void => view.wake();
    signal.addEventListener('abort', onAbort, { once: true });

    try {
      while (!signal.aborted && loop.failure === null) {
        // Set before the state is read, so a wake after that read ends this turn's wait.
        const woken = view.woken();
        const crawl = await view.current(store, clock.now());
        if (!crawl || crawl.state !== 'running') break;
        const now = clock.now();
        loop.crawl = crawl;
        // Starts a step for each free request slot of each host whose turn has come (`host-scheduler.ts`).
        scheduler.due(now, crawl.settings, this.rules.scopeOf(crawl), view.hosts.values(), loop.start);
        let wakeAt = scheduler.wakeAt();
        /** A host is due but for a free slot of its pool: due as soon as a step ends. */
        const waitsForSlot = scheduler.waitsForSlot();
        const hasWork = scheduler.hasWork();

        if (folds.isDue()) this.beginFold(loop);
        this.beginRender(loop);

        // Lazy: the gaps are worked out only when the next claim is far enough (never at delay 0).
        const rules = this.rules;
        const runningGaps = function* (): Generator<number> {
          for (const origin of scheduler.running()) {
            const host = view.hosts.get(origin);
            yield host === undefined ? 0 : rules.leastGapMs(crawl.settings, host);
          }
        };
        if (folds.mayFoldWhileIdle(clock.now(), waitsForSlot ? now : wakeAt, runningGaps)) {
          await folds.foldWhileIdle();
          continue;
        }

        if (!hasWork && tasks.size === 0) {
          // The links kept while it ran, in short transactions, before the one that marks the crawl finished.
          await folds.foldAll();
          if (await finishIfDone(this.ctx, crawlId)) break;
          wakeAt = Math.min(wakeAt, now + 250);
        }
        const sleeper = new AbortController();
        if (signal.aborted) break;
        const waits: Promise<unknown>[] = [...tasks, woken];
        if (Number.isFinite(wakeAt))
          waits.push(clock.sleep(Math.max(0, wakeAt - now), sleeper.signal).catch(() => undefined));
        else if (tasks.size === 0) waits.push(clock.sleep(1000, sleeper.signal).catch(() => undefined));
        // Also re-read the crawl's state now and then while steps run (a pause is also a wake).
        else waits.push(clock.sleep(VIEW_REFRESH_MS, sleeper.signal).catch(() => undefined));
        await Promise.race(waits);
        sleeper.abort();
      }
    } catch (error) {
      // The loop's own reads and writes (the hosts, the end of the crawl): recorded like a step's.
      loop.failure ??= error;
    } finally {
      signal.removeEventListener('abort', onAbort);
      // A render cut short goes back in the queue for the next run; the steps end their requests.
      loop.renders.stop();
      await Promise.allSettled([...tasks]);
      // What was tallied goes into the rows now that the loop stops (a pause, a stop, an error): a full
      // store refuses this too, and the tallies stay stored for the next run to fold.
      if (loop.failure === null) await folds.foldAll().catch((error: unknown) => (loop.failure = error));
      // A new run of the crawl (a resume while this one was ending) has a view of its own.
      if (this.views.get(crawlId) === view) this.views.delete(crawlId);
    }
    if (loop.failure !== null) await endWithFailure(this.ctx, crawlId, loop.failure);
    return store.getCrawl(crawlId);
  }

  /** Begins one step for `host` in one of its request slots, with the turn's crawl record (the scheduler's `due` calls it). */
  private beginStep(loop: LoopRun, host: HostState): void {
    const { view, crawl, tasks } = loop;
    if (crawl === undefined) return;
    const { scheduler } = view;
    const { origin } = host;
    scheduler.started(origin);
    let holds = true;
    /** Gives the slot back: when the response has ended (several per host), else when the step ends. */
    const freeSlot = (): void => {
      if (!holds) return;
      holds = false;
      scheduler.slotFreed(origin);
    };
    let didWork: boolean | null = null;
    const task: Promise<void> = hostStep(
      this.ctx,
      view,
      crawl,
      origin,
      loop.signal,
      () => {
        freeSlot();
        view.poke();
      },
      () => scheduler.mayGoOn(crawl.settings, view.hosts.values(), origin),
    )
      .then((worked) => {
        didWork = worked;
      })
      .catch((error: unknown) => {
        loop.failure ??= error;
      })
      .finally(() => {
        tasks.delete(task);
        freeSlot();
        scheduler.ended(origin, didWork, this.deps.clock.now());
      });
    tasks.add(task);
  }

  /** Begins a fold of the tallied links into the frontier's entries, beside the steps (see `FOLD_LINKS_AT`). */
  private beginFold(loop: LoopRun): void {
    const { view, tasks } = loop;
    const fold: Promise<void> = view.folds
      .foldWhileRunning()
      .catch((error: unknown) => {
        loop.failure ??= error;
      })
      .finally(() => tasks.delete(fold));
    tasks.add(fold);
  }

  /** Begins the next render of the crawl's queue beside the steps, when none runs (`render/render-lane.ts`). */
  private beginRender(loop: LoopRun): void {
    const { tasks } = loop;
    const began = loop.renders.begin(loop.view, loop.signal);
    if (began === null) return;
    const task: Promise<void> = began
      .catch((error: unknown) => {
        loop.failure ??= error;
      })
      .finally(() => tasks.delete(task));
    tasks.add(task);
  }

  /**
   * Ends the current wait of the loop running this crawl, so it reads the
   * crawl's state again now (after a pause) instead of at its next timer.
   * Requests in flight are not touched. Does nothing when the crawl is not run here.
   */
  wake(crawlId: string): void {
    this.views.get(crawlId)?.wake();
  }
}

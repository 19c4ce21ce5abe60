/**
 * Runs crawls in this worker: starts new ones, resumes the ones IndexedDB
 * says are running (after any worker start), pauses, resumes, stops, re-runs
 * and deletes them. The only memory it keeps is which crawls this worker is
 * running now, which a new worker rebuilds from the store.
 *
 * A pause does not abort the runner: it writes `paused`, then wakes the
 * runner's loop, which ends after its requests in flight are recorded. A
 * resume that arrives while that loop is still ending marks the crawl
 * `restartWanted`; the loop's end then starts a new one.
 *
 * Starting checks, in order, and refuses with nothing stored: the settings
 * (`invalid-settings`), the start URL against the scope the crawl runs with
 * (session guard included), another running crawl that may request one of
 * its sites (`already-running`), and Chrome's host access to the site
 * (`permission-needed`). Starts and resumes run one at a time, so two
 * requests at once cannot both pass the "already running" check.
 *
 * A crawl with `withCookies` runs on its own runner, whose fetcher sends
 * credentials; every other crawl's fetcher never does.
 */
import {
  createCrawl,
  hostAccessPatterns,
  noteBrowserRestart,
  pauseCrawl,
  resumeCrawl,
  startUrlProblem,
  stopCrawl,
} from '../../core/crawl/crawl-lifecycle.ts';
import { CrawlRunner } from '../../core/crawl/crawl-runner.ts';
import { STORAGE_FULL_MESSAGE } from '../../core/crawl/run-context.ts';
import { StorageFullError, type Clock, type CrawlStore, type Fetcher, type Renderer } from '../../core/crawl/ports.ts';
import type { CrawlRecord } from '../../core/model.ts';
import { type CrawlSettings, renderModeOf, validateSettings, withSessionGuard } from '../../core/settings.ts';
import { originOf } from '../../core/url/normalize-url.ts';
import { sharedSite } from '../../core/url/scope.ts';
import { TabcrawlError } from '../../messaging/protocol.ts';

export interface CrawlManagerDeps {
  store: CrawlStore;
  /** Fetches for crawls without `withCookies`: must send no cookies or credentials. */
  fetcher: Fetcher;
  /**
   * Fetches for crawls with `withCookies`: sends the user's cookies. Without
   * it, such crawls are refused (`invalid-settings` on `withCookies`).
   */
  sessionFetcher?: Fetcher;
  /**
   * Whether Chrome lets Tabcrawl fetch URLs matching all these match patterns
   * (`permissions.contains`). @default always true (tests without a browser)
   */
  hasHostAccess?: (patterns: string[]) => Promise<boolean>;
  clock: Clock;
  /** Renders the pages of crawls that render them (`settings.render`); absent: they are recorded as not rendered. */
  renderer?: Renderer | null;
  /** Identifies this worker start; see {@link CrawlRunner}. */
  runId: string;
  newId: () => string;
  /** Told whether any crawl is running, so the worker can keep itself alive. */
  onActiveChange: (active: boolean) => void;
}

export class CrawlManager {
  private readonly runner: CrawlRunner;
  /** Runs the crawls with `withCookies`; null when no session fetcher was given. */
  private readonly sessionRunner: CrawlRunner | null;
  private readonly running = new Map<string, AbortController>();
  /** Crawls resumed while their previous loop was still ending: run again when it ends. */
  private readonly restartWanted = new Set<string>();
  /**
   * Crawls paused because the store refused even the write of their pause
   * (over its quota, every write fails): their record still says `running`.
   * {@link CrawlManager.view} shows them paused; they are not restarted
   * until the user resumes them. Memory only: after a worker restart such a
   * crawl is tried once more, which writes nothing and requests nothing (its
   * first write is refused), and lands here again.
   */
  private readonly storageFull = new Set<string>();
  /** The tail of the start/resume queue (see {@link CrawlManager.exclusive}). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: CrawlManagerDeps) {
    const runnerDeps = { store: deps.store, clock: deps.clock, runId: deps.runId, renderer: deps.renderer ?? null };
    this.runner = new CrawlRunner({ ...runnerDeps, fetcher: deps.fetcher });
    this.sessionRunner = deps.sessionFetcher ? new CrawlRunner({ ...runnerDeps, fetcher: deps.sessionFetcher }) : null;
  }

  /**
   * Validates the settings and starts a crawl. With `withCookies`, the crawl
   * runs with the session guard's exclude patterns added (`withSessionGuard`).
   * @throws TabcrawlError `invalid-settings` (with per-field messages), `already-running` or `permission-needed`;
   *   nothing is stored then.
   */
  async start(input: Partial<CrawlSettings> & { startUrl: string }): Promise<CrawlRecord> {
    const result = validateSettings(input);
    if (!result.ok) {
      const first = result.errors[0];
      throw new TabcrawlError({
        code: 'invalid-settings',
        message: first?.message ?? 'invalid settings',
        fields: result.errors,
      });
    }
    const settings = withSessionGuard(result.settings);
    const problem = startUrlProblem(settings);
    if (problem) throw new TabcrawlError({ code: 'invalid-settings', message: problem.message, fields: [problem] });
    if (settings.withCookies && this.sessionRunner === null) {
      const message = 'this Tabcrawl cannot crawl with cookies';
      throw new TabcrawlError({ code: 'invalid-settings', message, fields: [{ field: 'withCookies', message }] });
    }
    // Without a renderer, auto reads each page as fetched (the pages it would render say why they were not);
    // always, which asks for nothing else, is refused.
    if (renderModeOf(settings) === 'always' && (this.deps.renderer ?? null) === null) {
      const message =
        'this browser gives Tabcrawl no way to render pages (docs/rendering.md); crawl with Render pages auto or off';
      throw new TabcrawlError({ code: 'invalid-settings', message, fields: [{ field: 'render', message }] });
    }
    return this.exclusive(async () => {
      await this.refuseIfBusy(settings, null);
      await this.refuseWithoutAccess(settings);
      const crawl = await createCrawl(this.deps.store, settings, { id: this.deps.newId(), now: this.deps.clock.now() });
      this.ensureRunning(crawl);
      return crawl;
    });
  }

  /** Resumes every crawl the store says is running. Called on every worker start and by the watchdog alarm. */
  async resumeAll(): Promise<void> {
    for (const crawl of await this.deps.store.listCrawls()) {
      if (crawl.state === 'running' && !this.storageFull.has(crawl.id)) this.ensureRunning(crawl);
    }
  }

  /**
   * What a worker does when it starts: `prepare` (which says whether the browser, or Tabcrawl, has just
   * started), then {@link CrawlManager.resumeAfterBrowserStart} when it has, else {@link CrawlManager.resumeAll}.
   * It takes its turn in the start/resume queue, so call it before any message is handled (at the top level
   * of the background script): a crawl started or resumed while `prepare` runs (the command line starts one
   * as soon as the extension is up, while the first start opens the database) is queued behind it, and so is
   * never noted as interrupted by a restart it did not live through.
   * @param prepare resolves to whether this is the first worker start of a browser session; a failure counts as no.
   */
  workerStarted(prepare: () => Promise<boolean>): Promise<void> {
    return this.exclusive(async () => {
      const isNewSession = await prepare().catch(() => false);
      await (isNewSession ? this.resumeAfterBrowserStart() : this.resumeAll());
    });
  }

  /**
   * The browser (or the extension) just started again, so a crawl still
   * running was interrupted when it closed: notes that on each, then resumes them.
   */
  async resumeAfterBrowserStart(): Promise<void> {
    for (const crawl of await this.deps.store.listCrawls()) {
      if (crawl.state === 'running') await noteBrowserRestart(this.deps.store, crawl.id).catch(() => undefined);
    }
    await this.resumeAll();
  }

  /** The crawl as the user should see it: paused, with the reason, when its pause could not be stored. */
  view(crawl: CrawlRecord): CrawlRecord {
    if (crawl.state !== 'running' || !this.storageFull.has(crawl.id)) return crawl;
    return { ...crawl, state: 'paused', message: STORAGE_FULL_MESSAGE };
  }

  /**
   * Starts a new crawl with the settings of an earlier one.
   * @throws TabcrawlError `not-found`, or `invalid-settings`, `already-running` or `permission-needed` as {@link CrawlManager.start}.
   */
  async rerun(crawlId: string): Promise<CrawlRecord> {
    const earlier = await this.deps.store.getCrawl(crawlId);
    if (!earlier) throw new TabcrawlError({ code: 'not-found', message: `no crawl ${crawlId}` });
    // An imported crawl's settings came from a file: never with the user's cookies (the import turned them off too).
    const cookies = earlier.importedFrom === undefined ? {} : { withCookies: false };
    return this.start({ ...earlier.settings, excludePatterns: [...earlier.settings.excludePatterns], ...cookies });
  }

  /** Pauses a running crawl: no new request starts, the ones in flight are recorded. Other states: unchanged. */
  async pause(crawlId: string): Promise<CrawlRecord> {
    const crawl = await pauseCrawl(this.deps.store, crawlId, this.deps.clock.now());
    if (!crawl) throw new TabcrawlError({ code: 'not-found', message: `no crawl ${crawlId}` });
    this.restartWanted.delete(crawlId);
    this.runner.wake(crawlId);
    this.sessionRunner?.wake(crawlId);
    return crawl;
  }

  /**
   * Runs a paused or stopped crawl again; a running one is answered unchanged.
   * @throws TabcrawlError `not-found`; `already-running` when another crawl of its site runs;
   *   `permission-needed` when Chrome no longer gives access to the site; `bad-request` when it is finished or failed.
   */
  async resume(crawlId: string): Promise<CrawlRecord> {
    return this.exclusive(async () => {
      const current = await this.deps.store.getCrawl(crawlId);
      if (!current) throw new TabcrawlError({ code: 'not-found', message: `no crawl ${crawlId}` });
      if (current.state === 'running' && this.storageFull.delete(crawlId)) {
        // Paused for lack of storage, though the store could not record it: try again.
        this.ensureRunning(current);
        return current;
      }
      if (current.state === 'running') return current;
      if (current.state !== 'paused' && current.state !== 'stopped') {
        throw new TabcrawlError({
          code: 'bad-request',
          message: `a ${current.state} crawl cannot be resumed; re-run it instead`,
        });
      }
      await this.refuseIfBusy(current.settings, crawlId);
      await this.refuseWithoutAccess(current.settings);
      const crawl = await resumeCrawl(this.deps.store, crawlId, this.deps.clock.now());
      if (!crawl) throw new TabcrawlError({ code: 'not-found', message: `no crawl ${crawlId}` });
      if (crawl.state === 'running') {
        if (this.running.has(crawlId)) this.restartWanted.add(crawlId);
        this.ensureRunning(crawl);
      }
      return crawl;
    });
  }

  async stop(crawlId: string): Promise<CrawlRecord> {
    const crawl = await stopCrawl(this.deps.store, crawlId, this.deps.clock.now());
    if (!crawl) throw new TabcrawlError({ code: 'not-found', message: `no crawl ${crawlId}` });
    this.restartWanted.delete(crawlId);
    this.running.get(crawlId)?.abort();
    return crawl;
  }

  async delete(crawlId: string): Promise<void> {
    if (!(await this.deps.store.getCrawl(crawlId)))
      throw new TabcrawlError({ code: 'not-found', message: `no crawl ${crawlId}` });
    // Deleting is how a user frees a full store, which may refuse the write of the stop: delete anyway.
    await stopCrawl(this.deps.store, crawlId, this.deps.clock.now()).catch((error: unknown) => {
      if (!(error instanceof StorageFullError)) throw error;
    });
    this.storageFull.delete(crawlId);
    this.restartWanted.delete(crawlId);
    const controller = this.running.get(crawlId);
    controller?.abort();
    await this.deps.store.deleteCrawl(crawlId);
  }

  /**
   * @throws TabcrawlError `already-running`, naming that crawl, when a running or paused crawl (other than `exceptId`) may request a
   *   site this one may (its start site, an extra site, a subdomain): each crawl keeps its own clocks, so two of
   *   them on one site could request it closer than the delay; and a paused one could not be resumed while the
   *   new one runs, so it would be stranded.
   */
  private async refuseIfBusy(settings: CrawlSettings, exceptId: string | null): Promise<void> {
    for (const crawl of await this.deps.store.listCrawls()) {
      const isPaused = this.view(crawl).state === 'paused';
      if (crawl.id === exceptId || (crawl.state !== 'running' && !isPaused)) continue;
      const site = sharedSite(settings, crawl.settings);
      if (site === null) continue;
      const sameStart = originOf(crawl.settings.startUrl) === originOf(settings.startUrl);
      const by = sameStart ? '' : ` (by the crawl of ${crawl.settings.startUrl})`;
      // A paused crawl would be stranded: it could not be resumed while the new one runs.
      const message = isPaused
        ? `${site} has a paused crawl${by}; resume it, or stop it to start anew`
        : `${site} is already being crawled${by}; stop that crawl first`;
      throw new TabcrawlError({ code: 'already-running', message, crawlId: crawl.id });
    }
  }

  /**
   * @throws TabcrawlError `permission-needed` when Chrome does not give access to every host the crawl may fetch.
   *   The user can restrict Tabcrawl's site access in Chrome; without access, requests would still leave
   *   (CORS hides only the answers) and every URL would be recorded as a network error.
   */
  private async refuseWithoutAccess(settings: CrawlSettings): Promise<void> {
    if (this.deps.hasHostAccess === undefined) return;
    const patterns = hostAccessPatterns(settings);
    if (await this.deps.hasHostAccess(patterns)) return;
    const sites = patterns.map((pattern) => pattern.replace(/\/\*$/, '')).join(', ');
    throw new TabcrawlError({
      code: 'permission-needed',
      message: `Tabcrawl has no access to ${sites}: allow it (Start in the popup asks), or change Tabcrawl's site access in Chrome`,
    });
  }

  /**
   * Runs `work` after every earlier start or resume has settled, so the
   * checks and the write of one cannot interleave with another's.
   */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Starts a runner for the crawl unless this worker runs it already: the session runner for a `withCookies` crawl. */
  private ensureRunning(crawl: CrawlRecord): void {
    const crawlId = crawl.id;
    if (this.running.has(crawlId)) return;
    // A crawl stored before `withCookies` existed has none: it never sends cookies.
    const runner = crawl.settings.withCookies === true ? this.sessionRunner : this.runner;
    if (runner === null) {
      console.error(`crawl ${crawlId} wants cookies, but this worker has no session fetcher`);
      return;
    }
    const controller = new AbortController();
    this.running.set(crawlId, controller);
    this.deps.onActiveChange(true);
    void runner
      .run(crawlId, controller.signal)
      .catch((error: unknown) => {
        if (error instanceof StorageFullError) this.storageFull.add(crawlId);
        else console.error(`crawl ${crawlId} ended with an error`, error);
      })
      .finally(() => {
        this.running.delete(crawlId);
        // Resumed while this run was still ending (a stop aborts it; its last writes take a moment): run it again.
        // A stop or a delete after the resume cleared the wish.
        if (this.restartWanted.delete(crawlId)) {
          this.ensureRunning(crawl);
          return;
        }
        this.deps.onActiveChange(this.running.size > 0);
      });
  }
}

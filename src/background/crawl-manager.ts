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
 */
import { createCrawl, pauseCrawl, resumeCrawl, startUrlProblem, stopCrawl } from '../core/crawl/crawl-lifecycle.ts';
import { CrawlRunner } from '../core/crawl/crawl-runner.ts';
import type { Clock, CrawlStore, Fetcher } from '../core/crawl/ports.ts';
import type { CrawlRecord } from '../core/model.ts';
import { type CrawlSettings, validateSettings } from '../core/settings.ts';
import { originOf } from '../core/url/normalize-url.ts';
import { TabcrawlError } from '../messaging/protocol.ts';

export interface CrawlManagerDeps {
  store: CrawlStore;
  fetcher: Fetcher;
  clock: Clock;
  /** Identifies this worker start; see {@link CrawlRunner}. */
  runId: string;
  newId: () => string;
  /** Told whether any crawl is running, so the worker can keep itself alive. */
  onActiveChange: (active: boolean) => void;
}

export class CrawlManager {
  private readonly runner: CrawlRunner;
  private readonly running = new Map<string, AbortController>();
  /** Crawls resumed while their previous loop was still ending: run again when it ends. */
  private readonly restartWanted = new Set<string>();

  constructor(private readonly deps: CrawlManagerDeps) {
    this.runner = new CrawlRunner({ store: deps.store, fetcher: deps.fetcher, clock: deps.clock, runId: deps.runId });
  }

  /**
   * Validates the settings and starts a crawl.
   * @throws TabcrawlError `invalid-settings` (with per-field messages) or `already-running`.
   */
  async start(input: Partial<CrawlSettings> & { startUrl: string }): Promise<CrawlRecord> {
    const result = validateSettings(input);
    if (!result.ok) {
      const first = result.errors[0];
      throw new TabcrawlError({ code: 'invalid-settings', message: first?.message ?? 'invalid settings', fields: result.errors });
    }
    const problem = startUrlProblem(result.settings);
    if (problem) throw new TabcrawlError({ code: 'invalid-settings', message: problem.message, fields: [problem] });
    await this.refuseIfBusy(result.settings.startUrl, null);
    const crawl = await createCrawl(this.deps.store, result.settings, { id: this.deps.newId(), now: this.deps.clock.now() });
    this.ensureRunning(crawl.id);
    return crawl;
  }

  /** Resumes every crawl the store says is running. Called on every worker start and by the watchdog alarm. */
  async resumeAll(): Promise<void> {
    for (const crawl of await this.deps.store.listCrawls()) {
      if (crawl.state === 'running') this.ensureRunning(crawl.id);
    }
  }

  /**
   * Starts a new crawl with the settings of an earlier one.
   * @throws TabcrawlError `not-found`, or `already-running` as {@link CrawlManager.start}.
   */
  async rerun(crawlId: string): Promise<CrawlRecord> {
    const earlier = await this.deps.store.getCrawl(crawlId);
    if (!earlier) throw new TabcrawlError({ code: 'not-found', message: `no crawl ${crawlId}` });
    return this.start({ ...earlier.settings, excludePatterns: [...earlier.settings.excludePatterns] });
  }

  /** Pauses a running crawl: no new request starts, the ones in flight are recorded. Other states: unchanged. */
  async pause(crawlId: string): Promise<CrawlRecord> {
    const crawl = await pauseCrawl(this.deps.store, crawlId, this.deps.clock.now());
    if (!crawl) throw new TabcrawlError({ code: 'not-found', message: `no crawl ${crawlId}` });
    this.restartWanted.delete(crawlId);
    this.runner.wake(crawlId);
    return crawl;
  }

  /**
   * Runs a paused or stopped crawl again; a running one is answered unchanged.
   * @throws TabcrawlError `not-found`; `already-running` when another crawl of its site runs;
   *   `bad-request` when it is finished or failed.
   */
  async resume(crawlId: string): Promise<CrawlRecord> {
    const current = await this.deps.store.getCrawl(crawlId);
    if (!current) throw new TabcrawlError({ code: 'not-found', message: `no crawl ${crawlId}` });
    if (current.state === 'running') return current;
    if (current.state !== 'paused' && current.state !== 'stopped') {
      throw new TabcrawlError({ code: 'bad-request', message: `a ${current.state} crawl cannot be resumed; re-run it instead` });
    }
    await this.refuseIfBusy(current.settings.startUrl, crawlId);
    const crawl = await resumeCrawl(this.deps.store, crawlId, this.deps.clock.now());
    if (!crawl) throw new TabcrawlError({ code: 'not-found', message: `no crawl ${crawlId}` });
    if (crawl.state === 'running') {
      if (this.running.has(crawlId)) this.restartWanted.add(crawlId);
      this.ensureRunning(crawlId);
    }
    return crawl;
  }

  async stop(crawlId: string): Promise<CrawlRecord> {
    const crawl = await stopCrawl(this.deps.store, crawlId, this.deps.clock.now());
    if (!crawl) throw new TabcrawlError({ code: 'not-found', message: `no crawl ${crawlId}` });
    this.restartWanted.delete(crawlId);
    this.running.get(crawlId)?.abort();
    return crawl;
  }

  async delete(crawlId: string): Promise<void> {
    if (!(await this.deps.store.getCrawl(crawlId))) throw new TabcrawlError({ code: 'not-found', message: `no crawl ${crawlId}` });
    await stopCrawl(this.deps.store, crawlId, this.deps.clock.now());
    this.restartWanted.delete(crawlId);
    const controller = this.running.get(crawlId);
    controller?.abort();
    await this.deps.store.deleteCrawl(crawlId);
  }

  /** @throws TabcrawlError `already-running` when a crawl of this URL's site (other than `exceptId`) runs. */
  private async refuseIfBusy(startUrl: string, exceptId: string | null): Promise<void> {
    const origin = originOf(startUrl);
    const busy = (await this.deps.store.listCrawls()).find(
      (c) => c.id !== exceptId && c.state === 'running' && originOf(c.settings.startUrl) === origin,
    );
    if (busy) {
      throw new TabcrawlError({ code: 'already-running', message: `${origin} is already being crawled; stop that crawl first` });
    }
  }

  private ensureRunning(crawlId: string): void {
    if (this.running.has(crawlId)) return;
    const controller = new AbortController();
    this.running.set(crawlId, controller);
    this.deps.onActiveChange(true);
    void this.runner
      .run(crawlId, controller.signal)
      .catch((error: unknown) => console.error(`crawl ${crawlId} ended with an error`, error))
      .finally(() => {
        this.running.delete(crawlId);
        if (this.restartWanted.delete(crawlId) && !controller.signal.aborted) {
          this.ensureRunning(crawlId);
          return;
        }
        this.deps.onActiveChange(this.running.size > 0);
      });
  }
}

/**
 * Runs crawls in this worker: starts new ones, resumes the ones IndexedDB
 * says are running (after any worker start), stops and deletes them. The only
 * memory it keeps is which crawls this worker is running now, which a new
 * worker rebuilds from the store.
 */
import { createCrawl, startUrlProblem, stopCrawl } from '../core/crawl/crawl-lifecycle.ts';
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
    const origin = originOf(result.settings.startUrl);
    const busy = (await this.deps.store.listCrawls()).find((c) => c.state === 'running' && originOf(c.settings.startUrl) === origin);
    if (busy) {
      throw new TabcrawlError({ code: 'already-running', message: `${origin} is already being crawled; stop that crawl first` });
    }
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

  async stop(crawlId: string): Promise<CrawlRecord> {
    const crawl = await stopCrawl(this.deps.store, crawlId, this.deps.clock.now());
    if (!crawl) throw new TabcrawlError({ code: 'not-found', message: `no crawl ${crawlId}` });
    this.running.get(crawlId)?.abort();
    return crawl;
  }

  async delete(crawlId: string): Promise<void> {
    if (!(await this.deps.store.getCrawl(crawlId))) throw new TabcrawlError({ code: 'not-found', message: `no crawl ${crawlId}` });
    await stopCrawl(this.deps.store, crawlId, this.deps.clock.now());
    const controller = this.running.get(crawlId);
    controller?.abort();
    await this.deps.store.deleteCrawl(crawlId);
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
        this.deps.onActiveChange(this.running.size > 0);
      });
  }
}

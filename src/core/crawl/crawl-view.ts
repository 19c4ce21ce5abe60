/**
 * The crawl loop's view of one crawl it runs: its hosts, read once when the run starts and then kept
 * from what each committed batch stored (the runner is the only writer of a running crawl's hosts),
 * and its record, kept likewise and read again after a wake (a pause) or every
 * {@link VIEW_REFRESH_MS}; plus what the run keeps beside them (its host scheduler, its link folds,
 * the URLs it knows) and the waker that cuts the loop's wait short. One per run, dropped with it.
 */
import type { CrawlRecord, HostState } from '../model.ts';
import type { CommitQueue, Committed } from './commit-queue.ts';
import type { HostRules } from './host-rules.ts';
import { HostScheduler } from './host-scheduler.ts';
import { KnownUrls } from './known-urls.ts';
import { LinkFolds } from './link-folds.ts';
import { RecordedUrls } from './not-crawled.ts';
import type { Clock, CrawlStore } from './ports.ts';
import { RowWaiters } from './render/row-waiters.ts';

/** How often, in ms, the loop reads the crawl's record again while its steps run (pauses also wake it at once). */
export const VIEW_REFRESH_MS = 250;

export class CrawlView {
  /** The crawl's record as last read or committed; undefined when the crawl is gone. */
  crawl: CrawlRecord | undefined;
  /** When `crawl` was last read from the store (the clock's ms). */
  private readAt: number;
  /** A wake came since: read the crawl again. */
  private stale = false;
  /**
   * Each host's turn, its steps and slots, and this run's requests in flight, per host: claimed, and not yet
   * recorded (at several slots, a step that does not go on counts its request out when the response has ended).
   */
  readonly scheduler: HostScheduler;
  /** The run's folds of tallied links, and when each is due. */
  readonly folds: LinkFolds;
  /** URLs this run knows the crawl holds (dropped with the run, so a failed transaction's are never trusted). */
  readonly known = new KnownUrls();
  /** URLs this run recorded as not crawled (dropped with the run likewise). */
  readonly notCrawled = new RecordedUrls();
  /** The rendered page's requests waiting for their rows (`render/row-waiters.ts`). */
  readonly rowWaiters = new RowWaiters();
  /** Cuts the loop's current wait short and has it read the crawl again (see {@link CrawlView.woken}). */
  wake: () => void = () => undefined;
  /** Cuts the loop's current wait short (a request slot came free). */
  poke: () => void = () => undefined;

  private constructor(
    readonly crawlId: string,
    crawl: CrawlRecord | undefined,
    /** The crawl's hosts by origin, as last committed. */
    readonly hosts: Map<string, HostState>,
    now: number,
    scheduler: HostScheduler,
    folds: LinkFolds,
  ) {
    this.crawl = crawl;
    this.readAt = now;
    this.scheduler = scheduler;
    this.folds = folds;
  }

  /**
   * Reads the crawl's hosts and record from the store for a new run.
   * @param foldLinksAt tallied links after which a fold while running is due (see `FOLD_LINKS_AT`).
   */
  static async open(
    store: CrawlStore,
    clock: Clock,
    rules: HostRules,
    commits: CommitQueue,
    crawlId: string,
    foldLinksAt?: number,
  ): Promise<CrawlView> {
    const hosts = new Map<string, HostState>();
    for (const host of await store.listHosts(crawlId)) hosts.set(host.origin, host);
    const crawl = await store.getCrawl(crawlId);
    return new CrawlView(
      crawlId,
      crawl,
      hosts,
      clock.now(),
      new HostScheduler(rules, clock),
      new LinkFolds(commits, crawlId, foldLinksAt),
    );
  }

  /**
   * A promise of the next wake or poke: set before the loop reads the state of a turn, so that a wake
   * after that read ends the turn's wait.
   */
  woken(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.poke = resolve;
      this.wake = () => {
        this.stale = true;
        resolve();
      };
    });
  }

  /** The crawl record for this turn of the loop: read again when the view is stale or older than {@link VIEW_REFRESH_MS}. */
  async current(store: CrawlStore, now: number): Promise<CrawlRecord | undefined> {
    if (this.crawl !== undefined && !this.stale && now - this.readAt < VIEW_REFRESH_MS) return this.crawl;
    this.stale = false;
    this.readAt = now;
    this.crawl = await store.getCrawl(this.crawlId);
    return this.crawl;
  }

  /** Keeps the view up to date with what a batch stored. */
  committed({ crawl, hosts, talliedLinks, rows }: Committed): void {
    this.crawl = crawl;
    for (const host of hosts) this.hosts.set(host.origin, host);
    this.folds.tallied(talliedLinks);
    this.rowWaiters.written(rows);
  }
}

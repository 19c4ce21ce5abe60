/**
 * Group commit: the crawl loop's writes (claims, finished pages, robots.txt
 * answers) queue here, and every write that arrives while a transaction is
 * running goes into the next one, together. With eight requests in flight,
 * eight finished pages cost one IndexedDB transaction instead of eight: one
 * read of the crawl record and of each host, one write of each, one write of
 * the rows (a page linked from all eight is rewritten once) and of the results
 * chunks they fall in.
 *
 * A batch runs its works one after the other, in the order they were queued,
 * inside one store transaction: each work sees what the works before it
 * changed, exactly as if each had had a transaction of its own, and the batch
 * is atomic (all of it is stored, or none: a worker killed mid-commit loses the
 * whole batch, whose entries are still leased, and a new runner requests them
 * again). A work that throws fails every work of its batch with that error,
 * as the transaction they shared wrote nothing.
 */
import type { CrawlRecord, HostState } from '../model.ts';
import { CrawlWrites } from './crawl-writes.ts';
import type { CrawlStore, StoreTx } from './ports.ts';

/** A write of the crawl loop: awaits nothing but calls of `writes` and its `tx` (it runs inside a transaction). */
export type CommitWork<T> = (writes: CrawlWrites) => Promise<T>;

/** What a committed batch left of a crawl: its record and the hosts the batch read or changed. */
export interface Committed {
  crawl: CrawlRecord;
  hosts: HostState[];
  /** Links the batch tallied instead of counting them at once (see `CrawlWrites`'s tallies). */
  talliedLinks: number;
  /** URLs of the rows the batch wrote. */
  rows: readonly string[];
}

interface Job {
  crawlId: string;
  work: CommitWork<unknown>;
  /** The result when the crawl no longer exists (deleted): the work is not run. */
  ifGone: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Most works in one batch: keeps one transaction short (a claim that finds
 * robots-blocked URLs records up to 200 rows) while a queue of this size only
 * builds up when the store is the bottleneck.
 */
export const MAX_BATCH = 64;

export class CommitQueue {
  private queue: Job[] = [];
  private draining = false;

  /**
   * @param onCommit told of each crawl a batch touched, after the batch is
   *   stored, with the records as stored (the runner keeps its view of the
   *   hosts from this instead of reading them again).
   */
  constructor(
    private readonly store: CrawlStore,
    private readonly onCommit: (committed: Committed) => void = () => undefined,
    /** Makes the writes of one crawl in one transaction (the runner adds its cache of known URLs). */
    private readonly open: (tx: StoreTx, crawl: CrawlRecord) => CrawlWrites = (tx, crawl) => new CrawlWrites(tx, crawl),
  ) {}

  /**
   * Runs `work` in the next transaction, with the crawl's record and hosts as
   * that transaction sees them. Resolves once it is stored.
   * @param ifGone returned, without running `work`, when the crawl does not exist.
   * @throws what the store throws (e.g. `StorageFullError`) or any work of the batch threw.
   */
  run<T>(crawlId: string, work: CommitWork<T>, ifGone: T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ crawlId, work, ifGone, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        // After the current task's other synchronous work: works queued in the same turn share the first batch.
        queueMicrotask(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const jobs = this.queue.splice(0, MAX_BATCH);
      let touched: CrawlWrites[] = [];
      try {
        const results = await this.store.transaction(async (tx) => {
          const writesOf = new Map<string, CrawlWrites | null>();
          const out: unknown[] = [];
          for (const job of jobs) {
            let writes = writesOf.get(job.crawlId);
            if (writes === undefined) {
              const crawl = await tx.getCrawl(job.crawlId);
              writes = crawl === undefined ? null : this.open(tx, crawl);
              writesOf.set(job.crawlId, writes);
            }
            out.push(writes === null ? job.ifGone : await job.work(writes));
          }
          touched = [...writesOf.values()].filter((writes): writes is CrawlWrites => writes !== null);
          for (const writes of touched) await writes.flush();
          return out;
        });
        for (const writes of touched)
          this.onCommit({
            crawl: writes.crawl,
            hosts: writes.touchedHosts(),
            talliedLinks: writes.talliedLinks,
            rows: writes.writtenRows,
          });
        jobs.forEach((job, i) => job.resolve(results[i]));
      } catch (error) {
        for (const job of jobs) job.reject(error);
      }
    }
    this.draining = false;
  }
}

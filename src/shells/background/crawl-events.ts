/**
 * The push channel's sending side: the background tells open pages when a
 * crawl changed, so the popup and the results tab stay live without asking
 * the worker every second.
 *
 * Two parts, both platform-free (the browser call is passed in):
 * - {@link observeCrawlChanges} wraps a {@link CrawlStore}: every transaction
 *   that writes a crawl's record or hosts, and every delete, is reported once
 *   it has committed (so a page that reads on the event sees the change);
 * - {@link CrawlEvents} turns those reports into `crawl/changed` events, at
 *   most one per crawl every {@link CRAWL_EVENT_MIN_MS}, the last one always
 *   (a burst of 100 pages a second costs the pages four reads a second).
 */
import type { CrawlStore, StoreTx } from '../../core/crawl/ports.ts';
import type { EventMessage } from '../../messaging/protocol.ts';

/** Least time between two `crawl/changed` events of one crawl, in ms. */
export const CRAWL_EVENT_MIN_MS = 250;

/** Called after a write to a crawl has committed; `isDeleted` once it is gone. */
export type CrawlChangeListener = (crawlId: string, isDeleted: boolean) => void;

/**
 * The store, reporting to `onChange` each crawl whose record or hosts a
 * committed transaction wrote, and each deleted crawl. A transaction that
 * failed reports nothing. Reads pass through untouched.
 */
export function observeCrawlChanges(store: CrawlStore, onChange: CrawlChangeListener): CrawlStore {
  return Object.assign(Object.create(store) as CrawlStore, {
    async transaction<T>(work: (tx: StoreTx) => Promise<T>): Promise<T> {
      const changed = new Set<string>();
      const result = await store.transaction((tx) => {
        const observed: StoreTx = Object.assign(Object.create(tx) as StoreTx, {
          putCrawl: (crawl: Parameters<StoreTx['putCrawl']>[0]) => {
            changed.add(crawl.id);
            return tx.putCrawl(crawl);
          },
          putHosts: (hosts: Parameters<StoreTx['putHosts']>[0]) => {
            for (const host of hosts) changed.add(host.crawlId);
            return tx.putHosts(hosts);
          },
        });
        return work(observed);
      });
      for (const crawlId of changed) onChange(crawlId, false);
      return result;
    },
    async deleteCrawl(crawlId: string): Promise<void> {
      await store.deleteCrawl(crawlId);
      onChange(crawlId, true);
    },
  });
}

/** Timers, injected so tests run on a fake clock. */
export interface EventTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
}

const realTimers: EventTimers = { now: () => Date.now(), setTimeout: (callback, ms) => setTimeout(callback, ms) };

/**
 * Sends `crawl/changed` events: the first change of a crawl at once, later
 * ones no closer than {@link CRAWL_EVENT_MIN_MS} to the previous event (one
 * event then stands for all the changes in between). A delete is sent at once.
 */
export class CrawlEvents {
  /** When the last event of each crawl was sent, ms since the epoch. */
  private readonly lastSentAt = new Map<string, number>();
  /** Crawls with an event scheduled. */
  private readonly scheduled = new Set<string>();
  /** Crawls deleted: an event scheduled before the delete is dropped. */
  private readonly deleted = new Set<string>();

  /**
   * @param post sends one event to every open page (`runtime.sendMessage`); a rejection (no page open) is ignored.
   */
  constructor(
    private readonly post: (message: EventMessage) => Promise<unknown>,
    private readonly timers: EventTimers = realTimers,
    private readonly minIntervalMs: number = CRAWL_EVENT_MIN_MS,
  ) {}

  /** Reports a change of `crawlId`; see the class comment for when its event is sent. */
  readonly changed: CrawlChangeListener = (crawlId, isDeleted) => {
    if (isDeleted) {
      this.lastSentAt.delete(crawlId);
      this.deleted.add(crawlId);
      this.send(crawlId, true);
      return;
    }
    if (this.scheduled.has(crawlId)) return;
    const waitMs = (this.lastSentAt.get(crawlId) ?? Number.NEGATIVE_INFINITY) + this.minIntervalMs - this.timers.now();
    if (waitMs <= 0) {
      this.send(crawlId, false);
      return;
    }
    this.scheduled.add(crawlId);
    this.timers.setTimeout(() => {
      this.scheduled.delete(crawlId);
      if (!this.deleted.has(crawlId)) this.send(crawlId, false);
    }, waitMs);
  };

  private send(crawlId: string, isDeleted: boolean): void {
    if (!isDeleted) this.lastSentAt.set(crawlId, this.timers.now());
    // No page open is the usual case: the browser then rejects, and nobody needed the event.
    this.post({ event: 'crawl/changed', payload: { crawlId, isDeleted } }).catch(() => undefined);
  }
}

/**
 * When one run of a crawl folds the links it tallied (see `link-tallies.ts`) into the rows and entries
 * they name, and the folds themselves as transactions of the commit queue: a fold of the entries while
 * the crawl runs, every {@link FOLD_LINKS_AT} links; a small fold into the rows while the loop is idle
 * (`mayFoldWhileIdle`); and a whole fold at the loop's end or before the crawl is marked finished. The
 * crawl runner keeps one per run and asks it, at each turn, whether a fold is due.
 */
import type { CommitQueue } from './commit-queue.ts';
import {
  FOLD_SLICE_URLS,
  foldLinkTallies,
  IDLE_FOLD_URLS,
  mayFoldWhileIdle,
  mergeLinkTallies,
} from './link-tallies.ts';

/**
 * Tallied links (see `CrawlWrites`'s tallies) after which they are added to
 * the linked frontier entries, in one transaction, so that a page's row
 * starts with the links found before it was fetched. The links to pages
 * already fetched are kept, and added to their rows when the loop ends
 * (a pause, a stop, the end of the crawl): a results view shows a fetched
 * page's inlinks as they were when it was fetched until then. Rewriting
 * those rows at every fold made a crawl slow down as it grew (see
 * `foldLinkTallies`). Its memory is bounded by the slices it works in
 * (`FOLD_SLICE_URLS`) and the tallies themselves (one URL each: a few MB).
 */
export const FOLD_LINKS_AT = 16_384;

/**
 * About how many linked URLs one transaction of the fold at the loop's end (or before the crawl is
 * marked finished) adds up, so that the pages reading the database are not held up for long however
 * many links a large crawl kept (a tally kept by a fold while running, up to a fold's URLs, goes whole).
 * The tallies are first rewritten as tallies of distinct URLs of this size (`mergeLinkTallies`), so that
 * each row is rewritten once, not once per transaction that its tallies fall in.
 */
export const FOLD_TRANSACTION_URLS = FOLD_SLICE_URLS;

/** The link folds of one run of one crawl: how many links wait, and the folds, each through the commit queue. */
export class LinkFolds {
  /** Links tallied since the last fold while running was begun (see {@link FOLD_LINKS_AT}). */
  private unfolded = 0;
  /**
   * Whether tallies may be stored that a fold while idle could take (see `mayFoldWhileIdle`): set by
   * every batch that tallied links (and at the start of a run, for what an earlier run left), cleared
   * by a fold that left none; `stuck` when the oldest is too large for one, until a fold while running
   * splits it.
   */
  private idle: 'none' | 'some' | 'stuck' = 'some';

  /**
   * @param commits the runner's commit queue: every fold is one or more of its transactions.
   * @param foldLinksAt tallied links after which {@link LinkFolds.isDue} says a fold while running is due.
   */
  constructor(
    private readonly commits: CommitQueue,
    private readonly crawlId: string,
    private readonly foldLinksAt: number = FOLD_LINKS_AT,
  ) {}

  /** Told of each committed batch's tallied links (0 when it tallied none). */
  tallied(links: number): void {
    this.unfolded += links;
    if (links > 0 && this.idle === 'none') this.idle = 'some';
  }

  /** Whether enough links were tallied since the last fold while running for the next ({@link FOLD_LINKS_AT}). */
  isDue(): boolean {
    return this.unfolded >= this.foldLinksAt;
  }

  /**
   * Whether the loop may fold into the rows now (see `mayFoldWhileIdle`): some tallies a fold while idle
   * can take may be stored, and no request would wait for it.
   * @param now the clock's time, ms.
   * @param nextClaimAt when the next claim of a host without a running step is due (ms; infinite when none).
   * @param runningGapsMs the least gaps of the hosts with a step running, ms: called only when it matters.
   */
  mayFoldWhileIdle(now: number, nextClaimAt: number, runningGapsMs: () => Iterable<number>): boolean {
    return this.idle === 'some' && mayFoldWhileIdle(now, nextClaimAt, runningGapsMs());
  }

  /**
   * Begins a fold into the frontier's entries beside the steps, and counts the tallied links from 0
   * again. It splits the tallies it keeps into small ones, which a fold while idle can take.
   */
  foldWhileRunning(): Promise<void> {
    this.unfolded = 0;
    return this.foldAll(true).then(() => void (this.idle = 'some'));
  }

  /** Folds the oldest kept links, up to {@link IDLE_FOLD_URLS}, into their rows and entries (see `mayFoldWhileIdle`). */
  async foldWhileIdle(): Promise<void> {
    const { updated, more } = await this.commits.run(
      this.crawlId,
      (writes) => foldLinkTallies(writes, { maxUrls: IDLE_FOLD_URLS, sliceUrls: IDLE_FOLD_URLS, fitting: true }),
      { updated: 0, more: false },
    );
    if (!more) this.idle = 'none';
    else if (updated === 0) this.idle = 'stuck';
  }

  /**
   * Adds the crawl's tallied links to the rows and entries they link to (see {@link FOLD_LINKS_AT}), in
   * transactions of about {@link FOLD_TRANSACTION_URLS} URLs each.
   * @param entriesOnly to the frontier entries only, those of fetched rows kept for the fold at the loop's end.
   */
  async foldAll(entriesOnly = false): Promise<void> {
    const { commits, crawlId } = this;
    // A full fold first adds up each URL's tallies, so that it rewrites each row once, not once per transaction.
    if (!entriesOnly) await commits.run(crawlId, (writes) => mergeLinkTallies(writes, FOLD_TRANSACTION_URLS), false);
    for (;;) {
      const { more } = await commits.run(
        crawlId,
        // One slice a transaction: the rows it updates are written together, each result chunk once.
        (writes) =>
          foldLinkTallies(
            writes,
            entriesOnly ? { entriesOnly } : { maxUrls: FOLD_TRANSACTION_URLS, sliceUrls: FOLD_TRANSACTION_URLS },
          ),
        { updated: 0, more: false },
      );
      if (!more) return;
    }
  }
}

/**
 * The writes of one store transaction of a crawl (`CrawlWrites`): the crawl
 * record, the host states and the page rows it touches, read once and written
 * once at its end, and the links to known URLs it tallies. Every step of a
 * crawl (a claim, a fetch, admission, a fold) works through one.
 * Its methods await nothing but {@link StoreTx} calls, so they can run
 * inside an IndexedDB transaction.
 */
import { robotsUrlFor } from '../robots/robots-policy.ts';
import type { CrawlRecord, HostState, PageRecord } from '../model.ts';
import type { KnownUrls } from './known-urls.ts';
import type { StoreTx } from './ports.ts';

/**
 * Most distinct anchor texts kept per URL (each at most 200 characters, as
 * `extractLinks` cuts them): every text a site uses for a URL ("index" and
 * "General Index"), the first ones found when a URL has more.
 */
export const MAX_ANCHORS_PER_URL = 50;

/** A host seen for the first time: robots.txt not fetched yet, no request made. */
export function newHostState(crawlId: string, origin: string): HostState {
  return {
    crawlId,
    origin,
    robots: {
      phase: 'pending',
      nextUrl: robotsUrlFor(origin),
      redirects: 0,
      failures: 0,
      retryAt: 0,
      status: null,
      body: null,
      fetchedAt: null,
    },
    nextAllowedAt: 0,
    lastResponseMs: 0,
    backoffUntil: 0,
    inFlight: null,
    pending: 0,
  };
}

/** Adds `anchor` to `anchors` when new and there is room; returns whether it changed. */
export function addAnchor(anchors: string[], anchor: string | null): boolean {
  if (anchor === null || anchor === '' || anchors.length >= MAX_ANCHORS_PER_URL || anchors.includes(anchor))
    return false;
  anchors.push(anchor);
  return true;
}

/**
 * The crawl record, the host states and the page rows touched by one
 * transaction, read once and written once at the end, so that two steps of
 * the same transaction never overwrite each other's changes, and a row
 * changed by several steps (a page linked from every page of a batch) is
 * written once. Frontier entries are not held here: they are written at once,
 * because claims find them through the store's queue index.
 */
export class CrawlWrites {
  /**
   * Links to URLs the crawl already knows are tallied (written as one small
   * `LinkTally` (`ports.ts`) per transaction) instead of rewriting each linked row or
   * entry at once, and added to them later by `foldLinkTallies` (`link-tallies.ts`): a crawl
   * would otherwise rewrite about a dozen rows per page, and a row linked from
   * every page once per page. Since issue 19 at one request per host too (it
   * was at several only): 54 → 79 pages/s there, the worker busy 4.9 ms a page
   * instead of 8.2 (`npm run bench -- --parts 5 --parallel 1 --profile`).
   */
  private readonly tally = new Map<string, { inlinks: number; anchors: string[] }>();
  /** Links tallied by this transaction (one per linked URL and page). */
  talliedLinks = 0;
  private readonly hosts = new Map<string, HostState>();
  /** Rows read or written in this transaction, by URL; null: known to be absent. */
  private readonly pages = new Map<string, PageRecord | null>();
  private readonly changedPages = new Set<string>();
  /** URLs of the rows {@link flush} wrote (a rendered page's requests wait for them: `render/row-waiters.ts`). */
  readonly writtenRows: string[] = [];
  /** The crawl record as read, to write it back only when a step changed it (most claims do not). */
  private readonly crawlAsRead: string;
  /**
   * @param known URLs the running crawl is known to hold (see `known-urls.ts`): links to them are
   *   tallied without a lookup. Give one only while this run is the crawl's only writer.
   */
  constructor(
    readonly tx: StoreTx,
    readonly crawl: CrawlRecord,
    private readonly known: KnownUrls | null = null,
  ) {
    this.crawlAsRead = JSON.stringify(crawl);
  }

  /** Which of these URLs the crawl holds (its own rows of this transaction included). */
  async knownOf(urls: string[]): Promise<boolean[]> {
    const answer = urls.map((url) => this.known?.has(url) === true || (this.pages.get(url) ?? null) !== null);
    const unsure = urls.filter((_, i) => !answer[i]);
    if (unsure.length === 0) return answer;
    const stored = await this.tx.knownOf(this.crawl.id, unsure);
    let next = 0;
    return answer.map((isKnown, i) => {
      if (isKnown) return true;
      const found = stored[next++] === true;
      if (found) this.known?.add(urls[i] ?? '');
      return found;
    });
  }

  /** Remembers a URL this transaction queued (see {@link knownOf}). */
  queued(url: string): void {
    this.known?.add(url);
  }

  /** Forgets a URL this transaction took out of the crawl (see `dropBarredEntries`). */
  forget(url: string): void {
    this.known?.forget(url);
  }

  /** Tallies one page's link to a known URL: an inlink when `isLink`, and its anchor texts. */
  tallyLink(url: string, isLink: boolean, anchors: readonly string[]): void {
    if (!isLink && anchors.length === 0) return;
    let slot = this.tally.get(url);
    if (!slot) this.tally.set(url, (slot = { inlinks: 0, anchors: [] }));
    if (isLink) slot.inlinks += 1;
    for (const anchor of anchors) addAnchor(slot.anchors, anchor);
    this.talliedLinks += 1;
  }

  /** Takes what this transaction tallied and has not written yet (see `foldLinkTallies` (`link-tallies.ts`)). */
  takeTally(): [string, { inlinks: number; anchors: string[] }][] {
    const taken = [...this.tally];
    this.tally.clear();
    return taken;
  }

  /** The host's state as this transaction sees it (created when new). */
  async host(origin: string): Promise<HostState> {
    let host = this.hosts.get(origin);
    if (!host) {
      host = (await this.tx.getHost(this.crawl.id, origin)) ?? newHostState(this.crawl.id, origin);
      this.hosts.set(origin, host);
    }
    return host;
  }

  /** Every host of the crawl as this transaction sees it (its own changes included). */
  async listHosts(): Promise<HostState[]> {
    for (const host of await this.tx.listHosts(this.crawl.id)) {
      if (!this.hosts.has(host.origin)) this.hosts.set(host.origin, host);
    }
    return [...this.hosts.values()];
  }

  /** The hosts this transaction read or changed. */
  touchedHosts(): HostState[] {
    return [...this.hosts.values()];
  }

  /** Rows of these URLs as this transaction sees them (its own changes included), in order; undefined where absent. */
  async getPages(urls: string[]): Promise<(PageRecord | undefined)[]> {
    const missing = urls.filter((url) => !this.pages.has(url));
    if (missing.length > 0) {
      const read = await this.tx.getPages(this.crawl.id, missing);
      missing.forEach((url, i) => this.pages.set(url, read[i] ?? null));
    }
    return urls.map((url) => this.pages.get(url) ?? undefined);
  }

  /** Writes these rows (objects from {@link getPages}, changed, or new rows) at {@link flush}. */
  putPages(pages: PageRecord[]): void {
    for (const page of pages) {
      this.pages.set(page.url, page);
      this.changedPages.add(page.url);
    }
  }

  /**
   * Writes these rows now (objects from {@link getPages}, changed) and forgets them: a later read in this
   * transaction reads them back from the store. For writes of many rows (a fold) that need not stay in memory
   * until {@link flush}.
   */
  async writePages(pages: PageRecord[]): Promise<void> {
    if (pages.length === 0) return;
    for (const page of pages) {
      this.pages.delete(page.url);
      this.changedPages.delete(page.url);
    }
    await this.tx.putPages(pages);
  }

  /** Writes the crawl record when changed, every host touched and every row changed. */
  async flush(): Promise<void> {
    if (this.tally.size > 0) {
      const batch = (this.crawl.linkBatch ?? 0) + 1;
      this.crawl.linkBatch = batch;
      const entries = [...this.tally];
      this.tally.clear();
      await this.tx.putLinkTally({
        crawlId: this.crawl.id,
        batch,
        urls: entries.map(([url]) => url),
        inlinks: entries.map(([, slot]) => slot.inlinks),
        anchors: entries.map(([, slot]) => slot.anchors),
      });
    }
    if (JSON.stringify(this.crawl) !== this.crawlAsRead) await this.tx.putCrawl(this.crawl);
    if (this.hosts.size > 0) await this.tx.putHosts([...this.hosts.values()]);
    if (this.changedPages.size > 0) {
      const rows: PageRecord[] = [];
      for (const url of this.changedPages) {
        const page = this.pages.get(url);
        if (page) rows.push(page);
      }
      for (const row of rows) this.writtenRows.push(row.url);
      this.changedPages.clear();
      await this.tx.putPages(rows);
    }
  }
}

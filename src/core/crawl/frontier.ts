/**
 * Frontier bookkeeping inside one store transaction: admitting URLs (each at
 * most once per crawl, within the page budget), and writing a finished row.
 * These functions await nothing but {@link StoreTx} calls, so they can run
 * inside an IndexedDB transaction.
 */
import { robotsUrlFor } from '../robots/robots-policy.ts';
import type { CrawlCounts, CrawlRecord, CrawlUrl, EntryKind, FrontierEntry, HostState, PageRecord } from '../model.ts';
import type { KnownUrls } from './known-urls.ts';
import type { LinkTally, StoreTx } from './ports.ts';

/**
 * Most distinct anchor texts kept per URL (each at most 200 characters, as
 * `extractLinks` cuts them): every text a site uses for a URL ("index" and
 * "General Index"), the first ones found when a URL has more.
 */
export const MAX_ANCHORS_PER_URL = 50;

/**
 * Subtracted from a resource's admission number to give its queue position:
 * a host's queue is served in `seq` order, so its resources go before its
 * pages (in the order they were found), and a page's resources are fetched
 * soon after the page: a crawl cut short by its limits has whole pages, not
 * many pages each missing its styles. 2^50: far below any page's number,
 * and still an exact number.
 */
export const RESOURCE_SEQ_BIAS = 2 ** 50;

/** A URL found somewhere (link, redirect, sitemap, start, a page's resource), already normalized (and in scope, when followed). */
export interface Candidate {
  url: string;
  origin: string;
  kind: EntryKind;
  depth: number;
  referrer: string | null;
  /** Anchor text of the link, or null (redirects, sitemaps, empty text). */
  anchor: string | null;
  /** Found as a followed link of a page (counts as an inlink); false for redirects, sitemaps and the start URL. */
  isLink: boolean;
}

/** A host seen for the first time: robots.txt not fetched yet, no request made. */
export function newHostState(crawlId: string, origin: string): HostState {
  return {
    crawlId,
    origin,
    robots: { phase: 'pending', nextUrl: robotsUrlFor(origin), redirects: 0, failures: 0, retryAt: 0, status: null, body: null, fetchedAt: null },
    nextAllowedAt: 0,
    lastResponseMs: 0,
    backoffUntil: 0,
    inFlight: null,
    pending: 0,
  };
}

/** Adds `anchor` to `anchors` when new and there is room; returns whether it changed. */
export function addAnchor(anchors: string[], anchor: string | null): boolean {
  if (anchor === null || anchor === '' || anchors.length >= MAX_ANCHORS_PER_URL || anchors.includes(anchor)) return false;
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
   * {@link LinkTally} per transaction) instead of rewriting each linked row or
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
      this.changedPages.clear();
      await this.tx.putPages(rows);
    }
  }
}

/** Told of a new URL left out because a budget is spent: the crawl's for its kind, or its host's (links to other sites). */
export type OverBudget = (candidate: Candidate, budget: 'crawl' | 'host') => void;

/**
 * Admits candidates: a URL already in the frontier or the crawl table only
 * gains the inlink and the anchor text, tallied (added to it by
 * `foldLinkTallies` (`link-tallies.ts`)); a new one is queued while the crawl's budget for
 * its kind lasts (`maxPages` for pages and sitemaps, `maxResources` for
 * resources) and `accept` agrees. Changes the crawl and hosts in
 * `writes`; the caller flushes them.
 * @param accept asked about each new URL (once, and only while the budget has room), just
 *   before it is queued; false leaves it out. Must not await: it runs inside the transaction.
 * @param overBudget told of each new URL left out because its kind's budget is spent (`crawl`), or, for a
 *   link to another site, its host's (`host`, `maxExternalPerHost`).
 * @returns the entries newly queued (written in this transaction).
 */
export async function admit(
  writes: CrawlWrites,
  candidates: Candidate[],
  accept?: (candidate: Candidate) => boolean,
  overBudget?: OverBudget,
): Promise<FrontierEntry[]> {
  if (candidates.length === 0) return [];
  const { tx, crawl } = writes;
  // Candidates come from one page (or one redirect, sitemap, start): a URL linked twice counts once.
  const byUrl = new Map<string, Candidate & { anchors: string[] }>();
  for (const c of candidates) {
    const seen = byUrl.get(c.url);
    if (seen) {
      addAnchor(seen.anchors, c.anchor);
      seen.isLink ||= c.isLink;
    } else byUrl.set(c.url, { ...c, anchors: c.anchor ? [c.anchor] : [] });
  }
  const urls = [...byUrl.keys()];
  const entryUpdates: FrontierEntry[] = [];
  const queue = async (candidate: Candidate & { anchors: string[] }): Promise<void> => {
    const entry = await newEntry(writes, candidate, accept, overBudget);
    if (!entry) return;
    writes.queued(entry.url);
    entryUpdates.push(entry);
  };

  // Keys only: a known URL is tallied, not read and rewritten.
  const known = await writes.knownOf(urls);
  for (const [i, url] of urls.entries()) {
    const candidate = byUrl.get(url);
    if (!candidate) continue;
    if (known[i]) writes.tallyLink(url, candidate.isLink, candidate.anchors);
    else await queue(candidate);
  }
  if (entryUpdates.length > 0) await tx.putEntries(entryUpdates);
  return entryUpdates;
}

/**
 * A frontier entry for a URL the crawl does not hold yet, counted in the
 * crawl and its host; null when its kind's budget is spent or `accept` says no.
 */
async function newEntry(
  writes: CrawlWrites,
  candidate: Candidate & { anchors: string[] },
  accept?: (candidate: Candidate) => boolean,
  overBudget?: OverBudget,
): Promise<FrontierEntry | null> {
  const { crawl } = writes;
  const { counts, settings } = crawl;
  const isResource = candidate.kind === 'resource';
  const isExternal = candidate.kind === 'external';
  const spent = isExternal
    ? (counts.externalAdmitted ?? 0) >= (settings.maxExternal ?? 0)
    : isResource
      ? (counts.resourcesAdmitted ?? 0) + (counts.files ?? 0) >= (settings.maxResources ?? 0)
      : counts.admitted >= settings.maxPages;
  if (spent) {
    overBudget?.(candidate, 'crawl');
    return null;
  }
  if (accept && !accept(candidate)) return null;
  const host = await writes.host(candidate.origin);
  if (isExternal && (host.externalAdmitted ?? 0) >= (settings.maxExternalPerHost ?? 0)) {
    overBudget?.(candidate, 'host');
    return null;
  }
  host.pending += 1;
  if (isExternal) {
    counts.externalAdmitted = (counts.externalAdmitted ?? 0) + 1;
    host.externalAdmitted = (host.externalAdmitted ?? 0) + 1;
  } else if (isResource) counts.resourcesAdmitted = (counts.resourcesAdmitted ?? 0) + 1;
  else counts.admitted += 1;
  crawl.nextSeq += 1;
  return {
    crawlId: crawl.id,
    url: candidate.url,
    origin: candidate.origin,
    kind: candidate.kind,
    depth: candidate.depth,
    referrer: candidate.referrer,
    seq: isResource ? crawl.nextSeq - RESOURCE_SEQ_BIAS : crawl.nextSeq,
    anchors: candidate.anchors.slice(0, MAX_ANCHORS_PER_URL),
    inlinks: candidate.isLink ? 1 : 0,
    attempts: 0,
    leaseRunId: null,
  };
}

/** How one finished row moves the crawl's counters. */
export function countRow(counts: CrawlCounts, page: PageRecord): void {
  counts.done += 1;
  if (page.kind === 'resource') counts.resources = (counts.resources ?? 0) + 1;
  if (page.kind === 'file') counts.files = (counts.files ?? 0) + 1;
  if (page.kind === 'external') counts.external = (counts.external ?? 0) + 1;
  if (page.blockedBy !== null) counts.blocked += 1;
  if (page.status !== null) counts.fetched += 1;
  if (page.error !== null || (page.status !== null && page.status >= 400)) counts.errors += 1;
}

/**
 * The fields of a row that only a fetch fills in, at their "never fetched" values (also the import's
 * starting point for a captured URL).
 */
export function unfetchedRow(entry: CrawlUrl | FrontierEntry): PageRecord {
  return {
    crawlId: entry.crawlId,
    url: entry.url,
    origin: entry.origin,
    kind: entry.kind,
    depth: entry.depth,
    referrer: entry.referrer,
    seq: 0,
    status: null,
    contentType: null,
    contentLength: null,
    location: null,
    methods: [],
    fetchedAt: null,
    responseTimeMs: null,
    headers: [],
    statusLine: null,
    requestHeaders: null,
    ipAddress: null,
    sha256: null,
    duplicateOf: null,
    truncated: false,
    title: null,
    anchors: entry.anchors,
    inlinks: entry.inlinks,
    links: [],
    linkTexts: [],
    resources: [],
    blockedBy: null,
    blockedRule: null,
    error: null,
  };
}

/**
 * Writes a finished row for a frontier entry: assigns its `seq`, counts it,
 * removes the entry and lowers its host's pending count.
 */
export async function finishEntry(writes: CrawlWrites, page: PageRecord): Promise<void> {
  const { tx, crawl } = writes;
  const host = await writes.host(page.origin);
  countRow(crawl.counts, page);
  page.seq = crawl.counts.done;
  host.pending = Math.max(0, host.pending - 1);
  writes.putPages([page]);
  await tx.deleteEntries(crawl.id, [page.url]);
}

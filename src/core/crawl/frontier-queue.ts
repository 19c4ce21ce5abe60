/**
 * The frontier's contract, the six things a step asks of the queue of URLs
 * (a request queue such as crawlee's is the model), each inside one store
 * transaction (`CrawlWrites`):
 *
 * | operation     | what it does                                                                          | used by |
 * | ------------- | ------------------------------------------------------------------------------------- | ------- |
 * | {@link nextReady}   | the host's next queued URL robots.txt allows, leased to this run (disallowed ones recorded as blocked on the way) | the runner's claim |
 * | {@link markHandled} | its row written, the entry gone, the counts moved                                 | the fetch step, the claim (blocked rows) |
 * | {@link reclaim}     | a leased entry back in the queue (cut short, to retry later, its GET after a HEAD, or left by a dead worker) | the fetch step, the run's start |
 * | {@link isFinished}  | no host has a URL queued or in flight, no page waits for its render               | the end of a run |
 * | {@link blockDisallowed} | URLs just queued that a robots.txt already read disallows, recorded as blocked | admission |
 * | {@link failUnreachable} | the host's queued URLs recorded as failed, without a request: the host cannot be reached | the runner's claim |
 *
 * Admission (a URL found becomes an entry, once per crawl, within its
 * kind's budget) is `admit` in `frontier-admit.ts`. Order: a host's queue is
 * served by `seq` (breadth first; its resources first, see `RESOURCE_SEQ_BIAS`).
 */
import type { CrawlCounts, CrawlUrl, FetchFailure, FrontierEntry, HostState, PageRecord } from '../model.ts';
import type { RobotsPolicy } from '../robots/robots-policy.ts';
import type { CrawlWrites } from './crawl-writes.ts';
import { rowCounterOf, workKindOf } from './kinds/registry.ts';

/** Most rows marked blocked by one {@link nextReady}, so one transaction stays short. */
export const BLOCKED_BATCH = 200;

/** What {@link nextReady} found. */
export type NextReady =
  /** An entry, leased to the run. */
  | { kind: 'entry'; entry: FrontierEntry }
  /** Only blocked URLs (recorded): ask again. */
  | { kind: 'blocked' }
  /** Nothing queued for the host. */
  | { kind: 'none' };

/**
 * The host's next queued entry that `policy` allows, leased to `runId`; the
 * disallowed ones before it are recorded as blocked (at most {@link BLOCKED_BATCH}).
 * When nothing is queued, the host's `pending` is set to what it has leased
 * (in flight, or answered and not yet recorded).
 */
export async function nextReady(
  writes: CrawlWrites,
  origin: string,
  policy: RobotsPolicy,
  runId: string,
): Promise<NextReady> {
  const { tx, crawl } = writes;
  let blocked = 0;
  while (blocked < BLOCKED_BATCH) {
    const entry = await tx.nextEntry(crawl.id, origin);
    if (!entry) {
      const host = await writes.host(origin);
      host.pending = (await tx.leasedEntries(crawl.id)).filter((e) => e.origin === origin).length;
      return blocked > 0 ? { kind: 'blocked' } : { kind: 'none' };
    }
    const decision = policy.isAllowed(entry.url);
    if (!decision.allowed) {
      await recordBlocked(writes, entry, decision.rule);
      blocked += 1;
      continue;
    }
    entry.leaseRunId = runId;
    await tx.putEntries([entry]);
    return { kind: 'entry', entry };
  }
  return { kind: 'blocked' };
}

/**
 * Records at once, as blocked, the entries just queued whose host's robots.txt
 * is known (`policyOf` gives its policy, null while it is not) and disallows
 * them: the crawl never requests them anyway, and recording them when they are
 * found, not when the host's turn comes, lets a host whose last URLs are
 * disallowed end with its last request instead of a gap later. A URL found
 * before its host's robots.txt was read is decided by {@link nextReady}.
 */
export async function blockDisallowed(
  writes: CrawlWrites,
  entries: FrontierEntry[],
  policyOf: (host: HostState) => RobotsPolicy | null,
): Promise<void> {
  for (const entry of entries) {
    const policy = policyOf(await writes.host(entry.origin));
    if (policy === null) continue;
    const decision = policy.isAllowed(entry.url);
    if (!decision.allowed) await recordBlocked(writes, entry, decision.rule);
  }
}

/**
 * Records the host's queued entries (at most {@link BLOCKED_BATCH}) as failed
 * with `failure`, without a request: the host cannot be reached (asking for
 * its robots.txt found that its name does not resolve, or that it refuses
 * connections), so each of its URLs is as broken as its robots.txt. When none
 * is queued, the host's `pending` is set as {@link nextReady} sets it.
 * @returns `'failed'` when it recorded some (ask again), `'none'` when none was queued.
 */
export async function failUnreachable(
  writes: CrawlWrites,
  origin: string,
  failure: FetchFailure,
): Promise<'failed' | 'none'> {
  const { tx, crawl } = writes;
  const error: FetchFailure = {
    code: failure.code,
    message: `${origin} could not be reached when its robots.txt was asked for: ${failure.message}`,
  };
  for (let failed = 0; failed < BLOCKED_BATCH; failed++) {
    const entry = await tx.nextEntry(crawl.id, origin);
    if (!entry) {
      const host = await writes.host(origin);
      host.pending = (await tx.leasedEntries(crawl.id)).filter((e) => e.origin === origin).length;
      return failed > 0 ? 'failed' : 'none';
    }
    const row = unfetchedRow(entry);
    row.error = error;
    await markHandled(writes, row);
  }
  return 'failed';
}

/**
 * The entry's row, blocked by robots.txt (`rule`, the line that disallows it), final (see {@link markHandled}).
 * A URL of a kind that says so is also listed as not crawled (a link to another site: `external-robots`,
 * for the results' *Not crawled* view).
 */
async function recordBlocked(writes: CrawlWrites, entry: FrontierEntry, rule: string | null): Promise<void> {
  const row = unfetchedRow(entry);
  row.blockedBy = 'robots';
  row.blockedRule = rule;
  const reason = workKindOf(entry.kind).blockedReason;
  if (reason !== null) {
    await writes.tx.putNotCrawled([
      { crawlId: entry.crawlId, url: entry.url, reason, depth: entry.depth, referrer: entry.referrer },
    ]);
  }
  return markHandled(writes, row);
}

/**
 * The entry's row is final: written, its `seq` assigned, counted, the entry
 * removed and its host's pending count lowered.
 */
export async function markHandled(writes: CrawlWrites, page: PageRecord): Promise<void> {
  const { tx, crawl } = writes;
  const host = await writes.host(page.origin);
  countRow(crawl.counts, page);
  page.seq = crawl.counts.done;
  host.pending = Math.max(0, host.pending - 1);
  writes.putPages([page]);
  await tx.deleteEntries(crawl.id, [page.url]);
}

/**
 * Puts a leased entry back in the queue: the stored copy (with the inlinks
 * and anchors links added while it was out), its lease cleared, one more
 * attempt when `countAttempt`, marked {@link FrontierEntry.awaitsGet} when
 * `awaitsGet` (its HEAD sent, its GET to come). The host's in-flight mark
 * and clock are the caller's (see `HostRules.requestEnded`).
 */
export async function reclaim(
  writes: CrawlWrites,
  entry: FrontierEntry,
  countAttempt: boolean,
  awaitsGet = false,
): Promise<void> {
  const { tx, crawl } = writes;
  const [stored = entry] = await tx.getEntries(crawl.id, [entry.url]);
  stored.leaseRunId = null;
  if (countAttempt) stored.attempts = entry.attempts + 1;
  if (awaitsGet) stored.awaitsGet = true;
  await tx.putEntries([stored]);
}

/** Whether the crawl has nothing left: no host with a URL queued or in flight, no page waiting for its render. */
export async function isFinished(writes: CrawlWrites): Promise<boolean> {
  const hosts = await writes.listHosts();
  if (hosts.some((h) => h.pending > 0 || h.inFlight !== null)) return false;
  // A page waiting for its render is work left too (its render may find more URLs).
  return (await writes.tx.nextRender(writes.crawl.id)) === undefined;
}

/** How one finished row moves the crawl's counters. */
export function countRow(counts: CrawlCounts, page: PageRecord): void {
  counts.done += 1;
  const counter = rowCounterOf(page.kind);
  if (counter !== undefined) counts[counter] = (counts[counter] ?? 0) + 1;
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

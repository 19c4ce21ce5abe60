/**
 * How a run of a crawl starts and ends, in the store: leases a dead worker
 * left are released, a full store pauses the crawl instead of failing it, a
 * crawl with nothing left is marked finished (or failed, when its start URL
 * could not be fetched), and an unexpected error is recorded on the crawl.
 */
import { normalizeUrl } from '../url/normalize-url.ts';
import { foldLinkTallies } from './link-tallies.ts';
import { settleNotCrawled } from './not-crawled.ts';
import { isFinished } from './frontier-queue.ts';
import { StorageFullError, type StoreTx } from './ports.ts';
import { pauseWithMessage, STORAGE_FULL_MESSAGE, type StepContext } from './run-context.ts';

/**
 * Releases every lease and in-flight mark of the crawl: left by a worker
 * that died mid-request, or by an earlier loop of this one that ended on a
 * refused write. No step of the crawl runs while `run` starts (one loop per
 * crawl at a time: the caller's rule), so none of them is live.
 */
export async function recoverLeases(ctx: StepContext, crawlId: string): Promise<void> {
  await ctx.store.transaction((tx) => releaseLeases(ctx, tx, crawlId, () => true, true));
}

/**
 * Puts leased entries back in the queue and clears in-flight marks, of the
 * runs `released` picks. The request of a released lease may have reached
 * the server: its host's gap counts from now.
 * @param countAttempt the cut-off request counts as an attempt (a worker that
 *   died mid-request, maybe because of it); not when the store refused to
 *   record an answer.
 */
async function releaseLeases(
  ctx: StepContext,
  tx: StoreTx,
  crawlId: string,
  released: (runId: string) => boolean,
  countAttempt: boolean,
): Promise<void> {
  const crawl = await tx.getCrawl(crawlId);
  if (!crawl) return;
  const stale = (await tx.leasedEntries(crawlId)).filter((e) => e.leaseRunId !== null && released(e.leaseRunId));
  for (const entry of stale) {
    entry.leaseRunId = null;
    if (countAttempt) entry.attempts += 1;
  }
  if (stale.length > 0) await tx.putEntries(stale);
  const now = ctx.clock.now();
  const hosts = (await tx.listHosts(crawlId)).filter((h) => h.inFlight !== null && released(h.inFlight.runId));
  for (const host of hosts) {
    host.inFlight = null;
    // Its response ended at the latest now; the gap counts from now.
    ctx.rules.requestEnded(crawl.settings, host, now, null);
  }
  if (hosts.length > 0) await tx.putHosts(hosts);
}

/**
 * The store is full: pauses the crawl with {@link STORAGE_FULL_MESSAGE}
 * instead of failing it. The transaction that hit the limit wrote nothing;
 * its URL goes back in the queue (one request repeats on resume).
 * @returns false when even this small write was refused (a store over its
 *   quota refuses every write): then `run` throws the {@link StorageFullError}
 *   and the caller keeps the pause (see `CrawlManager`).
 */
export async function pauseForStorage(ctx: StepContext, crawlId: string): Promise<boolean> {
  const { store, clock } = ctx;
  return store
    .transaction(async (tx) => {
      await releaseLeases(ctx, tx, crawlId, () => true, false);
      const crawl = await tx.getCrawl(crawlId);
      if (!crawl || crawl.state !== 'running') return;
      pauseWithMessage(crawl, STORAGE_FULL_MESSAGE, clock.now());
      await tx.putCrawl(crawl);
    })
    .then(
      () => true,
      () => false,
    );
}

/** Marks the crawl finished when nothing is pending anywhere; `failed` when its start URL could not be fetched. */
export async function finishIfDone(ctx: StepContext, crawlId: string): Promise<boolean> {
  const { clock } = ctx;
  return ctx.commits.run(
    crawlId,
    async (writes) => {
      const { crawl } = writes;
      if (crawl.state !== 'running') return true;
      if (!(await isFinished(writes))) return false;
      // Every link counted in the rows before the crawl says it is finished.
      await foldLinkTallies(writes);
      // What it left unvisited, now that nothing more can be visited.
      crawl.counts.notCrawled = await settleNotCrawled(writes);
      const startUrl = normalizeUrl(crawl.settings.startUrl);
      const [start] = startUrl === null ? [undefined] : await writes.getPages([startUrl]);
      crawl.endedAt = clock.now();
      crawl.state = 'finished';
      if (start?.error) {
        crawl.state = 'failed';
        crawl.message = `could not fetch the start URL: ${start.error.message}`;
      } else if (start?.blockedBy === 'robots') {
        crawl.message = `robots.txt does not let us fetch the start URL (${start.blockedRule ?? 'disallowed'})`;
      }
      return true;
    },
    true,
  );
}

/** Records an unexpected error (a bug or a storage failure) on the crawl and ends it. */
export async function failCrawl(ctx: StepContext, crawlId: string, error: unknown): Promise<void> {
  const { store, clock } = ctx;
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  await store.transaction(async (tx) => {
    const crawl = await tx.getCrawl(crawlId);
    if (!crawl || crawl.state !== 'running') return;
    crawl.state = 'failed';
    crawl.endedAt = clock.now();
    crawl.message = `internal error: ${message}`;
    await tx.putCrawl(crawl);
  });
}

/**
 * Ends a run that failed: a full store ({@link StorageFullError}) pauses the crawl
 * (`pauseForStorage`), any other error is recorded on it (`failCrawl`).
 * @throws StorageFullError, the one given, when not even the pause could be written.
 */
export async function endWithFailure(ctx: StepContext, crawlId: string, failure: unknown): Promise<void> {
  if (failure instanceof StorageFullError) {
    if (!(await pauseForStorage(ctx, crawlId))) throw failure;
  } else {
    await failCrawl(ctx, crawlId, failure);
  }
}

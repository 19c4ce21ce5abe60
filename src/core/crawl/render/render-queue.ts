/**
 * The pages of a crawl waiting for their render, as stored (`StoreTx.putRenders`): a page is queued in the
 * transaction that records its static fetch, and leaves the queue in the one that records its render, so
 * that a worker stopped mid-render renders it again on its next run.
 */
import type { CrawlWrites } from '../crawl-writes.ts';

/** Queues the page `url` for its render, `why` being the rule that asked for it (`render-rule.ts`). */
export async function queueRender(writes: CrawlWrites, url: string, why: string): Promise<void> {
  const { crawl } = writes;
  // `?? 0`: crawls stored before rendering existed lack the counter.
  const seq = (crawl.counts.renders ?? 0) + 1;
  crawl.counts.renders = seq;
  await writes.tx.putRenders([{ crawlId: crawl.id, url, seq, why, attempts: 0 }]);
}

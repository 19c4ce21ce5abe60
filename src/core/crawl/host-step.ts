/**
 * One step of the crawl loop for one host, in one of its request slots: a claim (a transaction), the
 * wait for the host's turn (`host-scheduler.ts`), its request (`robots-step.ts` or `fetch-step.ts`) and
 * its record; and the host's next request too when it is due at once, claimed in the transaction that
 * records the previous one. The crawl runner begins the steps; this module is what one does.
 */
import type { CrawlRecord } from '../model.ts';
import { claimNext } from './claim.ts';
import type { CrawlView } from './crawl-view.ts';
import type { CrawlWrites } from './crawl-writes.ts';
import { fetchEntry } from './fetch-step.ts';
import { fetchRobots } from './robots-step.ts';
import type { Claim, StepContext } from './run-context.ts';

/** What of the run's view a step reads: the crawl's id and last committed record, and the host scheduler. */
export type StepView = Pick<CrawlView, 'crawlId' | 'crawl' | 'scheduler'>;

/**
 * One step for one host, in one of its request slots: a claim, its request,
 * its record; and the host's next request too when it is due at once (delay
 * 0), claimed in the same transaction that records the previous one, as long
 * as `mayGoOn` agrees: one transaction per page instead of two (a claim, a
 * record), which at several requests per host also lets the steps' records
 * share transactions. Resolves to whether it did anything.
 * @param crawl the crawl's record of the loop's turn that began the step.
 * @param slotFree called once the step no longer occupies the slot: when the
 *   step ends, or, when it does not go on and the host had more than one
 *   slot when claimed, as soon as its response has ended (its row is still
 *   being recorded: another step's request need not wait for that).
 * @param mayGoOn whether the step may go on with the host's next request
 *   instead of handing the host back to the loop (no other host waiting for
 *   a turn among the crawl's `hostConcurrency`).
 */
export async function hostStep(
  ctx: StepContext,
  view: StepView,
  crawl: CrawlRecord,
  origin: string,
  signal: AbortSignal,
  slotFree: () => void,
  mayGoOn: () => boolean,
): Promise<boolean> {
  const { scheduler } = view;
  let claim = await claimFirst(ctx, view, origin);
  if (claim.kind === 'none') return false;
  if (claim.kind === 'progress') return true;
  /** Whether this step counts a request in the scheduler's requests out. */
  let counted = true;
  const uncount = (): void => {
    if (!counted) return;
    counted = false;
    scheduler.requestEnded(origin);
  };
  try {
    for (;;) {
      await scheduler.waitForTurn(claim.notBefore, signal);
      if (claim.kind === 'robots') {
        const { hopOrigin } = claim;
        try {
          await fetchRobots(ctx, crawl, origin, claim.url, hopOrigin, signal);
        } finally {
          if (hopOrigin !== null) scheduler.requestEnded(hopOrigin);
        }
        break;
      }
      const goesOn = mayGoOn();
      const onResponseEnded = claim.slots > 1 && !goesOn ? (): void => (uncount(), slotFree()) : (): void => undefined;
      const next = goesOn
        ? async (writes: CrawlWrites): Promise<Claim> => {
            uncount();
            const following = await claimNext(ctx, writes, scheduler, origin);
            counted = following.kind === 'fetch' || following.kind === 'robots';
            return following;
          }
        : null;
      // The view's record: its counts as of the last commit (the resource budget), not of this step's start.
      const following = await fetchEntry(ctx, view.crawl ?? crawl, claim.entry, signal, onResponseEnded, next);
      // Nothing claimed, or blocked rows recorded instead: the host goes back to the loop.
      if (following === null || following.kind === 'none' || following.kind === 'progress') break;
      claim = following;
    }
  } finally {
    uncount();
    slotFree();
  }
  return true;
}

/** The step's first claim, in a transaction of its own (or shared with others queued at once). */
async function claimFirst(ctx: StepContext, view: StepView, origin: string): Promise<Claim> {
  return ctx.commits.run<Claim>(view.crawlId, (writes) => claimNext(ctx, writes, view.scheduler, origin), {
    kind: 'none',
  });
}

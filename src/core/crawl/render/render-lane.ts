/**
 * The render lane of a run: beside the hosts' steps, one page at a time is rendered (`Renderer`), taken from
 * the crawl's stored render queue (`render-queue.ts`) in the order queued. The render makes no request of
 * its own: its page's document and everything the page asks for are answered by the crawl
 * (`page-requests.ts`), on each host's turn. Its outcome is recorded in one transaction that also takes the
 * page off the queue, so a render cut short by a stopped worker is done again by the next run (after
 * {@link MAX_RENDER_ATTEMPTS} begun renders the page is given up, with a recorded failure; after
 * {@link MAX_RENDER_STOPS} renders the renderer itself ended `stopped`, too); a render cut short by a pause is
 * put back as it was.
 */
import { sha256Hex } from '../../hash.ts';
import { MAX_RENDER_ATTEMPTS, MAX_RENDER_STOPS, type PageRecord, type RenderEntry } from '../../model.ts';
import type { CrawlView } from '../crawl-view.ts';
import { renderCapMs } from '../kinds/work-kind.ts';
import type { Renderer, RenderOutcome } from '../ports.ts';
import type { StepContext } from '../run-context.ts';
import { PageRequests } from './page-requests.ts';
import { applyRender } from './rendered-page.ts';

/** How long, in ms, the network of a rendered page must be quiet (no request unanswered or new) before its DOM is read. */
export const QUIET_MS = 500;

/** How long, in ms, past its cap a render is given before the lane aborts it (the renderer should end at the cap itself). */
export const RENDER_GRACE_MS = 5000;

/** What the transaction that takes the next render found. */
type Taken =
  { kind: 'none'; renders: number } | { kind: 'recorded' } | { kind: 'render'; entry: RenderEntry; row: PageRecord };

export class RenderLane {
  private task: Promise<void> | null = null;
  /** `counts.renders` when the queue was last found empty: nothing to look for until it grows. */
  private emptyAt = -1;
  /** Aborts the render under way as a stop (the loop ends: a pause, a stop); null when none runs. */
  private stopCurrent: (() => void) | null = null;

  constructor(
    private readonly ctx: StepContext,
    private readonly renderer: Renderer | null,
  ) {}

  /**
   * Begins the next render when none runs and the queue may hold one (the crawl queued a render since it
   * was last found empty).
   * @returns the render's task, or null when none began.
   */
  begin(view: CrawlView, signal: AbortSignal): Promise<void> | null {
    const queued = view.crawl?.counts.renders ?? 0;
    if (this.task !== null || queued === 0 || queued === this.emptyAt) return null;
    const task = this.renderNext(view, signal).finally(() => {
      this.task = null;
      view.poke();
    });
    this.task = task;
    return task;
  }

  /** Aborts the render under way (it is put back in the queue, to be done by the next run). */
  stop(): void {
    this.stopCurrent?.();
  }

  private async renderNext(view: CrawlView, signal: AbortSignal): Promise<void> {
    const { ctx } = this;
    const crawlId = view.crawlId;
    const taken = await ctx.commits.run<Taken>(
      crawlId,
      async (writes) => {
        const entry = await writes.tx.nextRender(crawlId);
        if (entry === undefined) return { kind: 'none', renders: writes.crawl.counts.renders ?? 0 };
        const [row] = await writes.getPages([entry.url]);
        entry.attempts += 1;
        const stops = entry.stops ?? 0;
        const givenUp = entry.attempts > MAX_RENDER_ATTEMPTS || stops >= MAX_RENDER_STOPS;
        if (row === undefined || givenUp || this.renderer === null) {
          if (row !== undefined) {
            const outcome: RenderOutcome =
              this.renderer === null
                ? { ok: false, code: 'unavailable', message: 'this browser gives Tabcrawl no way to render pages' }
                : {
                    ok: false,
                    code: 'failed',
                    message:
                      stops >= MAX_RENDER_STOPS
                        ? `the browser stopped its render ${MAX_RENDER_STOPS} times`
                        : `its render was cut short ${MAX_RENDER_ATTEMPTS} times`,
                  };
            const now = ctx.clock.now();
            applyRender(
              row,
              outcome,
              { why: entry.why, startedAt: now, endedAt: now, requests: EMPTY, sha256: null },
              writes.crawl.settings,
            );
            writes.putPages([row]);
          }
          writes.crawl.counts.rendered = (writes.crawl.counts.rendered ?? 0) + 1;
          await writes.tx.deleteRender(crawlId, entry.url);
          return { kind: 'recorded' };
        }
        await writes.tx.putRenders([entry]);
        return { kind: 'render', entry, row };
      },
      { kind: 'recorded' },
    );
    if (taken.kind === 'none') {
      this.emptyAt = taken.renders;
      return;
    }
    if (taken.kind !== 'render' || this.renderer === null) return;
    await this.render(view, signal, taken.entry, taken.row, this.renderer);
  }

  private async render(
    view: CrawlView,
    signal: AbortSignal,
    entry: RenderEntry,
    row: PageRecord,
    renderer: Renderer,
  ): Promise<void> {
    const { ctx } = this;
    const { clock } = ctx;
    const settings = view.crawl?.settings;
    if (settings === undefined) return;
    const cap = renderCapMs(settings);
    const abort = new AbortController();
    /** Why the render was aborted: the loop ended (a pause, a stop), or the renderer overran its cap. */
    let abortedBy: 'stop' | 'cap' | null = null;
    const onStop = (): void => {
      abortedBy ??= 'stop';
      abort.abort();
    };
    this.stopCurrent = onStop;
    signal.addEventListener('abort', onStop, { once: true });
    // The renderer ends at its cap; this bounds a renderer that does not.
    void clock.sleep(cap + RENDER_GRACE_MS, abort.signal).then(
      () => {
        abortedBy ??= 'cap';
        abort.abort();
      },
      () => undefined,
    );
    const requests = new PageRequests(ctx, view, row, abort.signal, renderer.answers ?? 'bytes');
    const startedAt = clock.now();
    let outcome: RenderOutcome;
    try {
      outcome = await renderer.render({
        url: entry.url,
        timeoutMs: cap,
        quietMs: QUIET_MS,
        maxHtmlChars: settings.maxBodyBytes,
        serve: requests.serve,
        signal: abort.signal,
      });
    } catch (error) {
      outcome = { ok: false, code: 'failed', message: error instanceof Error ? error.message : String(error) };
    } finally {
      signal.removeEventListener('abort', onStop);
      this.stopCurrent = null;
      // Ends the grace timer and any request still waiting for its row.
      if (!abort.signal.aborted) abort.abort();
    }
    if (abortedBy === null && !outcome.ok && outcome.code === 'stopped') {
      // The renderer was stopped from outside (Firefox suspending its event page, which it may cancel): the page
      // stays queued, counted as a stop, not a cut-short attempt (MAX_RENDER_STOPS); rendered again by this run or
      // the next. If the page goes before this is written, the attempt counted when it was taken stays.
      const stopped: RenderEntry = { ...entry, attempts: entry.attempts - 1, stops: (entry.stops ?? 0) + 1 };
      await ctx.commits.run(entry.crawlId, (writes) => writes.tx.putRenders([stopped]), undefined);
      view.scheduler.workAdded();
      return;
    }
    if (abortedBy === 'stop') {
      // A pause or a stop: rendered again by the next run, this attempt not counted.
      const putBack: RenderEntry = { ...entry, attempts: entry.attempts - 1 };
      await ctx.commits.run(entry.crawlId, (writes) => writes.tx.putRenders([putBack]), undefined);
      return;
    }
    if (abortedBy === 'cap' && !outcome.ok)
      outcome = {
        ok: false,
        code: 'timeout',
        message: `the page was still rendering ${(cap + RENDER_GRACE_MS) / 1000} s after it began`,
      };
    const endedAt = clock.now();
    let sha256: string | null = null;
    let html: Uint8Array | null = null;
    if (outcome.ok) {
      html = new TextEncoder().encode(outcome.html);
      sha256 = await sha256Hex(html);
    }
    await ctx.commits.run(
      entry.crawlId,
      async (writes) => {
        const [current] = await writes.getPages([entry.url]);
        if (current !== undefined) {
          const follow = applyRender(
            current,
            outcome,
            { why: entry.why, startedAt, endedAt, requests, sha256 },
            writes.crawl.settings,
          );
          if (sha256 !== null && html !== null && (await writes.tx.bodyOwner(entry.crawlId, sha256)) === undefined) {
            await writes.tx.putBody({ crawlId: entry.crawlId, sha256, url: entry.url, bytes: html });
            writes.crawl.counts.bytesStored = (writes.crawl.counts.bytesStored ?? 0) + html.byteLength;
          }
          writes.putPages([current]);
          await ctx.admitFollowed(
            writes,
            follow.filter((c) => c.isLink || c.anchor === null),
          );
        }
        writes.crawl.counts.rendered = (writes.crawl.counts.rendered ?? 0) + 1;
        await writes.tx.deleteRender(entry.crawlId, entry.url);
      },
      undefined,
    );
    view.scheduler.workAdded();
  }
}

const EMPTY = Object.freeze({ requests: [], refused: [], navigations: [] });

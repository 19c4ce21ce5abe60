/**
 * A turn on a host for a rendered page's request that goes to the network itself: a renderer whose
 * `answers` is `network` (Firefox) cannot hand the page bytes the crawl holds, so a URL the crawl already
 * holds (the page's own document first of all) is asked of its server again by the tab. That request is
 * the crawl's too: it waits for its host's turn as a claimed request does (`claim.ts`: the host's gap,
 * Crawl-delay and back-off clocks, its request slots), marks the host in flight with this run's id (a
 * worker stopped meanwhile has it put back by `run-ends.ts`, as any claim), and counts the host's next
 * turn from the end of its response (`HostRules.requestEnded`), so that no two requests to a host come
 * closer than its gap, the crawl's and the pages' together.
 */
import { originOf } from '../../url/normalize-url.ts';
import type { CrawlView } from '../crawl-view.ts';
import { hostReadyAt } from '../host-scheduler.ts';
import type { TurnEnd } from '../ports.ts';
import type { StepContext } from '../run-context.ts';

/** How long, in ms, to look again while another request of the host is in flight (its end pokes no one here). */
export const IN_FLIGHT_POLL_MS = 50;

/** What one look at the host found. */
type Look =
  | { kind: 'taken'; startedAt: number }
  | { kind: 'wait'; until: number }
  | { kind: 'refused'; because: 'robots' | 'not-admitted' | 'timeout' };

/** The answer of {@link takeRenderTurn}: the turn (end it once, when its response has ended), or why there is none. */
export type RenderTurn =
  | { kind: 'go'; ended: (how?: TurnEnd, serverMs?: number | null) => Promise<void> }
  | { kind: 'refused'; because: 'robots' | 'not-admitted' | 'timeout' };

/**
 * Waits for the host of `url` to allow one more request, takes it (in a transaction: the host marked in
 * flight, the request counted in the run's scheduler), and returns the function that ends it.
 * @param signal the render's: aborting it ends the wait (`timeout`) and any turn taken and not yet ended.
 */
export async function takeRenderTurn(
  ctx: StepContext,
  view: Pick<CrawlView, 'crawlId' | 'scheduler' | 'poke'>,
  url: string,
  signal: AbortSignal,
): Promise<RenderTurn> {
  const origin = originOf(url);
  // Until the turn is taken or refused, the host's steps claim nothing more (`claim.ts`): they hand it over.
  const handedOver = view.scheduler.wantTurn(origin);
  let turn: RenderTurn | null = null;
  try {
    turn = await waitAndTake(ctx, view, url, origin, signal);
    return turn;
  } finally {
    handedOver();
    // Refused: the steps that stood aside go on at once (a turn taken wakes them when it ends).
    if (turn?.kind !== 'go') {
      view.scheduler.workAdded();
      view.poke();
    }
  }
}

/** {@link takeRenderTurn}'s loop: look at the host in a transaction, and wait until it may be taken. */
async function waitAndTake(
  ctx: StepContext,
  view: Pick<CrawlView, 'crawlId' | 'scheduler' | 'poke'>,
  url: string,
  origin: string,
  signal: AbortSignal,
): Promise<RenderTurn> {
  const { clock, runId, rules } = ctx;
  for (;;) {
    if (signal.aborted) return { kind: 'refused', because: 'timeout' };
    const look = await ctx.commits.run<Look>(
      view.crawlId,
      async (writes) => {
        const { crawl } = writes;
        if (crawl.state !== 'running') return { kind: 'refused', because: 'timeout' };
        const host = await writes.host(origin);
        if (rules.guardOf(crawl).isBarredHost(host)) return { kind: 'refused', because: 'not-admitted' };
        if (host.robots.phase === 'ready' && !rules.policyFor(crawl.settings.productToken, host).isAllowed(url).allowed)
          return { kind: 'refused', because: 'robots' };
        const now = clock.now();
        const readyAt = hostReadyAt(host);
        const slots = rules.slotsOf(crawl.settings, host, now);
        const out = view.scheduler.requestsOut(origin);
        if (now < readyAt) return { kind: 'wait', until: readyAt };
        if ((slots === 1 && host.inFlight !== null) || out >= slots)
          return { kind: 'wait', until: now + IN_FLIGHT_POLL_MS };
        host.inFlight = { url, startedAt: now, runId };
        view.scheduler.requestStarted(origin);
        return { kind: 'taken', startedAt: now };
      },
      { kind: 'wait', until: clock.now() + IN_FLIGHT_POLL_MS },
    );
    if (look.kind === 'refused') return look;
    if (look.kind === 'taken') return { kind: 'go', ended: turnEnder(ctx, view, url, look.startedAt, signal) };
    await clock.sleep(Math.max(1, look.until - clock.now()), signal).catch(() => undefined);
  }
}

/**
 * The `ended` of a turn taken at `startedAt`: once, and at the latest when `signal` aborts (then `cut`).
 * Only an `answered` turn's time is a response time for the host's adaptive gap: a poll the render's end
 * cut after 10 s would otherwise have added 100 s (capped at 60 s) to the host's gap (measured in
 * `cli-firefox-render.test.ts` under load: 26 s without a request to the shop after the polling page).
 */
function turnEnder(
  ctx: StepContext,
  view: Pick<CrawlView, 'crawlId' | 'scheduler' | 'poke'>,
  url: string,
  startedAt: number,
  signal: AbortSignal,
): (how?: TurnEnd, serverMs?: number | null) => Promise<void> {
  const origin = originOf(url);
  let ending: Promise<void> | null = null;
  const end = (how: TurnEnd = 'answered', serverMs: number | null = null): Promise<void> =>
    (ending ??= (async () => {
      signal.removeEventListener('abort', onAbort);
      const endedAt = ctx.clock.now();
      const turnMs = endedAt - startedAt;
      // The server's own time when the renderer saw it: the turn's length also holds the tab's and the
      // extension's delays (as `response-time.ts` says of the crawl's fetches).
      const serverTime =
        serverMs !== null && Number.isFinite(serverMs) && serverMs >= 0 ? Math.min(serverMs, turnMs) : turnMs;
      const responseMs = how === 'answered' ? serverTime : null;
      try {
        await ctx.commits.run(
          view.crawlId,
          async (writes) => {
            const host = await writes.host(origin);
            if (host.inFlight?.url === url && host.inFlight.runId === ctx.runId) host.inFlight = null;
            ctx.rules.requestEnded(writes.crawl.settings, host, endedAt, responseMs);
          },
          undefined,
        );
      } finally {
        view.scheduler.requestEnded(origin);
        view.scheduler.workAdded();
        view.poke();
      }
    })());
  const onAbort = (): void => void end('cut');
  if (signal.aborted) void end('cut');
  else signal.addEventListener('abort', onAbort, { once: true });
  return end;
}

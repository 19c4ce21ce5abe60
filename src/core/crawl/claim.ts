/**
 * The claim: which request a host makes next, decided and written in one
 * transaction (a lease on the frontier entry, the host marked in flight with
 * this run's id), so that a worker killed after it finds the claim and puts
 * it back (`run-ends.ts`). robots.txt first (following its redirects, each
 * hop a request to its own host), then the host's next URL robots.txt allows,
 * the disallowed ones recorded as blocked on the way (`frontier-queue.ts`);
 * on a host that cannot be reached, its URLs recorded as failed instead; on
 * the user's network in a crawl of a public site, nothing: its URLs are
 * listed as not crawled (`network-guard.ts`).
 */
import { nextRequestAt } from '../politeness/spacing.ts';
import { robotsUrlFor } from '../robots/robots-policy.ts';
import { originOf } from '../url/normalize-url.ts';
import type { CrawlWrites } from './crawl-writes.ts';
import { CLAIM_AHEAD_MS, hostReadyAt, type HostScheduler } from './host-scheduler.ts';
import { failUnreachable, nextReady } from './frontier-queue.ts';
import { dropBarredEntries } from './network-guard.ts';
import { adoptRobots } from './robots-step.ts';
import type { Claim, StepContext } from './run-context.ts';

/**
 * What a claim asks of the run's scheduler (`host-scheduler.ts`): the requests out per host, and one more;
 * and whether a request outside the steps waits for the host's turn.
 */
export type RequestsOut = Pick<HostScheduler, 'requestsOut' | 'requestStarted' | 'turnsWanted'>;

/**
 * Claims the host's next request in the transaction of `writes`, when the
 * host may have one now (or within {@link CLAIM_AHEAD_MS}): robots.txt
 * first, URLs robots.txt disallows recorded as blocked on the way.
 * @param requests this run's requests in flight per host (claimed, not yet recorded): counted here.
 */
export async function claimNext(
  ctx: StepContext,
  writes: CrawlWrites,
  requests: RequestsOut,
  origin: string,
): Promise<Claim> {
  const { clock, runId, rules } = ctx;
  const { crawl } = writes;
  if (crawl.state !== 'running') return { kind: 'none' };
  const host = await writes.host(origin);
  const guard = rules.guardOf(crawl);
  // The user's network, from a crawl of a public site (`network-guard.ts`): nothing is asked of it, whatever
  // the kind of work; its URLs are listed as not crawled.
  if (guard.isBarredHost(host))
    return { kind: (await dropBarredEntries(writes, origin)) === 'dropped' ? 'progress' : 'none' };
  const now = clock.now();
  const readyAt = hostReadyAt(host);
  const slots = rules.slotsOf(crawl.settings, host, now);
  const out = requests.requestsOut(origin);
  if ((slots === 1 && host.inFlight !== null) || out >= slots || now < readyAt - CLAIM_AHEAD_MS)
    return { kind: 'none' };
  // A rendered page's request waits for this host (`render/render-turn.ts`): the host is handed over to it, or
  // a host with a long queue would chain its steps past the render's cap (measured: a page's document waited
  // for all 20 pages of its host at a 1 s gap). Its turn ended, the steps go on (`workAdded`).
  if (requests.turnsWanted(origin) > 0) return { kind: 'none' };
  /** When the claimed request may start: the end of the host's gap, or now. */
  const notBefore = Math.max(now, readyAt);
  const claimed = (url: string): void => {
    host.inFlight = { url, startedAt: notBefore, runId };
    requests.requestStarted(origin);
  };

  const { robots } = host;
  if (robots.phase === 'pending' || robots.phase === 'unavailable') {
    const hopOrigin = originOf(robots.nextUrl);
    if (guard.isBarred(robots.nextUrl)) {
      // A robots.txt redirect into the user's network leads nowhere, like a Location that is not http(s): no robots.txt, allow all.
      host.robots = { ...robots, phase: 'ready', retryAt: 0, body: null, fetchedAt: now };
      return { kind: 'progress' };
    }
    if (hopOrigin === origin) {
      claimed(robots.nextUrl);
      return { kind: 'robots', url: robots.nextUrl, notBefore, hopOrigin: null };
    }
    // A robots.txt redirect to another site (http://example.com's to https://www.example.com's): the hop is
    // a request to that site, so it waits for that site's gap too, and that site waits for it.
    const other = await writes.host(hopOrigin);
    if (robots.nextUrl === robotsUrlFor(hopOrigin) && other.robots.phase === 'ready' && other.robots.redirects === 0) {
      // To that site's own robots.txt, which this crawl has read: its answer, without asking again.
      host.robots = adoptRobots(robots, other.robots);
      return { kind: 'progress' };
    }
    if (other.inFlight !== null || requests.requestsOut(hopOrigin) > 0) return { kind: 'none' };
    const startAt = Math.max(notBefore, nextRequestAt(other));
    claimed(robots.nextUrl);
    other.inFlight = { url: robots.nextUrl, startedAt: startAt, runId };
    requests.requestStarted(hopOrigin);
    return { kind: 'robots', url: robots.nextUrl, notBefore: startAt, hopOrigin };
  }

  if (robots.phase === 'unreachable') {
    // Nothing to ask a host whose name does not resolve or that refuses connections: its URLs fail as its robots.txt did.
    const failure = robots.failure ?? { code: 'network', message: 'unreachable' };
    return { kind: (await failUnreachable(writes, origin, failure)) === 'failed' ? 'progress' : 'none' };
  }
  const next = await nextReady(writes, origin, rules.policyFor(crawl.settings.productToken, host), runId);
  if (next.kind !== 'entry') return { kind: next.kind === 'blocked' ? 'progress' : 'none' };
  claimed(next.entry.url);
  return { kind: 'fetch', entry: next.entry, notBefore, slots };
}

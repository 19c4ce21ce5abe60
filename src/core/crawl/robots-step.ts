/**
 * The robots.txt step of a crawl: request a host's robots.txt (or the next
 * hop of its redirects) and record what the answer means for the host:
 * rules, an unavailable file retried later, a site that cannot be reached
 * (its URLs recorded as failed, not as blocked), and the sitemaps it lists.
 * The crawl runner claims the request; this module sends it and records it.
 * @see RFC 9309 §2.3 (access method), §2.3.1 (access results)
 */
import { isSiteHost } from './host-pools.ts';
import { gapResponseMs } from './response-time.ts';
import { isUnreachableFailure, type RobotsState } from '../model.ts';
import type { CrawlRecord } from '../model.ts';
import { MAX_BACKOFF_MS, parseRetryAfterMs } from '../politeness/retry-after.ts';
import {
  classifyRobotsStatus,
  decodeRobotsBody,
  ROBOTS_MAX_BYTES,
  ROBOTS_MAX_REDIRECTS,
  robotsUrlFor,
} from '../robots/robots-policy.ts';
import { normalizeUrl, originOf } from '../url/normalize-url.ts';
import type { Candidate } from './candidate.ts';
import { noteAnswerAddress } from './network-guard.ts';
import { accessLostMessage, headerOf, pauseWithMessage, type StepContext } from './run-context.ts';

/** Failed robots.txt fetches (5xx, 429, network) before the host's URLs are all recorded as blocked. */
export const ROBOTS_MAX_FAILURES = 3;

/**
 * Wait before retrying an unavailable robots.txt, in ms: 5 s after the first failure, 20 s after the second.
 * @see RFC 9309 §2.3.1.4 (unreachable: assume complete disallow)
 */
export function robotsRetryDelayMs(failures: number): number {
  return 5_000 * 4 ** Math.max(0, failures - 1);
}

/**
 * A host's robots.txt state taking another host's final answer for its own (a redirect to that host's
 * robots.txt, which one request answers for both): ready, with that answer's status, rules and time.
 */
export function adoptRobots(robots: RobotsState, answer: RobotsState): RobotsState {
  return {
    ...robots,
    phase: 'ready',
    status: answer.status,
    body: answer.body,
    fetchedAt: answer.fetchedAt,
    retryAt: 0,
  };
}

/**
 * Requests the host's robots.txt (or the next hop of its redirects) and records the answer.
 * @param hopOrigin the other site a redirect hop goes to (see `claimNext`): its in-flight mark is cleared
 *   and its gap counts from this answer too; when the hop is that site's own robots.txt and it has not
 *   read it yet, the answer is its robots.txt as well (requested once).
 */
export async function fetchRobots(
  ctx: StepContext,
  crawl: CrawlRecord,
  origin: string,
  url: string,
  hopOrigin: string | null,
  signal: AbortSignal,
): Promise<void> {
  const { fetcher, clock } = ctx;
  const outcome = await fetcher.fetch({
    url,
    method: 'GET',
    timeoutMs: crawl.settings.timeoutMs,
    bodyLimit: () => ROBOTS_MAX_BYTES,
    signal,
  });
  await ctx.commits.run(
    crawl.id,
    async (writes) => {
      const { crawl: current } = writes;
      const host = await writes.host(origin);
      host.inFlight = null;
      const other = hopOrigin === null ? null : await writes.host(hopOrigin);
      // A name that reads public but answered from the user's network: nothing more is asked of it (`network-guard.ts`).
      noteAnswerAddress(
        ctx.rules.guardOf(current),
        current,
        other ?? host,
        outcome.ok ? outcome.wire?.ipAddress : null,
      );
      if (other !== null) {
        if (other.inFlight?.url === url) other.inFlight = null;
        const endedAt = signal.aborted ? clock.now() : outcome.endedAt;
        ctx.rules.requestEnded(current.settings, other, endedAt, gapResponseMs(outcome));
      }
      if (
        !signal.aborted &&
        !outcome.ok &&
        outcome.error.code === 'no-access' &&
        !isSiteHost(ctx.rules.scopeOf(current), origin)
      ) {
        // Another host (a CDN, a linked site) Chrome does not let Tabcrawl reach (site access restricted): nothing
        // can be asked of it, robots.txt included. Its URLs are recorded one by one as failed with `no-access`
        // (no request leaves: the fetcher refuses before sending); the crawl goes on.
        host.robots = { ...host.robots, phase: 'ready', status: null, body: null, fetchedAt: null, retryAt: 0 };
        ctx.rules.requestEnded(current.settings, host, clock.now(), null);
        return;
      }
      if (signal.aborted || (!outcome.ok && outcome.error.code === 'no-access')) {
        ctx.rules.requestEnded(current.settings, host, clock.now(), null);
        // Site access withdrawn mid-crawl: robots.txt is asked again on resume.
        if (!outcome.ok && outcome.error.code === 'no-access')
          pauseWithMessage(current, accessLostMessage(outcome.error.message), clock.now());
        return;
      }
      const robots = host.robots;
      const responseMs = gapResponseMs(outcome);
      if (responseMs !== null) host.lastResponseMs = responseMs;
      const isNetworkFailure = !outcome.ok && (outcome.error.code === 'network' || isUnreachableFailure(outcome.error));
      if (isNetworkFailure && current.counts.fetched === 0 && origin === originOf(current.settings.startUrl)) {
        // The very first request of the crawl failed at the network level: the site is unreachable
        // (refused, DNS, TLS). Say so now instead of retrying robots.txt for half a minute. A timeout
        // is not that: the server took the request, and a slow robots.txt is retried like a 5xx.
        current.state = 'failed';
        current.endedAt = outcome.endedAt;
        current.message = `could not reach ${origin}: ${outcome.error.message}`;
        robots.status = null;
        return;
      }
      if (!outcome.ok && isUnreachableFailure(outcome.error) && originOf(url) === origin) {
        // The host's name does not resolve, or it refuses connections: there is no server to ask, now or in a
        // minute. Its URLs are recorded as failed with this reason (broken links, not polite refusals: no
        // robots.txt said anything), and nothing more is asked of it. A robots.txt that answers 5xx, or a
        // connection that fails after it was made, still means "crawl nothing" and is retried (below).
        host.robots = {
          ...robots,
          phase: 'unreachable',
          status: null,
          body: null,
          fetchedAt: outcome.endedAt,
          retryAt: 0,
          failure: outcome.error,
        };
        ctx.rules.requestEnded(current.settings, host, outcome.endedAt, responseMs);
        return;
      }
      const verdict = outcome.ok ? classifyRobotsStatus(outcome.status) : 'unavailable';
      robots.status = outcome.ok ? outcome.status : null;
      // A Location that is not an http(s) URL leads nowhere: like too many redirects, it makes robots.txt unavailable (allow all).
      const target =
        verdict === 'redirect' && outcome.ok && outcome.location !== null ? normalizeUrl(outcome.location) : null;
      if (target !== null && robots.redirects < ROBOTS_MAX_REDIRECTS) {
        robots.nextUrl = target;
        robots.redirects += 1;
        robots.phase = 'pending';
      } else if (verdict === 'unavailable') {
        robots.failures += 1;
        robots.phase = robots.failures >= ROBOTS_MAX_FAILURES ? 'failed' : 'unavailable';
        // The server's Retry-After, when longer than our schedule, up to the longest back-off we honour.
        const retryAfterMs = Math.min(
          MAX_BACKOFF_MS,
          parseRetryAfterMs(headerOf(outcome, 'retry-after'), outcome.endedAt) ?? 0,
        );
        robots.retryAt =
          robots.phase === 'unavailable'
            ? outcome.endedAt + Math.max(robotsRetryDelayMs(robots.failures), retryAfterMs)
            : 0;
        robots.nextUrl = robotsUrlFor(origin);
        robots.redirects = 0;
        if (
          robots.phase === 'failed' &&
          !outcome.ok &&
          current.counts.fetched === 0 &&
          origin === originOf(current.settings.startUrl)
        ) {
          // The start host never answered at all, retries included (e.g. it drops connections): the site is unreachable.
          current.state = 'failed';
          current.endedAt = outcome.endedAt;
          current.message = `could not reach ${origin}: ${outcome.error.message}`;
        }
      } else {
        // 2xx: parse; 4xx or too many redirects: allow all (RFC 9309 §2.3.1.2-3).
        robots.phase = 'ready';
        robots.retryAt = 0;
        robots.fetchedAt = outcome.endedAt;
        robots.body =
          verdict === 'parse' && outcome.ok
            ? decodeRobotsBody(outcome.body ?? new Uint8Array(), outcome.truncated)
            : null;
      }
      // After the answer is read: the gap takes the Crawl-delay it may have set.
      ctx.rules.requestEnded(current.settings, host, outcome.endedAt, responseMs);
      const settled = [host];
      if (
        other !== null &&
        robots.phase === 'ready' &&
        url === robotsUrlFor(other.origin) &&
        other.robots.phase === 'pending' &&
        other.robots.redirects === 0
      ) {
        // The other site's own robots.txt, answered for good: it is that site's too.
        other.robots = adoptRobots(other.robots, robots);
        settled.push(other);
      }
      for (const ready of robots.phase === 'ready' ? settled : []) {
        const sitemaps = ctx.rules.policyFor(current.settings.productToken, ready).sitemaps;
        const scope = ctx.rules.scopeOf(current);
        const candidates: Candidate[] = [];
        for (const sitemap of sitemaps) {
          const normalized = normalizeUrl(sitemap);
          if (normalized !== null && scope.check(normalized).inScope) {
            candidates.push({
              url: normalized,
              origin: originOf(normalized),
              kind: 'sitemap',
              depth: 0,
              referrer: robotsUrlFor(ready.origin),
              anchor: null,
              isLink: false,
            });
          }
        }
        await ctx.admitFollowed(writes, candidates);
      }
    },
    undefined,
  );
}

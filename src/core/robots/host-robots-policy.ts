/**
 * The robots policy of one host as its stored robots state says: the one
 * place a stored robots.txt answer becomes a policy. The crawl
 * (`HostRules.policyFor`, which caches it per answer) and the background's
 * host progress (the Crawl-delay it shows) both call it, so the two never
 * read one robots.txt two ways.
 *
 * Pure: no browser API, no storage.
 */
import type { RobotsState } from '../model.ts';
import { allowAllPolicy, disallowAllPolicy, parseRobots, robotsUrlFor, type RobotsPolicy } from './robots-policy.ts';

/**
 * The policy of the host at `origin`: its robots.txt body parsed once it is
 * `ready` with one; disallow-all once it `failed` (unavailable too often);
 * allow-all otherwise (a 4xx answer, or not settled yet: callers ask only
 * once it is settled).
 * @param origin the host's origin, e.g. `https://example.com`; its `/robots.txt` is the policy's URL.
 * @param productToken our product token, matched case-insensitively.
 * @see RFC 9309 §2.3.1.3 (4xx: allow all), §2.3.1.4 (unreachable: disallow all)
 */
export function hostRobotsPolicy(
  origin: string,
  robots: Pick<RobotsState, 'phase' | 'status' | 'body'>,
  productToken: string,
): RobotsPolicy {
  if (robots.phase === 'failed') {
    return disallowAllPolicy(
      `robots.txt unavailable (${robots.status === null ? 'network error' : `HTTP ${robots.status}`})`,
    );
  }
  if (robots.phase !== 'ready' || robots.body === null) return allowAllPolicy();
  return parseRobots(robotsUrlFor(origin), robots.body, productToken);
}

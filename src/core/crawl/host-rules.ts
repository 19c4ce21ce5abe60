/**
 * The rules a run applies to a host, derived from what is stored and kept
 * only as caches (safe to lose with the worker): its robots.txt policy,
 * parsed once per answer; the crawl's scope and the hosts it must not reach
 * (`network-guard.ts`); the gap before its next request; and how many
 * requests it may have at once. When it may be stepped again is the
 * scheduler's (`host-scheduler.ts`).
 */
import type { CrawlRecord, HostState } from '../model.ts';
import { gapMs, requestSlots } from '../politeness/spacing.ts';
import { withRecentResponse } from './progress.ts';
import { allowAllPolicy, disallowAllPolicy, type RobotsPolicy } from '../robots/robots-policy.ts';
import { hostRobotsPolicy } from '../robots/host-robots-policy.ts';
import type { CrawlSettings } from '../settings.ts';
import { createScope, type Scope } from '../url/scope.ts';
import { isSiteHost } from './host-pools.ts';
import { networkGuardFor, type NetworkGuard } from './network-guard.ts';

export class HostRules {
  /** Parsed robots.txt per crawl and host: derived from the stored body, safe to lose. */
  private readonly policies = new Map<string, { fetchedAt: number | null; policy: RobotsPolicy }>();
  private readonly scopes = new Map<string, Scope>();
  private readonly guards = new Map<string, NetworkGuard>();

  /** @param random uniform random in [0, 1), for jitter. */
  constructor(private readonly random: () => number) {}

  /** The robots policy of a host whose robots.txt is settled (`ready` or `failed`). */
  policyFor(productToken: string, host: HostState): RobotsPolicy {
    const { robots } = host;
    if (robots.phase === 'failed') {
      return disallowAllPolicy(
        `robots.txt unavailable (${robots.status === null ? 'network error' : `HTTP ${robots.status}`})`,
      );
    }
    if (robots.phase !== 'ready' || robots.body === null) return allowAllPolicy();
    const cacheKey = `${host.crawlId} ${host.origin}`;
    const cached = this.policies.get(cacheKey);
    if (cached && cached.fetchedAt === robots.fetchedAt) return cached.policy;
    const policy = hostRobotsPolicy(host.origin, robots, productToken);
    this.policies.set(cacheKey, { fetchedAt: robots.fetchedAt, policy });
    return policy;
  }

  scopeOf(crawl: CrawlRecord): Scope {
    let scope = this.scopes.get(crawl.id);
    if (!scope) {
      scope = createScope(crawl.settings);
      this.scopes.set(crawl.id, scope);
    }
    return scope;
  }

  /** Which hosts the crawl must not reach: the user's network, from a public start (see `network-guard.ts`). */
  guardOf(crawl: CrawlRecord): NetworkGuard {
    let guard = this.guards.get(crawl.id);
    if (!guard) {
      const scope = this.scopeOf(crawl);
      guard = networkGuardFor(crawl.settings, (origin) => isSiteHost(scope, origin));
      this.guards.set(crawl.id, guard);
    }
    return guard;
  }

  /** The host's gap, in ms, with its current robots Crawl-delay and last response time. */
  hostGapMs(settings: CrawlSettings, host: HostState): number {
    const settled = host.robots.phase === 'ready' || host.robots.phase === 'failed';
    const crawlDelayMs = settled ? this.policyFor(settings.productToken, host).crawlDelayMs : null;
    return gapMs({
      delayMs: settings.delayMs,
      crawlDelayMs,
      lastResponseMs: host.lastResponseMs,
      jitterMs: settings.jitterMs,
      random: this.random,
    });
  }

  /** The host's gap, in ms, without its random part: the least it waits between two requests now. */
  leastGapMs(settings: CrawlSettings, host: HostState): number {
    return this.hostGapMs({ ...settings, jitterMs: 0 }, host);
  }

  /**
   * The host's clock, kept here alone: a request to the host ended at
   * `endedAt` (ms), answered in `responseMs` (null when it was cut or not
   * sent), so its next request waits for the host's gap from then, and never
   * starts earlier than already set. Every step that ends a request calls this.
   * @returns the gap applied, in ms.
   */
  requestEnded(settings: CrawlSettings, host: HostState, endedAt: number, responseMs: number | null): number {
    if (responseMs !== null) {
      host.lastResponseMs = responseMs;
      host.recentResponseMs = withRecentResponse(host.recentResponseMs, responseMs);
    }
    const gap = this.hostGapMs(settings, host);
    host.nextAllowedAt = Math.max(host.nextAllowedAt, endedAt + gap);
    return gap;
  }

  /** How many requests the host may have in flight now (see {@link requestSlots}). */
  slotsOf(settings: CrawlSettings, host: HostState, now: number): number {
    if (settings.requestsPerHost <= 1) return 1;
    const robotsSettled = host.robots.phase === 'ready' || host.robots.phase === 'failed';
    return requestSlots({
      requestsPerHost: settings.requestsPerHost,
      delayMs: settings.delayMs,
      jitterMs: settings.jitterMs,
      robotsSettled,
      crawlDelayMs: robotsSettled ? this.policyFor(settings.productToken, host).crawlDelayMs : null,
      backoffUntil: host.backoffUntil,
      now,
    });
  }
}

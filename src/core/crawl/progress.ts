/**
 * Progress figures of a crawl, as pure functions of what is stored: how long
 * it has run, its rate, a lower bound of the time left, and what each host
 * waits for. No browser APIs; the popup and the background both use them.
 */
import type { CrawlRecord, HostState } from '../model.ts';
import { adaptiveGapMs, cappedCrawlDelayMs } from '../politeness/spacing.ts';
import { hostReadyAt } from './host-scheduler.ts';

/** Shortest active time over which a rate is given, in ms: below it the figure would be noise. */
export const MIN_RATE_WINDOW_MS = 5_000;

/**
 * How long the crawl has been running, in ms: from `createdAt` to `now` (or to
 * when it was paused, stopped or ended), without the time it spent paused or
 * stopped before being resumed.
 * @param now the current time, ms since the epoch.
 */
export function activeMs(
  crawl: Pick<CrawlRecord, 'state' | 'createdAt' | 'endedAt' | 'pausedAt' | 'pausedMs'>,
  now: number,
): number {
  const until = crawl.state === 'running' ? now : (crawl.pausedAt ?? crawl.endedAt ?? now);
  return Math.max(0, until - crawl.createdAt - (crawl.pausedMs ?? 0));
}

/**
 * Average rate since the start: rows done (every outcome, blocked ones
 * included) per minute of active time ({@link activeMs}). Null before
 * {@link MIN_RATE_WINDOW_MS} of active time.
 * @param done rows written to the crawl table.
 * @param runMs active time, in ms.
 * @returns pages per minute, or null.
 */
export function pagesPerMinute(done: number, runMs: number): number | null {
  if (runMs < MIN_RATE_WINDOW_MS) return null;
  return (done * 60_000) / runMs;
}

/**
 * The rule that set a host's gap: the configured delay, the robots.txt
 * Crawl-delay, or the response-time rule (the square of the last response
 * time in seconds). The largest wins; a tie goes to the one the user set
 * (delay), then to the site's (Crawl-delay).
 * @see gapMs in `core/politeness/spacing.ts`
 */
export type GapRule = 'delay' | 'crawl-delay' | 'response-time';

/** What a host's next step waits for, as the popup says it. Times are ms since the epoch. */
export type HostWait =
  /** A request (robots.txt or a page) to the host is under way. */
  | { kind: 'in-flight'; url: string; since: number }
  /** The host answered 429 or 503: nothing goes to it before `until`. */
  | { kind: 'backoff'; until: number }
  /** Its robots.txt was unavailable (5xx, 429, network): it is fetched again at `retryAt`. */
  | { kind: 'robots'; retryAt: number }
  /**
   * The gap after its last response: nothing before `until`. `rule` is what
   * set the gap, `gapMs` its length in ms (jitter not included).
   */
  | { kind: 'gap'; until: number; rule: GapRule; gapMs: number }
  /** It may go now (the runner picks it at its next turn, within the host limit). */
  | { kind: 'ready' };

/** One host with URLs left, as the popup lists it. */
export interface HostProgress {
  /** Scheme, host and port. */
  origin: string;
  /** Frontier entries of the host still queued or in flight. */
  pending: number;
  /**
   * Gap between two requests to the host as it stands, in ms: the largest of
   * the delay, the honoured Crawl-delay and the response-time term of its
   * last answer (jitter not included).
   */
  gapMs: number;
  /** Response time of its last answer, in ms; 0 before any. */
  responseMs: number;
  /** The median response time of its recent answers ({@link typicalResponseMs}), in ms; 0 before any. */
  typicalResponseMs: number;
  /** The gap a typical answer gets, in ms: as {@link HostProgress.gapMs}, with {@link HostProgress.typicalResponseMs} for the last answer's time. */
  typicalGapMs: number;
  /** Earliest start of its next request (spacing, back-off and robots retry clocks), ms since the epoch; may be past. */
  readyAt: number;
  wait: HostWait;
}

/** How many of a host's latest response times {@link typicalResponseMs} takes the median of. */
export const RECENT_RESPONSES = 9;

/**
 * `recent` (a host's latest response times, oldest first, in ms; absent before any) with `responseMs` added,
 * and the oldest dropped past {@link RECENT_RESPONSES}. A new array.
 */
export function withRecentResponse(recent: readonly number[] | undefined, responseMs: number): number[] {
  return [...(recent ?? []), responseMs].slice(-RECENT_RESPONSES);
}

/**
 * How long a host usually takes to answer, in ms: the median of its recent response times (the lower of the
 * two middle ones for an even count), so that one slow answer among fast ones changes nothing; its last
 * response time for a host stored before they were kept; 0 before any answer.
 */
export function typicalResponseMs(host: Pick<HostState, 'lastResponseMs' | 'recentResponseMs'>): number {
  const recent = host.recentResponseMs ?? (host.lastResponseMs > 0 ? [host.lastResponseMs] : []);
  if (recent.length === 0) return 0;
  const sorted = [...recent].sort((a, b) => a - b);
  return sorted[(sorted.length - 1) >> 1] ?? 0;
}

/**
 * The gap a host gets now and the rule that set it: the largest of the
 * delay, the capped Crawl-delay and the response-time term of its last
 * answer, as the runner computes it (jitter aside).
 * @param lastResponseMs response time of the host's last answer, in ms.
 */
export function currentGap(
  delayMs: number,
  crawlDelayMs: number | null,
  lastResponseMs: number,
): { gapMs: number; rule: GapRule } {
  const crawlDelay = cappedCrawlDelayMs(crawlDelayMs);
  const adaptive = adaptiveGapMs(lastResponseMs);
  if (adaptive > delayMs && adaptive > crawlDelay) return { gapMs: adaptive, rule: 'response-time' };
  if (crawlDelay > delayMs) return { gapMs: crawlDelay, rule: 'crawl-delay' };
  return { gapMs: delayMs, rule: 'delay' };
}

/**
 * What a host waits for at `now`: a request in flight first, else whichever
 * clock (back-off, robots.txt retry, spacing) ends last, else ready.
 * @param crawlDelayMs the host's robots.txt Crawl-delay, in ms, or null.
 * @param delayMs the configured delay, in ms.
 */
export function hostWait(host: HostState, now: number, delayMs: number, crawlDelayMs: number | null): HostWait {
  if (host.inFlight !== null) return { kind: 'in-flight', url: host.inFlight.url, since: host.inFlight.startedAt };
  const robotsRetry = host.robots.phase === 'unavailable' ? host.robots.retryAt : 0;
  const latest = Math.max(host.backoffUntil, robotsRetry, host.nextAllowedAt);
  if (latest <= now) return { kind: 'ready' };
  if (robotsRetry === latest) return { kind: 'robots', retryAt: robotsRetry };
  if (host.backoffUntil === latest) return { kind: 'backoff', until: host.backoffUntil };
  return { kind: 'gap', until: host.nextAllowedAt, ...currentGap(delayMs, crawlDelayMs, host.lastResponseMs) };
}

/**
 * The hosts with URLs left (pending or in flight), most pending first, then by origin.
 * @param crawlDelayOf the robots.txt Crawl-delay of a host, in ms, or null when none or unknown.
 */
export function hostsProgress(
  hosts: readonly HostState[],
  now: number,
  delayMs: number,
  crawlDelayOf: (host: HostState) => number | null,
): HostProgress[] {
  return hosts
    .filter((host) => host.pending > 0 || host.inFlight !== null)
    .map((host): HostProgress => {
      const crawlDelayMs = crawlDelayOf(host);
      const typical = typicalResponseMs(host);
      return {
        origin: host.origin,
        pending: host.pending,
        gapMs: currentGap(delayMs, crawlDelayMs, host.lastResponseMs).gapMs,
        responseMs: host.lastResponseMs,
        typicalResponseMs: typical,
        typicalGapMs: currentGap(delayMs, crawlDelayMs, typical).gapMs,
        readyAt: hostReadyAt(host),
        wait: hostWait(host, now, delayMs, crawlDelayMs),
      };
    })
    .sort((a, b) => b.pending - a.pending || a.origin.localeCompare(b.origin));
}

/**
 * An estimate of the time left, in ms, from each host's pace: a host with
 * `pending` URLs waits until it is ready (the gap after its last answer, as
 * it stands), then needs `pending` more requests, one at a time, each taking
 * about its typical response time (the median of its recent answers, not the
 * last one: one slow answer would otherwise multiply the estimate, through the
 * response-time rule's gap too) and each after the gap a typical answer gets:
 * `max(0, readyAt − now) + pending × typicalResponseMs + (pending − 1) × typicalGapMs`.
 * The crawl ends no sooner than its slowest host, and, as at most
 * `hostConcurrency` hosts run at once, no sooner than the sum of those
 * per-host times divided by `hostConcurrency`; the estimate is the larger of
 * the two. URLs not found yet are not counted, so it can only grow as the
 * crawl finds more; 0 when nothing is pending.
 * @param now the current time, ms since the epoch.
 * @param hostConcurrency most hosts crawled at once (≥ 1).
 */
export function etaMs(
  hosts: readonly Pick<HostProgress, 'pending' | 'typicalGapMs' | 'readyAt' | 'typicalResponseMs'>[],
  now: number,
  hostConcurrency: number,
): number {
  let slowest = 0;
  let total = 0;
  for (const host of hosts) {
    if (host.pending <= 0) continue;
    const time =
      Math.max(0, host.readyAt - now) + host.pending * host.typicalResponseMs + (host.pending - 1) * host.typicalGapMs;
    slowest = Math.max(slowest, time);
    total += time;
  }
  return Math.max(slowest, total / Math.max(1, hostConcurrency));
}

/**
 * A count in at most four characters, for the toolbar badge: `999`, `1.2k`,
 * `12k`, `1.2M`. Rounds down, so the badge never shows more than was done.
 */
export function compactCount(count: number): string {
  const n = Math.max(0, Math.floor(count));
  if (n < 1000) return String(n);
  const format = (value: number, suffix: string): string =>
    value < 10 ? `${Math.floor(value * 10) / 10}${suffix}` : `${Math.floor(value)}${suffix}`;
  if (n < 1_000_000) return format(n / 1000, 'k');
  return format(n / 1_000_000, 'M');
}

/**
 * How long to wait between two requests to one host: small pure functions,
 * one per rule, so each rule has its own test.
 *
 * The gap is measured from the END of the previous response to the START of
 * the next request, and is the largest of the configured delay, robots.txt's
 * Crawl-delay and the adaptive term; a back-off asked by the server (429/503,
 * Retry-After) is a separate clock that can only push the next request later.
 */
import type { HostState } from '../model.ts';

/** Largest robots.txt Crawl-delay honoured, in ms. A site asking for more still gets this much. */
export const MAX_CRAWL_DELAY_MS = 60_000;
/** Largest adaptive term, in ms: a server that took 10 s per answer gets 60 s, not 100 s. */
export const MAX_ADAPTIVE_GAP_MS = 60_000;

/**
 * The seed's adaptive term: the square of the last response time in seconds,
 * as ms. A host that answers in 100 ms adds 10 ms; one that answers in 2 s adds 4 s.
 * @param lastResponseMs response time of the host's previous answer, in ms.
 */
export function adaptiveGapMs(lastResponseMs: number): number {
  const seconds = Math.max(0, lastResponseMs) / 1000;
  return Math.min(MAX_ADAPTIVE_GAP_MS, Math.round(seconds * seconds * 1000));
}

/** robots.txt Crawl-delay as honoured, in ms: capped at {@link MAX_CRAWL_DELAY_MS}; 0 when absent. */
export function cappedCrawlDelayMs(crawlDelayMs: number | null): number {
  if (crawlDelayMs === null || !Number.isFinite(crawlDelayMs) || crawlDelayMs <= 0) return 0;
  return Math.min(MAX_CRAWL_DELAY_MS, crawlDelayMs);
}

export interface GapInputs {
  /** The configured politeness delay, in ms. */
  delayMs: number;
  /** robots.txt Crawl-delay of our group, in ms, or null. */
  crawlDelayMs: number | null;
  /** Response time of the host's last answer, in ms. */
  lastResponseMs: number;
  /** Largest random extra, in ms. */
  jitterMs: number;
  /** Uniform random number in [0, 1). Injected so tests are deterministic. */
  random: () => number;
}

/**
 * The gap, in ms, between the end of one response from a host and the start
 * of the next request to it. Jitter is added on top, so it never shortens the gap.
 */
export function gapMs(inputs: GapInputs): number {
  const base = Math.max(inputs.delayMs, cappedCrawlDelayMs(inputs.crawlDelayMs), adaptiveGapMs(inputs.lastResponseMs));
  const jitter =
    inputs.jitterMs > 0 ? Math.floor(Math.min(0.999999, Math.max(0, inputs.random())) * inputs.jitterMs) : 0;
  return Math.ceil(base) + jitter;
}

/** Earliest time the next request to this host may start: the later of its spacing and its back-off clocks. */
export function nextRequestAt(host: Pick<HostState, 'nextAllowedAt' | 'backoffUntil'>): number {
  return Math.max(host.nextAllowedAt, host.backoffUntil);
}

/** True when a request to the host may start at `now`: nothing in flight and both clocks passed. */
export function isHostReady(
  host: Pick<HostState, 'nextAllowedAt' | 'backoffUntil' | 'inFlight'>,
  now: number,
): boolean {
  return host.inFlight === null && now >= nextRequestAt(host);
}

/** What {@link requestSlots} needs to know of a host and the crawl's settings. */
export interface SlotInputs {
  /** The user's `requestsPerHost` (≥ 1). */
  requestsPerHost: number;
  /** The configured delay and jitter, in ms. */
  delayMs: number;
  jitterMs: number;
  /** Whether the host's robots.txt is settled (fetched, or given up on): until then one request at a time. */
  robotsSettled: boolean;
  /** The Crawl-delay of our robots.txt group, in ms, or null when it sets none. */
  crawlDelayMs: number | null;
  /** Until when the host asked us to back off (ms since the epoch; 0 when not). */
  backoffUntil: number;
  /** Now, in ms since the epoch. */
  now: number;
}

/**
 * How many requests may be in flight to one host at once. More than one only
 * when there is no spacing to keep: the user set the delay and the jitter to 0,
 * robots.txt is settled and sets no Crawl-delay (any value, 0 included, is a
 * request for spacing), and the host is not backing us off. Otherwise 1: each
 * request then waits for the host's gap after the previous response, which is
 * the rule every politeness test checks.
 */
export function requestSlots(inputs: SlotInputs): number {
  const wanted = Math.max(1, Math.floor(inputs.requestsPerHost));
  if (wanted === 1) return 1;
  const unspaced =
    inputs.delayMs === 0 &&
    inputs.jitterMs === 0 &&
    inputs.robotsSettled &&
    inputs.crawlDelayMs === null &&
    inputs.now >= inputs.backoffUntil;
  return unspaced ? wanted : 1;
}

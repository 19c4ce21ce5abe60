/**
 * What a host waits for, in words: the popup's host lines and the command
 * line's waiting notes say it the same way, naming the rule that set the wait
 * and the time really left.
 */
import type { HostProgress } from '../core/crawl/progress.ts';
import { clockTime, formatDuration, formatSeconds } from './format-time.ts';

/** How an origin reads on a host line: `http://127.0.0.1:8080` → `127.0.0.1:8080`; https keeps its scheme. */
export function hostLabel(origin: string): string {
  try {
    const parsed = new URL(origin);
    return parsed.protocol === 'http:' ? parsed.host : `${parsed.protocol}//${parsed.host}`;
  } catch {
    return origin;
  }
}

/** How each gap rule reads, with its length: `delay 1 s`, `Crawl-delay 5 s`, `response time: last answer took 3 s`. */
function gapRuleText(wait: Extract<HostProgress['wait'], { kind: 'gap' }>, responseMs: number): string {
  switch (wait.rule) {
    case 'delay':
      return `delay ${formatSeconds(wait.gapMs)}`;
    case 'crawl-delay':
      return `robots.txt Crawl-delay ${formatSeconds(wait.gapMs)}`;
    case 'response-time':
      return `response time: last answer took ${formatSeconds(responseMs)}, so ${formatSeconds(wait.gapMs)} between requests`;
  }
}

/** Time left until `at`, for people: `3 s`, `2 min`, `under 1 s`. */
function timeLeft(at: number, now: number): string {
  const ms = at - now;
  return ms > 0 && ms < 500 ? 'under 1 s' : formatDuration(Math.max(0, ms));
}

/**
 * What a host waits for at `now`, as one phrase naming the rule that set
 * the wait and the real time left: `waiting 7 s · response time: last answer
 * took 3 s, so 9 s between requests`, `waiting 1 s · delay 1 s`, `backing off
 * after 429/503 · 42 s left (until 12:03:10)`, `robots.txt unavailable · retry
 * in 5 s`, `fetching`, `ready`.
 */
export function hostWaitText(host: HostProgress, now: number): string {
  const { wait } = host;
  switch (wait.kind) {
    case 'in-flight':
      return 'fetching';
    case 'backoff':
      return `backing off after 429/503 · ${timeLeft(wait.until, now)} left (until ${clockTime(wait.until)})`;
    case 'robots':
      return `robots.txt unavailable · retry in ${timeLeft(wait.retryAt, now)}`;
    case 'gap':
      return wait.until <= now
        ? 'ready'
        : `waiting ${timeLeft(wait.until, now)} · ${gapRuleText(wait, host.responseMs)}`;
    case 'ready':
      return 'ready';
  }
}

/**
 * One line per host: `127.0.0.1:8080 · 12 queued · waiting 1 s · delay 1 s`.
 * @param isRunning false for a paused or stopped crawl: nothing is waited for then, so no wait is named.
 */
export function hostLine(host: HostProgress, now: number, isRunning = true): string {
  const head = `${hostLabel(host.origin)} · ${host.pending} queued`;
  return isRunning ? `${head} · ${hostWaitText(host, now)}` : head;
}

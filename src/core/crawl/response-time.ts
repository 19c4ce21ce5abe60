/**
 * The response time the host's adaptive gap is counted from (`politeness/spacing.ts`, `adaptiveGapMs`): the
 * server's own time to answer when the browser reported it (`WireDetails.serverMs`), else the fetch's
 * duration. The adaptive term slows the crawl for a server that is slow to answer; a delay in the crawler's
 * own process (a busy extension page, a loaded machine) is not the server's, and counted as the server's it
 * grew a 150 ms gap to 10 s after one answer the server had ended at once.
 */
import type { FetchOutcome } from './ports.ts';

/** The response time of `outcome` for the host's gap, in ms (see the module's comment). */
export function gapResponseMs(outcome: FetchOutcome): number {
  const duration = outcome.endedAt - outcome.startedAt;
  const serverMs = outcome.ok ? outcome.wire?.serverMs : undefined;
  if (serverMs === undefined || serverMs === null || !Number.isFinite(serverMs) || serverMs < 0) return duration;
  // The server's time cannot be longer than what the crawl waited: a clock read in another process may be off.
  return Math.min(serverMs, duration);
}

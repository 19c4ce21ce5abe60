/**
 * The response time the host's adaptive gap is counted from (`politeness/spacing.ts`, `adaptiveGapMs`): the
 * server's own time to answer when the browser reported it (`WireDetails.serverMs`), else the fetch's
 * duration. The adaptive term slows the crawl for a server that is slow to answer; a delay in the crawler's
 * own process (a busy extension page, a loaded machine) is not the server's, and counted as the server's it
 * grew a 150 ms gap to 10 s after one answer the server had ended at once.
 */
import type { FetchOutcome } from './ports.ts';

/**
 * The response time of `outcome` for the host's gap, in ms (see the module's comment); null for a failed
 * request the browser never sent (`unsent`): the server never saw it, so it says nothing of the server. Counted
 * as one, a fetch Firefox held back for its whole 5 s timeout made a 150 ms gap 25 s (seen under load).
 */
export function gapResponseMs(outcome: FetchOutcome): number | null {
  const duration = outcome.endedAt - outcome.startedAt;
  if (!outcome.ok && outcome.unsent === true) return null;
  const serverMs = outcome.ok ? outcome.wire?.serverMs : undefined;
  if (serverMs === undefined || serverMs === null || !Number.isFinite(serverMs) || serverMs < 0) return duration;
  // The server's time cannot be longer than what the crawl waited: a clock read in another process may be off.
  return Math.min(serverMs, duration);
}

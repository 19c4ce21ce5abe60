/**
 * Readings of a local site's request log (see `startLocalSite`), the source of
 * truth for politeness: what the server saw, and when.
 */
import type { RequestLogEntry } from '../../src/shells/cli/local-site.ts';

/** Gaps between the end of each logged response and the start of the next request, in ms (server clock). */
export function serverGaps(requests: readonly RequestLogEntry[]): number[] {
  return requests.slice(1).map((r, i) => r.startedAt - (requests[i]?.endedAt ?? Number.POSITIVE_INFINITY));
}

/** How many times each path (with its query) was requested, in first-request order. */
export function requestCounts(requests: readonly RequestLogEntry[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of requests) counts.set(request.url, (counts.get(request.url) ?? 0) + 1);
  return counts;
}

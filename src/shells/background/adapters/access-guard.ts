/**
 * The crawl core's {@link Fetcher}, asking Chrome whether Tabcrawl may still
 * reach the URL's host. The user can withdraw site access while a crawl runs
 * (Chrome's extension settings, *Site access*: "On click"). A request sent
 * without it would still leave, without Tabcrawl's User-Agent (the rule that
 * sets it needs access) and with its answer hidden (CORS): recorded as a
 * network error, URL after URL. Instead it is not sent, and the answer is a
 * `no-access` failure, on which the crawl pauses.
 *
 * The question is asked again in the background after each answer, so that
 * the next request of a host finds a fresh answer and does not wait for one
 * (the wait would lengthen its gap). At most one request can leave between a
 * withdrawal and its discovery; it fails as CORS makes it fail, and that
 * failure is reported as `no-access` too.
 */
import { accessPatternOf } from '../../../core/crawl/crawl-lifecycle.ts';
import type { FetchOutcome, FetchRequest, Fetcher } from '../../../core/crawl/ports.ts';

/** How long, in ms, "has access" is trusted without asking again before a request. */
export const ACCESS_TRUSTED_MS = 1000;
/** An answer younger than this, in ms, is not refreshed after a request (fast crawls ask a few times a second). */
export const ACCESS_REFRESH_MS = 250;

/**
 * @param hasAccess whether Chrome gives access to a match pattern (`permissions.contains`). A check that
 *   fails (it should not) counts as access: it is no reason to stop a crawl.
 * @param now a millisecond clock.
 */
export function withAccessGuard(
  fetcher: Fetcher,
  hasAccess: (pattern: string) => Promise<boolean>,
  now: () => number = Date.now,
): Fetcher {
  /** When each pattern was last seen to have access. */
  const confirmedAt = new Map<string, number>();
  const ask = async (pattern: string): Promise<boolean> => {
    const asked = now();
    const granted = await hasAccess(pattern).catch(() => true);
    if (granted) confirmedAt.set(pattern, asked);
    else confirmedAt.delete(pattern);
    return granted;
  };
  const refused = (pattern: string, startedAt: number): FetchOutcome => ({
    ok: false,
    error: { code: 'no-access', message: `Tabcrawl has no access to ${pattern} any more` },
    startedAt,
    endedAt: now(),
  });
  return {
    async fetch(request: FetchRequest): Promise<FetchOutcome> {
      const pattern = accessPatternOf(request.url);
      const startedAt = now();
      const confirmed = confirmedAt.get(pattern);
      if ((confirmed === undefined || startedAt - confirmed > ACCESS_TRUSTED_MS) && !(await ask(pattern)))
        return refused(pattern, startedAt);
      const outcome = await fetcher.fetch(request);
      if (!outcome.ok && outcome.error.code === 'network') {
        // Access withdrawn since it was confirmed: the request left, and failed as CORS makes it fail.
        return (await ask(pattern)) ? outcome : refused(pattern, startedAt);
      }
      if (now() - (confirmedAt.get(pattern) ?? 0) > ACCESS_REFRESH_MS) void ask(pattern);
      return outcome;
    },
  };
}

/**
 * A link to another site, checked: is it still there? Each distinct http(s)
 * URL on a host outside the crawl's scope that a stored page links to is
 * asked for once, `HEAD` first (no body wanted), then `GET` when the server
 * refuses `HEAD` (405, 501) or does not answer it properly (a network error,
 * an invalid response); a `GET`'s body is cancelled unread, never stored.
 * A redirect is followed, hop by hop, each hop a request to its own host
 * under that host's rules, up to `MAX_EXTERNAL_REDIRECTS`; a hop back into
 * the crawl's scope is a page of the crawl. Nothing else is followed.
 *
 * Politeness is the same as for any request: the other host's robots.txt
 * first and once (a URL it disallows is recorded as blocked and never
 * asked for), its own gap and back-off, the crawl's User-Agent, no cookies
 * unless the crawl sends them everywhere. Budgets: `maxExternal` URLs per
 * crawl and `maxExternalPerHost` per other host (redirect hops included).
 */
import type { CrawlRecord, FrontierEntry, PageRecord } from '../../model.ts';
import { MAX_EXTERNAL_REDIRECTS } from '../../settings.ts';
import type { Scope } from '../../url/scope.ts';
import { originOf } from '../../url/normalize-url.ts';
import type { Candidate } from '../candidate.ts';
import { NOTHING_FOUND, PAGE_LIKE, type WorkKind } from './work-kind.ts';

/** HEAD answers that mean "ask with GET instead": the method is not allowed or not implemented. */
const REFUSES_HEAD = new Set([405, 501]);

export const externalKind: WorkKind = {
  ...PAGE_LIKE,
  headFirst: () => true,
  bodyLimit: () => 0,
  read: async () => NOTHING_FOUND,
  // A link to another site is checked anonymously, even in a crawl that sends the user's cookies.
  anonymous: true,
  // A link checker asks again with GET when HEAD got no proper answer; a stop or withdrawn access is final.
  getAfterFailedHead: (code) => headCallsForGet(null, code),
  redirectLimit: MAX_EXTERNAL_REDIRECTS,
  // The next hop, on any host; a hop back into the scope is a page of the crawl.
  routeRedirect(redirect, scope, followed, anyHost) {
    if (scope.check(redirect.url).inScope) followed.push({ ...redirect, kind: 'page' });
    else anyHost.push(redirect);
  },
  // The crawl's budget (`maxExternal`) and each other host's (`maxExternalPerHost`, redirect hops included).
  budgetSpent: (crawl) => (crawl.counts.externalAdmitted ?? 0) >= (crawl.settings.maxExternal ?? 0),
  hostBudgetSpent: (settings, host) => (host.externalAdmitted ?? 0) >= (settings.maxExternalPerHost ?? 0),
  countAdmitted(counts, host, by) {
    counts.externalAdmitted = Math.max(0, (counts.externalAdmitted ?? 0) + by);
    host.externalAdmitted = Math.max(0, (host.externalAdmitted ?? 0) + by);
  },
  rowCounters: { external: 'external' },
  offReason: (crawl) => (checksExternal(crawl) ? null : 'external-off'),
  overBudgetReason: (budget) => (budget === 'host' ? 'external-host-limit' : 'external-limit'),
  // Listed as not checked, for the results' *Not crawled* view.
  blockedReason: 'external-robots',
};

/** Whether a HEAD answer (its status, or null when it failed at the network level with `code`) calls for a GET. */
export function headCallsForGet(status: number | null, code: string | null): boolean {
  if (status !== null) return REFUSES_HEAD.has(status);
  return code === 'network' || code === 'invalid-response';
}

/** Whether the crawl checks links to other sites (crawls stored before the setting existed do not). */
export const checksExternal = (crawl: CrawlRecord): boolean => crawl.settings.checkExternal === true;

/**
 * The links of a page row to other sites, as candidates to check: every
 * distinct link (followable or `nofollow`: a link checker checks both) whose
 * host is outside the crawl's scope. A link excluded by a pattern or a path
 * prefix is on the crawl's own site and left alone: the user chose not to
 * crawl it. Given even when the crawl does not check them: admission records
 * them as not checked (`admission.ts`).
 */
export function externalCandidates(scope: Scope, entry: FrontierEntry, row: PageRecord): Candidate[] {
  if (row.kind !== 'page') return [];
  const candidates: Candidate[] = [];
  const ownHost = `${entry.origin}/`;
  for (const [i, url] of row.links.entries()) {
    // A link to the page's own host is never to another site: no need to parse it (most links of a page).
    if (url.startsWith(ownHost)) continue;
    const verdict = scope.check(url);
    if (verdict.inScope || (verdict.reason !== 'host' && verdict.reason !== 'scheme')) continue;
    const text = row.linkTexts[i] ?? '';
    candidates.push({
      url,
      origin: originOf(url),
      kind: 'external',
      depth: entry.depth + 1,
      referrer: entry.url,
      anchor: text === '' ? null : text,
      isLink: true,
    });
  }
  return candidates;
}

/**
 * The reports that are views of the link checks' judgements
 * (`link-judgements.ts`): the *Redirects* report shows the chains the
 * `redirect-chain` and `redirect-loop` checks judge, the *Blocked* report
 * the blocked URLs of the site the `link-to-blocked` check judges, the
 * *Duplicate content* report the groups the `duplicate-content` check
 * flags (`duplicate-judgement.ts`), the *Broken resources* report the
 * resources the `broken-resource` check flags and the *Broken links*
 * report the URLs the broken-link checks flag (`broken-judgements.ts`). A view
 * only shapes a judgement for its table and CSV: it reads no row itself.
 *
 * Pure: no Dexie, no browser API.
 */
import type { BrokenLinkJudge, BrokenResourceJudge } from './broken-judgements.ts';
import type { Finding } from './engine.ts';
import type { DuplicateJudge } from './duplicate-judgement.ts';
import type { BlockedJudge, RedirectJudge } from './link-judgements.ts';
import type {
  BlockedReport,
  BrokenLinksReport,
  BrokenResourcesReport,
  ChainEnd,
  DuplicatesReport,
  RedirectChain,
  RedirectHop,
  RedirectsReport,
} from './report-types.ts';

/**
 * Every chain the judge follows, loops first, then the longest, ties in `seq`
 * order of the first hop. A chain's end is the row it ends on when the judge
 * kept the ends (else `not-crawled`).
 */
export function redirectsReportOf(judge: RedirectJudge): RedirectsReport {
  /** The `seq` rank of each redirect (the map keeps `seq` order). */
  const rankOf = new Map([...judge.redirects.keys()].map((url, index) => [url, index]));
  const chains = judge.chains().map(({ hops: urls, end: walkEnd }) => {
    const hops: RedirectHop[] = urls.flatMap((url) => {
      const redirect = judge.redirects.get(url);
      return redirect === undefined ? [] : [{ url, status: redirect.status }];
    });
    const isLoop = walkEnd.kind === 'loop';
    let end: ChainEnd;
    if (walkEnd.kind === 'no-location') end = { kind: 'no-location' };
    else if (isLoop) end = { kind: 'loop', url: walkEnd.url };
    else {
      const row = judge.ends.get(walkEnd.url);
      end = row === undefined ? { kind: 'not-crawled', url: walkEnd.url } : { kind: 'page', ...row };
    }
    return { chain: { hops, end, isLong: hops.length > 1, isLoop }, rank: rankOf.get(urls[0] ?? '') ?? 0 };
  });
  chains.sort(
    (a, b) =>
      Number(b.chain.isLoop) - Number(a.chain.isLoop) || b.chain.hops.length - a.chain.hops.length || a.rank - b.rank,
  );
  return { kind: 'redirects', chains: chains.map(({ chain }): RedirectChain => chain) };
}

/** The site's blocked URLs, in `seq` order. */
export function blockedReportOf(judge: BlockedJudge): BlockedReport {
  return {
    kind: 'blocked',
    rows: [...judge.rows.values()].map(({ url, rule, referrer }) => ({ url, rule, referrer })),
  };
}

/** The groups the `duplicate-content` check flags, largest first, ties in `seq` order of their first copy. */
export function duplicatesReportOf(judge: DuplicateJudge): DuplicatesReport {
  const groups = judge.groupsFound().map(({ sha256, members }) => ({
    sha256,
    members: members.map(({ url, status, isOriginal }) => ({ url, status, isOriginal })),
  }));
  // Array.prototype.sort is stable: equal sizes keep `seq` order.
  groups.sort((a, b) => b.members.length - a.members.length);
  return { kind: 'duplicates', groups };
}

/** The resources the `broken-resource` check flags, with every row using each; most users first, ties in `seq` order. */
export function brokenResourcesReportOf(judge: BrokenResourceJudge): BrokenResourcesReport {
  const resources = [...judge.judged()].map(({ resource }) => ({ ...resource, users: judge.allUsersOf(resource.url) }));
  // Array.prototype.sort is stable: equal counts keep `seq` order.
  resources.sort((a, b) => b.users.length - a.users.length);
  return { kind: 'broken-resources', resources };
}

/**
 * The URLs the `broken-link-internal` and `broken-link-external` checks flag
 * (their `findings`), each with every row linking to it and the anchor text of
 * its link, as `judge` kept them in the checks' scans; most linking pages
 * first, ties in `seq` order of the target row.
 */
export function brokenLinksReportOf(findings: readonly Finding[], judge: BrokenLinkJudge): BrokenLinksReport {
  const flagged = new Set(findings.map((finding) => finding.url));
  const targets = [...judge.targets.values()]
    .filter((target) => flagged.has(target.url))
    .map(({ url, status, error }) => ({ url, status, error, linkingPages: judge.linkingPagesOf(url) }));
  // Array.prototype.sort is stable: equal counts keep `seq` order.
  targets.sort((a, b) => b.linkingPages.length - a.linkingPages.length);
  return { kind: 'broken-links', targets };
}

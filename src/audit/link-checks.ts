/**
 * Checks of links and redirects: `broken-link-internal`, `broken-link-external`,
 * `broken-resource`, `link-to-redirect`, `link-to-blocked`, `redirect-chain`,
 * `redirect-loop`.
 *
 * Scan 1 finds the broken, redirecting and blocked rows; scan 2 finds the
 * pages linking to them and the rows using the broken resources. What is
 * broken, a redirect chain or blocked is judged by the judges in
 * {@link LinkJudges} (`broken-judgements.ts`, `link-judgements.ts`), which
 * the reports are made from too: to change what a check judges, change its
 * judge, and the report follows. Memory: one entry per such row, never one
 * per row of the crawl.
 */
import type { FetchFailure, PageRecord } from '../core/model.ts';
import type { CollectorFactory, RelatedUrls } from './engine.ts';
import { RelatedIndex } from './engine.ts';
import { PendingFindings, plural } from './pending.ts';
import { isExternalRow } from './row-health.ts';
import { BrokenLinkJudge, BrokenResourceJudge } from './broken-judgements.ts';
import { BlockedJudge, RedirectJudge } from './link-judgements.ts';
import type { RedirectWalk } from './redirect-chains.ts';

/** Failure codes said in words a reader knows (the others are words already: `timeout`, `network`…). */
const FAILURE_WORDS: Partial<Record<FetchFailure['code'], string>> = {
  dns: 'DNS failure',
  refused: 'connection refused',
};

/** What a broken row answered: `404`, `failed (timeout)`, `failed (DNS failure)`. */
export function statusDetail(row: Pick<PageRecord, 'status' | 'error' | 'blockedBy' | 'blockedRule'>): string {
  if (row.blockedBy !== null)
    return row.blockedRule === null ? 'blocked by robots.txt' : `blocked by robots.txt (${row.blockedRule})`;
  if (row.status !== null) return String(row.status);
  return row.error === null ? 'no answer' : `failed (${FAILURE_WORDS[row.error.code] ?? row.error.code})`;
}

/** What the link checks judge that a report shows too (`link-judgements.ts`); a report passes its own to see the same judgement. */
export interface LinkJudges {
  links: BrokenLinkJudge;
  redirects: RedirectJudge;
  blocked: BlockedJudge;
  resources: BrokenResourceJudge;
}

/** The link checks, judging redirects and blocked URLs in fresh judges. */
export const linkChecks: CollectorFactory = (thresholds) =>
  linkChecksJudging({
    links: new BrokenLinkJudge(statusDetail, false),
    redirects: new RedirectJudge(false),
    blocked: new BlockedJudge(),
    resources: new BrokenResourceJudge(statusDetail, false),
  })(thresholds);

/**
 * The link checks, judging redirects and blocked URLs in `judges`: the
 * *Redirects* and *Blocked* reports are made from the same judges after the
 * scans (`reports.ts`), so the Issues and the reports judge each thing once.
 */
export const linkChecksJudging =
  (judges: LinkJudges): CollectorFactory =>
  (thresholds) => {
    /** Broken rows, in `seq` order (the *Broken links* report's judgement too). */
    const linkJudge = judges.links;
    const broken = linkJudge.targets;
    /** Rows broken as resources and the rows using them (the *Broken resources* report's judgement too). */
    const resourceJudge = judges.resources;
    /** 3xx rows of the site and of other sites, and their chains (the *Redirects* report's judgement too). */
    const redirectJudge = judges.redirects;
    const redirects = redirectJudge.redirects;
    /** Blocked rows of the site (pages, files, sitemaps), in `seq` order (the *Blocked* report's judgement too). */
    const blockedJudge = judges.blocked;
    /** Pages linking to each broken, redirecting or blocked URL. */
    const linkers = new RelatedIndex();
    /** Links to other sites their robots.txt kept from being checked (blocked `external` rows). */
    let externalBlocked = 0;

    return {
      wants: (pass) => pass <= 2,
      see(row, pass) {
        if (pass === 1) {
          const isExternal = isExternalRow(row);
          if (isExternal && row.blockedBy !== null) externalBlocked += 1;
          linkJudge.see(row, pass);
          if (broken.has(row.url)) linkers.track(row.url);
          resourceJudge.see(row, pass);
          redirectJudge.see(row, pass);
          if (redirects.has(row.url)) linkers.track(row.url);
          blockedJudge.see(row, pass);
          if (blockedJudge.rows.has(row.url)) linkers.track(row.url);
          return;
        }
        if (redirectJudge.wants(pass)) redirectJudge.see(row, pass);
        if (linkJudge.wants(pass)) linkJudge.see(row, pass);
        if (row.kind === 'page') for (const link of row.links) if (link !== row.url) linkers.add(link, row.url);
        resourceJudge.see(row, pass);
      },
      finish(emit, notJudged) {
        notJudged('broken-link-external', externalBlocked);
        const pending = new PendingFindings();
        /** Where each redirect target is redirected from (the first source in `seq` order). */
        const redirectedFrom = new Map<string, string>();
        for (const [url, { location }] of redirects)
          if (location !== null && !redirectedFrom.has(location)) redirectedFrom.set(location, url);
        /** The pages linking to `url`, or, when none link to it, to the start of the redirects that lead to it. */
        const linkingPages = (url: string): { related: RelatedUrls; via: string | null } => {
          const direct = linkers.get(url);
          if (direct.count > 0) return { related: direct, via: null };
          const onWay = new Set([url]);
          for (let at = redirectedFrom.get(url); at !== undefined && !onWay.has(at); at = redirectedFrom.get(at)) {
            onWay.add(at);
            const found = linkers.get(at);
            if (found.count > 0) return { related: found, via: at };
          }
          return { related: direct, via: null };
        };

        for (const [url, target] of broken) {
          if (target.isResource) continue;
          const { related, via } = linkingPages(url);
          const detail = via === null ? target.detail : `${target.detail}, reached by redirect from ${via}`;
          pending.add(target.isExternal ? 'broken-link-external' : 'broken-link-internal', url, detail, related);
        }
        // A resource row is a broken link too when a page links to it.
        for (const [url, target] of broken) {
          if (target.isResource && linkers.get(url).count > 0)
            pending.add('broken-link-internal', url, target.detail, linkers.get(url));
        }
        for (const { resource, detail, users } of resourceJudge.judged())
          pending.add('broken-resource', resource.url, detail, users);
        for (const [url, redirect] of redirects) {
          const linked = linkers.get(url);
          if (redirect.isExternal || linked.count === 0) continue;
          pending.add('link-to-redirect', url, `${redirect.status} to ${redirect.location ?? '(no Location)'}`, linked);
        }
        for (const [url, { rule }] of blockedJudge.rows) {
          const linked = linkers.get(url);
          if (linked.count > 0)
            pending.add(
              'link-to-blocked',
              url,
              statusDetail({ status: null, error: null, blockedBy: 'robots', blockedRule: rule }),
              linked,
            );
        }
        for (const chain of redirectChains(redirectJudge.chains())) {
          const start = chain.hops[0];
          if (start === undefined) continue;
          const hops = chain.hops;
          if (chain.loopsTo !== null) {
            pending.add('redirect-loop', start, `${plural(hops.length, 'hop')}, then back to ${chain.loopsTo}`, {
              urls: hops,
              count: hops.length,
            });
          } else if (hops.length >= thresholds.redirectChainHops) {
            pending.add('redirect-chain', start, `${plural(hops.length, 'hop')} to ${chain.end ?? '(no Location)'}`, {
              urls: hops,
              count: hops.length,
            });
          }
        }
        pending.emitTo(emit);
      },
    };
  };

/** A chain of redirects from the site: its hops from its start, and where it ends or loops back to. */
interface Chain {
  hops: string[];
  /** The URL after the last hop; null when the last hop has no `Location`. */
  end: string | null;
  /** The hop the chain comes back to, when it loops. */
  loopsTo: string | null;
}

/** The chains {@link RedirectJudge.chains} follows, as the checks word them. */
function redirectChains(walks: readonly RedirectWalk[]): Chain[] {
  return walks.map(({ hops, end }) => {
    if (end.kind === 'loop') return { hops, end: end.url, loopsTo: end.url };
    return { hops, end: end.kind === 'no-location' ? null : end.url, loopsTo: null };
  });
}

/**
 * Checks of what search engines may index: `noindex-linked`,
 * `canonical-to-non-200`, `canonical-elsewhere`, `sitemap-orphan`,
 * `sitemap-non-indexable`.
 *
 * Scan 1 notes the noindex pages, the canonicals that point elsewhere and
 * every URL the sitemaps list; scan 2 reads the canonical targets' and the
 * listed URLs' rows and the pages linking to them. Memory: one entry per
 * noindex page, canonical target and listed URL.
 */
import { indexabilityOf, type NonIndexableReason } from '../core/page-facts/indexability.ts';
import type { PageRecord } from '../core/model.ts';
import { originOf } from '../core/url/normalize-url.ts';
import type { CollectorFactory } from './engine.ts';
import { RelatedIndex } from './engine.ts';
import { statusDetail } from './link-checks.ts';
import { PendingFindings } from './pending.ts';
import { canonicalOf, isExternalRow, isHtmlPage, isNoindex, isRedirectStatus, isSiteUrlRow } from './row-health.ts';

/**
 * Why a listed URL is not indexable, in the words of the exports' indexability
 * column (`core/page-facts/indexability.ts`), with the status or the failure for
 * `redirected` and `not-200`: `redirected (301)`, `not-200 (404)`,
 * `not-200 (timeout)`, `noindex`…
 */
export function nonIndexableDetail(reason: NonIndexableReason, row: Pick<PageRecord, 'status' | 'error'>): string {
  if (reason !== 'redirected' && reason !== 'not-200') return reason;
  const answer = row.status ?? row.error?.code ?? 'no answer';
  return `${reason} (${answer})`;
}

export const indexingChecks: CollectorFactory = () => {
  const pending = new PendingFindings();
  /** Noindex pages, in `seq` order, with the directive that says so. */
  const noindex = new Map<string, string>();
  /** Pages linking to a noindex page or to a URL a sitemap lists. */
  const linkers = new RelatedIndex();
  /** Pages whose canonical points elsewhere, in `seq` order, with that canonical. */
  const canonicals = new Map<string, string>();
  /** What is wrong with each canonical target, from its row (scan 2); absent: fine or unknown. */
  const targetProblems = new Map<string, string>();
  /** Canonical targets that have a row (scan 2). */
  const targetsWithRow = new Set<string>();
  /** URLs the sitemaps list, with the sitemaps listing them. */
  const listed = new RelatedIndex();
  /** Listed URLs with a row of the site (scan 2), in `seq` order, with why they are not indexable (null: indexable). */
  const listedRows = new Map<string, { reason: string | null; isStart: boolean }>();
  /** Every canonical target, made when scan 2 starts (`canonicals` is complete then). */
  let targets: Set<string> | null = null;

  return {
    wants: (pass) => pass <= 2,
    see(row, pass) {
      if (pass === 1) {
        if (row.kind === 'sitemap') {
          for (const url of row.links) {
            listed.track(url);
            listed.add(url, row.url);
            linkers.track(url);
          }
        }
        if (!isHtmlPage(row)) return;
        if (isNoindex(row)) {
          noindex.set(row.url, (row.facts?.robots ?? []).includes('noindex') ? 'noindex' : 'none');
          linkers.track(row.url);
        }
        const canonical = canonicalOf(row);
        if (canonical !== null && canonical !== row.url) {
          canonicals.set(row.url, canonical);
          pending.add('canonical-elsewhere', row.url, `canonical: ${canonical}`, { urls: [canonical], count: 1 });
        }
        return;
      }
      if (row.kind === 'page') for (const link of row.links) if (link !== row.url) linkers.add(link, row.url);
      if (listed.has(row.url) && isSiteUrlRow(row) && row.kind !== 'sitemap') {
        const indexability = indexabilityOf(row);
        const reason =
          indexability === null || indexability.indexable ? null : nonIndexableDetail(indexability.reason, row);
        listedRows.set(row.url, { reason, isStart: row.referrer === null });
      }
      targets ??= new Set(canonicals.values());
      if (targets.has(row.url)) {
        targetsWithRow.add(row.url);
        if (isExternalRow(row))
          targetProblems.set(row.url, row.status === 200 ? 'on another site' : `on another site, ${statusDetail(row)}`);
        else if (row.blockedBy !== null) targetProblems.set(row.url, 'blocked by robots.txt');
        else if (isRedirectStatus(row.status)) targetProblems.set(row.url, `redirects (${row.status})`);
        else if (row.status !== 200) targetProblems.set(row.url, statusDetail(row));
      }
    },
    finish(emit, notJudged) {
      for (const [url, directive] of noindex) {
        const linked = linkers.get(url);
        if (linked.count > 0)
          pending.add(
            'noindex-linked',
            url,
            `${directive}, linked from ${linked.count === 1 ? '1 page' : `${linked.count} pages`}`,
            linked,
          );
      }
      /** Canonicals to a URL of the site the crawl never fetched (past a limit, excluded…): not judged. */
      let unknownTargets = 0;
      for (const [page, canonical] of canonicals) {
        let problem = targetProblems.get(canonical);
        if (problem === undefined && !targetsWithRow.has(canonical)) {
          if (originOf(canonical) !== originOf(page)) problem = 'on another site, not crawled';
          else unknownTargets += 1;
        }
        if (problem !== undefined)
          pending.add('canonical-to-non-200', page, `canonical ${canonical}: ${problem}`, {
            urls: [canonical],
            count: 1,
          });
      }
      notJudged('canonical-to-non-200', unknownTargets);
      for (const [url, { reason, isStart }] of listedRows) {
        const sitemaps = listed.get(url);
        if (!isStart && linkers.get(url).count === 0)
          pending.add('sitemap-orphan', url, 'listed in a sitemap, linked from no crawled page', sitemaps);
        if (reason !== null) pending.add('sitemap-non-indexable', url, `listed in a sitemap: ${reason}`, sitemaps);
      }
      pending.emitTo(emit);
    },
  };
};

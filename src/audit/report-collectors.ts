/**
 * How each of the five reports (see `report-types.ts`) reads the crawl's rows
 * in the audit engine's scans (`engine.ts`) when built alone. The broken
 * resources, redirects, blocked and duplicates reports are views of the
 * judges the checks fill (`broken-judgements.ts`, `link-judgements.ts`,
 * `duplicate-judgement.ts`, shaped by `report-views.ts`): the Issues and the
 * report judge those once. The broken links still collect their own rows,
 * with the predicates the Issues checks use (`row-health.ts`): what they
 * list is what the checks flag (`reports-agree-with-issues.test.ts`).
 *
 * Memory: one entry per row a report keeps (broken, redirecting, blocked,
 * duplicated), never one per row of the crawl. Pure: no Dexie, no browser API.
 */
import type { PageRecord } from '../core/model.ts';
import type { PassReader } from './engine.ts';
import { BlockedJudge, RedirectJudge, errorText } from './link-judgements.ts';
import { DuplicateJudge } from './duplicate-judgement.ts';
import { blockedReportOf, brokenResourcesReportOf, duplicatesReportOf, redirectsReportOf } from './report-views.ts';
import { BrokenResourceJudge } from './broken-judgements.ts';
import { statusDetail } from './link-checks.ts';
import { isBrokenRow } from './row-health.ts';
import type {
  BlockedReport,
  BrokenLinksReport,
  BrokenResourcesReport,
  BrokenTarget,
  DuplicatesReport,
  LinkingPage,
  RedirectsReport,
} from './report-types.ts';

/**
 * A report as the audit engine's scans read it: at most two scans, then
 * {@link ReportCollector.finish} makes the report.
 */
export interface ReportCollector<R> extends PassReader {
  finish(): R;
}

/** A collector reading scan 1 with `first` and scan 2 with `second`. */
function twoScans<R>(
  first: (row: PageRecord) => void,
  second: (row: PageRecord) => void,
  finish: () => R,
): ReportCollector<R> {
  return { wants: (pass) => pass <= 2, see: (row, pass) => (pass === 1 ? first(row) : second(row)), finish };
}

/**
 * First scan: the broken rows. Second scan: the links pointing to them. A
 * broken resource is left out unless a page links to it (it is in the broken
 * resources).
 */
export function brokenLinksCollector(): ReportCollector<BrokenLinksReport> {
  /** Broken targets by URL, in `seq` order of their rows; linking pages keyed by URL (each page once). */
  const targets = new Map<string, { target: BrokenTarget; isResource: boolean; linkers: Map<string, LinkingPage> }>();
  return twoScans(
    (row) => {
      if (!isBrokenRow(row) || targets.has(row.url)) return;
      targets.set(row.url, {
        target: { url: row.url, status: row.status, error: errorText(row), linkingPages: [] },
        isResource: row.kind === 'resource',
        linkers: new Map(),
      });
    },
    (row) => {
      row.links.forEach((link, index) => {
        const entry = targets.get(link);
        if (entry === undefined || entry.linkers.has(row.url)) return;
        entry.linkers.set(row.url, { url: row.url, anchorText: row.linkTexts[index] ?? '' });
      });
    },
    () => {
      const list = [...targets.values()]
        .filter(({ isResource, linkers }) => !isResource || linkers.size > 0)
        .map(({ target, linkers }) => ({ ...target, linkingPages: [...linkers.values()] }));
      // Array.prototype.sort is stable: equal counts keep `seq` order.
      list.sort((a, b) => b.linkingPages.length - a.linkingPages.length);
      return { kind: 'broken-links', targets: list };
    },
  );
}

/** The resources the `broken-resource` check flags, with every row using each (a view of {@link BrokenResourceJudge}). */
export function brokenResourcesCollector(): ReportCollector<BrokenResourcesReport> {
  const judge = new BrokenResourceJudge(statusDetail, true);
  return {
    wants: (pass) => judge.wants(pass),
    see: (row, pass) => judge.see(row, pass),
    finish: () => brokenResourcesReportOf(judge),
  };
}

/** The chains the `redirect-chain` and `redirect-loop` checks judge (a view of {@link RedirectJudge}), with the rows they end on. */
export function redirectsCollector(): ReportCollector<RedirectsReport> {
  const judge = new RedirectJudge(true);
  return {
    wants: (pass) => judge.wants(pass),
    see: (row, pass) => judge.see(row, pass),
    finish: () => redirectsReportOf(judge),
  };
}

/** One scan: the site's blocked URLs the `link-to-blocked` check judges (a view of {@link BlockedJudge}). */
export function blockedCollector(): ReportCollector<BlockedReport> {
  const judge = new BlockedJudge();
  return {
    wants: (pass) => judge.wants(pass),
    see: (row, pass) => judge.see(row, pass),
    finish: () => blockedReportOf(judge),
  };
}

/** The groups the `duplicate-content` check flags (a view of {@link DuplicateJudge}). */
export function duplicatesCollector(): ReportCollector<DuplicatesReport> {
  const judge = new DuplicateJudge();
  return {
    wants: (pass) => judge.wants(pass),
    see: (row, pass) => judge.see(row, pass),
    finish: () => duplicatesReportOf(judge),
  };
}

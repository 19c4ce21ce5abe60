/**
 * How a report built alone (`buildReport`) reads the crawl's rows: the judge
 * its checks fill (`broken-judgements.ts`, `link-judgements.ts`,
 * `duplicate-judgement.ts`), run without the checks, then shaped by its view
 * (`report-views.ts`). The broken links need the checks' findings, so they
 * run the link checks (`reports.ts`). Built alone or together, a report
 * shows what the Issues judge, judged by the same code.
 *
 * Memory: one entry per row a report keeps (broken, redirecting, blocked,
 * duplicated), never one per row of the crawl. Pure: no Dexie, no browser API.
 */
import { BrokenResourceJudge } from './broken-judgements.ts';
import { DuplicateJudge } from './duplicate-judgement.ts';
import type { PassReader } from './engine.ts';
import { statusDetail } from './link-checks.ts';
import { BlockedJudge, RedirectJudge } from './link-judgements.ts';
import { blockedReportOf, brokenResourcesReportOf, duplicatesReportOf, redirectsReportOf } from './report-views.ts';
import type { BlockedReport, BrokenResourcesReport, DuplicatesReport, RedirectsReport } from './report-types.ts';

/** A report as the audit engine's scans read it (`engine.ts`); {@link ReportCollector.finish} makes it after the scans. */
export interface ReportCollector<R> extends PassReader {
  finish(): R;
}

/** The collector reading the rows into `judge`, then making the report with `view`. */
function viewOf<J extends PassReader, R>(judge: J, view: (judge: J) => R): ReportCollector<R> {
  return { wants: (pass) => judge.wants(pass), see: (row, pass) => judge.see(row, pass), finish: () => view(judge) };
}

/** The resources the `broken-resource` check flags, with every row using each. Two scans. */
export function brokenResourcesCollector(): ReportCollector<BrokenResourcesReport> {
  return viewOf(new BrokenResourceJudge(statusDetail, true), brokenResourcesReportOf);
}

/** The chains the `redirect-chain` and `redirect-loop` checks judge, with the rows they end on. Two scans. */
export function redirectsCollector(): ReportCollector<RedirectsReport> {
  return viewOf(new RedirectJudge(true), redirectsReportOf);
}

/** The site's blocked URLs the `link-to-blocked` check judges. One scan. */
export function blockedCollector(): ReportCollector<BlockedReport> {
  return viewOf(new BlockedJudge(), blockedReportOf);
}

/** The groups the `duplicate-content` check flags. Two scans. */
export function duplicatesCollector(): ReportCollector<DuplicatesReport> {
  return viewOf(new DuplicateJudge(), duplicatesReportOf);
}

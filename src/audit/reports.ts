/**
 * The five reports a site owner reads after a crawl (`report-types.ts`),
 * built from the crawl's rows by the audit engine's scans: one builder per
 * report, and {@link buildAllReports} for all five in two scans together.
 *
 * Pure: rows come in as a {@link RowScan}, a function that starts a fresh
 * scan of the crawl table in `seq` order. A report that needs to know a
 * row's fate before it can keep what points to it (broken links, redirect
 * targets, duplicate originals) reads the rows twice instead of holding the
 * crawl: memory stays proportional to the report, not the crawl.
 */
import { runChecks, scanInPasses, type RowScan } from './engine.ts';
import { BlockedJudge, RedirectJudge } from './link-judgements.ts';
import { linkChecksJudging, statusDetail, type LinkJudges } from './link-checks.ts';
import { blockedReportOf, brokenResourcesReportOf, duplicatesReportOf, redirectsReportOf } from './report-views.ts';
import { BrokenResourceJudge } from './broken-judgements.ts';
import { DuplicateJudge } from './duplicate-judgement.ts';
import { pageChecksJudging } from './page-checks.ts';
import { DEFAULT_THRESHOLDS, type AuditThresholds } from './thresholds.ts';
import {
  blockedCollector,
  brokenLinksCollector,
  brokenResourcesCollector,
  duplicatesCollector,
  redirectsCollector,
  type ReportCollector,
} from './report-collectors.ts';
import type {
  AllReports,
  BlockedReport,
  BrokenLinksReport,
  BrokenResourcesReport,
  DuplicatesReport,
  RedirectsReport,
  Report,
  ReportKind,
  ReportOf,
} from './report-types.ts';

export type { RowScan };
// The reports' shapes, so a view imports one module.
export * from './report-types.ts';

async function buildOne<R>(scan: RowScan, collector: ReportCollector<R>): Promise<R> {
  await scanInPasses(scan, [collector]);
  return collector.finish();
}

/** Broken links, in two scans. */
export function buildBrokenLinks(scan: RowScan): Promise<BrokenLinksReport> {
  return buildOne(scan, brokenLinksCollector());
}

/** Broken page resources, in two scans. */
export function buildBrokenResources(scan: RowScan): Promise<BrokenResourcesReport> {
  return buildOne(scan, brokenResourcesCollector());
}

/** Redirect chains and loops, in two scans. */
export function buildRedirects(scan: RowScan): Promise<RedirectsReport> {
  return buildOne(scan, redirectsCollector());
}

/** Rows blocked by robots.txt, in one scan. */
export function buildBlocked(scan: RowScan): Promise<BlockedReport> {
  return buildOne(scan, blockedCollector());
}

/** Duplicate content groups, in two scans. */
export function buildDuplicates(scan: RowScan): Promise<DuplicatesReport> {
  return buildOne(scan, duplicatesCollector());
}

/** The report of one kind. */
export function buildReport<K extends ReportKind>(kind: K, scan: RowScan): Promise<ReportOf<K>>;
export function buildReport(kind: ReportKind, scan: RowScan): Promise<Report> {
  switch (kind) {
    case 'broken-links':
      return buildBrokenLinks(scan);
    case 'broken-resources':
      return buildBrokenResources(scan);
    case 'redirects':
      return buildRedirects(scan);
    case 'blocked':
      return buildBlocked(scan);
    case 'duplicates':
      return buildDuplicates(scan);
  }
}

/**
 * All five reports from two scans of the rows. The *Broken resources*,
 * *Redirects*, *Blocked* and *Duplicate content* reports are views of what the link and page checks
 * judge in those scans (their judges are filled by the checks themselves,
 * `linkChecksJudging`, `pageChecksJudging`), so they show what the Issues
 * flag, judged once.
 */
export async function buildAllReports(
  scan: RowScan,
  thresholds: AuditThresholds = DEFAULT_THRESHOLDS,
): Promise<AllReports> {
  const judges: LinkJudges = {
    redirects: new RedirectJudge(true),
    blocked: new BlockedJudge(),
    resources: new BrokenResourceJudge(statusDetail, true),
  };
  const duplicates = new DuplicateJudge();
  const collectors = { 'broken-links': brokenLinksCollector() };
  await runChecks(
    scan,
    [linkChecksJudging(judges), pageChecksJudging(duplicates)],
    thresholds,
    Object.values(collectors),
  );
  return {
    'broken-links': collectors['broken-links'].finish(),
    'broken-resources': brokenResourcesReportOf(judges.resources),
    redirects: redirectsReportOf(judges.redirects),
    blocked: blockedReportOf(judges.blocked),
    duplicates: duplicatesReportOf(duplicates),
  };
}

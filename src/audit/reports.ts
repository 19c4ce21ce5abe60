/**
 * The five reports a site owner reads after a crawl (`report-types.ts`),
 * built from the crawl's rows by the audit engine's scans: one builder per
 * report, and {@link buildAllReports} for all five in two scans together.
 *
 * Each report is a view of what one group of Issues checks judges (issue 28):
 * the checks fill judges in their scans (`broken-judgements.ts`,
 * `link-judgements.ts`, `duplicate-judgement.ts`) and make their findings
 * from them; a report is shaped from the same judges, and the broken links
 * from the checks' findings (`report-views.ts`). A report built alone runs
 * its judge alone (`report-collectors.ts`).
 *
 * Pure: rows come in as a {@link RowScan}, a function that starts a fresh
 * scan of the crawl table in `seq` order. A report that needs to know a
 * row's fate before it can keep what points to it (broken links, redirect
 * targets, duplicate originals) reads the rows twice instead of holding the
 * crawl: memory stays proportional to the report, not the crawl.
 */
import { runChecks, scanInPasses, type AuditResult, type Finding, type RowScan } from './engine.ts';
import { BlockedJudge, RedirectJudge } from './link-judgements.ts';
import { linkChecksJudging, statusDetail, type LinkJudges } from './link-checks.ts';
import {
  blockedReportOf,
  brokenLinksReportOf,
  brokenResourcesReportOf,
  duplicatesReportOf,
  redirectsReportOf,
} from './report-views.ts';
import { BrokenLinkJudge, BrokenResourceJudge } from './broken-judgements.ts';
import { DuplicateJudge } from './duplicate-judgement.ts';
import { pageChecksJudging } from './page-checks.ts';
import { DEFAULT_THRESHOLDS, type AuditThresholds } from './thresholds.ts';
import {
  blockedCollector,
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

/** Broken links, in two scans: the link checks' findings, with every linking page. */
export async function buildBrokenLinks(
  scan: RowScan,
  thresholds: AuditThresholds = DEFAULT_THRESHOLDS,
): Promise<BrokenLinksReport> {
  const judges = reportJudges();
  const audit = await runChecks(scan, [linkChecksJudging(judges)], thresholds);
  return brokenLinksReportOf(brokenLinkFindings(audit), judges.links);
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
  const judges = reportJudges();
  const duplicates = new DuplicateJudge();
  const audit = await runChecks(scan, [linkChecksJudging(judges), pageChecksJudging(duplicates)], thresholds);
  return {
    'broken-links': brokenLinksReportOf(brokenLinkFindings(audit), judges.links),
    'broken-resources': brokenResourcesReportOf(judges.resources),
    redirects: redirectsReportOf(judges.redirects),
    blocked: blockedReportOf(judges.blocked),
    duplicates: duplicatesReportOf(duplicates),
  };
}

/** The link checks' judges, keeping what the reports show (every linking page, every user, the chains' ends). */
function reportJudges(): LinkJudges {
  return {
    links: new BrokenLinkJudge(statusDetail, true),
    redirects: new RedirectJudge(true),
    blocked: new BlockedJudge(),
    resources: new BrokenResourceJudge(statusDetail, true),
  };
}

/** The findings of the broken-link checks, internal and external. */
function brokenLinkFindings(audit: AuditResult): Finding[] {
  return [...(audit.findings.get('broken-link-internal') ?? []), ...(audit.findings.get('broken-link-external') ?? [])];
}

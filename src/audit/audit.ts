/**
 * The Issues audit of a crawl: every check of the registry (`checks.ts`) run
 * over the rows in at most three scans (see `engine.ts`).
 *
 * Pure: no Dexie, no browser API.
 */
import { anchorChecks } from './anchor-checks.ts';
import { SEVERITIES, checkInfo, type CheckId, type Severity } from './checks.ts';
import { contentChecks } from './content-checks.ts';
import { runChecks, type AuditResult, type CollectorFactory, type PassReader, type RowScan } from './engine.ts';
import { indexingChecks } from './indexing-checks.ts';
import { linkChecks } from './link-checks.ts';
import { pageChecks } from './page-checks.ts';
import { renderChecks } from './render-checks.ts';
import { DEFAULT_THRESHOLDS, type AuditThresholds } from './thresholds.ts';

/** Every group of checks; together they cover every id of the registry (a unit test holds them to it). */
export const COLLECTORS: readonly CollectorFactory[] = Object.freeze([
  linkChecks,
  anchorChecks,
  contentChecks,
  indexingChecks,
  pageChecks,
  renderChecks,
]);

/**
 * Runs every check over the crawl's rows.
 * @param alongside other readers fed by the same scans (see `runChecks`). @default none
 */
export function runAudit(
  scan: RowScan,
  thresholds: AuditThresholds = DEFAULT_THRESHOLDS,
  alongside: readonly PassReader[] = [],
): Promise<AuditResult> {
  return runChecks(scan, COLLECTORS, thresholds, alongside);
}

/** Issues by severity: the number of (check, URL) findings of each. */
export type SeverityCounts = Record<Severity, number>;

/** Issues by severity. */
export function countsBySeverity(result: AuditResult): SeverityCounts {
  const counts: SeverityCounts = { error: 0, warning: 0, notice: 0 };
  for (const [check, findings] of result.findings) counts[checkInfo(check).severity] += findings.length;
  return counts;
}

/** `3 errors, 1 warning, 0 notices`. */
export function severityCountsText(counts: SeverityCounts): string {
  return SEVERITIES.map((severity) => `${counts[severity]} ${counts[severity] === 1 ? severity : `${severity}s`}`).join(
    ', ',
  );
}

/**
 * Failed checks as a summary names them: the most severe first (errors, then warnings, then notices),
 * then the most issues; ties keep their order (the registry's). So a notice never hides an error.
 */
export function worstChecksFirst<T extends { check: CheckId; count: number }>(checks: readonly T[]): T[] {
  const rank = (check: CheckId): number => SEVERITIES.indexOf(checkInfo(check).severity);
  return [...checks].sort((a, b) => rank(a.check) - rank(b.check) || b.count - a.count);
}

/** Checks with at least one issue and their counts, in registry order. */
export function failedChecks(result: AuditResult): { check: CheckId; count: number }[] {
  return [...result.findings]
    .filter(([, findings]) => findings.length > 0)
    .map(([check, findings]) => ({ check, count: findings.length }));
}

export { issuesByUrl, countsByCheck, type AuditResult, type Finding, type PassReader, type RowScan } from './engine.ts';

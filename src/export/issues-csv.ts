/**
 * The Issues view as CSV: one line per (check, URL), encoded as the crawl's
 * CSV export is (BOM, CRLF, formulas defused: see `csv.ts`). Columns:
 * `check,severity,url,detail,related count,related`, the related URLs (the
 * pages linking to a broken URL, the pages sharing a title…; at most
 * `RELATED_MAX`) joined with ` | `. Lines go check by check in the registry's
 * order, each check's URLs in the order of their rows.
 *
 * The same text is written by the Issues view's downloads (one check, or all)
 * and by the export page as the format `issues.csv` (the command line's
 * `--out NAME.issues.csv`).
 */
import { runAudit } from '../audit/audit.ts';
import { checkInfo, type CheckId } from '../audit/checks.ts';
import type { AuditResult, Finding } from '../audit/engine.ts';
import type { PageRecord } from '../core/model.ts';
import { CSV_BOM, csvLine } from './csv.ts';
import type { FormatWriter } from './export-source.ts';

export const ISSUES_CSV_HEADER = Object.freeze(['check', 'severity', 'url', 'detail', 'related count', 'related']);

/** One line of the Issues CSV. */
export function issueCsvLine(finding: Finding): string {
  return csvLine([
    finding.check,
    checkInfo(finding.check).severity,
    finding.url,
    finding.detail,
    finding.relatedCount,
    finding.related,
  ]);
}

/** The Issues CSV of `checks` (every check when absent): BOM, header, a line per finding. */
export function issuesToCsv(result: AuditResult, checks?: readonly CheckId[]): string {
  const parts = [CSV_BOM, csvLine(ISSUES_CSV_HEADER)];
  for (const [check, findings] of result.findings) {
    if (checks !== undefined && !checks.includes(check)) continue;
    for (const finding of findings) parts.push(issueCsvLine(finding));
  }
  return parts.join('');
}

/**
 * The Issues CSV as a {@link FormatWriter}: the checks read the rows (up to
 * three scans; a row counts as written as the first scan reads it), then the
 * lines are written a check at a time.
 */
export const writeIssuesCsv: FormatWriter = async function* (source, context) {
  let scans = 0;
  const result = await runAudit(() => {
    scans += 1;
    return scans === 1 ? counted(source.rows(), context.onRow) : source.rows();
  });
  const encoder = new TextEncoder();
  yield encoder.encode(`${CSV_BOM}${csvLine(ISSUES_CSV_HEADER)}`);
  for (const findings of result.findings.values()) {
    if (findings.length === 0) continue;
    yield encoder.encode(findings.map(issueCsvLine).join(''));
  }
};

async function* counted(rows: AsyncIterable<PageRecord>, onRow: () => void): AsyncGenerator<PageRecord> {
  for await (const row of rows) {
    yield row;
    onRow();
  }
}

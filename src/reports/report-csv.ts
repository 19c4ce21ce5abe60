/**
 * Reports as CSV files, encoded as the crawl's CSV export is (RFC 4180,
 * CRLF, formulas defused, a BOM for Excel: see `src/export/csv.ts`).
 *
 * One line per detail so a spreadsheet can filter and sort:
 *
 * - broken links: `target,status,error,linking page,anchor text`, one line per
 *   (target, linking page); a target nobody links to gets one line with the
 *   last two cells empty;
 * - broken resources: `resource,type,status,problem,found via,used by,used by kind`,
 *   one line per (resource, row using it); a resource no row lists (the target
 *   of a resource's redirect: see `found via`) gets one line with the last two
 *   cells empty;
 * - redirects: `start,hops,hop URLs,hop statuses,final URL,final status,outcome,long chain,loop`,
 *   one line per chain (hops joined with ` | `);
 * - blocked: `url,rule,referrer`;
 * - duplicates: `group,sha256,url,status,original`, one line per member.
 */
import type { CrawlRecord } from '../core/model.ts';
import type { CrawlSettings } from '../core/settings.ts';
import { CSV_BOM, csvLine, type CsvCell } from '../export/csv.ts';
import type { BrokenResource, ChainEnd, Report, ReportKind } from '../audit/reports.ts';

/** The header of each report's CSV. */
export const REPORT_CSV_HEADERS: { readonly [K in ReportKind]: readonly string[] } = Object.freeze({
  'broken-links': ['target', 'status', 'error', 'linking page', 'anchor text'],
  'broken-resources': ['resource', 'type', 'status', 'problem', 'found via', 'used by', 'used by kind'],
  redirects: [
    'start',
    'hops',
    'hop URLs',
    'hop statuses',
    'final URL',
    'final status',
    'outcome',
    'long chain',
    'loop',
  ],
  blocked: ['url', 'rule', 'referrer'],
  duplicates: ['group', 'sha256', 'url', 'status', 'original'],
});

/** How a chain ends, in words: `page`, `failed`, `blocked`, `not crawled`, `loop`, `no Location`. */
export function chainOutcome(end: ChainEnd): string {
  switch (end.kind) {
    case 'page':
      if (end.isBlocked) return 'blocked';
      return end.status === null ? 'failed' : 'page';
    case 'not-crawled':
      return 'not crawled';
    case 'loop':
      return 'loop';
    case 'no-location':
      return 'no Location';
  }
}

/**
 * What is wrong with a broken resource, in words: `404`, `timeout: no answer in 30 s`,
 * `blocked by robots.txt (Disallow: /private)`.
 */
export function resourceProblem(
  resource: Pick<BrokenResource, 'status' | 'error' | 'isBlocked' | 'blockedRule'>,
): string {
  if (resource.isBlocked)
    return resource.blockedRule === null ? 'blocked by robots.txt' : `blocked by robots.txt (${resource.blockedRule})`;
  if (resource.status !== null) return String(resource.status);
  return resource.error ?? 'failed';
}

/** The URL a chain ends on, or null when the last hop names none. */
export function chainEndUrl(end: ChainEnd): string | null {
  return end.kind === 'no-location' ? null : end.url;
}

/** The data lines of a report (no header), as cells. */
export function reportCsvRows(report: Report): CsvCell[][] {
  switch (report.kind) {
    case 'broken-links':
      return report.targets.flatMap((target) =>
        target.linkingPages.length === 0
          ? [[target.url, target.status, target.error, null, null]]
          : target.linkingPages.map((page) => [target.url, target.status, target.error, page.url, page.anchorText]),
      );
    case 'broken-resources':
      return report.resources.flatMap((resource) => {
        const cells: CsvCell[] = [
          resource.url,
          resource.type,
          resource.status,
          resourceProblem(resource),
          resource.referrer,
        ];
        return resource.users.length === 0
          ? [[...cells, null, null]]
          : resource.users.map((user) => [...cells, user.url, user.kind]);
      });
    case 'redirects':
      return report.chains.map((chain) => [
        chain.hops[0]?.url ?? null,
        chain.hops.length,
        chain.hops.map((hop) => hop.url),
        chain.hops.map((hop) => String(hop.status)),
        chainEndUrl(chain.end),
        chain.end.kind === 'page' ? chain.end.status : null,
        chainOutcome(chain.end),
        chain.isLong,
        chain.isLoop,
      ]);
    case 'blocked':
      return report.rows.map((row) => [row.url, row.rule, row.referrer]);
    case 'duplicates':
      return report.groups.flatMap((group, index) =>
        group.members.map((member) => [index + 1, group.sha256, member.url, member.status, member.isOriginal]),
      );
  }
}

/** The whole CSV file of a report: BOM, header, then one CRLF-terminated line per row. */
export function reportToCsv(report: Report): string {
  return [CSV_BOM, csvLine(REPORT_CSV_HEADERS[report.kind]), ...reportCsvRows(report).map(csvLine)].join('');
}

/** What a report's file name needs of a crawl (a `CrawlRecord` or the popup's crawl summary both fit). */
export interface ReportCrawl {
  createdAt: CrawlRecord['createdAt'];
  settings: Pick<CrawlSettings, 'startUrl'>;
}

/** `<host>-<yyyy-mm-dd>-<kind>.csv`, from the crawl's start URL and start date (UTC), e.g. `example.com-2026-11-21-broken-links.csv`. */
export function reportFileName(crawl: ReportCrawl, kind: ReportKind): string {
  const host = new URL(crawl.settings.startUrl).host.replace(/[^A-Za-z0-9.-]+/g, '_');
  const date = new Date(crawl.createdAt).toISOString().slice(0, 10);
  return `${host}-${date}-${kind}.csv`;
}

/**
 * The reports panel: pick one of the five reports, read it as a table,
 * download it as CSV.
 *
 * Platform-free: the rows come in as {@link ReportsViewProps.loadRows} and the
 * file goes out through {@link ReportsViewProps.saveCsv}, so tests render it in
 * a plain page. Row data is only ever rendered as text (never as HTML, never
 * as a link's `href`): crawled pages choose their URLs and anchor texts.
 *
 * ```
 * building ──(reports built)──► ready
 *    └──────(scan failed)─────► failed
 * ```
 *
 * The host page loads `reports-view.css` (next to this file) for the layout;
 * the colours come from `src/ui/theme.css`.
 */
import { UrlLink } from './url-link.tsx';
import { createContext } from 'preact';
import { useContext, useEffect, useId, useState } from 'preact/hooks';
import {
  REPORT_KINDS,
  buildAllReports,
  reportCount,
  type AllReports,
  type BlockedReport,
  type BrokenLinksReport,
  type BrokenResourcesReport,
  type ChainEnd,
  type DuplicatesReport,
  type RedirectsReport,
  type Report,
  type ReportKind,
  type RowScan,
} from '../audit/reports.ts';
import {
  chainEndUrl,
  chainOutcome,
  reportFileName,
  reportToCsv,
  resourceProblem,
  type ReportCrawl,
} from './report-csv.ts';

/** Saves `text` as a file named `fileName` (e.g. through the downloads API); may be async. */
export type SaveCsv = (fileName: string, text: string) => void | Promise<unknown>;

export interface ReportsViewProps {
  /** Starts a scan of the crawl's rows in `seq` order; called twice per build (see `buildAllReports`). */
  loadRows: RowScan;
  /** The crawl the rows belong to: names the CSV files. */
  crawl: ReportCrawl;
  saveCsv: SaveCsv;
  /** The report shown first. @default 'broken-links' */
  initialKind?: ReportKind;
  /** Most table rows shown per report; the CSV always has them all. @default 500 */
  maxTableRows?: number;
  /** Opens a URL's detail (the results tab's); without it, URLs are plain text. */
  onOpenUrl?: (url: string) => void;
  /** Told once the reports are shown (the owner may scroll to where the user was then). */
  onReady?: () => void;
}

/** How a report's URLs open their detail, for every row component below the panel. */
const OpenUrl = createContext<((url: string) => void) | undefined>(undefined);

/** A URL of a report: a link to its detail when the panel can open one, else text. */
function ReportUrl({ url }: { url: string }) {
  return <UrlLink url={url} onOpen={useContext(OpenUrl)} testId="report-url" />;
}

/** What the panel shows. */
type ViewState = { state: 'building' } | { state: 'ready'; reports: AllReports } | { state: 'failed'; message: string };

/** Name of each report in the picker. */
export const REPORT_TITLES: { readonly [K in ReportKind]: string } = Object.freeze({
  'broken-links': 'Broken links',
  'broken-resources': 'Broken resources',
  redirects: 'Redirect chains and loops',
  blocked: 'Blocked by robots.txt',
  duplicates: 'Duplicate content',
});

/** The count line of a report, e.g. `3 broken URLs`. */
export function countText(report: Report): string {
  const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;
  const count = reportCount(report);
  switch (report.kind) {
    case 'broken-links':
      return plural(count, 'broken URL', 'broken URLs');
    case 'broken-resources':
      return plural(count, 'broken resource', 'broken resources');
    case 'redirects': {
      // The Issues' words: a loop is a loop, not also a chain; a chain has more than one hop.
      const loops = report.chains.filter((c) => c.isLoop).length;
      const long = report.chains.filter((c) => !c.isLoop && c.isLong).length;
      const single = count - loops - long;
      const parts = [
        loops > 0 ? plural(loops, 'redirect loop', 'redirect loops') : '',
        long > 0 ? plural(long, 'redirect chain of more than one hop', 'redirect chains of more than one hop') : '',
        single > 0 ? plural(single, 'single redirect', 'single redirects') : '',
      ].filter((part) => part !== '');
      return parts.length === 0 ? 'No redirect' : parts.join(', ');
    }
    case 'blocked':
      return plural(count, 'URL blocked by robots.txt', 'URLs blocked by robots.txt');
    case 'duplicates':
      return plural(count, 'group of identical pages', 'groups of identical pages');
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The reports panel: builds all five reports on mount, then shows the chosen one. */
export function ReportsView({
  loadRows,
  crawl,
  saveCsv,
  initialKind = 'broken-links',
  maxTableRows = 500,
  onOpenUrl,
  onReady,
}: ReportsViewProps) {
  const [view, setView] = useState<ViewState>({ state: 'building' });
  const [kind, setKind] = useState<ReportKind>(initialKind);
  const [saveError, setSaveError] = useState<string | null>(null);
  const selectId = useId();

  useEffect(() => {
    let isCancelled = false;
    setView({ state: 'building' });
    buildAllReports(loadRows).then(
      (reports) => {
        if (!isCancelled) setView({ state: 'ready', reports });
      },
      (error: unknown) => {
        if (!isCancelled) setView({ state: 'failed', message: errorMessage(error) });
      },
    );
    return () => {
      isCancelled = true;
    };
  }, [loadRows]);

  const isReady = view.state === 'ready';
  useEffect(() => {
    if (isReady) onReady?.();
    // Once per build: a new `onReady` from a re-render is not a new build.
  }, [isReady]);

  const report = view.state === 'ready' ? view.reports[kind] : null;

  const download = (): void => {
    if (report === null) return;
    setSaveError(null);
    try {
      Promise.resolve(saveCsv(reportFileName(crawl, report.kind), reportToCsv(report))).catch((error: unknown) => {
        setSaveError(errorMessage(error));
      });
    } catch (error) {
      setSaveError(errorMessage(error));
    }
  };

  return (
    <OpenUrl.Provider value={onOpenUrl}>
      <section class="reports" data-state={view.state} aria-busy={view.state === 'building'}>
        <div class="reports-bar">
          <label for={selectId}>Report</label>
          <select
            id={selectId}
            data-testid="report-select"
            value={kind}
            onChange={(event) => {
              const value = event.currentTarget.value;
              const picked = REPORT_KINDS.find((k) => k === value);
              if (picked !== undefined) {
                setKind(picked);
                setSaveError(null);
              }
            }}
          >
            {REPORT_KINDS.map((k) => (
              <option key={k} value={k}>
                {view.state === 'ready' ? `${REPORT_TITLES[k]} (${reportCount(view.reports[k])})` : REPORT_TITLES[k]}
              </option>
            ))}
          </select>
          <button type="button" data-testid="report-download" disabled={report === null} onClick={download}>
            Download CSV
          </button>
        </div>
        {view.state === 'building' && (
          <p class="reports-status" role="status" data-testid="report-status">
            Building report…
          </p>
        )}
        {view.state === 'failed' && (
          <p class="reports-status reports-failed" role="alert" data-testid="report-status">
            Could not build the reports: {view.message}
          </p>
        )}
        {saveError !== null && (
          <p class="reports-status reports-failed" role="alert" data-testid="report-save-error">
            Could not save the CSV: {saveError}
          </p>
        )}
        {report !== null && (
          <>
            <p class="reports-count" data-testid="report-count" data-count={reportCount(report)}>
              {countText(report)}
            </p>
            <ReportTable report={report} maxRows={maxTableRows} />
          </>
        )}
      </section>
    </OpenUrl.Provider>
  );
}

/** The table of one report, or a line saying it is empty; at most `maxRows` rows. */
function ReportTable({ report, maxRows }: { report: Report; maxRows: number }) {
  const count = reportCount(report);
  if (count === 0) {
    return (
      <p class="reports-empty" data-testid="report-empty">
        Nothing to report.
      </p>
    );
  }
  return (
    <>
      <div class="reports-scroll">
        <table class="reports-table" data-testid="report-table" data-kind={report.kind}>
          {report.kind === 'broken-links' && <BrokenLinksRows report={report} maxRows={maxRows} />}
          {report.kind === 'broken-resources' && <BrokenResourceRows report={report} maxRows={maxRows} />}
          {report.kind === 'redirects' && <RedirectRows report={report} maxRows={maxRows} />}
          {report.kind === 'blocked' && <BlockedRows report={report} maxRows={maxRows} />}
          {report.kind === 'duplicates' && <DuplicateRows report={report} maxRows={maxRows} />}
        </table>
      </div>
      {count > maxRows && (
        <p class="reports-note" data-testid="report-truncated">
          Showing the first {maxRows} of {count}; the CSV has them all.
        </p>
      )}
    </>
  );
}

function Head({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col">
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A status as read: the number, or why there is none. */
function statusText(status: number | null, error: string | null): string {
  if (status !== null) return String(status);
  return error === null ? 'no answer' : `failed (${error})`;
}

function BrokenLinksRows({ report, maxRows }: { report: BrokenLinksReport; maxRows: number }) {
  return (
    <>
      <Head columns={['Broken URL', 'Status', 'Linked from (anchor text)']} />
      <tbody>
        {report.targets.slice(0, maxRows).map((target) => (
          <tr key={target.url}>
            <td>
              <ReportUrl url={target.url} />
            </td>
            <td>{statusText(target.status, target.error)}</td>
            <td>
              {target.linkingPages.length === 0 ? (
                <span class="reports-muted">no crawled page links here</span>
              ) : (
                <ul class="reports-list">
                  {target.linkingPages.map((page) => (
                    <li key={page.url}>
                      <ReportUrl url={page.url} />
                      {page.anchorText === '' ? <span class="reports-muted"> (no text)</span> : ` “${page.anchorText}”`}
                    </li>
                  ))}
                </ul>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </>
  );
}

function BrokenResourceRows({ report, maxRows }: { report: BrokenResourcesReport; maxRows: number }) {
  return (
    <>
      <Head columns={['Resource', 'Type', 'Problem', 'Used by']} />
      <tbody>
        {report.resources.slice(0, maxRows).map((resource) => (
          <tr key={resource.url} data-testid="broken-resource" data-type={resource.type}>
            <td>
              <ReportUrl url={resource.url} />
            </td>
            <td>{resource.type}</td>
            <td>{resourceProblem(resource)}</td>
            <td>
              {resource.users.length === 0 ? (
                resource.referrer === null ? (
                  <span class="reports-muted">no crawled page uses it</span>
                ) : (
                  <>
                    <span class="reports-muted">no page lists it; reached from </span>
                    <ReportUrl url={resource.referrer} />
                  </>
                )
              ) : (
                <ul class="reports-list">
                  {resource.users.map((user) => (
                    <li key={user.url}>
                      <ReportUrl url={user.url} />
                      {user.kind !== 'page' && (
                        <span class="reports-muted"> ({user.kind === 'resource' ? 'stylesheet' : user.kind})</span>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </>
  );
}

/** What comes before the URL a chain ends on, e.g. `200`, `loop back to`; null when it ends on no URL. */
function chainEndLead(end: ChainEnd): string | null {
  switch (end.kind) {
    case 'page':
      return end.isBlocked ? 'blocked by robots.txt:' : statusText(end.status, end.error);
    case 'loop':
      return 'loop back to';
    case 'not-crawled':
      return 'not crawled:';
    case 'no-location':
      return null;
  }
}

/** The end of a chain, e.g. `200 https://a.example/` or `loop back to https://a.example/x`, its URL opening its detail. */
function ChainEndText({ end }: { end: ChainEnd }) {
  const url = chainEndUrl(end);
  const lead = chainEndLead(end);
  if (url === null || lead === null) return <>{chainOutcome(end)}</>;
  return (
    <>
      {lead} <ReportUrl url={url} />
    </>
  );
}

function RedirectRows({ report, maxRows }: { report: RedirectsReport; maxRows: number }) {
  return (
    <>
      <Head columns={['Hops', 'Redirects', 'Ends at', 'Flags']} />
      <tbody>
        {report.chains.slice(0, maxRows).map((chain) => (
          <tr key={chain.hops[0]?.url ?? ''} class={chain.isLoop ? 'reports-flagged' : undefined}>
            <td>{chain.hops.length}</td>
            <td>
              <ol class="reports-list">
                {chain.hops.map((hop) => (
                  <li key={hop.url}>
                    {hop.status} <ReportUrl url={hop.url} />
                  </li>
                ))}
              </ol>
            </td>
            <td class="reports-url">
              <ChainEndText end={chain.end} />
            </td>
            <td>{chain.isLoop ? 'loop' : chain.isLong ? 'chain' : ''}</td>
          </tr>
        ))}
      </tbody>
    </>
  );
}

function BlockedRows({ report, maxRows }: { report: BlockedReport; maxRows: number }) {
  return (
    <>
      <Head columns={['URL', 'Rule', 'Found on']} />
      <tbody>
        {report.rows.slice(0, maxRows).map((row) => (
          <tr key={row.url}>
            <td>
              <ReportUrl url={row.url} />
            </td>
            <td>{row.rule ?? <span class="reports-muted">unknown</span>}</td>
            <td>
              {row.referrer === null ? <span class="reports-muted">start URL</span> : <ReportUrl url={row.referrer} />}
            </td>
          </tr>
        ))}
      </tbody>
    </>
  );
}

function DuplicateRows({ report, maxRows }: { report: DuplicatesReport; maxRows: number }) {
  return (
    <>
      <Head columns={['Pages', 'SHA-256', 'URLs (first capture first)']} />
      <tbody>
        {report.groups.slice(0, maxRows).map((group) => (
          <tr key={group.members[0]?.url ?? ''}>
            <td>{group.members.length}</td>
            <td class="reports-hash" title={group.sha256 ?? undefined}>
              {group.sha256 === null ? '' : `${group.sha256.slice(0, 12)}…`}
            </td>
            <td>
              <ul class="reports-list">
                {group.members.map((member) => (
                  <li key={member.url}>
                    <ReportUrl url={member.url} />
                    <span class="reports-muted" data-testid="duplicate-status">
                      {' '}
                      · {member.status ?? '—'}
                      {member.isOriginal ? ' (first capture)' : ''}
                    </span>
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        ))}
      </tbody>
    </>
  );
}

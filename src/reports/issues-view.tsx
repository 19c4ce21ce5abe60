/**
 * The Issues view: every check of the audit (`src/audit/`) with its count,
 * severity and a line on why it matters and how to fix it; a check opens to
 * its affected URLs (each opening its detail) with what is wrong there and
 * the related URLs; each check downloads as CSV, and all of them at once.
 * *Show in table* hands the check's URLs to the results table's filter.
 *
 * Platform-free, like the reports panel: rows come in as a {@link RowScan},
 * files go out through {@link SaveCsv}. Row data is only rendered as text.
 * The host page loads `reports-view.css` and `issues-view.css`.
 */
import { UrlLink } from './url-link.tsx';
import { useEffect, useState } from 'preact/hooks';
import { countsBySeverity, runAudit, severityCountsText, type AuditResult } from '../audit/audit.ts';
import { CHECKS, SEVERITIES, type CheckId, type CheckInfo } from '../audit/checks.ts';
import type { Finding, RowScan } from '../audit/engine.ts';
import { notJudgedNotes, type NotJudgedCrawl, type NotJudgedNote } from '../audit/not-judged.ts';
import { issuesToCsv } from '../export/issues-csv.ts';
import type { ReportCrawl } from './report-csv.ts';
import type { SaveCsv } from './reports-view.tsx';

export interface IssuesViewProps {
  /** Starts a scan of the crawl's rows in `seq` order (called up to three times). */
  loadRows: RowScan;
  /** The crawl: its start URL and date name the files; its settings and counts say what was not checked. */
  crawl: ReportCrawl & NotJudgedCrawl;
  saveCsv: SaveCsv;
  /** Opens a URL's detail; without it, URLs are plain text. */
  onOpenUrl?: (url: string) => void;
  /** Filters the results table to these URLs (one check's); no *Show in table* without it. */
  onShowInTable?: (check: CheckId, urls: string[]) => void;
  /** The check open at first (without `openChecks`). */
  initialCheck?: CheckId | null;
  /** The checks open, when the owner keeps them (the results tab keeps them in its address); else the view does. */
  openChecks?: readonly CheckId[];
  /** Told the checks open after each toggle. */
  onOpenChecksChange?: (checks: CheckId[]) => void;
  /** Told once the checks are shown (the owner may scroll to where the user was then). */
  onReady?: () => void;
  /** Told the audit's result once it is built (the results tab exports the issues shown from it). */
  onResult?: (result: AuditResult) => void;
  /** Most URLs listed per check; the CSV has them all. @default 500 */
  maxUrls?: number;
}

type ViewState = { state: 'building' } | { state: 'ready'; result: AuditResult } | { state: 'failed'; message: string };

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `<host>-<date>-issues.csv`, or `-issues-<check>.csv` for one check. */
export function issuesFileName(crawl: ReportCrawl, check: CheckId | null): string {
  const host = new URL(crawl.settings.startUrl).host.replace(/[^A-Za-z0-9.-]+/g, '_');
  const date = new Date(crawl.createdAt).toISOString().slice(0, 10);
  return `${host}-${date}-issues${check === null ? '' : `-${check}`}.csv`;
}

export function IssuesView({
  loadRows,
  crawl,
  saveCsv,
  onOpenUrl,
  onShowInTable,
  initialCheck = null,
  openChecks,
  onOpenChecksChange,
  onReady,
  onResult,
  maxUrls = 500,
}: IssuesViewProps) {
  const [view, setView] = useState<ViewState>({ state: 'building' });
  const [ownOpen, setOwnOpen] = useState<readonly CheckId[]>(initialCheck === null ? [] : [initialCheck]);
  const open = openChecks ?? ownOpen;
  const toggle = (check: CheckId): void => {
    const next = open.includes(check) ? open.filter((id) => id !== check) : [...open, check];
    setOwnOpen(next);
    onOpenChecksChange?.(next);
  };
  const [saveError, setSaveError] = useState<string | null>(null);

  useEffect(() => {
    let isCancelled = false;
    setView({ state: 'building' });
    runAudit(loadRows).then(
      (result) => {
        if (isCancelled) return;
        setView({ state: 'ready', result });
        onResult?.(result);
      },
      (error: unknown) => !isCancelled && setView({ state: 'failed', message: errorMessage(error) }),
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

  const save = (check: CheckId | null): void => {
    if (view.state !== 'ready') return;
    setSaveError(null);
    try {
      const text = issuesToCsv(view.result, check === null ? undefined : [check]);
      Promise.resolve(saveCsv(issuesFileName(crawl, check), text)).catch((error: unknown) =>
        setSaveError(errorMessage(error)),
      );
    } catch (error) {
      setSaveError(errorMessage(error));
    }
  };

  const notJudged = view.state === 'ready' ? notJudgedNotes(view.result, crawl) : null;

  return (
    <section class="reports issues" data-testid="issues" data-state={view.state} aria-busy={view.state === 'building'}>
      <div class="reports-bar">
        {view.state === 'ready' && (
          <p class="reports-count" data-testid="issues-summary">
            {severityCountsText(countsBySeverity(view.result))}
          </p>
        )}
        <button
          type="button"
          data-testid="issues-download-all"
          disabled={view.state !== 'ready'}
          onClick={() => save(null)}
        >
          Download all (CSV)
        </button>
      </div>
      {view.state === 'building' && (
        <p class="reports-status" role="status" data-testid="issues-status">
          Checking the crawl…
        </p>
      )}
      {view.state === 'failed' && (
        <p class="reports-status reports-failed" role="alert" data-testid="issues-status">
          Could not check the crawl: {view.message}
        </p>
      )}
      {saveError !== null && (
        <p class="reports-status reports-failed" role="alert" data-testid="issues-save-error">
          Could not save the CSV: {saveError}
        </p>
      )}
      {view.state === 'ready' &&
        SEVERITIES.map((severity) => (
          <div key={severity} class="issues-group" data-severity={severity}>
            <h2 class="issues-heading">
              {severity === 'error' ? 'Errors' : severity === 'warning' ? 'Warnings' : 'Notices'}
            </h2>
            <ul class="issues-list">
              {CHECKS.filter((info) => info.severity === severity).map((info) => (
                <CheckRow
                  key={info.id}
                  info={info}
                  findings={view.result.findings.get(info.id) ?? []}
                  notJudged={notJudged?.get(info.id) ?? null}
                  isOpen={open.includes(info.id)}
                  onToggle={() => toggle(info.id)}
                  onSave={() => save(info.id)}
                  onOpenUrl={onOpenUrl}
                  onShowInTable={onShowInTable}
                  maxUrls={maxUrls}
                />
              ))}
            </ul>
          </div>
        ))}
    </section>
  );
}

interface CheckRowProps {
  info: CheckInfo;
  findings: readonly Finding[];
  /** The URLs the check could not judge; null when it judged all it looks at. */
  notJudged: NotJudgedNote | null;
  isOpen: boolean;
  onToggle: () => void;
  onSave: () => void;
  onOpenUrl: ((url: string) => void) | undefined;
  onShowInTable: ((check: CheckId, urls: string[]) => void) | undefined;
  maxUrls: number;
}

function CheckRow({
  info,
  findings,
  notJudged,
  isOpen,
  onToggle,
  onSave,
  onOpenUrl,
  onShowInTable,
  maxUrls,
}: CheckRowProps) {
  const count = findings.length;
  return (
    <li
      class="issues-check"
      data-testid="issue-check"
      data-check={info.id}
      data-count={count}
      data-severity={info.severity}
      data-not-judged={notJudged?.count}
    >
      <div class="issues-check-head">
        <button
          type="button"
          class="issues-toggle"
          aria-expanded={isOpen}
          data-testid="issue-toggle"
          disabled={count === 0}
          onClick={onToggle}
        >
          <span class={`issues-badge issues-${info.severity}`}>{info.severity}</span> {info.title}{' '}
          <span class="issues-count" data-testid="issue-count">
            {notJudged?.isOff === true && count === 0 ? 'not checked' : count}
          </span>
          {notJudged !== null && !(notJudged.isOff && count === 0) && (
            <span class="issues-not-judged" data-testid="issue-not-judged">
              {' '}
              · {notJudged.label}
            </span>
          )}
        </button>
        <code class="issues-id">{info.id}</code>
      </div>
      <p class="issues-why">
        {info.why}
        {info.threshold !== null && <span class="reports-muted"> Threshold: {info.threshold}.</span>}
      </p>
      {notJudged !== null && (
        <p class="issues-not-judged-why" data-testid="issue-not-judged-why">
          {notJudged.text}
        </p>
      )}
      {isOpen && count > 0 && (
        <div class="issues-urls">
          <div class="reports-bar">
            <button type="button" data-testid="issue-download" onClick={onSave}>
              Download CSV
            </button>
            {onShowInTable !== undefined && (
              <button
                type="button"
                data-testid="issue-show-in-table"
                onClick={() =>
                  onShowInTable(
                    info.id,
                    findings.map((finding) => finding.url),
                  )
                }
              >
                Show in table
              </button>
            )}
          </div>
          <div class="reports-scroll">
            <table class="reports-table" data-testid="issue-table">
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Detail</th>
                  <th scope="col">Related</th>
                </tr>
              </thead>
              <tbody>
                {findings.slice(0, maxUrls).map((finding) => (
                  <tr key={finding.url} data-testid="issue-url-row">
                    <td>
                      <IssueUrl url={finding.url} onOpenUrl={onOpenUrl} />
                    </td>
                    <td>{finding.detail}</td>
                    <td>
                      {finding.relatedCount === 0 ? (
                        <span class="reports-muted">none</span>
                      ) : (
                        <ul class="reports-list">
                          {finding.related.slice(0, 5).map((url) => (
                            <li key={url}>
                              <IssueUrl url={url} onOpenUrl={onOpenUrl} />
                            </li>
                          ))}
                          {finding.relatedCount > 5 && (
                            <li class="reports-muted">and {finding.relatedCount - 5} more (in the CSV)</li>
                          )}
                        </ul>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {count > maxUrls && (
            <p class="reports-note">
              Showing the first {maxUrls} of {count}; the CSV has them all.
            </p>
          )}
        </div>
      )}
    </li>
  );
}

function IssueUrl({ url, onOpenUrl }: { url: string; onOpenUrl: ((url: string) => void) | undefined }) {
  return <UrlLink url={url} onOpen={onOpenUrl} testId="issue-url" />;
}

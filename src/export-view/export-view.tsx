/**
 * The export page's view: progress while the export runs, then the saved
 * file or why it failed.
 *
 * Platform-free: the export itself comes in as {@link ExportViewProps.runExport},
 * so tests render the view in a plain page with a fake. For end-to-end tests
 * the root carries `data-state` (`working`, `done`, `failed`), the status
 * text `data-testid="export-status"`, and the tab title names the state.
 *
 * ```
 * working ──(runExport resolves)──► done
 *    └─────(runExport rejects)────► failed
 * ```
 */
import { useEffect, useId, useLayoutEffect, useState } from 'preact/hooks';
import { errorMessage } from '../export/export-errors.ts';
import {
  credentialsNote,
  openingHint,
  pageTitle,
  progressText,
  runningCrawlNote,
  savedText,
  urlsText,
  type ExportProgress,
  type ExportResult,
} from './export-text.ts';

/** Runs the export, reporting progress, and resolves with the saved file. */
export type RunExport = (onProgress: (progress: ExportProgress) => void) => Promise<ExportResult>;

export interface ExportViewProps {
  /** Called once, when the view mounts. */
  runExport: RunExport;
  /** Shows the saved file in its folder (`downloads.show`); no button without it. */
  onShowFile?: (downloadId: number) => void;
  /** Closes this tab (`window.close`); no button without it. */
  onClose?: () => void;
  /** The address of this export keeping `Set-Cookie` values, offered when they were removed; no link without it. */
  keepSetCookiesHref?: string;
}

/** What the view shows; `progress` is the last report, null before the first. */
type ViewState =
  | { state: 'working'; progress: ExportProgress | null }
  | { state: 'done'; progress: ExportProgress | null; result: ExportResult }
  | { state: 'failed'; progress: ExportProgress | null; message: string };

/** The whole export page: starts the export on mount and shows where it stands. */
export function ExportView({ runExport, onShowFile, onClose, keepSetCookiesHref }: ExportViewProps) {
  const [view, setView] = useState<ViewState>({ state: 'working', progress: null });
  const statusId = useId();

  useEffect(() => {
    let isCancelled = false;
    runExport((progress) => {
      if (!isCancelled) setView({ state: 'working', progress });
    }).then(
      (result) => {
        if (!isCancelled) setView((current) => ({ state: 'done', progress: current.progress, result }));
      },
      (error: unknown) => {
        if (!isCancelled)
          setView((current) => ({ state: 'failed', progress: current.progress, message: errorMessage(error) }));
      },
    );
    return () => {
      isCancelled = true;
    };
  }, [runExport]);

  // A layout effect: the title changes with the DOM it describes, never a frame later.
  useLayoutEffect(() => {
    document.title = pageTitle(view.state, view.progress);
  }, [view]);

  const { progress } = view;
  return (
    <main class="export-page" data-state={view.state} aria-busy={view.state === 'working'}>
      <h1 class="title">Tabcrawl export</h1>
      {view.state === 'working' && (
        <>
          <p id={statusId} class="status" role="status" data-testid="export-status">
            {progressText(progress)}
          </p>
          <ProgressBar progress={progress} labelledBy={statusId} />
        </>
      )}
      {view.state === 'done' && (
        <>
          <p class="status status-done" role="status" data-testid="export-status">
            {savedText(view.result)}
          </p>
          <p class="detail" data-testid="export-detail">
            {urlsText(view.result.rows)} as {view.result.formatName}, download #{view.result.downloadId}, in the
            browser's downloads folder (Chrome's <em>Downloads</em> page lists it).
          </p>
          {openingHint(view.result) !== null && (
            <p class="detail" data-testid="export-open-hint">
              {openingHint(view.result)}
            </p>
          )}
          {credentialsNote(view.result) !== null && (
            <p class="detail" data-testid="export-credentials">
              {credentialsNote(view.result)}
              {view.result.setCookies === 'removed' && keepSetCookiesHref !== undefined && (
                <>
                  {' '}
                  <a href={keepSetCookiesHref} data-testid="export-keep-set-cookies">
                    Export again with the Set-Cookie values
                  </a>
                </>
              )}
            </p>
          )}
          <div class="actions">
            {onShowFile !== undefined && (
              <button
                type="button"
                class="primary"
                data-testid="show-file"
                onClick={() => onShowFile(view.result.downloadId)}
              >
                Show in folder
              </button>
            )}
            {onClose !== undefined && (
              <button type="button" data-testid="close-tab" onClick={onClose}>
                Close this tab
              </button>
            )}
          </div>
        </>
      )}
      {view.state === 'failed' && (
        <>
          <p class="status status-failed" role="alert" data-testid="export-status">
            {view.message}
          </p>
          <p class="detail">
            Nothing was offered for download. Close this tab and export again from the Tabcrawl popup.
          </p>
        </>
      )}
      {progress?.isCrawlRunning === true && (
        <p class="note" data-testid="export-running-note">
          {runningCrawlNote(progress.rowsTotal)}
        </p>
      )}
    </main>
  );
}

/** Rows written out of the total; indeterminate until the total is known. */
function ProgressBar({ progress, labelledBy }: { progress: ExportProgress | null; labelledBy: string }) {
  if (progress === null) return <progress class="bar" aria-labelledby={labelledBy} data-testid="export-progress" />;
  const max = Math.max(progress.rowsTotal, 1);
  const value = progress.phase === 'saving' ? max : Math.min(progress.rowsDone, max);
  return <progress class="bar" max={max} value={value} aria-labelledby={labelledBy} data-testid="export-progress" />;
}

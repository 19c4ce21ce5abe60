/**
 * The import page's view: pick a WARC or WACZ file, watch it being read
 * (bytes of the total, records, rows, the time left), cancel it, then the
 * summary with a link to the new crawl's results, or why it failed (and
 * that nothing was stored).
 *
 * Platform-free: the import itself comes in as {@link ImportViewProps.runImport},
 * so tests render the view in a plain page with a fake. For the end-to-end
 * tests and the command line, the root carries `data-state` (`idle`,
 * `working`, `done`, `failed`, `cancelled`), the progress figures
 * (`data-bytes-read`, `data-total-bytes`, `data-records`, `data-rows`) and,
 * once done, `data-crawl-id` and `data-warnings`; the status text is
 * `data-testid="import-status"`.
 *
 * ```
 * idle ──(file picked)──► working ──(resolves)──► done
 *                            ├──────(rejects)───► failed
 *                            └──────(Cancel)────► cancelled
 * ```
 * A file can be picked again from every state but `working`.
 */
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import {
  ARCHIVE_ACCEPT,
  importedText,
  importPageTitle,
  importProgressText,
  isAbortError,
  timeLeftText,
  warningsText,
  type ImportOutcome,
  type ImportProgress,
} from './import-text.ts';

/** Reads `file` into a new crawl; rejects with an `AbortError` once `signal` aborts, having stored nothing. */
export type RunImport = (
  file: File,
  options: { signal: AbortSignal; onProgress: (progress: ImportProgress) => void },
) => Promise<ImportOutcome>;

export interface ImportViewProps {
  runImport: RunImport;
  /** The address of the results page of a crawl (the "Open results" link). */
  resultsHref: (crawlId: string) => string;
  /** The clock of the time estimate, ms. @default Date.now */
  now?: () => number;
}

type ViewState =
  | { state: 'idle' }
  | { state: 'working'; fileName: string; progress: ImportProgress | null; startedAt: number }
  | { state: 'done'; fileName: string; progress: ImportProgress | null; outcome: ImportOutcome }
  | { state: 'failed'; fileName: string; progress: ImportProgress | null; message: string }
  | { state: 'cancelled'; fileName: string; progress: ImportProgress | null };

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The whole import page. */
export function ImportView({ runImport, resultsHref, now = Date.now }: ImportViewProps) {
  const [view, setView] = useState<ViewState>({ state: 'idle' });
  const abortRef = useRef<AbortController | null>(null);
  const statusId = useId();
  const inputId = useId();

  // Leaving the page mid-import aborts it: the import then deletes what it stored.
  useEffect(() => () => abortRef.current?.abort(), []);

  const progress = view.state === 'idle' ? null : view.progress;
  useLayoutEffect(() => {
    document.title = importPageTitle(view.state, progress);
  }, [view.state, progress]);

  const start = (file: File): void => {
    const fileName = file.name;
    // Nothing to read: said plainly, not as "0 B of 0 B, 0 records" (the reader would say the same).
    if (file.size === 0) {
      abortRef.current = null;
      setView({
        state: 'failed',
        fileName,
        progress: null,
        message: `${fileName}: the file is empty: not a WARC or WACZ`,
      });
      return;
    }
    const controller = new AbortController();
    abortRef.current = controller;
    setView({ state: 'working', fileName, progress: null, startedAt: now() });
    runImport(file, {
      signal: controller.signal,
      onProgress: (next) => {
        if (abortRef.current === controller)
          setView((current) => (current.state === 'working' ? { ...current, progress: next } : current));
      },
    }).then(
      (outcome) => {
        if (abortRef.current !== controller) return;
        abortRef.current = null;
        setView((current) => ({
          state: 'done',
          fileName,
          progress: current.state === 'idle' ? null : current.progress,
          outcome,
        }));
      },
      (error: unknown) => {
        if (abortRef.current !== controller) return;
        abortRef.current = null;
        setView((current) => {
          const last = current.state === 'idle' ? null : current.progress;
          return controller.signal.aborted || isAbortError(error)
            ? { state: 'cancelled', fileName, progress: last }
            : { state: 'failed', fileName, progress: last, message: errorText(error) };
        });
      },
    );
  };

  const isWorking = view.state === 'working';
  const dataset =
    progress === null
      ? {}
      : {
          'data-bytes-read': progress.bytesRead,
          'data-total-bytes': progress.totalBytes,
          'data-records': progress.records,
          'data-rows': progress.rows,
        };
  return (
    <main
      class="import-page"
      data-testid="import-page"
      data-state={view.state}
      aria-busy={isWorking}
      {...dataset}
      {...(view.state === 'done'
        ? { 'data-crawl-id': view.outcome.crawlId, 'data-warnings': view.outcome.warnings.length }
        : {})}
    >
      <h1 class="title">Open an archive</h1>
      <p class="detail">
        A WARC (<code>.warc</code>, <code>.warc.gz</code>) or WACZ (<code>.wacz</code>) file becomes a crawl of its own:
        one row per captured URL, with its status, type, size, date, links and body, for the results, reports, Issues
        and every export. Nothing is fetched from the web.
      </p>
      <div class="picker">
        <label for={inputId}>Archive file</label>
        <input
          id={inputId}
          type="file"
          accept={ARCHIVE_ACCEPT}
          data-testid="import-file"
          disabled={isWorking}
          onChange={(event) => {
            const input = event.currentTarget;
            const file = input.files?.[0];
            if (file !== undefined) start(file);
            // The same file may be picked again after a failure.
            input.value = '';
          }}
        />
      </div>
      {view.state === 'working' && (
        <>
          <p id={statusId} class="status" role="status" data-testid="import-status">
            {importProgressText(view.fileName, view.progress)}
          </p>
          <ImportBar progress={view.progress} labelledBy={statusId} />
          {view.progress !== null && timeLeftText(view.progress, now() - view.startedAt) !== null && (
            <p class="detail" data-testid="import-time-left">
              {timeLeftText(view.progress, now() - view.startedAt)}
            </p>
          )}
          <div class="actions">
            <button type="button" data-testid="import-cancel" onClick={() => abortRef.current?.abort()}>
              Cancel
            </button>
          </div>
        </>
      )}
      {view.state === 'done' && (
        <>
          <p class="status status-done" role="status" data-testid="import-status">
            {importedText(view.fileName, view.outcome)}
          </p>
          <p class="detail" data-testid="import-warnings-count">
            {warningsText(view.outcome.warnings.length)}
          </p>
          {view.outcome.warnings.length > 0 && (
            <ul class="warnings" data-testid="import-warnings">
              {view.outcome.warnings.map((warning, index) => (
                <li key={index}>{warning}</li>
              ))}
            </ul>
          )}
          <div class="actions">
            <a class="button primary" href={resultsHref(view.outcome.crawlId)} data-testid="open-results">
              Open results
            </a>
          </div>
        </>
      )}
      {view.state === 'failed' && (
        <>
          <p class="status status-failed" role="alert" data-testid="import-status">
            {view.message}
          </p>
          <p class="detail" data-testid="import-nothing-stored">
            Nothing was stored. Pick another file, or the same one once it is whole.
          </p>
        </>
      )}
      {view.state === 'cancelled' && (
        <p class="status" role="status" data-testid="import-status">
          Import of {view.fileName} cancelled: nothing was stored.
        </p>
      )}
    </main>
  );
}

/** Bytes read of the file; indeterminate before the first report. */
function ImportBar({ progress, labelledBy }: { progress: ImportProgress | null; labelledBy: string }) {
  if (progress === null || progress.totalBytes <= 0)
    return <progress class="bar" aria-labelledby={labelledBy} data-testid="import-progress" />;
  return (
    <progress
      class="bar"
      max={progress.totalBytes}
      value={Math.min(progress.bytesRead, progress.totalBytes)}
      aria-labelledby={labelledBy}
      data-testid="import-progress"
    />
  );
}

/**
 * The results tab's crawl bar: the site, its state and when it started, the counters (of the
 * rows done, the page resources and linked files among them when there are any), a
 * progress bar (done of done + queued, the page limit as a cap; full once
 * finished), how long it has run, and what the tab can do: *Pause*,
 * *Resume* and *Stop* as the popup allows them, and *Export* (a format of
 * the whole crawl, or the rows of the current view as CSV), and *Browsertrix config*
 * (its settings as a Browsertrix Crawler config, for a site that outgrew the browser).
 *
 * Platform-free: the actions come in as callbacks; without one, its buttons
 * are not shown.
 */
import { useState } from 'preact/hooks';
import { queuedCount } from '../core/crawl/crawl-lifecycle.ts';
import { activeMs } from '../core/crawl/progress.ts';
import type { CrawlRecord } from '../core/model.ts';
import { FORMATS, type ExportFormat } from '../export/format-info.ts';
import { progressPercent, runTimeText } from '../ui/crawl-progress-text.ts';
import { ProgressBar } from '../ui/progress-bar.tsx';
import { asSentence } from '../ui/sentence.ts';
import { bytesText, isoText, localTimeText } from './format.ts';

/** What the tab can ask of a crawl; each is the request of the same name. */
export type CrawlBarAction = 'pause' | 'resume' | 'stop';

export interface CrawlBarProps {
  crawl: CrawlRecord;
  /** The current time, ms since the epoch (for the run time). */
  now: number;
  /** Sends `crawl/<action>`; resolves when the background answered. No buttons without it. */
  onAction?: (action: CrawlBarAction) => Promise<void>;
  /**
   * Exports the crawl in this format into the downloads; resolves with what to say once it is saved
   * (`Saved example.com-….wacz`), shown beside the bar. No export without it.
   */
  onExport?: (format: ExportFormat) => Promise<string | void>;
  /** Downloads what the current view shows as CSV (the table's rows, or the issues shown). No button without it. */
  onExportView?: () => Promise<void>;
  /** Downloads the links of the table's rows as shown, one line per link (`links.csv`'s columns). No button without it. */
  onExportViewLinks?: () => Promise<void>;
  /** What *Export this view* saves, in words (its tooltip). @default the table's rows */
  exportViewTitle?: string;
  /** Downloads the crawl's settings as a Browsertrix Crawler config (docs/browsertrix.md). No button without it. */
  onBrowsertrixConfig?: () => Promise<void>;
  /** Rows in the table's current view (null while counted): an empty view is not exported. */
  viewTotal?: number | null;
}

export function CrawlBar({
  crawl,
  now,
  onAction,
  onExport,
  onExportView,
  onExportViewLinks,
  exportViewTitle = 'The rows of the table as filtered and sorted now, as CSV',
  onBrowsertrixConfig,
  viewTotal = null,
}: CrawlBarProps) {
  const [pending, setPending] = useState<
    CrawlBarAction | 'export' | 'export-view' | 'export-view-links' | 'browsertrix-config' | null
  >(null);
  const [format, setFormat] = useState<ExportFormat>('wacz');
  const [error, setError] = useState<string | null>(null);
  /** What the last export saved; cleared by the next action. */
  const [saved, setSaved] = useState<string | null>(null);
  const { state, counts } = crawl;
  const queued = queuedCount(crawl);
  const isRunning = state === 'running';
  const isPaused = state === 'paused';
  const canResume = isPaused || (state === 'stopped' && queued > 0);
  const percent = progressPercent({ state, counts, queued, settings: crawl.settings });

  const run = async (what: NonNullable<typeof pending>, work: () => Promise<void>): Promise<void> => {
    setPending(what);
    setError(null);
    setSaved(null);
    try {
      await work();
    } catch (err) {
      setError(asSentence(err instanceof Error ? err.message : String(err)));
    } finally {
      setPending(null);
    }
  };
  const action = (name: CrawlBarAction, label: string, busyLabel: string, tone = '') =>
    onAction === undefined ? null : (
      <button
        type="button"
        class={tone}
        data-testid={`results-${name}`}
        disabled={pending !== null}
        onClick={() => void run(name, () => onAction(name))}
      >
        {pending === name ? busyLabel : label}
      </button>
    );

  return (
    <div class="crawl-summary" data-testid="results-crawl">
      <span class="crawl-site" title={crawl.settings.startUrl}>
        {crawl.settings.startUrl}
      </span>
      <span class={`crawl-state state-${state}`} data-testid="results-crawl-state">
        {state}
      </span>
      {/* The user's own clock; the exact UTC time on hover. */}
      <time
        class="crawl-started"
        dateTime={isoText(crawl.createdAt)}
        title={isoText(crawl.createdAt)}
        data-testid="results-started"
      >
        started {localTimeText(crawl.createdAt)}
      </time>
      {crawl.message !== null && (
        <span class="crawl-message" data-testid="results-crawl-message">
          {crawl.message}
        </span>
      )}
      {/* A crawl that failed before recording anything has no figures to show: its message says it all. */}
      {!(state === 'failed' && counts.done === 0) && (
        <dl class="counters">
          <Counter label="done" value={counts.done} />
          {/* Of those done: page resources, linked files and checked links to other sites, when the crawl has any. */}
          {(counts.resources ?? 0) > 0 && (
            <Counter
              label={counts.resources === 1 ? 'resource' : 'resources'}
              value={counts.resources}
              testId="results-counter-resources"
            />
          )}
          {(counts.files ?? 0) > 0 && (
            <Counter
              label={counts.files === 1 ? 'file' : 'files'}
              value={counts.files}
              testId="results-counter-files"
            />
          )}
          {(counts.external ?? 0) > 0 && (
            <Counter
              label={counts.external === 1 ? 'external link' : 'external links'}
              value={counts.external}
              testId="results-counter-external"
            />
          )}
          {!(state === 'finished') && (
            <Counter
              label={state === 'failed' ? 'not fetched' : 'queued'}
              value={queued}
              testId="results-counter-queued"
            />
          )}
          <Counter label="fetched" value={counts.fetched} />
          {/* URLs, not issues: the Issues view counts issues by severity ("14 errors"), several of them on one URL. */}
          <Counter label="URLs with errors" value={counts.errors} testId="results-counter-errors" />
          <Counter label="blocked" value={counts.blocked} />
          <Counter label="stored" text={bytesText(counts.bytesStored ?? 0)} testId="results-bytes-stored" />
        </dl>
      )}
      <ProgressBar percent={percent} testId="results-progress" class="crawl-progress-bar" />
      <span class="crawl-run-time" data-testid="results-run-time">
        {runTimeText(state, activeMs(crawl, now))}
      </span>
      <div class="crawl-actions">
        {isRunning && action('pause', 'Pause', 'Pausing…')}
        {canResume && action('resume', 'Resume', 'Resuming…', 'primary')}
        {(isRunning || isPaused) && action('stop', 'Stop', 'Stopping…', 'danger')}
        {onExport !== undefined && (
          <span class="export-controls">
            <select
              aria-label="Export format"
              data-testid="results-export-format"
              value={format}
              onChange={(event) => setFormat(event.currentTarget.value as ExportFormat)}
            >
              {FORMATS.map((info) => (
                <option key={info.format} value={info.format}>
                  {info.label}
                </option>
              ))}
            </select>
            <button
              type="button"
              data-testid="results-export"
              disabled={pending !== null || counts.done === 0}
              onClick={() =>
                void run('export', async () => {
                  const said = await onExport(format);
                  if (typeof said === 'string') setSaved(said);
                })
              }
            >
              {pending === 'export' ? 'Exporting…' : 'Export'}
            </button>
          </span>
        )}
        {onExportView !== undefined && (
          <button
            type="button"
            data-testid="results-export-view"
            disabled={pending !== null || viewTotal === 0}
            title={viewTotal === 0 ? 'No URL in this view to export' : exportViewTitle}
            onClick={() => void run('export-view', onExportView)}
          >
            {pending === 'export-view' ? 'Saving…' : 'Export this view (CSV)'}
          </button>
        )}
        {onExportViewLinks !== undefined && (
          <button
            type="button"
            data-testid="results-export-view-links"
            disabled={pending !== null || viewTotal === 0}
            title={
              viewTotal === 0
                ? 'No URL in this view to export'
                : "Every link of the table's rows as filtered now, one line each, with its anchor and the target's status, as CSV"
            }
            onClick={() => void run('export-view-links', onExportViewLinks)}
          >
            {pending === 'export-view-links' ? 'Saving…' : 'Export its links (CSV)'}
          </button>
        )}
        {onBrowsertrixConfig !== undefined && (
          <button
            type="button"
            data-testid="results-browsertrix-config"
            disabled={pending !== null}
            title="This crawl's settings as a config for Browsertrix Crawler (YAML), to crawl the site at scale"
            onClick={() => void run('browsertrix-config', onBrowsertrixConfig)}
          >
            {pending === 'browsertrix-config' ? 'Saving…' : 'Browsertrix config'}
          </button>
        )}
      </div>
      {saved !== null && (
        <p class="crawl-saved" role="status" data-testid="results-export-saved">
          {saved}
        </p>
      )}
      {error !== null && (
        <p class="banner" role="alert" data-testid="results-action-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** One header counter: a count, or a text already formatted. */
function Counter({ label, value, text, testId }: { label: string; value?: number; text?: string; testId?: string }) {
  return (
    <div data-testid={testId ?? `results-counter-${label}`}>
      <dt>{label}</dt>
      <dd>{text ?? (value ?? 0).toLocaleString('en-US')}</dd>
    </div>
  );
}

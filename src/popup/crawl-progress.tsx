/**
 * State and counters of the crawl shown: a progress bar (done of what is
 * known, 100 % once finished), the rows done (by kind when the crawl has page
 * resources or linked files), how long it has run, its rate and, while it
 * runs, an estimate of the time left; one line per host with URLs left (what
 * it waits for and why, while it runs), and the Pause / Resume / Stop buttons
 * its state allows (New crawl once it is over).
 */
import { Fragment, type ComponentChildren } from 'preact';
import { etaMs, pagesPerMinute } from '../core/crawl/progress.ts';
import type { CrawlSummary, HostProgress } from '../messaging/protocol.ts';
import { etaText, progressParts, progressPercent, progressText, runTimeText } from '../ui/crawl-progress-text.ts';
import { hostLine } from '../ui/host-wait-text.ts';
import { httpOrigin } from '../core/url/normalize-url.ts';
import { rateText } from './crawl-text.ts';
import { ProgressBar } from '../ui/progress-bar.tsx';
import { notCrawledText } from '../ui/not-crawled-text.ts';
import type { CrawlAction } from './use-crawl.ts';

/** Host lines shown at most; the rest are summed up in one line. */
export const MAX_HOST_LINES = 5;

export interface CrawlProgressProps {
  crawl: CrawlSummary;
  /** Its hosts with URLs left, most pending first. */
  hosts: HostProgress[];
  /** The action whose request is in flight, or null. */
  pendingAction: CrawlAction | null;
  /** The current time, ms since the epoch (for the ETA, the host waits and the run time). */
  now: number;
  /** When `crawl` was read, ms since the epoch: its `activeMs` is as of then. @default now */
  readAt?: number;
  onAction: (action: CrawlAction) => void;
  onNewCrawl: () => void;
  /** Opens the full results page of this crawl in a tab. */
  onOpenInTab: () => void;
  /** Opens the results page's list of the URLs the crawl left unvisited; no link without it. */
  onOpenNotCrawled?: () => void;
  /** More actions on the crawl (the export menu), shown above the buttons. */
  children?: ComponentChildren;
}

export function CrawlProgress({
  crawl,
  hosts,
  pendingAction,
  now,
  readAt = now,
  onAction,
  onNewCrawl,
  onOpenInTab,
  onOpenNotCrawled,
  children,
}: CrawlProgressProps) {
  const { state, counts, settings } = crawl;
  const isRunning = state === 'running';
  const isPaused = state === 'paused';
  const isOver = state === 'finished' || state === 'failed';
  const canResume = isPaused || (state === 'stopped' && crawl.queued > 0);
  const site = httpOrigin(settings.startUrl) ?? settings.startUrl;
  // activeMs is as of the read; a running crawl has run on since.
  const elapsedMs = crawl.activeMs === undefined ? null : crawl.activeMs + (isRunning ? Math.max(0, now - readAt) : 0);
  const rate = elapsedMs === null ? null : pagesPerMinute(counts.done, elapsedMs);
  // Only a running crawl waits for anything: a paused or stopped one has no time left to count. Until its
  // hosts are known, nothing is said of the time left.
  const canEstimate = isRunning && (crawl.queued === 0 || hosts.length > 0);
  const eta = canEstimate ? etaText(crawl.queued, etaMs(hosts, now, settings.hostConcurrency)) : null;
  const percent = progressPercent(crawl);
  // A crawl that failed before recording anything has no figures to show: its message says it all.
  const hasCounters = !(state === 'failed' && counts.done === 0);
  const shownHosts = hosts.slice(0, MAX_HOST_LINES);
  const hiddenHosts = hosts.slice(MAX_HOST_LINES);
  const busy = pendingAction !== null;
  // Counted when the crawl finishes: what its depth limit, page limit, scope and trap rules left out.
  const leftOut = notCrawledText(counts.notCrawled, settings);
  return (
    <section class="crawl-progress" aria-label="Crawl of this site">
      <div class="crawl-head">
        <h2 class="crawl-site" title={settings.startUrl}>
          {site}
        </h2>
        <span class={`crawl-state state-${state}`} role="status" data-testid="crawl-state">
          {state}
        </span>
      </div>
      {crawl.message !== null && <p class="crawl-message">{crawl.message}</p>}
      {hasCounters && (
        <>
          <ProgressBar
            percent={percent}
            testId="progress-bar"
            fillTestId="progress-done"
            valueText={progressText(crawl, { separator: ', ' })}
          />
          <p class="progress-text" data-testid="progress-text">
            {/* A long line (the rows done by kind) wraps between its parts, not inside one. */}
            {progressParts(crawl, !isOver).map((part, index) => (
              <Fragment key={index}>
                {index > 0 && ' · '}
                <span class="progress-part">{part}</span>
              </Fragment>
            ))}
          </p>
          <p class="progress-figures">
            {elapsedMs !== null && <span data-testid="run-time">{runTimeText(state, elapsedMs)}</span>}
            <span data-testid="rate">{rateText(rate, counts)}</span>
            {eta !== null && (
              <span
                data-testid="eta"
                title="An estimate from each host's gap and response time as they stand; URLs not found yet are not counted"
              >
                {eta}
              </span>
            )}
          </p>
          <dl class="counters">
            <div>
              <dt>Fetched</dt>
              <dd data-testid="count-fetched">{counts.fetched}</dd>
            </div>
            <div>
              <dt>{state === 'failed' ? 'Not fetched' : 'Queued'}</dt>
              <dd data-testid="count-queued">{crawl.queued}</dd>
            </div>
            <div>
              {/* URLs, not issues: the Issues summary below counts issues by severity. */}
              <dt>URLs with errors</dt>
              <dd data-testid="count-errors">{counts.errors}</dd>
            </div>
            <div>
              <dt>Blocked by robots</dt>
              <dd data-testid="count-blocked">{counts.blocked}</dd>
            </div>
          </dl>
          {leftOut !== null && (
            <p class="not-crawled" data-testid="not-crawled">
              {leftOut}
              {onOpenNotCrawled !== undefined && (
                <>
                  {' · '}
                  <button type="button" class="link" data-testid="open-not-crawled" onClick={onOpenNotCrawled}>
                    List them
                  </button>
                </>
              )}
            </p>
          )}
        </>
      )}
      {shownHosts.length > 0 && (
        <ul class="host-lines" data-testid="host-lines" aria-label="Hosts with URLs left">
          {shownHosts.map((host) => (
            <li key={host.origin} class={`host-line wait-${host.wait.kind}`} data-testid="host-line">
              {hostLine(host, now, isRunning)}
            </li>
          ))}
          {hiddenHosts.length > 0 && (
            <li class="host-line">
              {hiddenHosts.length} more hosts · {hiddenHosts.reduce((sum, host) => sum + host.pending, 0)} queued
            </li>
          )}
        </ul>
      )}
      {hasCounters && children}
      <div class="crawl-actions">
        {isRunning && (
          <button type="button" data-testid="pause" disabled={busy} onClick={() => onAction('pause')}>
            {pendingAction === 'pause' ? 'Pausing…' : 'Pause'}
          </button>
        )}
        {canResume && (
          <button type="button" class="primary" data-testid="resume" disabled={busy} onClick={() => onAction('resume')}>
            {pendingAction === 'resume' ? 'Resuming…' : 'Resume'}
          </button>
        )}
        {(isRunning || isPaused) && (
          <button type="button" class="danger" data-testid="stop" disabled={busy} onClick={() => onAction('stop')}>
            {pendingAction === 'stop' ? 'Stopping…' : 'Stop'}
          </button>
        )}
        {!isRunning && !isPaused && (
          <button type="button" onClick={onNewCrawl}>
            New crawl
          </button>
        )}
        <button type="button" class="link" data-testid="open-in-tab-current" onClick={onOpenInTab}>
          Open in tab
        </button>
      </div>
    </section>
  );
}

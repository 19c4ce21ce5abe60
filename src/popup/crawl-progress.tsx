/**
 * State and counters of the crawl shown: a progress bar against the page
 * limit, the rate and a lower bound of the time left, one line per host with
 * URLs left, and the Pause / Resume / Stop buttons its state allows
 * (New crawl once it is over).
 */
import type { ComponentChildren } from 'preact';
import { etaLowerBoundMs, pagesPerMinute } from '../core/crawl/progress.ts';
import type { CrawlSummary, HostProgress } from '../messaging/protocol.ts';
import { formatDuration, formatRate, hostLine, httpOrigin } from './format.ts';
import type { CrawlAction } from './use-crawl.ts';

/** Host lines shown at most; the rest are summed up in one line. */
export const MAX_HOST_LINES = 5;

export interface CrawlProgressProps {
  crawl: CrawlSummary;
  /** Its hosts with URLs left, most pending first. */
  hosts: HostProgress[];
  /** The action whose request is in flight, or null. */
  pendingAction: CrawlAction | null;
  /** The current time, ms since the epoch (for the ETA). */
  now: number;
  onAction: (action: CrawlAction) => void;
  onNewCrawl: () => void;
  /** Opens the full results page of this crawl in a tab. */
  onOpenInTab: () => void;
  /** More actions on the crawl (the export menu), shown above the buttons. */
  children?: ComponentChildren;
}

/** Percent of `part` in `whole`, 0 to 100. */
const percent = (part: number, whole: number): number => (whole <= 0 ? 0 : Math.min(100, Math.max(0, (part / whole) * 100)));

export function CrawlProgress({ crawl, hosts, pendingAction, now, onAction, onNewCrawl, onOpenInTab, children }: CrawlProgressProps) {
  const { state, counts, settings } = crawl;
  const isRunning = state === 'running';
  const isPaused = state === 'paused';
  const canResume = isPaused || (state === 'stopped' && crawl.queued > 0);
  const site = httpOrigin(settings.startUrl) ?? settings.startUrl;
  const rate = crawl.activeMs === undefined ? null : pagesPerMinute(counts.done, crawl.activeMs);
  const eta = isRunning || isPaused ? etaLowerBoundMs(hosts, now, settings.hostConcurrency) : null;
  const shownHosts = hosts.slice(0, MAX_HOST_LINES);
  const hiddenHosts = hosts.slice(MAX_HOST_LINES);
  const busy = pendingAction !== null;
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
      <div
        class="progress-bar"
        role="progressbar"
        data-testid="progress-bar"
        aria-label="URLs done against the page limit"
        aria-valuemin={0}
        aria-valuemax={settings.maxPages}
        aria-valuenow={counts.done}
        aria-valuetext={`${counts.done} done, ${counts.admitted} found, limit ${settings.maxPages}`}
      >
        <span class="progress-admitted" data-testid="progress-admitted" style={{ width: `${percent(counts.admitted, settings.maxPages)}%` }} />
        <span class="progress-done" data-testid="progress-done" style={{ width: `${percent(counts.done, settings.maxPages)}%` }} />
      </div>
      <p class="progress-text" data-testid="progress-text">
        {counts.done} done · {counts.admitted} found · limit {settings.maxPages}
      </p>
      <p class="progress-figures">
        <span data-testid="rate">{rate === null ? '— pages/min' : `${formatRate(rate)} pages/min`}</span>
        {eta !== null && (
          <span data-testid="eta" title="A lower bound from the delays between requests to each host">
            {eta === 0 ? 'nothing queued' : `at least ${formatDuration(eta)} left`}
          </span>
        )}
      </p>
      <dl class="counters">
        <div>
          <dt>Fetched</dt>
          <dd data-testid="count-fetched">{counts.fetched}</dd>
        </div>
        <div>
          <dt>Queued</dt>
          <dd data-testid="count-queued">{crawl.queued}</dd>
        </div>
        <div>
          <dt>Errors</dt>
          <dd data-testid="count-errors">{counts.errors}</dd>
        </div>
        <div>
          <dt>Blocked by robots</dt>
          <dd data-testid="count-blocked">{counts.blocked}</dd>
        </div>
      </dl>
      {shownHosts.length > 0 && (
        <ul class="host-lines" data-testid="host-lines" aria-label="Hosts with URLs left">
          {shownHosts.map((host) => (
            <li key={host.origin} class={`host-line wait-${host.wait.kind}`} data-testid="host-line">
              {hostLine(host)}
            </li>
          ))}
          {hiddenHosts.length > 0 && (
            <li class="host-line">
              {hiddenHosts.length} more hosts · {hiddenHosts.reduce((sum, host) => sum + host.pending, 0)} queued
            </li>
          )}
        </ul>
      )}
      {children}
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

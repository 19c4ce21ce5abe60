/** State and counters of the crawl shown, with Stop while it runs and New crawl after. */
import type { ComponentChildren } from 'preact';
import type { CrawlSummary } from '../messaging/protocol.ts';
import { httpOrigin } from './format.ts';

export interface CrawlProgressProps {
  crawl: CrawlSummary;
  isStopping: boolean;
  onStop: () => void;
  onNewCrawl: () => void;
  /** More actions on the crawl (the export menu), shown above Stop / New crawl. */
  children?: ComponentChildren;
}

export function CrawlProgress({ crawl, isStopping, onStop, onNewCrawl, children }: CrawlProgressProps) {
  const isRunning = crawl.state === 'running';
  const site = httpOrigin(crawl.settings.startUrl) ?? crawl.settings.startUrl;
  return (
    <section class="crawl-progress" aria-label="Crawl of this site">
      <div class="crawl-head">
        <h2 class="crawl-site" title={crawl.settings.startUrl}>
          {site}
        </h2>
        <span class={`crawl-state state-${crawl.state}`} role="status" data-testid="crawl-state">
          {crawl.state}
        </span>
      </div>
      {crawl.message !== null && <p class="crawl-message">{crawl.message}</p>}
      <dl class="counters">
        <div>
          <dt>Fetched</dt>
          <dd data-testid="count-fetched">{crawl.counts.fetched}</dd>
        </div>
        <div>
          <dt>Queued</dt>
          <dd data-testid="count-queued">{crawl.queued}</dd>
        </div>
        <div>
          <dt>Errors</dt>
          <dd data-testid="count-errors">{crawl.counts.errors}</dd>
        </div>
        <div>
          <dt>Blocked by robots</dt>
          <dd data-testid="count-blocked">{crawl.counts.blocked}</dd>
        </div>
      </dl>
      {children}
      <div class="crawl-actions">
        {isRunning ? (
          <button type="button" class="danger" data-testid="stop" disabled={isStopping} onClick={onStop}>
            {isStopping ? 'Stopping…' : 'Stop'}
          </button>
        ) : (
          <button type="button" onClick={onNewCrawl}>
            New crawl
          </button>
        )}
      </div>
    </section>
  );
}

/**
 * The results page's header: its title, why the crawl cannot be shown (if
 * so), the crawl bar (state, actions, export) and the views' tabs.
 */
import { notCrawledTotal } from '../core/crawl/not-crawled.ts';
import type { ResultsViewName } from '../messaging/routes.ts';
import { CrawlBar } from './crawl-bar.tsx';
import { RerunPanel } from './rerun-panel.tsx';
import { useResultsContext } from './use-results.ts';

export interface ResultsHeaderProps {
  crawlId: string;
  /** The clock, for the run time, ms since the epoch. */
  now: () => number;
}

/** The views' tabs, in order, with their test ids' suffixes and labels. */
const TABS: readonly { view: ResultsViewName; label: string }[] = [
  { view: 'table', label: 'All URLs' },
  { view: 'reports', label: 'Reports' },
  { view: 'issues', label: 'Issues' },
  { view: 'not-crawled', label: 'Not crawled' },
];

export function ResultsHeader({ crawlId, now }: ResultsHeaderProps) {
  const results = useResultsContext();
  const { read, crawl, state, windows } = results;
  const { view } = state;
  return (
    <header class="page-head">
      <h1 class="page-title">Tabcrawl results</h1>
      {read.state === 'loading' && <p class="muted">Loading crawl…</p>}
      {read.state === 'failed' && (
        <p class="banner" role="alert" data-testid="results-read-error">
          Could not read the crawl: {read.message}. Reload this tab, or open the crawl again from the Tabcrawl popup's
          Crawls list.
        </p>
      )}
      {read.state === 'done' && crawl === undefined && (
        <p class="banner" role="alert" data-testid="results-missing-crawl">
          There is no crawl {crawlId} in this browser: it may have been deleted. Open a stored crawl from the Tabcrawl
          popup's Crawls list.
        </p>
      )}
      {crawl !== undefined && (
        <CrawlBar
          crawl={crawl}
          now={now()}
          onAction={results.onAction}
          onExport={results.onExport}
          onExportView={results.onExportView}
          onExportViewLinks={results.onExportViewLinks}
          exportViewTitle={
            view === 'issues' ? 'The issues shown (of the checks open, or all of them), as CSV' : undefined
          }
          onBrowsertrixConfig={results.onBrowsertrixConfig}
          viewTotal={view === 'table' ? windows.total : null}
        />
      )}
      {crawl !== undefined && results.rerunStore !== undefined && (
        <RerunPanel key={crawl.id} crawl={crawl} store={results.rerunStore} />
      )}
      {!results.isMissing && (
        <nav class="results-tabs" aria-label="Views">
          {TABS.map((tab) => (
            <button
              type="button"
              key={tab.view}
              aria-pressed={view === tab.view}
              data-testid={`tab-${tab.view}`}
              onClick={() => results.openView(tab.view)}
            >
              {tab.label}
              {tab.view === 'not-crawled' && crawl?.counts.notCrawled !== undefined
                ? ` (${notCrawledTotal(crawl.counts.notCrawled)})`
                : ''}
            </button>
          ))}
        </nav>
      )}
    </header>
  );
}

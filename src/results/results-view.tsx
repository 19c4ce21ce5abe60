/**
 * The results browser: the crawl's header, filters, the virtualized table of
 * every crawled URL and, when one is opened, its detail beside the table.
 *
 * Platform-free: data comes in as {@link ResultsViewProps.queries} (the table
 * and facets) and {@link ResultsViewProps.reader} (whole rows and the crawl),
 * so tests render the view in a plain page with fakes.
 *
 * Live: the crawl's record is read again on each of its `crawl/changed`
 * events ({@link ResultsViewProps.onEvent}), or without events every
 * {@link ResultsViewProps.pollMs} while it runs or is paused; the header
 * follows, and when more rows are done the facets and the table are read
 * again in place (same query, same scroll position, selection and open
 * detail).
 *
 * Acting: the crawl bar pauses, resumes and stops the crawl through
 * {@link ResultsViewProps.send}, exports it through
 * {@link ResultsViewProps.openExport}, and saves the current view as CSV.
 * The state a Pause / Resume / Stop reply gives is shown at once, until a
 * newer read of the crawl comes (see `use-crawl-actions.ts`).
 *
 * Address: given a {@link ResultsViewProps.location}, the view, the open
 * detail, the open Issues checks, the table's filters and order and the
 * scroll live in the tab's address (`results-address.ts`, kept in step by
 * `use-results-address.ts`): a move to another view, or to a URL from a
 * report or an issue, is a new history entry, so Back returns to where the
 * user was (scroll included); smaller changes rewrite the current entry, so a
 * reload or a shared address shows the same.
 *
 * Keys: `/` focuses the search, Esc closes the detail (focus returns to the
 * table); in the table, arrows move the selection and Enter opens it.
 *
 * Layout only: the state is `results-state.ts`'s (kept by `use-results.ts`),
 * what the page does is in `results-actions.ts`; the header and the All URLs
 * view are `results-header.tsx` and `all-urls-view.tsx`.
 */
import { IssuesView } from '../reports/issues-view.tsx';
import { NotCrawledView } from '../reports/not-crawled-view.tsx';
import { ReportsView } from '../reports/reports-view.tsx';
import { AllUrlsView } from './all-urls-view.tsx';
import { ResultsHeader } from './results-header.tsx';
import { ResultsContext, useResults, type ResultsViewProps } from './use-results.ts';
import { useResultsKeys } from './use-results-keys.ts';

export type { ResultsViewProps } from './use-results.ts';

/** The whole results browser for one crawl, or a note when the address names none. */
export function ResultsView(props: ResultsViewProps) {
  if (props.crawlId === null) {
    return (
      <main class="results-page">
        <p class="banner" role="alert" data-testid="results-no-crawl">
          No crawl named in the address. Open the results from the Tabcrawl popup.
        </p>
      </main>
    );
  }
  return <CrawlResults {...props} crawlId={props.crawlId} />;
}

function CrawlResults(props: ResultsViewProps & { crawlId: string }) {
  const { reader, crawlId, saveCsv } = props;
  const results = useResults(props);
  const { state, crawl, loadRows, openFromReport, address } = results;
  const { view, openUrl } = state;
  useResultsKeys(openUrl !== null, results.closeDetail, results.searchRef);

  return (
    <ResultsContext.Provider value={results}>
      <main class={`results-page${openUrl !== null ? ' has-detail' : ''}`} data-testid="results-page">
        <ResultsHeader crawlId={crawlId} now={props.now ?? Date.now} />
        {view === 'reports' && crawl !== undefined && (
          <ReportsView
            loadRows={loadRows}
            crawl={crawl}
            saveCsv={saveCsv}
            onOpenUrl={openFromReport}
            onReady={address.restoreScroll}
          />
        )}
        {view === 'issues' && crawl !== undefined && (
          <IssuesView
            loadRows={loadRows}
            crawl={crawl}
            saveCsv={saveCsv}
            onOpenUrl={openFromReport}
            openChecks={state.openChecks}
            onOpenChecksChange={results.openChecks}
            onReady={address.restoreScroll}
            onResult={(result) => {
              results.issuesResult.current = result;
            }}
            onShowInTable={(check, urls) => {
              results.dispatch({ type: 'issue-filter-set', filter: { check, urls } });
              results.openView('table');
            }}
          />
        )}
        {view === 'not-crawled' && crawl !== undefined && (
          <NotCrawledView crawl={crawl} load={results.loadNotCrawled} saveCsv={saveCsv} onOpenUrl={openFromReport} />
        )}
        {view === 'table' && !results.isMissing && <AllUrlsView reader={reader} crawlId={crawlId} />}
      </main>
    </ResultsContext.Provider>
  );
}

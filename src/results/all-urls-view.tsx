/**
 * The results page's *All URLs* view: an issue's filter note, the filters
 * and columns, the count, and the virtualized table with, when one is open,
 * a URL's detail beside it.
 */
import { checkInfo } from '../audit/checks.ts';
import type { RowReader } from './row-reader.ts';
import { ColumnChooser } from './column-chooser.tsx';
import { ResultsCount } from './results-count.tsx';
import { ResultsFilters, NO_FILTERS, hasFilters } from './results-filters.tsx';
import { ResultsGrid } from './results-grid.tsx';
import { UrlDetail } from './url-detail.tsx';
import { useResultsContext } from './use-results.ts';

export interface AllUrlsViewProps {
  reader: RowReader;
  crawlId: string;
}

export function AllUrlsView({ reader, crawlId }: AllUrlsViewProps) {
  const results = useResultsContext();
  const { state, dispatch, windows, address, crawl, origin } = results;
  const { issueFilter, filters, openUrl } = state;
  return (
    <>
      {issueFilter !== null && (
        <p class="filter-note" role="status" data-testid="issue-filter">
          Only the {issueFilter.urls.length} URLs of the issue “{checkInfo(issueFilter.check).title}” (
          {issueFilter.check}).{' '}
          <button
            type="button"
            data-testid="issue-filter-clear"
            onClick={() => dispatch({ type: 'issue-filter-set', filter: null })}
          >
            Show every URL
          </button>
        </p>
      )}
      <ResultsFilters
        values={filters}
        facets={results.facets}
        onChange={(next) => dispatch({ type: 'filters-changed', filters: next })}
        searchRef={results.searchRef}
      >
        <ColumnChooser columns={state.columns} onChange={results.chooseColumns} />
      </ResultsFilters>
      <ResultsCount
        total={windows.total}
        isFiltered={hasFilters(filters)}
        state={crawl?.state}
        onClear={() => dispatch({ type: 'filters-changed', filters: NO_FILTERS })}
      />
      {windows.error !== null && (
        <p class="banner" role="alert" data-testid="results-error">
          Could not read the rows: {windows.error instanceof Error ? windows.error.message : String(windows.error)}
        </p>
      )}
      <div class="results-main">
        <ResultsGrid
          windows={windows}
          queryKey={results.queryKey}
          version={state.windowsVersion}
          sort={state.sort}
          onSort={(column) => dispatch({ type: 'sorted', column })}
          columns={state.columns}
          origin={origin}
          selectedIndex={state.selectedIndex}
          onSelect={(index) => dispatch({ type: 'row-selected', index })}
          onOpen={results.openDetail}
          openUrl={openUrl}
          gridRef={results.gridRef}
          restoreScrollTop={address.gridRestore}
          onScrollRestored={address.onGridScrollRestored}
          onScrollTopChange={address.onGridScroll}
        />
        {openUrl !== null && (
          <UrlDetail
            reader={reader}
            crawlId={crawlId}
            crawl={crawl}
            url={openUrl}
            origin={origin}
            onOpen={results.openDetail}
            onClose={results.closeDetail}
          />
        )}
      </div>
    </>
  );
}

/**
 * The results page's state, apart from its layout: the view shown, the open
 * detail and Issues checks, the table's filters, search, order, columns and
 * selection, an issue's *Show in table*, and the counters that make the
 * table and the facets be read again. One pure {@link reduceResults} moves it
 * (`use-results.ts` keeps it with `useReducer`); what the page does over its
 * ports is in `results-actions.ts` (issue 28: state out of the big components).
 *
 * The crawl record (`use-live-crawl.ts`, `use-crawl-actions.ts`), the
 * address (`use-results-address.ts`) and the table's rows (`row-windows.ts`)
 * keep their own state: they follow events, history and the database.
 */
import type { CheckId } from '../audit/checks.ts';
import type { ResultsViewName } from '../messaging/routes.ts';
import type { SortColumn } from '../storage/page-queries.ts';
import type { ShownColumn } from './column-prefs.ts';
import type { FilterValues } from './results-filters.tsx';
import { nextSort, type SortState } from './results-query.ts';
import type { ResultsShown } from './use-results-address.ts';

/** The Issues view's *Show in table*: the table lists only these URLs, those of one check. */
export interface IssueFilter {
  check: CheckId;
  urls: string[];
}

export interface ResultsState {
  /** What the page shows under its header. */
  view: ResultsViewName;
  /** The URL whose detail is open beside the table; null when none is. */
  openUrl: string | null;
  /** The Issues checks open. */
  openChecks: CheckId[];
  /** The table's filters as shown (the search as typed). */
  filters: FilterValues;
  /** The search the table's query runs: the typed one, once typing pauses. */
  search: string;
  sort: SortState;
  /** The table's columns, in order. */
  columns: ShownColumn[];
  /** The table's selected row, an index into the query's rows. */
  selectedIndex: number;
  /** Only the URLs of one issue in the table; null: every URL. */
  issueFilter: IssueFilter | null;
  /** Bumped when the crawl has more rows than when the facets and the table were last read. */
  rowsVersion: number;
  /** Bumped when the table's rows (`RowWindows`) changed: the grid renders again. */
  windowsVersion: number;
}

/** The page as it opens: what the address (or the page's props) said, with these columns. */
export function initialResultsState(start: ResultsShown, columns: ShownColumn[]): ResultsState {
  return {
    view: start.view,
    openUrl: start.url,
    openChecks: start.checks,
    filters: start.filters,
    search: start.search,
    sort: start.sort,
    columns,
    selectedIndex: 0,
    issueFilter: null,
    rowsVersion: 0,
    windowsVersion: 0,
  };
}

/** Everything that changes the results page's state, named by what happened. */
export type ResultsAction =
  /** Back or Forward: the address says what to show. */
  | { type: 'address-shown'; shown: ResultsShown }
  | { type: 'view-opened'; view: ResultsViewName }
  /** A URL's detail opened (null: closed). */
  | { type: 'detail-opened'; url: string | null }
  | { type: 'checks-opened'; checks: CheckId[] }
  | { type: 'filters-changed'; filters: FilterValues }
  /** Typing paused: the table's query runs this search. */
  | { type: 'search-settled'; search: string }
  /** A header was clicked. */
  | { type: 'sorted'; column: SortColumn }
  | { type: 'columns-chosen'; columns: ShownColumn[] }
  | { type: 'row-selected'; index: number }
  /** The table's query changed: the selection goes back to the first row. */
  | { type: 'query-changed' }
  /** *Show in table* of an issue: only its URLs in the table; null: *Show every URL*. */
  | { type: 'issue-filter-set'; filter: IssueFilter | null }
  /** The crawl has more rows (or stopped running): the facets and the table are read again. */
  | { type: 'rows-grew' }
  | { type: 'windows-changed' };

/** The results page's state after `action`; pure, and the same object when nothing changes. */
export function reduceResults(state: ResultsState, action: ResultsAction): ResultsState {
  switch (action.type) {
    case 'address-shown': {
      const { view, url, checks, filters, search, sort } = action.shown;
      return { ...state, view, openUrl: url, openChecks: checks, filters, search, sort };
    }
    case 'view-opened':
      return state.view === action.view ? state : { ...state, view: action.view };
    case 'detail-opened':
      return state.openUrl === action.url ? state : { ...state, openUrl: action.url };
    case 'checks-opened':
      return { ...state, openChecks: action.checks };
    case 'filters-changed':
      return { ...state, filters: action.filters };
    case 'search-settled':
      return state.search === action.search ? state : { ...state, search: action.search };
    case 'sorted':
      return { ...state, sort: nextSort(state.sort, action.column) };
    case 'columns-chosen':
      return { ...state, columns: action.columns };
    case 'row-selected':
      return state.selectedIndex === action.index ? state : { ...state, selectedIndex: action.index };
    case 'query-changed':
      return state.selectedIndex === 0 ? state : { ...state, selectedIndex: 0 };
    case 'issue-filter-set':
      return { ...state, issueFilter: action.filter };
    case 'rows-grew':
      return { ...state, rowsVersion: state.rowsVersion + 1 };
    case 'windows-changed':
      return { ...state, windowsVersion: state.windowsVersion + 1 };
  }
}

/**
 * The results page's state for `ResultsView` to lay out: the reducer of
 * `results-state.ts` (with `useReducer`), the live crawl record and its
 * Pause / Resume / Stop, the facets, the table's rows, the address kept in
 * step, and the actions of `results-actions.ts` bound to the page's ports.
 * Also the effects of the page's life: the debounced search, the table and
 * facets read again as rows come, the tab's title, the run time ticking.
 */
import type { RerunStore } from '../core/custom-rules/rerun-rules.ts';
import { createContext, type RefObject } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks';
import type { AuditResult } from '../audit/engine.ts';
import type { CrawlRecord } from '../core/model.ts';
import { httpOrigin } from '../core/url/normalize-url.ts';
import type { ExportFormat } from '../export/format-info.ts';
import type { Send } from '../messaging/client.ts';
import type { OnEvent } from '../messaging/protocol.ts';
import type { ResultsViewName } from '../messaging/routes.ts';
import type { SaveCsv } from '../reports/reports-view.tsx';
import type { NotCrawledSource } from '../reports/not-crawled-view.tsx';
import type { PageFacets, PageQueries } from '../storage/page-queries.ts';
import type { PageLocation } from './results-address.ts';
import type { RowReader } from './row-reader.ts';
import { loadShownColumns, saveShownColumns, type PrefsStorage, type ShownColumn } from './column-prefs.ts';
import type { CrawlBarAction } from './crawl-bar.tsx';
import {
  allRows,
  exportIssuesView,
  exportTableView,
  exportTableViewLinks,
  saveBrowsertrixConfig,
} from './results-actions.ts';
import { toPageFilter } from './results-query.ts';
import { initialResultsState, reduceResults, type ResultsAction, type ResultsState } from './results-state.ts';
import { RowWindows, queryKey, type BaseQuery } from './row-windows.ts';
import { useAsync, type AsyncState } from './use-async.ts';
import { useCrawlActions } from './use-crawl-actions.ts';
import { LIVE_POLL_MS, useLiveCrawl } from './use-live-crawl.ts';
import { urlListQueries } from './url-list-queries.ts';
import { useResultsAddress, useResultsStart, type ResultsAddress } from './use-results-address.ts';

/** Wait after the last keystroke before the search runs, in ms. */
export const SEARCH_DEBOUNCE_MS = 150;

export interface ResultsViewProps {
  queries: PageQueries;
  reader: RowReader;
  /** Crawl to show; null when the address named none. */
  crawlId: string | null;
  /** URL whose detail is open at first. */
  initialUrl?: string | null;
  /** The view shown at first (the address's `view`). @default 'table' */
  initialView?: ResultsViewName;
  /** Told whenever the view shown changes (the tab keeps it in its address). */
  onViewChange?: (view: ResultsViewName) => void;
  /** Told whenever the open detail changes (the tab keeps it in its address). */
  onDetailChange?: (url: string | null) => void;
  /**
   * The tab's address and history: what is shown is read from it at first and after Back or
   * Forward, and written to it (`initialUrl` and `initialView` are then not read).
   */
  location?: PageLocation;
  /** @default {@link SEARCH_DEBOUNCE_MS} */
  searchDebounceMs?: number;
  /** Saves a report as a CSV file (the tab hands it to the downloads). */
  saveCsv: SaveCsv;
  /** Without `onEvent`: time between two reads of a running or paused crawl, in ms. @default {@link LIVE_POLL_MS} */
  pollMs?: number;
  /** The background's events: the crawl is read again when it changes (and never polled). */
  onEvent?: OnEvent;
  /** Sends requests to the background (pause, resume, stop); no such buttons without it. */
  send?: Send;
  /**
   * Exports this crawl in this format into the downloads, from this tab (no tab is opened); resolves with
   * what to say once saved. No Export without it.
   */
  openExport?: (crawlId: string, format: ExportFormat) => Promise<string | void>;
  /** Saves the crawl as a Browsertrix Crawler config (YAML; the tab hands it to the downloads). No such button without it. */
  saveConfig?: (fileName: string, text: string) => Promise<unknown>;
  /** Tabcrawl's version, named in the config's User-Agent. @default 'unknown' */
  tabcrawlVersion?: string;
  /** The clock, for the run time. @default Date.now */
  now?: () => number;
  /** Where *Re-run extraction* reads stored pages and writes their findings; no Search and extraction panel without it. */
  rerunStore?: RerunStore;
  /** Where the columns chosen are kept (the tab gives its `localStorage`); null: the default columns, not kept. @default null */
  prefs?: PrefsStorage | null;
}

/** Everything the page's layout reads and calls. */
export interface Results {
  state: ResultsState;
  dispatch: (action: ResultsAction) => void;
  /** The crawl record as read (loading, failed, or done: undefined when there is no such crawl). */
  read: AsyncState<CrawlRecord | undefined>;
  /** The crawl to show: the record, or the last Pause / Resume / Stop reply laid over it. */
  crawl: CrawlRecord | undefined;
  /** The crawl cannot be shown: no such crawl, or it could not be read. */
  isMissing: boolean;
  /** The origin of the crawl's start URL, for the table's short URLs; null before it is read. */
  origin: string | null;
  facets: PageFacets | null;
  /** The table's rows, read a window at a time. */
  windows: RowWindows;
  /** The table's query's key: a new one starts the table over. */
  queryKey: string;
  address: ResultsAddress;
  /** Loads every row of the crawl (the Reports and Issues views). */
  loadRows: () => ReturnType<typeof allRows>;
  loadNotCrawled: NotCrawledSource;
  /** Where the Issues view leaves its last audit, for *Export this view*. */
  issuesResult: RefObject<AuditResult | null>;
  searchRef: RefObject<HTMLInputElement | null>;
  gridRef: RefObject<HTMLDivElement | null>;
  /** A move to another view: a new history entry, the scroll of the one left kept in it. */
  openView: (view: ResultsViewName) => void;
  openDetail: (url: string | null) => void;
  /** Closes the detail; the keyboard goes back to the table. */
  closeDetail: () => void;
  /** A report row's URL: its detail, beside the table. */
  openFromReport: (url: string) => void;
  openChecks: (checks: ResultsState['openChecks']) => void;
  chooseColumns: (columns: ShownColumn[]) => void;
  onAction: ((action: CrawlBarAction) => Promise<void>) | undefined;
  onExport: ((format: ExportFormat) => Promise<string | void>) | undefined;
  /** Saves what the view shows as CSV (the table, the issues); undefined on views that save their own lists. */
  onExportView: (() => Promise<void>) | undefined;
  /** Saves the links of the table's rows as shown (one line per link); undefined on the other views. */
  onExportViewLinks: (() => Promise<void>) | undefined;
  onBrowsertrixConfig: (() => Promise<void>) | undefined;
  /** Where *Re-run extraction* works; undefined: no Search and extraction panel. */
  rerunStore: RerunStore | undefined;
}

/** The results page's state and actions for the components under `ResultsView` (reached through a context). */
export const ResultsContext = createContext<Results | null>(null);

/** The {@link Results} `ResultsView` provides; throws outside it (a component used out of place). */
export function useResultsContext(): Results {
  const results = useContext(ResultsContext);
  if (results === null) throw new Error('useResultsContext is used outside ResultsView');
  return results;
}

export function useResults(props: ResultsViewProps & { crawlId: string }): Results {
  const {
    queries,
    reader,
    crawlId,
    location,
    onViewChange,
    onDetailChange,
    saveCsv,
    onEvent,
    send,
    openExport,
    saveConfig,
    prefs = null,
  } = props;
  const {
    searchDebounceMs = SEARCH_DEBOUNCE_MS,
    pollMs = LIVE_POLL_MS,
    tabcrawlVersion = 'unknown',
    now = Date.now,
  } = props;
  /** What the address asked for when the page opened (or `initialView` and `initialUrl` without an address). */
  const start = useResultsStart(location, props.initialView ?? 'table', props.initialUrl ?? null);
  const [state, dispatch] = useReducer(reduceResults, undefined, () =>
    initialResultsState(start, loadShownColumns(prefs)),
  );
  const issuesResult = useRef<AuditResult | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const loadRows = useCallback(() => allRows(reader, crawlId), [reader, crawlId]);
  const loadNotCrawled = useCallback<NotCrawledSource>(
    (id, afterUrl, limit, reason) => reader.notCrawledAfter(id, afterUrl, limit, reason),
    [reader],
  );
  const read = useLiveCrawl(reader, crawlId, pollMs, onEvent);
  const facets = useAsync(() => queries.facets(crawlId), [queries, crawlId], state.rowsVersion);

  const { issueFilter, filters, search, sort } = state;
  const tableQueries = useMemo<PageQueries>(
    () => (issueFilter === null ? queries : urlListQueries(queries, reader, crawlId, issueFilter.urls)),
    [queries, reader, crawlId, issueFilter],
  );
  const windows = useMemo(
    () => new RowWindows(tableQueries, () => dispatch({ type: 'windows-changed' })),
    [tableQueries],
  );

  // The search runs once typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => dispatch({ type: 'search-settled', search: filters.search }), searchDebounceMs);
    return () => clearTimeout(timer);
  }, [filters.search, searchDebounceMs]);

  const base = useMemo<BaseQuery>(
    () => ({ crawlId, sort, filter: toPageFilter(filters, search) }),
    [
      crawlId,
      sort,
      filters.statusClasses,
      filters.kind,
      filters.mediaType,
      filters.depth,
      filters.indexability,
      search,
    ],
  );
  const key = queryKey(base);
  // Idempotent: a new key starts a new generation, the same key changes nothing.
  windows.setQuery(base);
  useEffect(() => dispatch({ type: 'query-changed' }), [key]);

  // The address follows what is shown (and Back or Forward show what it says).
  const address = useResultsAddress({
    location,
    crawlId,
    start,
    shown: { view: state.view, url: state.openUrl, checks: state.openChecks, filters, search, sort },
    show: (shown) => dispatch({ type: 'address-shown', shown }),
  });
  const { beginMove, saveScroll } = address;
  const openView = useCallback(
    (next: ResultsViewName) => {
      beginMove();
      dispatch({ type: 'view-opened', view: next });
      onViewChange?.(next);
    },
    [beginMove, onViewChange],
  );
  const openDetail = useCallback(
    (url: string | null) => {
      dispatch({ type: 'detail-opened', url });
      onDetailChange?.(url);
    },
    [onDetailChange],
  );
  const closeDetail = useCallback(() => {
    openDetail(null);
    gridRef.current?.focus();
  }, [openDetail]);

  const { crawl, onAction } = useCrawlActions(read.state === 'done' ? read.value : undefined, crawlId, send, now);
  useRowsFollowCrawl(crawl, windows, dispatch);
  useEffect(() => {
    document.title = crawl === undefined ? 'Tabcrawl results' : `Tabcrawl results: ${crawl.settings.startUrl}`;
  }, [crawl]);
  useTickWhile(crawl?.state === 'running');

  const { view, openChecks } = state;
  // The Reports and Not crawled views download their own lists (each has its Download CSV).
  const onExportView =
    crawl === undefined
      ? undefined
      : view === 'table'
        ? () => exportTableView({ queries: tableQueries, reader, saveCsv }, crawl, base)
        : view === 'issues'
          ? () => exportIssuesView({ saveCsv }, crawl, issuesResult.current, openChecks)
          : undefined;
  const onExportViewLinks =
    crawl === undefined || view !== 'table'
      ? undefined
      : () => exportTableViewLinks({ queries: tableQueries, reader, saveCsv }, crawl, base);

  return {
    state,
    dispatch,
    read,
    crawl,
    isMissing: (read.state === 'done' && crawl === undefined) || read.state === 'failed',
    origin: crawl === undefined ? null : httpOrigin(crawl.settings.startUrl),
    facets: facets.state === 'done' ? facets.value : null,
    windows,
    queryKey: key,
    address,
    loadRows,
    loadNotCrawled,
    issuesResult,
    searchRef,
    gridRef,
    openView,
    openDetail,
    closeDetail,
    openFromReport: (url) => {
      openView('table');
      openDetail(url);
    },
    openChecks: (checks) => {
      saveScroll();
      dispatch({ type: 'checks-opened', checks });
    },
    chooseColumns: (columns) => {
      dispatch({ type: 'columns-chosen', columns });
      saveShownColumns(prefs, columns);
    },
    onAction,
    onExport: openExport === undefined ? undefined : (format) => openExport(crawlId, format),
    onExportView,
    onExportViewLinks,
    onBrowsertrixConfig:
      saveConfig === undefined || crawl === undefined
        ? undefined
        : () => saveBrowsertrixConfig({ saveConfig, tabcrawlVersion }, crawl),
    rerunStore: props.rerunStore,
  };
}

/**
 * More rows done (or the crawl just stopped running, its last rows written): the facets and the table
 * are read again. Not on the first read: the table and the facets are being read for the first time then.
 */
function useRowsFollowCrawl(
  crawl: CrawlRecord | undefined,
  windows: RowWindows,
  dispatch: (action: ResultsAction) => void,
): void {
  const done = crawl?.counts.done;
  const isRunning = crawl?.state === 'running';
  const seen = useRef<{ done: number; isRunning: boolean } | null>(null);
  useEffect(() => {
    if (done === undefined) return;
    const last = seen.current;
    seen.current = { done, isRunning };
    if (last === null || (last.done === done && !(last.isRunning && !isRunning))) return;
    windows.refresh();
    dispatch({ type: 'rows-grew' });
  }, [done, isRunning, windows, dispatch]);
}

/** The run time of a running crawl moves on: one render a second while it runs (nothing is read). */
function useTickWhile(isRunning: boolean): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!isRunning) return undefined;
    const timer = setInterval(() => setTick((tick) => tick + 1), 1000);
    return () => clearInterval(timer);
  }, [isRunning]);
}

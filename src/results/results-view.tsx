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
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { PageRecord } from '../core/model.ts';
import { exportFileName, type ExportFormat } from '../export/format-info.ts';
import type { Send } from '../messaging/client.ts';
import type { OnEvent } from '../messaging/protocol.ts';
import type { ResultsViewName } from '../messaging/routes.ts';
import type { AuditResult } from '../audit/audit.ts';
import { issuesToCsv } from '../export/issues-csv.ts';
import { issuesFileName } from '../reports/issues-view.tsx';
import type { PageLocation } from './results-address.ts';
import { ReportsView, type SaveCsv } from '../reports/reports-view.tsx';
import { NotCrawledView, type NotCrawledSource } from '../reports/not-crawled-view.tsx';
import { notCrawledTotal } from '../core/crawl/not-crawled.ts';
import { IssuesView } from '../reports/issues-view.tsx';
import { checkInfo, type CheckId } from '../audit/checks.ts';
import { urlListQueries } from './url-list-queries.ts';
import type { PageQueries, SortColumn } from '../storage/page-queries.ts';
import { CrawlBar } from './crawl-bar.tsx';
import { ColumnChooser } from './column-chooser.tsx';
import { loadShownColumns, saveShownColumns, type PrefsStorage, type ShownColumn } from './column-prefs.ts';
import { filteredCsv } from './filtered-csv.ts';
import { httpOrigin } from '../core/url/normalize-url.ts';
import { ResultsCount } from './results-count.tsx';
import { ResultsFilters, NO_FILTERS, hasFilters, type FilterValues } from './results-filters.tsx';
import { ResultsGrid } from './results-grid.tsx';
import { nextSort, toPageFilter, type SortState } from './results-query.ts';
import type { RowReader } from './row-reader.ts';
import { RowWindows, queryKey } from './row-windows.ts';
import { useAsync } from './use-async.ts';
import { useCrawlActions } from './use-crawl-actions.ts';
import { LIVE_POLL_MS, useLiveCrawl } from './use-live-crawl.ts';
import { UrlDetail } from './url-detail.tsx';
import { useResultsAddress, useResultsStart } from './use-results-address.ts';
import { browsertrixConfigFileName, browsertrixConfigYaml } from '../handoff/browsertrix-config.ts';

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
  /** Where the columns chosen are kept (the tab gives its `localStorage`); null: the default columns, not kept. @default null */
  prefs?: PrefsStorage | null;
}

/** Every row of a crawl in finishing order, read a page at a time. */
async function* allRows(reader: RowReader, crawlId: string): AsyncGenerator<PageRecord> {
  for (let afterSeq = 0; ; ) {
    const rows = await reader.rowsAfter(crawlId, afterSeq, 500);
    yield* rows;
    const last = rows.at(-1);
    if (last === undefined || rows.length < 500) return;
    afterSeq = last.seq;
  }
}

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

function CrawlResults({
  queries,
  reader,
  crawlId,
  initialUrl = null,
  initialView = 'table',
  onViewChange,
  onDetailChange,
  location,
  searchDebounceMs = SEARCH_DEBOUNCE_MS,
  saveCsv,
  pollMs = LIVE_POLL_MS,
  onEvent,
  send,
  openExport,
  saveConfig,
  tabcrawlVersion = 'unknown',
  now = Date.now,
  prefs = null,
}: ResultsViewProps & { crawlId: string }) {
  /** What the address asked for when the page opened (or `initialView` and `initialUrl` without an address). */
  const start = useResultsStart(location, initialView, initialUrl);
  /** What the page shows under its header. */
  const [tab, setTabState] = useState<ResultsViewName>(start.view);
  /** The Issues checks open. */
  const [openChecks, setOpenChecks] = useState<CheckId[]>(start.checks);
  /** The audit the Issues view built last: *Export this view* on that view saves its issues. */
  const issuesResult = useRef<AuditResult | null>(null);
  const loadRows = useCallback(() => allRows(reader, crawlId), [reader, crawlId]);
  const loadNotCrawled = useCallback<NotCrawledSource>((id, afterUrl, limit, reason) => reader.notCrawledAfter(id, afterUrl, limit, reason), [reader]);
  const crawl = useLiveCrawl(reader, crawlId, pollMs, onEvent);
  /** Bumped when the crawl has more rows than when the facets and the table were last read. */
  const [rowsVersion, setRowsVersion] = useState(0);
  const facets = useAsync(() => queries.facets(crawlId), [queries, crawlId], rowsVersion);
  const [filters, setFilters] = useState<FilterValues>(start.filters);
  const [search, setSearch] = useState(start.search);
  const [sort, setSort] = useState<SortState>(start.sort);
  const [columns, setColumns] = useState<ShownColumn[]>(() => loadShownColumns(prefs));
  const chooseColumns = (chosen: ShownColumn[]): void => {
    setColumns(chosen);
    saveShownColumns(prefs, chosen);
  };
  const [selectedIndex, setSelectedIndex] = useState(0);
  const [openUrl, setOpenUrl] = useState<string | null>(start.url);
  const [version, setVersion] = useState(0);
  const searchRef = useRef<HTMLInputElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);

  /** The Issues view's *Show in table*: the table lists only this check's URLs. */
  const [issueFilter, setIssueFilter] = useState<{ check: CheckId; urls: string[] } | null>(null);
  const tableQueries = useMemo(
    () => (issueFilter === null ? queries : urlListQueries(queries, reader, crawlId, issueFilter.urls)),
    [queries, reader, crawlId, issueFilter],
  );
  const windows = useMemo(() => new RowWindows(tableQueries, () => setVersion((value) => value + 1)), [tableQueries]);

  // The search runs once typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => setSearch(filters.search), searchDebounceMs);
    return () => clearTimeout(timer);
  }, [filters.search, searchDebounceMs]);

  const base = useMemo(
    () => ({ crawlId, sort, filter: toPageFilter(filters, search) }),
    [crawlId, sort, filters.statusClasses, filters.kind, filters.mediaType, filters.depth, filters.indexability, search],
  );
  const key = queryKey(base);
  // Idempotent: a new key starts a new generation, the same key changes nothing.
  windows.setQuery(base);

  useEffect(() => setSelectedIndex(0), [key]);

  // The address follows what is shown (and Back or Forward show what it says).
  const { beginMove, saveScroll, onGridScroll, gridRestore, onGridScrollRestored, restoreScroll } = useResultsAddress({
    location,
    crawlId,
    start,
    shown: { view: tab, url: openUrl, checks: openChecks, filters, search, sort },
    show: (shown) => {
      setTabState(shown.view);
      setOpenUrl(shown.url);
      setOpenChecks(shown.checks);
      setFilters(shown.filters);
      setSearch(shown.search);
      setSort(shown.sort);
    },
  });
  /** A move to another view: a new history entry, the scroll of the one left kept in it. */
  const setTab = useCallback(
    (next: ResultsViewName) => {
      beginMove();
      setTabState(next);
      onViewChange?.(next);
    },
    [beginMove, onViewChange],
  );

  const openDetail = useCallback(
    (url: string | null) => {
      setOpenUrl(url);
      onDetailChange?.(url);
    },
    [onDetailChange],
  );

  const closeDetail = useCallback(() => {
    openDetail(null);
    gridRef.current?.focus();
  }, [openDetail]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'Escape' && openUrl !== null) {
        event.preventDefault();
        closeDetail();
        return;
      }
      if (event.key === '/' && !isTextEntry(event.target)) {
        event.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [openUrl, closeDetail]);

  const { crawl: crawlRecord, onAction } = useCrawlActions(crawl.state === 'done' ? crawl.value : undefined, crawlId, send, now);
  const origin = crawlRecord === undefined ? null : httpOrigin(crawlRecord.settings.startUrl);

  // More rows done (or the crawl just stopped running, its last rows written): read the facets and the
  // table again. Not on the first read: the table and the facets are being read for the first time then.
  const done = crawlRecord?.counts.done;
  const isRunning = crawlRecord?.state === 'running';
  const seen = useRef<{ done: number; isRunning: boolean } | null>(null);
  useEffect(() => {
    if (done === undefined) return;
    const last = seen.current;
    seen.current = { done, isRunning };
    if (last === null || (last.done === done && !(last.isRunning && !isRunning))) return;
    windows.refresh();
    setRowsVersion((value) => value + 1);
  }, [done, isRunning, windows]);

  useEffect(() => {
    document.title = crawlRecord === undefined ? 'Tabcrawl results' : `Tabcrawl results: ${crawlRecord.settings.startUrl}`;
  }, [crawlRecord]);

  // The run time of a running crawl moves on: one render a second while it runs (nothing is read).
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!isRunning) return undefined;
    const timer = setInterval(() => setTick((tick) => tick + 1), 1000);
    return () => clearInterval(timer);
  }, [isRunning]);

  const onSort = (column: SortColumn): void => setSort((current) => nextSort(current, column));

  const onExport = openExport === undefined ? undefined : (format: ExportFormat) => openExport(crawlId, format);
  const onExportTable = async (): Promise<void> => {
    if (crawlRecord === undefined) return;
    const { text } = await filteredCsv(tableQueries, reader, base);
    await saveCsv(exportFileName(crawlRecord, 'csv').replace(/\.csv$/, '-view.csv'), text);
  };
  /** The issues shown: those of the checks open, or every issue when none is. */
  const onExportIssues = async (): Promise<void> => {
    const result = issuesResult.current;
    if (crawlRecord === undefined) return;
    if (result === null) throw new Error('the issues are still being checked');
    const only = openChecks.length > 0 ? openChecks : undefined;
    await saveCsv(issuesFileName(crawlRecord, openChecks.length === 1 ? (openChecks[0] ?? null) : null), issuesToCsv(result, only));
  };
  // The Reports and Not crawled views download their own lists (each has its Download CSV).
  const onExportView = tab === 'table' ? onExportTable : tab === 'issues' ? onExportIssues : undefined;
  const onBrowsertrixConfig =
    saveConfig === undefined || crawlRecord === undefined
      ? undefined
      : async (): Promise<void> => {
          await saveConfig(browsertrixConfigFileName(crawlRecord), browsertrixConfigYaml({ settings: crawlRecord.settings, version: tabcrawlVersion, createdAt: crawlRecord.createdAt }));
        };
  /** A report row's URL: its detail, beside the table. */
  const openFromReport = (url: string): void => {
    setTab('table');
    openDetail(url);
  };
  const onOpenChecksChange = (checks: CheckId[]): void => {
    saveScroll();
    setOpenChecks(checks);
  };
  /** The crawl cannot be shown: no such crawl, or it could not be read. Only that is said, with a way on. */
  const isMissing = (crawl.state === 'done' && crawlRecord === undefined) || crawl.state === 'failed';

  return (
    <main class={`results-page${openUrl !== null ? ' has-detail' : ''}`} data-testid="results-page">
      <header class="page-head">
        <h1 class="page-title">Tabcrawl results</h1>
        {crawl.state === 'loading' && <p class="muted">Loading crawl…</p>}
        {crawl.state === 'failed' && (
          <p class="banner" role="alert" data-testid="results-read-error">
            Could not read the crawl: {crawl.message}. Reload this tab, or open the crawl again from the Tabcrawl popup's Crawls list.
          </p>
        )}
        {crawl.state === 'done' && crawlRecord === undefined && (
          <p class="banner" role="alert" data-testid="results-missing-crawl">
            There is no crawl {crawlId} in this browser: it may have been deleted. Open a stored crawl from the Tabcrawl
            popup's Crawls list.
          </p>
        )}
        {crawlRecord !== undefined && <CrawlBar crawl={crawlRecord} now={now()} onAction={onAction} onExport={onExport} onExportView={onExportView} exportViewTitle={tab === 'issues' ? 'The issues shown (of the checks open, or all of them), as CSV' : undefined} onBrowsertrixConfig={onBrowsertrixConfig} viewTotal={tab === 'table' ? windows.total : null} />}
        {!isMissing && (
        <nav class="results-tabs" aria-label="Views">
          <button type="button" aria-pressed={tab === 'table'} data-testid="tab-table" onClick={() => setTab('table')}>
            All URLs
          </button>
          <button type="button" aria-pressed={tab === 'reports'} data-testid="tab-reports" onClick={() => setTab('reports')}>
            Reports
          </button>
          <button type="button" aria-pressed={tab === 'issues'} data-testid="tab-issues" onClick={() => setTab('issues')}>
            Issues
          </button>
          <button type="button" aria-pressed={tab === 'not-crawled'} data-testid="tab-not-crawled" onClick={() => setTab('not-crawled')}>
            Not crawled{crawlRecord?.counts.notCrawled === undefined ? '' : ` (${notCrawledTotal(crawlRecord.counts.notCrawled)})`}
          </button>
        </nav>
        )}
      </header>
      {tab === 'reports' && crawlRecord !== undefined && <ReportsView loadRows={loadRows} crawl={crawlRecord} saveCsv={saveCsv} onOpenUrl={openFromReport} onReady={restoreScroll} />}
      {tab === 'issues' && crawlRecord !== undefined && (
        <IssuesView
          loadRows={loadRows}
          crawl={crawlRecord}
          saveCsv={saveCsv}
          onOpenUrl={openFromReport}
          openChecks={openChecks}
          onOpenChecksChange={onOpenChecksChange}
          onReady={restoreScroll}
          onResult={(result) => {
            issuesResult.current = result;
          }}
          onShowInTable={(check, urls) => {
            setIssueFilter({ check, urls });
            setTab('table');
          }}
        />
      )}
      {tab === 'not-crawled' && crawlRecord !== undefined && (
        <NotCrawledView crawl={crawlRecord} load={loadNotCrawled} saveCsv={saveCsv} onOpenUrl={openFromReport} />
      )}
      {tab === 'table' && !isMissing && (
        <>
      {issueFilter !== null && (
        <p class="filter-note" role="status" data-testid="issue-filter">
          Only the {issueFilter.urls.length} URLs of the issue “{checkInfo(issueFilter.check).title}” ({issueFilter.check}).{' '}
          <button type="button" data-testid="issue-filter-clear" onClick={() => setIssueFilter(null)}>
            Show every URL
          </button>
        </p>
      )}
      <ResultsFilters values={filters} facets={facets.state === 'done' ? facets.value : null} onChange={setFilters} searchRef={searchRef}>
        <ColumnChooser columns={columns} onChange={chooseColumns} />
      </ResultsFilters>
      <ResultsCount total={windows.total} isFiltered={hasFilters(filters)} state={crawlRecord?.state} onClear={() => setFilters(NO_FILTERS)} />
      {windows.error !== null && (
        <p class="banner" role="alert" data-testid="results-error">
          Could not read the rows: {windows.error instanceof Error ? windows.error.message : String(windows.error)}
        </p>
      )}
      <div class="results-main">
        <ResultsGrid
          windows={windows}
          queryKey={key}
          version={version}
          sort={sort}
          onSort={onSort}
          columns={columns}
          origin={origin}
          selectedIndex={selectedIndex}
          onSelect={setSelectedIndex}
          onOpen={openDetail}
          openUrl={openUrl}
          gridRef={gridRef}
          restoreScrollTop={gridRestore}
          onScrollRestored={onGridScrollRestored}
          onScrollTopChange={onGridScroll}
        />
        {openUrl !== null && (
          <UrlDetail reader={reader} crawlId={crawlId} crawl={crawlRecord} url={openUrl} origin={origin} onOpen={openDetail} onClose={closeDetail} />
        )}
      </div>
        </>
      )}
    </main>
  );
}

/** Whether typing `/` into `target` means the character, not the shortcut. */
function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

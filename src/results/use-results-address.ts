/**
 * The results page's address kept in step with what it shows (the view, the
 * open detail, the open Issues checks, the table's filters and order, the
 * scroll), through the tab's {@link PageLocation}: read once when the page
 * opens ({@link useResultsStart}), then written as what is shown changes and
 * read again after Back or Forward ({@link useResultsAddress}).
 *
 * Two hooks, as the page's state is its own: the view makes its state from
 * the first one's values, then hands that state to the second one, which
 * writes it to the address and gives the page back what the address says
 * after Back or Forward. Without a location both do nothing but give the
 * view's own initial values.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { CheckId } from '../audit/checks.ts';
import { parseResultsParams, resultsSearch, type ResultsViewName } from '../messaging/routes.ts';
import { checksFromParams, tableFromParams, tableToParams, type PageLocation } from './results-address.ts';
import { NO_FILTERS, type FilterValues } from './results-filters.tsx';
import { DEFAULT_SORT, type SortState } from './results-query.ts';

/**
 * Wait after the last scroll event before the scroll is written to the address, in ms: one write
 * once the user stops, not one per frame of scrolling.
 */
const SCROLL_SAVE_MS = 200;

/** What the address keeps of what the results page shows, but the scroll. */
export interface ResultsShown {
  /** The view shown under the header. */
  view: ResultsViewName;
  /** The URL whose detail is open; null when none is. */
  url: string | null;
  /** The Issues checks open. */
  checks: CheckId[];
  /** The table's filters as shown (the search as typed). */
  filters: FilterValues;
  /** The search the table's query runs (after the debounce); the address keeps this one. */
  search: string;
  /** The table's order. */
  sort: SortState;
}

/** What is shown when the page opens, and where to scroll once it is. */
export interface ResultsStart extends ResultsShown {
  /**
   * Where the address said the user was scrolled to, in CSS px (the table's rows in the table, the
   * page in the other views); null when there is nothing to restore (no address, or at the top).
   */
  scrollY: number | null;
}

/** What an address (`location.search()`) says is shown, and its scroll in CSS px (0 at the top). */
function shownAt(search: string): ResultsShown & { scrollY: number } {
  const params = parseResultsParams(search);
  const table = tableFromParams(params.table);
  const { view, url, scrollY } = params;
  return {
    view,
    url,
    checks: checksFromParams(params.checks),
    filters: table.filters,
    search: table.filters.search,
    sort: table.sort,
    scrollY,
  };
}

/**
 * What the page shows when it opens: what the address says when there is a `location` (read once, on
 * the first render), else the view's own initial values.
 * @param initialView the view shown without an address.
 * @param initialUrl the URL whose detail is open without an address.
 */
export function useResultsStart(
  location: PageLocation | undefined,
  initialView: ResultsViewName,
  initialUrl: string | null,
): ResultsStart {
  const [start] = useState<ResultsStart>(() => {
    if (location === undefined) {
      return {
        view: initialView,
        url: initialUrl,
        checks: [],
        filters: NO_FILTERS,
        search: '',
        sort: DEFAULT_SORT,
        scrollY: null,
      };
    }
    const { scrollY, ...shown } = shownAt(location.search());
    return { ...shown, scrollY: scrollY === 0 ? null : scrollY };
  });
  return start;
}

export interface ResultsAddressOptions {
  /** The tab's address and history; without it nothing is read or written. */
  location: PageLocation | undefined;
  crawlId: string;
  /** What {@link useResultsStart} gave: where to scroll once the first view shown is ready. */
  start: ResultsStart;
  /** What is shown now; the address is written again whenever it says something else. */
  shown: ResultsShown;
  /** Shows what the address says after Back or Forward (without a new history entry). */
  show: (shown: ResultsShown) => void;
}

export interface ResultsAddress {
  /**
   * Call before a move to another view or URL (one the user may want Back from): writes the current
   * entry again with the scroll as it is now, and makes the next write of the address a new entry.
   */
  beginMove: () => void;
  /** Writes the current entry again with the scroll as it is now (before a change that moves what is shown, as an Issues check opened). */
  saveScroll: () => void;
  /** For the table's `onScrollTopChange`: its rows' scroll now, in CSS px (the table scrolls its rows, not the page). */
  onGridScroll: (scrollTop: number) => void;
  /** For the table's `restoreScrollTop`: where its rows are to be scrolled to, in CSS px; null when nothing is to be done. */
  gridRestore: number | null;
  /** For the table's `onScrollRestored`: its rows are where the address said. */
  onGridScrollRestored: () => void;
  /** For a view's `onReady`: scrolls the page to where the address said the user was, once the view has its content. */
  restoreScroll: () => void;
}

/**
 * Keeps the address in step with what is shown: a new history entry after a move
 * ({@link ResultsAddress.beginMove}), else the current entry rewritten, with the scroll of the view shown
 * (saved {@link SCROLL_SAVE_MS} after the last scroll event). After Back or Forward, `show` is given
 * what the address says, and the scroll it names is restored once the view shown is ready: the table's
 * rows once they are counted ({@link ResultsAddress.gridRestore}), the Not crawled view at once, the
 * others when they say so ({@link ResultsAddress.restoreScroll}).
 */
export function useResultsAddress({ location, crawlId, start, shown, show }: ResultsAddressOptions): ResultsAddress {
  /** Where to scroll once the view shown is ready (from the address), in CSS px; null when nothing is to be done. */
  const pendingScroll = useRef<number | null>(start.scrollY);
  /** The next write of the address starts a new history entry (a move the user may want Back from). */
  const isNewEntry = useRef(false);
  /** Writes the current entry again with the scroll as it is now (before a move leaves it). */
  const saveScrollRef = useRef<() => void>(() => undefined);
  /** The table's rows' scroll, in CSS px (the table scrolls its rows, not the page). */
  const gridScrollTop = useRef(0);
  /** Where the table's rows are to be scrolled to, in CSS px, from the address; null when nothing is to be done. */
  const [gridRestore, setGridRestore] = useState<number | null>(null);
  /** `show` as last rendered (the Back or Forward listener is added once per location). */
  const showRef = useRef(show);
  showRef.current = show;
  const tab = shown.view;

  // The address follows what is shown: a new entry after a move, else the current one rewritten.
  const tableParams = tableToParams(shown.filters, shown.search, shown.sort);
  const addressOf = (scrollY: number): string =>
    resultsSearch(crawlId, shown.url, tab, { checks: shown.checks, table: tableParams, scrollY });
  const address = addressOf(0);
  const addressOfRef = useRef(addressOf);
  addressOfRef.current = addressOf;
  /** The scroll of the view shown, in CSS px: the table's rows, or the page. */
  const scrollNow = (): number =>
    location === undefined ? 0 : tab === 'table' ? gridScrollTop.current : location.scrollY();
  const scrollNowRef = useRef(scrollNow);
  scrollNowRef.current = scrollNow;
  saveScrollRef.current = () => {
    if (location !== undefined && pendingScroll.current === null)
      location.write(addressOfRef.current(scrollNowRef.current()), false);
  };
  useEffect(() => {
    if (location === undefined) return;
    const next = addressOfRef.current(pendingScroll.current ?? scrollNowRef.current());
    const isNew = isNewEntry.current;
    isNewEntry.current = false;
    if (next !== location.search()) location.write(next, isNew);
  }, [address, location]);
  // The scroll is kept in the current entry as the user scrolls (a moment after the last scroll event).
  const scrollTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onScrolled = useCallback(() => {
    clearTimeout(scrollTimer.current);
    scrollTimer.current = setTimeout(() => saveScrollRef.current(), SCROLL_SAVE_MS);
  }, []);
  useEffect(() => {
    if (location === undefined) return undefined;
    const stop = location.onScroll(onScrolled);
    return () => {
      clearTimeout(scrollTimer.current);
      stop();
    };
  }, [location, onScrolled]);
  const onGridScroll = useCallback(
    (scrollTop: number) => {
      gridScrollTop.current = scrollTop;
      onScrolled();
    },
    [onScrolled],
  );
  const onGridScrollRestored = useCallback(() => {
    pendingScroll.current = null;
    setGridRestore(null);
  }, []);
  const restoreScroll = useCallback(() => {
    const target = pendingScroll.current;
    if (location === undefined || target === null) return;
    pendingScroll.current = null;
    location.scrollTo(target);
  }, [location]);
  /** Bumped by each Back or Forward. */
  const [popCount, setPopCount] = useState(0);
  // Back or Forward: show what the address says now, without a new entry.
  useEffect(() => {
    if (location === undefined) return undefined;
    return location.onPop(() => {
      const { scrollY, ...shown } = shownAt(location.search());
      pendingScroll.current = scrollY;
      showRef.current(shown);
      setPopCount((count) => count + 1);
    });
  }, [location]);
  // The table scrolls its rows once they are counted; the Not crawled view has its frame at once.
  useEffect(() => {
    if (tab === 'table') {
      gridScrollTop.current = 0;
      setGridRestore(pendingScroll.current);
    } else if (tab === 'not-crawled') {
      restoreScroll();
    }
  }, [tab, popCount, restoreScroll]);

  const saveScroll = useCallback(() => saveScrollRef.current(), []);
  const beginMove = useCallback(() => {
    saveScrollRef.current();
    isNewEntry.current = true;
  }, []);
  return { beginMove, saveScroll, onGridScroll, gridRestore, onGridScrollRestored, restoreScroll };
}

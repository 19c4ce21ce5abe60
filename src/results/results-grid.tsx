/**
 * The virtualized table of crawled URLs.
 *
 * A scroll container whose inner block is `total × ROW_HEIGHT_PX` tall; only
 * the rows in view (plus {@link OVERSCAN_ROWS} each side) are rendered, each
 * absolutely placed, and only their windows are fetched ({@link RowWindows}).
 * So 100,000 rows cost what 40 do.
 *
 * A row that is not a page (a page resource, a linked file, a sitemap) has its
 * kind tagged before its URL.
 *
 * Columns: the ones chosen ({@link ResultsGridProps.columns}); a table too
 * narrow for all of them (a small window, or the detail open beside it) drops
 * whole columns, least needed first ({@link fittingColumns}), instead of
 * cutting the last ones at its edge. URL and Status always stay.
 *
 * Keyboard: the grid is one tab stop (`aria-activedescendant` names the
 * selected row); arrows, Page Up/Down, Home/End move the selection, Enter opens
 * its detail. Column headers are buttons: a click sorts, a second reverses.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { NonIndexableReason } from '../core/page-facts/indexability.ts';
import { RESULT_COLUMNS, type PageListRow, type SortColumn } from '../storage/page-queries.ts';
import { DEFAULT_COLUMNS, SHOWN_COLUMNS, type ShownColumn } from './column-prefs.ts';
import { mediaType, msText, rowTone, shortUrl, sizeText, statusText, urlParts } from './format.ts';
import { REASON_TEXT } from './page-facts-detail.tsx';
import type { RowWindows } from './row-windows.ts';

/** Height of one row, in CSS px (the stylesheet's `.grid-row` agrees). */
export const ROW_HEIGHT_PX = 28;
/** Rows rendered beyond each edge of the view. */
export const OVERSCAN_ROWS = 10;
/** Rows assumed in view before the container has been measured (or when it has no layout). */
const FALLBACK_VIEW_ROWS = 24;

export interface GridColumn {
  column: ShownColumn;
  label: string;
  /** Text of the cell (always text: never HTML). */
  cell: (row: PageListRow, origin: string | null) => string;
  /** Tooltip of the cell. */
  title?: (row: PageListRow) => string | undefined;
  isNumeric?: boolean;
  /** The column's grid track (`92px`, `minmax(200px, 3fr)`). */
  track: string;
  /** The least width the column needs, in CSS px: its header with the sort arrow ('Time (ms) ▼'). */
  minPx: number;
  /**
   * In a table too narrow for every chosen column, columns are dropped whole, the highest rank
   * first (least needed first); 0: never dropped (URL, Status).
   */
  dropRank: number;
}

/** A count of the page facts; empty without facts. */
const countCell = (count: number | null): string => (count === null ? '' : String(count));

/** What a shown column's cell says, how wide it is and when it is dropped; its label, order and alignment come from {@link RESULT_COLUMNS}. */
const CELLS: { readonly [C in ShownColumn]: Omit<GridColumn, 'column' | 'label' | 'isNumeric'> } = {
  url: {
    cell: (row, origin) => shortUrl(row.url, origin),
    title: (row) => row.url,
    track: 'minmax(200px, 3fr)',
    minPx: 200,
    dropRank: 0,
  },
  status: {
    cell: (row) => statusText(row),
    title: (row) =>
      row.error !== null
        ? `${row.error.code}: ${row.error.message}`
        : row.location !== null
          ? `→ ${row.location}`
          : undefined,
    track: '92px',
    minPx: 92,
    dropRank: 0,
  },
  contentType: {
    cell: (row) => mediaType(row.contentType),
    title: (row) => row.contentType ?? undefined,
    track: '130px',
    minPx: 130,
    dropRank: 1,
  },
  size: { cell: (row) => sizeText(row.contentLength), track: '84px', minPx: 84, dropRank: 2 },
  responseTime: { cell: (row) => msText(row.responseTimeMs), track: '96px', minPx: 96, dropRank: 3 },
  depth: { cell: (row) => String(row.depth), track: '72px', minPx: 72, dropRank: 6 },
  title: {
    cell: (row) => row.title ?? '',
    title: (row) => row.title ?? undefined,
    track: 'minmax(120px, 2fr)',
    minPx: 120,
    dropRank: 4,
  },
  inlinks: { cell: (row) => String(row.inlinks), track: '80px', minPx: 80, dropRank: 7 },
  indexability: {
    cell: (row) =>
      row.indexability === null
        ? ''
        : row.indexability.indexable
          ? 'Indexable'
          : INDEXABILITY_CELL[row.indexability.reason],
    title: (row) =>
      row.indexability === null
        ? undefined
        : row.indexability.indexable
          ? 'Indexable'
          : `Not indexable: ${REASON_TEXT[row.indexability.reason]}`,
    track: '116px',
    minPx: 116,
    dropRank: 5,
  },
  words: { cell: (row) => countCell(row.wordCount), track: '76px', minPx: 76, dropRank: 8 },
  h1Count: {
    cell: (row) => countCell(row.h1Count),
    title: (row) => row.h1 ?? undefined,
    track: '56px',
    minPx: 56,
    dropRank: 9,
  },
  internalLinks: {
    cell: (row) => countCell(row.internalLinks),
    title: () => "Distinct links to URLs in the crawl's scope",
    track: '88px',
    minPx: 88,
    dropRank: 10,
  },
  outboundLinks: {
    cell: (row) => countCell(row.outboundLinks),
    title: () => 'Distinct links to other sites',
    track: '96px',
    minPx: 96,
    dropRank: 11,
  },
  rendered: {
    cell: (row) => row.rendered,
    title: (row) => (row.rendered === '' ? 'Not rendered: read from its HTML' : undefined),
    track: '124px',
    minPx: 124,
    dropRank: 12,
  },
};

/** The indexability cell's short words for each reason (the tooltip says it whole). */
const INDEXABILITY_CELL: Readonly<Record<NonIndexableReason, string>> = {
  blocked: 'blocked',
  redirected: 'redirected',
  'not-200': 'not 200',
  noindex: 'noindex',
  canonicalised: 'canonicalised',
};

/** Every column the grid can show, in table order. */
export const GRID_COLUMNS: readonly GridColumn[] = SHOWN_COLUMNS.map((column): GridColumn => ({
  column,
  label: RESULT_COLUMNS[column].label,
  isNumeric: RESULT_COLUMNS[column].isNumeric,
  ...CELLS[column],
}));

/**
 * The chosen columns that fit `widthPx` (the rows' width; 0 when not measured: every chosen
 * column), dropping the highest {@link GridColumn.dropRank} first, and their grid template.
 */
export function fittingColumns(
  chosen: readonly ShownColumn[],
  widthPx: number,
): { columns: GridColumn[]; template: string } {
  let columns = GRID_COLUMNS.filter((column) => chosen.includes(column.column));
  const needed = (): number => columns.reduce((sum, column) => sum + column.minPx, 0);
  while (widthPx > 0 && needed() > widthPx) {
    const dropped = columns.reduce<GridColumn | null>(
      (worst, column) => (column.dropRank > (worst?.dropRank ?? 0) ? column : worst),
      null,
    );
    if (dropped === null) break;
    columns = columns.filter((column) => column !== dropped);
  }
  // Too narrow even for URL and Status: the URL gives way.
  const squeezed = widthPx > 0 && needed() > widthPx;
  const template = columns
    .map((column) => (column.column === 'url' && squeezed ? 'minmax(0, 1fr)' : column.track))
    .join(' ');
  return { columns, template };
}

export interface ResultsGridProps {
  windows: RowWindows;
  /** Changes whenever the query does: the grid then scrolls back to the top. */
  queryKey: string;
  /** Bumped by the owner when `windows` has new rows. */
  version: number;
  sort: { column: SortColumn; descending: boolean };
  onSort: (column: SortColumn) => void;
  /** Crawl origin: URLs on it are shown by path. */
  origin: string | null;
  /** The columns chosen, in table order (a narrow table shows fewer). @default {@link DEFAULT_COLUMNS} */
  columns?: readonly ShownColumn[];
  selectedIndex: number;
  onSelect: (index: number) => void;
  /** Opens the detail of a row. */
  onOpen: (url: string) => void;
  /** The URL whose detail is open, marked in the table. */
  openUrl: string | null;
  gridRef?: { current: HTMLDivElement | null };
  /**
   * Where to scroll the rows to once there are that many (from the address, after Back or a reload),
   * in CSS px from the top; null: nothing to restore. {@link ResultsGridProps.onScrollRestored} says when done.
   */
  restoreScrollTop?: number | null;
  onScrollRestored?: () => void;
  /** Told the rows' scroll, in CSS px from the top, as the user scrolls (the owner keeps it in the address). */
  onScrollTopChange?: (scrollTop: number) => void;
}

/** The table: sortable headers above a virtualized, keyboard-driven list of rows. */
export function ResultsGrid(props: ResultsGridProps) {
  const { windows, sort, origin, selectedIndex, onSelect, onOpen } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(0);
  const [rowWidth, setRowWidth] = useState(0);
  const { columns: gridColumns, template } = fittingColumns(props.columns ?? DEFAULT_COLUMNS, rowWidth);
  const total = windows.total ?? 0;

  const viewRows = viewHeight > 0 ? Math.ceil(viewHeight / ROW_HEIGHT_PX) : FALLBACK_VIEW_ROWS;
  const firstVisible = Math.floor(scrollTop / ROW_HEIGHT_PX);
  const first = Math.max(0, firstVisible - OVERSCAN_ROWS);
  const lastWanted = firstVisible + viewRows + OVERSCAN_ROWS;
  /** Last row rendered: none until the total is known. */
  const last = windows.total === null ? -1 : Math.min(total - 1, lastWanted);

  useEffect(() => {
    windows.ensure(first, lastWanted);
  }, [windows, props.queryKey, first, lastWanted, props.version]);

  // A new query starts at the top.
  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    if (scroller !== null) scroller.scrollTop = 0;
    setScrollTop(0);
  }, [props.queryKey]);

  // Back to where the user was, once the rows are counted (the spacer is then tall enough to scroll to it).
  const { restoreScrollTop = null, onScrollRestored } = props;
  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    if (restoreScrollTop === null || scroller === null || windows.total === null) return;
    scroller.scrollTop = restoreScrollTop;
    setScrollTop(scroller.scrollTop);
    onScrollRestored?.();
  }, [restoreScrollTop, windows.total, props.queryKey, onScrollRestored]);

  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    if (scroller === null) return undefined;
    setViewHeight(scroller.clientHeight);
    setRowWidth(scroller.clientWidth);
    const observer = new ResizeObserver(() => {
      setViewHeight(scroller.clientHeight);
      setRowWidth(scroller.clientWidth);
    });
    observer.observe(scroller);
    return () => observer.disconnect();
  }, []);

  /** Scrolls just enough to show row `index`. */
  const reveal = (index: number): void => {
    const scroller = scrollRef.current;
    if (scroller === null) return;
    const top = index * ROW_HEIGHT_PX;
    const height = scroller.clientHeight > 0 ? scroller.clientHeight : FALLBACK_VIEW_ROWS * ROW_HEIGHT_PX;
    if (top < scroller.scrollTop) scroller.scrollTop = top;
    else if (top + ROW_HEIGHT_PX > scroller.scrollTop + height) scroller.scrollTop = top + ROW_HEIGHT_PX - height;
    setScrollTop(scroller.scrollTop);
  };

  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.target !== event.currentTarget || total === 0) return;
    const page = Math.max(viewRows - 1, 1);
    const moves: Record<string, number> = {
      ArrowDown: selectedIndex + 1,
      ArrowUp: selectedIndex - 1,
      PageDown: selectedIndex + page,
      PageUp: selectedIndex - page,
      Home: 0,
      End: total - 1,
    };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      const index = Math.min(Math.max(target, 0), total - 1);
      onSelect(index);
      reveal(index);
      return;
    }
    if (event.key === 'Enter') {
      const row = windows.rowAt(selectedIndex);
      if (row !== undefined) {
        event.preventDefault();
        onOpen(row.url);
      }
    }
  };

  const rows = [];
  for (let index = first; index <= last; index += 1) {
    const row = windows.rowAt(index);
    const isSelected = index === selectedIndex;
    const top = `${index * ROW_HEIGHT_PX}px`;
    if (row === undefined) {
      rows.push(
        <div
          key={`pending-${index}`}
          id={`results-row-${index}`}
          role="row"
          aria-rowindex={index + 2}
          aria-selected={isSelected}
          class="grid-row is-pending"
          style={{ top }}
          data-testid="results-row"
          data-index={index}
        >
          <div role="gridcell" class="grid-cell">
            …
          </div>
        </div>,
      );
      continue;
    }
    const tone = rowTone(row);
    rows.push(
      <div
        key={`row-${index}`}
        id={`results-row-${index}`}
        role="row"
        aria-rowindex={index + 2}
        aria-selected={isSelected}
        class={`grid-row tone-${tone}${isSelected ? ' is-selected' : ''}${row.url === props.openUrl ? ' is-open' : ''}`}
        style={{ top }}
        data-testid="results-row"
        data-index={index}
        data-url={row.url}
        data-kind={row.kind}
        onClick={() => {
          onSelect(index);
          onOpen(row.url);
        }}
      >
        {gridColumns.map((column) => (
          <div
            key={column.column}
            role="gridcell"
            class={`grid-cell cell-${column.column}${column.isNumeric === true ? ' is-numeric' : ''}`}
            title={column.title?.(row)}
          >
            {column.column === 'url' && row.kind !== 'page' && (
              <span class={`kind-tag kind-${row.kind}`} data-testid="kind-tag">
                {row.kind}
              </span>
            )}
            {column.column === 'url' ? <UrlText url={row.url} origin={origin} /> : column.cell(row, origin)}
          </div>
        ))}
      </div>,
    );
  }

  const activeId =
    total > 0 && selectedIndex >= first && selectedIndex <= last ? `results-row-${selectedIndex}` : undefined;
  return (
    <div
      ref={props.gridRef}
      class="grid"
      role="grid"
      tabIndex={0}
      aria-label="Crawled URLs"
      aria-rowcount={total + 1}
      aria-colcount={gridColumns.length}
      aria-activedescendant={activeId}
      data-testid="results-grid"
      style={{ '--grid-columns': template }}
      onKeyDown={onKeyDown}
    >
      <div role="rowgroup" class="grid-head">
        <div role="row" aria-rowindex={1} class="grid-row grid-head-row">
          {gridColumns.map((column) => {
            const isSorted = sort.column === column.column;
            const ariaSort = isSorted ? (sort.descending ? 'descending' : 'ascending') : 'none';
            return (
              <div
                key={column.column}
                role="columnheader"
                aria-sort={ariaSort}
                class={`grid-cell cell-${column.column}${column.isNumeric === true ? ' is-numeric' : ''}`}
              >
                <button
                  type="button"
                  class="sort-button"
                  data-testid={`sort-${column.column}`}
                  onClick={() => props.onSort(column.column)}
                >
                  {column.label}
                  <span class="sort-mark" aria-hidden="true">
                    {isSorted ? (sort.descending ? ' ▼' : ' ▲') : ''}
                  </span>
                </button>
              </div>
            );
          })}
        </div>
      </div>
      <div
        ref={scrollRef}
        role="rowgroup"
        class="grid-body"
        data-testid="results-scroll"
        onScroll={(event) => {
          setScrollTop(event.currentTarget.scrollTop);
          props.onScrollTopChange?.(event.currentTarget.scrollTop);
        }}
      >
        <div class="grid-spacer" style={{ height: `${total * ROW_HEIGHT_PX}px` }}>
          {rows}
        </div>
      </div>
    </div>
  );
}

/**
 * A URL cell's text, cut in the middle when too long: the origin of another site gives way
 * first, the path and query stay (see `urlParts`); a URL of the crawl's site is its path.
 */
function UrlText({ url, origin }: { url: string; origin: string | null }) {
  const { head, tail } = urlParts(url, origin);
  return (
    <span class="url-text">
      {head !== '' && <span class="url-head">{head}</span>}
      {tail !== '' && <span class="url-tail">{tail}</span>}
    </span>
  );
}

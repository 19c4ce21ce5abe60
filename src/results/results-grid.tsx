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
 * Keyboard: the grid is one tab stop (`aria-activedescendant` names the
 * selected row); arrows, Page Up/Down, Home/End move the selection, Enter opens
 * its detail. Column headers are buttons: a click sorts, a second reverses.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { RESULT_COLUMNS, SORT_COLUMNS, type PageListRow, type SortColumn } from '../storage/page-queries.ts';
import { mediaType, msText, rowTone, shortUrl, sizeText, statusText } from './format.ts';
import type { RowWindows } from './row-windows.ts';

/** Height of one row, in CSS px (the stylesheet's `.grid-row` agrees). */
export const ROW_HEIGHT_PX = 28;
/** Rows rendered beyond each edge of the view. */
export const OVERSCAN_ROWS = 10;
/** Rows assumed in view before the container has been measured (or when it has no layout). */
const FALLBACK_VIEW_ROWS = 24;

export interface GridColumn {
  column: SortColumn;
  label: string;
  /** Text of the cell (always text: never HTML). */
  cell: (row: PageListRow, origin: string | null) => string;
  /** Tooltip of the cell. */
  title?: (row: PageListRow) => string | undefined;
  isNumeric?: boolean;
}

/** What a shown column's cell says; its label, order and alignment come from {@link RESULT_COLUMNS}. */
type ShownColumn = { [C in SortColumn]: (typeof RESULT_COLUMNS)[C]['isShown'] extends true ? C : never }[SortColumn];
const CELLS: { readonly [C in ShownColumn]: Pick<GridColumn, 'cell'> & Partial<Pick<GridColumn, 'title'>> } = {
  url: { cell: (row, origin) => shortUrl(row.url, origin), title: (row) => row.url },
  status: {
    cell: (row) => statusText(row),
    title: (row) => (row.error !== null ? `${row.error.code}: ${row.error.message}` : row.location !== null ? `→ ${row.location}` : undefined),
  },
  contentType: { cell: (row) => mediaType(row.contentType), title: (row) => row.contentType ?? undefined },
  size: { cell: (row) => sizeText(row.contentLength) },
  responseTime: { cell: (row) => msText(row.responseTimeMs) },
  depth: { cell: (row) => String(row.depth) },
  title: { cell: (row) => row.title ?? '', title: (row) => row.title ?? undefined },
  inlinks: { cell: (row) => String(row.inlinks) },
};

export const GRID_COLUMNS: readonly GridColumn[] = SORT_COLUMNS.filter((column): column is ShownColumn => RESULT_COLUMNS[column].isShown).map(
  (column): GridColumn => ({ column, label: RESULT_COLUMNS[column].label, isNumeric: RESULT_COLUMNS[column].isNumeric, ...CELLS[column] }),
);

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
  selectedIndex: number;
  onSelect: (index: number) => void;
  /** Opens the detail of a row. */
  onOpen: (url: string) => void;
  /** The URL whose detail is open, marked in the table. */
  openUrl: string | null;
  gridRef?: { current: HTMLDivElement | null };
}

/** The table: sortable headers above a virtualized, keyboard-driven list of rows. */
export function ResultsGrid(props: ResultsGridProps) {
  const { windows, sort, origin, selectedIndex, onSelect, onOpen } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(0);
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

  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    if (scroller === null) return undefined;
    setViewHeight(scroller.clientHeight);
    const observer = new ResizeObserver(() => setViewHeight(scroller.clientHeight));
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
        <div key={`pending-${index}`} id={`results-row-${index}`} role="row" aria-rowindex={index + 2} aria-selected={isSelected} class="grid-row is-pending" style={{ top }} data-testid="results-row" data-index={index}>
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
        {GRID_COLUMNS.map((column) => (
          <div key={column.column} role="gridcell" class={`grid-cell cell-${column.column}${column.isNumeric === true ? ' is-numeric' : ''}`} title={column.title?.(row)}>
            {column.column === 'url' && row.kind !== 'page' && (
              <span class={`kind-tag kind-${row.kind}`} data-testid="kind-tag">
                {row.kind}
              </span>
            )}
            {column.cell(row, origin)}
          </div>
        ))}
      </div>,
    );
  }

  const activeId = total > 0 && selectedIndex >= first && selectedIndex <= last ? `results-row-${selectedIndex}` : undefined;
  return (
    <div
      ref={props.gridRef}
      class="grid"
      role="grid"
      tabIndex={0}
      aria-label="Crawled URLs"
      aria-rowcount={total + 1}
      aria-colcount={GRID_COLUMNS.length}
      aria-activedescendant={activeId}
      data-testid="results-grid"
      onKeyDown={onKeyDown}
    >
      <div role="rowgroup" class="grid-head">
        <div role="row" aria-rowindex={1} class="grid-row grid-head-row">
          {GRID_COLUMNS.map((column) => {
            const isSorted = sort.column === column.column;
            const ariaSort = isSorted ? (sort.descending ? 'descending' : 'ascending') : 'none';
            return (
              <div key={column.column} role="columnheader" aria-sort={ariaSort} class={`grid-cell cell-${column.column}${column.isNumeric === true ? ' is-numeric' : ''}`}>
                <button type="button" class="sort-button" data-testid={`sort-${column.column}`} onClick={() => props.onSort(column.column)}>
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
        onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
      >
        <div class="grid-spacer" style={{ height: `${total * ROW_HEIGHT_PX}px` }}>
          {rows}
        </div>
      </div>
    </div>
  );
}

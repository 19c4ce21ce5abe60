/**
 * What the results page keeps in its address, so that Back, Forward and a
 * reload come back to the same view (the open Issues checks, the table's
 * filters and order, the open detail, the scroll) and a filtered view can be
 * shared: the page's location as a small port ({@link PageLocation}; the
 * tab's shell gives `window.history`, tests a fake), and the checks of what
 * an address says (an unknown value counts as absent). Pure but for the port.
 */
import { CHECKS, type CheckId } from '../audit/checks.ts';
import type { RowKind } from '../core/model.ts';
import type { TableParams } from '../messaging/routes.ts';
import {
  INDEXABILITY_VALUES,
  SORT_COLUMNS,
  type IndexabilityValue,
  type StatusClass,
} from '../storage/page-queries.ts';
import { KINDS, STATUS_CLASSES } from './format.ts';
import type { FilterValues } from './results-filters.tsx';
import { DEFAULT_SORT, type SortState } from './results-query.ts';

/** The tab's address and history, as the results page uses them. */
export interface PageLocation {
  /** The address's search string now (`location.search`). */
  search: () => string;
  /**
   * Shows this search in the address: in a new history entry when `isNewEntry` (a move to another
   * view or URL, so Back returns), else in place of the current one (a filter typed, a check opened).
   */
  write: (search: string, isNewEntry: boolean) => void;
  /** Calls `listener` after Back or Forward changed the address (`popstate`); returns how to stop. */
  onPop: (listener: () => void) => () => void;
  /** How far the page is scrolled down now, in CSS pixels. */
  scrollY: () => number;
  /** Scrolls the page to this many CSS pixels from the top. */
  scrollTo: (y: number) => void;
  /** Calls `listener` when the page scrolls; returns how to stop. */
  onScroll: (listener: () => void) => () => void;
}

/** The checks open in the address that are checks (in the registry's order, each once). */
export function checksFromParams(checks: readonly string[]): CheckId[] {
  return CHECKS.filter((info) => checks.includes(info.id)).map((info) => info.id);
}

const isStatusClass = (value: string): value is StatusClass =>
  STATUS_CLASSES.some((entry) => entry.statusClass === value);
const isKind = (value: string | null): value is RowKind => KINDS.some((entry) => entry.kind === value);
const isIndexability = (value: string | null): value is IndexabilityValue =>
  INDEXABILITY_VALUES.some((entry) => entry === value);

/** The table's filters and order an address asks for; what is not a valid value counts as absent. */
export function tableFromParams(table: TableParams): { filters: FilterValues; sort: SortState } {
  const depth = table.depth === null || !/^\d{1,4}$/.test(table.depth) ? null : Number(table.depth);
  const descending = table.sort?.startsWith('-') ?? false;
  const column = table.sort === null ? null : table.sort.slice(descending ? 1 : 0);
  const sortColumn = SORT_COLUMNS.find((known) => known === column);
  return {
    filters: {
      statusClasses: STATUS_CLASSES.map((entry) => entry.statusClass).filter(
        (statusClass) => table.status.includes(statusClass) && isStatusClass(statusClass),
      ),
      kind: isKind(table.kind) ? table.kind : null,
      mediaType: table.media,
      depth,
      indexability: isIndexability(table.index) ? table.index : null,
      search: table.search,
    },
    sort: sortColumn === undefined ? DEFAULT_SORT : { column: sortColumn, descending },
  };
}

/** The address's form of the table's filters and order (the search as the query has it, after the debounce). */
export function tableToParams(filters: Omit<FilterValues, 'search'>, search: string, sort: SortState): TableParams {
  const isDefaultSort = sort.column === DEFAULT_SORT.column && sort.descending === DEFAULT_SORT.descending;
  return {
    status: [...filters.statusClasses],
    kind: filters.kind,
    media: filters.mediaType,
    depth: filters.depth === null ? null : String(filters.depth),
    index: filters.indexability,
    search,
    sort: isDefaultSort ? null : `${sort.descending ? '-' : ''}${sort.column}`,
  };
}

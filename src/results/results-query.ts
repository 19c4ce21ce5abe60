/** From what the user set in the results browser to a {@link PageQuery}: pure. */
import type { PageFilter, SortColumn } from '../storage/page-queries.ts';
import type { FilterValues } from './results-filters.tsx';

export type SortState = { column: SortColumn; descending: boolean };

/** The order rows are shown in before any header is clicked: the order they were finished. */
export const DEFAULT_SORT: SortState = Object.freeze({ column: 'seq', descending: false }) as SortState;

/** The sort after a click on `column`'s header: a new column sorts ascending, the same one reverses. */
export function nextSort(sort: SortState, column: SortColumn): SortState {
  return sort.column === column ? { column, descending: !sort.descending } : { column, descending: false };
}

/** The query's filter: only what is set (no empty class list, no blank search). */
export function toPageFilter(values: Omit<FilterValues, 'search'>, search: string): PageFilter {
  const filter: PageFilter = {};
  if (values.statusClasses.length > 0) filter.statusClasses = [...values.statusClasses];
  if (values.kind !== null) filter.kind = values.kind;
  if (values.mediaType !== null) filter.mediaType = values.mediaType;
  if (values.depth !== null) filter.depth = values.depth;
  if (values.indexability !== null) filter.indexability = values.indexability;
  const trimmed = search.trim();
  if (trimmed !== '') filter.search = trimmed;
  return filter;
}

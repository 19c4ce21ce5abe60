/**
 * The results table narrowed to a list of URLs (one issue's, from the Issues
 * view): a {@link PageQueries} that answers from those URLs' rows, read by key
 * once, searched and sorted in memory as the table asks (the list is one
 * check's findings, not the crawl). Facets come from the crawl's queries.
 */
import {
  RESULT_COLUMNS,
  toPageListRow,
  type PageListRow,
  type PageQueries,
  type PageQuery,
  type PageQueryResult,
  type SortColumn,
} from '../storage/page-queries.ts';
import type { RowReader } from './row-reader.ts';

/** A row's key for a column, as the column declares it (`RESULT_COLUMNS[column].listKey`). */
function keyOf(row: PageListRow, column: SortColumn): number | string | null {
  return RESULT_COLUMNS[column].listKey(row);
}

/** Missing values first, then by value; ties by `seq`. */
function compare(a: PageListRow, b: PageListRow, column: SortColumn): number {
  const x = keyOf(a, column);
  const y = keyOf(b, column);
  if (x !== y) {
    if (x === null) return -1;
    if (y === null) return 1;
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return a.seq - b.seq;
}

/** Queries over the rows of `urls` in crawl `crawlId` (the filters but the search are left to the list). */
export function urlListQueries(
  base: PageQueries,
  reader: RowReader,
  crawlId: string,
  urls: readonly string[],
): PageQueries {
  let rows: Promise<PageListRow[]> | null = null;
  const load = (): Promise<PageListRow[]> => {
    rows ??= reader
      .getRows(crawlId, urls)
      .then((found) => found.flatMap((row) => (row === undefined ? [] : [toPageListRow(row)])));
    return rows;
  };
  return {
    async query(query: PageQuery): Promise<PageQueryResult> {
      const needle = (query.filter.search ?? '').trim().toLowerCase();
      const matching = (await load()).filter(
        (row) =>
          needle === '' || row.url.toLowerCase().includes(needle) || (row.title ?? '').toLowerCase().includes(needle),
      );
      matching.sort((a, b) => compare(a, b, query.sort.column));
      if (query.sort.descending) matching.reverse();
      return { rows: matching.slice(query.offset, query.offset + query.limit), total: matching.length };
    },
    facets: (id) => base.facets(id),
  };
}

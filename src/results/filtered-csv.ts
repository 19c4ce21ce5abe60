/**
 * The rows of the results table's current view (its filters, search and
 * sort) as a CSV file with the columns of the crawl's full CSV export: what
 * an auditor hands on ("the 4xx pages", "everything under /docs/").
 */
import { CSV_BOM, csvHeader, csvRecord } from '../export/csv.ts';
import { toJsonlRow } from '../export/jsonl.ts';
import type { PageFilter, PageQueries, SortColumn } from '../storage/page-queries.ts';
import type { RowReader } from './row-reader.ts';

/** Rows read at a time, so a large view is never held twice in memory. */
const PAGE_ROWS = 500;

/**
 * The view's rows, in its order, as CSV text (UTF-8 BOM, header, CRLF records).
 * @returns the text and how many rows it holds.
 */
export async function filteredCsv(
  queries: PageQueries,
  reader: RowReader,
  view: { crawlId: string; sort: { column: SortColumn; descending: boolean }; filter: PageFilter },
): Promise<{ text: string; rows: number }> {
  const parts = [CSV_BOM, csvHeader()];
  let rows = 0;
  for (let offset = 0; ; offset += PAGE_ROWS) {
    const page = await queries.query({ ...view, offset, limit: PAGE_ROWS });
    const full = await reader.getRows(view.crawlId, page.rows.map((row) => row.url));
    for (const row of full) {
      if (row === undefined) continue;
      parts.push(csvRecord(toJsonlRow(row)));
      rows += 1;
    }
    if (page.rows.length < PAGE_ROWS) return { text: parts.join(''), rows };
  }
}

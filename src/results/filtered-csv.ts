/**
 * The rows of the results table's current view (its filters, search and
 * sort) as a CSV file with the columns of the crawl's full CSV export: what
 * an auditor hands on ("the 4xx pages", "everything under /docs/"). A row's
 * broken resources are counted from the rows of its resources, read by key
 * with each window.
 */
import { redirectsByKey } from '../export/redirect-chains.ts';
import { brokenUrlsIn } from '../export/broken-resources.ts';
import { CSV_BOM, csvHeader, csvRecord, type CustomColumn } from '../export/csv.ts';
import { NO_ISSUES, type IssueLookup } from '../export/issues-of-source.ts';
import { toJsonlRow } from '../export/jsonl.ts';
import type { PageFilter, PageQueries, SortColumn } from '../storage/page-queries.ts';
import type { RowReader } from './row-reader.ts';

/** Rows read at a time, so a large view is never held twice in memory. */
const PAGE_ROWS = 500;

/**
 * The view's rows, in its order, as CSV text (UTF-8 BOM, header, CRLF records).
 *
 * Read a window at a time by offset. A running crawl only adds rows, so a
 * row added ahead of the window being read shifts the rows after it: they
 * come again in the next window and are written once (their URLs are kept
 * to tell). Rows added while the file is made are in it when the view has them.
 * @param issues the checks that failed on each URL, for the `issues` column.
 * @param custom the crawl's custom search and extraction columns (`customColumnsOf`), after the fixed ones.
 * @returns the text and how many rows it holds.
 */
export async function filteredCsv(
  queries: PageQueries,
  reader: RowReader,
  view: { crawlId: string; sort: { column: SortColumn; descending: boolean }; filter: PageFilter },
  issues: IssueLookup = NO_ISSUES,
  custom: readonly CustomColumn[] = [],
): Promise<{ text: string; rows: number }> {
  const parts = [CSV_BOM, csvHeader(custom)];
  const written = new Set<string>();
  for (let offset = 0; ; offset += PAGE_ROWS) {
    const page = await queries.query({ ...view, offset, limit: PAGE_ROWS });
    const urls = page.rows.map((row) => row.url).filter((url) => !written.has(url));
    const full = await reader.getRows(view.crawlId, urls);
    // The rows of this window's resources, read once for the window: its broken ones.
    const resources = [...new Set(full.flatMap((row) => row?.resources ?? []))];
    const broken = brokenUrlsIn((await reader.getRows(view.crawlId, resources)).filter((row) => row !== undefined));
    const redirects = await redirectsByKey(
      full.filter((row) => row !== undefined),
      (urls) => reader.getRows(view.crawlId, urls),
    );
    for (const row of full) {
      if (row === undefined || written.has(row.url)) continue;
      parts.push(csvRecord(toJsonlRow(row, broken, issues, redirects), custom));
      written.add(row.url);
    }
    if (page.rows.length < PAGE_ROWS) return { text: parts.join(''), rows: written.size };
  }
}

/**
 * The links of the results table's current view as CSV, with the columns of the links export
 * (`export/links-csv.ts`): one line per link the view's rows hold, each row once, in the view's order.
 * What the targets answered is read by key for each window of rows (targets outside the view included),
 * and the URLs the crawl left unvisited once, up front.
 */
import { CSV_BOM, csvLine } from '../export/csv.ts';
import {
  answerOfNotCrawled,
  answerOfRow,
  LINKS_CSV_HEADER,
  linksCsvLine,
  linksOfRow,
  type TargetAnswer,
} from '../export/links-csv.ts';
import type { CrawlSettings } from '../core/settings.ts';
import type { PageFilter, PageQueries, SortColumn } from '../storage/page-queries.ts';
import { notCrawledReasonText } from '../ui/not-crawled-text.ts';
import type { RowReader } from './row-reader.ts';

/** Rows read at a time, so a large view is never held twice in memory. */
const PAGE_ROWS = 500;

/**
 * The view's links as CSV text (UTF-8 BOM, header, CRLF records). A running crawl only adds rows: a row
 * that comes again in the next window is written once (as `filtered-csv.ts` does).
 * @returns the text, and how many rows and links it holds.
 */
export async function filteredLinksCsv(
  queries: PageQueries,
  reader: RowReader,
  view: { crawlId: string; sort: { column: SortColumn; descending: boolean }; filter: PageFilter },
  settings: Pick<CrawlSettings, 'maxDepth' | 'maxPages' | 'pathPrefix'>,
): Promise<{ text: string; rows: number; links: number }> {
  const left = new Map<string, TargetAnswer>();
  for (let after: string | null = null; ;) {
    const urls = await reader.notCrawledAfter(view.crawlId, after, PAGE_ROWS, null);
    for (const url of urls) left.set(url.url, answerOfNotCrawled(notCrawledReasonText(url.reason, settings)));
    const last = urls.at(-1);
    if (last === undefined || urls.length < PAGE_ROWS) break;
    after = last.url;
  }
  const parts = [CSV_BOM, csvLine(LINKS_CSV_HEADER)];
  const written = new Set<string>();
  let links = 0;
  for (let offset = 0; ; offset += PAGE_ROWS) {
    const page = await queries.query({ ...view, offset, limit: PAGE_ROWS });
    const urls = page.rows.map((row) => row.url).filter((url) => !written.has(url));
    const full = (await reader.getRows(view.crawlId, urls)).filter((row) => row !== undefined);
    const targets = [...new Set(full.flatMap((row) => linksOfRow(row).map((link) => link.target)))];
    const answers = new Map<string, TargetAnswer>();
    (await reader.getRows(view.crawlId, targets)).forEach((row, i) => {
      const target = targets[i];
      if (target === undefined) return;
      const answer = row === undefined ? left.get(target) : answerOfRow(row);
      if (answer !== undefined) answers.set(target, answer);
    });
    for (const row of full) {
      if (written.has(row.url)) continue;
      for (const link of linksOfRow(row)) {
        parts.push(linksCsvLine(row.url, link, answers.get(link.target)));
        links += 1;
      }
      written.add(row.url);
    }
    if (page.rows.length < PAGE_ROWS) return { text: parts.join(''), rows: written.size, links };
  }
}

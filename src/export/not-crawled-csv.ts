/**
 * The URLs a crawl found and left unvisited by its own rules, as CSV: one
 * line per URL, in URL order, encoded as the crawl's CSV export is (BOM, CRLF,
 * formulas defused: see `csv.ts`). Columns: `url`, `reason` (its id, e.g.
 * `depth`), `why` (in words, e.g. `deeper than 3`), `depth` (the depth it would
 * have had), `found_on` (the page that linked or redirected to it; empty when none).
 *
 * The same text is written by the results page's *Not crawled* view (*Download
 * CSV*) and by the export page as the format `not-crawled.csv` (the command
 * line's `--out NAME.not-crawled.csv`). Any reason goes through as it is stored.
 */
import type { CrawlSettings } from '../core/settings.ts';
import type { NotCrawledUrl } from '../core/model.ts';
import { notCrawledReasonText } from '../ui/not-crawled-text.ts';
import { CSV_BOM, csvLine } from './csv.ts';
import type { FormatWriter } from './export-source.ts';

export const NOT_CRAWLED_CSV_HEADER = Object.freeze(['url', 'reason', 'why', 'depth', 'found_on']);

type ReasonSettings = Pick<CrawlSettings, 'maxDepth' | 'maxPages' | 'pathPrefix'>;

/** One line of the Not crawled CSV. */
export function notCrawledCsvLine(url: NotCrawledUrl, settings: ReasonSettings): string {
  return csvLine([url.url, url.reason, notCrawledReasonText(url.reason, settings), url.depth, url.referrer]);
}

/** The Not crawled CSV of these URLs: BOM, header, a line per URL. */
export function notCrawledCsv(urls: readonly NotCrawledUrl[], settings: ReasonSettings): string {
  return [CSV_BOM, csvLine(NOT_CRAWLED_CSV_HEADER), ...urls.map((url) => notCrawledCsvLine(url, settings))].join('');
}

/** Lines gathered into one chunk. */
const LINES_PER_CHUNK = 500;

/**
 * The Not crawled CSV as a {@link FormatWriter}: the source's not-crawled URLs (none when it has no list),
 * a chunk of lines at a time. Calls `context.onRow()` once per URL written.
 */
export const writeNotCrawledCsv: FormatWriter = async function* (source, context) {
  const encoder = new TextEncoder();
  const { settings } = source.crawl;
  yield encoder.encode(`${CSV_BOM}${csvLine(NOT_CRAWLED_CSV_HEADER)}`);
  if (source.notCrawled === undefined) return;
  let lines: string[] = [];
  for await (const url of source.notCrawled()) {
    lines.push(notCrawledCsvLine(url, settings));
    context.onRow();
    if (lines.length >= LINES_PER_CHUNK) {
      yield encoder.encode(lines.join(''));
      lines = [];
    }
  }
  if (lines.length > 0) yield encoder.encode(lines.join(''));
};

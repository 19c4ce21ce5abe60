/**
 * What the results page does besides showing, as plain async functions over
 * its ports (the row reader, the table's queries, the downloads): saving the
 * table view or the issues shown as CSV, and the crawl as a Browsertrix
 * config, and Pause / Resume / Stop (whose reply `use-crawl-actions.ts`
 * shows). None touches the DOM, so each runs in a unit test with fakes
 * (issue 28).
 *
 * A failure rejects: the crawl bar shows it next to the button used.
 */
import type { AuditResult } from '../audit/engine.ts';
import type { CheckId } from '../audit/checks.ts';
import type { CrawlRecord, PageRecord } from '../core/model.ts';
import { exportFileName } from '../export/format-info.ts';
import { customColumnsOf } from '../export/csv.ts';
import { NO_ISSUES } from '../export/issues-of-source.ts';
import { issuesToCsv } from '../export/issues-csv.ts';
import { browsertrixConfigFileName, browsertrixConfigYaml } from '../handoff/browsertrix-config.ts';
import { issuesFileName } from '../reports/issues-view.tsx';
import type { SaveCsv } from '../reports/reports-view.tsx';
import type { Send } from '../messaging/client.ts';
import type { PageQueries } from '../storage/page-queries.ts';
import type { CrawlBarAction } from './crawl-bar.tsx';
import { filteredCsv } from './filtered-csv.ts';
import { filteredLinksCsv } from './filtered-links-csv.ts';
import type { ActionReply } from './reply-crawl.ts';
import type { RowReader } from './row-reader.ts';
import type { BaseQuery } from './row-windows.ts';

/** Rows read at a time by {@link allRows}. */
const ALL_ROWS_PAGE = 500;

/** Every row of a crawl in finishing order, read {@link ALL_ROWS_PAGE} at a time (the Reports and Issues views scan these). */
export async function* allRows(reader: RowReader, crawlId: string): AsyncGenerator<PageRecord> {
  for (let afterSeq = 0; ;) {
    const rows = await reader.rowsAfter(crawlId, afterSeq, ALL_ROWS_PAGE);
    yield* rows;
    const last = rows.at(-1);
    if (last === undefined || rows.length < ALL_ROWS_PAGE) return;
    afterSeq = last.seq;
  }
}

/** Saves the table's current view (its filters, search and order; an issue's URLs when so filtered) as `<crawl>-view.csv`. */
export async function exportTableView(
  ports: { queries: PageQueries; reader: RowReader; saveCsv: SaveCsv },
  crawl: CrawlRecord,
  query: BaseQuery,
): Promise<void> {
  const { text } = await filteredCsv(ports.queries, ports.reader, query, NO_ISSUES, customColumnsOf(crawl.settings));
  await ports.saveCsv(exportFileName(crawl, 'csv').replace(/\.csv$/, '-view.csv'), text);
}

/** Saves the links of the table's current view (one line per link its rows hold) as `<crawl>-view.links.csv`. */
export async function exportTableViewLinks(
  ports: { queries: PageQueries; reader: RowReader; saveCsv: SaveCsv },
  crawl: CrawlRecord,
  query: BaseQuery,
): Promise<void> {
  const { text } = await filteredLinksCsv(ports.queries, ports.reader, query, crawl.settings);
  await ports.saveCsv(exportFileName(crawl, 'links.csv').replace(/\.links\.csv$/, '-view.links.csv'), text);
}

/**
 * Saves the issues shown as CSV: those of the checks open, or every issue when none is.
 * @param result the audit the Issues view built last; null while it is still being built (then this rejects).
 */
export async function exportIssuesView(
  ports: { saveCsv: SaveCsv },
  crawl: CrawlRecord,
  result: AuditResult | null,
  openChecks: readonly CheckId[],
): Promise<void> {
  if (result === null) throw new Error('the issues are still being checked');
  const only = openChecks.length > 0 ? openChecks : undefined;
  await ports.saveCsv(
    issuesFileName(crawl, openChecks.length === 1 ? (openChecks[0] ?? null) : null),
    issuesToCsv(result, only),
  );
}

/** Saves the crawl as a Browsertrix Crawler config (YAML) naming this Tabcrawl version in its User-Agent. */
export async function saveBrowsertrixConfig(
  ports: { saveConfig: (fileName: string, text: string) => Promise<unknown>; tabcrawlVersion: string },
  crawl: CrawlRecord,
): Promise<void> {
  await ports.saveConfig(
    browsertrixConfigFileName(crawl),
    browsertrixConfigYaml({ settings: crawl.settings, version: ports.tabcrawlVersion, createdAt: crawl.createdAt }),
  );
}

/**
 * Sends `crawl/<action>` for this crawl: the reply to lay over `before`, the record as read when the
 * button was pressed; null when none had been read (nothing to lay it over). Rejects with the background's error.
 * @param now the clock, ms since the epoch (the reply's run time is as of its arrival).
 */
export async function sendCrawlAction(
  send: Send,
  crawlId: string,
  action: CrawlBarAction,
  before: CrawlRecord | undefined,
  now: () => number,
): Promise<ActionReply | null> {
  const { crawl: summary } = await send(`crawl/${action}`, { crawlId });
  return before === undefined ? null : { summary, before, receivedAt: now() };
}

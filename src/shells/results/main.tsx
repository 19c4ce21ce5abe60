/**
 * The results tab's browser shell: the only file of the page that touches the
 * browser (the address, the history, the database, the background's messages
 * and events, new tabs). It opens the crawl database (extension pages share
 * the worker's origin; this page only reads) and renders {@link ResultsView}
 * with the Dexie queries, the push channel and the message client.
 *
 * Address: `src/shells/results/index.html?crawl=<id>` shows a crawl;
 * `&url=<url>` opens that row's detail. Opening and closing a detail rewrites
 * `url` in place (`history.replaceState`), so a reload or a shared address
 * comes back to the same row.
 */
import { render } from 'preact';
import browser from 'webextension-polyfill';
import type { ExportFormat } from '../../export/format-info.ts';
import { exportPagePath } from '../../messaging/routes.ts';
import { saveDownload } from '../../export/save-download.ts';
import { onEvent, send } from '../../messaging/client.ts';
import { TabcrawlDatabase } from '../../storage/database.ts';
import { DexieCrawlPageQueries } from '../../storage/dexie-page-queries.ts';
import { DexieRowReader } from '../../results/dexie-row-reader.ts';
import { parseResultsParams, resultsSearch } from '../../messaging/routes.ts';
import { ResultsView } from '../../results/results-view.tsx';

const db = new TabcrawlDatabase();
const queries = new DexieCrawlPageQueries(db);
const reader = new DexieRowReader(db);
const { crawlId, url } = parseResultsParams(window.location.search);

/** Keeps the open detail in the address without adding history entries. */
function rememberDetail(detailUrl: string | null): void {
  if (crawlId === null) return;
  window.history.replaceState(null, '', `${window.location.pathname}${resultsSearch(crawlId, detailUrl)}`);
}

const root = document.getElementById('app');
if (root !== null) {
  const saveCsv = (fileName: string, text: string): Promise<number> =>
    saveDownload(browser.downloads, new Blob([text], { type: 'text/csv;charset=utf-8' }), fileName);
  /** Opens the export page in a tab of its own, beside this one. */
  const openExport = async (id: string, format: ExportFormat): Promise<void> => {
    await browser.tabs.create({ url: browser.runtime.getURL(exportPagePath(id, format)) });
  };
  render(
    <ResultsView
      queries={queries}
      reader={reader}
      crawlId={crawlId}
      initialUrl={url}
      onDetailChange={rememberDetail}
      saveCsv={saveCsv}
      onEvent={onEvent}
      send={send}
      openExport={openExport}
    />,
    root,
  );
}

/**
 * The results tab's browser shell: the only file of the page that touches the
 * browser (the address, the history, the database, the background's messages
 * and events, new tabs). It opens the crawl database (extension pages share
 * the worker's origin; this page only reads) and renders {@link ResultsView}
 * with the Dexie queries, the push channel and the message client.
 *
 * Address: `src/shells/results/index.html?crawl=<id>` shows a crawl;
 * `&view=reports` or `&view=issues` opens on that view, `&url=<url>` opens
 * that row's detail. Changing the view or opening and closing a detail
 * rewrites them in place (`history.replaceState`), so a reload or a shared
 * address comes back to the same view and row.
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
import { parseResultsParams, resultsSearch, type ResultsViewName } from '../../messaging/routes.ts';
import { ResultsView } from '../../results/results-view.tsx';

const db = new TabcrawlDatabase();
const queries = new DexieCrawlPageQueries(db);
const reader = new DexieRowReader(db);
const { crawlId, url, view } = parseResultsParams(window.location.search);
/** What the address says now: the view shown and the open detail. */
const shown: { view: ResultsViewName; url: string | null } = { view, url };

/** Keeps the view and the open detail in the address without adding history entries. */
function rememberShown(): void {
  if (crawlId === null) return;
  window.history.replaceState(null, '', `${window.location.pathname}${resultsSearch(crawlId, shown.url, shown.view)}`);
}
function rememberDetail(detailUrl: string | null): void {
  shown.url = detailUrl;
  rememberShown();
}
function rememberView(next: ResultsViewName): void {
  shown.view = next;
  rememberShown();
}

const root = document.getElementById('app');
if (root !== null) {
  const saveCsv = (fileName: string, text: string): Promise<number> =>
    saveDownload(browser.downloads, new Blob([text], { type: 'text/csv;charset=utf-8' }), fileName);
  const saveConfig = (fileName: string, text: string): Promise<number> =>
    saveDownload(browser.downloads, new Blob([text], { type: 'application/yaml;charset=utf-8' }), fileName);
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
      initialView={view}
      onViewChange={rememberView}
      onDetailChange={rememberDetail}
      saveCsv={saveCsv}
      onEvent={onEvent}
      send={send}
      openExport={openExport}
      saveConfig={saveConfig}
      tabcrawlVersion={browser.runtime.getManifest().version}
      prefs={window.localStorage}
    />,
    root,
  );
}

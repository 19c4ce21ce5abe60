/**
 * The results tab's browser shell: the only file of the page that touches the
 * browser (the address, the history, the database, the background's messages
 * and events, new tabs). It opens the crawl database (extension pages share
 * the worker's origin; this page reads, and writes only what *Re-run extraction* finds) and renders {@link ResultsView}
 * with the Dexie queries, the push channel and the message client.
 *
 * Address: `src/shells/results/index.html?crawl=<id>` shows a crawl;
 * `&view=reports` or `&view=issues` opens on that view, `&url=<url>` opens
 * that row's detail; the open Issues checks, the table's filters and order
 * and the scroll follow (`messaging/routes.ts`). The view writes them
 * (`results/results-address.ts`): a move to another view or to a URL from a
 * report is a new history entry (`history.pushState`), so Back returns to it;
 * other changes rewrite the entry in place, so a reload or a shared address
 * comes back to the same view.
 */
import { render } from 'preact';
import { showControlsVisibly } from '../../ui/show-controls.ts';
import browser from 'webextension-polyfill';
import type { ExportFormat } from '../../export/format-info.ts';
import { exportCrawl } from '../../export/export-crawl.ts';
import { DexieCrawlStore } from '../../storage/dexie-crawl-store.ts';
import { saveDownload } from '../../export/save-download.ts';
import { onEvent, send } from '../../messaging/client.ts';
import { TabcrawlDatabase } from '../../storage/database.ts';
import { DexieCrawlPageQueries } from '../../storage/dexie-page-queries.ts';
import { DexieRowReader } from '../../results/dexie-row-reader.ts';
import { DexieRerunStore } from '../../storage/dexie-rerun-store.ts';
import { parseResultsParams } from '../../messaging/routes.ts';
import type { PageLocation } from '../../results/results-address.ts';
import { ResultsView } from '../../results/results-view.tsx';
import { credentialsNote } from '../../ui/credentials-text.ts';

// Before anything renders: crawled text shows its control characters written out (an RLO, a NUL, an ESC).
showControlsVisibly();

const db = new TabcrawlDatabase();
const queries = new DexieCrawlPageQueries(db);
const reader = new DexieRowReader(db);
/** The export's view of the same database, read only. */
const exportStore = new DexieCrawlStore(db);
const { crawlId } = parseResultsParams(window.location.search);

// The view puts the scroll back itself, once the content it scrolls over is there again.
window.history.scrollRestoration = 'manual';
const location: PageLocation = {
  search: () => window.location.search,
  write: (search, isNewEntry) => {
    const address = `${window.location.pathname}${search}`;
    if (isNewEntry) window.history.pushState(null, '', address);
    else window.history.replaceState(null, '', address);
  },
  onPop: (listener) => {
    window.addEventListener('popstate', listener);
    return () => window.removeEventListener('popstate', listener);
  },
  scrollY: () => window.scrollY,
  scrollTo: (y) => window.scrollTo(0, y),
  onScroll: (listener) => {
    window.addEventListener('scroll', listener, { passive: true });
    return () => window.removeEventListener('scroll', listener);
  },
};

const root = document.getElementById('app');
if (root !== null) {
  const saveCsv = (fileName: string, text: string): Promise<number> =>
    saveDownload(browser.downloads, new Blob([text], { type: 'text/csv;charset=utf-8' }), fileName);
  const saveConfig = (fileName: string, text: string): Promise<number> =>
    saveDownload(browser.downloads, new Blob([text], { type: 'application/yaml;charset=utf-8' }), fileName);
  /** Exports here, into the downloads: this tab stays open (the popup, which closes, opens the export page instead). */
  const openExport = async (id: string, format: ExportFormat): Promise<string> => {
    const result = await exportCrawl(
      {
        request: { crawlId: id, format },
        store: exportStore,
        software: `Tabcrawl ${browser.runtime.getManifest().version}`,
        now: () => new Date(),
        save: (blob, fileName) => saveDownload(browser.downloads, blob, fileName),
      },
      () => undefined,
    );
    const saved = `Saved ${result.fileName} (${result.rows.toLocaleString('en-US')} ${result.rows === 1 ? 'URL' : 'URLs'}) into the downloads`;
    // A WARC or WACZ says what it holds of credentials, as the export page does.
    const note = credentialsNote(result);
    return note === null ? saved : `${saved}. ${note}`;
  };
  render(
    <ResultsView
      queries={queries}
      reader={reader}
      crawlId={crawlId}
      location={location}
      saveCsv={saveCsv}
      onEvent={onEvent}
      send={send}
      openExport={openExport}
      saveConfig={saveConfig}
      tabcrawlVersion={browser.runtime.getManifest().version}
      prefs={window.localStorage}
      rerunStore={new DexieRerunStore(db)}
    />,
    root,
  );
}

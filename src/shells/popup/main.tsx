/**
 * The popup's browser shell: the only popup file that touches extension
 * APIs. Everything else gets them through {@link App}'s `deps`.
 */
import { render } from 'preact';
import { showControlsVisibly } from '../../ui/show-controls.ts';
import browser from 'webextension-polyfill';
import type { ExportFormat } from '../../export/format-info.ts';
import { exportPagePath, IMPORT_PAGE_PATH, resultsPagePath, type ResultsViewName } from '../../messaging/routes.ts';
import { onEvent, send } from '../../messaging/client.ts';
import { storageAreaAdapter } from '../../settings/site-settings.ts';
import { renderPermissionRequester } from '../../settings/render-permission.ts';
import { App } from '../../popup/app.tsx';
import { saveDownload } from '../../export/save-download.ts';

// Before anything renders: crawled text shows its control characters written out (an RLO, a NUL, an ESC).
showControlsVisibly();

/** URL of the active tab of the current window (readable thanks to `activeTab`), or null. */
async function currentTabUrl(): Promise<string | null> {
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return tab?.url ?? null;
}

/** Opens the export page in a new tab, next to the current one; the popup closes as the tab takes focus. */
async function openExportTab(crawlId: string, format: ExportFormat): Promise<void> {
  await browser.tabs.create({ url: browser.runtime.getURL(exportPagePath(crawlId, format)) });
}

/** Opens the full results page of a crawl in a new tab, on one of its views. */
async function openResultsTab(crawlId: string, view: ResultsViewName = 'table'): Promise<void> {
  await browser.tabs.create({ url: browser.runtime.getURL(resultsPagePath(crawlId, null, view)) });
}

/** Opens the import page in a new tab: a file picker needs a page that stays open (the popup closes when it loses focus). */
async function openImportTab(): Promise<void> {
  await browser.tabs.create({ url: browser.runtime.getURL(IMPORT_PAGE_PATH) });
}

/**
 * Asks Chrome for access to these sites. Resolves at once when Tabcrawl has
 * it (the manifest asks for every http(s) site), and prompts when the user
 * restricted Tabcrawl's site access in Chrome.
 */
function requestHostAccess(patterns: string[]): Promise<boolean> {
  return browser.permissions.request({ origins: patterns });
}

/** Saves a crawl's Browsertrix Crawler config through the downloads (a small file: done before the popup can close). */
function saveConfig(fileName: string, text: string): Promise<number> {
  return saveDownload(browser.downloads, new Blob([text], { type: 'application/yaml;charset=utf-8' }), fileName);
}

/** Remembered settings, shared with the options page. */
const settingsStorage = storageAreaAdapter(browser.storage.local);

const root = document.getElementById('app');
if (root !== null) {
  const tabcrawlVersion = browser.runtime.getManifest().version;
  render(
    <App
      deps={{
        send,
        onEvent,
        requestHostAccess,
        currentTabUrl,
        openExportTab,
        openResultsTab,
        openImportTab,
        settingsStorage,
        // Chrome asks for `debugger` when More settings turns rendering on; Firefox needs nothing.
        requestRenderPermission: renderPermissionRequester(browser.permissions, browser.runtime.getManifest()),
        saveConfig,
        tabcrawlVersion,
      }}
    />,
    root,
  );
}

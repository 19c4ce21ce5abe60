/**
 * What the popup needs from the outside world. `main.tsx` passes the real
 * ones; tests pass fakes, so the whole UI runs in a plain page.
 */
import type { ExportFormat } from '../export/format-info.ts';
import type { Send } from '../messaging/client.ts';
import type { OnEvent } from '../messaging/protocol.ts';
import type { ResultsViewName } from '../messaging/routes.ts';
import type { SettingsStorage } from '../settings/site-settings.ts';

export interface PopupDeps {
  /** Sends one request to the background (see `messaging/client.ts`). */
  send: Send;
  /**
   * Makes sure Chrome lets Tabcrawl fetch these match patterns, asking the
   * user when it does not (`permissions.request`); true when access is
   * granted. Must be called while the click that started it still counts as
   * a user gesture, that is before any other `await`.
   */
  requestHostAccess: (patterns: string[]) => Promise<boolean>;
  /**
   * Asks for what rendering pages needs (Chrome: the optional `debugger` permission, through
   * `permissions.request`); true when it is granted or nothing is needed. Called from the change that turns
   * *Render pages* on in More settings (a user gesture), before any other `await`. Without it, nothing is
   * asked (tests).
   */
  requestRenderPermission?: () => Promise<boolean>;
  /** URL of the active tab of the current window, or null when there is none. */
  currentTabUrl: () => Promise<string | null>;
  /**
   * Opens the export page for this crawl and format in a new tab
   * (`src/shells/export/index.html?crawl=<id>&format=<format>`).
   */
  openExportTab: (crawlId: string, format: ExportFormat) => Promise<void>;
  /**
   * Opens the full results page of this crawl in a new tab, on this view
   * (`resultsPagePath(crawlId, null, view)`: `RESULTS_PAGE_PATH?crawl=<id>&view=<view>`).
   * @param view @default 'table'
   */
  openResultsTab: (crawlId: string, view?: ResultsViewName) => Promise<void>;
  /**
   * Opens the import page (`IMPORT_PAGE_PATH`) in a new tab, where a WARC or WACZ file becomes a crawl;
   * without it the Crawls view has no *Open an archive…* button.
   */
  openImportTab?: () => Promise<void>;
  /**
   * Where crawl settings are remembered per site, and the user's defaults
   * (`browser.storage.local` through `storageAreaAdapter`; the options page
   * writes the same keys).
   */
  settingsStorage: SettingsStorage;
  /**
   * Saves a crawl as a Browsertrix Crawler config (YAML) through the downloads; without it the
   * Crawls view has no *Browsertrix config* button.
   */
  saveConfig?: (fileName: string, text: string) => Promise<unknown>;
  /** Tabcrawl's version, named in the config's User-Agent. @default 'unknown' */
  tabcrawlVersion?: string;
  /** The current time, ms since the epoch, for the ETA. @default Date.now */
  now?: () => number;
  /**
   * The background's events (`messaging/client.ts`): the crawl shown and the
   * Crawls list are read again when they change. Without it (tests), a
   * running crawl is polled every `pollMs`.
   */
  onEvent?: OnEvent;
  /** Without `onEvent`: pause between the end of one refresh of a running crawl and the start of the next, in ms. @default 1000 */
  pollMs?: number;
}

/** @see PopupDeps.pollMs */
export const DEFAULT_POLL_MS = 1000;

/** Rows of the results table asked for with `pages/latest`. */
export const LATEST_PAGES_LIMIT = 20;

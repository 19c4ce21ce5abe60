/**
 * The export page's browser shell: the only file of the page that touches
 * extension APIs. It opens the crawl database (extension pages share the
 * worker's origin, so this is the worker's database; the page only reads it)
 * and renders {@link ExportView} with the real export.
 *
 * Opened by the popup as `src/shells/export/index.html?crawl=<id>&format=<format>`
 * (see `messaging/routes.ts`): the popup closes when it loses focus, a tab stays.
 * The command line opens it too, with a sink exposed (see `page-sink.ts`): the
 * same export, handed to the program instead of the downloads.
 */
import { render } from 'preact';
import { showControlsVisibly } from '../../ui/show-controls.ts';
import browser from 'webextension-polyfill';
import type { CrawlReader } from '../../core/crawl/ports.ts';
import { TabcrawlDatabase } from '../../storage/database.ts';
import { DexieCrawlStore } from '../../storage/dexie-crawl-store.ts';
import { exportCrawl } from '../../export/export-crawl.ts';
import { ExportView, type RunExport } from '../../export-view/export-view.tsx';
import { saveDownload } from '../../export/save-download.ts';
import { exportPagePath, parseExportParams } from '../../messaging/routes.ts';
import { SINK_WAIT_MS, SINK_WAIT_PARAM } from '../../export/page-sink.ts';
import { findSink, sinkStream, waitForSink, type Sink, type SinkStream } from './sink-save.ts';

// Before anything renders: crawled text shows its control characters written out (an RLO, a NUL, an ESC).
showControlsVisibly();

/** This export's address keeping `Set-Cookie` values; undefined when the address names no export. */
function keepSetCookiesHref(): string | undefined {
  try {
    const { crawlId, format } = parseExportParams(window.location.search);
    return browser.runtime.getURL(exportPagePath(crawlId, format, { keepSetCookies: true }));
  } catch {
    return undefined;
  }
}

/** Read only: the worker owns the database. */
const store: CrawlReader = new DexieCrawlStore(new TabcrawlDatabase());
/**
 * The page's work, once it knows whether a program drives it.
 * @param sink set when a program (the command line) drives this page: the file goes to it instead of the downloads.
 */
function mount(sink: Sink | null): void {
  /** Bytes handed to the sink; reported when done. */
  let sinkBytes = 0;

  /** The export's stream into the sink, noting the bytes sent for the `done` event. */
  const streamTo = (stream: SinkStream) => ({
    write: (chunk: Uint8Array) => stream.write(chunk),
    end: async () => void (sinkBytes = await stream.end()),
  });

  const exportOnce: RunExport = async (onProgress) =>
    exportCrawl(
      {
        // A bad address is an ExportError (bad-url, unknown-format), shown by the view like any failure.
        request: parseExportParams(window.location.search),
        store,
        software: `Tabcrawl ${browser.runtime.getManifest().version}`,
        now: () => new Date(),
        save: (blob, fileName) => saveDownload(browser.downloads, blob, fileName),
        // A program's sink takes the bytes as they are made: no Blob of the whole file, and its writing overlaps ours.
        ...(sink === null ? {} : { stream: streamTo(sinkStream(sink)) }),
      },
      onProgress,
    );

  const runExport: RunExport =
    sink === null
      ? exportOnce
      : async (onProgress) => {
          try {
            const result = await exportOnce((progress) => {
              onProgress(progress);
              void sink({ kind: 'progress', rows: progress.rowsDone, totalRows: progress.rowsTotal });
            });
            await sink({ kind: 'done', fileName: result.fileName, bytes: sinkBytes });
            return result;
          } catch (error) {
            await sink({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
            throw error;
          }
        };

  const root = document.getElementById('app');
  /** Opens the folder of the saved file (not for a program's sink: there is no download). */
  const showFile = (downloadId: number): void => void browser.downloads.show(downloadId);
  /** An extension page opened by the extension may close itself. */
  const closeTab = (): void => window.close();

  if (root !== null) {
    render(
      sink === null ? (
        <ExportView
          runExport={runExport}
          onShowFile={showFile}
          onClose={closeTab}
          keepSetCookiesHref={keepSetCookiesHref()}
        />
      ) : (
        <ExportView runExport={runExport} />
      ),
      root,
    );
  }
}

// A driver exposes its sink before the page's scripts run (Chromium), or says it will, with `sink=wait` (Firefox).
if (new URLSearchParams(window.location.search).get(SINK_WAIT_PARAM) === 'wait')
  void waitForSink(globalThis, SINK_WAIT_MS).then(mount);
else mount(findSink(globalThis));

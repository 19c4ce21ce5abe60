/**
 * The import page's browser shell: the only file of the page that touches
 * extension APIs. It renders {@link ImportView} with the real import.
 *
 * Unlike the other pages, this one WRITES the crawl database itself: the
 * picked File cannot travel through runtime messaging to the background
 * (messages are JSON), and reading a 2 GiB archive into a message would hold
 * it whole in memory anyway. Extension pages share the worker's origin, so
 * this is the worker's database. `importArchive` writes the crawl record last
 * (no half-stored crawl is ever listed) and deletes what it wrote when it
 * fails or is cancelled. Once done, the page tells the background
 * (`crawl/imported`), which tells the open pages (the popup's Crawls list)
 * that the crawl changed.
 *
 * Opened by the popup's *Open an archive…* as `src/shells/import/index.html`
 * (see `messaging/routes.ts`); the command line opens it too and puts the
 * file into its file input (`src/shells/cli/import-through-page.ts`).
 */
import { render } from 'preact';
import { showControlsVisibly } from '../../ui/show-controls.ts';
import browser from 'webextension-polyfill';
import { importArchive } from '../../import/import-crawl.ts';
import { ImportView, type RunImport } from '../../import-view/import-view.tsx';
import { send } from '../../messaging/client.ts';
import { resultsPagePath } from '../../messaging/routes.ts';
import { TabcrawlDatabase } from '../../storage/database.ts';
import { DexieCrawlStore } from '../../storage/dexie-crawl-store.ts';

// Before anything renders: crawled text shows its control characters written out (an RLO, a NUL, an ESC).
showControlsVisibly();

/** The full store: this page writes (see the comment above). */
const store = new DexieCrawlStore(new TabcrawlDatabase());

const runImport: RunImport = async (file, { signal, onProgress }) => {
  const { crawl, warnings } = await importArchive(store, file, file.name, { signal, onProgress });
  // The crawl is stored whatever the background answers: a failed notice only means open pages refresh later.
  await send('crawl/imported', { crawlId: crawl.id }).catch((error: unknown) =>
    console.warn('could not tell the background about the import', error),
  );
  return { crawlId: crawl.id, rows: crawl.counts.done, warnings };
};

const resultsHref = (crawlId: string): string => browser.runtime.getURL(resultsPagePath(crawlId));

const root = document.getElementById('app');
if (root !== null) render(<ImportView runImport={runImport} resultsHref={resultsHref} />, root);

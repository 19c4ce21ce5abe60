/**
 * Imports an archive by running the extension's own import page (the same
 * code the popup's *Open an archive…* opens): the driver puts the file into
 * the page's file input, as a person picking it would, and reads how far the
 * page is from the data attributes its view keeps on its root (see
 * `src/import-view/import-view.tsx`). The page writes the crawl itself; a
 * File cannot travel through runtime messaging.
 */
import { IMPORT_PAGE_PATH } from '../../messaging/routes.ts';

/** The file input of the import page. */
export const IMPORT_INPUT_SELECTOR = '[data-testid="import-file"]';

/** An extension page with a file put into one of its inputs, as a driver opens it (Chromium or Firefox). */
export interface FilePage {
  /** Evaluates a JavaScript expression (a string: pages run outside Node's types) in the page; its value comes back as JSON. */
  evaluate(expression: string): Promise<unknown>;
  close(): Promise<void>;
}

/** What a browser session offers for an import: an extension page opened with `filePath` put into its input `selector`. */
export interface FilePageOpener {
  openFilePage(path: string, selector: string, filePath: string): Promise<FilePage>;
}

/** How far an import is: the figures the import page shows. */
export interface ImportPageProgress {
  bytesRead: number;
  totalBytes: number;
  records: number;
  rows: number;
}

/** A finished import. */
export interface ImportedArchive {
  crawlId: string;
  /** Rows stored, one per captured URL. */
  rows: number;
  warnings: string[];
}

/** The page's state as {@link READ_STATE} reads it. */
interface PageState extends ImportPageProgress {
  state: 'idle' | 'working' | 'done' | 'failed' | 'cancelled' | null;
  crawlId: string | null;
  status: string;
  warnings: string[];
}

/** Reads the import view's root: its state, figures, status text and warnings. */
const READ_STATE = `(() => {
  const root = document.querySelector('[data-testid="import-page"]');
  if (root === null) return { state: null, bytesRead: 0, totalBytes: 0, records: 0, rows: 0, crawlId: null, status: '', warnings: [] };
  const data = root.dataset;
  return {
    state: data.state ?? null,
    bytesRead: Number(data.bytesRead ?? 0),
    totalBytes: Number(data.totalBytes ?? 0),
    records: Number(data.records ?? 0),
    rows: Number(data.rows ?? 0),
    crawlId: data.crawlId ?? null,
    status: document.querySelector('[data-testid="import-status"]')?.textContent ?? '',
    warnings: [...root.querySelectorAll('[data-testid="import-warnings"] li')].map((item) => item.textContent ?? ''),
  };
})()`;

const CLICK_CANCEL = `(() => { document.querySelector('[data-testid="import-cancel"]')?.click(); return true; })()`;

/** The error of an import cancelled through its signal (nothing was stored). */
export class ImportCancelledError extends Error {
  constructor(fileName: string) {
    super(`the import of ${fileName} was cancelled: nothing was stored`);
    this.name = 'AbortError';
  }
}

export interface ImportThroughPageOptions {
  /** Aborts the import: the page's Cancel is pressed and the import deletes what it wrote. */
  signal?: AbortSignal;
  /** Called at each poll while the import runs. */
  onProgress?: (progress: ImportPageProgress) => void;
  /** Between two reads of the page, ms. @default 250 */
  pollMs?: number;
  /** Most time the page may take to start the import once the file is in its input, ms. @default 15000 */
  startTimeoutMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Imports the archive at `filePath` through the extension's import page.
 * @throws Error with the page's message (the reader's, naming the file and the byte offset) when the import fails:
 * nothing was stored; {@link ImportCancelledError} once `signal` aborted it.
 */
export async function importThroughPage(
  session: FilePageOpener,
  filePath: string,
  options: ImportThroughPageOptions = {},
): Promise<ImportedArchive> {
  const pollMs = options.pollMs ?? 250;
  const startTimeoutMs = options.startTimeoutMs ?? 15_000;
  const fileName = filePath.split(/[\\/]/).at(-1) ?? filePath;
  const page = await session.openFilePage(IMPORT_PAGE_PATH, IMPORT_INPUT_SELECTOR, filePath);
  try {
    const openedAt = Date.now();
    let isCancelSent = false;
    for (;;) {
      if (options.signal?.aborted === true && !isCancelSent) {
        isCancelSent = true;
        await page.evaluate(CLICK_CANCEL).catch(() => undefined);
      }
      let read: PageState;
      try {
        read = (await page.evaluate(READ_STATE)) as PageState;
      } catch (error) {
        throw new Error(
          `the import page stopped answering: ${error instanceof Error ? error.message : String(error)}`,
          {
            cause: error,
          },
        );
      }
      switch (read.state) {
        case 'done':
          if (read.crawlId === null) throw new Error('the import page said it was done but named no crawl');
          return { crawlId: read.crawlId, rows: read.rows, warnings: read.warnings };
        case 'failed':
          throw new Error(read.status === '' ? `the import of ${fileName} failed` : read.status);
        case 'cancelled':
          throw new ImportCancelledError(fileName);
        case 'working':
          options.onProgress?.({
            bytesRead: read.bytesRead,
            totalBytes: read.totalBytes,
            records: read.records,
            rows: read.rows,
          });
          break;
        default:
          if (options.signal?.aborted === true) throw new ImportCancelledError(fileName);
          if (Date.now() - openedAt > startTimeoutMs)
            throw new Error(`the import page did not start reading ${fileName} within ${startTimeoutMs / 1000} s`);
      }
      await sleep(pollMs);
    }
  } finally {
    await page.close().catch(() => undefined);
  }
}

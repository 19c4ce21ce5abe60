/**
 * One export, start to end: load the crawl a request names, write its rows
 * in the chosen format into a Blob, and hand the Blob to the browser's
 * downloads (or, from the command line, to the program). Platform-free: the store, the clock and the download come in
 * {@link ExportDeps}, so tests run it with a memory store and a fake download.
 *
 * ```
 * getCrawl ──► snapshot (last seq) ──► write rows ──► Blob ──► save ──► result
 *    │               │                     │                    │
 *    └ not-found,    └ storage             └ export, storage    └ download
 *      storage
 * ```
 *
 * The Blob exists only once every row is written: a failure on the way
 * leaves nothing to download.
 */
import type { CrawlReader } from '../core/crawl/ports.ts';
import { notCrawledTotal } from '../core/crawl/not-crawled.ts';
import type { CrawlRecord, PageRecord } from '../core/model.ts';
import { redactRow } from '../core/redact-headers.ts';
import { storeExportSource, type ExportSource } from './export-source.ts';
import { exportFileName, formatInfo } from './format-info.ts';
import { exportBytes } from './format-writers.ts';
import { blobOf } from './export-blob.ts';
import { errorMessage, ExportError } from './export-errors.ts';
import type { ExportFormat } from './format-info.ts';

/** Short format names for sentences ("Exporting example.com as WACZ"); the popup shows the long labels. */
export const FORMAT_NAMES: Readonly<Record<ExportFormat, string>> = Object.freeze({
  wacz: 'WACZ',
  'warc.gz': 'WARC (gzip)',
  warc: 'WARC',
  csv: 'CSV',
  jsonl: 'JSON Lines',
  'issues.csv': 'Issues CSV',
  'not-crawled.csv': 'Not crawled CSV',
  'links.csv': 'Links CSV',
});

/** Where an export stands, as the page shows it. */
export interface ExportProgress {
  /** `writing`: rows are being written; `saving`: the file is complete and handed to the browser's downloads. */
  phase: 'writing' | 'saving';
  /** Host of the crawl's start URL, e.g. `example.com`. */
  site: string;
  /** Short name of the format, from {@link FORMAT_NAMES}. */
  formatName: string;
  /** The file name asked for (the browser may add ` (1)` when it exists). */
  fileName: string;
  /** Rows written so far (for `not-crawled.csv`, URLs left unvisited). */
  rowsDone: number;
  /** Rows the export will hold: those stored when it started (for `not-crawled.csv`, the URLs left unvisited). */
  rowsTotal: number;
  /** The crawl was still running when the export started: rows crawled later are not in the file. */
  isCrawlRunning: boolean;
}

/** What a finished export produced. */
export interface ExportResult {
  /** The file name asked for. */
  fileName: string;
  /** Id of the browser download (`downloads.download`). */
  downloadId: number;
  /** Rows in the file. */
  rows: number;
  site: string;
  formatName: string;
  /** The crawl archived page resources (stylesheets, scripts, images, fonts): pages replay styled. */
  archivedResources: boolean;
  /** What became of `Set-Cookie` values; null for a format without headers (CSV, JSON Lines). */
  setCookies: 'removed' | 'kept' | null;
}

/** What an export needs from the outside world. */
export interface ExportDeps {
  /** The crawl and the format asked for (the export page reads them from its address, `messaging/routes.ts`). */
  request: { crawlId: string; format: ExportFormat; keepSetCookies?: boolean };
  /** The crawl database, read only (the worker owns it). */
  store: CrawlReader;
  /** Names the writing software in archives, e.g. `Tabcrawl 0.1.0`. */
  software: string;
  /** The export's time (archives record it). */
  now: () => Date;
  /**
   * Offers the finished file for download and resolves with the download's
   * id once it is saved; rejects with an {@link ExportError} `download`.
   */
  save: (blob: Blob, fileName: string) => Promise<number>;
  /**
   * Takes the file's bytes as they are made, instead of a Blob handed to `save` once complete: the
   * command line's sink, whose program removes what it got when the export then fails. No Blob is built
   * (the browser would hold the whole file) and `save` is not called. `write` resolves once it may be
   * given the next chunk; `end` once all are taken. @default undefined (a Blob, then `save`)
   */
  stream?: { write: (chunk: Uint8Array) => Promise<void>; end: () => Promise<unknown> };
  /** Writes the rows in a format. @default exportBytes (tests pass a writer that fails) */
  write?: typeof exportBytes;
  /** Least time between two progress reports while rows are written, in ms. @default 100 */
  progressIntervalMs?: number;
}

/** @see ExportDeps.progressIntervalMs */
export const DEFAULT_PROGRESS_INTERVAL_MS = 100;

/** Runs `read` against storage; a failure becomes an {@link ExportError} `storage`. */
async function fromStorage<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw storageError(error);
  }
}

function storageError(error: unknown): ExportError {
  if (error instanceof ExportError) return error;
  return new ExportError('storage', `Could not read the crawl from the browser's storage: ${errorMessage(error)}`, {
    cause: error,
  });
}

/** Every item of `items`, a storage failure on the way an {@link ExportError} `storage`. */
async function* fromStorageAll<T>(items: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = items[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await fromStorage(() => iterator.next());
      if (next.done === true) return;
      yield next.value;
    }
  } finally {
    await iterator.return?.();
  }
}

/**
 * `source` cut at `lastSeq`: rows finished after the export started are left
 * out, so the file matches the count shown, and every pass a writer makes over
 * the rows sees the same rows. The URLs left unvisited pass through as stored.
 * Storage failures become `storage` errors.
 */
export function snapshotSource(source: ExportSource, lastSeq: number): ExportSource {
  const { bodies, notCrawled } = source;
  return {
    crawl: source.crawl,
    async *rows(): AsyncGenerator<PageRecord> {
      if (lastSeq <= 0) return;
      const iterator = source.rows()[Symbol.asyncIterator]();
      try {
        for (;;) {
          const next = await fromStorage(() => iterator.next());
          if (next.done === true || next.value.seq > lastSeq) return;
          yield next.value;
        }
      } finally {
        await iterator.return?.();
      }
    },
    body: (sha256) => fromStorage(() => source.body(sha256)),
    ...(bodies === undefined
      ? {}
      : { bodies: (sha256s: readonly string[]) => fromStorage(() => bodies.call(source, sha256s)) }),
    ...(notCrawled === undefined ? {} : { notCrawled: () => fromStorageAll(notCrawled.call(source)) }),
  };
}

/**
 * `source` with its rows' credentials removed: the values of `Cookie` and `Authorization` request headers
 * always (a row stored before they were removed at capture, or imported, may hold them), of `Set-Cookie`
 * unless `keepSetCookies` (`core/redact-headers.ts`).
 */
export function redactedSource(source: ExportSource, keepSetCookies: boolean): ExportSource {
  return {
    ...source,
    crawl: source.crawl,
    async *rows(): AsyncGenerator<PageRecord> {
      for await (const row of source.rows()) yield redactRow(row, { keepSetCookies });
    },
  };
}

/** URLs read at a time when {@link notCrawledCount} counts them. */
const COUNT_SLICE = 1000;

/**
 * How many URLs the crawl left unvisited: as counted when it finished, or (running, stopped, or stored
 * before they were counted) the URLs stored so far, counted a slice at a time.
 */
async function notCrawledCount(store: CrawlReader, crawl: CrawlRecord): Promise<number> {
  if (crawl.counts.notCrawled !== undefined) return notCrawledTotal(crawl.counts.notCrawled);
  let count = 0;
  for (let after: string | null = null; ;) {
    const slice = await fromStorage(() => store.notCrawledAfter(crawl.id, after, COUNT_SLICE));
    count += slice.length;
    const last = slice.at(-1);
    if (last === undefined || slice.length < COUNT_SLICE) return count;
    after = last.url;
  }
}

/** Host of the crawl's start URL, or the URL itself when it does not parse. */
function siteOf(crawl: CrawlRecord): string {
  try {
    return new URL(crawl.settings.startUrl).host;
  } catch {
    return crawl.settings.startUrl;
  }
}

/**
 * Exports the crawl the page's URL names, reporting progress on the way.
 *
 * @throws {ExportError} with the code of the step that failed (see the diagram above).
 */
export async function exportCrawl(
  deps: ExportDeps,
  onProgress: (progress: ExportProgress) => void,
): Promise<ExportResult> {
  const { crawlId, format } = deps.request;
  const crawl = await fromStorage(() => deps.store.getCrawl(crawlId));
  if (crawl === undefined) {
    throw new ExportError(
      'not-found',
      `No crawl with id "${crawlId}" is stored in this browser: it may have been deleted.`,
    );
  }
  const [newest] = await fromStorage(() => deps.store.latestPages(crawlId, 1));
  const lastSeq = newest?.seq ?? 0;
  const rowsTotal = format === 'not-crawled.csv' ? await notCrawledCount(deps.store, crawl) : lastSeq;
  const formatName = FORMAT_NAMES[format];
  const fileName = exportFileName(crawl, format);
  let rowsDone = 0;
  const progress = (phase: ExportProgress['phase']): ExportProgress => ({
    phase,
    site: siteOf(crawl),
    formatName,
    fileName,
    rowsDone,
    rowsTotal,
    isCrawlRunning: crawl.state === 'running',
  });

  const intervalMs = deps.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;
  let reportedAt = Date.now();
  onProgress(progress('writing'));
  const onRow = (): void => {
    rowsDone += 1;
    const now = Date.now();
    if (now - reportedAt >= intervalMs || rowsDone === rowsTotal) {
      reportedAt = now;
      onProgress(progress('writing'));
    }
  };

  const keepSetCookies = deps.request.keepSetCookies === true;
  const source = redactedSource(snapshotSource(storeExportSource(deps.store, crawl), lastSeq), keepSetCookies);
  const result = (downloadId: number): ExportResult => ({
    fileName,
    downloadId,
    rows: rowsDone,
    site: siteOf(crawl),
    formatName,
    archivedResources: crawl.settings.archiveResources === true,
    setCookies: !formatInfo(format).holdsHeaders ? null : keepSetCookies ? 'kept' : 'removed',
  });
  let blob: Blob | null = null;
  try {
    // A writer may throw on the call itself, before its first chunk.
    const write = deps.write ?? exportBytes;
    const chunks = write(source, format, { software: deps.software, now: deps.now(), onRow });
    if (deps.stream === undefined) blob = await blobOf(chunks, formatInfo(format).mediaType);
    else {
      for await (const chunk of chunks) await deps.stream.write(chunk);
      await deps.stream.end();
    }
  } catch (error) {
    if (error instanceof ExportError) throw error;
    throw new ExportError('export', `Could not write the ${formatName} file: ${errorMessage(error)}`, { cause: error });
  }
  if (blob === null) return result(0);

  onProgress(progress('saving'));
  let downloadId: number;
  try {
    downloadId = await deps.save(blob, fileName);
  } catch (error) {
    if (error instanceof ExportError) throw error;
    throw new ExportError('download', `The browser did not save the file: ${errorMessage(error)}`, { cause: error });
  }
  return result(downloadId);
}

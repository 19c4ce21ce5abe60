/**
 * How an import writes into the store (`import-crawl.ts` drives it): rows and
 * bodies in batched transactions under the new crawl's id, the crawl record
 * last, so that a crawls list never shows a half import. Platform-free.
 */
import type { CrawlStore, StoredBody } from '../core/crawl/ports.ts';
import { countRow } from '../core/crawl/frontier-queue.ts';
import { emptyCounts, type CrawlCounts, type CrawlRecord, type NotCrawledUrl, type PageRecord } from '../core/model.ts';
import type { ArchiveRecord, OpenedArchive } from './open-archive.ts';

/** Rows per transaction. */
export const ROWS_PER_TRANSACTION = 300;
/** Body bytes per transaction: a batch is written early when its bodies pass this (bodies may be up to 64 MiB each). */
export const BODY_BYTES_PER_TRANSACTION = 32 * 1024 * 1024;
/** Records (or rows) between two progress reports. */
export const PROGRESS_EVERY = 250;
/** Most warnings kept; past it, one line says how many more there were. */
export const MAX_WARNINGS = 1000;

/** The error an abandoned import rejects with: a `DOMException` named `AbortError`, as `fetch` gives. */
export function abortError(fileName: string): DOMException {
  return new DOMException(`The import of ${fileName} was cancelled: nothing of it was kept`, 'AbortError');
}

/** Throws {@link abortError} when the signal has fired. */
export function checkAbort(signal: AbortSignal | undefined, fileName: string): void {
  if (signal?.aborted === true) throw abortError(fileName);
}

/** Warnings of an import, kept up to {@link MAX_WARNINGS}. */
export class WarningLog {
  private readonly kept: string[] = [];
  private dropped = 0;

  add(warning: string): void {
    if (this.kept.length < MAX_WARNINGS) this.kept.push(warning);
    else this.dropped += 1;
  }

  list(): string[] {
    return this.dropped === 0 ? this.kept.slice() : [...this.kept, `… and ${this.dropped} more warnings`];
  }
}

/**
 * Rows and bodies of one crawl id, written in batches: a transaction per {@link ROWS_PER_TRANSACTION} rows (or
 * {@link BODY_BYTES_PER_TRANSACTION} body bytes). Each body is stored once, under its SHA-256.
 */
export class ImportWriter {
  /** Bytes of the distinct bodies stored (`counts.bytesStored`). */
  bytesStored = 0;
  /** Rows written (or waiting to be). */
  rows = 0;
  /** URL of the first row written: the final transaction checks it is still there. */
  firstUrl: string | null = null;
  private pendingRows: PageRecord[] = [];
  private pendingNotCrawled: NotCrawledUrl[] = [];
  private pendingBodies: StoredBody[] = [];
  private pendingBytes = 0;
  private readonly storedBodies = new Set<string>();

  constructor(
    private readonly store: CrawlStore,
    readonly crawlId: string,
  ) {}

  /** Whether a body with this hash is stored (or about to be). */
  hasBody(sha256: string): boolean {
    return this.storedBodies.has(sha256);
  }

  async addRow(row: PageRecord): Promise<void> {
    this.firstUrl ??= row.url;
    this.rows += 1;
    this.pendingRows.push(row);
    if (this.pendingRows.length >= ROWS_PER_TRANSACTION) await this.flush();
  }

  /** A URL the crawl left unvisited (Tabcrawl's own WACZ), written with the rows. */
  async addNotCrawled(url: NotCrawledUrl): Promise<void> {
    this.pendingNotCrawled.push(url);
    if (this.pendingNotCrawled.length >= ROWS_PER_TRANSACTION) await this.flush();
  }

  /** Stores a body once: a second body with the same hash is dropped. */
  async addBody(sha256: string, url: string, bytes: Uint8Array): Promise<void> {
    if (this.storedBodies.has(sha256)) return;
    this.storedBodies.add(sha256);
    this.pendingBodies.push({ crawlId: this.crawlId, sha256, url, bytes });
    this.pendingBytes += bytes.byteLength;
    if (this.pendingBytes >= BODY_BYTES_PER_TRANSACTION) await this.flush();
  }

  /** Writes what is waiting, in one transaction. */
  async flush(): Promise<void> {
    if (this.pendingRows.length === 0 && this.pendingBodies.length === 0 && this.pendingNotCrawled.length === 0) return;
    const rows = this.pendingRows;
    const bodies = this.pendingBodies;
    const notCrawled = this.pendingNotCrawled;
    this.pendingRows = [];
    this.pendingBodies = [];
    this.pendingNotCrawled = [];
    this.pendingBytes = 0;
    const added = await this.store.transaction(async (tx) => {
      let bytes = 0;
      if (rows.length > 0) await tx.putPages(rows);
      if (notCrawled.length > 0) await tx.putNotCrawled(notCrawled);
      // No look-up of what is stored: the crawl id is new, and `addBody` lets each hash through once.
      for (const body of bodies) {
        await tx.putBody(body);
        bytes += body.bytes.byteLength;
      }
      return bytes;
    });
    this.bytesStored += added;
  }

  /**
   * Writes the crawl record, last, in a transaction that first checks the rows are still there (a sweep of
   * orphans, `CrawlStore.deleteOrphans`, run by another page meanwhile would have removed them).
   */
  async commit(crawl: CrawlRecord, checkAborted: () => void): Promise<void> {
    await this.flush();
    checkAborted();
    const firstUrl = this.firstUrl;
    await this.store.transaction(async (tx) => {
      if (firstUrl !== null && (await tx.getPages(crawl.id, [firstUrl]))[0] === undefined) {
        throw new Error(
          'the rows imported so far were removed while the import ran (Tabcrawl restarted and cleared unfinished imports): import the file again',
        );
      }
      await tx.putCrawl(crawl);
    });
  }
}

/** Every row of the crawl, read back a batch at a time, rewritten when `change` returns a new row; returns the counts of the rows as they end. */
export async function rewriteRows(
  store: CrawlStore,
  crawlId: string,
  change: (row: PageRecord) => PageRecord | null,
  checkAborted: () => void,
): Promise<CrawlCounts> {
  const counts = emptyCounts();
  let afterSeq = 0;
  for (;;) {
    checkAborted();
    const rows = await store.pagesAfter(crawlId, afterSeq, ROWS_PER_TRANSACTION);
    const changed: PageRecord[] = [];
    for (const row of rows) {
      const next = change(row);
      if (next !== null) changed.push(next);
      countRow(counts, next ?? row);
    }
    if (changed.length > 0) await store.transaction((tx) => tx.putPages(changed));
    const last = rows.at(-1);
    if (last === undefined || rows.length < ROWS_PER_TRANSACTION) break;
    afterSeq = last.seq;
  }
  counts.admitted = counts.done;
  counts.resourcesAdmitted = counts.resources ?? 0;
  counts.externalAdmitted = counts.external ?? 0;
  return counts;
}

export interface ImportProgress {
  /** Bytes of the file read so far (of its WARCs, in a WACZ); `totalBytes` at the end. */
  bytesRead: number;
  /** The file's size. */
  totalBytes: number;
  /** WARC records read. */
  records: number;
  /** Rows stored. */
  rows: number;
}

export interface ImportOptions {
  /** Cancels the import: it rejects with a `DOMException` named `AbortError`, and nothing of it stays stored. */
  signal?: AbortSignal;
  /** Called every few hundred records (or rows) and once at the end. */
  onProgress?: (progress: ImportProgress) => void;
  /** The new crawl's id. @default crypto.randomUUID */
  newId?: () => string;
  /** The time (`createdAt`, `endedAt` of an archive from another tool). @default Date.now */
  now?: () => number;
}

/** What the import's two paths share. */
export interface ImportRun {
  store: CrawlStore;
  archive: OpenedArchive;
  fileName: string;
  crawlId: string;
  writer: ImportWriter;
  warnings: WarningLog;
  options: ImportOptions;
  /** Progress so far; {@link ImportRun.report} sends it. */
  progress: ImportProgress;
  report(): void;
  checkAborted(): void;
}

/** Every record of the archive, the progress's byte count following (in a WACZ: the WARC entry's place in the file, plus what was read of it). */
export async function* recordsWithProgress(run: ImportRun, decodeBodies = true): AsyncGenerator<ArchiveRecord> {
  const { archive, progress } = run;
  const { wacz } = archive;
  if (wacz === null) {
    // Checked as the bytes come too: a record that takes long to read (a large or hostile one) can be cancelled.
    yield* archive.records({ decodeBodies, onProgress: (bytes) => ((progress.bytesRead = bytes), run.checkAborted()) });
    return;
  }
  for (const path of wacz.warcPaths) {
    const base = wacz.entry(path)?.localHeaderOffset ?? 0;
    for await (const record of wacz.warcRecords(path, {
      decodeBodies,
      onProgress: (bytes) => ((progress.bytesRead = base + bytes), run.checkAborted()),
    }))
      yield record;
  }
}

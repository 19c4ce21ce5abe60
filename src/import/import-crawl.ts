/**
 * An archive (WARC or WACZ) stored as a crawl of its own: the archive-reading
 * core (`open-archive.ts`, `archive-rows.ts`, `link-graph.ts`) into a
 * {@link CrawlStore}. Platform-free: the import page and the command line
 * both call {@link importArchive}.
 *
 * - A new crawl id, state `finished`, settings made from the start URL
 *   (`datapackage.json`'s `mainPageUrl`, else the seeds of `pages.jsonl`, else
 *   the first HTML page answered 2xx), counts from the rows, and a message
 *   naming the file. Rows are marked `source: 'archive'`, bodies stored once
 *   by SHA-256.
 * - Nothing half-visible: rows and bodies are written first, in transactions
 *   of a few hundred rows, then rewritten with what the link walk gives
 *   (depth, referrer, kind, inlinks, anchors), and the crawl record LAST. On
 *   an abort or any error (an unreadable or cut file included: nothing of it
 *   is stored), everything written under the id is deleted and the error
 *   rethrown. A page closed mid-import leaves rows without a crawl record:
 *   `CrawlStore.deleteOrphans` (run by the background at a browser start)
 *   removes them.
 * - Tabcrawl's own WACZ (`tabcrawl/crawl.json` in format `tabcrawl-crawl-1`)
 *   gives back the very crawl that was exported (`import-tabcrawl.ts`).
 *
 * docs/import.md says more.
 */
import { IMPORT_LOCK, type CrawlStore } from '../core/crawl/ports.ts';
import type { CrawlRecord, PageRecord } from '../core/model.ts';
import { MAX_EXTRA_ORIGINS } from '../core/setting-table.ts';
import { validateSettings, type CrawlSettings } from '../core/settings.ts';
import { normalizeUrl } from '../core/url/normalize-url.ts';
import { ArchiveReadError, shown } from './archive-error.ts';
import { ArchiveRowBuilder, type ImportedRow, type ImportSummary } from './archive-rows.ts';
import { restoreTabcrawlCrawl } from './import-tabcrawl.ts';
import {
  ImportWriter,
  PROGRESS_EVERY,
  WarningLog,
  abortError,
  checkAbort,
  recordsWithProgress,
  rewriteRows,
  type ImportOptions,
  type ImportProgress,
  type ImportRun,
} from './import-writes.ts';
import { LinkGraph, otherSiteTest } from './link-graph.ts';
import { openArchive, type ArchiveRecord, type OpenedArchive } from './open-archive.ts';

export type { ImportOptions, ImportProgress } from './import-writes.ts';

export interface ImportResult {
  /** The crawl as stored (written last). */
  crawl: CrawlRecord;
  /** What was odd in the archive and got past (at most 1000, then a count), for an import log. */
  warnings: string[];
}

/**
 * Imports a WARC or WACZ file as a new crawl.
 * @param fileName the name the user knows the file by (error messages start with it; the crawl's message names it).
 * @throws ArchiveReadError when the file is not an archive, is cut or corrupt (its message names the file and the
 *   byte offset); a `DOMException` `AbortError` when `signal` fired; the store's errors (`StorageFullError`). In
 *   every case nothing of the import stays stored.
 */
export async function importArchive(
  store: CrawlStore,
  file: Blob,
  fileName: string,
  options: ImportOptions = {},
): Promise<ImportResult> {
  // Where the platform has Web Locks (the extension's pages), hold the import lock: no sweep of orphans meanwhile.
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  const work = (): Promise<ImportResult> => runImport(store, file, fileName, options);
  return locks === undefined ? work() : locks.request(IMPORT_LOCK, { mode: 'shared' }, work);
}

async function runImport(
  store: CrawlStore,
  file: Blob,
  fileName: string,
  options: ImportOptions,
): Promise<ImportResult> {
  const crawlId = (options.newId ?? (() => crypto.randomUUID()))();
  const progress: ImportProgress = { bytesRead: 0, totalBytes: file.size, records: 0, rows: 0 };
  const writer = new ImportWriter(store, crawlId);
  const run: Omit<ImportRun, 'archive'> = {
    store,
    fileName,
    crawlId,
    writer,
    warnings: new WarningLog(),
    options,
    progress,
    report: () => options.onProgress?.({ ...progress, rows: writer.rows }),
    checkAborted: () => checkAbort(options.signal, fileName),
  };
  try {
    run.checkAborted();
    const archive = await openArchive(file, fileName);
    const crawl = await ((await restoreTabcrawlCrawl({ ...run, archive })) ?? importRecords({ ...run, archive }));
    progress.bytesRead = file.size;
    run.report();
    return { crawl, warnings: run.warnings.list() };
  } catch (error) {
    // Nothing half-stored: the rows and bodies written so far go (the crawl record was not written).
    await store.deleteCrawl(crawlId).catch(() => undefined);
    if (options.signal?.aborted === true && !(error instanceof DOMException && error.name === 'AbortError'))
      throw abortError(fileName);
    throw error;
  }
}

/** An archive of any tool: its records to rows, through the row builder and the link walk. */
async function importRecords(run: ImportRun): Promise<CrawlRecord> {
  const { archive, writer, progress, options } = run;
  const now = options.now ?? Date.now;
  const createdAt = now();
  const starts = await startUrlsOf(archive, run);
  const settings = settingsOf(starts, archive.fileName);
  const builder = new ArchiveRowBuilder({ crawlId: run.crawlId, settings });
  const graph = new LinkGraph(otherSiteTest(settings));
  const store = async (made: ImportedRow[]): Promise<void> => {
    for (const { row, body, warnings } of made) {
      for (const warning of warnings) run.warnings.add(`${row.url}: ${warning}`);
      graph.add(row);
      await writer.addRow(row);
      if (body !== null && row.sha256 !== null) await writer.addBody(row.sha256, row.url, body);
    }
  };
  for await (const record of recordsWithProgress(run)) {
    run.checkAborted();
    await store(await builder.add(record));
    progress.records += 1;
    if (progress.records % PROGRESS_EVERY === 0) run.report();
  }
  await store(await builder.finish());
  await writer.flush();
  summaryWarnings(builder.summary, run.warnings);

  // What only the whole archive tells: depth, referrer, kind, inlinks and anchors from the link walk.
  const fields = graph.fields(starts);
  /** When the archive's captures were made (ms since the epoch): the crawl is dated by them, not by the import. */
  const captured = { first: Number.POSITIVE_INFINITY, last: Number.NEGATIVE_INFINITY };
  const counts = await rewriteRows(
    run.store,
    run.crawlId,
    (row) => {
      if (row.fetchedAt !== null) {
        captured.first = Math.min(captured.first, row.fetchedAt);
        captured.last = Math.max(captured.last, row.fetchedAt);
      }
      const walked = fields.get(row.url);
      if (walked === undefined || sameFields(row, walked)) return null;
      return { ...row, ...walked };
    },
    run.checkAborted,
  );
  counts.bytesStored = writer.bytesStored;
  const crawl: CrawlRecord = {
    id: run.crawlId,
    settings,
    state: 'finished',
    // Dated by its captures, so lists say when the site was crawled and how long it took ("took 3 min"),
    // not when it was imported; an archive without dates is dated by the import.
    ...(Number.isFinite(captured.first)
      ? { createdAt: captured.first, endedAt: captured.last }
      : { createdAt, endedAt: now() }),
    counts,
    message: `Imported from ${run.fileName} (${archive.format === 'wacz' ? 'WACZ' : 'WARC'})`,
    importedFrom: run.fileName,
    nextSeq: writer.rows + 1,
  };
  run.checkAborted();
  await writer.commit(crawl, run.checkAborted);
  return crawl;
}

function sameFields(
  row: PageRecord,
  fields: Pick<PageRecord, 'depth' | 'referrer' | 'kind' | 'inlinks' | 'anchors'>,
): boolean {
  return (
    row.depth === fields.depth &&
    row.referrer === fields.referrer &&
    row.kind === fields.kind &&
    row.inlinks === fields.inlinks &&
    row.anchors.length === fields.anchors.length &&
    row.anchors.every((text, i) => text === fields.anchors[i])
  );
}

/**
 * The start URLs, normalized: a WACZ's `mainPageUrl` (`mainPageURL` as py-wacz spells it), else the pages of its
 * `pages.jsonl` marked `seed`; else the first HTML page answered 2xx among the first records (then the first
 * http(s) capture).
 */
async function startUrlsOf(archive: OpenedArchive, run: Omit<ImportRun, 'archive'>): Promise<string[]> {
  const { wacz } = archive;
  if (wacz !== null) {
    const main = wacz.datapackage?.['mainPageUrl'] ?? wacz.datapackage?.['mainPageURL'];
    const mainUrl = typeof main === 'string' ? normalizeUrl(main) : null;
    if (mainUrl !== null && canStart(mainUrl)) return [mainUrl];
    // Seeds a crawl cannot start from (a 100 KB URL) are passed over: the next seed, or the first capture, starts it.
    const seeds: string[] = [];
    if (wacz.pageLists.length > 0) {
      for await (const page of wacz.pages()) {
        const url = page['seed'] === true ? normalizeUrl(page.url) : null;
        if (url !== null && canStart(url) && !seeds.includes(url)) seeds.push(url);
      }
    }
    if (seeds.length > 0) return seeds;
  }
  let fallback: string | null = null;
  let seen = 0;
  for await (const record of archive.records({ decodeBodies: false })) {
    run.checkAborted();
    seen += 1;
    if (
      (record.type === 'response' || record.type === 'resource' || record.type === 'revisit') &&
      record.targetUri !== null
    ) {
      const url = normalizeUrl(record.targetUri);
      if (url !== null && canStart(url)) {
        const status = record.http?.status ?? (record.type === 'resource' ? 200 : null);
        const type = (record.http === null ? record.contentType : headerValue(record, 'content-type')) ?? '';
        if (
          status !== null &&
          status >= 200 &&
          status < 300 &&
          /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(type)
        )
          return [url];
        fallback ??= url;
      }
    }
    if (fallback !== null && seen >= 1000) break;
  }
  if (fallback !== null) return [fallback];
  throw new ArchiveReadError(
    'not-archive',
    archive.fileName,
    0,
    'it holds no capture of an http(s) URL a crawl can start from: there is nothing to import',
  );
}

function headerValue(record: ArchiveRecord, name: string): string | null {
  return record.http?.headers.find(([field]) => field.toLowerCase() === name)?.[1] ?? null;
}

function isHttp(url: string): boolean {
  return url.startsWith('http://') || url.startsWith('https://');
}

/** Whether a crawl can start from `url` (an http(s) URL the settings accept, with its user name or without). */
function canStart(url: string): boolean {
  if (!isHttp(url)) return false;
  const bare = new URL(url);
  bare.username = '';
  bare.password = '';
  return validateSettings({ startUrl: url }).ok || validateSettings({ startUrl: bare.href }).ok;
}

/**
 * The crawl's settings: the defaults, with the start URL (its origin is the scope internal links are told by,
 * and the origins of the other start URLs, a WACZ's seeds on other sites, are extra sites of it); a start URL
 * with a user name (`http://user@host/`, which a crawl cannot start from) without it.
 */
function settingsOf(starts: readonly string[], fileName: string): CrawlSettings {
  for (const start of starts) {
    const bare = new URL(start);
    bare.username = '';
    bare.password = '';
    for (const startUrl of [start, bare.href]) {
      const own = new URL(startUrl).origin;
      const extraOrigins = [...new Set(starts.map((url) => new URL(url).origin))]
        .filter((origin) => origin !== own)
        .slice(0, MAX_EXTRA_ORIGINS);
      const result = validateSettings({ startUrl, extraOrigins });
      if (result.ok) return result.settings;
      const alone = validateSettings({ startUrl });
      if (alone.ok) return alone.settings;
    }
  }
  throw new ArchiveReadError(
    'not-archive',
    fileName,
    0,
    `its start URL ${shown(starts[0] ?? '')} cannot start a crawl`,
  );
}

/** The builder's counts of what it skipped, as warnings. */
function summaryWarnings(summary: ImportSummary, warnings: WarningLog): void {
  if (summary.repeatCaptures > 0)
    warnings.add(
      `${summary.repeatCaptures} later captures of URLs already captured were skipped (the first capture of a URL is kept)`,
    );
  if (summary.skippedCaptures > 0)
    warnings.add(
      `${summary.skippedCaptures} captures of URLs that are not http(s), or of methods other than GET and HEAD, were skipped`,
    );
  if (summary.unpairedRequests > 0) warnings.add(`${summary.unpairedRequests} request records matched no response`);
}

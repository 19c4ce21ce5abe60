/**
 * Tabcrawl's own WACZ given back as the crawl that was exported, told apart
 * from the original: the crawl record of `tabcrawl/crawl.json` (settings,
 * counts, dates as they were, under a new id) with a message naming the file
 * it was imported from (and the original's message after it), and its row
 * counts as the rows it holds (what the import page and the command line
 * say it imported); the rows of
 * `tabcrawl/rows.jsonl.gz` as they were stored, their `crawlId` rewritten and
 * marked `source: 'archive'` (the results page says so); the bodies are the
 * payloads of the WARC's records whose SHA-256 a row names (the WARC export
 * writes each stored body byte for byte). Other readers ignore these files;
 * a WACZ without them is read as any archive (`import-crawl.ts`).
 */
import { sha256Hex } from '../core/hash.ts';
import { countRow } from '../core/crawl/frontier-queue.ts';
import {
  emptyCounts,
  NOT_CRAWLED_REASONS,
  type CrawlRecord,
  type NotCrawledUrl,
  type PageRecord,
} from '../core/model.ts';
import { ArchiveReadError } from './archive-error.ts';
import { sanitiseImportedCrawl } from './imported-settings.ts';
import { PROGRESS_EVERY, recordsWithProgress, type ImportRun } from './import-writes.ts';
import { isStoredRow, rowProblem } from './row-check.ts';

/** The layout of Tabcrawl's files this import reads (`src/export/tabcrawl-crawl-file.ts` writes it; a test checks both agree). */
export const TABCRAWL_CRAWL_FORMAT = 'tabcrawl-crawl-1';
const FORMAT_PATTERN = /^tabcrawl-crawl-(\d+)$/;

/**
 * Restores the crawl when the archive is Tabcrawl's WACZ; null when it is not (no `tabcrawl/crawl.json`, or one
 * that names no Tabcrawl format: the archive is read as any other).
 * @throws ArchiveReadError when `crawl.json` names a newer format, or its crawl or a row is not one.
 */
export async function restoreTabcrawlCrawl(run: ImportRun): Promise<CrawlRecord | null> {
  const { wacz } = run.archive;
  const file = wacz === null ? null : await wacz.tabcrawlCrawl();
  if (wacz === null || file === null) return null;
  const located = `${run.fileName} › tabcrawl/crawl.json`;
  const json = file.json as {
    format?: unknown;
    crawl?: unknown;
    rows?: { count?: unknown };
    notCrawled?: { count?: unknown };
  } | null;
  const format = typeof json?.format === 'string' ? FORMAT_PATTERN.exec(json.format) : null;
  if (json === null || format === null) {
    run.warnings.add(`${located} names no Tabcrawl format: the archive is read as any other`);
    return null;
  }
  if (json.format !== TABCRAWL_CRAWL_FORMAT) {
    throw new ArchiveReadError(
      'unsupported',
      located,
      0,
      `the crawl is saved in format ${String(json.format)}, newer than this version of Tabcrawl reads (${TABCRAWL_CRAWL_FORMAT}): update Tabcrawl to import it`,
    );
  }
  const original = json.crawl;
  if (!isCrawl(original)) throw new ArchiveReadError('corrupt', located, 0, 'its "crawl" is not a crawl record');
  // Its settings, dates and counts as a start and the lists would accept them; never with the user's cookies.
  const safe = sanitiseImportedCrawl(original, (run.options.now ?? Date.now)());
  if (!safe.ok) {
    run.warnings.add(`${located}: ${safe.problem}: the archive is read as any other`);
    return null;
  }
  for (const warning of safe.warnings) run.warnings.add(`${located}: ${warning}`);

  // The rows, as stored; the first row naming each body is its owner (as the crawl stored it).
  const owners = new Map<string, string>();
  /** The rows' own counts (done, fetched, errors, blocked, by kind): the import says as many URLs as it holds. */
  const rowCounts = emptyCounts();
  let line = 0;
  for await (const raw of wacz.tabcrawlRows()) {
    run.checkAborted();
    line += 1;
    const problem = rowProblem(raw);
    if (problem !== null || !isStoredRow(raw))
      throw new ArchiveReadError(
        'corrupt',
        `${run.fileName} › tabcrawl/rows.jsonl.gz`,
        0,
        `line ${line} is not a row: ${problem ?? ''}`,
      );
    const row: PageRecord = { ...raw, crawlId: run.crawlId, source: 'archive' };
    if (row.sha256 !== null && !owners.has(row.sha256)) owners.set(row.sha256, row.url);
    countRow(rowCounts, row);
    await run.writer.addRow(row);
    if (run.writer.rows % PROGRESS_EVERY === 0) run.report();
  }
  const expected = json.rows?.count;
  if (typeof expected === 'number' && expected !== line)
    run.warnings.add(`${located} counts ${expected} rows, tabcrawl/rows.jsonl.gz holds ${line}`);

  // The URLs it left unvisited, when the WACZ carries them (written since format 1 gained the file).
  let left = 0;
  for await (const raw of wacz.tabcrawlNotCrawled()) {
    run.checkAborted();
    left += 1;
    if (!isNotCrawled(raw))
      throw new ArchiveReadError(
        'corrupt',
        `${run.fileName} › tabcrawl/not-crawled.jsonl.gz`,
        0,
        `line ${left} is not a URL left unvisited`,
      );
    await run.writer.addNotCrawled({ ...raw, crawlId: run.crawlId });
  }
  const expectedLeft = json.notCrawled?.count;
  if (typeof expectedLeft === 'number' && expectedLeft !== left)
    run.warnings.add(`${located} counts ${expectedLeft} URLs not crawled, tabcrawl/not-crawled.jsonl.gz holds ${left}`);

  // The bodies: the payloads of the WARC's responses (and revisits, should one carry one) that a row names.
  for await (const record of recordsWithProgress(run, false)) {
    run.checkAborted();
    run.progress.records += 1;
    if ((record.type === 'response' || record.type === 'revisit') && !record.blockCut) {
      const sha256 = await sha256Hex(record.payload);
      const url = owners.get(sha256);
      if (url !== undefined) await run.writer.addBody(sha256, url, record.payload);
    }
    if (run.progress.records % PROGRESS_EVERY === 0) run.report();
  }
  const missing = [...owners.keys()].filter((sha256) => !run.writer.hasBody(sha256)).length;
  if (missing > 0)
    run.warnings.add(`${missing} bodies named by the rows are not in the WARC: those rows have no stored body`);

  const { done, fetched, errors, blocked, resources, files, external } = rowCounts;
  const crawl: CrawlRecord = {
    ...safe.crawl,
    id: run.crawlId,
    counts: { ...safe.crawl.counts, done, fetched, errors, blocked, resources, files, external },
    message: `Imported from ${run.fileName} (Tabcrawl WACZ)${safe.crawl.message === null ? '' : `; when crawled: ${safe.crawl.message}`}`,
    importedFrom: run.fileName,
  };
  run.checkAborted();
  await run.writer.commit(crawl, run.checkAborted);
  return crawl;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCrawl(value: unknown): value is CrawlRecord {
  return (
    isObject(value) &&
    isObject(value['settings']) &&
    typeof value['settings']['startUrl'] === 'string' &&
    isObject(value['counts']) &&
    typeof value['state'] === 'string' &&
    typeof value['createdAt'] === 'number'
  );
}

/** Whether a parsed line is a URL left unvisited as Tabcrawl stores it. */
function isNotCrawled(value: unknown): value is NotCrawledUrl {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.url === 'string' &&
    NOT_CRAWLED_REASONS.some((reason) => reason === v.reason) &&
    typeof v.depth === 'number' &&
    (v.referrer === null || typeof v.referrer === 'string')
  );
}

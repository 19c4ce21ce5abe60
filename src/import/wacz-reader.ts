/**
 * A WACZ opened for import: its zip directory, `datapackage.json`, the WARCs
 * in `archive/` (each streamed through the WARC reader, never held whole),
 * the pages of `pages/*.jsonl`, and Tabcrawl's own `tabcrawl/crawl.json`
 * when the WACZ carries one (other readers ignore it).
 *
 * @see https://specs.webrecorder.net/wacz/1.1.1/
 */
import { Gunzip } from 'fflate';
import { ArchiveReadError } from './archive-error.ts';
import { LineSplitter } from './text-lines.ts';
import { readWarc, type WarcReadOptions, type WarcRecord } from './warc-reader.ts';
import {
  blobFile,
  entryBytes,
  entryDataOffset,
  type RandomAccessFile,
  readZipDirectory,
  type ZipEntry,
} from './zip-reader.ts';

/**
 * Where Tabcrawl's WACZ keeps its crawl record and its rows as stored (`src/export/tabcrawl-crawl-file.ts`
 * writes them; the import may not import the export, so a test checks these paths are the same).
 */
export const TABCRAWL_CRAWL_PATH = 'tabcrawl/crawl.json';
export const TABCRAWL_ROWS_PATH = 'tabcrawl/rows.jsonl.gz';
export const TABCRAWL_NOT_CRAWLED_PATH = 'tabcrawl/not-crawled.jsonl.gz';

/** Most bytes of a small entry read whole as text (`datapackage.json`, `tabcrawl/crawl.json`). */
export const MAX_TEXT_ENTRY_BYTES = 256 * 1024 * 1024;

/** One line of a `pages.jsonl`: `url` and `ts` always, `title`, `id` and others as the writer put them. */
export interface WaczPage {
  url: string;
  ts?: string;
  title?: string;
  id?: string;
  [field: string]: unknown;
}

/** A record of one of the WACZ's WARCs. */
export interface WaczRecord extends WarcRecord {
  /** The WARC it is in: its path in the zip (`archive/data.warc.gz`). `offset` counts from the start of that entry. */
  warcPath: string;
}

export interface WaczArchive {
  /** The WACZ's name, for messages. */
  readonly fileName: string;
  /** Every entry of the zip, in directory order. */
  readonly entries: readonly ZipEntry[];
  /** The WARCs (`archive/*.warc`, `archive/*.warc.gz`), in the order `datapackage.json` lists them, then by name. */
  readonly warcPaths: readonly string[];
  /** `datapackage.json` parsed; null when missing or not JSON. */
  readonly datapackage: Record<string, unknown> | null;
  /** The page lists (`pages/*.jsonl`), `pages/pages.jsonl` first. */
  readonly pageLists: readonly string[];
  /** The entry of that path, or null. */
  entry(path: string): ZipEntry | null;
  /** An entry's bytes, streamed (inflated when deflated). */
  bytes(path: string): AsyncGenerator<Uint8Array>;
  /** An entry read whole as UTF-8 text (at most {@link MAX_TEXT_ENTRY_BYTES}). */
  text(path: string): Promise<string>;
  /** The pages of one list (`pages/pages.jsonl` by default), line by line; its header line and lines that are not a page are skipped. */
  pages(path?: string): AsyncGenerator<WaczPage>;
  /** Tabcrawl's `tabcrawl/crawl.json`: its text and its parsed JSON (null when not JSON); null when the WACZ has none. */
  tabcrawlCrawl(): Promise<{ text: string; json: unknown } | null>;
  /**
   * Tabcrawl's `tabcrawl/rows.jsonl.gz`, ungzipped as it streams: each line's JSON (a row as it was stored), in
   * order; nothing when the WACZ has none. Not checked here: the caller validates the rows (and the format named
   * in `tabcrawl/crawl.json`).
   * @throws ArchiveReadError when the gzip data is corrupt or cut, or a line is not JSON (naming the line).
   */
  tabcrawlRows(): AsyncGenerator<unknown>;
  /** The lines of `tabcrawl/not-crawled.jsonl.gz`, parsed (unchecked); none when the WACZ has no such file. */
  tabcrawlNotCrawled(): AsyncGenerator<unknown>;
  /** The records of one WARC of the WACZ. */
  warcRecords(path: string, options?: Omit<WarcReadOptions, 'fileName'>): AsyncGenerator<WaczRecord>;
  /** The records of every WARC, one WARC after the other. */
  records(options?: Omit<WarcReadOptions, 'fileName'>): AsyncGenerator<WaczRecord>;
}

/**
 * Opens a WACZ: reads its zip directory and `datapackage.json` (nothing else
 * until asked).
 * @param fileName the name the user knows the file by, for messages.
 * @throws ArchiveReadError when it is no zip or is cut short (a zip's directory is at its end), or holds no WARC.
 */
export async function openWacz(input: Blob | RandomAccessFile, fileName: string): Promise<WaczArchive> {
  const file = typeof Blob !== 'undefined' && input instanceof Blob ? blobFile(input) : (input as RandomAccessFile);
  const entries = await readZipDirectory(file, fileName);
  const byPath = new Map(entries.map((entry) => [entry.name, entry]));
  const entry = (path: string): ZipEntry | null => byPath.get(path) ?? null;
  const located = (path: string): string => `${fileName} › ${path}`;

  async function* bytes(path: string): AsyncGenerator<Uint8Array> {
    const found = entry(path);
    if (found === null) throw new ArchiveReadError('not-archive', fileName, 0, `the WACZ has no ${path}`);
    yield* entryBytes(file, found, fileName);
  }

  async function text(path: string): Promise<string> {
    const found = entry(path);
    if (found === null) throw new ArchiveReadError('not-archive', fileName, 0, `the WACZ has no ${path}`);
    if (found.size > MAX_TEXT_ENTRY_BYTES) {
      throw new ArchiveReadError(
        'unsupported',
        fileName,
        found.localHeaderOffset,
        `${path} is ${found.size} bytes: more than the ${MAX_TEXT_ENTRY_BYTES} read as text`,
      );
    }
    // Counted as it inflates too: the size the zip declares may be a lie (the entry's reader stops past it as well).
    const decoder = new TextDecoder('utf-8');
    const parts: string[] = [];
    let read = 0;
    for await (const chunk of bytes(path)) {
      read += chunk.length;
      if (read > MAX_TEXT_ENTRY_BYTES) {
        throw new ArchiveReadError(
          'unsupported',
          located(path),
          MAX_TEXT_ENTRY_BYTES,
          `it inflates to more than the ${MAX_TEXT_ENTRY_BYTES} bytes read as text`,
        );
      }
      parts.push(decoder.decode(chunk, { stream: true }));
    }
    parts.push(decoder.decode());
    return parts.join('');
  }

  const datapackage = await readDatapackage();
  async function readDatapackage(): Promise<Record<string, unknown> | null> {
    if (entry('datapackage.json') === null) return null;
    try {
      const parsed: unknown = JSON.parse(await text('datapackage.json'));
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : null;
    } catch (error) {
      if (error instanceof ArchiveReadError) throw error;
      return null;
    }
  }

  const isWarc = (path: string): boolean => /^archive\/[^/]+\.warc(\.gz)?$/i.test(path);
  const listed = Array.isArray(datapackage?.['resources'])
    ? (datapackage['resources'] as unknown[]).flatMap((resource) => {
        const path =
          typeof resource === 'object' && resource !== null ? (resource as Record<string, unknown>)['path'] : undefined;
        return typeof path === 'string' && isWarc(path) && byPath.has(path) ? [path] : [];
      })
    : [];
  const others = entries
    .map((e) => e.name)
    .filter((path) => isWarc(path) && !listed.includes(path))
    .sort();
  const warcPaths = [...new Set([...listed, ...others])];
  if (warcPaths.length === 0) {
    throw new ArchiveReadError(
      'not-archive',
      fileName,
      0,
      `this zip holds no WARC in archive/: not a WACZ (it holds ${entries.length} entries${
        entries.length === 0
          ? ''
          : `, e.g. ${entries
              .slice(0, 3)
              .map((e) => e.name)
              .join(', ')}`
      })`,
    );
  }
  const pageLists = entries
    .map((e) => e.name)
    .filter((path) => /^pages\/[^/]+\.jsonl$/i.test(path))
    .sort((a, b) => (a === 'pages/pages.jsonl' ? -1 : b === 'pages/pages.jsonl' ? 1 : a.localeCompare(b)));

  async function* pages(path = 'pages/pages.jsonl'): AsyncGenerator<WaczPage> {
    if (entry(path) === null) return;
    let read = 0;
    const lines = new LineSplitter(located(path), () => read);
    const parse = (line: string): WaczPage | null => {
      if (line.trim() === '') return null;
      try {
        const value: unknown = JSON.parse(line);
        if (typeof value !== 'object' || value === null || typeof (value as WaczPage).url !== 'string') return null; // the header line ({"format": …}) too
        return value as WaczPage;
      } catch {
        return null;
      }
    };
    for await (const chunk of bytes(path)) {
      read += chunk.length;
      for (const line of lines.push(chunk)) {
        const page = parse(line);
        if (page !== null) yield page;
      }
    }
    for (const line of lines.end()) {
      const page = parse(line);
      if (page !== null) yield page;
    }
  }

  async function tabcrawlCrawl(): Promise<{ text: string; json: unknown } | null> {
    if (entry(TABCRAWL_CRAWL_PATH) === null) return null;
    const body = await text(TABCRAWL_CRAWL_PATH);
    try {
      return { text: body, json: JSON.parse(body) as unknown };
    } catch {
      return { text: body, json: null };
    }
  }

  /** The JSON values of a gzipped JSON Lines entry, one per line; none when the entry is absent. */
  async function* gzippedJsonLines(path: string): AsyncGenerator<unknown> {
    if (entry(path) === null) return;
    const located = `${fileName} › ${path}`;
    const gunzip = new Gunzip();
    const out: Uint8Array[] = [];
    gunzip.ondata = (data) => {
      if (data.length > 0) out.push(data);
    };
    let lineNumber = 0;
    let read = 0;
    const splitter = new LineSplitter(located, () => read);
    const parse = (line: string): unknown => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        throw new ArchiveReadError('corrupt', located, read, `line ${lineNumber} is not JSON`, lineNumber - 1);
      }
    };
    const push = (chunk: Uint8Array, final: boolean): void => {
      try {
        gunzip.push(chunk, final);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new ArchiveReadError(
          final ? 'truncated' : 'corrupt',
          located,
          read,
          `the gzip data ${final ? 'ends early' : `is corrupt (${reason})`}`,
          lineNumber,
        );
      }
    };
    async function* lines(final: boolean): AsyncGenerator<unknown> {
      const found = out.splice(0).flatMap((data) => splitter.push(data));
      if (final) found.push(...splitter.end());
      for (const line of found) {
        lineNumber += 1;
        if (line.trim() !== '') yield parse(line);
      }
    }
    for await (const chunk of bytes(path)) {
      // 16 KiB at a time: what a piece inflates to (at most 16 MiB) is split into lines before the next.
      for (let at = 0; at < chunk.length; at += 16 * 1024) {
        const piece = chunk.subarray(at, at + 16 * 1024);
        push(piece, false);
        read += piece.length;
        yield* lines(false);
      }
    }
    push(new Uint8Array(0), true);
    yield* lines(true);
  }

  const tabcrawlRows = (): AsyncGenerator<unknown> => gzippedJsonLines(TABCRAWL_ROWS_PATH);
  const tabcrawlNotCrawled = (): AsyncGenerator<unknown> => gzippedJsonLines(TABCRAWL_NOT_CRAWLED_PATH);

  async function* warcRecords(
    path: string,
    options: Omit<WarcReadOptions, 'fileName'> = {},
  ): AsyncGenerator<WaczRecord> {
    const found = entry(path);
    if (found === null) throw new ArchiveReadError('not-archive', fileName, 0, `the WACZ has no ${path}`);
    // Checked before streaming, so that a WARC cut by a cut WACZ says so at once.
    await entryDataOffset(file, found, fileName);
    for await (const record of readWarc(bytes(path), { ...options, fileName: located(path) }))
      yield { ...record, warcPath: path };
  }

  async function* records(options: Omit<WarcReadOptions, 'fileName'> = {}): AsyncGenerator<WaczRecord> {
    for (const path of warcPaths) yield* warcRecords(path, options);
  }

  return {
    fileName,
    entries,
    warcPaths,
    datapackage,
    pageLists,
    entry,
    bytes,
    text,
    pages,
    tabcrawlCrawl,
    tabcrawlRows,
    tabcrawlNotCrawled,
    warcRecords,
    records,
  };
}

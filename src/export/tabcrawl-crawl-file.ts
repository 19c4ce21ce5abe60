/**
 * Tabcrawl's own files inside its WACZ, which other readers ignore: what an
 * import needs to give back the very crawl that was exported, beyond what the
 * WARC holds (its settings, counts and dates; every row as it was stored, with
 * the page facts, links and anchors, the robots.txt decisions, the failures).
 *
 * - `tabcrawl/crawl.json`: the crawl record ({@link TabcrawlCrawlFile});
 * - `tabcrawl/rows.jsonl.gz`: every row in `seq` order, one JSON object per
 *   line, gzipped (rows repeat much: a tenth of the size or less);
 * - `tabcrawl/not-crawled.jsonl.gz`: the URLs the crawl left unvisited by its
 *   rules (`NotCrawledUrl`), in URL order, likewise (empty when none). Added
 *   within format 1: an import that predates it ignores it, and an archive
 *   without it gives back a crawl without that list.
 *
 * Bodies are not repeated here: a row's `sha256` names the payload of its
 * `response` record in the WARC. Both files are listed in `datapackage.json`
 * with their sizes and hashes, like the others.
 */
import type { CrawlRecord, NotCrawledUrl, PageRecord } from '../core/model.ts';
import type { ExportContext, ExportSource } from './export-source.ts';
import { readStream } from './read-stream.ts';

/** Paths of Tabcrawl's files in its WACZ. */
export const TABCRAWL_WACZ_PATHS = Object.freeze({
  crawl: 'tabcrawl/crawl.json',
  rows: 'tabcrawl/rows.jsonl.gz',
  notCrawled: 'tabcrawl/not-crawled.jsonl.gz',
});

/** The version of these files' layout; an import refuses a newer one. */
export const TABCRAWL_CRAWL_FORMAT = 'tabcrawl-crawl-1';

/** `tabcrawl/crawl.json`. */
export interface TabcrawlCrawlFile {
  format: typeof TABCRAWL_CRAWL_FORMAT;
  /** The software that wrote it, e.g. `Tabcrawl 0.1.0`. */
  software: string;
  /** When the WACZ was written (ISO 8601). */
  exportedAt: string;
  /** The crawl as stored: its settings, state, counts and dates. */
  crawl: CrawlRecord;
  /** Where its rows are, and how many. */
  rows: { path: string; count: number };
  /** Where the URLs it left unvisited are, and how many (absent in WACZ files written before they were kept). */
  notCrawled?: { path: string; count: number };
}

const encoder = new TextEncoder();

/** Rows of JSON text gathered into chunks of about this many characters before compression. */
const CHUNK_CHARS = 64 * 1024;

/** `tabcrawl/crawl.json`'s bytes, once the rows have been written and counted. */
export function crawlFileBytes(
  crawl: CrawlRecord,
  context: Pick<ExportContext, 'software' | 'now'>,
  rowCount: number,
  notCrawledCount: number,
): Uint8Array {
  const file: TabcrawlCrawlFile = {
    format: TABCRAWL_CRAWL_FORMAT,
    software: context.software,
    exportedAt: context.now.toISOString(),
    crawl,
    rows: { path: TABCRAWL_WACZ_PATHS.rows, count: rowCount },
    notCrawled: { path: TABCRAWL_WACZ_PATHS.notCrawled, count: notCrawledCount },
  };
  return encoder.encode(JSON.stringify(file, null, 2));
}

/**
 * `tabcrawl/rows.jsonl.gz`: the crawl's rows read again from the source (a page at a time: memory stays
 * flat), one JSON line each, gzipped as they stream. `onRow` is called once per row, for the count.
 */
export async function* rowsJsonlGz(
  source: Pick<ExportSource, 'rows'>,
  onRow: (row: PageRecord) => void,
): AsyncGenerator<Uint8Array> {
  yield* readStream(streamOf(jsonLines(source.rows(), onRow)).pipeThrough(new CompressionStream('gzip')));
}

/** `tabcrawl/not-crawled.jsonl.gz`: the URLs left unvisited, likewise; a source that has none gives an empty file. */
export async function* notCrawledJsonlGz(
  source: Pick<ExportSource, 'notCrawled'>,
  onUrl: () => void,
): AsyncGenerator<Uint8Array> {
  yield* readStream(
    streamOf(jsonLines(source.notCrawled?.() ?? none<NotCrawledUrl>(), onUrl)).pipeThrough(
      new CompressionStream('gzip'),
    ),
  );
}

async function* none<T>(): AsyncGenerator<T> {}

async function* jsonLines<T>(rows: AsyncIterable<T>, onRow: (row: T) => void): AsyncGenerator<Uint8Array> {
  let text = '';
  for await (const row of rows) {
    onRow(row);
    text += `${JSON.stringify(row)}\n`;
    if (text.length >= CHUNK_CHARS) {
      yield encoder.encode(text);
      text = '';
    }
  }
  if (text !== '') yield encoder.encode(text);
}

/** An async iterable as a stream that pulls one chunk when asked (backpressure reaches the row reads). */
function streamOf(chunks: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array<ArrayBuffer>> {
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) controller.close();
      else
        controller.enqueue(
          value.buffer instanceof ArrayBuffer
            ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
            : value.slice(),
        );
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

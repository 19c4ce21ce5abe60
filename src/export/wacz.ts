/**
 * WACZ 1.1.1 export: one zip, streamed, holding
 *
 * - `archive/data.warc.gz`: the WARC, one gzip member per record;
 * - `indexes/index.cdxj`: one CDXJ line per `response`/`revisit` record, sorted;
 * - `pages/pages.jsonl`: the HTML pages answered with 2xx (rows of kind
 *   `page`: not page resources, linked files or sitemaps, whatever their type);
 * - `tabcrawl/crawl.json`, `tabcrawl/rows.jsonl.gz`, `tabcrawl/not-crawled.jsonl.gz`:
 *   the crawl, its rows and the URLs it left unvisited as stored, for an import
 *   to give the same crawl back (`tabcrawl-crawl-file.ts`; other readers ignore them);
 * - `datapackage.json`: metadata and the size and SHA-256 of each file above;
 * - `datapackage-digest.json`: the SHA-256 of `datapackage.json`.
 *
 * Entries are STORED (client-zip never compresses), so readers can seek into
 * the WARC by the index's offsets; client-zip switches to ZIP64 records by
 * itself when an entry or offset passes 4 GiB. Sizes and hashes are computed
 * while each entry streams, which is why `datapackage.json` comes after the
 * files it lists. Only the index lines and page lines are held in memory
 * (one short line per URL), since the index must be sorted.
 *
 * @see https://specs.webrecorder.net/wacz/1.1.1/
 */
import { makeZip } from 'client-zip';
import { readStream } from './read-stream.ts';
import type { PageRecord } from '../core/model.ts';
import { type CdxjLine, cdxjLine, compareCdxj, formatCdxj } from './cdxj.ts';
import type { ExportContext, ExportSource, FormatWriter } from './export-source.ts';
import { type WarcIndexEntry, warcRecords } from './warc.ts';
import { digestOf } from './warc-record.ts';
import { TABCRAWL_WACZ_PATHS, crawlFileBytes, notCrawledJsonlGz, rowsJsonlGz } from './tabcrawl-crawl-file.ts';
import { type StreamDigest, digesting } from './zip-digest.ts';
import { type StreamHash, startStreamHash } from './stream-hash.ts';

/** The WACZ version written in `datapackage.json`. */
export const WACZ_VERSION = '1.1.1';

/** Name of the WARC inside `archive/`, as CDXJ lines name it. */
const WARC_NAME = 'data.warc.gz';

/** Paths of the files in the zip. @see WACZ 1.1.1 "Directory Layout" */
export const WACZ_PATHS = Object.freeze({
  warc: `archive/${WARC_NAME}`,
  index: 'indexes/index.cdxj',
  pages: 'pages/pages.jsonl',
  datapackage: 'datapackage.json',
  digest: 'datapackage-digest.json',
});

/** First line of `pages.jsonl`. @see WACZ 1.1.1 `pages.jsonl` */
const PAGES_HEADER = { format: 'json-pages-1.0', id: 'pages', title: 'All Pages' };

/** One line of `pages.jsonl`. `ts` equals the `WARC-Date` of the page's record. */
export interface WaczPage {
  id: string;
  url: string;
  ts: string;
  title?: string;
}

/** One entry of `datapackage.json`'s `resources`. */
export interface WaczResource {
  /** File name, lower-cased (py-wacz's convention). */
  name: string;
  path: string;
  /** `sha256:<hex>` of the file's bytes. */
  hash: string;
  bytes: number;
}

/** `datapackage.json`. `mainPageUrl` is spelled as WACZ 1.1.1 spells it (py-wacz writes `mainPageURL`). */
export interface WaczDatapackage {
  profile: 'data-package';
  wacz_version: string;
  software: string;
  created: string;
  title: string;
  mainPageUrl: string;
  mainPageDate?: string;
  resources: WaczResource[];
}

/** What the WARC pass leaves for the files after it. */
interface Collected {
  lines: CdxjLine[];
  pages: WaczPage[];
}

const encoder = new TextEncoder();

/** WACZ 1.1.1 as a {@link FormatWriter}. Calls `context.onRow()` once per row (through the WARC). */
export const writeWacz: FormatWriter = async function* (source, context) {
  yield* readStream(makeZip(waczEntries(source, context)));
};

/**
 * The zip entries, produced lazily: client-zip asks for the next entry only
 * after it has read the previous one to its end, so by the time
 * `datapackage.json` is built every listed file has been hashed.
 */
async function* waczEntries(source: ExportSource, context: ExportContext) {
  const lastModified = context.now;
  const collected: Collected = { lines: [], pages: [] };
  const resources: WaczResource[] = [];
  const listed = (path: string, chunks: AsyncIterable<Uint8Array>, hash?: StreamHash): AsyncIterable<Uint8Array> =>
    digesting(chunks, (digest) => resources.push(resourceOf(path, digest)), hash);

  // The WARC is nearly all of the file: hashed in a worker, on another core, where there is one.
  yield {
    name: WACZ_PATHS.warc,
    lastModified,
    input: listed(WACZ_PATHS.warc, archiveChunks(source, context, collected), await startStreamHash()),
  };
  yield { name: WACZ_PATHS.index, lastModified, input: listed(WACZ_PATHS.index, indexChunks(collected.lines)) };
  yield { name: WACZ_PATHS.pages, lastModified, input: listed(WACZ_PATHS.pages, pagesChunks(collected.pages)) };
  let rowCount = 0;
  yield {
    name: TABCRAWL_WACZ_PATHS.rows,
    lastModified,
    input: listed(
      TABCRAWL_WACZ_PATHS.rows,
      rowsJsonlGz(source, () => (rowCount += 1)),
    ),
  };
  let notCrawledCount = 0;
  yield {
    name: TABCRAWL_WACZ_PATHS.notCrawled,
    lastModified,
    input: listed(
      TABCRAWL_WACZ_PATHS.notCrawled,
      notCrawledJsonlGz(source, () => (notCrawledCount += 1)),
    ),
  };
  const crawlFile = crawlFileBytes(source.crawl, context, rowCount, notCrawledCount);
  yield { name: TABCRAWL_WACZ_PATHS.crawl, lastModified, input: listed(TABCRAWL_WACZ_PATHS.crawl, once(crawlFile)) };

  if (resources.length !== 6) throw new Error('WACZ: a file was not fully written before datapackage.json');
  const datapackage = encoder.encode(
    JSON.stringify(datapackageOf(source, context, collected.pages, resources), null, 2),
  );
  yield { name: WACZ_PATHS.datapackage, lastModified, input: datapackage };
  const digest = { path: WACZ_PATHS.datapackage, hash: digestOf([datapackage]) };
  yield { name: WACZ_PATHS.digest, lastModified, input: encoder.encode(JSON.stringify(digest, null, 2)) };
}

/**
 * The gzip-per-record WARC, noting an index line per response/revisit (pages,
 * resources, files, sitemaps: every capture) and a page per HTML 2xx answer of
 * a page row.
 */
async function* archiveChunks(
  source: ExportSource,
  context: ExportContext,
  collected: Collected,
): AsyncGenerator<Uint8Array> {
  for await (const out of warcRecords(source, context, { gzip: true })) {
    if (out.kind === 'bytes') {
      yield out.bytes;
      continue;
    }
    for (const record of out.records) {
      if (record.index === null) continue;
      collected.lines.push(cdxjLine(record.index, record, WARC_NAME));
      if (record.row !== null && record.row.kind === 'page' && isPage(record.index))
        collected.pages.push(pageOf(record.row, record.index));
    }
  }
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** The index, sorted by key then timestamp. */
async function* indexChunks(lines: CdxjLine[]): AsyncGenerator<Uint8Array> {
  lines.sort(compareCdxj);
  for (const line of lines) yield encoder.encode(formatCdxj(line));
}

async function* pagesChunks(pages: readonly WaczPage[]): AsyncGenerator<Uint8Array> {
  yield encoder.encode(`${JSON.stringify(PAGES_HEADER)}\n`);
  for (const page of pages) yield encoder.encode(`${JSON.stringify(page)}\n`);
}

/** A page worth listing: an HTML document answered 2xx to a GET (its content is in the archive, or revisited). */
function isPage(entry: WarcIndexEntry): boolean {
  const isHtml = entry.mime === 'text/html' || entry.mime === 'application/xhtml+xml';
  return isHtml && entry.method === 'GET' && entry.status >= 200 && entry.status < 300;
}

function pageOf(row: PageRecord, entry: WarcIndexEntry): WaczPage {
  const page: WaczPage = { id: crypto.randomUUID(), url: entry.url, ts: entry.date };
  if (row.title !== null && row.title.trim() !== '') page.title = row.title;
  return page;
}

function resourceOf(path: string, digest: StreamDigest): WaczResource {
  const name = (path.split('/').at(-1) ?? path).toLowerCase();
  return { name, path, hash: digest.hash, bytes: digest.bytes };
}

/**
 * `datapackage.json`. The main page is the first page listed (usually the
 * start URL, or where it redirected); without pages, the start URL, undated.
 */
function datapackageOf(
  source: ExportSource,
  context: ExportContext,
  pages: readonly WaczPage[],
  resources: WaczResource[],
): WaczDatapackage {
  const { startUrl } = source.crawl.settings;
  const main = pages[0];
  return {
    profile: 'data-package',
    wacz_version: WACZ_VERSION,
    software: context.software,
    created: context.now.toISOString(),
    title: `Crawl of ${startUrl}`,
    mainPageUrl: main?.url ?? startUrl,
    ...(main === undefined ? {} : { mainPageDate: main.ts }),
    resources,
  };
}

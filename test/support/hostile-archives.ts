/**
 * Hostile archives for the import's readers (issue 27): one function per
 * attack, each giving the file's bytes (small: a few hundred KB at most, made
 * in a second or two) and what a reader must make of it: a clear error
 * (`error`: a pattern its message must match) or a sane import (`startUrl`:
 * the crawl's start URL). `test/unit/hostile-archives.test.ts` runs each one
 * through `importArchive`, the import the page and the command line run, in a
 * process of its own whose peak memory it bounds.
 *
 * The zips are written here byte by byte (local headers, central directory,
 * end record) so that their directory can lie: sizes that are not the
 * entries', entries that share bytes.
 */
import { createGzip, crc32, deflateRawSync, gzipSync } from 'node:zlib';

export interface HostileArchive {
  /** The file's name (its extension says what it pretends to be). */
  name: string;
  bytes: Uint8Array;
  /** What the import must end with: an error matching `error`, or a crawl starting at `startUrl`. */
  expect: { error: RegExp } | { startUrl: string };
}

const MiB = 1024 * 1024;
const encoder = new TextEncoder();
const text = (value: string): Uint8Array => encoder.encode(value);

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A WARC response record's header for `url`, declaring a block of `blockLength` bytes. */
function responseHead(url: string, blockLength: number): Uint8Array {
  return text(
    `WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: ${url}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:${crypto.randomUUID()}>\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: ${blockLength}\r\n\r\n`,
  );
}

/** A whole WARC response record of an HTML page. */
export function htmlRecord(url: string, title = 'Home', extra = ''): Uint8Array {
  const body = `<!doctype html><title>${title}</title><a href="/next">next</a>${extra}`;
  const block = text(
    `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${encoder.encode(body).length}\r\n\r\n${body}`,
  );
  return concat([responseHead(url, block.length), block, text('\r\n\r\n')]);
}

/** `size` bytes of zeros gzipped as one member, streamed through zlib (never `size` bytes in memory). */
async function gzipOfZeros(head: Uint8Array, size: number, tail: Uint8Array): Promise<Uint8Array> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (data: Buffer) => out.push(data));
  const ended = new Promise((resolve) => gzip.on('end', resolve));
  const zeros = new Uint8Array(MiB);
  gzip.write(head);
  for (let left = size; left > 0; left -= MiB) {
    if (!gzip.write(left >= MiB ? zeros : zeros.subarray(0, left)))
      await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end(tail);
  await ended;
  return concat(out);
}

/** A zip entry as written: its name, its data as stored in the zip, the method, and the sizes its headers declare. */
interface ZipPart {
  name: string;
  data: Uint8Array;
  method: 0 | 8;
  size: number;
  crc: number;
}

const stored = (name: string, data: Uint8Array): ZipPart => ({
  name,
  data,
  method: 0,
  size: data.length,
  crc: crc32(data),
});
const deflated = (name: string, data: Uint8Array, declaredSize = data.length): ZipPart => ({
  name,
  data: deflateRawSync(data, { level: 9 }),
  method: 8,
  size: declaredSize,
  crc: crc32(data),
});

/**
 * A zip of these entries; `aliases` adds central directory entries (by name) that point at the local header of
 * the entry `of`, as a hostile zip may.
 */
function zip(parts: readonly ZipPart[], aliases: readonly { name: string; of: string }[] = []): Uint8Array {
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  const offsets = new Map<string, number>();
  let at = 0;
  const header = (signature: number, length: number): { bytes: Uint8Array; view: DataView } => {
    const bytes = new Uint8Array(length);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, signature, true);
    return { bytes, view };
  };
  const centralEntry = (part: ZipPart, offset: number, name = part.name): void => {
    const nameBytes = text(name);
    const { bytes, view } = header(0x02014b50, 46);
    view.setUint16(4, 20, true);
    view.setUint16(6, 20, true);
    view.setUint16(8, 0x800, true);
    view.setUint16(10, part.method, true);
    view.setUint32(16, part.crc, true);
    view.setUint32(20, part.data.length, true);
    view.setUint32(24, part.size, true);
    view.setUint16(28, nameBytes.length, true);
    view.setUint32(42, offset, true);
    central.push(bytes, nameBytes);
  };
  for (const part of parts) {
    const nameBytes = text(part.name);
    const { bytes, view } = header(0x04034b50, 30);
    view.setUint16(4, 20, true);
    view.setUint16(6, 0x800, true);
    view.setUint16(8, part.method, true);
    view.setUint32(14, part.crc, true);
    view.setUint32(18, part.data.length, true);
    view.setUint32(22, part.size, true);
    view.setUint16(26, nameBytes.length, true);
    offsets.set(part.name, at);
    chunks.push(bytes, nameBytes, part.data);
    at += 30 + nameBytes.length + part.data.length;
  }
  for (const part of parts) centralEntry(part, offsets.get(part.name) ?? 0);
  for (const alias of aliases) {
    const part = parts.find((p) => p.name === alias.of);
    if (part !== undefined) centralEntry(part, offsets.get(part.name) ?? 0, alias.name);
  }
  const directory = concat(central);
  const { bytes: end, view } = header(0x06054b50, 22);
  const count = parts.length + aliases.length;
  view.setUint16(8, Math.min(count, 0xffff), true);
  view.setUint16(10, Math.min(count, 0xffff), true);
  view.setUint32(12, directory.length, true);
  view.setUint32(16, at, true);
  return concat([...chunks, directory, end]);
}

const pagesJsonl = (lines: readonly unknown[]): Uint8Array =>
  text([{ format: 'json-pages-1.0', id: 'pages' }, ...lines].map((line) => JSON.stringify(line)).join('\n') + '\n');

/** A WACZ around these entries, with a WARC of one page at `https://example.com/` unless `archive/` is given. */
function wacz(parts: readonly ZipPart[], aliases: readonly { name: string; of: string }[] = []): Uint8Array {
  const hasWarc = parts.some((part) => part.name.startsWith('archive/'));
  return zip(
    [...(hasWarc ? [] : [stored('archive/data.warc', htmlRecord('https://example.com/'))]), ...parts],
    aliases,
  );
}

/** A `.warc.gz` member whose (stored) data is full of gzip headers, each after a trailer whose size is plausible: the member search once tried each. */
export function fakeMemberHeaders(bytes = 400_000): HostileArchive {
  const pattern = new Uint8Array(12);
  const view = new DataView(pattern.buffer);
  view.setUint32(0, 0xdeadbeef, true);
  view.setUint32(4, 32 * MiB, true);
  pattern.set([0x1f, 0x8b, 0x08, 0x00], 8);
  const body = new Uint8Array(bytes);
  for (let at = 0; at + 12 <= bytes; at += 12) body.set(pattern, at);
  const http = text(`HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: ${bytes}\r\n\r\n`);
  const record = concat([responseHead('https://example.com/blob', http.length + bytes), http, body, text('\r\n\r\n')]);
  const member = gzipSync(record, { level: 0 });
  const second = gzipSync(htmlRecord('https://example.com/'));
  return {
    name: 'fake-headers.warc.gz',
    bytes: concat([member, second]),
    expect: { startUrl: 'https://example.com/' },
  };
}

/**
 * A `.warc.gz` of one record whose block is `size` bytes of zeros, one gzip member (512 MiB: about 500 KB), and
 * a record of an HTML page after it (the start URL). The bomb is not HTML: what is bounded is the readers', not
 * the page reader's work on a 64 MiB page (its text decoded and parsed: about 200 MiB more at its peak).
 */
export async function gzipBomb(size = 512 * MiB): Promise<HostileArchive> {
  const http = text(`HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: ${size}\r\n\r\n`);
  const head = concat([responseHead('https://example.com/bomb', http.length + size), http]);
  const bomb = await gzipOfZeros(head, size, text('\r\n\r\n'));
  return {
    name: 'bomb.warc.gz',
    bytes: concat([bomb, gzipSync(htmlRecord('https://example.com/'))]),
    expect: { startUrl: 'https://example.com/' },
  };
}

/** A WACZ whose `archive/data.warc.gz` is a gzip bomb, zip-deflated once more (a few KB for 512 MiB). */
export async function waczOfGzipBomb(size = 512 * MiB): Promise<HostileArchive> {
  const bomb = await gzipBomb(size);
  return {
    name: 'bomb.wacz',
    bytes: zip([deflated('archive/data.warc.gz', bomb.bytes)]),
    expect: { startUrl: 'https://example.com/' },
  };
}

/** A WACZ text entry that declares `declared` bytes and inflates to `size` (spaces, or one line without an end). */
export function waczHugeTextEntry(
  path: 'datapackage.json' | 'tabcrawl/crawl.json' | 'pages/pages.jsonl',
  size = 300 * MiB,
  declared = 300,
): HostileArchive {
  const data = new Uint8Array(size).fill(0x20);
  return {
    name: `huge-${path.replace(/\W/g, '-')}.wacz`,
    bytes: wacz([deflated(path, data, declared)]),
    expect: { error: new RegExp(`${path.replace('.', '\\.')}`) },
  };
}

/** A Tabcrawl WACZ whose `tabcrawl/rows.jsonl.gz` is one line of `size` bytes without an end. */
export function waczHugeRowLine(size = 300 * MiB): HostileArchive {
  const rows = gzipSync(new Uint8Array(size).fill(0x20), { level: 9 });
  return {
    name: 'huge-rows.wacz',
    bytes: wacz([
      stored('tabcrawl/crawl.json', text(JSON.stringify(tabcrawlCrawl()))),
      stored('tabcrawl/rows.jsonl.gz', rows),
    ]),
    expect: { error: /tabcrawl\/rows\.jsonl\.gz/ },
  };
}

/** A WACZ whose directory lists `count` more WARCs, all pointing at the bytes of the one WARC it holds (`warcBytes` long). */
export function overlappingEntries(count = 5000, warcBytes = 2 * MiB): HostileArchive {
  const records: Uint8Array[] = [htmlRecord('https://example.com/')];
  for (let i = 0, made = records[0]?.length ?? 0; made < warcBytes; i += 1) {
    const record = htmlRecord(`https://example.com/p${i}`, `Page ${i}`, 'x'.repeat(4000));
    records.push(record);
    made += record.length;
  }
  const aliases = Array.from({ length: count }, (_, i) => ({
    name: `archive/copy-${i}.warc`,
    of: 'archive/data.warc',
  }));
  return {
    name: 'overlapping.wacz',
    bytes: zip([stored('archive/data.warc', concat(records))], aliases),
    expect: { error: /overlap/ },
  };
}

/** A WACZ whose first seed is a URL of `length` characters (no crawl can start there), its second a fine one. */
export function longSeed(length = 100_000): HostileArchive {
  const long = `https://example.com/${'a'.repeat(length)}`;
  const pages = pagesJsonl([
    { url: long, seed: true, ts: '2026-01-01T00:00:00Z' },
    { url: 'https://example.com/', seed: true, ts: '2026-01-01T00:00:00Z' },
  ]);
  return {
    name: 'long-seed.wacz',
    bytes: wacz([stored('pages/pages.jsonl', pages)]),
    expect: { startUrl: 'https://example.com/' },
  };
}

/** A WACZ whose only seed is a 100 KB URL: the import starts from the first captured URL instead. */
export function onlyLongSeed(length = 100_000): HostileArchive {
  const pages = pagesJsonl([{ url: `https://example.com/${'a'.repeat(length)}`, seed: true }]);
  return {
    name: 'only-long-seed.wacz',
    bytes: wacz([stored('pages/pages.jsonl', pages)]),
    expect: { startUrl: 'https://example.com/' },
  };
}

/** Tabcrawl's `tabcrawl/crawl.json` for a crawl of `https://example.com/`. */
function tabcrawlCrawl(): unknown {
  return {
    format: 'tabcrawl-crawl-1',
    crawl: {
      id: 'x',
      settings: { startUrl: 'https://example.com/' },
      state: 'finished',
      createdAt: 0,
      endedAt: 1,
      counts: {},
      message: null,
      nextSeq: 2,
    },
    rows: { count: 1 },
  };
}

/** A stored row of `https://example.com/` as Tabcrawl's WACZ carries it, with `fields` changed. */
export function tabcrawlRow(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    crawlId: 'x',
    url: 'https://example.com/',
    origin: 'https://example.com',
    depth: 0,
    referrer: null,
    kind: 'page',
    seq: 1,
    status: 200,
    contentType: 'text/html',
    contentLength: 10,
    location: null,
    methods: ['GET'],
    fetchedAt: 0,
    responseTimeMs: 5,
    headers: [['content-type', 'text/html']],
    statusLine: 'HTTP/1.1 200 OK',
    requestHeaders: null,
    ipAddress: null,
    sha256: null,
    duplicateOf: null,
    truncated: false,
    title: 'Home',
    links: [],
    linkTexts: [],
    resources: [],
    inlinks: 0,
    anchors: [],
    blockedBy: null,
    blockedRule: null,
    error: null,
    ...fields,
  };
}

/** A Tabcrawl WACZ whose row has `fields` of the wrong type (a title that is a number, by default). */
export function wrongTypeRow(fields: Record<string, unknown> = { title: 5 }): HostileArchive {
  const rows = gzipSync(text(`${JSON.stringify(tabcrawlRow(fields))}\n`));
  return {
    name: 'wrong-row.wacz',
    bytes: wacz([
      stored('tabcrawl/crawl.json', text(JSON.stringify(tabcrawlCrawl()))),
      stored('tabcrawl/rows.jsonl.gz', rows),
    ]),
    expect: { error: /tabcrawl\/rows\.jsonl\.gz: line 1 is not a row: its title/ },
  };
}

/** A file of no bytes. */
export function emptyFile(): HostileArchive {
  return {
    name: 'empty.warc',
    bytes: new Uint8Array(0),
    expect: { error: /empty\.warc: the file is empty: not a WARC or WACZ/ },
  };
}

/** Every attack, by name, made when asked (the bombs take a second or two each). */
export const HOSTILE_ARCHIVES: Record<string, () => HostileArchive | Promise<HostileArchive>> = {
  'fake gzip headers inside one member': () => fakeMemberHeaders(),
  'gzip bomb': () => gzipBomb(256 * MiB),
  'zip-deflated gzip bomb in a WACZ': () => waczOfGzipBomb(256 * MiB),
  'datapackage.json declaring 300 bytes, inflating to 300 MiB': () => waczHugeTextEntry('datapackage.json'),
  'tabcrawl/crawl.json declaring 300 bytes, inflating to 300 MiB': () => waczHugeTextEntry('tabcrawl/crawl.json'),
  'pages.jsonl of one 300 MiB line, declaring 300 bytes': () => waczHugeTextEntry('pages/pages.jsonl'),
  'rows.jsonl.gz of one 300 MiB line': () => waczHugeRowLine(),
  'overlapping zip entries': () => overlappingEntries(),
  'a 100 KB seed before a fine one': () => longSeed(),
  'a 100 KB seed alone': () => onlyLongSeed(),
  'a row whose title is a number': () => wrongTypeRow(),
  'a row whose links are not text': () => ({
    ...wrongTypeRow({ links: [1, 2] }),
    expect: { error: /line 1 is not a row: its links/ },
  }),
  'an empty file': () => emptyFile(),
};

/**
 * Independent checks of exported archives, as their readers would do them:
 * yauzl opens the WACZ, warcio.js parses the WARC, and every hash, size,
 * offset and digest is recomputed here, not trusted.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { fromBufferPromise } from 'yauzl';
import { readWarcRecords, type ReadRecord } from './export-fixtures.ts';

const sha256 = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** Checks every record's block digest and every response's payload digest; returns the records. */
export async function checkWarc(bytes: Uint8Array): Promise<ReadRecord[]> {
  const records = await readWarcRecords(bytes);
  assert.equal(records[0]?.type, 'warcinfo', 'warcinfo comes first');
  for (const record of records) {
    assert.equal(
      record.field('WARC-Block-Digest'),
      sha256(record.block),
      `block digest of ${record.type} ${record.field('WARC-Target-URI') ?? ''}`,
    );
    if (record.type === 'response' && record.payload !== null) {
      assert.equal(
        record.field('WARC-Payload-Digest'),
        sha256(record.payload),
        `payload digest of ${record.field('WARC-Target-URI') ?? ''}`,
      );
    }
  }
  return records;
}

export interface CheckedWacz {
  records: ReadRecord[];
  /** CDXJ lines: URL and the parsed JSON. */
  index: { url: string; fields: Record<string, string> }[];
  /** pages.jsonl lines after the header. */
  pages: Record<string, unknown>[];
}

/** Opens a WACZ and checks its layout, hashes, index and WARC; returns what it holds. */
export async function checkWacz(zip: Buffer): Promise<CheckedWacz> {
  const file = await fromBufferPromise(zip, { lazyEntries: true });
  const entries = new Map<string, Buffer>();
  for await (const entry of file.eachEntry()) {
    assert.equal(entry.compressionMethod, 0, `${entry.fileName} is stored uncompressed`);
    const parts: Buffer[] = [];
    for await (const part of await file.openReadStreamPromise(entry)) parts.push(Buffer.from(part as Uint8Array));
    entries.set(entry.fileName, Buffer.concat(parts));
  }
  const entry = (name: string): Buffer => {
    const data = entries.get(name);
    assert.ok(data, `${name} is in the WACZ`);
    return data;
  };

  const datapackage = JSON.parse(entry('datapackage.json').toString('utf8')) as {
    wacz_version: string;
    profile: string;
    resources: { path: string; hash: string; bytes: number }[];
  };
  assert.equal(datapackage.wacz_version, '1.1.1');
  assert.equal(datapackage.profile, 'data-package');
  assert.deepEqual(datapackage.resources.map((r) => r.path).sort(), [
    'archive/data.warc.gz',
    'indexes/index.cdxj',
    'pages/pages.jsonl',
    'tabcrawl/crawl.json',
    'tabcrawl/not-crawled.jsonl.gz',
    'tabcrawl/rows.jsonl.gz',
  ]);
  for (const resource of datapackage.resources) {
    assert.equal(resource.hash, sha256(entry(resource.path)), `hash of ${resource.path}`);
    assert.equal(resource.bytes, entry(resource.path).byteLength, `size of ${resource.path}`);
  }
  const digest = JSON.parse(entry('datapackage-digest.json').toString('utf8')) as { path: string; hash: string };
  assert.deepEqual(digest, { path: 'datapackage.json', hash: sha256(entry('datapackage.json')) });

  const warc = entry('archive/data.warc.gz');
  const lines = entry('indexes/index.cdxj').toString('utf8').split('\n').filter(Boolean);
  const index = lines.map((line) => {
    const [key = '', timestamp = ''] = line.split(' ', 2);
    return {
      key: `${key} ${timestamp}`,
      fields: JSON.parse(line.slice(key.length + timestamp.length + 2)) as Record<string, string>,
    };
  });
  assert.deepEqual(
    index.map((l) => l.key),
    [...index.map((l) => l.key)].sort(),
    'the index is sorted',
  );
  for (const { fields } of index) {
    const offset = Number(fields['offset']);
    const length = Number(fields['length']);
    const record = gunzipSync(warc.subarray(offset, offset + length));
    assert.ok(record.subarray(0, 9).toString() === 'WARC/1.1\r', `a record starts at ${offset}`);
    const [parsed] = await readWarcRecords(record);
    assert.equal(parsed?.field('WARC-Target-URI'), fields['url'], `the record at ${offset} is ${fields['url'] ?? ''}`);
  }

  const pageLines = entry('pages/pages.jsonl')
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(pageLines[0]?.['format'], 'json-pages-1.0');
  return {
    records: await checkWarc(warc),
    index: index.map(({ fields }) => ({ url: fields['url'] ?? '', fields })),
    pages: pageLines.slice(1),
  };
}

/** The payload of the response record for `url` as a Buffer (compare with `Buffer.from(expected)`), or undefined. */
export function responsePayload(records: ReadRecord[], url: string): Buffer | undefined {
  const payload = records.find((r) => r.type === 'response' && r.field('WARC-Target-URI') === url)?.payload;
  return payload === null || payload === undefined ? undefined : Buffer.from(payload);
}

/** What {@link checkRowsArchived} needs of a crawl row: a `PageRecord` or a JSON Lines line both fit. */
export interface ArchivedRow {
  url: string;
  /** `page`, `resource`, `file`, `sitemap` or `external`. */
  kind: string;
  status: number | null;
  contentType: string | null;
  /** Hex SHA-256 of the stored body, or null when none was stored. */
  sha256: string | null;
  /** The stored body was cut at its size cap. */
  truncated: boolean;
  methods: readonly string[];
}

/** A link to another site checked with GET: its body is never read, so the archive holds no response for it. */
const isUnreadCheck = (row: ArchivedRow): boolean =>
  row.kind === 'external' && row.methods.at(-1) === 'GET' && row.sha256 === null;

const isHtml = (contentType: string | null): boolean =>
  /^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i.test(contentType ?? '');

/**
 * Checks an archive against the crawl's rows, whatever their kind (pages,
 * page resources, linked files, sitemaps), from what warcio.js and the
 * WACZ's own files say:
 *
 * - every row answered (with a status) has one request and one response or
 *   revisit record; every other row (failed, blocked), and a link to another
 *   site checked with GET (its body never read), only a metadata record;
 * - a response to a GET whose row stored a body carries that body whole: its
 *   payload hashes to the row's SHA-256, and it is marked `WARC-Truncated`
 *   only when the row's body was cut (`truncated`: then `length`); a revisit
 *   names the row's payload digest;
 * - for a WACZ: the index has one line per answered row, of every kind, and
 *   `pages.jsonl` lists exactly the rows of kind `page` answered 2xx to a GET
 *   with HTML.
 */
export function checkRowsArchived(
  archive: { records: ReadRecord[]; index?: CheckedWacz['index']; pages?: CheckedWacz['pages'] },
  rows: readonly ArchivedRow[],
): void {
  const byTarget = new Map<string, ReadRecord[]>();
  for (const record of archive.records) {
    const target = record.field('WARC-Target-URI');
    if (target !== null) byTarget.set(target, [...(byTarget.get(target) ?? []), record]);
  }
  for (const row of rows) {
    const records = byTarget.get(row.url) ?? [];
    const what = `${row.kind} ${row.url}`;
    if (row.status === null || isUnreadCheck(row)) {
      assert.deepEqual(
        records.map((r) => r.type),
        ['metadata'],
        `${what}: only a metadata record`,
      );
      continue;
    }
    const answers = records.filter((r) => r.type === 'response' || r.type === 'revisit');
    assert.equal(answers.length, 1, `${what}: one response or revisit`);
    assert.equal(records.filter((r) => r.type === 'request').length, 1, `${what}: one request`);
    const [answer] = answers;
    if (answer === undefined || row.sha256 === null || row.methods.at(-1) === 'HEAD') continue;
    assert.equal(
      answer.field('WARC-Payload-Digest'),
      `sha256:${row.sha256}`,
      `${what}: the payload is the stored body`,
    );
    if (answer.type === 'response') {
      assert.equal(
        answer.payload === null ? null : createHash('sha256').update(answer.payload).digest('hex'),
        row.sha256,
        `${what}: the whole stored body`,
      );
      assert.equal(answer.field('WARC-Truncated'), row.truncated ? 'length' : null, `${what}: truncated only when cut`);
    }
  }
  if (archive.index !== undefined) {
    const answered = rows
      .filter((row) => row.status !== null && !isUnreadCheck(row))
      .map((row) => row.url)
      .sort();
    assert.deepEqual(
      archive.index.map((line) => line.url).sort(),
      answered,
      'the index has one line per answered row, of every kind',
    );
  }
  if (archive.pages !== undefined) {
    const pages = rows.filter(
      (row) =>
        row.kind === 'page' &&
        row.status !== null &&
        row.status >= 200 &&
        row.status < 300 &&
        row.methods.at(-1) === 'GET' &&
        isHtml(row.contentType),
    );
    assert.deepEqual(
      archive.pages.map((page) => page['url']).sort(),
      pages.map((row) => row.url).sort(),
      'pages.jsonl lists the HTML pages, and only pages',
    );
  }
}

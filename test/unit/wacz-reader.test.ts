/**
 * The WACZ reader (src/import/wacz-reader.ts, zip-reader.ts, open-archive.ts):
 * a WACZ packed by npm @harvard-lil/js-wacz from the fixture WARCs, Tabcrawl's
 * own WACZ (the export code, in Node), a WACZ with `tabcrawl/crawl.json`,
 * deflated entries, a ZIP64 zip whose entries lie past 4 GiB, and cut or
 * wrong files.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { zipSync } from 'fflate';
import { makeZip } from 'client-zip';
import { fromBufferPromise, fromRandomAccessReaderPromise } from 'yauzl';
import { WACZ } from '@harvard-lil/js-wacz';
import { ArchiveReadError } from '../../src/import/archive-error.ts';
import { openArchive, type ArchiveRecord } from '../../src/import/open-archive.ts';
import { openWacz, TABCRAWL_CRAWL_PATH, TABCRAWL_ROWS_PATH } from '../../src/import/wacz-reader.ts';
import { readWarc, type WarcRecord } from '../../src/import/warc-reader.ts';
import { writeWacz } from '../../src/export/wacz.ts';
import { TABCRAWL_CRAWL_FORMAT, TABCRAWL_WACZ_PATHS } from '../../src/export/tabcrawl-crawl-file.ts';
import {
  collectBytes,
  countingContext,
  FIXTURE_CRAWL,
  fixtureRowsWithResources,
  fixtureSource,
} from '../support/export-fixtures.ts';
import { readWithWarcio, WARC_FIXTURES, warcFixture, warcFixtureNames } from '../support/warc-fixtures.ts';
import { VirtualReader, zip64File } from '../support/zip64-fixture.ts';

const TIMEOUT = { timeout: 60_000 };
const work = mkdtempSync(join(tmpdir(), 'tabcrawl-wacz-'));
after(() => rmSync(work, { recursive: true, force: true }));

const blobOf = (bytes: Uint8Array): Blob => new Blob([bytes as Uint8Array<ArrayBuffer>]);
const quiet = { info() {}, trace() {}, warn() {}, debug() {}, error() {} };

async function collect<T>(records: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const record of records) out.push(record);
  return out;
}

/** What two readings of the same records must agree on. */
const shape = (r: WarcRecord): unknown[] => [r.type, r.targetUri, r.offset, r.length, r.payload, r.body];

/** Packs WARC files into a WACZ with js-wacz (its workers index them; pages are detected in them). */
async function jsWacz(inputs: string[], name: string): Promise<Uint8Array> {
  const output = join(work, name);
  const archive = new WACZ({ input: inputs, output, log: quiet, url: 'https://example.com/', title: 'fixtures' });
  await archive.process(false);
  return new Uint8Array(readFileSync(output));
}

/** A zip of these entries, written by client-zip (as Tabcrawl's WACZ is). */
async function clientZip(entries: { name: string; input: Uint8Array }[]): Promise<Uint8Array> {
  return new Uint8Array(await new Response(makeZip(entries)).arrayBuffer());
}

describe('a WACZ packed by js-wacz from the fixture WARCs', () => {
  it('gives the records of each WARC as reading the WARC itself does, and its pages', TIMEOUT, async () => {
    const names = warcFixtureNames();
    const bytes = await jsWacz(
      names.map((name) => join(WARC_FIXTURES, name)),
      'fixtures.wacz',
    );
    const archive = await openArchive(blobOf(bytes), 'fixtures.wacz');
    assert.equal(archive.format, 'wacz');
    assert.ok(archive.wacz);
    assert.deepEqual([...archive.wacz.warcPaths].sort(), names.map((name) => `archive/${name}`).sort());
    assert.equal(archive.wacz.datapackage?.['profile'], 'data-package');
    const records = await collect(archive.records());
    for (const name of names) {
      const direct = await collect(readWarc(warcFixture(name), { fileName: name }));
      const fromWacz = records.filter((r) => r.warcPath === `archive/${name}`);
      assert.deepEqual(fromWacz.map(shape), direct.map(shape), name);
    }
    const pages = await collect(archive.wacz.pages());
    assert.ok(pages.length > 0);
    assert.ok(pages.some((page) => page.url === 'http://example.com/' && page.title === 'Example Domain'));
    assert.equal(await archive.wacz.tabcrawlCrawl(), null);
  });

  it('names the WACZ and the WARC in an error inside a WARC entry', TIMEOUT, async () => {
    const bytes = await jsWacz([join(WARC_FIXTURES, 'example.warc.gz')], 'one.wacz');
    // Damage the WARC's gzip data inside the zip: the directory still reads.
    const damaged = bytes.slice();
    const { fileDataStart } = await dataStart(bytes, 'archive/example.warc.gz');
    for (let i = fileDataStart + 800; i < fileDataStart + 820; i += 1) damaged[i] = 0xff;
    const records: ArchiveRecord[] = [];
    const archive = await openArchive(blobOf(damaged), 'one.wacz');
    let error: unknown = null;
    try {
      for await (const record of archive.records()) records.push(record);
    } catch (e) {
      error = e;
    }
    assert.equal(records.length, 2, 'the records before the damage');
    assert.ok(error instanceof ArchiveReadError);
    assert.equal(error.kind, 'corrupt');
    assert.match(error.message, /^one\.wacz › archive\/example\.warc\.gz: the gzip data is corrupt/);
    assert.equal(error.offset, 784, 'the offset of the gzip member in the WARC entry');
  });
});

/** Where an entry's data starts in a zip, as yauzl reads it. */
async function dataStart(zip: Uint8Array, name: string): Promise<{ fileDataStart: number }> {
  const file = await fromBufferPromise(Buffer.from(zip), { lazyEntries: true });
  for await (const entry of file.eachEntry()) {
    if (entry.fileName === name) return file.readLocalFileHeaderPromise(entry, { minimal: true });
  }
  throw new Error(`${name} not in the zip`);
}

describe("Tabcrawl's own WACZ", () => {
  it('gives the records warcio.js reads from its WARC, and the pages it lists', TIMEOUT, async () => {
    const { context } = countingContext();
    const zip = new Uint8Array(await collectBytes(writeWacz(fixtureSource(fixtureRowsWithResources()), context)));
    const archive = await openArchive(blobOf(zip), 'tabcrawl.wacz');
    assert.ok(archive.wacz);
    assert.deepEqual(archive.wacz.warcPaths, ['archive/data.warc.gz']);
    const records = await collect(archive.records());
    const warc = await collect(archive.wacz.bytes('archive/data.warc.gz'));
    const reference = await readWithWarcio(Uint8Array.from(Buffer.concat(warc)));
    assert.deepEqual(
      records.map((r) => [r.type, r.targetUri, r.offset, r.payload]),
      reference.map((r) => [r.type, r.targetUri, r.offset, r.payload]),
    );
    // The CDXJ index's offsets are the records' offsets.
    const index = (await archive.wacz.text('indexes/index.cdxj')).trim().split('\n');
    for (const line of index) {
      const fields = JSON.parse(line.slice(line.indexOf('{'))) as { url: string; offset: string; length: string };
      const record = records.find((r) => r.offset === Number(fields.offset));
      assert.ok(record, `a record at ${fields.offset}`);
      assert.equal(record.targetUri, fields.url);
      assert.equal(record.length, Number(fields.length));
    }
    // pages.jsonl: the HTML pages answered 2xx, with their titles (the export's rule, docs/exports.md).
    const pages = await collect(archive.wacz.pages());
    assert.deepEqual(
      pages.map((p) => [p.url, p.title ?? null]).sort(),
      fixtureRowsWithResources()
        .filter(
          (row) =>
            row.kind === 'page' &&
            row.status !== null &&
            row.status < 300 &&
            row.status >= 200 &&
            /html/.test(row.contentType ?? '') &&
            row.methods.at(-1) === 'GET',
        )
        .map((row) => [row.url, row.title])
        .sort(),
    );
  });

  it(
    'gives back tabcrawl/crawl.json and every row of tabcrawl/rows.jsonl.gz as the export wrote them',
    TIMEOUT,
    async () => {
      const { context } = countingContext();
      const rows = fixtureRowsWithResources();
      const zip = new Uint8Array(await collectBytes(writeWacz(fixtureSource(rows), context)));
      const wacz = await openWacz(blobOf(zip), 'tabcrawl.wacz');
      assert.deepEqual(
        [TABCRAWL_CRAWL_PATH, TABCRAWL_ROWS_PATH],
        [TABCRAWL_WACZ_PATHS.crawl, TABCRAWL_WACZ_PATHS.rows],
        'the paths the export writes',
      );
      const crawl = await wacz.tabcrawlCrawl();
      assert.ok(crawl);
      const file = crawl.json as { format: string; crawl: unknown; rows: { count: number } };
      assert.equal(file.format, TABCRAWL_CRAWL_FORMAT);
      assert.deepEqual(file.crawl, JSON.parse(JSON.stringify(FIXTURE_CRAWL)));
      assert.equal(file.rows.count, rows.length);
      assert.deepEqual(await collect(wacz.tabcrawlRows()), JSON.parse(JSON.stringify(rows)));
    },
  );

  it(
    'exposes a tabcrawl/crawl.json that is not JSON as text only, and reads a WACZ without rows',
    TIMEOUT,
    async () => {
      const warc = new Uint8Array(gzipSync('WARC/1.1\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n'));
      const zip = await clientZip([
        { name: 'archive/data.warc.gz', input: warc },
        { name: 'tabcrawl/crawl.json', input: new TextEncoder().encode('{"format": "tabcrawl-crawl-1", cut') },
        { name: 'datapackage.json', input: new TextEncoder().encode('{"profile":"data-package","resources":[]}') },
      ]);
      const wacz = await openWacz(blobOf(zip), 'mine.wacz');
      assert.deepEqual(await wacz.tabcrawlCrawl(), { text: '{"format": "tabcrawl-crawl-1", cut', json: null });
      assert.deepEqual(await collect(wacz.tabcrawlRows()), []);
      assert.deepEqual(
        (await collect(wacz.records())).map((r) => r.type),
        ['warcinfo'],
      );
    },
  );
});

describe('zip layouts a WACZ may have', () => {
  it('reads deflated entries (a WARC and a page list)', TIMEOUT, async () => {
    const warc = warcFixture('example-iana.org-chunked.warc');
    const pages =
      '{"format":"json-pages-1.0","id":"pages"}\n{"url":"http://www.iana.org/","ts":"2017-03-06T16:54:09Z","title":"IANA"}\n';
    const zip = zipSync({
      'archive/x.warc': [warc, { level: 6 }],
      'pages/pages.jsonl': [new TextEncoder().encode(pages), { level: 6 }],
    });
    const wacz = await openWacz(blobOf(zip), 'deflated.wacz');
    assert.equal(wacz.entry('archive/x.warc')?.method, 8);
    const records = await collect(wacz.records());
    const direct = await collect(readWarc(warc, { fileName: 'x.warc' }));
    assert.deepEqual(records.map(shape), direct.map(shape));
    assert.deepEqual(await collect(wacz.pages()), [
      { url: 'http://www.iana.org/', ts: '2017-03-06T16:54:09Z', title: 'IANA' },
    ]);
  });

  it('reads a ZIP64 zip whose entries start past 4 GiB (checked by yauzl too)', TIMEOUT, async () => {
    const warc = warcFixture('example.warc.gz');
    const pages = new TextEncoder().encode(
      '{"format":"json-pages-1.0"}\n{"url":"http://example.com/","ts":"2017-03-06T04:02:06Z"}\n',
    );
    const start = 4.5 * 1024 ** 3;
    const file = zip64File(
      [
        { name: 'archive/data.warc.gz', data: warc },
        { name: 'pages/pages.jsonl', data: pages },
      ],
      start,
    );
    assert.ok(file.size > 2 ** 32);
    // The independent reader agrees on the layout.
    const checked = await fromRandomAccessReaderPromise(new VirtualReader(file), file.size, { lazyEntries: true });
    const names: string[] = [];
    for await (const entry of checked.eachEntry())
      names.push(`${entry.fileName}@${entry.relativeOffsetOfLocalHeader}:${entry.compressedSize}`);
    await checked.close();
    assert.deepEqual(names, [
      `archive/data.warc.gz@${start}:${warc.length}`,
      `pages/pages.jsonl@${start + 30 + 20 + 20 + warc.length}:${pages.length}`,
    ]);

    const archive = await openArchive(file, 'big.wacz');
    assert.equal(archive.format, 'wacz');
    assert.equal(archive.wacz?.entry('archive/data.warc.gz')?.localHeaderOffset, start);
    const records = await collect(archive.records());
    const direct = await collect(readWarc(warc, { fileName: 'example.warc.gz' }));
    assert.deepEqual(records.map(shape), direct.map(shape));
    assert.deepEqual(
      (await collect(archive.wacz?.pages() ?? [])).map((p) => p.url),
      ['http://example.com/'],
    );
  });
});

describe('a WACZ cut short, or no WACZ at all', () => {
  it('says a cut WACZ is cut, naming the file and where it ends', TIMEOUT, async () => {
    const { context } = countingContext();
    const zip = new Uint8Array(await collectBytes(writeWacz(fixtureSource(), context)));
    for (const cut of [100, Math.floor(zip.length / 2), zip.length - 30, zip.length - 1]) {
      const error = await openArchive(blobOf(zip.subarray(0, cut)), 'cut.wacz').then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(error instanceof ArchiveReadError, `cut at ${cut}`);
      assert.equal(error.kind, 'truncated');
      assert.equal(
        error.message,
        `cut.wacz: the zip has no central directory at its end: the file is cut short or damaged (at byte ${cut})`,
      );
    }
  });

  it(
    'says a zip without WARCs is not a WACZ, and reads a non-zip file as a WARC (which then says it is not one)',
    TIMEOUT,
    async () => {
      const zip = await clientZip([{ name: 'notes.txt', input: new TextEncoder().encode('hello') }]);
      const error = await openArchive(blobOf(zip), 'notes.zip').then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(error instanceof ArchiveReadError);
      assert.equal(error.kind, 'not-archive');
      assert.match(
        error.message,
        /^notes\.zip: this zip holds no WARC in archive\/: not a WACZ \(it holds 1 entries, e\.g\. notes\.txt\)/,
      );

      const pdf = await openArchive(blobOf(new TextEncoder().encode('%PDF-1.7\n')), 'paper.pdf');
      assert.equal(pdf.format, 'warc');
      const notWarc = await collect(pdf.records()).then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(notWarc instanceof ArchiveReadError);
      assert.equal(notWarc.kind, 'not-warc');
      assert.match(notWarc.message, /^paper\.pdf: this is not a WARC file: it starts with "%PDF-1\.7" \(at byte 0\)$/);

      const empty = await openArchive(blobOf(new Uint8Array(0)), 'empty.warc').then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(empty instanceof ArchiveReadError);
      assert.equal(empty.message, 'empty.warc: the file is empty: not a WARC or WACZ (at byte 0)');
    },
  );
});

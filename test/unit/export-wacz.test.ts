import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, test } from 'node:test';
import { type Entry, fromBufferPromise } from 'yauzl';
import { surt } from '../../src/export/surt.ts';
import { writeWacz } from '../../src/export/wacz.ts';
import type { NotCrawledUrl } from '../../src/core/model.ts';
import { checkRowsArchived, checkWacz } from '../support/archive-checks.ts';
import {
  CDN_ORIGIN,
  FIXTURE_CRAWL,
  FIXTURE_ORIGIN,
  FIXTURE_START,
  fixtureRowsWithResources,
  externalFixtureRows,
  OTHER_GET,
  OTHER_HEAD,
  OTHER_MOVED,
  collectBytes,
  countingContext,
  fixtureRows,
  fixtureSource,
  readWarcRecords,
} from '../support/export-fixtures.ts';

const sha256Label = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const url = (path: string): string => `${FIXTURE_ORIGIN}${path}`;

interface ZipEntry {
  name: string;
  compressionMethod: number;
  /** Where the entry's data starts in the zip file (what a range reader seeks to). */
  dataStart: number;
  data: Buffer;
}

interface Unzipped {
  zip: Buffer;
  entries: ZipEntry[];
  rowsCounted: number;
}

/** The fixture as a WACZ, unzipped with yauzl. */
async function unzipWacz(source = fixtureSource()): Promise<Unzipped> {
  const { context, rowsCounted } = countingContext();
  const zip = await collectBytes(writeWacz(source, context));
  const file = await fromBufferPromise(zip, { lazyEntries: true });
  const entries: ZipEntry[] = [];
  for await (const entry of file.eachEntry()) entries.push(await readEntry(file, entry));
  return { zip, entries, rowsCounted: rowsCounted() };
}

async function readEntry(file: Awaited<ReturnType<typeof fromBufferPromise>>, entry: Entry): Promise<ZipEntry> {
  const { fileDataStart } = await file.readLocalFileHeaderPromise(entry, { minimal: true });
  const stream = await file.openReadStreamPromise(entry);
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part as Uint8Array));
  return {
    name: entry.fileName,
    compressionMethod: entry.compressionMethod,
    dataStart: fileDataStart,
    data: Buffer.concat(parts),
  };
}

function entryOf(unzipped: Unzipped, name: string): ZipEntry {
  const entry = unzipped.entries.find((e) => e.name === name);
  assert.ok(entry, `${name} is in the WACZ`);
  return entry;
}

function jsonOf(unzipped: Unzipped, name: string): Record<string, unknown> {
  return JSON.parse(entryOf(unzipped, name).data.toString('utf8')) as Record<string, unknown>;
}

interface IndexLine {
  key: string;
  timestamp: string;
  fields: Record<string, string>;
}

function indexLines(unzipped: Unzipped): IndexLine[] {
  const text = entryOf(unzipped, 'indexes/index.cdxj').data.toString('utf8');
  assert.ok(text === '' || text.endsWith('\n'));
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [key = '', timestamp = ''] = line.split(' ', 2);
      return {
        key,
        timestamp,
        fields: JSON.parse(line.slice(key.length + timestamp.length + 2)) as Record<string, string>,
      };
    });
}

function pageLines(unzipped: Unzipped): Record<string, unknown>[] {
  const text = entryOf(unzipped, 'pages/pages.jsonl').data.toString('utf8');
  assert.ok(text.endsWith('\n'));
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('writeWacz', () => {
  test('holds the WACZ 1.1.1 files, every one stored uncompressed', async () => {
    const unzipped = await unzipWacz();
    assert.deepEqual(unzipped.entries.map((e) => e.name).sort(), [
      'archive/data.warc.gz',
      'datapackage-digest.json',
      'datapackage.json',
      'indexes/index.cdxj',
      'pages/pages.jsonl',
      'tabcrawl/crawl.json',
      'tabcrawl/not-crawled.jsonl.gz',
      'tabcrawl/rows.jsonl.gz',
    ]);
    for (const entry of unzipped.entries) assert.equal(entry.compressionMethod, 0, `${entry.name} is STORED`);
  });

  test('datapackage.json lists every other file with its true size and SHA-256', async () => {
    const unzipped = await unzipWacz();
    const datapackage = jsonOf(unzipped, 'datapackage.json');
    assert.equal(datapackage['profile'], 'data-package');
    assert.equal(datapackage['wacz_version'], '1.1.1');
    assert.equal(datapackage['software'], 'Tabcrawl 0.1.0-test');
    assert.equal(datapackage['created'], countingContext().context.now.toISOString());
    assert.equal(datapackage['mainPageUrl'], FIXTURE_START);
    assert.equal(datapackage['mainPageDate'], '2026-03-01T10:00:01.250Z');
    assert.equal(typeof datapackage['title'], 'string');
    const resources = datapackage['resources'] as { name: string; path: string; hash: string; bytes: number }[];
    assert.deepEqual(resources.map((r) => r.path).sort(), [
      'archive/data.warc.gz',
      'indexes/index.cdxj',
      'pages/pages.jsonl',
      'tabcrawl/crawl.json',
      'tabcrawl/not-crawled.jsonl.gz',
      'tabcrawl/rows.jsonl.gz',
    ]);
    for (const resource of resources) {
      const entry = entryOf(unzipped, resource.path);
      assert.equal(resource.name, resource.path.split('/').at(-1));
      assert.equal(resource.bytes, entry.data.byteLength, `size of ${resource.path}`);
      assert.equal(resource.hash, sha256Label(entry.data), `hash of ${resource.path}`);
    }
  });

  test('datapackage-digest.json holds the SHA-256 of datapackage.json', async () => {
    const unzipped = await unzipWacz();
    assert.deepEqual(jsonOf(unzipped, 'datapackage-digest.json'), {
      path: 'datapackage.json',
      hash: sha256Label(entryOf(unzipped, 'datapackage.json').data),
    });
  });

  test('the archive parses, record by record, as a gzip-per-record WARC', async () => {
    const unzipped = await unzipWacz();
    const records = await readWarcRecords(entryOf(unzipped, 'archive/data.warc.gz').data);
    assert.equal(records[0]?.type, 'warcinfo');
    assert.equal(records.filter((r) => r.type === 'response' || r.type === 'revisit').length, 11);
    assert.equal(records.filter((r) => r.type === 'metadata').length, 2);
  });

  test('has one index line per response and revisit record, redirects and errors included', async () => {
    const lines = indexLines(await unzipWacz());
    const fetched = fixtureRows().filter((row) => row.status !== null);
    assert.deepEqual(lines.map((l) => l.fields['url']).sort(), fetched.map((row) => row.url).sort());
    const status = (path: string): string | undefined =>
      lines.find((l) => l.fields['url'] === url(path))?.fields['status'];
    assert.equal(status('/old'), '301');
    assert.equal(status('/missing'), '404');
  });

  test('every index line cuts, from the archive and from the WACZ itself, one gzip member holding that capture', async () => {
    const unzipped = await unzipWacz();
    const archive = entryOf(unzipped, 'archive/data.warc.gz');
    for (const line of indexLines(unzipped)) {
      const offset = Number(line.fields['offset']);
      const length = Number(line.fields['length']);
      assert.equal(line.fields['filename'], 'data.warc.gz');
      const member = archive.data.subarray(offset, offset + length);
      // What ReplayWeb.page does: a range of the .wacz file, at the entry's data start plus the offset.
      assert.deepEqual(unzipped.zip.subarray(archive.dataStart + offset, archive.dataStart + offset + length), member);
      const records = await readWarcRecords(gunzipSync(member));
      assert.equal(records.length, 1);
      const [record] = records;
      assert.ok(record);
      assert.equal(record.field('WARC-Target-URI'), line.fields['url']);
      assert.equal(record.type, line.fields['mime'] === 'warc/revisit' ? 'revisit' : 'response');
      assert.equal(record.field('WARC-Payload-Digest'), line.fields['digest']);
      assert.equal(record.field('WARC-Date')?.replace(/\D/g, '').slice(0, 14), line.timestamp);
      assert.equal(record.startLine?.split(' ')[1], line.fields['status']);
    }
  });

  test('index lines are keyed by SURT and sorted by key, then timestamp', async () => {
    const lines = indexLines(await unzipWacz());
    for (const line of lines) {
      const method = line.fields['method'];
      const lineUrl = line.fields['url'] ?? '';
      const expected = method === undefined ? surt(lineUrl) : surt(`${lineUrl}?__wb_method=${method.toLowerCase()}`);
      assert.equal(line.key, expected);
      assert.match(line.timestamp, /^\d{14}$/);
    }
    const order = lines.map((l) => [l.key, l.timestamp]);
    const sorted = [...order].sort((a, b) => (a.join(' ') < b.join(' ') ? -1 : a.join(' ') > b.join(' ') ? 1 : 0));
    assert.deepEqual(order, sorted);
    assert.equal(lines.find((l) => l.fields['url'] === url('/list?b=2&a=1'))?.key, 'com,example)/list?a=1&b=2');
  });

  test('index lines give mime, warc/revisit for revisits, and the method of a HEAD capture', async () => {
    const lines = indexLines(await unzipWacz());
    const fields = (path: string): Record<string, string> | undefined =>
      lines.find((l) => l.fields['url'] === url(path))?.fields;
    assert.equal(fields('/')?.['mime'], 'text/html');
    assert.equal(fields('/report.pdf')?.['mime'], 'application/pdf');
    assert.equal(fields('/copy')?.['mime'], 'warc/revisit');
    assert.equal(fields('/file.zip')?.['method'], 'HEAD');
    assert.equal(fields('/')?.['method'], undefined);
  });

  test('pages.jsonl starts with its header and lists each HTML page answered 2xx, dated like its record', async () => {
    const unzipped = await unzipWacz();
    const [header, ...pages] = pageLines(unzipped);
    assert.deepEqual(header, { format: 'json-pages-1.0', id: 'pages', title: 'All Pages' });
    assert.deepEqual(
      pages.map((p) => p['url']),
      ['/', '/cp1252', '/gz', '/copy', '/list?b=2&a=1', '/big', '/head-then-get'].map(url),
    );
    assert.equal(new Set(pages.map((p) => p['id'])).size, pages.length, 'page ids are unique');
    const records = await readWarcRecords(entryOf(unzipped, 'archive/data.warc.gz').data);
    for (const page of pages) {
      const record = records.find(
        (r) => (r.type === 'response' || r.type === 'revisit') && r.field('WARC-Target-URI') === page['url'],
      );
      assert.equal(page['ts'], record?.field('WARC-Date'));
    }
    assert.equal(pages[1]?.['title'], 'Café');
    assert.equal('title' in (pages[6] ?? {}), false, 'no title when the page had none');
  });

  test("carries Tabcrawl's own files: the crawl record and every row as stored, in seq order, for an import", async () => {
    const source = fixtureSource();
    const unzipped = await unzipWacz(source);
    const file = jsonOf(unzipped, 'tabcrawl/crawl.json');
    assert.equal(file['format'], 'tabcrawl-crawl-1');
    assert.equal(file['software'], 'Tabcrawl 0.1.0-test');
    assert.deepEqual(file['crawl'], JSON.parse(JSON.stringify(source.crawl)));
    assert.deepEqual(file['rows'], { path: 'tabcrawl/rows.jsonl.gz', count: fixtureRows().length });
    const lines = gunzipSync(entryOf(unzipped, 'tabcrawl/rows.jsonl.gz').data).toString('utf8').trimEnd().split('\n');
    assert.deepEqual(
      lines.map((line) => JSON.parse(line) as unknown),
      JSON.parse(JSON.stringify(fixtureRows())),
    );
  });

  test('carries the URLs the crawl left unvisited, in the order given, and an empty file when there are none', async () => {
    const left: NotCrawledUrl[] = [
      { crawlId: FIXTURE_CRAWL.id, url: `${FIXTURE_START}deep`, reason: 'depth', depth: 21, referrer: FIXTURE_START },
      { crawlId: FIXTURE_CRAWL.id, url: `${FIXTURE_START}more`, reason: 'page-limit', depth: 1, referrer: null },
    ];
    const source = {
      ...fixtureSource(),
      async *notCrawled() {
        yield* left;
      },
    };
    const unzipped = await unzipWacz(source);
    assert.deepEqual(jsonOf(unzipped, 'tabcrawl/crawl.json')['notCrawled'], {
      path: 'tabcrawl/not-crawled.jsonl.gz',
      count: 2,
    });
    const lines = gunzipSync(entryOf(unzipped, 'tabcrawl/not-crawled.jsonl.gz').data)
      .toString('utf8')
      .trimEnd()
      .split('\n');
    assert.deepEqual(
      lines.map((line) => JSON.parse(line) as unknown),
      left,
    );

    const none = await unzipWacz(fixtureSource());
    assert.deepEqual(jsonOf(none, 'tabcrawl/crawl.json')['notCrawled'], {
      path: 'tabcrawl/not-crawled.jsonl.gz',
      count: 0,
    });
    assert.equal(gunzipSync(entryOf(none, 'tabcrawl/not-crawled.jsonl.gz').data).byteLength, 0);
  });

  test('calls onRow once per row', async () => {
    assert.equal((await unzipWacz()).rowsCounted, fixtureRows().length);
  });

  test('an empty crawl still makes a complete WACZ', async () => {
    const unzipped = await unzipWacz(fixtureSource([]));
    assert.deepEqual(indexLines(unzipped), []);
    assert.equal(pageLines(unzipped).length, 1);
    const datapackage = jsonOf(unzipped, 'datapackage.json');
    assert.equal(datapackage['mainPageUrl'], FIXTURE_START);
    assert.equal('mainPageDate' in datapackage, false);
    const records = await readWarcRecords(entryOf(unzipped, 'archive/data.warc.gz').data);
    assert.deepEqual(
      records.map((r) => r.type),
      ['warcinfo'],
    );
  });

  test('indexes every capture of a crawl with resources, files and a sitemap, and lists only its pages in pages.jsonl', async () => {
    const rows = fixtureRowsWithResources();
    const unzipped = await unzipWacz(fixtureSource(rows));
    const lines = indexLines(unzipped);
    const indexed = (path: string): Record<string, string> | undefined =>
      lines.find((l) => l.fields['url'] === (path.startsWith('http') ? path : url(path)))?.fields;
    assert.equal(indexed('/s/site.css')?.['mime'], 'text/css');
    assert.equal(indexed('/img/logo.png')?.['mime'], 'image/png');
    assert.equal(indexed('/img/logo-copy.png')?.['mime'], 'warc/revisit');
    assert.equal(indexed('/img/missing.png')?.['status'], '404');
    assert.equal(indexed('/manual.pdf')?.['mime'], 'application/pdf');
    assert.equal(indexed('/sitemap.xml')?.['mime'], 'application/xml');
    assert.equal(indexed(`${CDN_ORIGIN}/font.woff2`), undefined, 'a failed resource is no capture');
    const pages = pageLines(unzipped)
      .slice(1)
      .map((p) => p['url']);
    assert.ok(pages.includes(url('/styled')));
    // An image URL answered with HTML is a resource, not a page.
    assert.equal(pages.includes(url('/img/soft404.png')), false);

    // The same, as independent readers check it.
    const checked = await checkWacz(unzipped.zip);
    checkRowsArchived(checked, rows);
  });

  test('indexes no capture of a link to another site checked with GET (its body never read): replay finds it not archived, as a HEAD check', async () => {
    const rows = [...fixtureRows(), ...externalFixtureRows()];
    const unzipped = await unzipWacz(fixtureSource(rows));
    const lines = indexLines(unzipped);
    assert.deepEqual(
      lines.filter((l) => l.fields['url'] === OTHER_GET || l.fields['url'] === OTHER_MOVED),
      [],
    );
    const head = lines.filter((l) => l.fields['url'] === OTHER_HEAD);
    assert.deepEqual(
      head.map((l) => [l.key.endsWith('__wb_method=head'), l.fields['method']]),
      [[true, 'HEAD']],
    );
    assert.equal(
      pageLines(unzipped).some((p) => p['url'] === OTHER_GET),
      false,
    );
    checkRowsArchived(await checkWacz(unzipped.zip), rows);
  });
});

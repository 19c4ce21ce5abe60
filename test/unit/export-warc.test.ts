import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, test } from 'node:test';
import type { PageRecord } from '../../src/core/model.ts';
import { checkWarc, checkRowsArchived } from '../support/archive-checks.ts';
import { archivedResponseHeaders, httpText, statusLineOf } from '../../src/export/warc-http.ts';
import { REVISIT_PROFILE, warcRecords, writeWarc, writeWarcGz } from '../../src/export/warc.ts';
import { gzipMember } from '../../src/export/gzip-member.ts';
import {
  BIG_BODY,
  CDN_ORIGIN,
  CSS_BODY,
  PDF_BODY,
  PNG_BODY,
  SITEMAP_BODY,
  SOFT_404_BODY,
  STYLED_BODY,
  VIDEO_PART,
  fixtureRowsWithResources,
  CP1252_BODY,
  FIXTURE_ORIGIN,
  FIXTURE_START,
  GZ_BODY,
  OTHER_GET,
  OTHER_HEAD,
  OTHER_MOVED,
  externalFixtureRows,
  HOME_BODY,
  LIST_BODY,
  NOT_FOUND_BODY,
  type ReadRecord,
  collectBytes,
  countingContext,
  fixtureRows,
  fixtureSource,
  readWarcRecords,
  sha256Hex,
} from '../support/export-fixtures.ts';

const sha256Label = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const url = (path: string): string => `${FIXTURE_ORIGIN}${path}`;

/** The fixture written by `writer`, read back with warcio.js. */
async function writtenRecords(
  writer: typeof writeWarc,
  rows?: PageRecord[],
): Promise<{ bytes: Buffer; records: ReadRecord[]; rowsCounted: number }> {
  const { context, rowsCounted } = countingContext();
  const bytes = await collectBytes(writer(fixtureSource(rows), context));
  return { bytes, records: await readWarcRecords(bytes), rowsCounted: rowsCounted() };
}

/** The one record of `type` for `target`. */
function recordOf(records: ReadRecord[], type: string, target: string): ReadRecord {
  const found = records.filter((r) => r.type === type && r.field('WARC-Target-URI') === target);
  assert.equal(found.length, 1, `one ${type} record for ${target}`);
  const [record] = found;
  assert.ok(record);
  return record;
}

function payloadOf(record: ReadRecord): Uint8Array {
  assert.ok(record.payload, `${record.type} ${record.field('WARC-Target-URI')} has a payload`);
  return record.payload;
}

function httpOf(record: ReadRecord): Headers {
  assert.ok(record.http, `${record.type} ${record.field('WARC-Target-URI')} has HTTP headers`);
  return record.http;
}

/** `name: value` lines of an application/warc-fields block. */
function warcFields(block: Uint8Array): [string, string][] {
  return new TextDecoder()
    .decode(block)
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line): [string, string] => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon), line.slice(colon + 1).trim()];
    });
}

/** Type and target of every record a reader should find, in file order. */
const EXPECTED_SEQUENCE: [string, string | null][] = [
  ['warcinfo', null],
  ['request', url('/')],
  ['response', url('/')],
  ['request', url('/cp1252')],
  ['response', url('/cp1252')],
  ['request', url('/gz')],
  ['response', url('/gz')],
  ['request', url('/old')],
  ['response', url('/old')],
  ['request', url('/missing')],
  ['response', url('/missing')],
  ['request', url('/report.pdf')],
  ['response', url('/report.pdf')],
  ['request', url('/copy')],
  ['revisit', url('/copy')],
  ['metadata', url('/private/x')],
  ['metadata', url('/slow')],
  ['request', url('/file.zip')],
  ['response', url('/file.zip')],
  ['request', url('/list?b=2&a=1')],
  ['response', url('/list?b=2&a=1')],
  ['request', url('/big')],
  ['response', url('/big')],
  ['request', url('/head-then-get')],
  ['revisit', url('/head-then-get')],
];

for (const [name, writer] of [
  ['writeWarcGz', writeWarcGz],
  ['writeWarc', writeWarc],
] as const) {
  describe(name, () => {
    test('writes warcinfo first, then a request and its answer per fetched row and metadata for the others, in row order', async () => {
      const { records } = await writtenRecords(writer);
      assert.deepEqual(
        records.map((r) => [r.type, r.field('WARC-Target-URI')]),
        EXPECTED_SEQUENCE,
      );
      for (const record of records) assert.match(record.field('WARC-Record-ID') ?? '', /^<urn:uuid:[0-9a-f-]{36}>$/);
      assert.equal(
        new Set(records.map((r) => r.field('WARC-Record-ID'))).size,
        records.length,
        'record ids are unique',
      );
    });

    test('every Content-Length and WARC-Block-Digest matches the record block', async () => {
      const { records } = await writtenRecords(writer);
      for (const record of records) {
        assert.equal(Number(record.field('Content-Length')), record.block.byteLength);
        assert.equal(
          record.field('WARC-Block-Digest'),
          sha256Label(record.block),
          `${record.type} ${record.field('WARC-Target-URI')}`,
        );
      }
    });

    test('every response WARC-Payload-Digest matches its payload, and each revisit carries its original payload digest', async () => {
      const { records } = await writtenRecords(writer);
      for (const record of records.filter((r) => r.type === 'response')) {
        assert.equal(record.field('WARC-Payload-Digest'), sha256Label(payloadOf(record)));
      }
      assert.equal(recordOf(records, 'revisit', url('/copy')).field('WARC-Payload-Digest'), sha256Label(HOME_BODY));
      assert.equal(
        recordOf(records, 'revisit', url('/head-then-get')).field('WARC-Payload-Digest'),
        sha256Label(LIST_BODY),
      );
    });

    test('stores each body byte for byte: UTF-8, windows-1252, decoded gzip, 404 page, cut body', async () => {
      const { records } = await writtenRecords(writer);
      const expected: [string, Uint8Array][] = [
        ['/', HOME_BODY],
        ['/cp1252', CP1252_BODY],
        ['/gz', GZ_BODY],
        ['/missing', NOT_FOUND_BODY],
        ['/list?b=2&a=1', LIST_BODY],
        ['/big', BIG_BODY],
      ];
      for (const [path, body] of expected) {
        assert.deepEqual(Buffer.from(payloadOf(recordOf(records, 'response', url(path)))), Buffer.from(body), path);
      }
    });

    test('links each request and its answer both ways with WARC-Concurrent-To, with the same date and target', async () => {
      const { records } = await writtenRecords(writer);
      const byId = new Map(records.map((r) => [r.field('WARC-Record-ID'), r]));
      const requests = records.filter((r) => r.type === 'request');
      assert.equal(requests.length, 11);
      for (const request of requests) {
        const answer = byId.get(request.field('WARC-Concurrent-To'));
        assert.ok(answer, `the answer of ${request.field('WARC-Target-URI')}`);
        assert.ok(answer.type === 'response' || answer.type === 'revisit');
        assert.equal(answer.field('WARC-Concurrent-To'), request.field('WARC-Record-ID'));
        assert.equal(answer.field('WARC-Target-URI'), request.field('WARC-Target-URI'));
        assert.equal(answer.field('WARC-Date'), request.field('WARC-Date'));
      }
    });

    test('dates records with the request start, ISO 8601 in UTC with milliseconds', async () => {
      const { records } = await writtenRecords(writer);
      const rows = fixtureRows();
      for (const record of records.filter((r) => r.type !== 'warcinfo')) {
        const row = rows.find((r) => r.url === record.field('WARC-Target-URI'));
        assert.ok(row);
        const expected = new Date(row.fetchedAt ?? countingContext().context.now.getTime()).toISOString();
        assert.equal(record.field('WARC-Date'), expected);
      }
      assert.equal(recordOf(records, 'response', url('/')).field('WARC-Date'), '2026-03-01T10:00:01.250Z');
    });

    test('a body served with content-encoding gzip is archived with the encoding renamed and the decoded length', async () => {
      const { records } = await writtenRecords(writer);
      const http = httpOf(recordOf(records, 'response', url('/gz')));
      assert.equal(http.has('content-encoding'), false);
      assert.equal(http.get('x-orig-content-encoding'), 'gzip');
      assert.equal(http.get('content-length'), String(GZ_BODY.byteLength));
      assert.equal(http.get('x-orig-content-length'), '93');
      assert.equal(http.get('vary'), 'accept-encoding');
    });

    test('a chunked answer is archived without transfer-encoding and with its real length', async () => {
      const { records } = await writtenRecords(writer);
      const record = recordOf(records, 'response', url('/missing'));
      const http = httpOf(record);
      assert.equal(http.has('transfer-encoding'), false);
      assert.equal(http.get('x-orig-transfer-encoding'), 'chunked');
      assert.equal(http.get('content-length'), String(NOT_FOUND_BODY.byteLength));
      assert.equal(http.has('x-orig-content-length'), false);
      assert.equal(record.startLine, 'HTTP/1.1 404 Not Found');
    });

    test('keeps a matching content-length as it is and every header in order, repeated ones included', async () => {
      const { records } = await writtenRecords(writer);
      const http = httpOf(recordOf(records, 'response', url('/')));
      assert.equal(http.get('content-length'), String(HOME_BODY.byteLength));
      assert.equal(http.has('x-orig-content-length'), false);
      assert.deepEqual(http.getSetCookie(), ['a=1', 'b=2']);
    });

    test('marks bodies cut or not downloaded with WARC-Truncated: length, and nothing else', async () => {
      const { records } = await writtenRecords(writer);
      const truncated = records
        .filter((r) => r.field('WARC-Truncated') !== null)
        .map((r) => [r.field('WARC-Target-URI'), r.field('WARC-Truncated')]);
      assert.deepEqual(truncated, [
        [url('/old'), 'length'],
        [url('/report.pdf'), 'length'],
        [url('/big'), 'length'],
      ]);
      const pdf = httpOf(recordOf(records, 'response', url('/report.pdf')));
      assert.equal(payloadOf(recordOf(records, 'response', url('/report.pdf'))).byteLength, 0);
      assert.equal(pdf.get('content-length'), '0');
      assert.equal(pdf.get('x-orig-content-length'), '123456');
      const big = httpOf(recordOf(records, 'response', url('/big')));
      assert.equal(big.get('content-length'), String(BIG_BODY.byteLength));
      assert.equal(big.get('x-orig-content-length'), '5036');
    });

    test('a redirect keeps its status line and location, with an empty payload', async () => {
      const { records } = await writtenRecords(writer);
      const record = recordOf(records, 'response', url('/old'));
      assert.equal(record.startLine, 'HTTP/1.1 301 Moved Permanently');
      assert.equal(httpOf(record).get('location'), url('/new'));
      assert.equal(payloadOf(record).byteLength, 0);
    });

    test('a HEAD-only answer keeps its headers as served, with an empty payload and no truncation mark', async () => {
      const { records } = await writtenRecords(writer);
      const request = recordOf(records, 'request', url('/file.zip'));
      assert.equal(request.startLine, 'HEAD /file.zip HTTP/1.1');
      const response = recordOf(records, 'response', url('/file.zip'));
      assert.equal(payloadOf(response).byteLength, 0);
      assert.equal(httpOf(response).get('content-length'), '999999');
      assert.equal(response.field('WARC-Truncated'), null);
    });

    test('request records use the last method, the path and query, and the reported or reconstructed headers', async () => {
      const { records } = await writtenRecords(writer);
      const home = recordOf(records, 'request', url('/'));
      assert.equal(home.startLine, 'GET / HTTP/1.1');
      assert.equal(httpOf(home).get('host'), 'example.com');
      assert.equal(
        httpOf(home).get('user-agent'),
        'Mozilla/5.0 (compatible; tabcrawl/0.1.0; +https://tabcrawl.invalid/)',
      );
      assert.equal(httpOf(home).get('accept'), '*/*');
      const list = recordOf(records, 'request', url('/list?b=2&a=1'));
      assert.equal(list.startLine, 'GET /list?b=2&a=1 HTTP/1.1');
      assert.equal(httpOf(list).get('host'), 'example.com');
      assert.equal(httpOf(list).get('user-agent'), 'Mozilla/5.0 (compatible; Tabcrawl 0.1.0-test)');
      assert.equal(recordOf(records, 'request', url('/head-then-get')).startLine, 'GET /head-then-get HTTP/1.1');
      for (const request of records.filter((r) => r.type === 'request')) {
        assert.equal(request.field('Content-Type'), 'application/http;msgtype=request');
        assert.equal(payloadOf(request).byteLength, 0);
      }
    });

    test('writes WARC-IP-Address only when the browser reported it', async () => {
      const { records } = await writtenRecords(writer);
      assert.equal(recordOf(records, 'request', url('/')).field('WARC-IP-Address'), '93.184.215.14');
      assert.equal(recordOf(records, 'response', url('/')).field('WARC-IP-Address'), '93.184.215.14');
      assert.equal(recordOf(records, 'response', url('/cp1252')).field('WARC-IP-Address'), null);
    });

    test('uses the reported status line, else HTTP/1.1 with the standard reason phrase', async () => {
      const { records } = await writtenRecords(writer);
      assert.equal(recordOf(records, 'response', url('/gz')).startLine, 'HTTP/1.1 200 OK');
      assert.equal(recordOf(records, 'response', url('/cp1252')).startLine, 'HTTP/1.1 200 OK');
      for (const response of records.filter((r) => r.type === 'response' || r.type === 'revisit')) {
        assert.equal(response.field('Content-Type'), 'application/http;msgtype=response');
      }
    });

    test('a duplicate body becomes a revisit of the first capture, with the HTTP headers only', async () => {
      const { records } = await writtenRecords(writer);
      const first = recordOf(records, 'response', FIXTURE_START);
      const revisit = recordOf(records, 'revisit', url('/copy'));
      assert.equal(revisit.field('WARC-Profile'), REVISIT_PROFILE);
      assert.equal(revisit.field('WARC-Refers-To-Target-URI'), FIXTURE_START);
      assert.equal(revisit.field('WARC-Refers-To-Date'), first.field('WARC-Date'));
      assert.equal(revisit.field('WARC-Refers-To'), first.field('WARC-Record-ID'));
      assert.equal(revisit.field('WARC-Payload-Digest'), first.field('WARC-Payload-Digest'));
      assert.equal(payloadOf(revisit).byteLength, 0);
      assert.equal(revisit.startLine, 'HTTP/1.1 200 OK');
      assert.equal(httpOf(revisit).get('content-length'), String(HOME_BODY.byteLength));
      const second = recordOf(records, 'revisit', url('/head-then-get'));
      assert.equal(second.field('WARC-Refers-To-Target-URI'), url('/list?b=2&a=1'));
      assert.equal(
        second.field('WARC-Refers-To-Date'),
        recordOf(records, 'response', url('/list?b=2&a=1')).field('WARC-Date'),
      );
    });

    test('URLs never answered appear only as metadata records that say why', async () => {
      const { records } = await writtenRecords(writer);
      for (const target of [url('/private/x'), url('/slow')]) {
        assert.deepEqual(
          records.filter((r) => r.field('WARC-Target-URI') === target).map((r) => r.type),
          ['metadata'],
        );
      }
      const blocked = recordOf(records, 'metadata', url('/private/x'));
      assert.equal(blocked.field('Content-Type'), 'application/warc-fields');
      assert.deepEqual(warcFields(blocked.block), [
        ['via', FIXTURE_START],
        ['blockedBy', 'robots'],
        ['rule', 'Disallow: /private'],
      ]);
      const failed = recordOf(records, 'metadata', url('/slow'));
      assert.deepEqual(warcFields(failed.block), [
        ['via', FIXTURE_START],
        ['error', 'timeout'],
        ['message', 'no answer within 30 s (second line)'],
        ['fetchTimeMs', '30000'],
      ]);
      assert.equal(failed.field('WARC-Date'), new Date(fixtureRows()[8]?.fetchedAt ?? 0).toISOString());
    });

    test('warcinfo names the software, the format and the crawl settings', async () => {
      const { records } = await writtenRecords(writer);
      const [info] = records;
      assert.ok(info);
      assert.equal(info.field('Content-Type'), 'application/warc-fields');
      assert.equal(info.field('WARC-Date'), countingContext().context.now.toISOString());
      const fields = warcFields(info.block);
      const value = (name: string): string[] => fields.filter(([n]) => n === name).map(([, v]) => v);
      assert.deepEqual(value('software'), ['Tabcrawl 0.1.0-test']);
      assert.deepEqual(value('format'), ['WARC File Format 1.1']);
      assert.deepEqual(value('conformsTo'), [
        'http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
      ]);
      assert.deepEqual(value('isPartOf'), ['crawl-fixture']);
      assert.deepEqual(value('startUrl'), [FIXTURE_START]);
      assert.deepEqual(value('productToken'), ['tabcrawl']);
      assert.deepEqual(value('delayMs'), ['1000']);
      assert.deepEqual(value('includeSubdomains'), ['false']);
      assert.deepEqual(value('pathPrefix'), ['']);
      assert.deepEqual(value('excludePattern'), ['*/logout*', '*?sessionid=*']);
      assert.deepEqual(value('extraOrigin'), []);
      assert.deepEqual(value('withCookies'), ['false']);
      assert.deepEqual(value('maxPages'), ['500']);
      assert.deepEqual(value('maxDepth'), ['20']);
      assert.deepEqual(value('archiveResources'), ['true']);
      assert.deepEqual(value('downloadFiles'), ['true']);
      assert.deepEqual(value('maxFileBytes'), [String(50 * 1024 * 1024)]);
      assert.deepEqual(value('maxResources'), ['10000']);
      // Rendering auto (the default): the mode and its cap.
      assert.deepEqual(value('render'), ['auto']);
      assert.deepEqual(value('renderTimeoutMs'), ['15000']);
      for (const record of records.slice(1))
        assert.equal(record.field('WARC-Warcinfo-ID'), info.field('WARC-Record-ID'));
    });

    test('calls onRow once per row', async () => {
      const { rowsCounted } = await writtenRecords(writer);
      assert.equal(rowsCounted, fixtureRows().length);
    });

    test('writes a duplicate in full when its first capture is not in the file', async () => {
      const rows = fixtureRows().filter((row) => row.url !== FIXTURE_START);
      const { records } = await writtenRecords(writer, rows);
      const copy = recordOf(records, 'response', url('/copy'));
      assert.deepEqual(Buffer.from(payloadOf(copy)), Buffer.from(HOME_BODY));
      assert.equal(records.filter((r) => r.type === 'revisit').length, 1);
    });

    test('a stored body that cannot be read back leaves an empty payload marked WARC-Truncated: unspecified', async () => {
      const { context } = countingContext();
      const bytes = await collectBytes(writer(fixtureSource(fixtureRows(), new Map()), context));
      const records = await readWarcRecords(bytes);
      const home = recordOf(records, 'response', FIXTURE_START);
      assert.equal(payloadOf(home).byteLength, 0);
      assert.equal(home.field('WARC-Truncated'), 'unspecified');
      assert.equal(recordOf(records, 'response', url('/copy')).field('WARC-Truncated'), 'unspecified');
    });
  });
}

for (const [name, writer] of [
  ['writeWarcGz', writeWarcGz],
  ['writeWarc', writeWarc],
] as const) {
  describe(`${name}: page resources, linked files and sitemaps`, () => {
    const rows = fixtureRowsWithResources();

    test('writes every resource, file and sitemap with its full payload, and identical ones as revisits', async () => {
      const { records } = await writtenRecords(writer, rows);
      const expected: [string, Uint8Array][] = [
        [url('/styled'), STYLED_BODY],
        [url('/s/site.css'), CSS_BODY],
        [url('/img/logo.png'), PNG_BODY],
        [url('/img/soft404.png'), SOFT_404_BODY],
        [url('/manual.pdf'), PDF_BODY],
        [url('/video.mp4'), VIDEO_PART],
        [url('/sitemap.xml'), SITEMAP_BODY],
      ];
      for (const [target, body] of expected) {
        const response = recordOf(records, 'response', target);
        assert.deepEqual(Buffer.from(payloadOf(response)), Buffer.from(body), target);
        assert.equal(httpOf(response).get('content-length'), String(body.byteLength), target);
      }
      const copy = recordOf(records, 'revisit', url('/img/logo-copy.png'));
      assert.equal(copy.field('WARC-Refers-To-Target-URI'), url('/img/logo.png'));
      assert.equal(copy.field('WARC-Payload-Digest'), sha256Label(PNG_BODY));
      assert.equal(
        copy.field('WARC-Refers-To'),
        recordOf(records, 'response', url('/img/logo.png')).field('WARC-Record-ID'),
      );
    });

    test('marks as truncated only what was cut or not stored: a whole resource or file is not', async () => {
      const { records } = await writtenRecords(writer, rows);
      const truncated = records
        .filter((r) => r.field('WARC-Truncated') !== null)
        .map((r) => [r.field('WARC-Target-URI'), r.field('WARC-Truncated')]);
      assert.deepEqual(truncated, [
        [url('/old'), 'length'],
        [url('/report.pdf'), 'length'],
        [url('/big'), 'length'],
        // A 404 whose error page was not read, and a video cut at the largest file size.
        [url('/img/missing.png'), 'length'],
        [url('/video.mp4'), 'length'],
      ]);
      assert.equal(httpOf(recordOf(records, 'response', url('/video.mp4'))).get('x-orig-content-length'), '10000');
    });

    test('records a resource that failed or was blocked as metadata, never as a response', async () => {
      const { records } = await writtenRecords(writer, rows);
      for (const target of [`${CDN_ORIGIN}/font.woff2`, url('/private/pixel.gif')]) {
        assert.deepEqual(
          records.filter((r) => r.field('WARC-Target-URI') === target).map((r) => r.type),
          ['metadata'],
          target,
        );
      }
      assert.deepEqual(warcFields(recordOf(records, 'metadata', url('/private/pixel.gif')).block).slice(0, 2), [
        ['via', url('/styled')],
        ['blockedBy', 'robots'],
      ]);
    });

    test('holds one capture per fetched row, of every kind, as an independent reader checks it', async () => {
      const { bytes } = await writtenRecords(writer, rows);
      checkRowsArchived({ records: await checkWarc(bytes) }, rows);
    });
  });

  describe(`${name}: links to other sites, checked`, () => {
    const rows = [...fixtureRows(), ...externalFixtureRows()];

    test('a link checked with GET after a refused HEAD is a metadata record of the answer, never a response with an empty body', async () => {
      const { records } = await writtenRecords(writer, rows);
      assert.deepEqual(
        records.filter((r) => r.field('WARC-Target-URI') === OTHER_GET).map((r) => r.type),
        ['metadata'],
      );
      const record = recordOf(records, 'metadata', OTHER_GET);
      assert.equal(record.field('Content-Type'), 'application/warc-fields');
      assert.equal(record.field('WARC-Date'), '2026-03-01T10:00:52.500Z');
      assert.deepEqual(warcFields(record.block), [
        ['via', FIXTURE_START],
        ['method', 'HEAD'],
        ['method', 'GET'],
        ['status', '200'],
        ['contentType', 'text/html; charset=utf-8'],
        ['fetchTimeMs', '61'],
        ['body', 'not read'],
      ]);
      assert.deepEqual(warcFields(recordOf(records, 'metadata', OTHER_MOVED).block).slice(3, 5), [
        ['status', '301'],
        ['location', 'https://other.example/new'],
      ]);
    });

    test("a page of another site with a stored body (imported from a spanning crawler's archive) stays a capture", async () => {
      const [checked] = externalFixtureRows().filter((row) => row.url === OTHER_GET);
      assert.ok(checked);
      const captured = {
        ...checked,
        sha256: sha256Hex(LIST_BODY),
        contentLength: LIST_BODY.byteLength,
        truncated: false,
        source: 'archive' as const,
      };
      const bodies = new Map([[sha256Hex(LIST_BODY), LIST_BODY]]);
      const { context } = countingContext();
      const records = await readWarcRecords(
        await collectBytes(writer(fixtureSource([...fixtureRows().slice(0, 1), captured], bodies), context)),
      );
      assert.deepEqual(
        records.filter((r) => r.field('WARC-Target-URI') === OTHER_GET).map((r) => r.type),
        ['request', 'response'],
      );
      assert.deepEqual(Buffer.from(payloadOf(recordOf(records, 'response', OTHER_GET))), Buffer.from(LIST_BODY));
    });

    test('a link checked with HEAD keeps its request and its HEAD answer', async () => {
      const { records } = await writtenRecords(writer, rows);
      assert.deepEqual(
        records.filter((r) => r.field('WARC-Target-URI') === OTHER_HEAD).map((r) => r.type),
        ['request', 'response'],
      );
      assert.match(recordOf(records, 'request', OTHER_HEAD).startLine ?? '', /^HEAD /);
    });

    test('holds every row as an independent reader checks it', async () => {
      const { bytes } = await writtenRecords(writer, rows);
      checkRowsArchived({ records: await checkWarc(bytes) }, rows);
    });
  });
}

describe('writeWarcGz compression', () => {
  test('every record is its own gzip member that decompresses alone', async () => {
    const { bytes, records } = await writtenRecords(writeWarcGz);
    let end = 0;
    for (const record of records) {
      assert.equal(record.offset, end, 'members follow each other with no gap');
      const member = gunzipSync(bytes.subarray(record.offset, record.offset + record.length));
      assert.equal(member.subarray(0, 10).toString('latin1'), 'WARC/1.1\r\n');
      assert.equal(member.subarray(-4).toString('latin1'), '\r\n\r\n');
      end = record.offset + record.length;
    }
    assert.equal(end, bytes.byteLength);
  });

  test('warcRecords reports the offset and length of each member as a reader finds them', async () => {
    const { context } = countingContext();
    const placed = [];
    const chunks: Uint8Array[] = [];
    for await (const out of warcRecords(fixtureSource(), context, { gzip: true })) {
      if (out.kind === 'bytes') chunks.push(out.bytes);
      else
        placed.push(
          ...out.records.map((record) => ({ type: record.type, offset: record.offset, length: record.length })),
        );
    }
    const records = await readWarcRecords(Buffer.concat(chunks));
    assert.deepEqual(
      placed,
      records.map((r) => ({ type: r.type, offset: r.offset, length: r.length })),
    );
  });

  test('the plain WARC is the concatenation of the decompressed members', async () => {
    const { context } = countingContext();
    const gz = await collectBytes(writeWarcGz(fixtureSource(), context));
    const plain = await collectBytes(writeWarc(fixtureSource(), context));
    // Record ids are random; blocks hold none, so everything else (digests included) is equal.
    const strip = (text: string): string => text.replace(/<urn:uuid:[0-9a-f-]+>/g, '<id>');
    assert.equal(strip(gunzipSync(gz).toString('latin1')), strip(plain.toString('latin1')));
  });
});

describe('gzipMember', () => {
  test('gives a large body back as one gzip member, in chunks far smaller than the body, as the compressor yields them', async () => {
    const body = new Uint8Array(8 * 1024 * 1024);
    for (let i = 0; i < body.length; i += 65_536) body.set(randomBytes(65_536), i); // incompressible, like a PDF or an image
    const head = new TextEncoder().encode('WARC/1.1\r\n');
    const chunks: Uint8Array[] = [];
    for await (const chunk of gzipMember([head, body])) chunks.push(chunk);
    assert.ok(chunks.length > 8, `${chunks.length} chunks`);
    assert.ok(Math.max(...chunks.map((c) => c.byteLength)) < 1024 * 1024, 'no chunk near the size of the body');
    assert.deepEqual(gunzipSync(Buffer.concat(chunks)), Buffer.concat([head, body]));
  });
});

describe('archivedResponseHeaders', () => {
  test('renames encodings, fixes the length and keeps the served length when it differs', () => {
    const headers: [string, string][] = [
      ['content-type', 'text/html'],
      ['content-encoding', 'br'],
      ['transfer-encoding', 'chunked'],
      ['content-length', '10'],
    ];
    assert.deepEqual(archivedResponseHeaders(headers, 42), [
      ['content-type', 'text/html'],
      ['x-orig-content-encoding', 'br'],
      ['x-orig-transfer-encoding', 'chunked'],
      ['content-length', '42'],
      ['x-orig-content-length', '10'],
    ]);
  });

  test('adds a content-length when the server sent none', () => {
    assert.deepEqual(archivedResponseHeaders([['content-type', 'text/plain']], 0), [
      ['content-type', 'text/plain'],
      ['content-length', '0'],
    ]);
  });

  test('keeps a HEAD answer as served, dropping only names that are not tokens', () => {
    const headers: [string, string][] = [
      [':status', '200'],
      ['content-encoding', 'gzip'],
      ['content-length', '77'],
    ];
    assert.deepEqual(archivedResponseHeaders(headers, null), [
      ['content-encoding', 'gzip'],
      ['content-length', '77'],
    ]);
  });
});

describe('statusLineOf and httpText', () => {
  test('keeps a reported status line that agrees with the status', () => {
    assert.equal(statusLineOf(200, 'HTTP/1.1 200 OK'), 'HTTP/1.1 200 OK');
    assert.equal(statusLineOf(200, 'HTTP/2 200'), 'HTTP/2 200');
  });

  test('rebuilds a missing, malformed or contradicting status line', () => {
    assert.equal(statusLineOf(404, null), 'HTTP/1.1 404 Not Found');
    assert.equal(statusLineOf(404, 'HTTP/1.1 200 OK'), 'HTTP/1.1 404 Not Found');
    assert.equal(statusLineOf(418, 'teapot'), 'HTTP/1.1 418 ');
  });

  test('percent-encodes characters outside ASCII and blanks control characters', () => {
    assert.equal(httpText('attachment; filename="café.pdf"'), 'attachment; filename="caf%C3%A9.pdf"');
    assert.equal(httpText('a\r\nb\tc'), 'a  b\tc');
  });
});

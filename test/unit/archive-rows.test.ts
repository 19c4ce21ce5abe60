/**
 * From archive records to crawl rows (src/import/archive-rows.ts) and the
 * link walk that gives them depth, referrer, kind, inlinks and anchors
 * (src/import/link-graph.ts): on the fixture archives of other tools, on
 * records written here for what they lack, and on Tabcrawl's own WARC
 * export read back, field by field against the rows it was written from.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliDecompressSync } from 'node:zlib';
import type { PageRecord } from '../../src/core/model.ts';
import { DEFAULT_SETTINGS, type CrawlSettings } from '../../src/core/settings.ts';
import { writeWarcGz } from '../../src/export/warc.ts';
import { ArchiveRowBuilder, type ImportedRow, type ImportSummary } from '../../src/import/archive-rows.ts';
import { LinkGraph } from '../../src/import/link-graph.ts';
import { factsOf } from '../support/page-facts-fixture.ts';
import { readWarc, type WarcReadOptions } from '../../src/import/warc-reader.ts';
import {
  CSS_BODY,
  collectBytes,
  countingContext,
  externalFixtureRows,
  FIXTURE_START,
  fixtureBodies,
  fixtureRows,
  fixtureRowsWithResources,
  fixtureSource,
  HOME_BODY,
  OTHER_GET,
  OTHER_MOVED,
  sha256Hex,
} from '../support/export-fixtures.ts';
import { warcFixture } from '../support/warc-fixtures.ts';

const TIMEOUT = { timeout: 30_000 };

interface Imported {
  rows: ImportedRow[];
  summary: ImportSummary;
}

async function importRows(
  bytes: Uint8Array,
  startUrl = 'https://example.com/',
  options: Partial<WarcReadOptions> = {},
  settings: Partial<CrawlSettings> = {},
): Promise<Imported> {
  const builder = new ArchiveRowBuilder({
    crawlId: 'imported',
    settings: { ...DEFAULT_SETTINGS, startUrl, ...settings },
  });
  const rows: ImportedRow[] = [];
  for await (const record of readWarc(bytes, { fileName: 'test.warc', ...options }))
    rows.push(...(await builder.add(record)));
  rows.push(...(await builder.finish()));
  return { rows, summary: builder.summary };
}

const rowOf = (imported: Imported, url: string): PageRecord => {
  const found = imported.rows.find((r) => r.row.url === url);
  assert.ok(found, `a row for ${url}`);
  return found.row;
};

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

function warcRecord(type: string, uri: string, block: string | Uint8Array, extra: string[] = []): Uint8Array {
  const bytes = typeof block === 'string' ? text(block) : block;
  const head = text(
    [
      `WARC/1.0`,
      `WARC-Type: ${type}`,
      `WARC-Target-URI: ${uri}`,
      'WARC-Date: 2020-01-02T03:04:05Z',
      ...extra,
      `Content-Length: ${bytes.length}`,
      '',
      '',
    ].join('\r\n'),
  );
  return Uint8Array.from([...head, ...bytes, ...text('\r\n\r\n')]);
}

const join = (...parts: Uint8Array[]): Uint8Array => Uint8Array.from(parts.flatMap((part) => [...part]));

describe('rows from the fixture archives', () => {
  it(
    'example.warc.gz: one row for the URL captured twice (a response, then a revisit), with what the crawl reads of it',
    TIMEOUT,
    async () => {
      const imported = await importRows(warcFixture('example.warc.gz'), 'http://example.com/');
      assert.equal(imported.rows.length, 1);
      assert.equal(imported.summary.repeatCaptures, 1);
      const { row, body } = imported.rows[0] ?? assert.fail();
      assert.equal(row.url, 'http://example.com/');
      assert.equal(row.source, 'archive');
      assert.equal(row.seq, 1);
      assert.equal(row.status, 200);
      assert.equal(row.statusLine, 'HTTP/1.1 200 OK');
      assert.equal(row.contentType, 'text/html');
      assert.equal(row.contentLength, 606, 'the Content-Length served (of the gzipped body)');
      assert.equal(row.fetchedAt, Date.parse('2017-03-06T04:02:06Z'));
      assert.equal(row.responseTimeMs, null, 'the archive records none');
      assert.equal(row.title, 'Example Domain');
      assert.deepEqual(row.links, ['http://www.iana.org/domains/example']);
      assert.deepEqual(row.linkTexts, ['More information...']);
      assert.equal(row.facts?.h1, 'Example Domain');
      assert.deepEqual(row.methods, ['GET']);
      assert.ok(
        row.requestHeaders?.some(([name]) => name === 'user-agent'),
        'the request record gives the request headers',
      );
      assert.ok(body);
      assert.match(new TextDecoder().decode(body), /^<!doctype html>/i, 'the body is stored decoded (gunzipped)');
      assert.equal(row.sha256, sha256Hex(body));
      assert.ok(row.headers.every(([name]) => name === name.toLowerCase()));
    },
  );

  it('redirect.warc: a redirect with its absolute target, its body kept', TIMEOUT, async () => {
    const imported = await importRows(warcFixture('redirect.warc'));
    const row = rowOf(imported, 'https://www.iana.org/domains/example');
    assert.equal(row.status, 301);
    assert.equal(row.location, 'https://www.iana.org/domains/reserved');
    assert.equal(row.title, null, 'a 3xx body is stored, not read');
    assert.ok(row.sha256);
  });

  it('example-iana.org-chunked.warc: the body de-chunked, its links and resources read', TIMEOUT, async () => {
    const imported = await importRows(warcFixture('example-iana.org-chunked.warc'), 'http://www.iana.org/');
    const { row, body } = imported.rows[0] ?? assert.fail();
    assert.equal(row.title, 'Internet Assigned Numbers Authority');
    assert.ok(body && !/^[0-9a-f]+\r\n/.test(new TextDecoder().decode(body.subarray(0, 10))));
    assert.ok(row.links.includes('http://www.iana.org/domains'));
    assert.ok(row.resources.some((url) => url.endsWith('.css')));
    assert.equal(row.facts?.internalLinks, row.links.filter((url) => url.startsWith('http://www.iana.org/')).length);
  });

  it(
    'example-url-agnostic-revisit.warc.gz: a revisit of a capture not in the archive is a row without body or duplicateOf',
    TIMEOUT,
    async () => {
      const imported = await importRows(warcFixture('example-url-agnostic-revisit.warc.gz'));
      assert.equal(imported.summary.revisitsWithoutOriginal, 1);
      const { row, warnings } = imported.rows[0] ?? assert.fail();
      assert.equal(row.url, 'http://test@example.com/');
      assert.equal(row.status, 200);
      assert.equal(row.sha256, null);
      assert.equal(row.duplicateOf, null);
      assert.match(
        warnings.join(' '),
        /a revisit of http:\/\/example\.iana\.org\/ that is not in the archive before it/,
      );
    },
  );

  it(
    'example-iana.warc: a revisit of another URL is a duplicate of it, with its body; repeat captures are one row',
    TIMEOUT,
    async () => {
      const imported = await importRows(warcFixture('example-iana.warc'));
      const favicon = rowOf(imported, 'https://example.com/favicon.ico');
      const home = rowOf(imported, 'https://example.com/');
      assert.equal(favicon.status, 404);
      assert.equal(favicon.duplicateOf, 'https://example.com/');
      assert.equal(favicon.sha256, home.sha256);
      assert.equal(new Set(imported.rows.map((r) => r.row.url)).size, imported.rows.length, 'one row per URL');
      assert.ok(imported.summary.repeatCaptures > 30);
      assert.equal(favicon.kind, 'resource', 'Sec-Fetch-Dest: image in its request');
    },
  );

  it(
    "example-wget-bad-target-uri.warc.gz: wget's request, response and log records; only the http URL is a row",
    TIMEOUT,
    async () => {
      const imported = await importRows(warcFixture('example-wget-bad-target-uri.warc.gz'), 'http://example.com/');
      assert.deepEqual(
        imported.rows.map((r) => r.row.url),
        ['http://example.com/'],
      );
      assert.equal(imported.summary.skippedCaptures, 2, 'the two resource records of metadata:// URLs');
      assert.equal(imported.summary.otherMetadata, 1, "wget's MANIFEST.txt");
      assert.equal(
        rowOf(imported, 'http://example.com/')
          .requestHeaders?.find(([name]) => name === 'user-agent')?.[1]
          .startsWith('Wget'),
        true,
      );
    },
  );

  it(
    'example-collection-with-lists.warc: brotli bodies are not stored where they cannot be decoded, and are with a decoder',
    TIMEOUT,
    async () => {
      const bytes = warcFixture('example-collection-with-lists.warc');
      const plain = await importRows(bytes);
      const reserved = rowOf(plain, 'https://www.iana.org/domains/reserved');
      assert.equal(reserved.status, 200);
      if (plain.summary.bodiesNotDecoded > 0) {
        assert.equal(reserved.sha256, null);
        assert.equal(reserved.title, null);
      }
      const decoded = await importRows(bytes, 'https://example.com/', {
        decoders: { br: async (b) => new Uint8Array(brotliDecompressSync(b)) },
      });
      assert.equal(decoded.summary.bodiesNotDecoded, 0);
      const withBody = rowOf(decoded, 'https://www.iana.org/domains/reserved');
      assert.equal(withBody.title, 'IANA — IANA-managed Reserved Domains');
      assert.ok(withBody.links.length > 10);
      assert.ok(
        rowOf(decoded, 'https://www.iana.org/domains/example').requestHeaders,
        'a request written after its response (browsertrix-style) is paired',
      );
    },
  );

  it('example-bad-length.warc: the record with the wrong length still makes its row', TIMEOUT, async () => {
    const imported = await importRows(warcFixture('example-bad-length.warc'), 'http://example.com/');
    const { row, warnings } = imported.rows[0] ?? assert.fail();
    assert.equal(row.title, 'Example Domain');
    assert.match(warnings.join(' '), /Content-Length does not match its block/);
  });
});

describe('rows from records written here', () => {
  const page = (title: string, links: string) =>
    `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<!doctype html><title>${title}</title>${links}`;

  it(
    'takes a response time only from a metadata record (fetchTimeMs), and a Heritrix via as referrer',
    TIMEOUT,
    async () => {
      const archive = join(
        warcRecord('response', 'https://example.com/', page('Home', '<a href="/a">A</a>'), [
          'WARC-Record-ID: <urn:uuid:1>',
        ]),
        warcRecord(
          'metadata',
          'https://example.com/',
          'via: https://example.com/seed\r\nhopsFromSeed: L\r\nfetchTimeMs: 123\r\n',
          ['WARC-Record-ID: <urn:uuid:2>', 'WARC-Concurrent-To: <urn:uuid:1>', 'Content-Type: application/warc-fields'],
        ),
        warcRecord('response', 'https://example.com/a', page('A', ''), ['WARC-Record-ID: <urn:uuid:3>']),
      );
      const imported = await importRows(archive);
      assert.equal(rowOf(imported, 'https://example.com/').responseTimeMs, 123);
      assert.equal(rowOf(imported, 'https://example.com/').referrer, 'https://example.com/seed');
      assert.equal(rowOf(imported, 'https://example.com/a').responseTimeMs, null);
      assert.equal(imported.summary.otherMetadata, 0);
    },
  );

  it('keeps the failure code of a host that does not resolve or refuses connections', TIMEOUT, async () => {
    const failed = (url: string, code: string) =>
      warcRecord('metadata', url, `error: ${code}\r\nmessage: ${code} it was\r\n`, [
        'Content-Type: application/warc-fields',
      ]);
    const archive = join(failed('http://dead.invalid/x', 'dns'), failed('http://127.0.0.1:9/y', 'refused'));
    const imported = await importRows(archive);
    assert.deepEqual(rowOf(imported, 'http://dead.invalid/x').error, { code: 'dns', message: 'dns it was' });
    assert.deepEqual(rowOf(imported, 'http://127.0.0.1:9/y').error, { code: 'refused', message: 'refused it was' });
  });

  it(
    'gives a URL one row when a record of its failure comes while its capture waits for its request',
    TIMEOUT,
    async () => {
      const archive = join(
        warcRecord('response', 'https://example.com/', page('Home', ''), ['WARC-Record-ID: <urn:uuid:1>']),
        warcRecord('metadata', 'https://example.com/', 'error: timeout\r\nmessage: an earlier try\r\n', [
          'Content-Type: application/warc-fields',
        ]),
        warcRecord('request', 'https://example.com/', 'GET / HTTP/1.1\r\nHost: example.com\r\n\r\n', [
          'WARC-Concurrent-To: <urn:uuid:1>',
        ]),
      );
      const imported = await importRows(archive);
      assert.deepEqual(
        imported.rows.map((r) => [r.row.url, r.row.status]),
        [['https://example.com/', 200]],
      );
      assert.equal(imported.summary.rows, 1, 'as many rows counted as made');
      assert.equal(imported.summary.otherMetadata, 1);
    },
  );

  it('makes a byte-identical body under a second URL a duplicate, its body stored once', TIMEOUT, async () => {
    const archive = join(
      warcRecord('response', 'https://example.com/', page('Same', '')),
      warcRecord('response', 'https://example.com/copy', page('Same', '')),
    );
    const imported = await importRows(archive);
    const [first, copy] = imported.rows;
    assert.ok(first?.body && copy);
    assert.equal(copy.row.duplicateOf, 'https://example.com/');
    assert.equal(copy.row.sha256, first.row.sha256);
    assert.equal(copy.body, null);
    assert.equal(copy.row.title, 'Same');
  });

  it(
    'reads an http(s) resource record as a 200 answer of its Content-Type, and skips POST captures',
    TIMEOUT,
    async () => {
      const archive = join(
        warcRecord('resource', 'https://example.com/notes.txt', 'plain notes', ['Content-Type: text/plain']),
        warcRecord('request', 'https://example.com/api', 'POST /api HTTP/1.1\r\nHost: example.com\r\n\r\n{}', [
          'WARC-Record-ID: <urn:uuid:r>',
        ]),
        warcRecord(
          'response',
          'https://example.com/api',
          'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{}',
          ['WARC-Concurrent-To: <urn:uuid:r>'],
        ),
      );
      const imported = await importRows(archive);
      const notes = rowOf(imported, 'https://example.com/notes.txt');
      assert.equal(notes.status, 200);
      assert.equal(notes.contentType, 'text/plain');
      assert.equal(notes.kind, 'file');
      assert.equal(notes.contentLength, 11);
      assert.equal(imported.rows.length, 1);
      assert.equal(imported.summary.skippedCaptures, 1);
    },
  );
});

/** Whether the WARC export marks a row's response `WARC-Truncated` (`truncationOf` in src/export/warc.ts). */
function exportMarksTruncated(row: PageRecord): boolean {
  if (row.methods.at(-1) === 'HEAD') return false;
  if (row.truncated) return true;
  if (row.sha256 !== null) return false;
  if (row.status === null || row.status < 200 || row.status === 204 || row.status === 304) return false;
  return row.headers.find(([name]) => name === 'content-length')?.[1].trim() !== '0';
}

describe("Tabcrawl's own WARC read back into rows", () => {
  it(
    'gives back each row of the export: status, type, size, dates, titles, redirects, duplicates, blocked and failed URLs, bodies',
    TIMEOUT,
    async () => {
      const original = fixtureRowsWithResources();
      const { context } = countingContext();
      const warc = new Uint8Array(await collectBytes(writeWarcGz(fixtureSource(original), context)));
      const imported = await importRows(warc, FIXTURE_START);
      assert.deepEqual(
        imported.rows.map((r) => r.row.url),
        original.map((row) => row.url),
        'one row per URL, in the same order',
      );
      const bodies = fixtureBodies();
      for (const { row, body } of imported.rows) {
        const before = original.find((r) => r.url === row.url) ?? assert.fail();
        const same = <K extends keyof PageRecord>(key: K): void =>
          assert.deepEqual(row[key], before[key], `${row.url}: ${key}`);
        same('status');
        same('contentType');
        same('location');
        // The WARC holds the request that got the answer, not a HEAD sent before it.
        assert.deepEqual(row.methods, before.methods.slice(-1), `${row.url}: methods`);
        same('blockedBy');
        same('blockedRule');
        // A failure's message, written as a warc-fields value, has its line breaks as spaces.
        assert.deepEqual(
          row.error,
          before.error === null ? null : { ...before.error, message: before.error.message.replace(/\r?\n/g, ' ') },
          `${row.url}: error`,
        );
        same('ipAddress');
        // The request record holds the headers the browser reported, with Host added (or a Host and User-Agent
        // the export reconstructed when it reported none): that is what the archive says was sent.
        if (before.status !== null) {
          const sent = row.requestHeaders ?? assert.fail(`${row.url}: request headers`);
          for (const header of before.requestHeaders ?? [])
            assert.ok(
              sent.some(([n, v]) => n === header[0] && v === header[1]),
              `${row.url}: ${header[0]}`,
            );
          assert.ok(sent.some(([n]) => n === 'host'));
        }
        // A WARC names no referrer of a fetched URL (the link walk finds one); Tabcrawl's metadata records do (via).
        if (before.status === null) same('referrer');
        if (before.status !== null) same('fetchedAt');
        if (before.status === null && before.error !== null) same('responseTimeMs'); // failures carry fetchTimeMs
        if (before.status !== null)
          assert.equal(row.responseTimeMs, null, `${row.url}: no response time in the archive`);
        // The body stored is the body exported: pages, resources and files alike; a duplicate names its first.
        if (before.duplicateOf === null) {
          const expected =
            before.sha256 === null || before.methods.at(-1) === 'HEAD' ? undefined : bodies.get(before.sha256);
          assert.deepEqual(body ?? undefined, expected, `${row.url}: body`);
          if (expected !== undefined) same('sha256');
        } else {
          same('duplicateOf');
          same('sha256');
        }
        // What a crawl reads of a 2xx HTML page is read again the same way.
        if (before.title !== null && before.kind === 'page' && before.status === 200) same('title');
        // WARC-Truncated, which the export writes for a body cut at its cap or not downloaded, reads back as truncated.
        assert.equal(row.truncated, before.status !== null && exportMarksTruncated(before), `${row.url}: truncated`);
      }
      // The size as served, where the export renamed it (x-orig-content-length).
      assert.equal(rowOf(imported, 'https://example.com/gz').contentLength, 93);
      assert.deepEqual(rowOf(imported, 'https://example.com/').links, [
        'https://example.com/old',
        'https://example.com/copy',
      ]);
      assert.deepEqual(rowOf(imported, 'https://example.com/s/site.css').resources, ['https://cdn.example/font.woff2']);
      assert.equal(sha256Hex(HOME_BODY), rowOf(imported, 'https://example.com/copy').sha256);
      assert.equal(sha256Hex(CSS_BODY), rowOf(imported, 'https://example.com/s/site.css').sha256);
    },
  );
});

describe("Tabcrawl's own WARC: links to other sites, checked", () => {
  it(
    'reads a link checked with GET, written as metadata (its body never read), back as the checked link it was',
    TIMEOUT,
    async () => {
      const original = [...fixtureRows(), ...externalFixtureRows()];
      const { context } = countingContext();
      const warc = new Uint8Array(await collectBytes(writeWarcGz(fixtureSource(original), context)));
      const imported = await importRows(warc, FIXTURE_START);
      assert.deepEqual(
        imported.rows.map((r) => r.row.url),
        original.map((row) => row.url),
        'one row per URL, in the same order',
      );
      for (const url of [OTHER_GET, OTHER_MOVED]) {
        const before = original.find((row) => row.url === url) ?? assert.fail();
        const row = rowOf(imported, url);
        for (const key of [
          'kind',
          'status',
          'methods',
          'contentType',
          'location',
          'referrer',
          'fetchedAt',
          'responseTimeMs',
          'sha256',
        ] as const) {
          assert.deepEqual(row[key], before[key], `${url}: ${key}`);
        }
      }
      assert.equal(imported.summary.otherMetadata, 0);
      assert.equal(imported.summary.unpairedRequests, 0);
    },
  );
});

describe('the link walk: depth, referrer, kind, inlinks and anchors', () => {
  it("rebuilds them from the pages' links, resources and redirects", TIMEOUT, async () => {
    const html = (body: string) => `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<!doctype html>${body}`;
    const archive = join(
      warcRecord(
        'response',
        'https://example.com/',
        html(
          '<title>Home</title><link rel=stylesheet href=/s.css><a href="/a">First A</a><a href="/old">Old</a><a href="/doc.pdf">Doc</a>',
        ),
      ),
      warcRecord(
        'response',
        'https://example.com/a',
        html('<title>A</title><a href="/">Home</a><a href="/b">B</a><a href="/a">Self</a>'),
      ),
      warcRecord('response', 'https://example.com/old', 'HTTP/1.1 301 Moved\r\nLocation: /new\r\n\r\n'),
      warcRecord('response', 'https://example.com/new', html('<title>New</title><img src=/img.png>')),
      warcRecord('response', 'https://example.com/b', html('<title>B</title><a href="/a">Another A</a>')),
      warcRecord(
        'response',
        'https://example.com/s.css',
        'HTTP/1.1 200 OK\r\nContent-Type: text/css\r\n\r\nbody{background:url(/bg.png)}',
      ),
      warcRecord('response', 'https://example.com/bg.png', 'HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG'),
      warcRecord(
        'response',
        'https://example.com/img.png',
        'HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG!',
      ),
      warcRecord(
        'response',
        'https://example.com/doc.pdf',
        'HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\n\r\n%PDF',
      ),
      warcRecord('response', 'https://example.com/lonely', html('<title>Not linked</title>')),
    );
    const imported = await importRows(archive);
    const graph = new LinkGraph();
    for (const { row } of imported.rows) graph.add(row);
    const fields = graph.fields(['https://example.com/']);
    const of = (path: string) => fields.get(`https://example.com${path}`) ?? assert.fail(path);
    assert.deepEqual(of('/'), { depth: 0, referrer: null, kind: 'page', inlinks: 1, anchors: ['Home'] });
    assert.deepEqual(of('/a'), {
      depth: 1,
      referrer: 'https://example.com/',
      kind: 'page',
      inlinks: 3,
      anchors: ['First A', 'Self', 'Another A'],
    });
    assert.deepEqual(of('/b'), {
      depth: 2,
      referrer: 'https://example.com/a',
      kind: 'page',
      inlinks: 1,
      anchors: ['B'],
    });
    assert.deepEqual(of('/old'), {
      depth: 1,
      referrer: 'https://example.com/',
      kind: 'page',
      inlinks: 1,
      anchors: ['Old'],
    });
    assert.deepEqual(
      of('/new'),
      { depth: 1, referrer: 'https://example.com/old', kind: 'page', inlinks: 0, anchors: [] },
      "a redirect target keeps its source's depth",
    );
    assert.deepEqual(of('/s.css'), {
      depth: 0,
      referrer: 'https://example.com/',
      kind: 'resource',
      inlinks: 0,
      anchors: [],
    });
    assert.deepEqual(of('/bg.png'), {
      depth: 0,
      referrer: 'https://example.com/s.css',
      kind: 'resource',
      inlinks: 0,
      anchors: [],
    });
    assert.deepEqual(of('/img.png'), {
      depth: 1,
      referrer: 'https://example.com/new',
      kind: 'resource',
      inlinks: 0,
      anchors: [],
    });
    assert.deepEqual(of('/doc.pdf'), {
      depth: 1,
      referrer: 'https://example.com/',
      kind: 'file',
      inlinks: 1,
      anchors: ['Doc'],
    });
    assert.deepEqual(
      of('/lonely'),
      { depth: 0, referrer: null, kind: 'page', inlinks: 0, anchors: [] },
      'not reached: depth 0',
    );
  });

  it('reaches a canonical target one hop deeper, as the crawl fetches it, with no inlink (issue 26, item 4)', () => {
    const base = {
      kind: 'page' as const,
      status: 200,
      contentType: 'text/html',
      location: null,
      linkTexts: [],
      resources: [],
      referrer: null,
      facts: null,
    };
    const graph = new LinkGraph();
    graph.add({ ...base, url: 'https://example.com/', links: ['https://example.com/print'] });
    graph.add({
      ...base,
      url: 'https://example.com/print',
      links: [],
      facts: { ...factsOf({}), canonical: 'https://example.com/original' },
    });
    graph.add({ ...base, url: 'https://example.com/original', links: [] });
    assert.deepEqual(graph.fields(['https://example.com/']).get('https://example.com/original'), {
      depth: 2,
      referrer: 'https://example.com/print',
      kind: 'page',
      inlinks: 0,
      anchors: [],
    });
  });

  it('starts from the first HTML page when no start URL is a row', TIMEOUT, async () => {
    const imported = await importRows(warcFixture('example-iana.org-chunked.warc'), 'http://www.iana.org/');
    const graph = new LinkGraph();
    for (const { row } of imported.rows) graph.add(row);
    assert.equal(graph.fields(['https://nowhere.example/']).get('http://www.iana.org/')?.depth, 0);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { PageRecord } from '../../src/core/model.ts';
import { CSV_COLUMNS, writeCsv } from '../../src/export/csv.ts';
import type { ExportSource } from '../../src/export/export-source.ts';
import { exportBytes } from '../../src/export/formats.ts';
import { toJsonlRow } from '../../src/export/jsonl.ts';
import { crawlFixture, pageFixture } from '../support/store-contract.ts';

const A = 'https://a.example';

function sourceOf(pages: PageRecord[]): ExportSource {
  return {
    crawl: crawlFixture('c1'),
    async *rows() {
      yield* pages;
    },
    body: () => Promise.resolve(undefined),
  };
}

interface Written {
  chunks: Uint8Array[];
  bytes: Uint8Array;
  text: string;
  rowsCounted: number;
}

async function writeAll(pages: PageRecord[]): Promise<Written> {
  let rowsCounted = 0;
  const chunks: Uint8Array[] = [];
  const context = { software: 'Tabcrawl test', now: new Date(0), onRow: () => void (rowsCounted += 1) };
  for await (const chunk of writeCsv(sourceOf(pages), context)) chunks.push(chunk);
  const bytes = Buffer.concat(chunks);
  return { chunks, bytes, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), rowsCounted };
}

/** The records of a CSV file as strings, header first (the BOM stripped by the parser). */
function parseCsv(text: string): string[][] {
  return parse(text, { bom: true }) as string[][];
}

function page(seq: number, overrides: Partial<PageRecord> = {}): PageRecord {
  return { ...pageFixture('c1', `${A}/p${seq}`, seq), ...overrides };
}

describe('CSV export', () => {
  it('starts with a UTF-8 byte order mark', async () => {
    const { bytes } = await writeAll([page(1)]);
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  });

  it('names the JSON Lines fields in their order in the header', async () => {
    const { text } = await writeAll([]);
    assert.deepEqual(parseCsv(text), [Object.keys(toJsonlRow(page(1)))]);
    assert.deepEqual([...CSV_COLUMNS], Object.keys(toJsonlRow(page(1))));
  });

  it('ends every record, the last one too, in CRLF and has no bare LF', async () => {
    const { text } = await writeAll([page(1), page(2)]);
    const body = text.slice(1);
    assert.ok(body.endsWith('\r\n'));
    assert.equal(body.split('\r\n').length, 4, 'header, two records, and the empty rest after the last CRLF');
    assert.doesNotMatch(body, /[^\r]\n/);
  });

  it('reads back as the rows it was written from', async () => {
    const first = page(1);
    const second = page(2, {
      status: null,
      contentType: null,
      contentLength: null,
      fetchedAt: null,
      responseTimeMs: null,
      methods: [],
      sha256: null,
      title: null,
      anchors: [],
      links: [],
      blockedBy: 'robots',
      blockedRule: 'Disallow: /p2',
    });
    const third = page(3, { status: null, error: { code: 'timeout', message: 'no answer in 30 s' }, truncated: true });
    const { text } = await writeAll([first, second, third]);

    const [header, ...records] = parseCsv(text);
    assert.deepEqual(header, [...CSV_COLUMNS]);
    assert.deepEqual(records[0], [
      `${A}/p1`,
      'page',
      '200',
      'text/html; charset=utf-8',
      '5120',
      '',
      '2',
      'https://a.example/',
      new Date(first.fetchedAt ?? 0).toISOString(),
      '37',
      'HEAD | GET',
      'Ünïcödé title ✓',
      'ab'.repeat(32),
      '',
      'false',
      'Home | Docs',
      '2',
      'https://a.example/x | https://a.example/y',
      '',
      '',
      '',
      '',
    ]);
    const blocked = Object.fromEntries(CSV_COLUMNS.map((column, i) => [column, records[1]?.[i]]));
    assert.equal(blocked['status'], '');
    assert.equal(blocked['methods'], '');
    assert.equal(blocked['anchors'], '');
    assert.equal(blocked['blockedBy'], 'robots');
    assert.equal(blocked['blockedRule'], 'Disallow: /p2');
    const failed = Object.fromEntries(CSV_COLUMNS.map((column, i) => [column, records[2]?.[i]]));
    assert.equal(failed['error'], 'no answer in 30 s');
    assert.equal(failed['errorCode'], 'timeout');
    assert.equal(failed['truncated'], 'true');
    assert.equal(records.length, 3);
  });

  it('keeps quotes, commas and line breaks of titles and anchors intact', async () => {
    const title = 'Say "hi", then\nleave\r\nnow';
    const anchors = ['Read "more"', 'a, b', 'two\nlines', 'plain text'];
    const { text } = await writeAll([page(1, { title, anchors })]);

    const [, record] = parseCsv(text);
    assert.equal(record?.[CSV_COLUMNS.indexOf('title')], title);
    assert.equal(record?.[CSV_COLUMNS.indexOf('anchors')], anchors.join(' | '));
    assert.match(text, /"Say ""hi"", then\nleave\r\nnow"/);
  });

  it('quotes only the fields that need it', async () => {
    const { text } = await writeAll([page(1, { title: 'Plain title', anchors: ['Home'] })]);
    assert.doesNotMatch(text, /"/);
  });

  it('puts a quote before text cells that a spreadsheet would run as a formula', async () => {
    const { text } = await writeAll([
      page(1, { title: '=HYPERLINK("http://evil.example","x")', anchors: ['+1', 'ok'] }),
      page(2, { title: '-2+3', anchors: ['@SUM(A1)'] }),
      page(3, { title: '\tcmd', anchors: ['\rcmd'] }),
      page(4, { title: 'a=b', anchors: ['x', '=y'] }),
    ]);

    const [, ...records] = parseCsv(text);
    const titles = records.map((record) => record[CSV_COLUMNS.indexOf('title')]);
    const anchors = records.map((record) => record[CSV_COLUMNS.indexOf('anchors')]);
    assert.deepEqual(titles, [`'=HYPERLINK("http://evil.example","x")`, `'-2+3`, `'\tcmd`, 'a=b']);
    assert.deepEqual(anchors, [`'+1 | ok`, `'@SUM(A1)`, `'\rcmd`, 'x | =y']);
  });

  it('never defuses numbers, even negative ones', async () => {
    const { text } = await writeAll([page(1, { contentLength: -1, responseTimeMs: -5, depth: 0 })]);

    const [, record] = parseCsv(text);
    assert.equal(record?.[CSV_COLUMNS.indexOf('contentLength')], '-1');
    assert.equal(record?.[CSV_COLUMNS.indexOf('responseTimeMs')], '-5');
    assert.equal(record?.[CSV_COLUMNS.indexOf('depth')], '0');
  });

  it('calls onRow once per row and streams one chunk per row after the header', async () => {
    const pages = [page(1), page(2), page(3)];
    const { chunks, rowsCounted } = await writeAll(pages);
    assert.equal(rowsCounted, 3);
    assert.equal(chunks.length, 1 + pages.length);
  });

  it('is what exportBytes writes for "csv"', async () => {
    const chunks: Uint8Array[] = [];
    const context = { software: 'Tabcrawl test', now: new Date(0), onRow: () => undefined };
    for await (const chunk of exportBytes(sourceOf([page(1)]), 'csv', context)) chunks.push(chunk);
    assert.deepEqual(Buffer.concat(chunks), (await writeAll([page(1)])).bytes);
  });
});

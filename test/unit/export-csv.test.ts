import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { PageFacts } from '../../src/core/page-facts/page-facts.ts';
import type { PageRecord } from '../../src/core/model.ts';
import { CSV_COLUMNS, csvLine, writeCsv } from '../../src/export/csv.ts';
import type { ExportSource } from '../../src/export/export-source.ts';
import { exportBytes } from '../../src/export/format-writers.ts';
import { NO_BROKEN_URLS } from '../../src/export/broken-resources.ts';
import { toJsonl, toJsonlRow, writeJsonl } from '../../src/export/jsonl.ts';
import {
  CDN_ORIGIN,
  FIXTURE_CRAWL,
  FIXTURE_ORIGIN,
  fixtureRowsWithResources,
  fixtureSource,
} from '../support/export-fixtures.ts';
import { crawlFixture, pageFixture } from '../support/store-contract.ts';

const A = 'https://a.example';

function sourceOf(pages: PageRecord[], settings: { searches?: string[]; extractions?: string[] } = {}): ExportSource {
  const crawl = crawlFixture('c1');
  return {
    crawl: { ...crawl, settings: { ...crawl.settings, ...settings } },
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

async function writeAll(
  pages: PageRecord[],
  settings: { searches?: string[]; extractions?: string[] } = {},
): Promise<Written> {
  let rowsCounted = 0;
  const chunks: Uint8Array[] = [];
  const context = { software: 'Tabcrawl test', now: new Date(0), onRow: () => void (rowsCounted += 1) };
  for await (const chunk of writeCsv(sourceOf(pages, settings), context)) chunks.push(chunk);
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

/** Facts of a page (see `core/page-facts/page-facts.ts`). */
const FACTS: PageFacts = {
  canonical: `${A}/p1`,
  canonicalHeader: null,
  robots: ['max-snippet:20', 'noarchive'],
  description: 'About the page',
  h1: 'The page',
  h1Count: 2,
  lang: 'en',
  hreflang: [
    { lang: 'en', url: `${A}/p1` },
    { lang: 'de', url: `${A}/de/p1` },
  ],
  wordCount: 120,
  internalLinks: 3,
  outboundLinks: 1,
  otherLinks: ['mailto:a@a.example'],
  imagesWithoutAlt: [`${A}/i.png`],
  mixedContent: [],
  anchorIds: ['top'],
  fragmentLinks: [],
};

describe('CSV export', () => {
  it('starts with a UTF-8 byte order mark', async () => {
    const { bytes } = await writeAll([page(1)]);
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  });

  it('names the JSON Lines fields in their order in the header, but the render object and the custom ones', async () => {
    const { text } = await writeAll([]);
    const fields = Object.keys(toJsonlRow(page(1), NO_BROKEN_URLS)).filter(
      (field) => !['render', 'searches', 'extracted'].includes(field),
    );
    assert.deepEqual(parseCsv(text), [fields]);
    assert.deepEqual([...CSV_COLUMNS], fields);
  });

  it('has a column per custom search and extraction, after the fixed ones, and empty cells where a row was not searched', async () => {
    const settings = {
      searches: ['old=Discontinued', 'tracker=regex:UA-\\d+'],
      extractions: ['price=css:.price', '=bad'],
    };
    const searched = page(1, {
      custom: { searches: { old: 2, tracker: 0 }, extracted: { price: ['=1+1', '€ 12'] } },
    });
    const { text } = await writeAll([searched, page(2)], settings);
    const [header, first, second] = parseCsv(text);
    // A rule that does not parse is no column (the crawl could not have applied it).
    assert.deepEqual(header?.slice(CSV_COLUMNS.length), ['search:old', 'search:tracker', 'extract:price']);
    // The values as lists are written; a value a spreadsheet would run is defused.
    assert.deepEqual(first?.slice(CSV_COLUMNS.length), ['2', '0', "'=1+1 | € 12"]);
    assert.deepEqual(second?.slice(CSV_COLUMNS.length), ['', '', '']);
    assert.equal(header?.length, first?.length);
    const row = toJsonlRow(searched, NO_BROKEN_URLS);
    assert.deepEqual(row.searches, { old: 2, tracker: 0 });
    assert.deepEqual(row.extracted, { price: ['=1+1', '€ 12'] });
    assert.equal(toJsonlRow(page(2), NO_BROKEN_URLS).searches, null);
  });

  it('ends every record, the last one too, in CRLF and has no bare LF', async () => {
    const { text } = await writeAll([page(1), page(2)]);
    const body = text.slice(1);
    assert.ok(body.endsWith('\r\n'));
    assert.equal(body.split('\r\n').length, 4, 'header, two records, and the empty rest after the last CRLF');
    assert.doesNotMatch(body, /[^\r]\n/);
  });

  it('reads back as the rows it was written from', async () => {
    const first = page(1, { facts: FACTS });
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
      '',
      '',
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
      '0',
      '0',
      `${A}/p1`,
      'true',
      'max-snippet:20 | noarchive',
      'true',
      '',
      'About the page',
      'The page',
      '2',
      'en',
      `en ${A}/p1 | de ${A}/de/p1`,
      '120',
      '3',
      '1',
      '1',
      '0',
      '',
      '',
      '',
      '',
      '',
      'title-too-short | h1-multiple | image-missing-alt',
    ]);
    const blocked = Object.fromEntries(CSV_COLUMNS.map((column, i) => [column, records[1]?.[i]]));
    assert.equal(blocked['status'], '');
    assert.equal(blocked['methods'], '');
    assert.equal(blocked['anchors'], '');
    assert.equal(blocked['blockedBy'], 'robots');
    assert.equal(blocked['blockedRule'], 'Disallow: /p2');
    assert.equal(blocked['indexable'], 'false');
    assert.equal(blocked['indexabilityReason'], 'blocked');
    assert.equal(blocked['wordCount'], '', 'no facts: empty cells');
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

  it('writes a NUL, an ESC or another control of an anchor text or title out as \\x00, never raw in a cell; tab and line breaks stay', async () => {
    const { text } = await writeAll([
      page(1, { title: 'bell\u0007 del\u007F c1\u0085 tab\tend', anchors: ['a\u0000b', '\u001B[2Jc'] }),
    ]);

    assert.doesNotMatch(text, /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u);
    const [, record] = parseCsv(text);
    assert.equal(record?.[CSV_COLUMNS.indexOf('title')], 'bell\\x07 del\\x7F c1\\x85 tab\tend');
    assert.equal(record?.[CSV_COLUMNS.indexOf('anchors')], 'a\\x00b | \\x1B[2Jc');
  });

  it('writes the same controls out in every table written as the crawl export is (Issues, Not crawled, reports)', () => {
    assert.equal(csvLine(['a\u0000b', 1, ['\u001Bx', 'y']]), 'a\\x00b,1,\\x1Bx | y\r\n');
  });

  it('leaves JSON Lines to escape controls itself: a NUL in an anchor text is \\u0000 there, and reads back as NUL', () => {
    const line = toJsonl([page(1, { anchors: ['a\u0000b'] })], NO_BROKEN_URLS).trimEnd();
    assert.doesNotMatch(line, /[\u0000-\u001F]/u);
    assert.match(line, /"a\\u0000b"/);
    assert.deepEqual((JSON.parse(line) as { anchors: string[] }).anchors, ['a\u0000b']);
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

describe('kinds and resource counts in CSV and JSON Lines', () => {
  const url = (path: string): string => `${FIXTURE_ORIGIN}${path}`;
  const context = { software: 'Tabcrawl test', now: new Date(0), onRow: () => undefined };

  async function jsonlOf(source: ExportSource): Promise<Record<string, unknown>[]> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of writeJsonl(source, context)) chunks.push(chunk);
    return Buffer.concat(chunks)
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  async function csvOf(source: ExportSource): Promise<Record<string, string>[]> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of writeCsv(source, context)) chunks.push(chunk);
    return parse(Buffer.concat(chunks), { bom: true, columns: true }) as Record<string, string>[];
  }

  it('gives every row its kind, and a page its resources and broken resources, counted over rows written after it', async () => {
    const lines = await jsonlOf(fixtureSource(fixtureRowsWithResources()));
    const byUrl = new Map(lines.map((line) => [line['url'], line]));
    const kinds = (kind: string): unknown[] => lines.filter((line) => line['kind'] === kind).map((line) => line['url']);
    assert.deepEqual(kinds('resource'), [
      url('/s/site.css'),
      url('/img/logo.png'),
      url('/img/logo-copy.png'),
      url('/img/missing.png'),
      `${CDN_ORIGIN}/font.woff2`,
      url('/private/pixel.gif'),
      url('/img/soft404.png'),
    ]);
    assert.deepEqual(kinds('file'), [url('/manual.pdf'), url('/video.mp4')]);
    assert.deepEqual(kinds('sitemap'), [url('/sitemap.xml')]);
    assert.equal(kinds('page').length, 14);
    // 7 resources, of which the 404, the timeout and the blocked one are broken (HTML served for an image is not).
    assert.deepEqual(
      [byUrl.get(url('/styled'))?.['resourceCount'], byUrl.get(url('/styled'))?.['brokenResourceCount']],
      [7, 3],
    );
    // A stylesheet's own: the font it loads, which timed out.
    assert.deepEqual(
      [byUrl.get(url('/s/site.css'))?.['resourceCount'], byUrl.get(url('/s/site.css'))?.['brokenResourceCount']],
      [1, 1],
    );
    for (const line of lines.filter((l) => l['url'] !== url('/styled') && l['url'] !== url('/s/site.css'))) {
      assert.deepEqual([line['resourceCount'], line['brokenResourceCount']], [0, 0], String(line['url']));
    }
  });

  it('writes the same kinds and counts in CSV, in the columns after links', async () => {
    const records = await csvOf(fixtureSource(fixtureRowsWithResources()));
    const jsonl = await jsonlOf(fixtureSource(fixtureRowsWithResources()));
    assert.deepEqual(
      records.map((r) => [r['url'], r['kind'], r['resourceCount'], r['brokenResourceCount']]),
      jsonl.map((l) => [l['url'], l['kind'], String(l['resourceCount']), String(l['brokenResourceCount'])]),
    );
    assert.deepEqual(CSV_COLUMNS.slice(CSV_COLUMNS.indexOf('links'), CSV_COLUMNS.indexOf('links') + 3), [
      'links',
      'resourceCount',
      'brokenResourceCount',
    ]);
  });

  it('gathers the broken URLs, the issues and the redirects in the two scans of the Issues checks, then reads the rows once more to write them', async () => {
    const withResources = fixtureSource(fixtureRowsWithResources());
    await jsonlOf(withResources);
    // The two scans of the Issues checks (the broken URLs, the redirects and their ends riding along), the rows written.
    assert.equal(withResources.passes, 3);
    const without = fixtureSource(
      fixtureRowsWithResources().map((row) => ({ ...row, resources: [] })),
      undefined,
      {
        ...FIXTURE_CRAWL,
        settings: { ...FIXTURE_CRAWL.settings, archiveResources: false },
      },
    );
    const lines = await csvOf(without);
    assert.equal(without.passes, 3);
    assert.ok(lines.every((line) => line['resourceCount'] === '0' && line['brokenResourceCount'] === '0'));
  });

  it('counts in toJsonl what the given broken URLs say (a chunk of rows and its resources looked up)', () => {
    const styled = fixtureRowsWithResources().find((row) => row.url === url('/styled'));
    assert.ok(styled);
    const line = JSON.parse(toJsonl([styled], new Set([url('/img/missing.png')]))) as Record<string, unknown>;
    assert.deepEqual([line['resourceCount'], line['brokenResourceCount']], [7, 1]);
  });
});

describe('JSON Lines export: page facts', () => {
  it("writes a page's facts, lists as arrays, and null facts for a row without them", () => {
    const [withFacts, without, redirect] = toJsonl(
      [page(1, { facts: FACTS }), page(2, { kind: 'resource' }), page(3, { status: 301, facts: null })],
      NO_BROKEN_URLS,
    )
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      { ...withFacts, url: undefined },
      {
        ...withFacts,
        url: undefined,
        canonical: `${A}/p1`,
        canonicalIsSelf: true,
        robots: ['max-snippet:20', 'noarchive'],
        indexable: true,
        indexabilityReason: null,
        description: 'About the page',
        h1: 'The page',
        h1Count: 2,
        lang: 'en',
        hreflang: [`en ${A}/p1`, `de ${A}/de/p1`],
        wordCount: 120,
        internalLinks: 3,
        outboundLinks: 1,
        imagesWithoutAltCount: 1,
        mixedContentCount: 0,
      },
    );
    assert.equal(without?.['canonical'], null);
    assert.equal(without?.['indexable'], null, 'a resource is not judged');
    assert.equal(without?.['robots'], null);
    assert.equal(redirect?.['indexable'], false);
    assert.equal(redirect?.['indexabilityReason'], 'redirected');
  });
});

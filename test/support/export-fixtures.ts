/**
 * An in-memory {@link ExportSource} with one row of every kind an export
 * must handle: HTML bodies (UTF-8, windows-1252, decoded from gzip, cut at
 * the size limit), a redirect, a 404 page sent chunked, a PDF whose body was
 * not downloaded, a duplicate body, a HEAD-only answer, a URL blocked by
 * robots.txt and a network failure; and, in {@link resourceFixtureRows}, a
 * page with its resources (a stylesheet, an image and a byte-identical copy,
 * a missing image, a font that timed out, one blocked by robots.txt, an
 * image URL answered with HTML), linked files (a PDF downloaded whole, a
 * video cut at the largest file size) and a sitemap.
 */
import { createHash } from 'node:crypto';
import type { CrawlRecord, PageRecord } from '../../src/core/model.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import type { ExportContext, ExportSource } from '../../src/export/export-source.ts';
import { unfetchedRow } from '../../src/core/crawl/frontier-queue.ts';

export const FIXTURE_ORIGIN = 'https://example.com';
export const FIXTURE_START = `${FIXTURE_ORIGIN}/`;
/** When the fixture crawl started: 2026-03-01T10:00:00Z. */
export const FIXTURE_T0 = Date.UTC(2026, 2, 1, 10, 0, 0);

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** "Café – “menu” €" in windows-1252: bytes 0x80..0x9F that are not UTF-8. */
export const CP1252_BODY = Uint8Array.from([
  ...utf8('<!doctype html><meta charset="windows-1252"><title>Caf'),
  0xe9,
  ...utf8('</title><p>Caf'),
  0xe9,
  0x20,
  0x96,
  0x20,
  0x93,
  0x6d,
  0x65,
  0x6e,
  0x75,
  0x94,
  0x20,
  0x80,
]);

export const HOME_BODY = utf8(
  '<!doctype html><html><head><title>Home</title></head><body><a href="/old">old</a> <a href="/copy">copy</a> naïve ✓</body></html>',
);
/** Served with `content-encoding: gzip`; stored decoded, as `fetch` returns it. */
export const GZ_BODY = utf8(`<!doctype html><title>Compressed</title><p>${'squeeze me '.repeat(40)}</p>`);
export const NOT_FOUND_BODY = utf8('<!doctype html><title>Not found</title><h1>404</h1>');
export const LIST_BODY = utf8('<!doctype html><title>List</title><ul><li>b</li><li>a</li></ul>');
/** The first 1024 bytes of a 5000-byte page (the body was cut at `maxBodyBytes`). */
export const BIG_BODY = utf8(`<!doctype html><title>Big</title><p>${'x'.repeat(5000)}`).slice(0, 1024);

/** A page using page resources (its `resources` list them; the body need not). */
export const STYLED_BODY = utf8(
  '<!doctype html><title>Styled</title><link rel=stylesheet href=/s/site.css><img src=/img/logo.png><a href=/manual.pdf>manual</a>',
);
export const CSS_BODY = utf8(
  '@font-face { font-family: F; src: url(https://cdn.example/font.woff2) } body { color: #333 }',
);
export const PNG_BODY = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0x00,
]);
/** A PDF downloaded whole (a linked file). */
export const PDF_BODY = Uint8Array.from([
  ...utf8('%PDF-1.7\n'),
  0xe2,
  0xe3,
  0xcf,
  0xd3,
  ...utf8('\n1 0 obj <<>> endobj\n%%EOF\n'),
]);
/** The first 2048 bytes of a 10,000-byte video (cut at the largest file size). */
export const VIDEO_PART = Uint8Array.from({ length: 2048 }, (_, i) => (i * 7) % 256);
export const SITEMAP_BODY = utf8(
  '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/styled</loc></url></urlset>',
);
/** HTML served for an image URL (a "soft 404"): a resource, not a page, whatever its type. */
export const SOFT_404_BODY = utf8('<!doctype html><title>Not here</title><p>Sorry');
/** The font host of the resource fixture. */
export const CDN_ORIGIN = 'https://cdn.example';

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A fetched-or-not row with every field at its empty value (the crawl core's own "never fetched" row). */
function baseRow(seq: number, path: string): PageRecord {
  const url = `${FIXTURE_ORIGIN}${path}`;
  const row = unfetchedRow({
    crawlId: 'crawl-fixture',
    url,
    origin: FIXTURE_ORIGIN,
    kind: 'page',
    depth: seq === 1 ? 0 : 1,
    referrer: seq === 1 ? null : FIXTURE_START,
    anchors: [],
    inlinks: 0,
    seq,
    attempts: 0,
    leaseRunId: null,
  });
  return { ...row, seq };
}

/** A row answered with `status` and `headers`, fetched `seq` × 1.25 s after {@link FIXTURE_T0}. */
function answered(
  seq: number,
  path: string,
  status: number,
  headers: [string, string][],
  body: Uint8Array | null,
  extra: Partial<PageRecord> = {},
): PageRecord {
  const contentType = headers.find(([name]) => name === 'content-type')?.[1] ?? null;
  const declared = headers.find(([name]) => name === 'content-length')?.[1];
  return {
    ...baseRow(seq, path),
    status,
    headers,
    contentType,
    contentLength: declared === undefined ? (body?.byteLength ?? null) : Number(declared),
    methods: ['GET'],
    fetchedAt: FIXTURE_T0 + seq * 1250,
    responseTimeMs: 40 + seq,
    sha256: body === null ? null : sha256Hex(body),
    ...extra,
  };
}

export const FIXTURE_CRAWL: CrawlRecord = {
  id: 'crawl-fixture',
  settings: {
    ...DEFAULT_SETTINGS,
    startUrl: FIXTURE_START,
    excludePatterns: ['*/logout*', '*?sessionid=*'],
    maxBodyBytes: 1024,
  },
  state: 'finished',
  createdAt: FIXTURE_T0,
  endedAt: FIXTURE_T0 + 60_000,
  counts: { admitted: 13, done: 13, fetched: 11, errors: 2, blocked: 1, bytesStored: 0 },
  message: null,
  nextSeq: 14,
};

/** The rows, in `seq` order. */
export function fixtureRows(): PageRecord[] {
  const html = 'text/html; charset=utf-8';
  return [
    answered(
      1,
      '/',
      200,
      [
        ['content-type', html],
        ['content-length', String(HOME_BODY.byteLength)],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ],
      HOME_BODY,
      {
        statusLine: 'HTTP/1.1 200 OK',
        requestHeaders: [
          ['user-agent', 'Mozilla/5.0 (compatible; tabcrawl/0.1.0; +https://tabcrawl.invalid/)'],
          ['accept', '*/*'],
        ],
        ipAddress: '93.184.215.14',
        title: 'Home',
      },
    ),
    answered(2, '/cp1252', 200, [['content-type', 'text/html; charset=windows-1252']], CP1252_BODY, { title: 'Café' }),
    answered(
      3,
      '/gz',
      200,
      [
        ['content-type', 'text/html'],
        ['content-encoding', 'gzip'],
        ['content-length', '93'],
        ['vary', 'accept-encoding'],
      ],
      GZ_BODY,
      {
        statusLine: 'HTTP/1.1 200 OK',
        title: 'Compressed',
      },
    ),
    answered(
      4,
      '/old',
      301,
      [
        ['location', `${FIXTURE_ORIGIN}/new`],
        ['content-type', 'text/html'],
        ['content-length', '162'],
      ],
      null,
      {
        statusLine: 'HTTP/1.1 301 Moved Permanently',
        location: `${FIXTURE_ORIGIN}/new`,
      },
    ),
    answered(
      5,
      '/missing',
      404,
      [
        ['content-type', 'text/html'],
        ['transfer-encoding', 'chunked'],
      ],
      NOT_FOUND_BODY,
      { title: 'Not found' },
    ),
    answered(
      6,
      '/report.pdf',
      200,
      [
        ['content-type', 'application/pdf'],
        ['content-length', '123456'],
      ],
      null,
    ),
    answered(
      7,
      '/copy',
      200,
      [
        ['content-type', html],
        ['content-length', String(HOME_BODY.byteLength)],
      ],
      HOME_BODY,
      {
        duplicateOf: FIXTURE_START,
        title: 'Home',
      },
    ),
    { ...baseRow(8, '/private/x'), blockedBy: 'robots', blockedRule: 'Disallow: /private' },
    {
      ...baseRow(9, '/slow'),
      methods: ['GET'],
      fetchedAt: FIXTURE_T0 + 9 * 1250,
      responseTimeMs: 30_000,
      error: { code: 'timeout', message: 'no answer within 30 s\r\n(second line)' },
    },
    answered(
      10,
      '/file.zip',
      200,
      [
        ['content-type', 'application/zip'],
        ['content-length', '999999'],
      ],
      null,
      { methods: ['HEAD'] },
    ),
    answered(11, '/list?b=2&a=1', 200, [['content-type', 'text/html']], LIST_BODY, { title: 'List' }),
    answered(
      12,
      '/big',
      200,
      [
        ['content-type', 'text/html'],
        ['content-length', '5036'],
      ],
      BIG_BODY,
      { truncated: true, title: 'Big' },
    ),
    answered(
      13,
      '/head-then-get',
      200,
      [
        ['content-type', 'text/html; charset=utf-8'],
        ['content-length', String(LIST_BODY.byteLength)],
      ],
      LIST_BODY,
      {
        methods: ['HEAD', 'GET'],
        duplicateOf: `${FIXTURE_ORIGIN}/list?b=2&a=1`,
      },
    ),
  ];
}

export const OTHER_HEAD = 'https://other.example/docs';
export const OTHER_GET = 'https://other.example/no-head';
export const OTHER_MOVED = 'https://other.example/old';

/**
 * Links of the home page to another site, checked (seq 20 to 22, after {@link fixtureRows}): with HEAD;
 * with GET after HEAD was refused (its body cancelled unread); a redirect likewise.
 */
export function externalFixtureRows(): PageRecord[] {
  const external = (seq: number, target: string, extra: Partial<PageRecord>): PageRecord => {
    return {
      ...baseRow(seq, '/'),
      url: target,
      origin: 'https://other.example',
      kind: 'external',
      seq,
      referrer: FIXTURE_START,
      status: 200,
      statusLine: 'HTTP/1.1 200 OK',
      headers: [
        ['content-type', 'text/html; charset=utf-8'],
        ['content-length', '5120'],
      ],
      contentType: 'text/html; charset=utf-8',
      contentLength: 5120,
      fetchedAt: FIXTURE_T0 + seq * 2500,
      responseTimeMs: 40 + seq,
      sha256: null,
      title: null,
      links: [],
      ...extra,
    };
  };
  return [
    external(20, OTHER_HEAD, { methods: ['HEAD'] }),
    external(21, OTHER_GET, { methods: ['HEAD', 'GET'], truncated: true }),
    external(22, OTHER_MOVED, {
      methods: ['HEAD', 'GET'],
      status: 301,
      statusLine: 'HTTP/1.1 301 Moved Permanently',
      location: 'https://other.example/new',
      headers: [['location', 'https://other.example/new']],
      contentType: null,
      contentLength: null,
    }),
  ];
}

/**
 * A page with its resources, linked files and a sitemap, after {@link fixtureRows} (seq 14 to 24): the
 * page comes first, its resources after it, as a crawl records them.
 */
export function resourceFixtureRows(): PageRecord[] {
  const url = (path: string): string => `${FIXTURE_ORIGIN}${path}`;
  const resource = (row: PageRecord): PageRecord => ({ ...row, kind: 'resource', depth: 1, referrer: url('/styled') });
  const font = `${CDN_ORIGIN}/font.woff2`;
  const styledResources = [
    url('/s/site.css'),
    url('/img/logo.png'),
    url('/img/logo-copy.png'),
    url('/img/missing.png'),
    font,
    url('/private/pixel.gif'),
    url('/img/soft404.png'),
  ];
  return [
    answered(14, '/styled', 200, [['content-type', 'text/html']], STYLED_BODY, {
      title: 'Styled',
      links: [url('/manual.pdf')],
      linkTexts: ['manual'],
      resources: styledResources,
    }),
    resource(
      answered(
        15,
        '/s/site.css',
        200,
        [
          ['content-type', 'text/css'],
          ['content-length', String(CSS_BODY.byteLength)],
        ],
        CSS_BODY,
        { resources: [font] },
      ),
    ),
    resource(answered(16, '/img/logo.png', 200, [['content-type', 'image/png']], PNG_BODY)),
    resource(
      answered(17, '/img/logo-copy.png', 200, [['content-type', 'image/png']], PNG_BODY, {
        duplicateOf: url('/img/logo.png'),
      }),
    ),
    resource(
      answered(
        18,
        '/img/missing.png',
        404,
        [
          ['content-type', 'text/html'],
          ['content-length', '120'],
        ],
        null,
      ),
    ),
    resource({
      ...baseRow(19, '/font'),
      url: font,
      origin: CDN_ORIGIN,
      methods: ['GET'],
      fetchedAt: FIXTURE_T0 + 19 * 1250,
      responseTimeMs: 30_000,
      error: { code: 'timeout', message: 'no answer within 30 s' },
    }),
    resource({ ...baseRow(20, '/private/pixel.gif'), blockedBy: 'robots', blockedRule: 'Disallow: /private' }),
    resource(
      answered(21, '/img/soft404.png', 200, [['content-type', 'text/html; charset=utf-8']], SOFT_404_BODY, {
        title: 'Not here',
      }),
    ),
    {
      ...answered(
        22,
        '/manual.pdf',
        200,
        [
          ['content-type', 'application/pdf'],
          ['content-length', String(PDF_BODY.byteLength)],
        ],
        PDF_BODY,
      ),
      kind: 'file',
      referrer: url('/styled'),
    },
    {
      ...answered(
        23,
        '/video.mp4',
        200,
        [
          ['content-type', 'video/mp4'],
          ['content-length', '10000'],
        ],
        VIDEO_PART,
        { truncated: true },
      ),
      kind: 'file',
    },
    {
      ...answered(24, '/sitemap.xml', 200, [['content-type', 'application/xml']], SITEMAP_BODY),
      kind: 'sitemap',
      referrer: null,
      links: [url('/styled')],
    },
  ];
}

/** {@link fixtureRows} then {@link resourceFixtureRows}. */
export function fixtureRowsWithResources(): PageRecord[] {
  return [...fixtureRows(), ...resourceFixtureRows()];
}

/** Stored bodies by hex SHA-256: one per distinct body, as the crawl stores them (those of {@link resourceFixtureRows} too). */
export function fixtureBodies(): Map<string, Uint8Array> {
  const bodies = new Map<string, Uint8Array>();
  for (const body of [
    HOME_BODY,
    CP1252_BODY,
    GZ_BODY,
    NOT_FOUND_BODY,
    LIST_BODY,
    BIG_BODY,
    STYLED_BODY,
    CSS_BODY,
    PNG_BODY,
    PDF_BODY,
    VIDEO_PART,
    SITEMAP_BODY,
    SOFT_404_BODY,
  ]) {
    bodies.set(sha256Hex(body), body);
  }
  return bodies;
}

/** The fixture as an {@link ExportSource}; `passes` counts the calls of `rows()`. */
export function fixtureSource(
  rows: PageRecord[] = fixtureRows(),
  bodies: Map<string, Uint8Array> = fixtureBodies(),
  crawl: CrawlRecord = FIXTURE_CRAWL,
): ExportSource & { passes: number } {
  const source = {
    crawl,
    passes: 0,
    async *rows() {
      source.passes += 1;
      yield* rows;
    },
    body: (sha256: string) => Promise.resolve(bodies.get(sha256)),
  };
  return source;
}

/** An export context that counts `onRow` calls. */
export function countingContext(): { context: ExportContext; rowsCounted: () => number } {
  let count = 0;
  const context: ExportContext = {
    software: 'Tabcrawl 0.1.0-test',
    now: new Date(FIXTURE_T0 + 3_600_000),
    onRow: () => void (count += 1),
  };
  return { context, rowsCounted: () => count };
}

/** Every chunk of a writer, concatenated. */
export async function collectBytes(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

/** One WARC record as an independent reader (warcio.js) sees it. */
export interface ReadRecord {
  type: string;
  /** A WARC header field, or null. */
  field: (name: string) => string | null;
  /** The record block, raw. */
  block: Uint8Array;
  /** Offset and length of the record in the file, as warcio.js's parser reports them. */
  offset: number;
  length: number;
  /** The HTTP start line of request/response/revisit records, else null. */
  startLine: string | null;
  /** HTTP header fields, for request/response/revisit records, else null. */
  http: Headers | null;
  /** The raw payload (after the HTTP headers), for request/response/revisit records, else null. */
  payload: Uint8Array | null;
}

/**
 * Reads a WARC (plain or gzip-per-record) with warcio.js, twice: once for
 * the raw blocks, once with HTTP parsing for start lines, headers and raw
 * payloads. Throws when a record does not parse.
 */
export async function readWarcRecords(bytes: Uint8Array): Promise<ReadRecord[]> {
  const { WARCParser } = await import('warcio');
  const raw: {
    type: string;
    warc: Headers | Map<string, string>;
    block: Uint8Array;
    offset: number;
    length: number;
  }[] = [];
  const rawParser = new WARCParser([bytes], { parseHttp: false });
  for await (const record of rawParser) {
    const block = await record.readFully(false);
    raw.push({
      type: record.warcType,
      warc: record.warcHeaders.headers,
      block,
      offset: rawParser.offset,
      length: rawParser.recordLength,
    });
  }
  const parsed: ReadRecord[] = [];
  const httpParser = new WARCParser([bytes], { parseHttp: true });
  let index = 0;
  for await (const record of httpParser) {
    const base = raw[index];
    index += 1;
    if (base === undefined) throw new Error('the two passes over the WARC disagree on the record count');
    const payload = record.httpHeaders === null ? null : await record.readFully(false);
    const http = new Headers();
    record.httpHeaders?.headers.forEach((value: string, name: string) => http.append(name, value));
    parsed.push({
      type: base.type,
      field: (name) => base.warc.get(name) ?? null,
      block: base.block,
      offset: base.offset,
      length: base.length,
      startLine: record.httpHeaders?.statusline ?? null,
      http: record.httpHeaders === null ? null : http,
      payload,
    });
  }
  if (index !== raw.length) throw new Error('the two passes over the WARC disagree on the record count');
  return parsed;
}

/**
 * From archive records to the rows Tabcrawl stores (`PageRecord`): one row
 * per captured URL, as a crawl of Tabcrawl's would have made it, read with the
 * crawl's own code (the page kind's link, title and facts extraction; the
 * resource kind's stylesheet URLs), and marked `source: 'archive'`.
 *
 * - {@link rowOfCapture} is the mapping itself, pure: a `response` (or
 *   `revisit`, or `resource`) record with its `request` and `metadata`
 *   records in, a row and the body to store out.
 * - {@link ArchiveRowBuilder} feeds it from the records in file order: pairs
 *   each capture with its request and metadata (`WARC-Concurrent-To`, else
 *   the same URL close by), keeps the first capture of each URL, points
 *   revisits at their original (`duplicateOf`), numbers the rows, and counts
 *   what it skipped. It holds a few captures at a time and one short entry per
 *   body, never the archive.
 *
 * What each record becomes is in docs/import.md.
 */
import { unfetchedRow } from '../core/crawl/frontier-queue.ts';
import { pageKind } from '../core/crawl/kinds/page-kind.ts';
import { resourceKind, isStylesheet } from '../core/crawl/kinds/resource-kind.ts';
import { sha256Hex } from '../core/hash.ts';
import type { CrawlRecord, FetchFailure, FrontierEntry, PageRecord } from '../core/model.ts';
import type { CrawlSettings } from '../core/settings.ts';
import { normalizeUrl, originOf } from '../core/url/normalize-url.ts';
import { headerOf } from './http-message.ts';
import { warcField, type WarcRecord } from './warc-reader.ts';

/** What the mapping needs to know of the crawl the rows go into. */
export interface ImportContext {
  crawlId: string;
  /**
   * The crawl's settings: its scope tells a page's internal links from its outbound ones, its product
   * token which `<meta name>` counts as robots. Resources are always read (`archiveResources` is forced on).
   */
  settings: CrawlSettings;
}

/** A capture: a `response`, `revisit` or `resource` record, with the records about it. */
export interface Capture {
  record: WarcRecord;
  /** Its `request` record, when the archive has one. */
  request: WarcRecord | null;
  /** `metadata` records about it (Heritrix's `fetchTimeMs`, `via`, `hopsFromSeed`). */
  metadata: WarcRecord[];
}

/** A row made from the archive, and the body to store for it. */
export interface ImportedRow {
  /** The row, `source: 'archive'`; `seq` is set by {@link ArchiveRowBuilder} (0 from {@link rowOfCapture}). */
  row: PageRecord;
  /**
   * The body to store under `row.sha256`, as a crawl stores it (de-chunked and decoded); null when there is
   * none to store (no body, a revisit, a body whose coding cannot be decoded here).
   */
  body: Uint8Array | null;
  /** What was odd about it (the record's warnings and the mapping's), for an import log. */
  warnings: string[];
}

/** An empty row of the import: every field at the value a crawl gives a URL not fetched yet, marked as from an archive. */
function emptyRow(url: string, context: ImportContext): PageRecord {
  const captured = {
    crawlId: context.crawlId,
    url,
    origin: originOf(url),
    kind: 'page' as const,
    depth: 0,
    referrer: null,
    anchors: [],
    inlinks: 0,
  };
  return { ...unfetchedRow(captured), facts: null, source: 'archive' };
}

/** The fields of an `application/warc-fields` block (`name: value` lines), in order. */
export function warcFields(block: Uint8Array): [string, string][] {
  const fields: [string, string][] = [];
  for (const line of new TextDecoder('utf-8').decode(block).split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) fields.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return fields;
}

/** The first value of a field among the capture's metadata records. */
function metadataField(metadata: readonly WarcRecord[], name: string): string | null {
  for (const record of metadata) {
    const value = warcField(warcFields(record.block), name);
    if (value !== null) return value;
  }
  return null;
}

/** A response time the archive recorded: `fetchTimeMs` of a metadata record (Heritrix, Tabcrawl). No WARC field holds one. */
function recordedResponseTime(metadata: readonly WarcRecord[]): number | null {
  const value = metadataField(metadata, 'fetchTimeMs');
  return value !== null && /^\d{1,9}$/.test(value) ? Number(value) : null;
}

/** The HTTP methods a row may record; a capture of another (a POST) is not a row. */
const ROW_METHODS = new Set(['GET', 'HEAD']);

/** Kinds of requests a browser makes for a page's resources (`Sec-Fetch-Dest`), as opposed to documents. */
const RESOURCE_DESTINATIONS = new Set([
  'image',
  'script',
  'style',
  'font',
  'audio',
  'video',
  'track',
  'manifest',
  'object',
  'embed',
  'worker',
  'sharedworker',
  'serviceworker',
  'xslt',
]);

/**
 * One capture as a row. Pure (but async: the body's SHA-256 and the crawl's readers are).
 *
 * - The URL is the target URI normalized as the crawl normalizes links; null when it is not http(s) (a
 *   `metadata://`, `urn:`, `dns:` record) or the capture is not a GET or HEAD.
 * - A `response`: status, status line, headers (names lower-cased), type, size (`x-orig-content-length` of a
 *   re-encoded capture, else `Content-Length`, else the body's bytes), redirect target, date (`WARC-Date`), IP
 *   address, the request's headers and method, the body (de-chunked and decoded) with its SHA-256, and what
 *   the crawl reads of an answer: for a 2xx HTML page its title, links, resources and facts; for a stylesheet
 *   its resources; a 2xx answer that is not HTML is a linked `file`.
 * - A `revisit`: its own status and headers; its body is its original's (the builder sets `sha256` and
 *   `duplicateOf`).
 * - A `resource` record of an http(s) URL: a 200 answer whose body is the record's block and whose type is
 *   the record's `Content-Type` (there was no HTTP exchange to record).
 * - Response time: a metadata record's `fetchTimeMs`, else null.
 */
export async function rowOfCapture(capture: Capture, context: ImportContext): Promise<ImportedRow | null> {
  const { record, request, metadata } = capture;
  const url = record.targetUri === null ? null : normalizeUrl(record.targetUri);
  if (url === null) return null;
  const method = (request?.http?.method ?? 'GET').toUpperCase();
  if (!ROW_METHODS.has(method)) return null;
  const warnings = [...record.warnings];
  const row = emptyRow(url, context);
  row.methods = [method as 'GET' | 'HEAD'];
  row.fetchedAt = record.dateMs;
  row.ipAddress = record.ipAddress;
  row.responseTimeMs = recordedResponseTime(metadata);
  row.truncated = record.blockCut || record.warcTruncated !== null || record.bodyDecoding?.incomplete === true;
  if (request?.http)
    row.requestHeaders = request.http.headers.map(([name, value]): [string, string] => [name.toLowerCase(), value]);
  const referer = row.requestHeaders === null ? null : headerOf(row.requestHeaders, 'referer');
  row.referrer = normalizeUrl(metadataField(metadata, 'via') ?? referer ?? '') ?? null;
  const destination = row.requestHeaders === null ? null : headerOf(row.requestHeaders, 'sec-fetch-dest');
  if (destination !== null && RESOURCE_DESTINATIONS.has(destination.toLowerCase())) row.kind = 'resource';

  let body: Uint8Array | null = null;
  if (record.type === 'resource') {
    row.status = 200;
    row.contentType = record.contentType;
    row.headers = record.contentType === null ? [] : [['content-type', record.contentType]];
    row.contentLength = record.contentLength;
    body = record.body;
  } else if (record.http !== null && record.http.status !== null) {
    const headers = record.http.headers.map(([name, value]): [string, string] => [name.toLowerCase(), value]);
    row.status = record.http.status;
    row.statusLine = record.http.startLine;
    row.headers = headers;
    row.contentType = headerOf(headers, 'content-type');
    const declared = Number.parseInt(
      headerOf(headers, 'x-orig-content-length') ?? headerOf(headers, 'content-length') ?? '',
      10,
    );
    row.contentLength =
      Number.isFinite(declared) && declared >= 0 ? declared : record.type === 'response' ? record.body.length : null;
    const location = headerOf(headers, 'location');
    if (location !== null && row.status >= 300 && row.status < 400) row.location = resolve(location, url);
    if (record.type === 'response' && method === 'GET') {
      if (record.bodyDecoding?.stillEncoded) {
        warnings.push(`its body is ${record.bodyDecoding.stillEncoded}-encoded and cannot be decoded here: not stored`);
      } else if (record.body.length > 0) {
        body = record.body;
      }
    }
  } else if (record.type === 'response') {
    warnings.push('a response without an HTTP status line: imported without status');
  }

  if (body !== null) {
    row.sha256 = await sha256Hex(body);
    if (row.status !== null && row.status >= 200 && row.status < 300) await readBody(row, body, context);
  }
  return { row, body, warnings };
}

/** What the crawl reads of a 2xx answer: a stylesheet's resources, or a page's title, links, resources and facts (or that it is a file). */
async function readBody(row: PageRecord, body: Uint8Array, context: ImportContext): Promise<void> {
  const crawl = { settings: { ...context.settings, archiveResources: true } } as CrawlRecord;
  const entry: FrontierEntry = {
    crawlId: row.crawlId,
    url: row.url,
    origin: row.origin,
    kind: 'page',
    depth: row.depth,
    referrer: row.referrer,
    anchors: [],
    inlinks: 0,
    seq: 0,
    attempts: 0,
    leaseRunId: null,
  };
  if (isStylesheet(row.url, row.contentType)) {
    await resourceKind.read(crawl, { ...entry, kind: 'resource' }, row, body);
    if (row.kind === 'page') row.kind = 'file';
    return;
  }
  const kind = row.kind;
  await pageKind.read(crawl, entry, row, body);
  // A resource by the browser's own account (Sec-Fetch-Dest) stays one, whatever its type.
  if (kind === 'resource') row.kind = 'resource';
}

function resolve(location: string, base: string): string | null {
  try {
    return new URL(location.trim(), base).href;
  } catch {
    return null;
  }
}

/**
 * A row for a URL the archive says was not fetched: one of the `metadata` records Tabcrawl writes for a URL
 * blocked by robots.txt (`blockedBy`, `rule`) or that failed at the network level (`error`, `message`),
 * with `via` and `fetchTimeMs`. Null for any other metadata record (they describe captures, or nothing).
 */
export function rowOfFailure(record: WarcRecord, context: ImportContext): ImportedRow | null {
  if (record.type !== 'metadata' || record.targetUri === null) return null;
  const url = normalizeUrl(record.targetUri);
  if (url === null) return null;
  const fields = warcFields(record.block);
  const field = (name: string): string | null => warcField(fields, name);
  const blockedBy = field('blockedBy');
  const error = field('error');
  if (blockedBy === null && error === null) return null;
  const row = emptyRow(url, context);
  row.referrer = normalizeUrl(field('via') ?? '') ?? null;
  if (blockedBy === 'robots') {
    row.blockedBy = 'robots';
    row.blockedRule = field('rule');
  } else if (error !== null) {
    const codes: readonly FetchFailure['code'][] = [
      'timeout',
      'network',
      'dns',
      'refused',
      'aborted',
      'invalid-response',
      'no-access',
    ];
    const code = codes.find((c) => c === error) ?? 'network';
    row.error = { code, message: field('message') ?? error };
    row.methods = ['GET'];
    row.fetchedAt = record.dateMs;
    const time = field('fetchTimeMs');
    row.responseTimeMs = time !== null && /^\d{1,9}$/.test(time) ? Number(time) : null;
  } else {
    return null;
  }
  return { row, body: null, warnings: [...record.warnings] };
}

/**
 * A row for a link to another site that Tabcrawl checked with `GET` and whose body it never read: the
 * `metadata` record its WARC export writes for it instead of a response (`method` once per request sent,
 * `status`, `contentType`, `location`, `via`, `fetchTimeMs`, `body: not read`). Null for any other record.
 */
export function rowOfCheck(record: WarcRecord, context: ImportContext): ImportedRow | null {
  if (record.type !== 'metadata' || record.targetUri === null) return null;
  const url = normalizeUrl(record.targetUri);
  if (url === null) return null;
  const fields = warcFields(record.block);
  const field = (name: string): string | null => warcField(fields, name);
  const status = field('status');
  if (field('body') !== 'not read' || status === null || !/^[1-5]\d\d$/.test(status)) return null;
  const row = emptyRow(url, context);
  row.kind = 'external';
  row.status = Number(status);
  row.methods = fields
    .filter(([name, value]) => name.toLowerCase() === 'method' && (value === 'GET' || value === 'HEAD'))
    .map(([, value]) => value as 'GET' | 'HEAD');
  if (row.methods.length === 0) row.methods = ['GET'];
  row.contentType = field('contentType');
  const location = field('location');
  if (location !== null && row.status >= 300 && row.status < 400) row.location = resolve(location, url);
  row.referrer = normalizeUrl(field('via') ?? '') ?? null;
  row.fetchedAt = record.dateMs;
  row.ipAddress = record.ipAddress;
  const time = field('fetchTimeMs');
  row.responseTimeMs = time !== null && /^\d{1,9}$/.test(time) ? Number(time) : null;
  return { row, body: null, warnings: [...record.warnings] };
}

/** What {@link ArchiveRowBuilder} did with the records it was given. */
export interface ImportSummary {
  /** Records read, by `WARC-Type`. */
  records: Record<string, number>;
  /** Rows made. */
  rows: number;
  /** Captures of a URL that already had a row (the first capture is kept). */
  repeatCaptures: number;
  /** Captures of URLs that are not http(s) (`metadata://`, `urn:`, `dns:`…) or of methods other than GET and HEAD. */
  skippedCaptures: number;
  /** Revisits whose original is not in the archive (before them): rows without a body or `duplicateOf`. */
  revisitsWithoutOriginal: number;
  /** `request` records that matched no capture. */
  unpairedRequests: number;
  /** `metadata` records that were neither about a capture nor a failure or a checked link Tabcrawl recorded. */
  otherMetadata: number;
  /** Bodies not stored because their content coding cannot be decoded here (see docs/import.md). */
  bodiesNotDecoded: number;
}

/** What a revisit needs of the capture it repeats. */
interface Original {
  url: string;
  sha256: string | null;
  title: string | null;
  contentType: string | null;
}

/** A capture waiting for the records that may follow it (its request, its metadata). */
interface Pending {
  capture: Capture;
  /** Its URL, normalized (null: not a row). */
  url: string | null;
  /** Records read since it arrived. */
  age: number;
}

/** How many records after a capture its request or metadata may come (browsertrix: response then request; Heritrix: response, request, metadata). */
const PAIRING_WINDOW = 4;

/**
 * Turns the records of an archive, in file order, into rows. Call {@link add}
 * with every record, then {@link finish}; each hands back the rows that are
 * complete, numbered from 1, first capture of a URL only.
 */
export class ArchiveRowBuilder {
  readonly summary: ImportSummary = {
    records: {},
    rows: 0,
    repeatCaptures: 0,
    skippedCaptures: 0,
    revisitsWithoutOriginal: 0,
    unpairedRequests: 0,
    otherMetadata: 0,
    bodiesNotDecoded: 0,
  };
  private pending: Pending[] = [];
  private requests: { record: WarcRecord; age: number }[] = [];
  /** URLs with a row (or about to have one). */
  private readonly urls = new Set<string>();
  /** Originals of revisits, by record id, by payload digest (as the archive writes it) and by URL; first rows by body. */
  private readonly byRecordId = new Map<string, Original>();
  private readonly byDigest = new Map<string, Original>();
  private readonly byUrl = new Map<string, Original>();
  private readonly bySha256 = new Map<string, Original>();
  private seq = 0;

  constructor(private readonly context: ImportContext) {}

  /** Adds the next record; returns the rows completed by it (usually none or one). */
  async add(record: WarcRecord): Promise<ImportedRow[]> {
    this.summary.records[record.type || 'unknown'] = (this.summary.records[record.type || 'unknown'] ?? 0) + 1;
    for (const item of this.pending) item.age += 1;
    for (const item of this.requests) item.age += 1;
    switch (record.type) {
      case 'response':
      case 'revisit':
      case 'resource':
        this.arrive(record);
        break;
      case 'request':
        this.pairRequest(record);
        break;
      case 'metadata':
        if (!this.attachMetadata(record)) {
          const failure = rowOfFailure(record, this.context) ?? rowOfCheck(record, this.context);
          // Not for a URL with a row, or whose capture waits for its request: one row per URL (the capture's).
          if (
            failure !== null &&
            !this.urls.has(failure.row.url) &&
            !this.pending.some((item) => item.url === failure.row.url)
          ) {
            // Rows in file order: the captures before it first (a failure has no request to wait for).
            const before = await this.flush(true);
            this.urls.add(failure.row.url);
            return [...before, this.numbered(failure)];
          }
          this.summary.otherMetadata += 1;
        }
        break;
      default:
        break; // warcinfo, conversion, continuation: not about a URL's answer.
    }
    return this.flush(false);
  }

  /** The rows still waiting; call once after the last record. */
  async finish(): Promise<ImportedRow[]> {
    const rows = await this.flush(true);
    this.summary.unpairedRequests += this.requests.length;
    this.requests = [];
    return rows;
  }

  private arrive(record: WarcRecord): void {
    const url = record.targetUri === null ? null : normalizeUrl(record.targetUri);
    const capture: Capture = { record, request: null, metadata: [] };
    // A request read before its response (wget, Tabcrawl): take it now.
    const index = this.requests.findIndex(
      ({ record: request }) =>
        linked(request, record) ||
        (request.targetUri !== null &&
          url !== null &&
          normalizeUrl(request.targetUri) === url &&
          !hasLinks(request) &&
          !hasLinks(record)),
    );
    if (index !== -1) capture.request = this.requests.splice(index, 1)[0]?.record ?? null;
    this.pending.push({ capture, url, age: 0 });
  }

  private pairRequest(request: WarcRecord): void {
    const url = request.targetUri === null ? null : normalizeUrl(request.targetUri);
    const found =
      this.pending.find(({ capture }) => capture.request === null && linked(request, capture.record)) ??
      this.pending.find(
        ({ capture, url: captureUrl }) =>
          capture.request === null &&
          url !== null &&
          captureUrl === url &&
          !hasLinks(request) &&
          !hasLinks(capture.record),
      );
    if (found) found.capture.request = request;
    else this.requests.push({ record: request, age: 0 });
  }

  private attachMetadata(record: WarcRecord): boolean {
    const found = this.pending.find(
      ({ capture }) =>
        linked(record, capture.record) || (record.refersTo !== null && record.refersTo === capture.record.recordId),
    );
    if (found === undefined) return false;
    found.capture.metadata.push(record);
    return true;
  }

  /** Emits the captures old enough (or all of them), in arrival order. */
  private async flush(all: boolean): Promise<ImportedRow[]> {
    const rows: ImportedRow[] = [];
    while (this.pending.length > 0 && (all || (this.pending[0]?.age ?? 0) >= PAIRING_WINDOW)) {
      const item = this.pending.shift();
      if (item === undefined) break;
      const row = await this.rowOf(item);
      if (row !== null) rows.push(row);
    }
    const stale = this.requests.filter(({ age }) => age >= PAIRING_WINDOW);
    if (stale.length > 0) {
      this.summary.unpairedRequests += stale.length;
      this.requests = this.requests.filter(({ age }) => age < PAIRING_WINDOW);
    }
    return rows;
  }

  private async rowOf({ capture, url }: Pending): Promise<ImportedRow | null> {
    if (url === null) {
      this.summary.skippedCaptures += 1;
      return null;
    }
    if (this.urls.has(url)) {
      this.summary.repeatCaptures += 1;
      return null;
    }
    const made = await rowOfCapture(capture, this.context);
    if (made === null) {
      this.summary.skippedCaptures += 1;
      return null;
    }
    this.urls.add(url);
    const { record } = capture;
    if (record.type === 'revisit') {
      const original = this.originalOf(record);
      if (original === null) {
        this.summary.revisitsWithoutOriginal += 1;
        made.warnings.push(
          `a revisit of ${record.refersToTargetUri ?? record.refersTo ?? 'a capture'} that is not in the archive before it: no body`,
        );
      } else {
        made.row.duplicateOf = original.url === url ? null : original.url;
        made.row.sha256 = original.sha256;
        made.row.title = original.title;
        if (made.row.contentType === null) made.row.contentType = original.contentType;
      }
    } else if (made.row.sha256 !== null) {
      const original: Original = {
        url,
        sha256: made.row.sha256,
        title: made.row.title,
        contentType: made.row.contentType,
      };
      const first = this.bySha256.get(made.row.sha256);
      if (first !== undefined) {
        // The same body as an earlier row: a duplicate, as a crawl records it (the body is stored once).
        made.row.duplicateOf = first.url;
        made.body = null;
      } else {
        this.bySha256.set(made.row.sha256, original);
      }
      if (record.recordId !== null) this.byRecordId.set(record.recordId, first ?? original);
      if (record.payloadDigest !== null) this.byDigest.set(record.payloadDigest, first ?? original);
      this.byUrl.set(url, first ?? original);
    }
    if (record.bodyDecoding?.stillEncoded) this.summary.bodiesNotDecoded += 1;
    return this.numbered(made);
  }

  /** The capture a revisit repeats: by `WARC-Refers-To`, `WARC-Refers-To-Target-URI`, then payload digest. */
  private originalOf(record: WarcRecord): Original | null {
    if (record.refersTo !== null) {
      const found = this.byRecordId.get(record.refersTo);
      if (found) return found;
    }
    const target = record.refersToTargetUri === null ? null : normalizeUrl(record.refersToTargetUri);
    if (target !== null) {
      const found = this.byUrl.get(target);
      if (found) return found;
    }
    return record.payloadDigest === null ? null : (this.byDigest.get(record.payloadDigest) ?? null);
  }

  private numbered(made: ImportedRow): ImportedRow {
    this.seq += 1;
    made.row.seq = this.seq;
    this.summary.rows += 1;
    return made;
  }
}

/** Whether two records name each other in `WARC-Concurrent-To`. */
function linked(a: WarcRecord, b: WarcRecord): boolean {
  return (
    (b.recordId !== null && a.concurrentTo.includes(b.recordId)) ||
    (a.recordId !== null && b.concurrentTo.includes(a.recordId))
  );
}

/** Whether a record names any other in `WARC-Concurrent-To` (then only that link pairs it). */
function hasLinks(record: WarcRecord): boolean {
  return record.concurrentTo.length > 0;
}

/**
 * WARC 1.1 export: a `warcinfo` record, then for each crawl-table row, in
 * order, the records that tell what happened to its URL, whatever its kind
 * (a page, a page resource, a linked file, a sitemap):
 *
 * - fetched (status known): a `request` and a `response` record, linked both
 *   ways by `WARC-Concurrent-To`; the response carries the stored body byte
 *   for byte (pages, resources and files alike), or an empty payload when
 *   none was stored;
 * - fetched, body identical to an earlier capture (`duplicateOf`): a
 *   `request` and a `revisit` record (identical-payload-digest profile) that
 *   points at the first capture;
 * - never answered (blocked by robots.txt, network failure): one `metadata`
 *   record saying why; no invented response;
 * - a link to another site checked with `GET` (its `HEAD` refused), whose
 *   body was never read: one `metadata` record of the answer (methods,
 *   status, type, redirect target), no `response` (an empty one would replay
 *   as an archived blank page; a `HEAD` check's response has no payload by
 *   definition and is indexed as a `HEAD`, which replay does not show).
 *
 * Streams: one row and its body are in memory at a time, plus one short
 * entry per distinct stored body (to point revisits at their first capture).
 *
 * @see ISO 28500:2017 (WARC 1.1), https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/
 */
import { parseContentType } from '../core/links/decode-html.ts';
import type { CrawlRecord, PageRecord } from '../core/model.ts';
import type { ExportContext, ExportSource, FormatWriter } from './export-source.ts';
import { archivedResponseHeaders, encodeHttpHead, headerValue, requestHead, statusLineOf } from './warc-http.ts';
import {
  type RecordDraft,
  type WarcField,
  type WarcType,
  blockDigests,
  buildRecord,
  digestOf,
  encodeFields,
  newRecordId,
  sha256Label,
  warcDate,
} from './warc-record.ts';
import { gzipMember } from './gzip-member.ts';
import { SETTING_ENTRIES } from '../core/setting-table.ts';
import { ChunkJoiner } from './chunk-joiner.ts';
import { type RowGroup, mayCarryBody, readingAhead, rowGroups } from './warc-groups.ts';

/** `WARC-Profile` of a revisit whose payload equals an earlier one. @see WARC 1.1 §6.7.2 */
export const REVISIT_PROFILE = 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest';

/** The `conformsTo` of the warcinfo record. @see WARC 1.1 §6.2 */
export const WARC_CONFORMS_TO = 'http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/';

const HTTP_REQUEST_TYPE = 'application/http;msgtype=request';
const HTTP_RESPONSE_TYPE = 'application/http;msgtype=response';
const WARC_FIELDS_TYPE = 'application/warc-fields';
const EMPTY = new Uint8Array(0);
/** The payload digest of a response without a stored body. */
const EMPTY_DIGEST = digestOf([EMPTY]);

/** What a CDXJ index line needs to know of a `response` or `revisit` record. */
export interface WarcIndexEntry {
  url: string;
  /** `WARC-Date` of the record (ISO 8601, UTC, milliseconds). */
  date: string;
  /** HTTP status of the answer. */
  status: number;
  /** Media type of the payload from `Content-Type`, lower-cased, without parameters; null when absent. */
  mime: string | null;
  /** `WARC-Payload-Digest` (`sha256:<hex>`). */
  digest: string;
  recordType: 'response' | 'revisit';
  /** Method of the request this answered. */
  method: 'GET' | 'HEAD';
}

/** One record as placed in the file. */
export interface WarcRecordOut {
  type: WarcType;
  /** `WARC-Record-ID`. */
  id: string;
  /** Byte offset of the record in the file (of its gzip member when compressing). */
  offset: number;
  /** Bytes the record takes in the file (its gzip member's size when compressing). */
  length: number;
  /** The row the record tells about; null for `warcinfo`. */
  row: PageRecord | null;
  /** Set on `response` and `revisit` records: what an index line needs. */
  index: WarcIndexEntry | null;
}

/**
 * What {@link warcRecords} yields: the file's bytes, in order, in chunks of about a MiB (see
 * `chunk-joiner.ts`; a large body's compressed copy is never held whole), and the records with where they
 * landed, in order, a group at a time, once the bytes of those records have been made (not necessarily
 * yielded yet: the last ones may wait in a chunk still filling).
 */
export type WarcOutput = { kind: 'bytes'; bytes: Uint8Array } | { kind: 'placed'; records: WarcRecordOut[] };

/** How {@link warcRecords} writes. */
export interface WarcOptions {
  /** Compress each record as its own gzip member (a `.warc.gz` file readers can seek in). */
  gzip: boolean;
}

/** What a revisit needs of the first capture of a payload. */
interface FirstCapture {
  url: string;
  date: string;
  id: string;
  digest: string;
  /** Payload bytes, for the revisit's `content-length`. */
  length: number;
}

/** State of one export, across rows. */
interface WarcState {
  source: ExportSource;
  context: ExportContext;
  warcinfoId: string;
  /** First `response` with each stored body, by the body's hex SHA-256. One entry per distinct body. */
  firstCaptures: Map<string, FirstCapture>;
}

/** One request and its answer, as they will be written. */
interface Exchange {
  row: PageRecord;
  status: number;
  method: 'GET' | 'HEAD';
  /** `WARC-Date` of both records: when the request started. */
  date: string;
  requestId: string;
  answerId: string;
}

/** A record drafted for a row, with its index entry when it has one. */
interface RowRecord {
  record: RecordDraft;
  index: WarcIndexEntry | null;
}

/**
 * Every record of the export, in file order, as its bytes and where each
 * landed (see {@link WarcOutput}). The building block of {@link writeWarc},
 * {@link writeWarcGz} and WACZ (which needs each record's offset and length
 * for its index). Calls `context.onRow()` once per row, after the row's records.
 *
 * Rows come in groups with their bodies (`warc-groups.ts`, the next group read
 * while this one is written); a group's records are drafted, their block
 * digests computed together, then each is framed and compressed, all without
 * waiting on anything but the digests.
 */
export async function* warcRecords(
  source: ExportSource,
  context: ExportContext,
  options: WarcOptions,
): AsyncGenerator<WarcOutput> {
  const joiner = new ChunkJoiner();
  let offset = 0;
  /** Frames and writes drafts; returns where they landed and the chunks now complete. */
  const place = async (
    drafts: readonly RowRecord[],
    rows: readonly (PageRecord | null)[],
  ): Promise<{ records: WarcRecordOut[]; chunks: Uint8Array[] }> => {
    const digests = await blockDigests(drafts.map(({ record }) => record));
    const records: WarcRecordOut[] = [];
    const chunks: Uint8Array[] = [];
    for (const [i, { record: draft, index }] of drafts.entries()) {
      const built = buildRecord(draft, digests[i] ?? '');
      let length = 0;
      for (const bytes of options.gzip ? gzipMember(built.parts) : built.parts) {
        length += bytes.byteLength;
        chunks.push(...joiner.push(bytes));
      }
      records.push({ type: built.type, id: built.id, offset, length, row: rows[i] ?? null, index });
      offset += length;
    }
    return { records, chunks };
  };
  const emit = function* ({
    records,
    chunks,
  }: {
    records: WarcRecordOut[];
    chunks: Uint8Array[];
  }): Generator<WarcOutput> {
    for (const bytes of chunks) yield { kind: 'bytes', bytes };
    yield { kind: 'placed', records };
  };

  const warcinfoId = newRecordId();
  yield* emit(await place([{ record: warcinfoRecord(source.crawl, context, warcinfoId), index: null }], [null]));

  const state: WarcState = { source, context, warcinfoId, firstCaptures: new Map() };
  for await (const group of readingAhead(rowGroups(source))) {
    const drafts: RowRecord[] = [];
    const rows: PageRecord[] = [];
    for (const row of group.rows) {
      for (const drafted of await rowRecords(row, state, group)) {
        drafts.push(drafted);
        rows.push(row);
      }
    }
    yield* emit(await place(drafts, rows));
    for (let i = 0; i < group.rows.length; i += 1) context.onRow();
  }
  for (const bytes of joiner.flush()) yield { kind: 'bytes', bytes };
}

/** The bytes of {@link warcRecords}, without the records' places. */
async function* warcBytes(
  source: ExportSource,
  context: ExportContext,
  options: WarcOptions,
): AsyncGenerator<Uint8Array> {
  for await (const out of warcRecords(source, context, options)) if (out.kind === 'bytes') yield out.bytes;
}

/** Uncompressed WARC 1.1. */
export const writeWarc: FormatWriter = (source, context) => warcBytes(source, context, { gzip: false });

/** WARC 1.1 with every record its own gzip member, so a reader can start at any record's offset. */
export const writeWarcGz: FormatWriter = (source, context) => warcBytes(source, context, { gzip: true });

/** The warcinfo lines of each setting that has some, in their order. */
const WARCINFO_SETTINGS = SETTING_ENTRIES.flatMap((entry) =>
  entry.warcinfo === undefined ? [] : [entry.warcinfo],
).sort((a, b) => a.at - b.at);

/**
 * The `warcinfo` record: the software, the format, and the crawl's settings
 * as `application/warc-fields`. `software`, `format`, `conformsTo`,
 * `isPartOf`, `description` and `robots` are the field names WARC 1.1 §6.2
 * suggests; the settings keep their names from `CrawlSettings`
 * (`excludePattern` once per pattern, `extraOrigin` once per extra site), as
 * each entry's `warcinfo` in `core/setting-table.ts` writes them.
 */
function warcinfoRecord(crawl: CrawlRecord, context: ExportContext, id: string): RecordDraft {
  const settings = crawl.settings;
  const info: WarcField[] = [
    ['software', context.software],
    ['format', 'WARC File Format 1.1'],
    ['conformsTo', WARC_CONFORMS_TO],
    ['isPartOf', crawl.id],
    ['description', `Crawl of ${settings.startUrl}`],
    ['robots', 'obey'],
    ['startUrl', settings.startUrl],
    ...WARCINFO_SETTINGS.flatMap((warcinfo) => warcinfo.fields(settings)),
  ];
  const fields: WarcField[] = [
    ['WARC-Date', warcDate(context.now.getTime())],
    ['Content-Type', WARC_FIELDS_TYPE],
  ];
  return draft('warcinfo', id, fields, [encodeFields(info)]);
}

/** A record to be framed once its block's digest is known. */
function draft(type: WarcType, id: string, fields: readonly WarcField[], block: readonly Uint8Array[]): RecordDraft {
  return { type, id, fields, block };
}

/** The records of one row: metadata when never answered, else request + response (or revisit). */
async function rowRecords(row: PageRecord, state: WarcState, group: RowGroup): Promise<RowRecord[]> {
  if (row.status === null) return [{ record: metadataRecord(row, state), index: null }];
  const method = row.methods.at(-1) ?? 'GET';
  if (isUnreadCheck(row, method)) return [{ record: checkedRecord(row, row.status, state), index: null }];
  const exchange: Exchange = {
    row,
    status: row.status,
    method,
    date: warcDate(row.fetchedAt ?? state.context.now.getTime()),
    requestId: newRecordId(),
    answerId: newRecordId(),
  };
  const first =
    row.duplicateOf !== null && row.sha256 !== null && method === 'GET'
      ? state.firstCaptures.get(row.sha256)
      : undefined;
  const answer =
    first === undefined
      ? responseRecord(exchange, state, await bodyOf(row, state, group))
      : revisitRecord(exchange, first, state);
  return [{ record: requestRecord(exchange, state), index: null }, answer];
}

/** The fields every record about a URL carries. */
function targetFields(row: PageRecord, date: string, state: WarcState): WarcField[] {
  return [
    ['WARC-Date', date],
    ['WARC-Target-URI', row.url],
    ['WARC-Warcinfo-ID', state.warcinfoId],
  ];
}

/** `WARC-IP-Address` when the browser reported it. @see WARC 1.1 §5.11 */
function ipFields(row: PageRecord): WarcField[] {
  return row.ipAddress === null ? [] : [['WARC-IP-Address', row.ipAddress]];
}

/**
 * The `request` record. Without reported request headers, `Host` and
 * `User-Agent` are reconstructed; the User-Agent names the exporting
 * software (the crawl's own header is set by the browser extension and not
 * stored with the row). @see WARC 1.1 §6.4
 */
function requestRecord(exchange: Exchange, state: WarcState): RecordDraft {
  const { row, method, date, requestId, answerId } = exchange;
  const userAgent = `Mozilla/5.0 (compatible; ${state.context.software})`;
  const fields: WarcField[] = [
    ...targetFields(row, date, state),
    ...ipFields(row),
    ['WARC-Concurrent-To', answerId],
    ['Content-Type', HTTP_REQUEST_TYPE],
  ];
  return draft('request', requestId, fields, [requestHead(row, method, userAgent)]);
}

/** The stored body a response to this row carries: read with its group, or alone when the group lacks it (rare: see `warc-groups.ts`). */
async function bodyOf(row: PageRecord, state: WarcState, group: RowGroup): Promise<Uint8Array | undefined> {
  if (row.sha256 === null || !mayCarryBody(row)) return undefined;
  return group.bodies.has(row.sha256) ? group.bodies.get(row.sha256) : state.source.body(row.sha256);
}

/**
 * The `response` record: status line, archived headers, and the stored body
 * byte for byte (empty when none was stored). The payload digest of a stored
 * body is its key: bodies are stored under their SHA-256. @see WARC 1.1 §6.3
 */
function responseRecord(exchange: Exchange, state: WarcState, body: Uint8Array | undefined): RowRecord {
  const { row, status, method, date, requestId, answerId } = exchange;
  const payload = body ?? EMPTY;
  const headers = archivedResponseHeaders(row.headers, method === 'HEAD' ? null : payload.byteLength);
  const head = encodeHttpHead(statusLineOf(status, row.statusLine), headers);
  const digest = body === undefined || row.sha256 === null ? EMPTY_DIGEST : sha256Label(row.sha256);
  const truncated = truncationOf(row, status, method, body !== undefined);
  const fields: WarcField[] = [
    ...targetFields(row, date, state),
    ...ipFields(row),
    ['WARC-Concurrent-To', requestId],
    ['Content-Type', HTTP_RESPONSE_TYPE],
    ['WARC-Payload-Digest', digest],
    ...(truncated === null ? [] : [['WARC-Truncated', truncated] as const]),
  ];
  if (body !== undefined && row.sha256 !== null && !state.firstCaptures.has(row.sha256)) {
    state.firstCaptures.set(row.sha256, { url: row.url, date, id: answerId, digest, length: payload.byteLength });
  }
  const record = draft('response', answerId, fields, [head, payload]);
  return {
    record,
    index: { url: row.url, date, status, mime: indexMediaType(row), digest, recordType: 'response', method },
  };
}

/**
 * A `revisit` record for a body identical to an earlier capture in this
 * file: the HTTP headers only (their `content-length` is the first
 * capture's payload size), and where the payload is.
 * @see WARC 1.1 §6.7, §6.7.2 (identical-payload-digest profile)
 */
function revisitRecord(exchange: Exchange, first: FirstCapture, state: WarcState): RowRecord {
  const { row, status, method, date, requestId, answerId } = exchange;
  const headers = archivedResponseHeaders(row.headers, first.length);
  const head = encodeHttpHead(statusLineOf(status, row.statusLine), headers);
  const fields: WarcField[] = [
    ...targetFields(row, date, state),
    ...ipFields(row),
    ['WARC-Concurrent-To', requestId],
    ['Content-Type', HTTP_RESPONSE_TYPE],
    ['WARC-Profile', REVISIT_PROFILE],
    ['WARC-Refers-To', first.id],
    ['WARC-Refers-To-Target-URI', first.url],
    ['WARC-Refers-To-Date', first.date],
    ['WARC-Payload-Digest', first.digest],
  ];
  const record = draft('revisit', answerId, fields, [head]);
  return {
    record,
    index: {
      url: row.url,
      date,
      status,
      mime: indexMediaType(row),
      digest: first.digest,
      recordType: 'revisit',
      method,
    },
  };
}

/**
 * A `metadata` record for a URL that got no answer: why, as
 * `application/warc-fields` (`blockedBy`/`rule`, or `error`/`message`),
 * with `via` (the referring page) and `fetchTimeMs` as WARC 1.1 §6.5
 * suggests. Its date is the request's start, or the export's time for a
 * URL never requested.
 */
function metadataRecord(row: PageRecord, state: WarcState): RecordDraft {
  const info: WarcField[] = [];
  if (row.referrer !== null) info.push(['via', row.referrer]);
  if (row.blockedBy !== null) {
    info.push(['blockedBy', row.blockedBy]);
    if (row.blockedRule !== null) info.push(['rule', row.blockedRule]);
  }
  if (row.error !== null) info.push(['error', row.error.code], ['message', row.error.message]);
  if (row.blockedBy === null && row.error === null) info.push(['error', 'unknown']);
  if (row.responseTimeMs !== null) info.push(['fetchTimeMs', String(row.responseTimeMs)]);
  const fields: WarcField[] = [
    ...targetFields(row, warcDate(row.fetchedAt ?? state.context.now.getTime()), state),
    ['Content-Type', WARC_FIELDS_TYPE],
  ];
  return draft('metadata', newRecordId(), fields, [encodeFields(info)]);
}

/**
 * A link to another site checked with GET: its body is cancelled unread by design (`external-kind.ts`), never
 * stored. (A row of another site imported from an archive with its body, a page `wget -H` captured, is a capture.)
 */
function isUnreadCheck(row: PageRecord, method: 'GET' | 'HEAD'): boolean {
  return row.kind === 'external' && method === 'GET' && row.sha256 === null;
}

/**
 * The `metadata` record of a link to another site checked with `GET`: what the check learned, as
 * `application/warc-fields`: `via` (the linking page), `method` once per request sent (`HEAD`, then
 * `GET`), `status`, `contentType`, `location` (a redirect's target), `fetchTimeMs`, and `body: not read`.
 * Not a `response`: there is no body to replay, and an empty one would replay as the page.
 */
function checkedRecord(row: PageRecord, status: number, state: WarcState): RecordDraft {
  const info: WarcField[] = [];
  if (row.referrer !== null) info.push(['via', row.referrer]);
  for (const method of row.methods) info.push(['method', method]);
  info.push(['status', String(status)]);
  if (row.contentType !== null) info.push(['contentType', row.contentType]);
  if (row.location !== null) info.push(['location', row.location]);
  if (row.responseTimeMs !== null) info.push(['fetchTimeMs', String(row.responseTimeMs)]);
  info.push(['body', 'not read']);
  const fields: WarcField[] = [
    ...targetFields(row, warcDate(row.fetchedAt ?? state.context.now.getTime()), state),
    ...ipFields(row),
    ['Content-Type', WARC_FIELDS_TYPE],
  ];
  return draft('metadata', newRecordId(), fields, [encodeFields(info)]);
}

/**
 * Why a response's payload is shorter than what the server sent, if it is
 * (`WARC-Truncated`, WARC 1.1 §5.13): `length` when the body was cut at its
 * size limit or deliberately not downloaded (a redirect's or an error's
 * body, a linked file past the resource budget or in a crawl that does not
 * download files); `unspecified` when the stored body could not be read
 * back. A body stored whole (a page, a resource, a file) is not marked. Not
 * marked: HEAD answers and 1xx/204/304, which have no body (RFC 9110 §6.4.1),
 * and answers that declared `content-length: 0`.
 */
function truncationOf(
  row: PageRecord,
  status: number,
  method: 'GET' | 'HEAD',
  hasBody: boolean,
): 'length' | 'unspecified' | null {
  if (method === 'HEAD') return null;
  if (row.truncated) return 'length';
  if (hasBody) return null;
  if (row.sha256 !== null) return 'unspecified';
  if (status < 200 || status === 204 || status === 304) return null;
  if (headerValue(row.headers, 'content-length')?.trim() === '0') return null;
  return 'length';
}

/** Media type of the row's answer for the index, lower-cased, without parameters; null when absent or malformed. */
function indexMediaType(row: PageRecord): string | null {
  return parseContentType(headerValue(row.headers, 'content-type') ?? row.contentType).mediaType;
}

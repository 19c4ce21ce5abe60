/**
 * A streaming WARC reader: a `.warc` or `.warc.gz` file in (a stream, a
 * Blob or File), its records out, one at a time, each with its WARC header
 * fields, its HTTP message when it holds one, its payload as archived and
 * its body as a browser would read it, and where it is in the file.
 *
 * - WARC/1.0 and WARC/1.1 (and the 0.17/0.18 drafts), plain or gzipped: one
 *   gzip member per record, several records per member, or one member over
 *   the whole file; gzip is recognised by its first bytes, not by the name.
 * - `WARC-Target-URI` (and `WARC-Refers-To-Target-URI`) written in angle
 *   brackets, as old wget versions write it, are read without them.
 * - Memory: one record at a time, its block held up to `maxRecordBytes`
 *   (the rest is skipped, and the record marked `blockCut`); never the file.
 * - A wrong `Content-Length`: what follows the block up to the next line that
 *   starts a record (`WARC/…`) is skipped, and the record carries a warning.
 *   Reading goes on.
 * - The end of the data inside a record, gzip data that does not inflate, or
 *   bytes that are not a WARC record where one must start end the reading
 *   with an {@link ArchiveReadError} naming the file and the byte; every
 *   record before it has been handed out whole. A record is handed out only
 *   once its block has been read to its end.
 *
 * It is the reader Tabcrawl imports with (`docs/import.md`); warcio.js, the
 * reference in the tests, reads the same records from the same files but
 * neither reports a cut file nor stops on one when a record is skipped.
 *
 * @see ISO 28500:2017 (WARC 1.1), https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/
 */
import { ArchiveReadError } from './archive-error.ts';
import { ByteReader, LineTooLongError } from './byte-reader.ts';
import { type ByteInput, type DataSource, GzipDataError, openDataSource } from './byte-source.ts';
import { type BodyDecoding, type ContentDecoder, decodeBody, type HttpHead, parseHttpHead } from './http-message.ts';

/** Default of {@link WarcReadOptions.maxRecordBytes}: 64 MiB, above Tabcrawl's own largest stored body (50 MiB). */
export const DEFAULT_MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** Longest WARC header section read (the first line and the fields). */
export const MAX_WARC_HEAD_BYTES = 1024 * 1024;

export interface WarcReadOptions {
  /** The file's name as the user knows it, for error messages and warnings. */
  fileName: string;
  /**
   * Most bytes of a record's block kept in memory (default 64 MiB). A longer
   * block is read on and dropped past this; the record says `blockCut`, its
   * payload and body hold the start only.
   */
  maxRecordBytes?: number;
  /** Decode HTTP bodies (de-chunk, remove content codings) into `body` (default true). */
  decodeBodies?: boolean;
  /** Decoders for content codings fflate does not read (`br`, `zstd`), by coding name. */
  decoders?: Readonly<Record<string, ContentDecoder>>;
  /** Called with the file bytes read so far (compressed bytes for gzip) as reading goes: for a progress bar. */
  onProgress?: (fileBytesRead: number) => void;
}

/** One WARC record as read. */
export interface WarcRecord {
  /** Its place among the file's records, from 0. */
  index: number;
  /** The version line as written: `WARC/1.0`, `WARC/1.1`. */
  version: string;
  /** `WARC-Type`, lower-cased (`response`, `request`, `revisit`, `resource`, `metadata`, `warcinfo`, `conversion`, `continuation`); `''` when absent. */
  type: string;
  /** Every WARC header field in order, names as written, values trimmed. */
  fields: [string, string][];
  /** `WARC-Target-URI` without the angle brackets old wget writes; null when absent. */
  targetUri: string | null;
  /** `WARC-Date` as written (ISO 8601, UTC). */
  date: string | null;
  /** `WARC-Date` in ms since the epoch; null when absent or not a date. */
  dateMs: number | null;
  recordId: string | null;
  /** `WARC-Concurrent-To` values (the field may repeat). */
  concurrentTo: string[];
  /** `WARC-Refers-To`: the record id a revisit (or metadata) refers to. */
  refersTo: string | null;
  /** `WARC-Refers-To-Target-URI` without angle brackets: the URL of the capture a revisit repeats (may be another URL than its own). */
  refersToTargetUri: string | null;
  refersToDate: string | null;
  /** `WARC-Profile` of a revisit. */
  profile: string | null;
  payloadDigest: string | null;
  blockDigest: string | null;
  /** `Content-Type` of the block (`application/http; msgtype=response`, `image/png` for a resource…). */
  contentType: string | null;
  /** `Content-Length` as declared: the block's size. */
  contentLength: number;
  /** `WARC-Truncated`: the archive says its recorder cut the block (`length`, `time`, `disconnect`, `unspecified`). */
  warcTruncated: string | null;
  ipAddress: string | null;
  /**
   * Where a reader can start in the file to read this record: in a plain
   * WARC, its first byte; in a gzipped one, the start of the gzip member that
   * holds its first byte (with a member per record, the record's own member,
   * as CDXJ indexes count).
   */
  offset: number;
  /**
   * Bytes of the file from `offset` to where the next record can be read
   * (or the end of the file): in a plain WARC the record with what follows
   * it; with a gzip member per record, that member's size; 0 when the next
   * record starts in the same gzip member (one member over the whole file).
   */
  length: number;
  /** Where the record starts in the uncompressed WARC (equal to `offset` for a plain file). */
  dataOffset: number;
  /** The record block: all of it, or its first `maxRecordBytes` when `blockCut`. */
  block: Uint8Array;
  /** The block was longer than `maxRecordBytes`: `block`, `payload` and `body` hold its start only. */
  blockCut: boolean;
  /** The HTTP start line and header fields of a `request`, `response` or `revisit` record; null for other records or when the block holds none. */
  http: HttpHead | null;
  /**
   * The payload exactly as archived: after the HTTP head for HTTP records
   * (chunk framing and content codings kept, as the server sent them), the
   * block for other records.
   */
  payload: Uint8Array;
  /**
   * The payload as a browser would read it: for a `response` or `resource`,
   * de-chunked and decoded of its content codings when its HTTP headers say so
   * (see `bodyDecoding`); the payload itself otherwise. Same bytes as
   * `payload` when there was nothing to undo.
   */
  body: Uint8Array;
  /** What was undone to make `body` from `payload`; null when nothing was tried (no HTTP head, or decoding off). */
  bodyDecoding: BodyDecoding | null;
  /** Oddities met and got past (a wrong `Content-Length`, a body that would not decode…), in words. */
  warnings: string[];
}

const WARC_PREFIX = new TextEncoder().encode('WARC/');
const VERSION_LINE = /^WARC\/(\d+)\.(\d+)$/;
const utf8 = new TextDecoder('utf-8');

/** The first value of a WARC header field by name (any case), or null. */
export function warcField(fields: readonly (readonly [string, string])[], name: string): string | null {
  const lower = name.toLowerCase();
  for (const [n, v] of fields) if (n.toLowerCase() === lower) return v;
  return null;
}

/** A URI field's value without the angle brackets some writers put around it (`<http://…>`). */
export function stripAngleBrackets(value: string | null): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  return trimmed.startsWith('<') && trimmed.endsWith('>') ? trimmed.slice(1, -1).trim() : trimmed;
}

/**
 * Reads the records of a WARC file, in order.
 * @throws ArchiveReadError when the file is not a WARC, is cut short, or its gzip data is corrupt; the
 *   records before have been yielded. Stopping the iteration early stops reading the input.
 */
export async function* readWarc(input: ByteInput, options: WarcReadOptions): AsyncGenerator<WarcRecord> {
  const { fileName } = options;
  let source: DataSource;
  try {
    source = await openDataSource(input, fileName, options.onProgress);
  } catch (error) {
    throw asArchiveError(error, fileName, 0, 0);
  }
  const reader = new ByteReader(source);
  let index = 0;
  /** What the record being read is, for messages. */
  let current = '';
  try {
    await reader.skipLineEndings();
    while ((await reader.peek()) !== -1) {
      const start = reader.position;
      const offset = source.seekOffset(start);
      current = ` in record ${index + 1} (which starts at byte ${offset})`;
      const head = await readHead(reader, source, fileName, index, offset);
      current = ` in record ${index + 1} (${head.type || 'record'}${head.targetUri === null ? '' : ` ${head.targetUri}`}, which starts at byte ${offset})`;
      const maxBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
      const { bytes: block, read } = await reader.read(head.contentLength, maxBytes);
      if (read < head.contentLength) {
        throw new ArchiveReadError(
          'truncated',
          fileName,
          source.fileBytesRead,
          `the file ends${current}: its block is ${head.contentLength} bytes, only ${read} are there`,
          index,
        );
      }
      const warnings: string[] = [];
      // The record is whole: what follows it may be cut or broken, which must not cost this record.
      let after: string | null = null;
      let nextOffset: number;
      let failure: unknown = null;
      try {
        after = await afterBlock(reader, warnings);
        const end = reader.position;
        const atEnd = (await reader.peek()) === -1;
        nextOffset = atEnd ? (source.compression === 'gzip' ? source.fileBytesRead : end) : source.seekOffset(end);
      } catch (error) {
        failure = error;
        nextOffset = source.compression === 'gzip' ? source.fileBytesRead : reader.position;
      }
      const record = await buildRecord(head, block, head.contentLength > block.length, options, warnings);
      record.index = index;
      record.offset = offset;
      record.length = Math.max(0, nextOffset - offset);
      record.dataOffset = start;
      if (after !== null) warnings.push(after);
      index += 1;
      current = ` after record ${index} (which starts at byte ${offset})`;
      yield record;
      if (failure !== null) throw failure;
      current = '';
    }
  } catch (error) {
    throw asArchiveError(error, fileName, source.fileBytesRead, index, current);
  } finally {
    await source.close();
  }
}

/** Any failure as an {@link ArchiveReadError}: one from the gzip layer gets the record it happened in. */
function asArchiveError(
  error: unknown,
  fileName: string,
  offset: number,
  recordsRead: number,
  context = '',
): ArchiveReadError {
  if (error instanceof GzipDataError)
    return new ArchiveReadError(error.kind, error.fileName, error.offset, `${error.detail}${context}`, recordsRead);
  if (error instanceof ArchiveReadError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ArchiveReadError('corrupt', fileName, offset, `cannot be read${context}: ${reason}`, recordsRead);
}

/** A record's WARC head: the version line and the fields, read up to the blank line that ends them. */
interface WarcHead {
  version: string;
  type: string;
  fields: [string, string][];
  targetUri: string | null;
  contentLength: number;
}

async function readHead(
  reader: ByteReader,
  source: DataSource,
  fileName: string,
  index: number,
  offset: number,
): Promise<WarcHead> {
  let budget = MAX_WARC_HEAD_BYTES;
  const line = async (): Promise<string | null> => {
    let bytes: Uint8Array | null;
    try {
      bytes = await reader.readLine(budget);
    } catch (error) {
      if (!(error instanceof LineTooLongError)) throw error;
      throw new ArchiveReadError(
        'not-warc',
        fileName,
        offset,
        `the WARC header of record ${index + 1} is longer than ${MAX_WARC_HEAD_BYTES} bytes: this is not a WARC record`,
        index,
      );
    }
    if (bytes === null) return null;
    budget -= bytes.length;
    if (bytes[bytes.length - 1] !== 0x0a) {
      throw new ArchiveReadError(
        'truncated',
        fileName,
        source.fileBytesRead,
        `the file ends inside the WARC header of record ${index + 1} (which starts at byte ${offset})`,
        index,
      );
    }
    return utf8.decode(bytes).replace(/\r?\n$/, '');
  };

  const notWarc = (found: string): ArchiveReadError =>
    new ArchiveReadError(
      'not-warc',
      fileName,
      offset,
      index === 0
        ? `this is not a WARC file: it starts with ${quote(found)}`
        : `record ${index + 1} does not start with a WARC version line: found ${quote(found)}`,
      index,
    );
  const opening = await reader.peekBytes(WARC_PREFIX.length);
  if (!WARC_PREFIX.every((byte, i) => byte === opening[i])) {
    if (opening.length < WARC_PREFIX.length && opening.every((byte, i) => byte === WARC_PREFIX[i])) {
      throw new ArchiveReadError(
        'truncated',
        fileName,
        source.fileBytesRead,
        `the file ends inside the WARC header of record ${index + 1} (which starts at byte ${offset})`,
        index,
      );
    }
    const { bytes } = await reader.read(64, 64);
    throw notWarc(utf8.decode(bytes).split(/\r?\n/)[0] ?? '');
  }
  const first = (await line()) ?? '';
  const version = first.trim();
  if (!VERSION_LINE.test(version)) throw notWarc(first);
  const fields: [string, string][] = [];
  for (;;) {
    const text = await line();
    if (text === null) {
      throw new ArchiveReadError(
        'truncated',
        fileName,
        source.fileBytesRead,
        `the file ends inside the WARC header of record ${index + 1} (which starts at byte ${offset})`,
        index,
      );
    }
    if (text.trim() === '') break;
    const last = fields.at(-1);
    if ((text.startsWith(' ') || text.startsWith('\t')) && last !== undefined) {
      last[1] = `${last[1]} ${text.trim()}`.trim();
      continue;
    }
    const colon = text.indexOf(':');
    if (colon <= 0) continue; // Not a field: ignored, as warcio.js does.
    fields.push([text.slice(0, colon).trim(), text.slice(colon + 1).trim()]);
  }
  const lengthText = warcField(fields, 'Content-Length');
  if (lengthText === null || !/^\d{1,15}$/.test(lengthText)) {
    throw new ArchiveReadError(
      'not-warc',
      fileName,
      offset,
      `record ${index + 1} has no valid Content-Length (${lengthText === null ? 'none' : quote(lengthText)}): where it ends cannot be known`,
      index,
    );
  }
  return {
    version,
    type: (warcField(fields, 'WARC-Type') ?? '').toLowerCase(),
    fields,
    targetUri: stripAngleBrackets(warcField(fields, 'WARC-Target-URI')),
    contentLength: Number(lengthText),
  };
}

/**
 * Reads what follows a block: the CRLF CRLF that ends a record, and any
 * blank lines after it. Anything else up to the next `WARC/` line is
 * skipped (a `Content-Length` too small leaves part of the block there).
 * Returns a warning when what followed was not just CRLF CRLF.
 */
async function afterBlock(reader: ByteReader, warnings: string[]): Promise<string | null> {
  const endings = await reader.skipLineEndings();
  if ((await reader.peek()) === -1) {
    return endings === 4 || endings === 0
      ? null
      : `the record is followed by ${endings} line-ending bytes instead of CRLF CRLF`;
  }
  if (await reader.startsWith(WARC_PREFIX)) {
    return endings === 4 ? null : `the record is followed by ${endings} line-ending bytes instead of CRLF CRLF`;
  }
  const from = reader.position;
  const { skipped, found } = await reader.skipToLineStartingWith(WARC_PREFIX);
  warnings.push(
    found
      ? `its Content-Length does not match its block: ${skipped} bytes between its end and the next record (from byte ${from} of the uncompressed data) were skipped`
      : `${skipped} bytes after the last record (from byte ${from} of the uncompressed data) are not a WARC record: ignored`,
  );
  return null;
}

/** Fills a record from its head and block (its place in the file is set by the caller). */
async function buildRecord(
  head: WarcHead,
  block: Uint8Array,
  blockCut: boolean,
  options: WarcReadOptions,
  warnings: string[],
): Promise<WarcRecord> {
  const { fields, type } = head;
  const field = (name: string): string | null => warcField(fields, name);
  const date = field('WARC-Date');
  const parsedDate = date === null ? Number.NaN : Date.parse(date);
  let http: HttpHead | null = null;
  if (block.length > 0 && (type === 'response' || type === 'revisit')) http = parseHttpHead(block, 'response');
  else if (block.length > 0 && type === 'request') http = parseHttpHead(block, 'request');
  if (
    http === null &&
    block.length > 0 &&
    (type === 'response' || type === 'request') &&
    /application\/http/i.test(field('Content-Type') ?? '')
  ) {
    warnings.push('its block is declared as an HTTP message but does not start with one: read as bytes');
  }
  const payload = http === null ? block : block.subarray(http.length);
  let body = payload;
  let bodyDecoding: BodyDecoding | null = null;
  if (http !== null && type === 'response' && options.decodeBodies !== false) {
    const decoded = await decodeBody(payload, http.headers, {
      maxBytes: options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES,
      ...(options.decoders === undefined ? {} : { decoders: options.decoders }),
    });
    body = decoded.body;
    bodyDecoding = decoded.decoding;
    warnings.push(...decoded.decoding.problems);
  }
  return {
    index: 0,
    version: head.version,
    type,
    fields,
    targetUri: head.targetUri,
    date,
    dateMs: Number.isFinite(parsedDate) ? parsedDate : null,
    recordId: field('WARC-Record-ID'),
    concurrentTo: fields
      .filter(([name]) => name.toLowerCase() === 'warc-concurrent-to')
      .flatMap(([, value]) => value.split(/[\s,]+/).filter((id) => id !== '')),
    refersTo: field('WARC-Refers-To'),
    refersToTargetUri: stripAngleBrackets(field('WARC-Refers-To-Target-URI')),
    refersToDate: field('WARC-Refers-To-Date'),
    profile: field('WARC-Profile'),
    payloadDigest: field('WARC-Payload-Digest'),
    blockDigest: field('WARC-Block-Digest'),
    contentType: field('Content-Type'),
    contentLength: head.contentLength,
    warcTruncated: field('WARC-Truncated'),
    ipAddress: field('WARC-IP-Address'),
    offset: 0,
    length: 0,
    dataOffset: 0,
    block,
    blockCut,
    http,
    payload,
    body,
    bodyDecoding,
    warnings,
  };
}

/** A line of the file as a message shows it: at most 60 characters, control characters escaped. */
function quote(text: string): string {
  const shown = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  return JSON.stringify(
    shown.replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, (c) =>
      c === '\ufffd' ? '?' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
    ),
  );
}

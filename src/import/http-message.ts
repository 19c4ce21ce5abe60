/**
 * The HTTP message inside a `request`, `response` or `revisit` record: its
 * start line and header fields, where its payload starts, and the payload
 * made readable: de-chunked (`Transfer-Encoding: chunked`) and decoded
 * (`Content-Encoding`), as a browser's `fetch` would hand it over.
 *
 * The payload as archived is never changed: {@link decodeBody} returns new
 * bytes (or the same ones when there is nothing to undo).
 *
 * @see RFC 9112 §2 (message format), §7.1 (chunked); RFC 9110 §8.4 (content codings)
 */
import { type FlateStreamHandler, Gunzip, Inflate, Unzlib } from 'fflate';
import { concat } from './bytes.ts';

/** Longest HTTP head read (start line and header fields). */
export const MAX_HTTP_HEAD_BYTES = 1024 * 1024;

/** The head of an HTTP message as archived. */
export interface HttpHead {
  /** The first line, without its line ending: `HTTP/1.1 200 OK` or `GET /path HTTP/1.1`. */
  startLine: string;
  /** A response's status code (`HTTP/x 200 …`); null for a request or a status line without one. */
  status: number | null;
  /** A request's method (`GET`, `HEAD`…); null for a response. */
  method: string | null;
  /** Header fields in order, names as written, values trimmed (a folded value joined with a space). */
  headers: [string, string][];
  /** Bytes of the head in the block, blank line included: the payload starts there. */
  length: number;
}

/** The first value of a header field, by name in any case, or null. */
export function headerOf(headers: readonly (readonly [string, string])[], name: string): string | null {
  const lower = name.toLowerCase();
  for (const [n, v] of headers) if (n.toLowerCase() === lower) return v;
  return null;
}

const STATUS_LINE = /^HTTP\/\d+(?:\.\d+)?\s+(\d{3})(?:\s.*)?$/;
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s+\S+(?:\s+HTTP\/\d+(?:\.\d+)?)?$/;

const utf8 = new TextDecoder('utf-8');

/**
 * Parses the HTTP head at the start of a record block; null when the block
 * does not start with an HTTP message (a `response` record of a `dns:` lookup,
 * a revisit without headers) or its head does not end within the block.
 * @param kind what the record should hold.
 */
export function parseHttpHead(block: Uint8Array, kind: 'request' | 'response'): HttpHead | null {
  const end = headEnd(block);
  if (end === -1) return null;
  const text = utf8.decode(block.subarray(0, end));
  const lines = text.split(/\r?\n/);
  const startLine = (lines.shift() ?? '').trim();
  let status: number | null = null;
  let method: string | null = null;
  if (kind === 'response') {
    const match = STATUS_LINE.exec(startLine);
    if (match === null) return null;
    status = Number(match[1]);
  } else {
    const match = REQUEST_LINE.exec(startLine);
    if (match === null) return null;
    method = match[1] ?? null;
  }
  const headers: [string, string][] = [];
  for (const line of lines) {
    if (line === '') continue;
    const last = headers.at(-1);
    if ((line.startsWith(' ') || line.startsWith('\t')) && last !== undefined) {
      last[1] = `${last[1]} ${line.trim()}`.trim();
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return { startLine, status, method, headers, length: end };
}

/** Where the head ends (after its blank line: CRLF CRLF, or LF LF), or -1 within {@link MAX_HTTP_HEAD_BYTES}. */
function headEnd(block: Uint8Array): number {
  const limit = Math.min(block.length, MAX_HTTP_HEAD_BYTES);
  for (let i = block.indexOf(0x0a); i !== -1 && i < limit; i = block.indexOf(0x0a, i + 1)) {
    const next = block[i + 1];
    if (next === 0x0a) return i + 2;
    if (next === 0x0d && block[i + 2] === 0x0a) return i + 3;
  }
  return -1;
}

/** A content decoder the platform may lack (brotli, zstd): the encoded bytes in, the decoded bytes out. */
export type ContentDecoder = (encoded: Uint8Array, maxBytes: number) => Promise<Uint8Array>;

/** What was undone to make a payload's body, and what could not be. */
export interface BodyDecoding {
  /** The payload was sent chunked and the chunk framing was removed. */
  dechunked: boolean;
  /** Content codings removed, in the order they were undone (`["gzip"]`). */
  decoded: string[];
  /** A content coding that could not be removed (unknown, no decoder, or bad data): the body is still encoded with it. */
  stillEncoded: string | null;
  /** The body stops before the end of the payload's data (its chunks or its coding end early, or it passed `maxBytes`). */
  incomplete: boolean;
  /** What went wrong, for the record's warnings. */
  problems: string[];
}

/** Options of {@link decodeBody}. */
export interface DecodeOptions {
  /** Most bytes of body kept; decoding stops there (a body that inflates past it is `incomplete`). */
  maxBytes: number;
  /** Decoders for codings fflate does not read, by coding name (`br`, `zstd`); tried before the platform's `DecompressionStream`. */
  decoders?: Readonly<Record<string, ContentDecoder>>;
}

/**
 * The body of an HTTP payload: de-chunked when `Transfer-Encoding` ends in
 * `chunked`, then decoded of each `Content-Encoding` in reverse order. When a
 * step fails, its input is kept and the failure noted: an archive whose
 * headers say `gzip` over a payload stored decoded (some recorders do that)
 * still gives its body.
 */
export async function decodeBody(
  payload: Uint8Array,
  headers: readonly (readonly [string, string])[],
  options: DecodeOptions,
): Promise<{ body: Uint8Array; decoding: BodyDecoding }> {
  const decoding: BodyDecoding = { dechunked: false, decoded: [], stillEncoded: null, incomplete: false, problems: [] };
  let body = payload;
  const transfer = codings(headerOf(headers, 'transfer-encoding'));
  if (transfer.at(-1) === 'chunked') {
    const result = dechunk(payload);
    if (result === null) {
      decoding.problems.push('the payload is declared chunked but is not: kept as it is');
    } else {
      body = result.body;
      decoding.dechunked = true;
      if (!result.complete) {
        decoding.incomplete = true;
        decoding.problems.push('the chunked payload ends before its last chunk');
      }
    }
  }
  // Codings other than chunked in Transfer-Encoding apply like content codings (RFC 9112 §6.1), before them.
  const content = [
    ...codings(headerOf(headers, 'content-encoding')),
    ...transfer.filter((coding) => coding !== 'chunked'),
  ];
  for (const coding of content.reverse()) {
    if (coding === 'identity' || body.length === 0) continue;
    const result = await decodeCoding(body, coding, options);
    if (result === 'not-this-coding') {
      // Recorders that store bodies decoded sometimes keep the header: the payload is read as it is.
      decoding.problems.push(`the payload is not ${coding} data although its headers say so: read as it is`);
      continue;
    }
    if (result === 'unsupported') {
      decoding.stillEncoded = coding;
      decoding.problems.push(`content coding ${coding} cannot be decoded here: the body is kept encoded`);
      break;
    }
    body = result.bytes;
    decoding.decoded.push(coding);
    if (result.incomplete) {
      decoding.incomplete = true;
      decoding.problems.push(`the ${coding} data ends early or passes the size cap`);
    }
  }
  if (body.length > options.maxBytes) {
    body = body.subarray(0, options.maxBytes);
    decoding.incomplete = true;
  }
  return { body, decoding };
}

/** The codings of a header value, lower-cased, in order (`gzip, chunked` → `["gzip", "chunked"]`). */
function codings(value: string | null): string[] {
  if (value === null) return [];
  return value
    .split(',')
    .map((part) => (part.split(';')[0] ?? '').trim().toLowerCase())
    .filter((part) => part !== '');
}

/**
 * Removes the chunk framing: `size[;ext] CRLF data CRLF`… `0 CRLF` trailers `CRLF`.
 * Null when the payload does not start with a chunk; `complete` false when it
 * ends (or goes wrong) before the last chunk, with the chunks read so far.
 */
export function dechunk(payload: Uint8Array): { body: Uint8Array; complete: boolean } | null {
  const parts: Uint8Array[] = [];
  let length = 0;
  let at = 0;
  let first = true;
  for (;;) {
    const lineEnd = payload.indexOf(0x0a, at);
    if (lineEnd === -1 || lineEnd - at > 1024) return first ? null : { body: concat(parts, length), complete: false };
    const sizeText = new TextDecoder('latin1').decode(payload.subarray(at, lineEnd)).split(';')[0]?.trim() ?? '';
    if (!/^[0-9a-fA-F]{1,15}$/.test(sizeText)) return first ? null : { body: concat(parts, length), complete: false };
    const size = Number.parseInt(sizeText, 16);
    at = lineEnd + 1;
    first = false;
    if (size === 0) return { body: concat(parts, length), complete: true };
    const data = payload.subarray(at, at + size);
    parts.push(data);
    length += data.length;
    if (data.length < size) return { body: concat(parts, length), complete: false };
    at += size;
    // The CRLF after the data (a lone LF is tolerated).
    if (payload[at] === 0x0d) at += 1;
    if (payload[at] !== 0x0a) return { body: concat(parts, length), complete: false };
    at += 1;
  }
}

/** Decoded bytes; or why not: a coding this reader cannot decode, or data that is not in that coding at all. */
type CodingResult = { bytes: Uint8Array; incomplete: boolean } | 'unsupported' | 'not-this-coding';

/** Decodes one content coding. */
async function decodeCoding(bytes: Uint8Array, coding: string, options: DecodeOptions): Promise<CodingResult> {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return inflateWith(() => new Gunzip(), bytes, options.maxBytes) ?? 'not-this-coding';
    case 'deflate':
      // "deflate" is zlib-wrapped (RFC 9110 §8.4.1.2); some servers send raw deflate.
      return (
        inflateWith(() => new Unzlib(), bytes, options.maxBytes) ??
        inflateWith(() => new Inflate(), bytes, options.maxBytes) ??
        'not-this-coding'
      );
    default:
      return decodeOther(bytes, coding, options);
  }
}

interface FflateStream {
  ondata: FlateStreamHandler;
  push(chunk: Uint8Array, final?: boolean): void;
}

/**
 * Inflates with a fflate stream, stopping once `maxBytes` are out (a small
 * payload cannot inflate the heap). Null when the data is not of that format
 * at all; `incomplete` when it ends early or was cut at `maxBytes`.
 */
function inflateWith(
  make: () => FflateStream,
  bytes: Uint8Array,
  maxBytes: number,
): { bytes: Uint8Array; incomplete: boolean } | null {
  const stream = make();
  const parts: Uint8Array[] = [];
  let length = 0;
  let full = false;
  stream.ondata = (data) => {
    if (full) return;
    parts.push(data);
    length += data.length;
    if (length >= maxBytes) full = true;
  };
  const STEP = 16 * 1024;
  try {
    for (let start = 0; start < bytes.length && !full; start += STEP)
      stream.push(bytes.subarray(start, Math.min(bytes.length, start + STEP)), false);
    if (!full) stream.push(new Uint8Array(0), true);
  } catch {
    // Nothing came out: not this format. Something came out: the data is cut or damaged after it.
    if (length === 0) return null;
    return { bytes: cap(concat(parts, length), maxBytes), incomplete: true };
  }
  return { bytes: cap(concat(parts, length), maxBytes), incomplete: full };
}

function cap(bytes: Uint8Array, maxBytes: number): Uint8Array {
  return bytes.length > maxBytes ? bytes.subarray(0, maxBytes) : bytes;
}

/** The platform's names of codings its `DecompressionStream` may know (Chrome, Firefox and Node differ in which). */
const STREAM_FORMATS: Readonly<Record<string, string>> = { br: 'brotli', zstd: 'zstd' };

/**
 * A coding fflate does not read: a decoder given in the options, else the platform's `DecompressionStream`
 * when it knows the format. A decoder that fails is taken to mean the data is not in that coding.
 */
async function decodeOther(bytes: Uint8Array, coding: string, options: DecodeOptions): Promise<CodingResult> {
  const given = options.decoders?.[coding];
  if (given !== undefined) {
    try {
      const out = await given(bytes, options.maxBytes);
      return { bytes: cap(out, options.maxBytes), incomplete: out.length > options.maxBytes };
    } catch {
      return 'not-this-coding';
    }
  }
  const format = STREAM_FORMATS[coding];
  if (format === undefined || typeof DecompressionStream === 'undefined') return 'unsupported';
  let stream: DecompressionStream;
  try {
    stream = new DecompressionStream(format as CompressionFormat);
  } catch {
    return 'unsupported'; // This platform does not know the format.
  }
  try {
    const reader = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream).getReader();
    const parts: Uint8Array[] = [];
    let length = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      length += value.length;
      if (length >= options.maxBytes) {
        await reader.cancel();
        return { bytes: cap(concat(parts, length), options.maxBytes), incomplete: true };
      }
    }
    return { bytes: concat(parts, length), incomplete: false };
  } catch {
    return 'not-this-coding';
  }
}

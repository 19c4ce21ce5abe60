/**
 * WARC 1.1 record framing: named fields, digests, dates, record ids, and the
 * per-record gzip member. Knows nothing of crawl rows (see `warc.ts`).
 *
 * Web APIs only (TextEncoder, crypto.randomUUID, crypto.subtle) plus
 * `@noble/hashes`, so it runs in a page, a service worker and Node 20.
 *
 * @see ISO 28500:2017 (WARC 1.1), https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** The version line every record starts with. @see WARC 1.1 §4 */
export const WARC_VERSION = 'WARC/1.1';

/** The WARC record types this exporter writes. @see WARC 1.1 §6 */
export type WarcType = 'warcinfo' | 'request' | 'response' | 'revisit' | 'metadata';

/** One named field of a record header (or of an `application/warc-fields` block), in order. */
export type WarcField = readonly [name: string, value: string];

const encoder = new TextEncoder();
const CRLF = encoder.encode('\r\n');
const VERSION_LINE = encoder.encode(`${WARC_VERSION}\r\n`);
/** Two newlines end every record. @see WARC 1.1 §4 */
const RECORD_END = encoder.encode('\r\n\r\n');

/**
 * A labelled SHA-256 digest: `sha256:` and 64 lower-case hex digits.
 *
 * WARC 1.1 §5.8 only asks for `algorithm ":" digest`; the example values are
 * base32 SHA-1. The webrecorder tools write and expect hex SHA-256 under
 * this label: warcio.js's `WARCSerializer` defaults to prefix `sha256:` with
 * hex, wabac.js (ReplayWeb.page) adds `sha256:` to bare CDXJ digests and
 * compares digests by the part after the colon, and py-wacz hashes WACZ
 * resources as `sha256:<hex>`. So one form serves WARC, CDXJ and WACZ.
 */
export function sha256Label(hex: string): string {
  return `sha256:${hex}`;
}

/** The {@link sha256Label} of the concatenation of `parts`, hashed incrementally (no copy). */
export function digestOf(parts: readonly Uint8Array[]): string {
  const hasher = sha256.create();
  for (const part of parts) hasher.update(part);
  return sha256Label(bytesToHex(hasher.digest()));
}

/**
 * A `WARC-Date`: ISO 8601 in UTC with milliseconds, e.g. `2026-03-01T10:00:00.250Z`.
 * WARC 1.1 §5.4 allows fractional seconds; readers that want 14 digits cut them.
 * @param ms a `Date.now()`-style timestamp.
 */
export function warcDate(ms: number): string {
  return new Date(ms).toISOString();
}

/** The 14-digit `YYYYMMDDhhmmss` timestamp of a {@link warcDate}, as CDXJ keys use. */
export function timestamp14(isoDate: string): string {
  return isoDate.replace(/\D/g, '').slice(0, 14);
}

/** A fresh `WARC-Record-ID`: a UUID URN in angle brackets. @see WARC 1.1 §5.2 */
export function newRecordId(): string {
  return `<urn:uuid:${crypto.randomUUID()}>`;
}

/**
 * A field value safe to put on one header line: CR, LF and other control
 * characters (tab excepted) become a space, since a line break would end
 * the field. UTF-8 text is allowed in WARC 1.1 field values (§4).
 */
export function fieldValue(text: string): string {
  return text.replace(/[\u0000-\u0008\u000A-\u001F\u007F]+/g, ' ').trim();
}

/** `name: value` lines, each ending in CRLF: the syntax of WARC headers and of `application/warc-fields`. @see WARC 1.1 §4, §7 */
export function encodeFields(fields: readonly WarcField[]): Uint8Array {
  return encoder.encode(fields.map(([name, value]) => `${name}: ${fieldValue(value)}\r\n`).join(''));
}

/** A record whose fields are known but not yet its block's digest (see {@link blockDigests}). */
export interface RecordDraft {
  type: WarcType;
  /** The `WARC-Record-ID` it carries. */
  id: string;
  /** The named fields after `WARC-Type` and `WARC-Record-ID`, before `WARC-Block-Digest`. */
  fields: readonly WarcField[];
  /** The record block as parts; they are not copied. */
  block: readonly Uint8Array[];
}

/** A record ready to be written: its bytes in order (not yet compressed). */
export interface BuiltRecord {
  type: WarcType;
  /** The `WARC-Record-ID` it carries. */
  id: string;
  /** Version line and header, block, and the closing CRLF CRLF. */
  parts: Uint8Array[];
}

/**
 * Frames one record: `WARC/1.1`, `WARC-Type`, `WARC-Record-ID`, the draft's
 * fields, then the `WARC-Block-Digest` (the {@link sha256Label} of the block,
 * given) and `Content-Length` of the block, a blank line, the block, and CRLF CRLF.
 */
export function buildRecord(draft: RecordDraft, blockDigest: string): BuiltRecord {
  const { type, id, block } = draft;
  const header = encodeFields([
    ['WARC-Type', type],
    ['WARC-Record-ID', id],
    ...draft.fields,
    ['WARC-Block-Digest', blockDigest],
    ['Content-Length', String(byteLength(block))],
  ]);
  return { type, id, parts: [VERSION_LINE, header, CRLF, ...block, RECORD_END] };
}

/** Blocks up to this size are hashed by the platform (`crypto.subtle`, one copy of a block in parts); larger ones incrementally. */
const NATIVE_DIGEST_BYTES = 16 * 1024 * 1024;

/**
 * The {@link sha256Label} of each draft's block, in order. `crypto.subtle`
 * hashes natively, several times faster than JavaScript, off the page's
 * thread in Chromium; the digests of a batch are asked for at once, so their
 * round trips overlap. A block past {@link NATIVE_DIGEST_BYTES} is hashed
 * incrementally instead (joining its parts would copy it).
 */
export async function blockDigests(drafts: readonly RecordDraft[]): Promise<string[]> {
  return Promise.all(
    drafts.map(async ({ block }) => {
      const length = byteLength(block);
      if (length > NATIVE_DIGEST_BYTES) return digestOf(block);
      const bytes = block.length === 1 && block[0] !== undefined ? block[0] : joinParts(block, length);
      return sha256Label(bytesToHex(new Uint8Array(await crypto.subtle.digest('SHA-256', arrayBufferView(bytes)))));
    }),
  );
}

function joinParts(parts: readonly Uint8Array[], length: number): Uint8Array {
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}

/** The same bytes as a view on a plain ArrayBuffer (`crypto.subtle` refuses SharedArrayBuffer views); copies only a shared one. */
function arrayBufferView(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer
    ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    : bytes.slice();
}

/** Total bytes of some parts. */
export function byteLength(parts: readonly Uint8Array[]): number {
  return parts.reduce((sum, part) => sum + part.byteLength, 0);
}

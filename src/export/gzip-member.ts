/**
 * One gzip member made synchronously from a record's parts, as a `.warc.gz`
 * holds one per record (WARC 1.1 Annex D.2), in one of two ways:
 *
 * - parts that look incompressible (the largest part's bytes are near 8 bits
 *   of entropy each: JPEG, PNG, WebP, WOFF2, PDF streams, zip) are *stored*:
 *   deflate's stored blocks (RFC 1951 §3.2.4), the bytes as they are, which is
 *   what zlib ends up writing for such bytes after searching them for matches
 *   in vain; only the CRC is computed;
 * - anything else is deflated by fflate at zlib's default level.
 *
 * Synchronous on purpose: a `CompressionStream` per record costs about 0.1 to
 * 0.2 ms of stream machinery, more than compressing a small record, and an
 * export writes two records per URL. Output comes as chunks (the parts
 * themselves, for stored blocks), so a large body is never held twice.
 *
 * @see RFC 1952 (gzip), RFC 1951 (deflate)
 */
import { Deflate, deflateSync } from 'fflate';
import { crc32 } from './crc32.ts';

/** zlib's default level, which `CompressionStream('gzip')` used. */
const LEVEL = 6;
/** Largest stored block. @see RFC 1951 §3.2.4 */
const STORED_BLOCK_BYTES = 65_535;
/** Parts up to this total are deflated in one call; larger ones stream through fflate's `Deflate` in slices of it. */
const WHOLE_DEFLATE_BYTES = 1024 * 1024;
/** A part shorter than this is never judged incompressible (too short to tell, and cheap to deflate). */
const MIN_PROBED_BYTES = 2048;
/** Bytes sampled to judge a part: four stretches of a quarter of it, spread over the part. */
const PROBE_BYTES = 4096;
/**
 * Entropy, in bits per byte, above which sampled bytes are taken as incompressible. Measured on
 * 4 KiB samples: random bytes, JPEG and WOFF2 give 7.9 to 7.96; HTML, CSS, scripts 4.5 to 5.5;
 * uncompressed fonts and images 6 to 7.
 */
const INCOMPRESSIBLE_BITS = 7.5;

/** gzip header: magic, deflate, no flags, no time, no extra flags, OS unknown. @see RFC 1952 §2.3 */
const HEADER = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255);

/** The concatenation of `parts` as one gzip member, in chunks. */
export function* gzipMember(parts: readonly Uint8Array[]): Generator<Uint8Array> {
  yield HEADER;
  let crc = 0;
  let size = 0;
  for (const part of parts) {
    crc = crc32(part, crc);
    size += part.byteLength;
  }
  yield* looksIncompressible(parts) ? storedBlocks(parts) : deflated(parts, size);
  const trailer = new Uint8Array(8);
  const view = new DataView(trailer.buffer);
  view.setUint32(0, crc, true);
  // ISIZE is the size modulo 2^32. @see RFC 1952 §2.3.1
  view.setUint32(4, size >>> 0, true);
  yield trailer;
}

/** Whether the largest part samples at more than {@link INCOMPRESSIBLE_BITS} bits per byte. */
export function looksIncompressible(parts: readonly Uint8Array[]): boolean {
  let largest: Uint8Array | undefined;
  for (const part of parts) if (largest === undefined || part.byteLength > largest.byteLength) largest = part;
  if (largest === undefined || largest.byteLength < MIN_PROBED_BYTES) return false;
  const counts = new Uint32Array(256);
  const stretch = Math.min(PROBE_BYTES / 4, largest.byteLength >>> 2);
  let sampled = 0;
  for (let k = 0; k < 4; k += 1) {
    const start = Math.floor(((largest.byteLength - stretch) * k) / 3);
    for (const byte of largest.subarray(start, start + stretch)) counts[byte] = (counts[byte] ?? 0) + 1;
    sampled += stretch;
  }
  let bits = 0;
  for (const count of counts) if (count > 0) bits -= (count / sampled) * Math.log2(count / sampled);
  return bits > INCOMPRESSIBLE_BITS;
}

/** Stored blocks of at most {@link STORED_BLOCK_BYTES} over the parts, the last one final (one empty final block for no bytes). */
function* storedBlocks(parts: readonly Uint8Array[]): Generator<Uint8Array> {
  const pieces: Uint8Array[] = [];
  for (const part of parts)
    for (let at = 0; at < part.byteLength; at += STORED_BLOCK_BYTES)
      pieces.push(part.subarray(at, at + STORED_BLOCK_BYTES));
  if (pieces.length === 0) pieces.push(new Uint8Array(0));
  for (const [index, piece] of pieces.entries()) {
    const head = new Uint8Array(5);
    // BFINAL on the last block, BTYPE 00 (stored); then LEN and its ones' complement, little-endian.
    head[0] = index === pieces.length - 1 ? 1 : 0;
    head[1] = piece.byteLength & 0xff;
    head[2] = piece.byteLength >>> 8;
    head[3] = ~piece.byteLength & 0xff;
    head[4] = (~piece.byteLength >>> 8) & 0xff;
    yield head;
    if (piece.byteLength > 0) yield piece;
  }
}

/** The raw deflate stream of the parts: one call when small, else streamed slice by slice. */
function* deflated(parts: readonly Uint8Array[], size: number): Generator<Uint8Array> {
  if (size <= WHOLE_DEFLATE_BYTES) {
    yield deflateSync(parts.length === 1 && parts[0] !== undefined ? parts[0] : concat(parts, size), { level: LEVEL });
    return;
  }
  const out: Uint8Array[] = [];
  const deflate = new Deflate({ level: LEVEL }, (chunk) => void out.push(chunk));
  const slices: Uint8Array[] = [];
  for (const part of parts)
    for (let at = 0; at < part.byteLength; at += WHOLE_DEFLATE_BYTES)
      slices.push(part.subarray(at, at + WHOLE_DEFLATE_BYTES));
  for (const [index, slice] of slices.entries()) {
    deflate.push(slice, index === slices.length - 1);
    yield* out.splice(0);
  }
}

function concat(parts: readonly Uint8Array[], size: number): Uint8Array {
  const joined = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}

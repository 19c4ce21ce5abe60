/**
 * A gzipped file read member by member: each gzip member (one per record in
 * a `.warc.gz`) is found whole in the input, then inflated in one call into
 * a buffer of the size its trailer gives. fflate's streaming `Gunzip` does
 * the same work with a copy of the 32 KiB window and of the input left at
 * every member and push (`gzip-stream-source.ts`); read whole, they took
 * the import of a 2,500-page WACZ from 8.6 s to 6.3 s (`docs/benchmarks.md`,
 * "Tried, kept or not").
 *
 * Where a member ends is not written anywhere before it, and gzip's magic
 * bytes may appear inside compressed data (a hostile file puts them there by
 * the thousand, each after a plausible trailer). So the member is inflated
 * once, from its header on, over the input read (at most
 * {@link MAX_MEMBER_BYTES}), into a buffer one byte larger than the largest
 * size the trailers that may end it give (a size at most
 * {@link MAX_MEMBER_SIZE}, and at most 1,032 times the data before it): the
 * deflate stream says where it ends (fflate stops at its last block), and
 * its trailer is found there as the data's CRC-32 and size, followed by the
 * next member's magic bytes or the end of the file. An attempt that runs out
 * of input is tried again only once the input read has doubled, so a member
 * costs a few inflates at most, each of a bounded output; between attempts
 * the reader yields to the event loop (a page's *Cancel* can run). Anything
 * else (a member longer than {@link MAX_MEMBER_BYTES} or inflating to more
 * than its trailers allow, corrupt data, a trailer that does not match, a
 * file cut short, bytes that are not gzip) hands the file over, from that
 * member on, to the streaming reader, which reads and reports it as it
 * always has.
 */
import { inflateSync } from 'fflate';
import { type DataSource, type Member, MemberList } from './data-source.ts';
import { crc32 } from './crc32.ts';
import { StreamingGzipSource } from './gzip-stream-source.ts';
import { PendingInput } from './pending-input.ts';

/**
 * Most compressed bytes of one member read whole (1 MiB): a longer member
 * (a video, or a file gzipped as one member) goes to the streaming reader,
 * so memory stays bounded whatever the file.
 */
export const MAX_MEMBER_BYTES = 1024 * 1024;

/** Most uncompressed bytes of one member inflated at once (64 MiB, what the streaming reader's pieces may reach too). */
export const MAX_MEMBER_SIZE = 64 * 1024 * 1024;

/** Most input added to the pending bytes at once: a large chunk (a WACZ entry's inflated piece) is taken in parts. */
const MAX_READ = 256 * 1024;

/** What deflate can expand to at most, per compressed byte (RFC 1951: 258 bytes from 2 bits, about 1,032×). */
const MAX_RATIO = 1032;

/** How long the reader works before it yields to the event loop (ms): a page's clicks and timers run meanwhile. */
const YIELD_EVERY_MS = 30;

/** Bytes of a gzip trailer: CRC-32 and ISIZE (RFC 1952 §2.3). */
const TRAILER = 8;

/** fflate's error code for data that ends before the deflate stream does. */
const UNEXPECTED_EOF = 0;

/** How one attempt at the member at the pending input's start went. */
type Attempt = { kind: 'inflated'; data: Uint8Array; end: number } | { kind: 'more' } | { kind: 'odd' };

/** Lets the event loop run (timers, a page's clicks): a macrotask, not a microtask. */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export class MemberGzipSource implements DataSource {
  readonly compression = 'gzip';
  /** Compressed bytes read from the input. */
  private bytesRead = 0;
  /** The input from {@link start} on, not inflated yet. */
  private readonly pending: PendingInput;
  /** The file offset of the pending input's first byte: a member's start. */
  private start = 0;
  /** The pending input's length the next attempt waits for (an attempt that ran out of input waits for twice as much). */
  private retryAt = 0;
  /** When the reader last yielded to the event loop. */
  private yieldedAt = Date.now();
  /** Uncompressed bytes inflated so far. */
  private inflated = 0;
  private readonly members = new MemberList(null);
  /** Inflated members not handed out yet. */
  private readonly out: Uint8Array[] = [];
  private inputEnded = false;
  /** The rest of an input chunk larger than {@link MAX_READ}, read next. */
  private carry: Uint8Array | null = null;
  /** The streaming reader this file was handed over to, and where. */
  private rest: { source: StreamingGzipSource; from: Member } | null = null;
  /** The highest progress reported: the streaming reader counts again from the member handed over. */
  private reported = 0;

  constructor(
    first: Uint8Array,
    private readonly chunks: AsyncGenerator<Uint8Array>,
    private readonly fileName: string,
    private readonly onProgress?: (fileBytesRead: number) => void,
  ) {
    this.pending = new PendingInput(first);
    this.bytesRead = first.length;
  }

  get fileBytesRead(): number {
    return this.rest?.source.fileBytesRead ?? this.bytesRead;
  }

  /** Where the streaming reader took over (a member's file offset), or null while every member was read whole. */
  get handedOverAt(): number | null {
    return this.rest?.from.fileOffset ?? null;
  }

  async next(): Promise<Uint8Array | null> {
    for (;;) {
      const piece = this.out.shift();
      if (piece !== undefined) return piece;
      if (this.rest !== null) return this.rest.source.next();
      if (this.pending.length === 0 && this.inputEnded) return null;
      if (Date.now() - this.yieldedAt >= YIELD_EVERY_MS) {
        await yieldToEventLoop();
        this.yieldedAt = Date.now();
      }
      const attempt = this.inflateMember();
      if (attempt.kind === 'inflated') {
        this.members.add({ fileOffset: this.start, dataOffset: this.inflated });
        this.inflated += attempt.data.length;
        this.out.push(attempt.data);
        this.pending.drop(attempt.end);
        this.start += attempt.end;
        this.retryAt = 0;
      } else if (attempt.kind === 'odd' || this.inputEnded || this.pending.length > MAX_MEMBER_BYTES + TRAILER) {
        this.handOver();
      } else {
        await this.read();
      }
    }
  }

  seekOffset(dataOffset: number): number {
    const { rest } = this;
    if (rest !== null && dataOffset >= rest.from.dataOffset) return rest.source.seekOffset(dataOffset);
    return this.members.locate(dataOffset);
  }

  async close(): Promise<void> {
    if (this.rest !== null) await this.rest.source.close();
    else await this.chunks.return(undefined);
  }

  /** Adds input to the pending bytes, at most {@link MAX_READ} at once (the rest of a large chunk is carried). */
  private async read(): Promise<void> {
    let chunk = this.carry;
    this.carry = null;
    if (chunk === null) {
      const result = await this.chunks.next();
      if (result.done === true) {
        this.inputEnded = true;
        return;
      }
      chunk = result.value;
    }
    if (chunk.length > MAX_READ) {
      this.carry = chunk.subarray(MAX_READ);
      chunk = chunk.subarray(0, MAX_READ);
    }
    this.pending.push(chunk);
    this.bytesRead += chunk.length;
    this.report(this.bytesRead);
  }

  private report(fileBytesRead: number): void {
    if (fileBytesRead <= this.reported) return;
    this.reported = fileBytesRead;
    this.onProgress?.(fileBytesRead);
  }

  /** The rest of the file, from the member at the pending input's start, read by the streaming reader. */
  private handOver(): void {
    const from = { fileOffset: this.start, dataOffset: this.inflated };
    // No copy: the pending bytes are never written again. The rest of a chunk carried comes before the input's next.
    const { carry, chunks } = this;
    const rest =
      carry === null
        ? chunks
        : (async function* (): AsyncGenerator<Uint8Array> {
            yield carry;
            yield* chunks;
          })();
    const source = new StreamingGzipSource(this.pending.bytes, rest, this.fileName, (read) => this.report(read), from);
    this.carry = null;
    this.rest = { source, from };
    this.pending.drop(this.pending.length);
  }

  /** Inflates the member at the pending input's start if its end has been read. */
  private inflateMember(): Attempt {
    const bytes = this.pending.bytes;
    const header = gzipHeaderLength(bytes);
    if (header === 'more') return { kind: 'more' };
    if (header === 'odd') return { kind: 'odd' };
    // The shortest deflate stream is 2 bytes (an empty fixed block), then the trailer (fflate returns its whole buffer for no input).
    if (bytes.length < header + 2 + TRAILER) return this.inputEnded ? { kind: 'odd' } : { kind: 'more' };
    if (!this.inputEnded && bytes.length < this.retryAt) return { kind: 'more' };
    const attempt = this.inflateFrom(bytes, header);
    // Ran out of input: tried again once twice as much has been read, so a member costs a few attempts at most.
    if (attempt.kind === 'more') this.retryAt = 2 * bytes.length;
    return attempt;
  }

  /**
   * The deflate stream after the header inflated into a buffer one byte larger than the size the first trailer
   * that may end it gives (a member's end is 8 bytes of trailer followed by the next member's magic bytes or the
   * end of the file; its size is at most {@link MAX_MEMBER_SIZE}, and at most 1,032 times its deflate data), or,
   * when that is too small (a lookalike inside the data), the largest such size: two inflates at most. Then its
   * trailer is looked for where the stream ended. No such trailer read yet: `more`, or `odd` at the end.
   */
  private inflateFrom(bytes: Uint8Array, header: number): Attempt {
    const first = this.plausibleSize(bytes, header, false);
    if (first === -1) return this.inputEnded ? { kind: 'odd' } : { kind: 'more' };
    let result = this.inflateInto(bytes, header, first + 1);
    if (result === 'full') {
      const largest = this.plausibleSize(bytes, header, true);
      if (largest > first) result = this.inflateInto(bytes, header, largest + 1);
    }
    // Still full: the member inflates to more than any trailer read so far says (its own may come later).
    if (result === 'full') return this.inputEnded ? { kind: 'odd' } : { kind: 'more' };
    if (!(result instanceof Uint8Array)) return result;
    return this.trailerAfter(bytes, header, result);
  }

  /** The size the first (or the largest) plausible trailer after the header gives; -1 when there is none. */
  private plausibleSize(bytes: Uint8Array, header: number, largest: boolean): number {
    let found = -1;
    for (let at = bytes.indexOf(0x1f, header + 2 + TRAILER); ; at = bytes.indexOf(0x1f, at + 1)) {
      const atEnd = at === -1;
      const end = atEnd ? bytes.length : at;
      if (atEnd ? this.inputEnded : isMemberStart(bytes, at)) {
        const size = new DataView(bytes.buffer, bytes.byteOffset + end - 4, 4).getUint32(0, true);
        if (size <= MAX_MEMBER_SIZE && size <= (end - TRAILER - header) * MAX_RATIO) {
          if (!largest) return size;
          found = Math.max(found, size);
        }
      }
      if (atEnd) return found;
    }
  }

  /** The inflated data, `full` when it fills a buffer of `length` bytes, or how the attempt failed. */
  private inflateInto(bytes: Uint8Array, header: number, length: number): Uint8Array | 'full' | Attempt {
    const out = new Uint8Array(length);
    let data: Uint8Array;
    try {
      // No more input than a member read whole may have: fflate goes on inflating past a full buffer (dropping it).
      data = inflateSync(bytes.subarray(header, header + MAX_MEMBER_BYTES + TRAILER), { out });
    } catch (error) {
      // fflate writes a stored block with `set`, which throws a RangeError when the buffer is too small.
      if (error instanceof RangeError) return 'full';
      // Data cut short may fail in any way (fflate reads zeros past its end): only the whole input tells.
      return (error as { code?: unknown }).code === UNEXPECTED_EOF || !this.inputEnded
        ? { kind: 'more' }
        : { kind: 'odd' };
    }
    return data.length === out.length ? 'full' : data;
  }

  /**
   * Where the member whose data inflated to `data` ends: its trailer (the data's CRC-32 and size) followed by the
   * next member's magic bytes or the end of the file; `more` when not read yet, `odd` when it is not there.
   */
  private trailerAfter(bytes: Uint8Array, header: number, data: Uint8Array): Attempt {
    const trailer = new Uint8Array(TRAILER);
    const view = new DataView(trailer.buffer);
    view.setUint32(0, crc32(data), true);
    view.setUint32(4, data.length >>> 0, true);
    for (let at = bytes.indexOf(trailer[0] ?? 0, header + 2); at !== -1; at = bytes.indexOf(trailer[0] ?? 0, at + 1)) {
      if (at + TRAILER > bytes.length) break;
      if (!trailer.every((byte, i) => bytes[at + i] === byte)) continue;
      const end = at + TRAILER;
      if (end === bytes.length && this.inputEnded) return { kind: 'inflated', data, end };
      if (end + 4 > bytes.length) break;
      if (isMemberStart(bytes, end)) return { kind: 'inflated', data, end };
    }
    return this.inputEnded ? { kind: 'odd' } : { kind: 'more' };
  }
}

/**
 * The length of the gzip header at the buffer's start (RFC 1952 §2.3.1: ten bytes, then the optional
 * extra field, name, comment and header CRC); `more` when the buffer ends inside it, `odd` when it is no
 * gzip header of deflated data.
 */
export function gzipHeaderLength(bytes: Uint8Array): number | 'more' | 'odd' {
  if (bytes.length < 10) return bytes.length < 4 || isMemberStart(bytes, 0) ? 'more' : 'odd';
  if (!isMemberStart(bytes, 0)) return 'odd';
  const flags = bytes[3] ?? 0;
  let at = 10;
  if (flags & 0x04) {
    if (bytes.length < at + 2) return 'more';
    at += 2 + ((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8));
  }
  for (const flag of [0x08, 0x10]) {
    if ((flags & flag) === 0) continue;
    const zero = at < bytes.length ? bytes.indexOf(0, at) : -1;
    if (zero === -1) return 'more';
    at = zero + 1;
  }
  if (flags & 0x02) at += 2;
  return at <= bytes.length ? at : 'more';
}

/** Whether a gzip member of deflated data may start at `at`: 1f 8b 08, then flags with none of the reserved bits. */
function isMemberStart(bytes: Uint8Array, at: number): boolean {
  return (
    bytes[at] === 0x1f && bytes[at + 1] === 0x8b && bytes[at + 2] === 0x08 && ((bytes[at + 3] ?? 0xff) & 0xe0) === 0
  );
}

/**
 * A gzipped file read member by member: each gzip member (one per record in
 * a `.warc.gz`) is found whole in the input, then inflated in one call into
 * a buffer of the size its trailer gives. fflate's streaming `Gunzip` does
 * the same work with a copy of the 32 KiB window and of the input left at
 * every member and push (`gzip-stream-source.ts`); read whole, they took
 * the import of a 2,500-page WACZ from 8.6 s to 6.3 s (`docs/benchmarks.md`,
 * "Tried, kept or not").
 *
 * Where a member ends is not written anywhere before it: the next member
 * starts with gzip's magic bytes (1f 8b 08, flags with no reserved bit), so
 * every such place after the header is tried in order. At the real end the
 * data inflates to exactly the trailer's size; at the same bytes met inside
 * compressed data it stops short ("unexpected EOF") and the next place is
 * tried. Anything else (a member longer than {@link MAX_MEMBER_BYTES}, a size
 * past {@link MAX_MEMBER_SIZE}, corrupt data, a trailer that does not match,
 * a file cut short, bytes that are not gzip) hands the file over, from that
 * member on, to the streaming reader, which reads and reports it as it
 * always has.
 */
import { inflateSync } from 'fflate';
import { type DataSource, type Member, MemberList } from './data-source.ts';
import { StreamingGzipSource } from './gzip-stream-source.ts';

/**
 * Most compressed bytes of one member read whole (1 MiB): a longer member
 * (a video, or a file gzipped as one member) goes to the streaming reader,
 * so memory stays bounded whatever the file.
 */
export const MAX_MEMBER_BYTES = 1024 * 1024;

/** Most uncompressed bytes of one member inflated at once (64 MiB, what the streaming reader's pieces may reach too). */
export const MAX_MEMBER_SIZE = 64 * 1024 * 1024;

/** What deflate can expand to at most, per compressed byte (RFC 1951: 258 bytes from 2 bits, about 1,032×). */
const MAX_RATIO = 1032;

/** Bytes of a gzip trailer: CRC-32 and ISIZE (RFC 1952 §2.3). */
const TRAILER = 8;

/** fflate's error code for data that ends before the deflate stream does. */
const UNEXPECTED_EOF = 0;

/** How one attempt at the member at the pending input's start went. */
type Attempt = { kind: 'inflated'; data: Uint8Array; end: number } | { kind: 'more' } | { kind: 'odd' };

export class MemberGzipSource implements DataSource {
  readonly compression = 'gzip';
  /** Compressed bytes read from the input. */
  private bytesRead = 0;
  /** The input from {@link start} on, not inflated yet. */
  private readonly pending: PendingInput;
  /** The file offset of the pending input's first byte: a member's start. */
  private start = 0;
  /** Where in the pending input the search for the next member's start goes on (the bytes before were tried). */
  private searchFrom = 0;
  /** Uncompressed bytes inflated so far. */
  private inflated = 0;
  private readonly members = new MemberList(null);
  /** Inflated members not handed out yet. */
  private readonly out: Uint8Array[] = [];
  private inputEnded = false;
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
      const attempt = this.inflateMember();
      if (attempt.kind === 'inflated') {
        this.members.add({ fileOffset: this.start, dataOffset: this.inflated });
        this.inflated += attempt.data.length;
        this.out.push(attempt.data);
        this.pending.drop(attempt.end);
        this.start += attempt.end;
        this.searchFrom = 0;
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

  private async read(): Promise<void> {
    const result = await this.chunks.next();
    if (result.done === true) {
      this.inputEnded = true;
      return;
    }
    const chunk = result.value;
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
    const source = new StreamingGzipSource(this.pending.bytes.slice(), this.chunks, this.fileName, (read) => this.report(read), from);
    this.rest = { source, from };
    this.pending.drop(this.pending.length);
  }

  /** Inflates the member at the pending input's start if its end has been read. */
  private inflateMember(): Attempt {
    const bytes = this.pending.bytes;
    const header = gzipHeaderLength(bytes);
    if (header === 'more') return { kind: 'more' };
    if (header === 'odd') return { kind: 'odd' };
    // The shortest deflate stream is 2 bytes (an empty fixed block).
    const first = header + 2 + TRAILER;
    for (let at = bytes.indexOf(0x1f, Math.max(first, this.searchFrom)); ; at = bytes.indexOf(0x1f, at + 1)) {
      if (at === -1) {
        // No next member in what was read: the member ends the file, or more input is needed.
        if (!this.inputEnded) {
          this.searchFrom = Math.max(first, bytes.length);
          return { kind: 'more' };
        }
        const last = inflateWhole(bytes, header, bytes.length);
        return last.kind === 'inflated' ? last : { kind: 'odd' };
      }
      if (at + 4 > bytes.length && !this.inputEnded) {
        // Too few bytes after it to tell a member's start.
        this.searchFrom = at;
        return { kind: 'more' };
      }
      if (!isMemberStart(bytes, at)) continue;
      const attempt = inflateWhole(bytes, header, at);
      if (attempt.kind === 'short') continue;
      return attempt;
    }
  }
}

/**
 * Input bytes not inflated yet, in one buffer: a chunk that arrives with nothing left over is used as it is;
 * else it is copied after what is left, into a buffer of this module's own that doubles when what is left
 * and the chunk do not fit, and is compacted (what is left moved to its start) when they fit but not after
 * it. So a member read over many chunks costs about one copy of its bytes, not one per chunk.
 */
class PendingInput {
  private store: Uint8Array;
  /** Whether `store` is this module's (else it is a chunk of the input, never written to). */
  private owned = false;
  private from = 0;
  private to: number;

  constructor(first: Uint8Array) {
    this.store = first;
    this.to = first.length;
  }

  get length(): number {
    return this.to - this.from;
  }

  /** The bytes left, as a view (valid until the next push or drop). */
  get bytes(): Uint8Array {
    return this.store.subarray(this.from, this.to);
  }

  push(chunk: Uint8Array): void {
    const left = this.length;
    if (left === 0) {
      this.store = chunk;
      this.owned = false;
      this.from = 0;
      this.to = chunk.length;
      return;
    }
    const needed = left + chunk.length;
    if (!this.owned || needed > this.store.length) {
      const grown = new Uint8Array(Math.max(needed, this.owned ? this.store.length * 2 : needed * 2));
      grown.set(this.store.subarray(this.from, this.to));
      this.store = grown;
      this.owned = true;
    } else if (this.to + chunk.length > this.store.length) {
      this.store.copyWithin(0, this.from, this.to);
    } else {
      this.store.set(chunk, this.to);
      this.to += chunk.length;
      return;
    }
    this.from = 0;
    this.to = left;
    this.store.set(chunk, this.to);
    this.to += chunk.length;
  }

  drop(count: number): void {
    this.from += count;
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
  return bytes[at] === 0x1f && bytes[at + 1] === 0x8b && bytes[at + 2] === 0x08 && ((bytes[at + 3] ?? 0xff) & 0xe0) === 0;
}

/**
 * Inflates the member whose header is `header` bytes long, supposing it ends at `end`: `short` when its
 * deflate data goes on past `end - 8` (the magic bytes were inside it, or its size says it is not this
 * member's end), `odd` when the data is corrupt or does not inflate to the trailer's size.
 */
function inflateWhole(bytes: Uint8Array, header: number, end: number): Attempt | { kind: 'short' } {
  const compressed = end - TRAILER - header;
  if (compressed < 2) return { kind: 'short' };
  const size = new DataView(bytes.buffer, bytes.byteOffset + end - 4, 4).getUint32(0, true);
  // A size no member of these bytes can have: these are not its last bytes (or it is too large to read whole).
  if (size > MAX_MEMBER_SIZE || size > compressed * MAX_RATIO) return { kind: 'short' };
  // One byte more than the trailer says: data that inflates past it fills it, and is told apart.
  const out = new Uint8Array(size + 1);
  try {
    const data = inflateSync(bytes.subarray(header, end - TRAILER), { out });
    return data.length === size ? { kind: 'inflated', data: data.subarray(0, size), end } : { kind: 'odd' };
  } catch (error) {
    return (error as { code?: unknown }).code === UNEXPECTED_EOF ? { kind: 'short' } : { kind: 'odd' };
  }
}

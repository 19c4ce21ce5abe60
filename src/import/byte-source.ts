/**
 * The bytes of an archive file, as a WARC reader needs them: the input
 * (a stream, a Blob or File, chunks) read piece by piece, ungzipped when it
 * is gzipped, with the file offset of every gzip member, so that a record
 * can say where it is in the compressed file.
 *
 * Nothing here holds more than one input piece and what it inflates to:
 * a 2 GiB file streams through. Gzip is read with fflate's streaming
 * `Gunzip`, which reads concatenated members (one per record, as `.warc.gz`
 * files are written) as well as one member over the whole file, and tells
 * where each member starts: the browser's `DecompressionStream` cannot say
 * where a member ends, and rejects data after the first member in Chrome.
 */
import { Gunzip } from 'fflate';
import { ArchiveReadError } from './archive-error.ts';
import { concat } from './bytes.ts';

/** What the readers read: a stream, a Blob (a File), an iterable of chunks, or the bytes themselves. */
export type ByteInput = ReadableStream<Uint8Array> | Blob | AsyncIterable<Uint8Array> | Iterable<Uint8Array> | Uint8Array;

/** Most compressed bytes pushed to the inflater at once: bounds what one push inflates to (deflate expands at most ~1,032×). */
const MAX_PUSH = 64 * 1024;

/** The chunks of an input, in order. Stopping early (return) cancels a stream. */
export async function* chunksOf(input: ByteInput): AsyncGenerator<Uint8Array> {
  if (input instanceof Uint8Array) {
    yield input;
    return;
  }
  if (typeof Blob !== 'undefined' && input instanceof Blob) {
    yield* chunksOf(input.stream());
    return;
  }
  if (typeof ReadableStream !== 'undefined' && input instanceof ReadableStream) {
    const reader = (input as ReadableStream<Uint8Array>).getReader();
    let finished = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (value.byteLength > 0) yield value;
      }
      finished = true;
    } finally {
      if (!finished) await reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
    return;
  }
  for await (const chunk of input as AsyncIterable<Uint8Array>) if (chunk.byteLength > 0) yield chunk;
}

/** How the file is stored. */
export type Compression = 'none' | 'gzip';

/** A gzip member: where it starts in the file, and where its data starts in the uncompressed stream. */
interface Member {
  fileOffset: number;
  dataOffset: number;
}

/**
 * The uncompressed bytes of a file, piece by piece, and where in the file
 * they came from.
 */
export interface DataSource {
  readonly compression: Compression;
  /** The next piece of uncompressed data, or null at the end. */
  next(): Promise<Uint8Array | null>;
  /** Bytes of the file read so far (compressed bytes for gzip). */
  readonly fileBytesRead: number;
  /**
   * Where a reader can start in the file to reach the uncompressed byte at
   * `dataOffset`: that byte's own offset in a plain file; the start of the
   * gzip member that holds it in a gzipped one. Call it only for bytes
   * already read, and in increasing order (older members are forgotten).
   */
  seekOffset(dataOffset: number): number;
  /** Stops reading the input (the rest of the file is not read). */
  close(): Promise<void>;
}

/**
 * Opens a file's bytes: sniffs its first bytes and ungzips it when they are
 * gzip's magic number (whatever the file is called: `.warc` files that are
 * gzipped exist).
 * @param fileName for error messages.
 * @param onProgress called with the file bytes read so far, after each piece.
 */
export async function openDataSource(input: ByteInput, fileName: string, onProgress?: (fileBytesRead: number) => void): Promise<DataSource> {
  const chunks = chunksOf(input);
  // Two bytes tell gzip (1f 8b) from anything else; a stream may hand them out one by one.
  let head: Uint8Array = new Uint8Array(0);
  let ended = false;
  while (head.length < 2 && !ended) {
    const next = await chunks.next();
    if (next.done === true) ended = true;
    else head = head.length === 0 ? next.value : concat([head, next.value]);
  }
  // A file of the one byte 1f is a gzip file cut short.
  const gzipped = head[0] === 0x1f && (head.length === 1 || head[1] === 0x8b);
  return gzipped ? new GzipSource(head, chunks, fileName, onProgress) : new PlainSource(head, chunks, ended, onProgress);
}

class PlainSource implements DataSource {
  readonly compression = 'none';
  fileBytesRead = 0;
  private pending: Uint8Array | null;

  constructor(
    first: Uint8Array,
    private readonly chunks: AsyncGenerator<Uint8Array>,
    private ended: boolean,
    private readonly onProgress?: (fileBytesRead: number) => void,
  ) {
    this.pending = first.length > 0 ? first : null;
  }

  async next(): Promise<Uint8Array | null> {
    let chunk = this.pending;
    this.pending = null;
    if (chunk === null && !this.ended) {
      const result = await this.chunks.next();
      if (result.done === true) this.ended = true;
      else chunk = result.value;
    }
    if (chunk === null) return null;
    this.fileBytesRead += chunk.length;
    this.onProgress?.(this.fileBytesRead);
    return chunk;
  }

  seekOffset(dataOffset: number): number {
    return dataOffset;
  }

  async close(): Promise<void> {
    await this.chunks.return(undefined);
  }
}

/** A problem in the gzip layer: the WARC reader adds which record it happened in. */
export class GzipDataError extends ArchiveReadError {}

class GzipSource implements DataSource {
  readonly compression = 'gzip';
  fileBytesRead = 0;
  /** Inflated pieces not handed out yet. */
  private readonly out: Uint8Array[] = [];
  /** Uncompressed bytes inflated so far (handed out or not). */
  private inflated = 0;
  /** Members that may still hold bytes not located yet, oldest first. */
  private members: Member[] = [{ fileOffset: 0, dataOffset: 0 }];
  /** The last member begun. */
  private lastMember: Member = { fileOffset: 0, dataOffset: 0 };
  /** The last 8 bytes of input: at the end, the last member's trailer (CRC-32 and size). */
  private readonly tail = new Uint8Array(8);
  private readonly gunzip = new Gunzip();
  private pending: Uint8Array | null;
  private inputEnded = false;
  private finished = false;
  /** A problem met while inflating: thrown once the data inflated before it has been handed out. */
  private failure: GzipDataError | null = null;

  constructor(
    first: Uint8Array,
    private readonly chunks: AsyncGenerator<Uint8Array>,
    private readonly fileName: string,
    private readonly onProgress?: (fileBytesRead: number) => void,
  ) {
    this.pending = first;
    this.gunzip.ondata = (data) => {
      if (data.length === 0) return;
      this.out.push(data);
      this.inflated += data.length;
    };
    // Called before any data of the new member is inflated (fflate reads the member's header first).
    this.gunzip.onmember = (fileOffset) => {
      this.lastMember = { fileOffset, dataOffset: this.inflated };
      this.members.push(this.lastMember);
    };
  }

  async next(): Promise<Uint8Array | null> {
    while (this.out.length === 0 && !this.finished) await this.pull();
    const piece = this.out.shift();
    if (piece !== undefined) return piece;
    if (this.failure !== null) throw this.failure;
    return null;
  }

  /** Reads one input chunk and inflates it, in pieces of at most {@link MAX_PUSH} bytes. */
  private async pull(): Promise<void> {
    let chunk = this.pending;
    this.pending = null;
    if (chunk === null && !this.inputEnded) {
      const result = await this.chunks.next();
      if (result.done === true) this.inputEnded = true;
      else chunk = result.value;
    }
    try {
      if (chunk === null) {
        this.finished = true;
        this.push(new Uint8Array(0), true);
        this.checkLastTrailer();
        return;
      }
      for (let start = 0; start < chunk.length; start += MAX_PUSH) {
        const piece = chunk.subarray(start, Math.min(chunk.length, start + MAX_PUSH));
        this.push(piece, false);
        this.fileBytesRead += piece.length;
      }
      this.keepTail(chunk);
      this.onProgress?.(this.fileBytesRead);
    } catch (error) {
      if (!(error instanceof GzipDataError)) throw error;
      this.finished = true;
      this.failure = error;
    }
  }

  private keepTail(chunk: Uint8Array): void {
    if (chunk.length >= 8) {
      this.tail.set(chunk.subarray(chunk.length - 8));
    } else {
      this.tail.copyWithin(0, chunk.length);
      this.tail.set(chunk, 8 - chunk.length);
    }
  }

  private push(piece: Uint8Array, final: boolean): void {
    try {
      this.gunzip.push(piece, final);
    } catch (error) {
      this.finished = true;
      // At the end of the input, whatever fflate says means the last member is incomplete.
      if (final) throw this.cutShort();
      const reason = error instanceof Error ? error.message : String(error);
      throw new GzipDataError('corrupt', this.fileName, this.lastMember.fileOffset, `the gzip data is corrupt (${reason}) in the gzip member that starts here, found by byte ${this.fileBytesRead + piece.length}`);
    }
  }

  /**
   * fflate accepts a stream that stops after a member's header or its
   * compressed data: the last member is whole only when the input ends with
   * its trailer, whose last four bytes are the member's size modulo 2^32
   * (RFC 1952 §2.3.1). A file cut between two members passes, as it should:
   * what it holds is whole.
   */
  private checkLastTrailer(): void {
    const size = (this.inflated - this.lastMember.dataOffset) >>> 0;
    const isize = new DataView(this.tail.buffer).getUint32(4, true);
    if (this.fileBytesRead - this.lastMember.fileOffset < 18 || isize !== size) throw this.cutShort();
  }

  private cutShort(): GzipDataError {
    return new GzipDataError('truncated', this.fileName, this.fileBytesRead, `the file ends in the middle of a gzip member (which starts at byte ${this.lastMember.fileOffset}): it is cut short`);
  }

  seekOffset(dataOffset: number): number {
    let index = 0;
    for (let i = this.members.length - 1; i >= 0; i -= 1) {
      if ((this.members[i]?.dataOffset ?? 0) <= dataOffset) {
        index = i;
        break;
      }
    }
    if (index > 0) this.members = this.members.slice(index);
    return this.members[0]?.fileOffset ?? 0;
  }

  async close(): Promise<void> {
    this.finished = true;
    await this.chunks.return(undefined);
  }
}

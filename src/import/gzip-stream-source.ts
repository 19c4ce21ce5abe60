/**
 * A gzipped file read with fflate's streaming `Gunzip`, which reads
 * concatenated members (one per record, as `.warc.gz` files are written) as
 * well as one member over the whole file, and tells where each member starts:
 * the browser's `DecompressionStream` cannot say where a member ends, and
 * rejects data after the first member in Chrome. It inflates one input piece
 * of at most {@link MAX_PUSH} bytes at a time and hands out what it inflates
 * to (at most about 64 MiB) before the next, whatever the chunks' and the
 * members' sizes; but it copies a lot (fflate grows its output from the
 * 32 KiB window at every push, and copies the input left after each member),
 * so files of small members are read by `gzip-member-source.ts`, which hands
 * over to this reader at the first member too large or odd to inflate whole.
 */
import { Gunzip } from 'fflate';
import { type DataSource, GzipDataError, type Member, MemberList } from './data-source.ts';

/** Most compressed bytes pushed to the inflater at once: bounds what one push inflates to (deflate expands at most ~1,032×). */
const MAX_PUSH = 16 * 1024;

export class StreamingGzipSource implements DataSource {
  readonly compression = 'gzip';
  fileBytesRead: number;
  /** Inflated pieces not handed out yet. */
  private readonly out: Uint8Array[] = [];
  /** Uncompressed bytes inflated so far (handed out or not), from the file's start. */
  private inflated: number;
  private readonly members: MemberList;
  /** The last member begun. */
  private lastMember: Member;
  /** The last 8 bytes of input: at the end, the last member's trailer (CRC-32 and size). */
  private readonly tail = new Uint8Array(8);
  private readonly gunzip = new Gunzip();
  private pending: Uint8Array | null;
  private inputEnded = false;
  private finished = false;
  /** A problem met while inflating: thrown once the data inflated before it has been handed out. */
  private failure: GzipDataError | null = null;

  /**
   * @param first the input's first bytes, at a member's start.
   * @param start where `first` starts: its offset in the file, and its data's in the uncompressed stream
   *   (not 0 when {@link MemberGzipSource} hands the rest of a file over).
   */
  constructor(
    first: Uint8Array,
    private readonly chunks: AsyncGenerator<Uint8Array>,
    private readonly fileName: string,
    private readonly onProgress?: (fileBytesRead: number) => void,
    start: Member = { fileOffset: 0, dataOffset: 0 },
  ) {
    this.pending = first;
    this.fileBytesRead = start.fileOffset;
    this.inflated = start.dataOffset;
    this.lastMember = start;
    this.members = new MemberList(start);
    const { fileOffset: base } = start;
    this.gunzip.ondata = (data) => {
      if (data.length === 0) return;
      this.out.push(data);
      this.inflated += data.length;
    };
    // Called before any data of the new member is inflated (fflate reads the member's header first).
    this.gunzip.onmember = (offset) => {
      this.lastMember = { fileOffset: base + offset, dataOffset: this.inflated };
      this.members.add(this.lastMember);
    };
  }

  async next(): Promise<Uint8Array | null> {
    while (this.out.length === 0 && !this.finished) await this.pull();
    const piece = this.out.shift();
    if (piece !== undefined) return piece;
    if (this.failure !== null) throw this.failure;
    return null;
  }

  /**
   * Inflates the next piece of input, at most {@link MAX_PUSH} bytes: what it inflates to (at most about
   * 64 MiB, deflate's ratio being 1,032 at most) is handed out before the next piece is inflated, the rest of
   * the chunk kept pending. A chunk is never inflated whole: a 4 MB chunk of a bomb would be 4 GiB at once.
   */
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
      const piece = chunk.length > MAX_PUSH ? chunk.subarray(0, MAX_PUSH) : chunk;
      if (chunk.length > MAX_PUSH) this.pending = chunk.subarray(MAX_PUSH);
      this.push(piece, false);
      this.fileBytesRead += piece.length;
      this.keepTail(piece);
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
      throw new GzipDataError(
        'corrupt',
        this.fileName,
        this.lastMember.fileOffset,
        `the gzip data is corrupt (${reason}) in the gzip member that starts here, found by byte ${this.fileBytesRead + piece.length}`,
      );
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
    return new GzipDataError(
      'truncated',
      this.fileName,
      this.fileBytesRead,
      `the file ends in the middle of a gzip member (which starts at byte ${this.lastMember.fileOffset}): it is cut short`,
    );
  }

  seekOffset(dataOffset: number): number {
    return this.members.locate(dataOffset);
  }

  async close(): Promise<void> {
    this.finished = true;
    await this.chunks.return(undefined);
  }
}

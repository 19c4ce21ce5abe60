/**
 * What the WARC reader reads: the uncompressed bytes of a file, piece by
 * piece, and where in the file each came from (`byte-source.ts` opens one).
 */
import { ArchiveReadError } from './archive-error.ts';

/** How the file is stored. */
export type Compression = 'none' | 'gzip';

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

/** A problem in the gzip layer: the WARC reader adds which record it happened in. */
export class GzipDataError extends ArchiveReadError {}

/** A gzip member: where it starts in the file, and where its data starts in the uncompressed stream. */
export interface Member {
  fileOffset: number;
  dataOffset: number;
}

/**
 * The members that may still hold bytes not located yet, oldest first; {@link locate} drops those
 * before the one asked for, since a reader asks in increasing order.
 */
export class MemberList {
  private members: Member[];

  constructor(first: Member | null) {
    this.members = first === null ? [] : [first];
  }

  add(member: Member): void {
    this.members.push(member);
  }

  /** The file offset of the member holding uncompressed byte `dataOffset` (the first member's when none is known). */
  locate(dataOffset: number): number {
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
}

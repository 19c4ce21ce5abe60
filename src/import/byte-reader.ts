/**
 * Reads lines and counted runs of bytes from the pieces a {@link DataSource}
 * hands out, keeping count of the position. Every method either consumes
 * input or stops at the end of the data: none can loop without progress.
 */
import type { DataSource } from './byte-source.ts';
import { concat } from './bytes.ts';

const LF = 0x0a;
const CR = 0x0d;

/** A line longer than its limit: not what the reader expected. */
export class LineTooLongError extends Error {
  override readonly name = 'LineTooLongError';
}

export class ByteReader {
  /** The piece being read, and how far. */
  private piece: Uint8Array = new Uint8Array(0);
  private index = 0;
  /** Uncompressed bytes consumed before `piece[index]`. */
  private consumedBefore = 0;
  private ended = false;

  constructor(private readonly source: DataSource) {}

  /** Uncompressed bytes consumed so far: the offset of the next byte. */
  get position(): number {
    return this.consumedBefore + this.index;
  }

  /** Makes the current piece hold at least one unread byte; false at the end of the data. */
  private async fill(): Promise<boolean> {
    while (this.index >= this.piece.length) {
      if (this.ended) return false;
      const next = await this.source.next();
      if (next === null) {
        this.ended = true;
        return false;
      }
      this.consumedBefore += this.piece.length;
      this.piece = next;
      this.index = 0;
    }
    return true;
  }

  /** The next byte without consuming it, or -1 at the end. */
  async peek(): Promise<number> {
    return (await this.fill()) ? (this.piece[this.index] ?? -1) : -1;
  }

  /**
   * The next line with its line ending (LF or CRLF), or what is left at the end of the data (no ending then),
   * or null when nothing is left.
   * @throws LineTooLongError when no line ending comes within `maxBytes`.
   */
  async readLine(maxBytes: number): Promise<Uint8Array | null> {
    const parts: Uint8Array[] = [];
    let length = 0;
    while (await this.fill()) {
      const end = this.piece.indexOf(LF, this.index);
      const stop = end === -1 ? this.piece.length : end + 1;
      if (length + (stop - this.index) > maxBytes)
        throw new LineTooLongError(`no line ending within ${maxBytes} bytes`);
      parts.push(this.piece.subarray(this.index, stop));
      length += stop - this.index;
      this.index = stop;
      if (end !== -1) return concat(parts, length);
    }
    return length === 0 ? null : concat(parts, length);
  }

  /**
   * Reads `count` bytes, keeping the first `keep` of them (copied) and skipping the rest.
   * @returns the bytes kept and how many were read: fewer than `count` only at the end of the data.
   */
  async read(count: number, keep: number): Promise<{ bytes: Uint8Array; read: number }> {
    const kept = new Uint8Array(Math.min(count, keep));
    let read = 0;
    while (read < count && (await this.fill())) {
      const take = Math.min(count - read, this.piece.length - this.index);
      if (read < kept.length)
        kept.set(this.piece.subarray(this.index, this.index + Math.min(take, kept.length - read)), read);
      this.index += take;
      read += take;
    }
    return { bytes: read < kept.length ? kept.subarray(0, read) : kept, read };
  }

  /** Skips CR and LF bytes; returns how many. */
  async skipLineEndings(): Promise<number> {
    let skipped = 0;
    while (await this.fill()) {
      const byte = this.piece[this.index];
      if (byte !== CR && byte !== LF) break;
      this.index += 1;
      skipped += 1;
    }
    return skipped;
  }

  /** The next `count` bytes (fewer at the end of the data) without consuming them. */
  async peekBytes(count: number): Promise<Uint8Array> {
    if (!(await this.fill())) return new Uint8Array(0);
    if (this.piece.length - this.index >= count) return this.piece.subarray(this.index, this.index + count);
    // They run over into the next pieces: join what is left of this one with them. `consumedBefore`
    // counts the bytes before `piece`, so the position stays the same.
    let joined: Uint8Array = this.piece.subarray(this.index);
    this.consumedBefore += this.index;
    this.index = 0;
    while (joined.length < count && !this.ended) {
      const next = await this.source.next();
      if (next === null) this.ended = true;
      else joined = concat([joined, next], joined.length + next.length);
    }
    this.piece = joined;
    return joined.subarray(0, count);
  }

  /** Whether the next bytes are `prefix` (nothing is consumed). */
  async startsWith(prefix: Uint8Array): Promise<boolean> {
    const here = this.piece.subarray(this.index, this.index + prefix.length);
    // Most calls are answered by the current piece: a byte that differs, or the whole prefix.
    if (!prefix.subarray(0, here.length).every((byte, i) => byte === here[i])) return false;
    const next = here.length === prefix.length ? here : await this.peekBytes(prefix.length);
    return next.length === prefix.length && prefix.every((byte, i) => byte === next[i]);
  }

  /**
   * Skips to the next line that starts with `prefix` (a line starts after an LF), and returns how many
   * bytes were skipped; `found` is false when the data ended first.
   */
  async skipToLineStartingWith(prefix: Uint8Array): Promise<{ skipped: number; found: boolean }> {
    let skipped = 0;
    for (;;) {
      if (!(await this.fill())) return { skipped, found: false };
      const end = this.piece.indexOf(LF, this.index);
      const stop = end === -1 ? this.piece.length : end + 1;
      skipped += stop - this.index;
      this.index = stop;
      if (end !== -1 && (await this.startsWith(prefix))) return { skipped, found: true };
    }
  }
}

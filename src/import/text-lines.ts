/**
 * Text split into lines as it streams, each line at most a bound: the pieces
 * of a line are kept in a list and joined once its end comes (joining them at
 * every piece copied a long line again and again), and a line longer than the
 * bound stops the reading with an {@link ArchiveReadError} naming the entry and
 * the line, instead of growing a string to V8's limit (`Invalid string length`).
 */
import { ArchiveReadError } from './archive-error.ts';

/** Most characters of one line of a WACZ's JSON Lines files (a page of `pages.jsonl`, a row of `tabcrawl/rows.jsonl.gz`). */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

export class LineSplitter {
  private readonly decoder = new TextDecoder('utf-8');
  private parts: string[] = [];
  private partsLength = 0;
  /** Lines given out so far (the next line's number is this plus one). */
  lines = 0;

  /**
   * @param located the file and entry, for messages (`site.wacz › pages/pages.jsonl`).
   * @param offset where the reading is, for messages (bytes of the entry read).
   */
  constructor(
    private readonly located: string,
    private readonly offset: () => number,
    private readonly maxChars = MAX_LINE_CHARS,
  ) {}

  /** The lines these bytes end (the last line's start is kept for the next bytes). */
  push(bytes: Uint8Array): string[] {
    return this.split(this.decoder.decode(bytes, { stream: true }));
  }

  /** The lines left at the end of the bytes (the last one when they did not end with a line end). */
  end(): string[] {
    const out = this.split(this.decoder.decode());
    const rest = this.parts.join('');
    this.parts = [];
    this.partsLength = 0;
    if (rest !== '') {
      this.lines += 1;
      out.push(rest);
    }
    return out;
  }

  private split(text: string): string[] {
    const out: string[] = [];
    let from = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', from)) {
      this.add(text.slice(from, newline));
      out.push(this.parts.length === 1 ? (this.parts[0] ?? '') : this.parts.join(''));
      this.parts = [];
      this.partsLength = 0;
      this.lines += 1;
      from = newline + 1;
    }
    if (from < text.length) this.add(text.slice(from));
    return out;
  }

  private add(piece: string): void {
    this.partsLength += piece.length;
    if (this.partsLength > this.maxChars) {
      throw new ArchiveReadError(
        'unsupported',
        this.located,
        this.offset(),
        `line ${this.lines + 1} is longer than ${this.maxChars} characters: not a line of a page list or of rows`,
      );
    }
    this.parts.push(piece);
  }
}

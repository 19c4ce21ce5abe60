/** The input of `gzip-member-source.ts` not inflated yet. */

/**
 * Input bytes not inflated yet, in one buffer: a chunk that arrives with nothing left over is used as it is;
 * else it is copied after what is left, into a buffer of this module's own that doubles when what is left
 * and the chunk do not fit, and is compacted (what is left moved to its start) when they fit but not after
 * it. So a member read over many chunks costs about one copy of its bytes, not one per chunk.
 */
export class PendingInput {
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

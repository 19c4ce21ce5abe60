/**
 * Joins many small byte chunks into few large ones. Every chunk handed down
 * an export's pipeline (the zip writer, the stream into the Blob, the IPC to
 * the browser's blob store) costs a fixed price whatever its size, and a WARC
 * comes as tens of thousands of small pieces (headers, gzip members of a few
 * hundred bytes): joined into chunks of about {@link JOINED_CHUNK_BYTES}, the
 * price is paid a few hundred times instead.
 */

/** Size, in bytes, of the chunks given out: big enough to make the per-chunk costs vanish, small enough to keep memory flat. */
export const JOINED_CHUNK_BYTES = 1024 * 1024;

export class ChunkJoiner {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;

  constructor(private readonly targetBytes = JOINED_CHUNK_BYTES) {}

  /**
   * Takes `bytes` (not copied until joined; the caller must not change them)
   * and returns the chunks now complete, in order. A chunk of the target size
   * or more passes through whole, after what was pending.
   */
  push(bytes: Uint8Array): Uint8Array[] {
    if (bytes.byteLength >= this.targetBytes) return [...this.flush(), bytes];
    this.pending.push(bytes);
    this.pendingBytes += bytes.byteLength;
    return this.pendingBytes >= this.targetBytes ? this.flush() : [];
  }

  /** What is pending, as one chunk (none when nothing is). */
  flush(): Uint8Array[] {
    if (this.pendingBytes === 0) {
      this.pending = [];
      return [];
    }
    const joined = new Uint8Array(this.pendingBytes);
    let offset = 0;
    for (const part of this.pending) {
      joined.set(part, offset);
      offset += part.byteLength;
    }
    this.pending = [];
    this.pendingBytes = 0;
    return [joined];
  }
}

/** `chunks` joined by a {@link ChunkJoiner}. */
export async function* joinedChunks(
  chunks: AsyncIterable<Uint8Array>,
  targetBytes = JOINED_CHUNK_BYTES,
): AsyncGenerator<Uint8Array> {
  const joiner = new ChunkJoiner(targetBytes);
  for await (const chunk of chunks) yield* joiner.push(chunk);
  yield* joiner.flush();
}

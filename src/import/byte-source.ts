/**
 * The bytes of an archive file, as a WARC reader needs them: the input
 * (a stream, a Blob or File, chunks) read piece by piece, ungzipped when it
 * is gzipped, with the file offset of every gzip member, so that a record
 * can say where it is in the compressed file.
 *
 * A plain file is handed out as it is read. A gzipped one is inflated member
 * by member (`gzip-member-source.ts`), or by fflate's streaming `Gunzip` when
 * a member is large or odd (`gzip-stream-source.ts`): either way nothing here
 * holds more than a bounded piece of input and what it inflates to, so a
 * 2 GiB file streams through.
 */
import { concat } from './bytes.ts';
import type { DataSource } from './data-source.ts';
import { MemberGzipSource } from './gzip-member-source.ts';

export { type Compression, type DataSource, GzipDataError } from './data-source.ts';

/** What the readers read: a stream, a Blob (a File), an iterable of chunks, or the bytes themselves. */
export type ByteInput =
  ReadableStream<Uint8Array> | Blob | AsyncIterable<Uint8Array> | Iterable<Uint8Array> | Uint8Array;

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

/**
 * Opens a file's bytes: sniffs its first bytes and ungzips it when they are
 * gzip's magic number (whatever the file is called: `.warc` files that are
 * gzipped exist).
 * @param fileName for error messages.
 * @param onProgress called with the file bytes read so far, after each piece.
 */
export async function openDataSource(
  input: ByteInput,
  fileName: string,
  onProgress?: (fileBytesRead: number) => void,
): Promise<DataSource> {
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
  return gzipped
    ? new MemberGzipSource(head, chunks, fileName, onProgress)
    : new PlainSource(head, chunks, ended, onProgress);
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

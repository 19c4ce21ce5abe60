/**
 * An export's byte chunks as one Blob, without holding them in script memory:
 * the chunks are pulled into a `ReadableStream` one at a time (back pressure)
 * and `Response.blob()` collects them; Chrome spills a large Blob to disk.
 */

/** A stream that pulls `chunks` one at a time and cancels them when it is cancelled; `failure` is what they threw. */
function streamOf(chunks: AsyncIterable<Uint8Array>): { stream: ReadableStream<Uint8Array>; failure: () => unknown } {
  const iterator = chunks[Symbol.asyncIterator]();
  let failure: unknown;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done === true) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        failure = error;
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return { stream, failure: () => failure };
}

/**
 * All of `chunks` as a Blob of type `mediaType`. Rejects with the error the
 * chunks threw (not the `TypeError` a failed body read reports), and then no
 * Blob exists: a half-written export is never handed out.
 */
export async function blobOf(chunks: AsyncIterable<Uint8Array>, mediaType: string): Promise<Blob> {
  const { stream, failure } = streamOf(chunks);
  try {
    return await new Response(stream, { headers: { 'content-type': mediaType } }).blob();
  } catch (error) {
    throw failure() ?? error;
  }
}

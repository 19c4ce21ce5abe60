/** Reading a web stream chunk by chunk, for the writers that build on one (the WACZ's zip, gzipped entries). */

/** A ReadableStream as an async iterable (`for await` over a ReadableStream is not in every browser this runs in). */
export async function* readStream(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield value;
    }
    finished = true;
  } finally {
    // Stopped early (the consumer returned or failed): stop the stream and what feeds it (the zip, the WARC, the rows).
    if (!finished) await reader.cancel();
    reader.releaseLock();
  }
}

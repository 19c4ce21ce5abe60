/**
 * Size and SHA-256 of a byte stream, computed while it streams into a zip
 * entry, so `datapackage.json` can list them without reading the entry
 * again (the hash: `stream-hash.ts`).
 */
import { inlineHash, type StreamHash } from './stream-hash.ts';
import { sha256Label } from './warc-record.ts';

/** What passed through: byte count and `sha256:<hex>`. */
export interface StreamDigest {
  bytes: number;
  hash: string;
}

/**
 * Yields the chunks of `source` unchanged; when `source` ends, calls
 * `onEnd` with their total size and digest (not called if the stream is
 * abandoned or fails), before it ends itself.
 * @param hash the running hash to feed (a worker's for a large entry). @default inlineHash()
 */
export async function* digesting(
  source: AsyncIterable<Uint8Array>,
  onEnd: (digest: StreamDigest) => void,
  hash: StreamHash = inlineHash(),
): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  for await (const chunk of source) {
    await hash.update(chunk);
    bytes += chunk.byteLength;
    yield chunk;
  }
  onEnd({ bytes, hash: sha256Label(await hash.end()) });
}

/**
 * Size and SHA-256 of a byte stream, computed while it streams into a zip
 * entry, so `datapackage.json` can list them without reading the entry
 * again. `crypto.subtle.digest` takes one whole buffer, so the hash is
 * `@noble/hashes`' incremental SHA-256.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { sha256Label } from './warc-record.ts';

/** What passed through: byte count and `sha256:<hex>`. */
export interface StreamDigest {
  bytes: number;
  hash: string;
}

/**
 * Yields the chunks of `source` unchanged; when `source` ends, calls
 * `onEnd` with their total size and digest (not called if the stream is
 * abandoned or fails).
 */
export async function* digesting(source: AsyncIterable<Uint8Array>, onEnd: (digest: StreamDigest) => void): AsyncGenerator<Uint8Array> {
  const hasher = sha256.create();
  let bytes = 0;
  for await (const chunk of source) {
    hasher.update(chunk);
    bytes += chunk.byteLength;
    yield chunk;
  }
  onEnd({ bytes, hash: sha256Label(bytesToHex(hasher.digest())) });
}

/**
 * A dedicated worker that hashes a byte stream with SHA-256 (see
 * `stream-hash.ts`): the WACZ's WARC passes through a hash as it is written,
 * and in the page that hash took a tenth of the export's time on the one
 * thread doing all the rest. Messages in: `'ping'`, a chunk, or `'end'`.
 * Messages out: `'pong'`, the byte count of each chunk once hashed (so the
 * page never queues more than a few MiB), and the hex digest after `'end'`.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** What this script sees of its global scope (the DOM library types a window's). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<Uint8Array | 'ping' | 'end'>) => void) | null;
  postMessage(message: unknown): void;
}

const scope = globalThis as unknown as WorkerScope;
let hasher = sha256.create();
scope.onmessage = (event) => {
  const { data } = event;
  if (data === 'ping') scope.postMessage('pong');
  else if (data === 'end') {
    scope.postMessage({ hex: bytesToHex(hasher.digest()) });
    hasher = sha256.create();
  } else {
    hasher.update(data);
    scope.postMessage({ hashed: data.byteLength });
  }
};

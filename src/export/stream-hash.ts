/**
 * SHA-256 of a byte stream, fed chunk by chunk. `crypto.subtle.digest` takes
 * one whole buffer, so the hash is `@noble/hashes`' incremental SHA-256; where
 * the platform has workers (a browser page) it runs in a dedicated worker
 * (`sha256-worker.ts`), on another core than the export, else inline.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** A running hash. */
export interface StreamHash {
  /** Whether the hash runs in a worker (else in this thread). */
  readonly inWorker: boolean;
  /** Hashes `chunk` after those before (not changed by the hash; the caller may reuse it once this resolves). */
  update(chunk: Uint8Array): Promise<void>;
  /** The hex SHA-256 of all chunks. */
  end(): Promise<string>;
}

/** Bytes handed to the worker and not yet hashed, at most: past this, `update` waits. */
const MAX_QUEUED_BYTES = 16 * 1024 * 1024;
/** How long the worker may take to answer its first message before the hash runs inline instead, in ms. */
const WORKER_START_MS = 2000;

/** A hash in this thread. */
export function inlineHash(): StreamHash {
  const hasher = sha256.create();
  return {
    inWorker: false,
    update: async (chunk) => void hasher.update(chunk),
    end: async () => bytesToHex(hasher.digest()),
  };
}

/** A hash in a dedicated worker when one starts, else {@link inlineHash}. */
export async function startStreamHash(): Promise<StreamHash> {
  if (typeof Worker === 'undefined') return inlineHash();
  let worker: Worker;
  try {
    worker = new Worker(new URL('./sha256-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return inlineHash();
  }
  const started = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), WORKER_START_MS);
    worker.onerror = () => (clearTimeout(timer), resolve(false));
    worker.onmessage = (event: MessageEvent<unknown>) => (clearTimeout(timer), resolve(event.data === 'pong'));
    worker.postMessage('ping');
  });
  if (!started) {
    worker.terminate();
    return inlineHash();
  }
  return workerHash(worker);
}

function workerHash(worker: Worker): StreamHash {
  let queuedBytes = 0;
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  let onDigest: ((hex: string) => void) | null = null;
  worker.onmessage = (event: MessageEvent<{ hashed?: number; hex?: string }>) => {
    const { hashed, hex } = event.data;
    if (hashed !== undefined) queuedBytes -= hashed;
    if (hex !== undefined) onDigest?.(hex);
    wake?.();
  };
  worker.onerror = (event) => {
    failure = new Error(`the hashing worker failed: ${event.message}`);
    wake?.();
  };
  const waitForWorker = (): Promise<void> => new Promise<void>((resolve) => (wake = resolve));
  return {
    inWorker: true,
    async update(chunk) {
      while (failure === null && queuedBytes > MAX_QUEUED_BYTES) await waitForWorker();
      if (failure !== null) throw failure;
      // A view on part of a buffer is copied alone (posting it would copy its whole buffer).
      const own = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength ? chunk : chunk.slice();
      queuedBytes += own.byteLength;
      worker.postMessage(own);
    },
    async end() {
      const digest = new Promise<string>((resolve) => (onDigest = resolve));
      worker.postMessage('end');
      for (;;) {
        const hex = await Promise.race([digest, waitForWorker().then(() => null)]);
        if (hex !== null) {
          worker.terminate();
          return hex;
        }
        if (failure !== null) {
          worker.terminate();
          throw failure;
        }
      }
    },
  };
}

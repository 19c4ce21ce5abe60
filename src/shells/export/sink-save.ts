/**
 * The export page driven by a program (the command line): instead of a
 * download, the finished file is read back from its Blob (kept on disk by
 * Chrome for large files) and handed to the driver's sink in pieces of at
 * most {@link SINK_CHUNK_BYTES}, each awaited, so memory stays flat.
 */
import { SINK_CHUNK_BYTES, SINK_NAME, type SinkEvent } from '../../export/page-sink.ts';

export type Sink = (event: SinkEvent) => Promise<void>;

/** The sink a driver exposed on this page, or null when the page was opened by a person. */
export function findSink(scope: object): Sink | null {
  const candidate: unknown = Reflect.get(scope, SINK_NAME);
  return typeof candidate === 'function' ? (event) => Promise.resolve(candidate(event)) : null;
}

/**
 * The sink, once a driver has exposed it: polled every 50 ms, null after `timeoutMs` (the page then
 * exports as a download, as when a person opens it).
 */
export async function waitForSink(scope: object, timeoutMs: number): Promise<Sink | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const sink = findSink(scope);
    if (sink !== null || Date.now() >= deadline) return sink;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Sends `blob` to the sink and resolves with the bytes sent. */
export async function sendToSink(sink: Sink, blob: Blob): Promise<number> {
  let sent = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = async (): Promise<void> => {
    if (pendingBytes === 0) return;
    const joined = new Uint8Array(pendingBytes);
    let offset = 0;
    for (const part of pending) {
      joined.set(part, offset);
      offset += part.byteLength;
    }
    pending = [];
    pendingBytes = 0;
    await sink({ kind: 'chunk', base64: base64Of(joined) });
    sent += joined.byteLength;
  };
  const reader = blob.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (let offset = 0; offset < value.byteLength; ) {
      const take = Math.min(value.byteLength - offset, SINK_CHUNK_BYTES - pendingBytes);
      pending.push(value.subarray(offset, offset + take));
      pendingBytes += take;
      offset += take;
      if (pendingBytes >= SINK_CHUNK_BYTES) await flush();
    }
  }
  await flush();
  return sent;
}

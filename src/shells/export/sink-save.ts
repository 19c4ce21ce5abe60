/**
 * The export page driven by a program (the command line): instead of a
 * download, the file's bytes are handed to the driver's sink as they are
 * made, in pieces of at most {@link SINK_CHUNK_BYTES}, base64 (the bridge
 * carries JSON), one in flight at a time, so memory stays flat.
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

/** `Uint8Array.prototype.toBase64` (Chromium 140, Firefox 133), native: 16 MiB in about 10 ms, where the script below takes half a second. */
type WithToBase64 = Uint8Array & { toBase64?: () => string };

function base64Of(bytes: Uint8Array): string {
  const native = (bytes as WithToBase64).toBase64;
  if (typeof native === 'function') return native.call(bytes);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Bytes written to a sink as they are made: see {@link sinkStream}. */
export interface SinkStream {
  /** Takes `chunk` (not copied until sent; the caller must not change it); resolves once it may be given the next. */
  write(chunk: Uint8Array): Promise<void>;
  /** Sends what is pending and resolves with the bytes sent in all, once the sink has taken them. */
  end(): Promise<number>;
}

/**
 * Sends bytes to the sink in pieces of {@link SINK_CHUNK_BYTES} as they come. One piece is in flight
 * while the next is gathered, so the program decoding and writing a piece overlaps the page making the
 * next; at most two pieces are held.
 */
export function sinkStream(sink: Sink): SinkStream {
  let sent = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let inFlight: Promise<void> = Promise.resolve();
  const send = async (): Promise<void> => {
    if (pendingBytes === 0) return;
    const joined = new Uint8Array(pendingBytes);
    let offset = 0;
    for (const part of pending) {
      joined.set(part, offset);
      offset += part.byteLength;
    }
    pending = [];
    pendingBytes = 0;
    await inFlight;
    inFlight = sink({ kind: 'chunk', base64: base64Of(joined) });
    // Its failure is thrown by the next write or by end(); not an unhandled rejection meanwhile.
    inFlight.catch(() => undefined);
    sent += joined.byteLength;
  };
  return {
    async write(chunk) {
      for (let offset = 0; offset < chunk.byteLength;) {
        const take = Math.min(chunk.byteLength - offset, SINK_CHUNK_BYTES - pendingBytes);
        pending.push(chunk.subarray(offset, offset + take));
        pendingBytes += take;
        offset += take;
        if (pendingBytes >= SINK_CHUNK_BYTES) await send();
      }
    },
    async end() {
      await send();
      await inFlight;
      return sent;
    },
  };
}

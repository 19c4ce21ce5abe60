/**
 * A clock for tests: time stands still until every pending promise has
 * settled, then jumps to the next timer. A crawl of a site with a 1 s delay
 * runs in milliseconds, and the politeness assertions still see exact times.
 */
import type { Clock } from '../../src/core/crawl/ports.ts';

interface Timer {
  at: number;
  resolve: () => void;
}

/**
 * Lets every queued microtask and short real async operation settle. Web
 * Crypto digests run on Node's thread pool and come back as macrotasks, so a
 * few immediates are not always enough: wait a real millisecond too.
 */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
  await new Promise<void>((resolve) => setTimeout(resolve, 1));
  for (let i = 0; i < 3; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Web Crypto digests in flight. The crawl hashes every body; on a loaded
 * machine a digest can take longer than {@link settle} waits, and a clock that
 * jumped meanwhile would show gaps and orderings no real crawl has. Counted by
 * wrapping `crypto.subtle.digest` (tests only), so that time never moves while
 * one is running.
 */
let digestsRunning = 0;
const subtle = globalThis.crypto.subtle;
const realDigest = subtle.digest.bind(subtle);
subtle.digest = ((algorithm: AlgorithmIdentifier, data: BufferSource) => {
  digestsRunning += 1;
  return realDigest(algorithm, data).finally(() => {
    digestsRunning -= 1;
  });
}) as SubtleCrypto['digest'];

/** Settles, and again while a digest is running, until none is. */
async function settleAll(): Promise<void> {
  await settle();
  while (digestsRunning > 0) {
    await new Promise<void>((resolve) => setTimeout(resolve, 1));
    await settle();
  }
}

export class VirtualClock implements Clock {
  private time: number;
  private timers: Timer[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        this.timers = this.timers.filter((t) => t !== timer);
        reject(signal?.reason);
      };
      const timer: Timer = {
        at: this.time + Math.max(0, ms),
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.timers.push(timer);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Drives time until `promise` settles: whenever nothing else can happen,
   * jumps to the earliest timer. Throws when nothing is scheduled and the
   * promise is still pending (a deadlock), or after `maxJumps` jumps.
   */
  async run<T>(promise: Promise<T>, maxJumps = 100_000): Promise<T> {
    let done = false;
    promise.then(
      () => (done = true),
      () => (done = true),
    );
    for (let jumps = 0; !done; jumps += 1) {
      await settleAll();
      if (done) break;
      if (this.timers.length === 0) {
        // Something real (not a timer: a Web Crypto digest on a busy machine) may still be on its way;
        // give it up to half a second before calling it a deadlock.
        for (let waited = 0; waited < 500 && !done && this.timers.length === 0; waited += 5) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        if (!done && this.timers.length === 0) throw new Error('deadlock: the promise is pending and no timer is set');
        continue;
      }
      if (jumps >= maxJumps) throw new Error(`gave up after ${maxJumps} clock jumps`);
      const next = Math.min(...this.timers.map((t) => t.at));
      this.time = Math.max(this.time, next);
      const due = this.timers.filter((t) => t.at <= this.time);
      this.timers = this.timers.filter((t) => t.at > this.time);
      for (const timer of due) timer.resolve();
    }
    return promise;
  }
}

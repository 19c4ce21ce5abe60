/**
 * Runs one crawl through the extension's protocol: start it, and poll it
 * until it ends (or the caller aborts, which stops it).
 */
import type { CrawlSummary, ReplyOf, RequestOf, RequestType } from '../../messaging/protocol.ts';

/** Sends one protocol request (an {@link ExtensionSession}'s `request`, or a fake in tests). */
export type RequestFn = <K extends RequestType>(type: K, payload: RequestOf<K>) => Promise<ReplyOf<K>>;

/** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export interface WaitOptions {
  /** Aborting stops the crawl (`crawl/stop`); what is stored stays. */
  signal?: AbortSignal;
  /** Time between two `crawl/get` polls, in ms. @default 500 */
  pollMs?: number;
  /** Called with each polled state, the last one included. */
  onProgress?: (crawl: CrawlSummary) => void;
  /** Waits between polls; injectable for tests. @default {@link pause} */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface WaitResult {
  /** The crawl as it ended. */
  crawl: CrawlSummary;
  /** The caller aborted and the crawl was stopped on its behalf. */
  interrupted: boolean;
}

/** Polls a crawl until it is no longer `running`; stops it when `signal` aborts. */
export async function waitForCrawl(
  request: RequestFn,
  crawlId: string,
  options: WaitOptions = {},
): Promise<WaitResult> {
  const pollMs = options.pollMs ?? 500;
  const sleep = options.sleep ?? pause;
  for (;;) {
    if (options.signal?.aborted === true) {
      const crawl = await stopCrawl(request, crawlId);
      options.onProgress?.(crawl);
      return { crawl, interrupted: true };
    }
    const { crawl } = await request('crawl/get', { crawlId });
    options.onProgress?.(crawl);
    if (crawl.state !== 'running') return { crawl, interrupted: false };
    await sleep(pollMs, options.signal);
  }
}

/** Stops a crawl; when it has already ended, returns it as it is. */
async function stopCrawl(request: RequestFn, crawlId: string): Promise<CrawlSummary> {
  try {
    return (await request('crawl/stop', { crawlId })).crawl;
  } catch (error) {
    const { crawl } = await request('crawl/get', { crawlId });
    if (crawl.state === 'running') throw error;
    return crawl;
  }
}

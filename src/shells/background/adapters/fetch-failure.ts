/**
 * A failed `fetch` as data ({@link FetchFailure}): a timeout, a stop, a host
 * that cannot be reached (told by the browser's name for the error, which
 * `webRequest` reports and `fetch` hides behind "Failed to fetch"), or another
 * network failure. No browser API: tested in Node.
 */
import type { FetchFailure } from '../../../core/model.ts';
import { unreachableKindOf } from './browser-differences.ts';

/** The request's own timeout fired: no complete answer in time. */
export class TimeoutError extends Error {
  constructor(ms: number) {
    super(`no complete answer within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/**
 * A failed fetch as data.
 * @param observedError the browser's name for the failure (see `WireObserver`), when it reported one: it
 *   tells a host name that does not resolve (`dns`) and a refused connection (`refused`) from other failures.
 */
export function failureOf(error: unknown, signal: AbortSignal | undefined, observedError: string | null = null): FetchFailure {
  if (error instanceof TimeoutError) return { code: 'timeout', message: error.message };
  if (signal?.aborted) return { code: 'aborted', message: 'the crawl was stopped' };
  const unreachable = unreachableKindOf(observedError);
  if (unreachable === 'dns') return { code: 'dns', message: `the host name does not resolve (${observedError})` };
  if (unreachable === 'refused') return { code: 'refused', message: `the connection was refused (${observedError})` };
  // Chrome says "Failed to fetch", Firefox "NetworkError when attempting to fetch resource.": the browser's name says more.
  if (observedError !== null) return { code: 'network', message: `network error (${observedError})` };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'network', message: message === 'Failed to fetch' ? 'network error (connection refused, reset, DNS or TLS failure)' : message };
}

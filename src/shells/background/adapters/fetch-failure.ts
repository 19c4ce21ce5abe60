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
 * The ports no browser connects to: the "bad ports" of the Fetch standard (§ 2.9, "port blocking"), which
 * Chromium and Firefox both refuse before any connection. Firefox reports no error name to `webRequest` for
 * them, so the port itself tells.
 * @see https://fetch.spec.whatwg.org/#bad-port
 */
const BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** The URL's port when it is a bad port (see {@link BAD_PORTS}), else null (a default port is never one). */
export function badPortOf(url: string | null): number | null {
  if (url === null || !URL.canParse(url)) return null;
  const port = new URL(url).port;
  return port !== '' && BAD_PORTS.has(Number(port)) ? Number(port) : null;
}

/**
 * A failed fetch as data.
 * @param observedError the browser's name for the failure (see `WireObserver`), when it reported one: it
 *   tells a host name that does not resolve (`dns`) and a refused connection (`refused`) from other failures.
 * @param url the URL requested: a bad port (which no browser connects to) is `refused`, whatever was reported.
 */
export function failureOf(
  error: unknown,
  signal: AbortSignal | undefined,
  observedError: string | null = null,
  url: string | null = null,
): FetchFailure {
  if (error instanceof TimeoutError) return { code: 'timeout', message: error.message };
  if (signal?.aborted) return { code: 'aborted', message: 'the crawl was stopped' };
  const badPort = badPortOf(url);
  if (badPort !== null)
    return {
      code: 'refused',
      message: `the browser never connects to port ${badPort} (a bad port of the Fetch standard)`,
    };
  const unreachable = unreachableKindOf(observedError);
  if (unreachable === 'dns') return { code: 'dns', message: `the host name does not resolve (${observedError})` };
  if (unreachable === 'refused') return { code: 'refused', message: `the connection was refused (${observedError})` };
  // Chrome says "Failed to fetch", Firefox "NetworkError when attempting to fetch resource.": the browser's name says more.
  if (observedError !== null) return { code: 'network', message: `network error (${observedError})` };
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: 'network',
    message: message === 'Failed to fetch' ? 'network error (connection refused, reset, DNS or TLS failure)' : message,
  };
}

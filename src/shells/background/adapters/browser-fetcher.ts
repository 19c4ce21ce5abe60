/**
 * The crawl core's {@link Fetcher} over the service worker's `fetch`:
 * never follows redirects, sends no cookies (unless made with `include`), never uses the HTTP cache,
 * stops at a timeout, and reads a body only when asked and only up to a cap.
 */
import type { FetchOutcome, FetchRequest, Fetcher } from '../../../core/crawl/ports.ts';
import { failureOf, TimeoutError } from './fetch-failure.ts';
import type { ObservedExchange, WireObserver } from './wire-observer.ts';

/** Reads at most `maxBytes` of a body; cancels the rest. */
async function readCapped(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  declaredBytes: number | null,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const reader = body.getReader();
  // A declared length within the cap: one buffer of that size, filled as chunks arrive, so a large
  // file is held once (chunks are dropped as they are copied), not twice as chunks then their copy.
  const exact = declaredBytes !== null && declaredBytes <= maxBytes ? new Uint8Array(declaredBytes) : null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  /** Bytes written into `exact` (its first bytes; once a piece does not fit, the rest go to `chunks`). */
  let inExact = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - size;
    const piece = value.byteLength > room ? value.subarray(0, room) : value;
    if (exact !== null && chunks.length === 0 && inExact + piece.byteLength <= exact.byteLength) {
      exact.set(piece, inExact);
      inExact += piece.byteLength;
    } else chunks.push(piece);
    size += piece.byteLength;
    if (value.byteLength > room) {
      truncated = true;
      await reader.cancel();
      break;
    }
  }
  // A copy when the server sent less than it declared (a view would keep, and store, the whole buffer).
  if (exact !== null && chunks.length === 0)
    return { bytes: inExact === exact.byteLength ? exact : exact.slice(0, inExact), truncated };
  // No length declared, or the server sent more than it declared: join what was read.
  const bytes = new Uint8Array(size);
  let offset = 0;
  if (exact !== null) {
    bytes.set(exact.subarray(0, inExact), 0);
    offset = inExact;
  }
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, truncated };
}

/** A `Location` resolved against the request URL, or null when absent or not a URL (`http://[`): a bad header is data, not a failed fetch. */
function resolveLocation(location: string | null | undefined, requestUrl: string): string | null {
  if (location === null || location === undefined) return null;
  try {
    return new URL(location, requestUrl).href;
  } catch {
    return null;
  }
}

/** A bodiless answer as webRequest reported it (a redirect): its status, headers and resolved `Location`. */
function observedAnswer(
  observed: ObservedExchange,
  status: number,
  requestUrl: string,
  startedAt: number,
  endedAt: number,
): FetchOutcome {
  const headers = observed.responseHeaders;
  return {
    ok: true,
    status,
    headers,
    location: resolveLocation(headers.find(([name]) => name === 'location')?.[1], requestUrl),
    body: null,
    truncated: false,
    wire: {
      statusLine: observed.statusLine,
      requestHeaders: observed.requestHeaders,
      ipAddress: observed.ipAddress,
      serverMs: observed.serverMs ?? null,
    },
    startedAt,
    endedAt,
  };
}

/**
 * Tolerance, in ms, when telling the browser's reports of this request from those of an
 * earlier request of the same URL: both clocks are the system clock, read in two processes.
 */
const CLOCK_SKEW_MS = 1;

/** How long to wait for the browser's report of a redirect, in ms: without it a redirect has no status. */
const REDIRECT_REPORT_WAIT_MS = 2000;
/** How long to wait for the report of an ordinary response (status line, IP), in ms: it is nice to have. */
const WIRE_REPORT_WAIT_MS = 250;

/**
 * @param now a millisecond clock (`Date.now`). End times are rounded UP to the next millisecond:
 *   the host's gap counts from the end of the response, and rounding down could shorten it by up to 1 ms.
 * @param credentials `'omit'`: no cookies, no HTTP auth, whatever the profile holds (fetch's own default,
 *   `'same-origin'`, does send them from an extension with host access). `'include'` only for crawls
 *   the user started with `withCookies`.
 */
export function createBrowserFetcher(
  wire: WireObserver,
  now: () => number = Date.now,
  credentials: 'omit' | 'include' = 'omit',
): Fetcher {
  const endNow = (): number => now() + 1;
  return {
    async fetch(request: FetchRequest): Promise<FetchOutcome> {
      const startedAt = now();
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new TimeoutError(request.timeoutMs)), request.timeoutMs);
      const onAbort = (): void => controller.abort(request.signal?.reason);
      // A signal aborted before the call fires no event: abort now, so no request goes out.
      if (request.signal?.aborted === true) onAbort();
      else request.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const response = await fetch(request.url, {
          method: request.method,
          cache: 'no-store',
          redirect: 'manual',
          credentials: request.withoutCredentials === true ? 'omit' : credentials,
          referrerPolicy: 'no-referrer',
          signal: controller.signal,
        });
        if (response.type === 'opaqueredirect') {
          const observed = await wire.take(
            request.method,
            request.url,
            REDIRECT_REPORT_WAIT_MS,
            startedAt - CLOCK_SKEW_MS,
          );
          if (observed === undefined || observed.statusCode === null) {
            // Only webRequest can tell what the redirect was; without it, say so rather than invent a status.
            return {
              ok: false,
              error: { code: 'invalid-response', message: 'a redirect whose status and target could not be observed' },
              startedAt,
              endedAt: endNow(),
            };
          }
          return observedAnswer(observed, observed.statusCode, request.url, startedAt, endNow());
        }
        const headers = [...response.headers].map(([name, value]): [string, string] => [name.toLowerCase(), value]);
        const contentType = response.headers.get('content-type');
        const limit =
          request.method === 'GET' && response.body !== null ? request.bodyLimit(response.status, contentType) : 0;
        let body: Uint8Array | null = null;
        let truncated = false;
        if (limit > 0 && response.body !== null) {
          // The declared length is of the encoded body; fetch hands over the decoded one: use it only when not encoded.
          const encoded = (response.headers.get('content-encoding') ?? 'identity').trim().toLowerCase() !== 'identity';
          const declared = encoded ? null : Number.parseInt(response.headers.get('content-length') ?? '', 10);
          ({ bytes: body, truncated } = await readCapped(
            response.body,
            limit,
            declared !== null && Number.isSafeInteger(declared) && declared >= 0 ? declared : null,
          ));
        } else {
          await response.body?.cancel();
        }
        const isRedirect = response.status >= 300 && response.status < 400;
        const endedAt = endNow();
        const observed = await wire.take(request.method, request.url, WIRE_REPORT_WAIT_MS, startedAt - CLOCK_SKEW_MS);
        return {
          ok: true,
          status: response.status,
          headers,
          location: isRedirect ? resolveLocation(response.headers.get('location'), request.url) : null,
          body,
          truncated,
          wire:
            observed === undefined
              ? null
              : {
                  statusLine: observed.statusLine,
                  requestHeaders: observed.requestHeaders,
                  ipAddress: observed.ipAddress,
                  serverMs: observed.serverMs ?? null,
                },
          startedAt,
          endedAt,
        };
      } catch (error) {
        const endedAt = endNow();
        /** The browser's name for the failure, when webRequest reported one. */
        let observedError: string | null = null;
        /** webRequest saw no `onSendHeaders` for it: the server never saw the request. */
        let unsent = false;
        if (controller.signal.aborted) {
          // Our timeout (not the crawl's stop): was the request ever sent? What was seen so far, no waiting.
          if (request.signal?.aborted !== true) {
            const observed = await wire.take(request.method, request.url, 0, startedAt - CLOCK_SKEW_MS);
            unsent = observed === undefined || observed.requestHeaders === null;
          }
        } else {
          // Chromium fails the fetch of a redirect it will not follow (a Location that is not a URL, or
          // javascript:), even in 'manual' mode; webRequest still saw the status and headers: that is the answer.
          const observed = await wire.take(request.method, request.url, WIRE_REPORT_WAIT_MS, startedAt - CLOCK_SKEW_MS);
          if (
            observed !== undefined &&
            observed.statusCode !== null &&
            observed.statusCode >= 300 &&
            observed.statusCode < 400
          ) {
            return observedAnswer(observed, observed.statusCode, request.url, startedAt, endedAt);
          }
          observedError = observed?.error ?? null;
          unsent = observed === undefined || observed.requestHeaders === null;
        }
        const reason: unknown = controller.signal.aborted ? controller.signal.reason : error;
        const failure = failureOf(reason, request.signal, observedError, request.url);
        return { ok: false, error: failure, startedAt, endedAt, ...(unsent ? { unsent } : {}) };
      } finally {
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}

/**
 * What `fetch` hides about the extension's own requests, read from
 * `webRequest` (the background's requests have tabId -1 and come from the
 * extension's origin):
 * - the status and `Location` of a redirect: with `redirect: 'manual'`, a 3xx
 *   comes back to `fetch` as an opaque response (status 0, no headers);
 * - the status line, the request headers as sent, the server's IP address,
 *   which an archive (WARC) records;
 * - why a request failed (`fetch` only says "Failed to fetch"): the browser's
 *   name for the error, so a host name that does not resolve and a refused
 *   connection can be told from other failures.
 *
 * Exchanges are matched to `fetch` calls by method and URL: a URL is leased to
 * one request at a time (however many are in flight to its host), and HEAD
 * and GET of a URL go in turn.
 */
import browser, { type WebRequest } from 'webextension-polyfill';
import type { WireDetails } from '../../../core/crawl/ports.ts';
import { WEB_REQUEST_DIFFERENCES, type BrowserKind, type RequestOrigin } from './browser-differences.ts';

export interface ObservedExchange extends WireDetails {
  /** Status of the last response seen, or null when none came (yet). */
  statusCode: number | null;
  /** Response headers of that response, lower-cased names, in the order received. */
  responseHeaders: [string, string][];
  /**
   * The browser's name for the failure, from `webRequest.onErrorOccurred` (Chrome: `net::ERR_NAME_NOT_RESOLVED`,
   * Firefox: `NS_ERROR_UNKNOWN_HOST`; see `UNREACHABLE_ERRORS`), or null when none was reported.
   */
  error: string | null;
}

interface Pending {
  key: string;
  /** `timeStamp` of the first event seen for the request (ms since the epoch, the browser's clock). */
  seenAt: number;
  exchange: ObservedExchange;
  /** A final event came (response started, redirect, completed, error). */
  isSettled: boolean;
  /** `timeStamp` of the last `onSendHeaders` of the request (ms since the epoch), null before it. */
  sentAt: number | null;
}

/** Most exchanges remembered that nobody asked for (other extension pages' requests). */
const MAX_UNCLAIMED = 500;

const keyOf = (method: string, url: string): string => `${method.toUpperCase()} ${url}`;
const lowerHeaders = (headers: WebRequest.HttpHeaders | undefined): [string, string][] =>
  (headers ?? []).map((h): [string, string] => [h.name.toLowerCase(), h.value ?? '']);

export class WireObserver {
  private readonly byRequestId = new Map<string, Pending>();
  private readonly settledByKey = new Map<string, Pending>();
  private readonly waiting = new Map<string, () => void>();

  /** Registers the listeners. Call once, synchronously, at the background's top level. */
  register(kind: BrowserKind): void {
    const { extraHeaders, isFrom } = WEB_REQUEST_DIFFERENCES[kind];
    // `runtime.getURL('')` ends with a slash: the origin is what comes before it.
    const extensionOrigin = browser.runtime.getURL('').replace(/\/$/, '');
    // Only requests of no tab (the background's fetches) of the types a fetch has: the user's own browsing
    // is never reported to Tabcrawl, and each crawl request costs fewer events.
    const filter: WebRequest.RequestFilter = {
      urls: ['http://*/*', 'https://*/*'],
      tabId: -1,
      types: ['xmlhttprequest', 'other'],
    };
    const ours = (details: RequestOrigin): boolean => details.tabId === -1 && isFrom(details, extensionOrigin);

    browser.webRequest.onSendHeaders.addListener(
      (details) => {
        if (!ours(details)) return;
        const pending = this.pendingFor(details);
        pending.exchange.requestHeaders = lowerHeaders(details.requestHeaders);
        pending.sentAt = details.timeStamp;
      },
      filter,
      ['requestHeaders', ...extraHeaders],
    );
    browser.webRequest.onHeadersReceived.addListener(
      (details) => {
        if (!ours(details)) return undefined;
        const pending = this.pendingFor(details);
        const { exchange } = pending;
        // The server's time: from the headers sent to the headers received, both on the browser's network
        // clock, so that a busy extension page does not count (a redirect's next hop counts its own).
        exchange.serverMs = pending.sentAt === null ? null : Math.max(0, details.timeStamp - pending.sentAt);
        exchange.statusCode = details.statusCode;
        exchange.statusLine = details.statusLine;
        exchange.responseHeaders = lowerHeaders(details.responseHeaders);
        return undefined;
      },
      filter,
      ['responseHeaders', ...extraHeaders],
    );
    const settle = (
      details: RequestOrigin & {
        requestId: string;
        method: string;
        url: string;
        timeStamp: number;
        ip?: string;
        error?: string;
      },
    ): void => {
      if (!ours(details)) return;
      const pending = this.pendingFor(details);
      if (details.ip !== undefined) pending.exchange.ipAddress = details.ip;
      if (details.error !== undefined) pending.exchange.error = details.error;
      this.settle(details.requestId, pending);
    };
    // The last event with news: the response's start (status line and IP known), a redirect, or an error.
    // Not onCompleted: it repeats what onResponseStarted said, one more event per request.
    browser.webRequest.onResponseStarted.addListener(settle, filter);
    browser.webRequest.onBeforeRedirect.addListener(settle, filter);
    browser.webRequest.onErrorOccurred.addListener(settle, filter);
  }

  /**
   * The exchange seen for this request, waiting up to `timeoutMs` for its
   * final event (events may arrive just after `fetch` resolves). Whatever was
   * seen by then, or undefined when nothing was.
   *
   * Exchanges first seen before `notBefore` belong to an earlier request of
   * the same method and URL whose `fetch` never asked for them (it timed out
   * or was aborted): they are dropped, never handed to a later request.
   * @param notBefore ms since the epoch, normally the start of the `fetch` asking.
   */
  take(
    method: string,
    url: string,
    timeoutMs: number,
    notBefore = Number.NEGATIVE_INFINITY,
  ): Promise<ObservedExchange | undefined> {
    const key = keyOf(method, url);
    const claimSettled = (): ObservedExchange | undefined => {
      const settled = this.settledByKey.get(key);
      if (settled === undefined) return undefined;
      this.settledByKey.delete(key);
      return settled.seenAt >= notBefore ? settled.exchange : undefined;
    };
    const claimAny = (): ObservedExchange | undefined => {
      const settled = claimSettled();
      if (settled) return settled;
      for (const [id, pending] of this.byRequestId) {
        if (pending.key === key && pending.seenAt >= notBefore) {
          this.byRequestId.delete(id);
          return pending.exchange;
        }
      }
      return undefined;
    };
    const ready = claimSettled();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(key);
        resolve(claimAny());
      }, timeoutMs);
      this.waiting.set(key, () => {
        // A stale exchange settling late is dropped; keep waiting for ours.
        const settled = claimSettled();
        if (settled === undefined) return;
        clearTimeout(timer);
        this.waiting.delete(key);
        resolve(settled);
      });
    });
  }

  private pendingFor(details: { requestId: string; method: string; url: string; timeStamp: number }): Pending {
    let pending = this.byRequestId.get(details.requestId);
    if (!pending) {
      pending = {
        key: keyOf(details.method, details.url),
        seenAt: details.timeStamp,
        exchange: {
          statusCode: null,
          statusLine: null,
          requestHeaders: null,
          responseHeaders: [],
          ipAddress: null,
          serverMs: null,
          error: null,
        },
        isSettled: false,
        sentAt: null,
      };
      this.byRequestId.set(details.requestId, pending);
    }
    return pending;
  }

  private settle(requestId: string, pending: Pending): void {
    if (pending.isSettled) return;
    pending.isSettled = true;
    this.byRequestId.delete(requestId);
    this.settledByKey.set(pending.key, pending);
    if (this.settledByKey.size > MAX_UNCLAIMED) this.settledByKey.delete(this.settledByKey.keys().next().value ?? '');
    this.waiting.get(pending.key)?.();
  }
}

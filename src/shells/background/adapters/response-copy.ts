/**
 * The copy of one response a render tab's request receives in Firefox, made as the crawl's fetch of that URL
 * (`tab-request-fetcher.ts`): status and headers from `webRequest.onHeadersReceived` (as the server sent
 * them), the body through `webRequest.filterResponseData`, each chunk written through to the page unchanged,
 * at most the crawl's body limit copied. Past the limit, at the timeout or when the crawl stops, the filter
 * is closed: the page gets what was read, as Chrome's renderer gives it the stored, cut body.
 */
import browser, { type WebRequest } from 'webextension-polyfill';
import type { FetchOutcome, FetchRequest } from '../../../core/crawl/ports.ts';
import { failureOf, TimeoutError } from './fetch-failure.ts';
import { joinChunks, outcomeOfCopy } from './firefox-request-rules.ts';

/** How long, in ms, the headers of a response whose body has ended are still waited for (Firefox reports them apart). */
const HEADERS_WAIT_MS = 2_000;

/** Whether this browser can copy a response as it passes (Firefox with `webRequestFilterResponse`). */
export function canFilterResponses(): boolean {
  const webRequest = browser.webRequest as unknown as { filterResponseData?: unknown } | undefined;
  return typeof webRequest?.filterResponseData === 'function';
}

export class ResponseCopy {
  /** Resolves once, when the response has ended, failed, timed out or the crawl stopped. */
  readonly outcome: Promise<FetchOutcome>;
  private settle: (outcome: FetchOutcome) => void = () => undefined;
  private done = false;
  private filter: WebRequest.StreamFilter | null = null;
  /** Firefox allows no call on a filter before its `start` event. */
  private started = false;
  /** How the filter is let go once the copy is done: closed (the page gets no more), or disconnected (a redirect). */
  private ending: 'close' | 'disconnect' = 'close';
  private readonly chunks: Uint8Array[] = [];
  private copied = 0;
  private limit: number | null = null;
  private truncated = false;
  private status: number | null = null;
  private headers: [string, string][] = [];
  private statusLine: string | null = null;
  private serverMs: number | null = null;
  private ipAddress: string | null = null;
  private readonly startedAt = Date.now();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Set when the body ended before the headers were reported: how long they are still waited for. */
  private headersWait: ReturnType<typeof setTimeout> | null = null;
  private readonly onAbort = (): void => this.cut('aborted');

  /**
   * @param requestHeaders the request's headers as the tab sent them (for the archive), when known.
   * @throws when Firefox refuses the filter (no permission, the request gone): the request is then not released.
   */
  constructor(
    requestId: string,
    private readonly request: FetchRequest,
    private readonly requestHeaders: () => [string, string][] | null,
  ) {
    this.outcome = new Promise((resolve) => {
      this.settle = resolve;
    });
    const filter = browser.webRequest.filterResponseData(requestId);
    this.filter = filter;
    filter.onstart = () => {
      this.started = true;
      // Cut before the response began (the timeout, a stop): closed now that Firefox allows it.
      if (this.done) this.closeFilter();
    };
    filter.ondata = (event) => this.onData(event.data);
    filter.onstop = () => this.finish();
    filter.onerror = () => this.fail(filter.error || 'the response could not be read');
    this.timer = setTimeout(() => this.cut('timeout'), request.timeoutMs);
    request.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The response's status line and headers, as `onHeadersReceived` reported them (before the tab's were changed). */
  headersReceived(
    status: number,
    headers: [string, string][],
    statusLine: string | null,
    serverMs: number | null = null,
  ): void {
    this.serverMs = serverMs;
    this.status = status;
    this.headers = headers;
    this.statusLine = statusLine;
    const contentType = headers.find(([name]) => name === 'content-type')?.[1] ?? null;
    this.limit = this.request.method === 'GET' ? Math.max(0, this.request.bodyLimit(status, contentType)) : 0;
    if (this.headersWait !== null) this.finish();
  }

  ipReported(ip: string | null | undefined): void {
    if (typeof ip === 'string' && ip !== '') this.ipAddress = ip;
  }

  /** The browser follows a redirect: the copy is the 3xx, without a body; the target is a request of its own. */
  redirected(): void {
    // Disconnected, not closed: should Firefox carry the filter over to the redirect's target, closing it would cut that.
    this.ending = 'disconnect';
    this.finish();
  }

  /** The request failed (`onErrorOccurred`'s name for it, e.g. `NS_ERROR_CONNECTION_REFUSED`). */
  fail(error: string): void {
    if (this.done) return;
    this.end({
      ok: false,
      error: failureOf(new Error(error), undefined, error, this.request.url),
      startedAt: this.startedAt,
      endedAt: Date.now() + 1,
    });
    this.closeFilter();
  }

  private onData(data: ArrayBuffer): void {
    const filter = this.filter;
    if (filter === null || this.done) return;
    const chunk = new Uint8Array(data);
    const limit = this.limit ?? Number.POSITIVE_INFINITY;
    const room = limit - this.copied;
    if (chunk.byteLength <= room) {
      this.chunks.push(chunk);
      this.copied += chunk.byteLength;
      filter.write(chunk);
      return;
    }
    // Past the crawl's limit: the page gets what the crawl keeps, and the rest is not read.
    const piece = chunk.slice(0, Math.max(0, room));
    this.chunks.push(piece);
    this.copied += piece.byteLength;
    if (piece.byteLength > 0) filter.write(piece);
    // With a limit of 0 the crawl wanted no body at all: nothing was cut.
    this.truncated = this.limit !== 0;
    this.finish();
  }

  /** The timeout fired or the crawl stopped: the response is cut where it is (the page gets what passed). */
  private cut(why: 'timeout' | 'aborted'): void {
    if (this.done) return;
    const error =
      why === 'timeout'
        ? failureOf(new TimeoutError(this.request.timeoutMs), undefined)
        : failureOf(new Error('stopped'), AbortSignal.abort());
    this.end({ ok: false, error, startedAt: this.startedAt, endedAt: Date.now() + 1 });
    this.closeFilter();
  }

  private finish(): void {
    if (this.done) return;
    if (this.status === null) {
      // Firefox may report the headers after the body's end (seen under load): they are waited for, bounded.
      if (this.headersWait === null) {
        this.headersWait = setTimeout(
          () => this.fail('the response ended before its headers were seen'),
          HEADERS_WAIT_MS,
        );
      }
      return;
    }
    clearTimeout(this.headersWait ?? undefined);
    const { bytes, truncated } = joinChunks(this.chunks, this.copied);
    const outcome = outcomeOfCopy(
      {
        status: this.status,
        headers: this.headers,
        statusLine: this.statusLine,
        requestHeaders: this.requestHeaders(),
        ipAddress: this.ipAddress,
        serverMs: this.serverMs,
        body: this.limit === 0 ? null : bytes,
        truncated: this.truncated || truncated,
        startedAt: this.startedAt,
        endedAt: Date.now() + 1,
      },
      this.request.url,
    );
    this.end(outcome);
    this.closeFilter();
  }

  private end(outcome: FetchOutcome): void {
    this.done = true;
    clearTimeout(this.headersWait ?? undefined);
    clearTimeout(this.timer);
    this.request.signal?.removeEventListener('abort', this.onAbort);
    this.settle(outcome);
  }

  private closeFilter(): void {
    const filter = this.filter;
    if (filter === null || !this.started) return;
    this.filter = null;
    try {
      if (this.ending === 'close') filter.close();
      else filter.disconnect();
    } catch {
      // The request is gone already.
    }
  }
}

/**
 * Every request of one Firefox render tab, held in a blocking `webRequest.onBeforeRequest` until the crawl
 * answers it (`job.serve`), then cancelled, or let go to the server as the crawl's own request: on the host's
 * turn (`go`), or as the crawl's fetch of that URL (`tab-request-fetcher.ts`, whose copy is {@link ResponseCopy}).
 * Firefox lets a request go when a blocking listener throws or its Promise rejects, so every answer here is
 * made from caught code and a failure cancels. docs/rendering-firefox.md, "The renderer".
 */
import browser, { type WebRequest } from 'webextension-polyfill';
import type { FetchOutcome, FetchRequest, PageRequest, RenderJob, Served, TurnEnd } from '../../../core/crawl/ports.ts';
import {
  isTabIconRequest,
  outsideRequestAction,
  pageRequestTypeOf,
  requestHeadersForTab,
  responseHeadersForTab,
  storedHeadersOf,
  withoutFragment,
} from './firefox-request-rules.ts';
import { MAX_NAVIGATIONS } from './page-guards.ts';
import { ResponseCopy } from './response-copy.ts';
import type { HeldRequests } from './tab-request-fetcher.ts';

/** How many times `serve` is asked about one request answered `response` it did not release (a race), before it is cancelled. */
const MAX_SERVES = 3;

type Answer = WebRequest.BlockingResponse;

/** One request of the tab, from its `onBeforeRequest` to its end (a redirect's target is a new one). */
interface Tracked {
  requestId: string;
  url: string;
  firefoxType: string;
  /** Answered (let go or cancelled): a later answer does nothing. */
  answered: boolean;
  /** Its response ended, failed or was given up: it no longer keeps the network busy. */
  over: boolean;
  resolve: (answer: Answer) => void;
  withdraw: () => void;
  /** `go`'s callback, called once when the response is over: `answered` by its end or failure, else `cut`. */
  ended: ((how: TurnEnd, serverMs: number | null) => Promise<void>) | null;
  /** `timeStamp` of its `onSendHeaders` (ms since the epoch, the browser's network clock), null before. */
  sentAt: number | null;
  /** The server's time to answer: from `sentAt` to its `onHeadersReceived`'s `timeStamp`; null until then. */
  serverMs: number | null;
  copy: ResponseCopy | null;
  requestHeaders: [string, string][] | null;
}

/** What the tab's requests tell the render. */
export interface TabEvents {
  /** A request was held, answered or ended: the network is not quiet. */
  activity(): void;
  /** The render cannot go on (its document refused or failed). */
  fail(message: string): void;
}

const ALL_URLS: WebRequest.RequestFilter = { urls: ['<all_urls>'] };

export class FirefoxTabRequests {
  /** The tab's requests whose response is not over, by Firefox's request id. */
  private readonly live = new Map<string, Tracked>();
  /** Tabs the render tab opened: closed, their requests cancelled. */
  private readonly opened = new Set<number>();
  /** The page's document was answered with a page (not a redirect): later main-frame requests are navigations. */
  hasDocument = false;
  readonly navigations: string[] = [];
  requests = 0;
  private ended = false;
  /** The host's turn taken for the page's document before the tab asked for it ({@link takeDocumentTurn}), until its request uses it. */
  private documentTurn: { ended: (how: TurnEnd, serverMs: number | null) => Promise<void> } | null = null;
  private readonly jobUrl: string;
  private readonly pageOrigin: string;

  constructor(
    private readonly tabId: number,
    private readonly job: RenderJob,
    private readonly held: HeldRequests,
    private readonly userAgent: string,
    private readonly events: TabEvents,
  ) {
    this.jobUrl = withoutFragment(job.url);
    this.pageOrigin = new URL(job.url).origin;
  }

  /** Requests held or under way. */
  get busy(): number {
    let count = 0;
    for (const tracked of this.live.values()) if (!tracked.over) count += 1;
    return count;
  }

  /** Adds the listeners (before the tab loads anything). */
  listen(): void {
    browser.webRequest.onBeforeRequest.addListener(this.onBeforeRequest, ALL_URLS, ['blocking']);
    browser.webRequest.onBeforeSendHeaders.addListener(this.onBeforeSendHeaders, ALL_URLS, [
      'blocking',
      'requestHeaders',
    ]);
    browser.webRequest.onSendHeaders.addListener(this.onSendHeaders, ALL_URLS);
    browser.webRequest.onHeadersReceived.addListener(this.onHeadersReceived, ALL_URLS, ['blocking', 'responseHeaders']);
    browser.webRequest.onResponseStarted.addListener(this.onResponseStarted, ALL_URLS);
    browser.webRequest.onBeforeRedirect.addListener(this.onOver, ALL_URLS);
    browser.webRequest.onCompleted.addListener(this.onOver, ALL_URLS);
    browser.webRequest.onErrorOccurred.addListener(this.onError, ALL_URLS);
    browser.tabs.onCreated.addListener(this.onTabCreated);
  }

  /**
   * Takes the host's turn for the page's document before the tab is sent to it, so that the document's
   * request is let go as soon as Firefox reports it, never held in `onBeforeRequest` for its turn. A main
   * frame held there keeps Firefox from sending the crawl's own fetches that start meanwhile (measured under
   * load: a fetch of the crawl's that began while a render's document waited for its host reached the server
   * only when the render's cap ended the wait, 15 s later; the fetch held the host, the document waited for
   * it, and the render ended `no document within 15000 ms`). docs/rendering-firefox.md, "The document's turn".
   * @returns why the crawl refused the document, or null (the turn is taken, or the crawl answered otherwise:
   *   then the document's request is asked about when it comes, as any other).
   */
  async takeDocumentTurn(): Promise<string | null> {
    const request: PageRequest = { url: this.jobUrl, method: 'GET', type: 'document', navigation: false };
    const served = await this.job.serve(request).catch((): Served => ({ kind: 'refused', because: 'failed' }));
    if (served.kind === 'refused') return `the crawl refused the page's document (${served.because})`;
    if (served.kind === 'go') {
      if (this.ended) await served.ended('cut');
      else this.documentTurn = { ended: once(served.ended) };
    }
    return null;
  }

  /** Cancels what is held, ends what is under way (its `ended` called), stops answering. Safe to call twice. */
  end(): void {
    this.ended = true;
    const documentTurn = this.documentTurn;
    this.documentTurn = null;
    void documentTurn?.ended('cut', null).catch(() => undefined);
    for (const tracked of this.live.values()) {
      this.answer(tracked, { cancel: true });
      tracked.copy?.fail('NS_ERROR_ABORT');
      this.over(tracked, 'cut');
    }
    this.live.clear();
  }

  /** Removes the listeners (after the tab is closed, so that nothing of it went out meanwhile). */
  unlisten(): void {
    browser.webRequest.onBeforeRequest.removeListener(this.onBeforeRequest);
    browser.webRequest.onBeforeSendHeaders.removeListener(this.onBeforeSendHeaders);
    browser.webRequest.onSendHeaders.removeListener(this.onSendHeaders);
    browser.webRequest.onHeadersReceived.removeListener(this.onHeadersReceived);
    browser.webRequest.onResponseStarted.removeListener(this.onResponseStarted);
    browser.webRequest.onBeforeRedirect.removeListener(this.onOver);
    browser.webRequest.onCompleted.removeListener(this.onOver);
    browser.webRequest.onErrorOccurred.removeListener(this.onError);
    browser.tabs.onCreated.removeListener(this.onTabCreated);
  }

  private readonly onBeforeRequest = (details: WebRequest.OnBeforeRequestDetailsType): Answer | Promise<Answer> => {
    try {
      if (details.tabId !== this.tabId) {
        return outsideRequestAction(details, this.pageOrigin, this.opened) === 'cancel' ? { cancel: true } : {};
      }
      if (this.ended) return { cancel: true };
      if (details.type === 'main_frame' && this.hasDocument) return this.navigation(details);
      if (isTabIconRequest(details.type, details.url)) return { cancel: true };
      const tracked: Tracked = {
        requestId: details.requestId,
        url: withoutFragment(details.url),
        firefoxType: details.type,
        answered: false,
        over: false,
        resolve: () => undefined,
        withdraw: () => undefined,
        ended: null,
        copy: null,
        requestHeaders: null,
        sentAt: null,
        serverMs: null,
      };
      const answer = new Promise<Answer>((resolve) => {
        tracked.resolve = resolve;
      });
      // A redirect's target comes with the request id of its source, whose response is over.
      const before = this.live.get(details.requestId);
      if (before !== undefined) this.over(before, 'answered');
      this.live.set(details.requestId, tracked);
      this.events.activity();
      this.decide(tracked, details.method).catch(() => this.cancel(tracked));
      return answer;
    } catch {
      return { cancel: true };
    }
  };

  /**
   * The main frame asking to go elsewhere, once the page has its document: cancelled at once, not held. A
   * navigation Firefox holds makes it abort every load of the page under way (measured: `NS_BINDING_ABORTED`
   * on the page's fetches while a link's navigation was held). The crawl is told (it records the link); a
   * reload of the page itself is not sent anywhere, as in Chrome.
   */
  private navigation(details: WebRequest.OnBeforeRequestDetailsType): Answer {
    const url = withoutFragment(details.url);
    if (url === this.jobUrl) return { cancel: true };
    if (this.navigations.length < MAX_NAVIGATIONS && !this.navigations.includes(url)) this.navigations.push(url);
    this.requests += 1;
    const request: PageRequest = { url, method: details.method.toUpperCase(), type: 'document', navigation: true };
    void this.job.serve(request).then(
      (served) => (served.kind === 'go' ? served.ended('cut') : undefined),
      () => undefined,
    );
    this.events.activity();
    return { cancel: true };
  }

  /** Asks the crawl about one held request (not a navigation) and answers it. */
  private async decide(tracked: Tracked, method: string): Promise<void> {
    const isMain = tracked.firefoxType === 'main_frame';
    const request: PageRequest = {
      url: tracked.url,
      method: method.toUpperCase(),
      type: pageRequestTypeOf(tracked.firefoxType),
      navigation: false,
    };
    this.requests += 1;
    const documentTurn = isMain && !this.hasDocument && request.method === 'GET' ? this.documentTurn : null;
    if (documentTurn !== null) {
      // The turn was taken before the tab asked (see takeDocumentTurn): the document goes now.
      this.documentTurn = null;
      tracked.ended = documentTurn.ended;
      this.answer(tracked, {});
      return;
    }
    if (request.method === 'GET') {
      tracked.withdraw = this.held.offer(tracked.url, { release: (fetch) => this.release(tracked, fetch) });
    }
    for (let serves = 0; serves < MAX_SERVES; serves += 1) {
      const served = await this.job.serve(request).catch((): Served => ({ kind: 'refused', because: 'failed' }));
      if (tracked.answered || tracked.over) {
        // Released as the crawl's fetch (the answer is then `response`), or the render ended; or the request
        // was over while the crawl decided (the page dropped it: Firefox reported its error, which ended no
        // turn then). A turn given now ends at once: else it held its host, every step and render request
        // waiting, until the render's end (measured: 7 to 10 s with nothing sent to the shop, in
        // firefox-rendered-restart.test.ts under load).
        this.answer(tracked, { cancel: true });
        if (served.kind === 'go') await served.ended('cut');
        return;
      }
      if (served.kind === 'refused') {
        if (isMain && !this.hasDocument) this.events.fail(`the crawl refused the page's document (${served.because})`);
        this.cancel(tracked);
        return;
      }
      if (served.kind === 'go') {
        tracked.ended = once(served.ended);
        this.answer(tracked, {});
        return;
      }
      // `response` for a request not released: the crawl fetched the URL itself. Asked again, it now answers `go`.
    }
    this.cancel(tracked);
  }

  /** Lets the held request go as the crawl's fetch of its URL; null when it was answered meanwhile. */
  private async release(tracked: Tracked, request: FetchRequest): Promise<FetchOutcome | null> {
    if (tracked.answered || tracked.over || this.ended) return null;
    let copy: ResponseCopy;
    try {
      copy = new ResponseCopy(tracked.requestId, request, () => tracked.requestHeaders);
    } catch {
      return null;
    }
    tracked.copy = copy;
    this.answer(tracked, {});
    return copy.outcome;
  }

  private answer(tracked: Tracked, answer: Answer): void {
    if (tracked.answered) return;
    tracked.answered = true;
    tracked.withdraw();
    tracked.resolve(answer);
    this.events.activity();
  }

  private cancel(tracked: Tracked): void {
    this.answer(tracked, { cancel: true });
    this.over(tracked, 'cut');
  }

  /** The request's response is over (`answered`: by its end or its failure; `cut`: cancelled, or the render ended): the host's next turn counts from now. */
  private over(tracked: Tracked, how: TurnEnd): void {
    if (tracked.over) return;
    tracked.over = true;
    // No longer offered to the crawl's fetches: a step that took a request already over would wait on a copy
    // that never comes, until its timeout, and record the URL failed.
    tracked.withdraw();
    if (this.live.get(tracked.requestId) === tracked) this.live.delete(tracked.requestId);
    void tracked.ended?.(how, tracked.serverMs).catch(() => undefined);
    this.events.activity();
  }

  private tracked(details: { tabId: number; requestId: string }): Tracked | undefined {
    return details.tabId === this.tabId ? this.live.get(details.requestId) : undefined;
  }

  private readonly onBeforeSendHeaders = (details: WebRequest.OnBeforeSendHeadersDetailsType): Answer => {
    try {
      if (details.tabId !== this.tabId) return {};
      const headers = requestHeadersForTab(details.requestHeaders ?? [], this.userAgent);
      const tracked = this.tracked(details);
      if (tracked !== undefined) tracked.requestHeaders = storedHeadersOf(headers);
      return { requestHeaders: headers };
    } catch {
      return { cancel: true };
    }
  };

  /** When the request went to the server, on the browser's network clock (not blocking: nothing to answer). */
  private readonly onSendHeaders = (details: WebRequest.OnSendHeadersDetailsType): void => {
    const tracked = this.tracked(details);
    if (tracked !== undefined) tracked.sentAt = details.timeStamp;
  };

  private readonly onHeadersReceived = (details: WebRequest.OnHeadersReceivedDetailsType): Answer => {
    try {
      if (details.tabId !== this.tabId) return {};
      const served = details.responseHeaders ?? [];
      const tracked = this.tracked(details);
      // The server's time, on the browser's clock: it leaves out how long this listener took to be called.
      if (tracked !== undefined && tracked.sentAt !== null)
        tracked.serverMs = Math.max(0, details.timeStamp - tracked.sentAt);
      tracked?.copy?.headersReceived(
        details.statusCode,
        storedHeadersOf(served),
        details.statusLine ?? null,
        tracked.serverMs,
      );
      const isRedirect = details.statusCode >= 300 && details.statusCode < 400;
      if (details.type === 'main_frame' && !isRedirect) this.hasDocument = true;
      return { responseHeaders: responseHeadersForTab(served, details.type) };
    } catch {
      return { cancel: true };
    }
  };

  private readonly onResponseStarted = (details: WebRequest.OnResponseStartedDetailsType): void => {
    this.tracked(details)?.copy?.ipReported(details.ip);
  };

  private readonly onOver = (
    details: WebRequest.OnCompletedDetailsType | WebRequest.OnBeforeRedirectDetailsType,
  ): void => {
    const tracked = this.tracked(details);
    if (tracked === undefined) return;
    if ('redirectUrl' in details) tracked.copy?.redirected();
    this.over(tracked, 'answered');
  };

  private readonly onError = (details: WebRequest.OnErrorOccurredDetailsType): void => {
    const tracked = this.tracked(details);
    if (tracked === undefined) return;
    tracked.copy?.fail(details.error);
    if (details.type === 'main_frame' && !this.hasDocument && tracked.answered && tracked.ended !== null) {
      this.events.fail(`the page's document failed: ${details.error}`);
    }
    this.over(tracked, 'answered');
  };

  private readonly onTabCreated = (tab: browser.Tabs.Tab): void => {
    if (tab.openerTabId !== this.tabId || tab.id === undefined) return;
    this.opened.add(tab.id);
    void browser.tabs.remove(tab.id).catch(() => undefined);
  };
}

/** `fn`, called at most once (later calls answer the first call's promise). */
function once(
  fn: (how: TurnEnd, serverMs: number | null) => Promise<void>,
): (how: TurnEnd, serverMs: number | null) => Promise<void> {
  let called: Promise<void> | null = null;
  return (how, serverMs) => (called ??= fn(how, serverMs));
}

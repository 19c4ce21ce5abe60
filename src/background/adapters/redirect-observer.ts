/**
 * Chrome-only: what `fetch` hides about redirects. With `redirect: 'manual'`
 * a 3xx comes back as an opaque response (status 0, no headers), so the
 * status and `Location` of the hop are read from `webRequest`, which sees
 * the extension's own requests (tabId -1, initiator = the extension).
 */

export interface ObservedResponse {
  statusCode: number;
  /** Lower-cased header names, in the order received. */
  headers: [string, string][];
}

const keyOf = (method: string, url: string): string => `${method.toUpperCase()} ${url}`;

export class RedirectObserver {
  private readonly seen = new Map<string, ObservedResponse>();
  private readonly waiting = new Map<string, (response: ObservedResponse) => void>();

  /** Registers the listener. Call once, synchronously, at the worker's top level. */
  register(): void {
    const extensionOrigin = new URL(chrome.runtime.getURL('')).origin;
    chrome.webRequest.onHeadersReceived.addListener(
      (details) => {
        if (details.tabId !== -1 || details.initiator !== extensionOrigin) return undefined;
        if (details.statusCode < 300 || details.statusCode >= 400) return undefined;
        const headers = (details.responseHeaders ?? []).map((h): [string, string] => [h.name.toLowerCase(), h.value ?? '']);
        const response: ObservedResponse = { statusCode: details.statusCode, headers };
        const key = keyOf(details.method, details.url);
        const resolve = this.waiting.get(key);
        if (resolve) {
          this.waiting.delete(key);
          resolve(response);
        } else {
          this.seen.set(key, response);
          // Bounded: entries nobody asks for (e.g. another extension page's request) must not pile up.
          if (this.seen.size > 1000) this.seen.delete(this.seen.keys().next().value ?? '');
        }
        return undefined;
      },
      { urls: ['http://*/*', 'https://*/*'], types: ['xmlhttprequest', 'other'] },
      ['responseHeaders', 'extraHeaders'],
    );
  }

  /**
   * The redirect answer seen for this request, waiting up to `timeoutMs` for
   * the event (it may arrive just after `fetch` resolves). Undefined when none came.
   */
  take(method: string, url: string, timeoutMs = 2000): Promise<ObservedResponse | undefined> {
    const key = keyOf(method, url);
    const seen = this.seen.get(key);
    if (seen) {
      this.seen.delete(key);
      return Promise.resolve(seen);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(key);
        resolve(undefined);
      }, timeoutMs);
      this.waiting.set(key, (response) => {
        clearTimeout(timer);
        resolve(response);
      });
    });
  }
}

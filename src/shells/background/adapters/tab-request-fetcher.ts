/**
 * Where a render tab's held request becomes the crawl's own request (Firefox, whose renderer answers through
 * the network: `Renderer.answers` is `network`). The Firefox renderer offers each GET of its tab it holds
 * while the crawl's `serve` decides ({@link HeldRequests.offer}); when the crawl's step for that URL fetches it
 * on its host's turn, {@link withTabRequests} lets the held request go instead of fetching, and returns the
 * response the tab received, as copied on its way. So one request reaches the server, made by the tab.
 */
import type { FetchOutcome, FetchRequest, Fetcher } from '../../../core/crawl/ports.ts';
import { normalizeUrl } from '../../../core/url/normalize-url.ts';

/** A request a render tab holds that the crawl may make its own. */
export interface HeldRequest {
  /**
   * Lets the request go, copies its response as `request` asks (its body limit, timeout and signal), and
   * resolves with it; null when it can no longer be let go (the render ended, `serve` answered it meanwhile):
   * then the crawl fetches the URL itself.
   */
  release(request: FetchRequest): Promise<FetchOutcome | null>;
}

/** The key of a URL on both sides: the crawl fetches normalized URLs, the tab asks for them as written. */
export function heldKeyOf(url: string): string {
  return normalizeUrl(url) ?? url;
}

/** The held requests of every render tab, by URL, oldest first. */
export class HeldRequests {
  private readonly byUrl = new Map<string, HeldRequest[]>();

  /**
   * Offers a held request of `url` to the crawl's fetches.
   * @returns a function that withdraws it (when `serve` answered it, or the render ended); safe to call twice.
   */
  offer(url: string, held: HeldRequest): () => void {
    const key = heldKeyOf(url);
    const list = this.byUrl.get(key) ?? [];
    list.push(held);
    this.byUrl.set(key, list);
    return () => {
      const current = this.byUrl.get(key);
      if (current === undefined) return;
      const index = current.indexOf(held);
      if (index !== -1) current.splice(index, 1);
      if (current.length === 0) this.byUrl.delete(key);
    };
  }

  /** Takes (withdraws) the oldest request held for `url`, if any. */
  take(url: string): HeldRequest | undefined {
    const key = heldKeyOf(url);
    const list = this.byUrl.get(key);
    const held = list?.shift();
    if (list !== undefined && list.length === 0) this.byUrl.delete(key);
    return held;
  }

  /** How many requests are offered (for tests). */
  get size(): number {
    let size = 0;
    for (const list of this.byUrl.values()) size += list.length;
    return size;
  }
}

/**
 * The crawl's fetcher, with a GET of a URL a render tab holds answered by letting the tab's request go
 * (see the module's comment); every other request goes to `inner`. A credentialed crawl (`withCookies`)
 * gets the tab's request too: the tab sends no cookies, as a rendered page never does.
 */
export function withTabRequests(inner: Fetcher, held: HeldRequests): Fetcher {
  return {
    async fetch(request: FetchRequest): Promise<FetchOutcome> {
      if (request.method === 'GET' && request.signal?.aborted !== true) {
        for (let tab = held.take(request.url); tab !== undefined; tab = held.take(request.url)) {
          const outcome = await tab.release(request);
          if (outcome !== null) return outcome;
        }
      }
      return inner.fetch(request);
    },
  };
}

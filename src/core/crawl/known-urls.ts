/**
 * URLs a running crawl is known to hold, remembered by the runner so that a
 * link to one of them costs no storage lookup. Exact, because a crawl only
 * ever gains URLs (an entry becomes a row; nothing is removed but the whole
 * crawl, and the entries of a host found on the user's network, which are
 * forgotten here as they go: `network-guard.ts`), and safe to forget: a URL not remembered is looked up. Bounded, so
 * the worker's memory stays flat however large the crawl: the URLs used least
 * recently are forgotten first (the pages every page links to stay).
 *
 * Only remember URLs of a transaction that committed, or drop the cache with
 * the run when one fails (the runner keeps one per run).
 */
export class KnownUrls {
  private readonly urls = new Map<string, true>();

  /** @param capacity most URLs remembered. */
  constructor(readonly capacity = 4096) {}

  get size(): number {
    return this.urls.size;
  }

  /** Whether the URL is remembered; a hit becomes the most recently used. */
  has(url: string): boolean {
    if (!this.urls.has(url)) return false;
    this.urls.delete(url);
    this.urls.set(url, true);
    return true;
  }

  /** Forgets the URL (the crawl no longer holds it). */
  forget(url: string): void {
    this.urls.delete(url);
  }

  add(url: string): void {
    this.urls.delete(url);
    this.urls.set(url, true);
    if (this.urls.size > this.capacity) {
      // Forget the least recently used eighth at once (a Map iterates in insertion order).
      let drop = Math.ceil(this.capacity / 8);
      for (const oldest of this.urls.keys()) {
        if (drop-- <= 0) break;
        this.urls.delete(oldest);
      }
    }
  }
}

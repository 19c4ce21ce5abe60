/**
 * Waits for rows of a running crawl to be recorded: a rendered page's request waits here until the crawl
 * has fetched its URL on its host's turn (or recorded it as blocked). The commit queue tells which rows each
 * transaction wrote ({@link RowWaiters.written}); nothing is polled.
 */

/** The waits of one run, by URL. */
export class RowWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();

  /**
   * Resolves when a row for `url` is written (true), or when `signal` aborts (false). The caller reads the
   * row itself: register before reading it, so that a row written between the read and the wait is not missed.
   */
  wait(url: string, signal: AbortSignal): { written: Promise<boolean>; cancel: () => void } {
    let wake: (written: boolean) => void = () => undefined;
    const written = new Promise<boolean>((resolve) => (wake = resolve));
    const onWrite = (): void => done(true);
    const onAbort = (): void => done(false);
    const done = (value: boolean): void => {
      const set = this.waiting.get(url);
      set?.delete(onWrite);
      if (set?.size === 0) this.waiting.delete(url);
      signal.removeEventListener('abort', onAbort);
      wake(value);
    };
    let set = this.waiting.get(url);
    if (set === undefined) this.waiting.set(url, (set = new Set()));
    set.add(onWrite);
    if (signal.aborted) done(false);
    else signal.addEventListener('abort', onAbort, { once: true });
    return { written, cancel: () => done(false) };
  }

  /** Rows for these URLs were written (a transaction committed). */
  written(urls: Iterable<string>): void {
    if (this.waiting.size === 0) return;
    for (const url of urls) {
      const set = this.waiting.get(url);
      if (set !== undefined) for (const wake of [...set]) wake();
    }
  }

  /** How many URLs are waited for. */
  get size(): number {
    return this.waiting.size;
  }
}

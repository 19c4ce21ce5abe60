/**
 * The crawl the popup shows: its summary, its latest rows, and the polling
 * that keeps them fresh while it runs.
 *
 * ```
 * none ──show(crawl)──► shown ──(state running)──► polling every pollMs
 *                         ▲                            │
 *                         └──(state not running, stop, └─ crawl/get + pages/latest,
 *                             show, unmount)              one at a time
 * ```
 *
 * Every request carries the generation it was made in; `show`, `stop` and
 * unmounting start a new one, so an answer that arrives late never
 * overwrites a newer view.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Send } from '../messaging/client.ts';
import type { CrawlSummary, PageSummary } from '../messaging/protocol.ts';
import { TabcrawlError } from '../messaging/protocol.ts';
import { LATEST_PAGES_LIMIT } from './deps.ts';
import { describeError } from './format.ts';

export interface CrawlView {
  /** The crawl shown, or null before one is known. */
  crawl: CrawlSummary | null;
  /** Its newest rows, newest first. */
  pages: PageSummary[];
  /** Why the last load, refresh or stop failed; null after a success. */
  error: string | null;
  /** A `crawl/stop` is in flight. */
  isStopping: boolean;
  /** Shows this crawl (or none) and loads its latest rows. */
  show: (crawl: CrawlSummary | null) => Promise<void>;
  /** Stops the crawl shown. */
  stop: () => Promise<void>;
}

export function useCrawl(send: Send, pollMs: number): CrawlView {
  const [crawl, setCrawl] = useState<CrawlSummary | null>(null);
  const [pages, setPages] = useState<PageSummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [isStopping, setStopping] = useState(false);
  /** Bumped by every change of what is shown; -1 once unmounted. */
  const generation = useRef(0);

  useEffect(
    () => () => {
      generation.current = -1;
    },
    [],
  );

  const loadPages = useCallback(
    async (crawlId: string, gen: number): Promise<void> => {
      try {
        const reply = await send('pages/latest', { crawlId, limit: LATEST_PAGES_LIMIT });
        if (generation.current !== gen) return;
        setPages(reply.pages);
        setError(null);
      } catch (err) {
        if (generation.current === gen) setError(describeError(err));
      }
    },
    [send],
  );

  const show = useCallback(
    async (next: CrawlSummary | null): Promise<void> => {
      const gen = ++generation.current;
      setCrawl(next);
      setPages([]);
      setError(null);
      if (next !== null) await loadPages(next.id, gen);
    },
    [loadPages],
  );

  const crawlId = crawl?.id ?? null;
  const isRunning = crawl?.state === 'running';

  const stop = useCallback(async (): Promise<void> => {
    if (crawlId === null) return;
    const gen = ++generation.current;
    setStopping(true);
    try {
      const reply = await send('crawl/stop', { crawlId });
      if (generation.current !== gen) return;
      setCrawl(reply.crawl);
      setError(null);
      await loadPages(crawlId, gen);
    } catch (err) {
      if (generation.current === gen) setError(describeError(err));
    } finally {
      if (generation.current !== -1) setStopping(false);
    }
  }, [crawlId, send, loadPages]);

  // Polling: a chain of timeouts, so a slow answer delays the next refresh instead of overlapping it.
  useEffect(() => {
    if (crawlId === null || !isRunning) return undefined;
    let isCancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const refresh = async (): Promise<void> => {
      const gen = generation.current;
      try {
        const [got, latest] = await Promise.all([
          send('crawl/get', { crawlId }),
          send('pages/latest', { crawlId, limit: LATEST_PAGES_LIMIT }),
        ]);
        if (isCancelled || generation.current !== gen) return;
        setCrawl(got.crawl);
        setPages(latest.pages);
        setError(null);
      } catch (err) {
        if (isCancelled || generation.current !== gen) return;
        if (err instanceof TabcrawlError && err.code === 'not-found') {
          // Deleted elsewhere: nothing left to show or to poll.
          generation.current += 1;
          setCrawl(null);
          setPages([]);
        }
        setError(describeError(err));
      }
      if (!isCancelled) timer = setTimeout(() => void refresh(), pollMs);
    };

    timer = setTimeout(() => void refresh(), pollMs);
    return () => {
      isCancelled = true;
      clearTimeout(timer);
    };
  }, [crawlId, isRunning, send, pollMs]);

  return { crawl, pages, error, isStopping, show, stop };
}

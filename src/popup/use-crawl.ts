/**
 * The crawl the popup shows: its summary, its latest rows, its hosts with URLs
 * left, kept fresh by the background's `crawl/changed` events (the push
 * channel), or, without an event source (tests), by polling while it runs.
 * Pause, resume and stop go through here too.
 *
 * ```
 * none ──show(crawl)──► shown ──(crawl/changed of it)──► refresh: crawl/get + pages/latest
 *                         ▲                                + crawl/hosts; a change during a
 *                         └──(action, show, unmount)         refresh asks for one more after it
 * ```
 *
 * Every request carries the generation it was made in; `show`, the actions and
 * unmounting start a new one, so an answer that arrives late never
 * overwrites a newer view.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Send } from '../messaging/client.ts';
import type { CrawlSummary, HostProgress, OnEvent, PageSummary } from '../messaging/protocol.ts';
import { TabcrawlError } from '../messaging/protocol.ts';
import { LATEST_PAGES_LIMIT } from './deps.ts';
import { errorSentence } from './crawl-text.ts';

/** What the user can do to the crawl shown; each is one request of the same name. */
export type CrawlAction = 'pause' | 'resume' | 'stop';

/** Whether the hosts of a crawl are worth asking for: it may still have URLs queued. */
function hasHostsToShow(crawl: CrawlSummary): boolean {
  return crawl.state === 'running' || crawl.state === 'paused' || (crawl.state === 'stopped' && crawl.queued > 0);
}

export interface CrawlView {
  /** The crawl shown, or null before one is known. */
  crawl: CrawlSummary | null;
  /** Its newest rows, newest first. */
  pages: PageSummary[];
  /** Why the last load, refresh or stop failed; null after a success. */
  error: string | null;
  /** Its hosts with URLs left (most pending first); empty when unknown or none. */
  hosts: HostProgress[];
  /** When `crawl` was read, ms since the epoch (its `activeMs` is as of then). */
  readAt: number;
  /** The action whose request is in flight, or null. */
  pendingAction: CrawlAction | null;
  /** A `crawl/stop` is in flight. */
  isStopping: boolean;
  /** Shows this crawl (or none) and loads its latest rows. */
  show: (crawl: CrawlSummary | null) => Promise<void>;
  /** Stops the crawl shown. */
  stop: () => Promise<void>;
  /** Sends `crawl/<action>` for the crawl shown and shows its answer. */
  perform: (action: CrawlAction) => Promise<void>;
}

/**
 * @param pollMs pause between two refreshes of a running crawl when there is no `onEvent`, in ms.
 * @param onEvent the push channel; when given, the crawl is refreshed on its events and never polled.
 * @param now the clock `readAt` is read from. @default Date.now
 */
export function useCrawl(send: Send, pollMs: number, onEvent?: OnEvent, now: () => number = Date.now): CrawlView {
  const [crawl, setCrawlState] = useState<CrawlSummary | null>(null);
  const [readAt, setReadAt] = useState(0);
  const setCrawl = useCallback(
    (next: CrawlSummary | null): void => {
      setCrawlState(next);
      setReadAt(now());
    },
    [now],
  );
  const [pages, setPages] = useState<PageSummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [hosts, setHosts] = useState<HostProgress[]>([]);
  const [pendingAction, setPendingAction] = useState<CrawlAction | null>(null);
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
        if (generation.current === gen) setError(errorSentence(err));
      }
    },
    [send],
  );

  /** Host details are extra: when they cannot be had, the popup shows none and no error. */
  const loadHosts = useCallback(
    async (next: CrawlSummary, gen: number): Promise<void> => {
      if (!hasHostsToShow(next)) {
        setHosts([]);
        return;
      }
      try {
        const reply = await send('crawl/hosts', { crawlId: next.id });
        if (generation.current === gen) setHosts(reply.hosts);
      } catch {
        if (generation.current === gen) setHosts([]);
      }
    },
    [send],
  );

  const show = useCallback(
    async (next: CrawlSummary | null): Promise<void> => {
      const gen = ++generation.current;
      setCrawl(next);
      setPages([]);
      setHosts([]);
      setError(null);
      if (next !== null) await Promise.all([loadPages(next.id, gen), loadHosts(next, gen)]);
    },
    [loadPages, loadHosts, setCrawl],
  );

  const crawlId = crawl?.id ?? null;
  const isRunning = crawl?.state === 'running';

  const perform = useCallback(
    async (action: CrawlAction): Promise<void> => {
      if (crawlId === null) return;
      const gen = ++generation.current;
      setPendingAction(action);
      try {
        const reply = await send(`crawl/${action}`, { crawlId });
        if (generation.current !== gen) return;
        setCrawl(reply.crawl);
        setError(null);
        await Promise.all([loadPages(crawlId, gen), loadHosts(reply.crawl, gen)]);
      } catch (err) {
        if (generation.current === gen) setError(errorSentence(err));
      } finally {
        if (generation.current !== -1) setPendingAction(null);
      }
    },
    [crawlId, send, loadPages, loadHosts, setCrawl],
  );

  const stop = useCallback(() => perform('stop'), [perform]);

  // Live updates: on each event of the shown crawl (or, without events, a chain of timeouts while it
  // runs), one refresh at a time; a change that comes during a refresh asks for one more after it.
  useEffect(() => {
    if (crawlId === null) return undefined;
    if (onEvent === undefined && !isRunning) return undefined;
    let isCancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let isRefreshing = false;
    let isStale = false;

    const refresh = async (): Promise<void> => {
      if (isRefreshing) {
        isStale = true;
        return;
      }
      isRefreshing = true;
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
        await loadHosts(got.crawl, gen);
      } catch (err) {
        if (isCancelled || generation.current !== gen) return;
        if (err instanceof TabcrawlError && err.code === 'not-found') {
          // Deleted elsewhere: nothing left to show or to poll.
          generation.current += 1;
          setCrawl(null);
          setPages([]);
        }
        setError(errorSentence(err));
      }
      isRefreshing = false;
      if (isCancelled) return;
      if (isStale) {
        isStale = false;
        void refresh();
      } else if (onEvent === undefined) {
        timer = setTimeout(() => void refresh(), pollMs);
      }
    };

    if (onEvent === undefined) {
      timer = setTimeout(() => void refresh(), pollMs);
      return () => {
        isCancelled = true;
        clearTimeout(timer);
      };
    }
    const stopListening = onEvent('crawl/changed', (event) => {
      if (event.crawlId === crawlId) void refresh();
    });
    return () => {
      isCancelled = true;
      stopListening();
    };
  }, [crawlId, isRunning, send, pollMs, loadHosts, onEvent, setCrawl]);

  return {
    crawl,
    pages,
    error,
    hosts,
    readAt,
    pendingAction,
    isStopping: pendingAction === 'stop',
    show,
    stop,
    perform,
  };
}

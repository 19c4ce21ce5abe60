/**
 * A Start the background refused because another crawl (running or paused)
 * may request the same site, and the following of that crawl: once it is
 * over (or deleted) the refusal no longer holds and goes: a banner never outlives its cause.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Send } from '../messaging/client.ts';
import { TabcrawlError, type CrawlSummary, type OnEvent } from '../messaging/protocol.ts';

/** A Start refused because another crawl is in the way. */
export interface StartRefusal {
  /** The background's words, naming the site and the crawl in the way. */
  message: string;
  /** The id of the crawl in the way. */
  crawlId: string;
  /** That crawl as last read; null until read. */
  crawl: CrawlSummary | null;
}

/**
 * The refusal of the last Start, if one holds, and its setter. While one holds, the crawl in the way
 * is read again on each of its events (or every `pollMs` without the push channel); the refusal is
 * cleared once that crawl is neither running nor paused, or is gone.
 * @param pollMs pause between two reads of the crawl in the way when there is no `onEvent`, in ms.
 */
export function useStartRefusal(
  send: Send,
  pollMs: number,
  onEvent?: OnEvent,
): [StartRefusal | null, (refusal: StartRefusal | null) => void] {
  const [refusal, setRefusal] = useState<StartRefusal | null>(null);
  const refusedBy = refusal?.crawlId ?? null;
  useEffect(() => {
    if (refusedBy === null) return undefined;
    let isCancelled = false;
    const check = async (): Promise<void> => {
      let blocker: CrawlSummary | null;
      try {
        blocker = (await send('crawl/get', { crawlId: refusedBy })).crawl;
      } catch (err) {
        if (!(err instanceof TabcrawlError && err.code === 'not-found')) return;
        blocker = null;
      }
      if (isCancelled) return;
      const isInTheWay = blocker !== null && (blocker.state === 'running' || blocker.state === 'paused');
      setRefusal((current) =>
        current?.crawlId !== refusedBy ? current : isInTheWay ? { ...current, crawl: blocker } : null,
      );
    };
    void check();
    if (onEvent === undefined) {
      const timer = setInterval(() => void check(), pollMs);
      return () => {
        isCancelled = true;
        clearInterval(timer);
      };
    }
    const stopListening = onEvent('crawl/changed', (event) => {
      if (event.crawlId === refusedBy) void check();
    });
    return () => {
      isCancelled = true;
      stopListening();
    };
  }, [refusedBy, send, onEvent, pollMs]);
  return [refusal, setRefusal];
}

/**
 * Reads a crawl record, and reads it again whenever it changes: on each
 * `crawl/changed` event of the background's push channel, or, without one
 * (tests, a page opened outside the extension), every few seconds while the
 * crawl runs or is paused (a paused crawl may be resumed from the popup).
 */
import { useEffect, useState } from 'preact/hooks';
import type { CrawlRecord } from '../core/model.ts';
import type { OnEvent } from '../messaging/protocol.ts';
import type { RowReader } from './row-reader.ts';
import type { AsyncState } from './use-async.ts';

/** Without a push channel: time between two reads of a running or paused crawl, in ms. */
export const LIVE_POLL_MS = 2000;

/** States in which a crawl may still change by itself or be resumed: worth watching without events. */
const isLive = (crawl: CrawlRecord | undefined): boolean => crawl?.state === 'running' || crawl?.state === 'paused';

/**
 * The crawl record of `crawlId`: read once, then again on every event of it
 * (`onEvent` given) or every `pollMs` while it runs or is paused. Reads never
 * overlap: a change during a read asks for one more after it. A failed
 * re-read keeps the last record; only a failed first read is shown.
 * @param onEvent the push channel (`messaging/client.ts`); when given, nothing is polled.
 */
export function useLiveCrawl(
  reader: RowReader,
  crawlId: string,
  pollMs: number = LIVE_POLL_MS,
  onEvent?: OnEvent,
): AsyncState<CrawlRecord | undefined> {
  const [result, setResult] = useState<AsyncState<CrawlRecord | undefined>>({ state: 'loading' });
  useEffect(() => {
    let isActive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let isReading = false;
    let isStale = false;
    setResult({ state: 'loading' });
    const read = (isFirst: boolean): void => {
      if (isReading) {
        isStale = true;
        return;
      }
      isReading = true;
      /** After a read: the one a change asked for meanwhile, else (without events) the next poll. */
      const next = (isWorthPolling: boolean): void => {
        isReading = false;
        if (!isActive) return;
        if (isStale) {
          isStale = false;
          read(false);
        } else if (onEvent === undefined && isWorthPolling) {
          timer = setTimeout(() => read(false), pollMs);
        }
      };
      reader.getCrawl(crawlId).then(
        (crawl) => {
          if (isActive) setResult({ state: 'done', value: crawl });
          next(isLive(crawl));
        },
        (error: unknown) => {
          if (isActive && isFirst)
            setResult({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
          // A failed re-read keeps the last record and tries again at the next tick.
          next(!isFirst);
        },
      );
    };
    read(true);
    const stopListening = onEvent?.('crawl/changed', (event) => {
      if (event.crawlId === crawlId) read(false);
    });
    return () => {
      isActive = false;
      clearTimeout(timer);
      stopListening?.();
    };
  }, [reader, crawlId, pollMs, onEvent]);
  return result;
}

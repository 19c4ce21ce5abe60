/** Reads a crawl record, and reads it again every few seconds while the crawl runs. */
import { useEffect, useState } from 'preact/hooks';
import type { CrawlRecord } from '../core/model.ts';
import type { RowReader } from './row-reader.ts';
import type { AsyncState } from './use-async.ts';

/** Time between two reads of a running crawl, in ms. */
export const LIVE_POLL_MS = 2000;

/**
 * The crawl record of `crawlId`: read once, then every `pollMs` while its state
 * is `running` (the next read is scheduled when the last one has answered, so
 * reads never overlap). Polling stops when the crawl is in any other state, is
 * gone, or the component unmounts. A failed re-read keeps the last record and
 * tries again at the next tick; only a failed first read is shown.
 */
export function useLiveCrawl(reader: RowReader, crawlId: string, pollMs: number = LIVE_POLL_MS): AsyncState<CrawlRecord | undefined> {
  const [result, setResult] = useState<AsyncState<CrawlRecord | undefined>>({ state: 'loading' });
  useEffect(() => {
    let isActive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setResult({ state: 'loading' });
    const read = (isFirst: boolean): void => {
      reader.getCrawl(crawlId).then(
        (crawl) => {
          if (!isActive) return;
          setResult({ state: 'done', value: crawl });
          if (crawl?.state === 'running') timer = setTimeout(() => read(false), pollMs);
        },
        (error: unknown) => {
          if (!isActive) return;
          if (isFirst) setResult({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
          else timer = setTimeout(() => read(false), pollMs);
        },
      );
    };
    read(true);
    return () => {
      isActive = false;
      clearTimeout(timer);
    };
  }, [reader, crawlId, pollMs]);
  return result;
}

/**
 * The results tab's Pause / Resume / Stop: sends the request and shows the
 * crawl as the reply left it at once, until a newer read of the crawl comes
 * (see `reply-crawl.ts` for when a read is newer).
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { CrawlRecord } from '../core/model.ts';
import type { Send } from '../messaging/client.ts';
import type { CrawlBarAction } from './crawl-bar.tsx';
import { isSuperseded, withReply, type ActionReply } from './reply-crawl.ts';
import { sendCrawlAction } from './results-actions.ts';

export interface CrawlActions {
  /** The crawl to show: the live record, or the last reply laid over it while no newer read came. */
  crawl: CrawlRecord | undefined;
  /** Sends `crawl/<action>`; resolves once the reply is shown, rejects with the background's error. Undefined without `send`. */
  onAction: ((action: CrawlBarAction) => Promise<void>) | undefined;
}

/**
 * @param live the crawl record as last read (`useLiveCrawl`); undefined while loading or when gone.
 * @param now the clock, ms since the epoch (the reply's run time is as of its arrival).
 */
export function useCrawlActions(
  live: CrawlRecord | undefined,
  crawlId: string,
  send: Send | undefined,
  now: () => number,
): CrawlActions {
  const [reply, setReply] = useState<ActionReply | null>(null);
  const isReplyShown = reply !== null && live !== undefined && !isSuperseded(reply, live);
  // Once superseded, a reply is gone for good: a later read as old as the click must not bring it back.
  useEffect(() => {
    if (reply !== null && live !== undefined && isSuperseded(reply, live)) setReply(null);
  }, [reply, live]);
  // One object per reply and read, not per render: the detail reads the outgoing links again when it changes.
  const crawl = useMemo(() => (isReplyShown ? withReply(live, reply) : live), [isReplyShown, live, reply]);
  const onAction =
    send === undefined
      ? undefined
      : async (action: CrawlBarAction): Promise<void> => {
          const next = await sendCrawlAction(send, crawlId, action, live, now);
          if (next !== null) setReply(next);
        };
  return { crawl, onAction };
}

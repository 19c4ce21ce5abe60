/**
 * The crawl as a Pause / Resume / Stop reply left it, shown at once: the tab
 * reads the crawl again only on its next `crawl/changed` event (or poll), so
 * without this the bar would say "running" for a moment after *Pause*
 * answered "paused". Pure: no Preact, no browser APIs.
 */
import type { CrawlRecord } from '../core/model.ts';
import type { CrawlSummary } from '../messaging/protocol.ts';

/** A reply to one of the tab's actions, and what the tab had read of the crawl when it came. */
export interface ActionReply {
  /** The crawl as the background answered. */
  summary: CrawlSummary;
  /** The record read before the reply (the object itself: a new read is a new object). */
  before: CrawlRecord;
  /** When the reply came, ms since the epoch (its `activeMs` is as of then). */
  receivedAt: number;
}

/**
 * Whether `live`, the record as last read, is newer than the reply: it is
 * another read than the one before the reply, and it either agrees with the
 * reply's state, has left the state the crawl had before the action, has
 * more rows done than the reply counted, or was paused or resumed again
 * since (a later `pausedAt`, a larger `pausedMs`: resumed elsewhere before
 * the tab read it paused). A read that began before the action was written
 * shows none of these: it is older, and the reply stays.
 */
export function isSuperseded(reply: ActionReply, live: CrawlRecord): boolean {
  const { before, summary } = reply;
  if (live === before) return false;
  return (
    live.state === summary.state ||
    live.state !== before.state ||
    live.counts.done > summary.counts.done ||
    (live.pausedAt ?? 0) > (before.pausedAt ?? 0) ||
    (live.pausedMs ?? 0) > (before.pausedMs ?? 0)
  );
}

/**
 * `record` with the reply's state, counts, end and message. The run time
 * ({@link CrawlSummary.activeMs}, as of `receivedAt`) is carried into the
 * record's pause bookkeeping so that `activeMs(record, now)` gives it: still
 * moving on when the reply says running, fixed otherwise.
 */
export function withReply(
  record: CrawlRecord,
  { summary, receivedAt }: Pick<ActionReply, 'summary' | 'receivedAt'>,
): CrawlRecord {
  const merged: CrawlRecord = {
    ...record,
    state: summary.state,
    counts: summary.counts,
    endedAt: summary.endedAt,
    message: summary.message,
  };
  const pausedMs = record.pausedMs ?? 0;
  if (summary.state === 'running') {
    merged.pausedAt = null;
    merged.pausedMs =
      summary.activeMs === undefined
        ? pausedMs +
          (record.pausedAt === null || record.pausedAt === undefined ? 0 : Math.max(0, receivedAt - record.pausedAt))
        : Math.max(0, receivedAt - record.createdAt - summary.activeMs);
    return merged;
  }
  merged.pausedMs = pausedMs;
  merged.pausedAt =
    summary.activeMs === undefined
      ? (record.pausedAt ?? summary.endedAt ?? receivedAt)
      : record.createdAt + pausedMs + summary.activeMs;
  return merged;
}

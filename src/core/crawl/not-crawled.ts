/**
 * The URLs a crawl found and left unvisited by one of its rules: deeper than
 * the depth limit, past the page limit, outside the path prefix, matched by an
 * exclude pattern, or refused by the trap rules; and the links to other sites
 * it did not check (see `NotCrawledReason`).
 *
 * Each is stored as it is refused (in the transaction of the page that found
 * it), once per URL and run: a link on every page is written once, since the
 * run remembers what it wrote ({@link RecordedUrls}). A URL refused once may
 * still be visited later (a link nearer the start, when the depth limit refused
 * it), so when the crawl finishes {@link settleNotCrawled} drops every stored
 * URL the crawl holds after all and counts the rest by reason: that count is
 * what the popup and the command line say, and the stored URLs what the
 * results browser lists. Platform-free.
 */
import type { NotCrawledCounts, NotCrawledReason, NotCrawledUrl } from '../model.ts';
import type { CrawlWrites } from './crawl-writes.ts';
import type { Candidate } from './candidate.ts';

/** A candidate left out, and why. */
export interface Refusal {
  candidate: Candidate;
  reason: NotCrawledReason;
}

/** URLs settled per transaction call when a crawl finishes (keys looked up, then deleted, a slice at a time). */
export const SETTLE_SLICE = 1024;

/**
 * URLs this run stored as not crawled, so a link seen on every page is written once. Bounded (past
 * `capacity` it forgets them all and starts again: a URL forgotten is only written again, which stores
 * the same record). Drop it with the run: a transaction that failed stored none of what it noted.
 */
export class RecordedUrls {
  private urls = new Set<string>();

  /** @param capacity most URLs remembered. */
  constructor(readonly capacity = 65_536) {}

  /** Notes the URL; false when it was noted already. */
  note(url: string): boolean {
    if (this.urls.has(url)) return false;
    if (this.urls.size >= this.capacity) this.urls = new Set();
    this.urls.add(url);
    return true;
  }
}

/**
 * Stores the refused candidates that are new to this run (`recorded`; null: all of them) and not held by
 * the crawl, the first reason of each URL in this call kept.
 */
export async function recordNotCrawled(
  writes: CrawlWrites,
  refusals: readonly Refusal[],
  recorded: RecordedUrls | null,
): Promise<void> {
  if (refusals.length === 0) return;
  const byUrl = new Map<string, Refusal>();
  for (const refusal of refusals) if (!byUrl.has(refusal.candidate.url)) byUrl.set(refusal.candidate.url, refusal);
  const fresh = [...byUrl.values()].filter((refusal) => recorded === null || recorded.note(refusal.candidate.url));
  if (fresh.length === 0) return;
  const known = await writes.knownOf(fresh.map((refusal) => refusal.candidate.url));
  const { crawl } = writes;
  const rows = fresh
    .filter((_, i) => !known[i])
    .map(({ candidate, reason }): NotCrawledUrl => ({
      crawlId: crawl.id,
      url: candidate.url,
      reason,
      depth: candidate.depth,
      referrer: candidate.referrer,
    }));
  if (rows.length > 0) await writes.tx.putNotCrawled(rows);
}

/**
 * When the crawl finishes: removes the stored URLs it holds after all (admitted later by another link)
 * and counts the rest by reason. A link to another site its robots.txt kept from being checked stays:
 * the crawl holds it only as a blocked row.
 */
export async function settleNotCrawled(writes: CrawlWrites): Promise<NotCrawledCounts> {
  const { tx, crawl } = writes;
  const counts: NotCrawledCounts = {};
  let after: string | null = null;
  for (;;) {
    const slice = await tx.notCrawledAfter(crawl.id, after, SETTLE_SLICE);
    if (slice.length === 0) break;
    // A link to another site blocked by its robots.txt has its (blocked) row: held, never visited.
    const known = (await writes.knownOf(slice.map((item) => item.url))).map(
      (isKnown, i) => isKnown && slice[i]?.reason !== 'external-robots',
    );
    const visited = slice.filter((_, i) => known[i]).map((item) => item.url);
    if (visited.length > 0) await tx.deleteNotCrawled(crawl.id, visited);
    slice.forEach((item, i) => {
      if (!known[i]) counts[item.reason] = (counts[item.reason] ?? 0) + 1;
    });
    after = slice[slice.length - 1]?.url ?? null;
    if (slice.length < SETTLE_SLICE) break;
  }
  return counts;
}

/** How many URLs were left unvisited, all reasons together. */
export function notCrawledTotal(counts: NotCrawledCounts | undefined): number {
  return Object.values(counts ?? {}).reduce((sum, n) => sum + n, 0);
}

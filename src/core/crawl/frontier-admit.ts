/**
 * Admission into the frontier, inside one store transaction: a URL found
 * becomes a frontier entry at most once per crawl, within its kind's budget
 * (the kind's own rules: `kinds/`); a URL the crawl already holds only gains
 * an inlink and its anchor text, tallied (see `CrawlWrites`). These functions
 * await nothing but `StoreTx` calls (`ports.ts`), so they can run inside an
 * IndexedDB transaction. The queue's contract (what a step asks of the
 * entries once admitted) is `frontier-queue.ts`.
 */
import type { FrontierEntry } from '../model.ts';
import type { Candidate } from './candidate.ts';
import { addAnchor, type CrawlWrites, MAX_ANCHORS_PER_URL } from './crawl-writes.ts';
import { workKindOf } from './kinds/registry.ts';

/** Told of a new URL left out because a budget is spent: the crawl's for its kind, or its host's (links to other sites). */
export type OverBudget = (candidate: Candidate, budget: 'crawl' | 'host') => void;

/**
 * Admits candidates: a URL already in the frontier or the crawl table only
 * gains the inlink and the anchor text, tallied (added to it by
 * `foldLinkTallies` (`link-tallies.ts`)); a new one is queued while the crawl's budget for
 * its kind lasts (`maxPages` for pages and sitemaps, `maxResources` for
 * resources, `maxExternal` for links to other sites: its kind says, `kinds/`) and `accept` agrees. Changes the crawl and hosts in
 * `writes`; the caller flushes them.
 * @param accept asked about each new URL (once, and only while the budget has room), just
 *   before it is queued; false leaves it out. Must not await: it runs inside the transaction.
 * @param overBudget told of each new URL left out because its kind's budget is spent (`crawl`), or, for a
 *   link to another site, its host's (`host`, `maxExternalPerHost`).
 * @returns the entries newly queued (written in this transaction).
 */
export async function admit(
  writes: CrawlWrites,
  candidates: Candidate[],
  accept?: (candidate: Candidate) => boolean,
  overBudget?: OverBudget,
): Promise<FrontierEntry[]> {
  if (candidates.length === 0) return [];
  const { tx } = writes;
  // Candidates come from one page (or one redirect, sitemap, start): a URL linked twice counts once.
  const byUrl = new Map<string, Candidate & { anchors: string[] }>();
  for (const c of candidates) {
    const seen = byUrl.get(c.url);
    if (seen) {
      addAnchor(seen.anchors, c.anchor);
      seen.isLink ||= c.isLink;
    } else byUrl.set(c.url, { ...c, anchors: c.anchor ? [c.anchor] : [] });
  }
  const urls = [...byUrl.keys()];
  const entryUpdates: FrontierEntry[] = [];
  const queue = async (candidate: Candidate & { anchors: string[] }): Promise<void> => {
    const entry = await newEntry(writes, candidate, accept, overBudget);
    if (!entry) return;
    writes.queued(entry.url);
    entryUpdates.push(entry);
  };

  // Keys only: a known URL is tallied, not read and rewritten.
  const known = await writes.knownOf(urls);
  for (const [i, url] of urls.entries()) {
    const candidate = byUrl.get(url);
    if (!candidate) continue;
    if (known[i]) writes.tallyLink(url, candidate.isLink, candidate.anchors);
    else await queue(candidate);
  }
  if (entryUpdates.length > 0) await tx.putEntries(entryUpdates);
  return entryUpdates;
}

/**
 * A frontier entry for a URL the crawl does not hold yet, counted in the
 * crawl and its host; null when its kind's budget is spent or `accept` says no.
 */
async function newEntry(
  writes: CrawlWrites,
  candidate: Candidate & { anchors: string[] },
  accept?: (candidate: Candidate) => boolean,
  overBudget?: OverBudget,
): Promise<FrontierEntry | null> {
  const { crawl } = writes;
  const { counts, settings } = crawl;
  const kind = workKindOf(candidate.kind);
  if (kind.budgetSpent(crawl)) {
    overBudget?.(candidate, 'crawl');
    return null;
  }
  if (accept && !accept(candidate)) return null;
  const host = await writes.host(candidate.origin);
  if (kind.hostBudgetSpent(settings, host)) {
    overBudget?.(candidate, 'host');
    return null;
  }
  host.pending += 1;
  kind.countAdmitted(counts, host, 1);
  crawl.nextSeq += 1;
  return {
    crawlId: crawl.id,
    url: candidate.url,
    origin: candidate.origin,
    kind: candidate.kind,
    depth: candidate.depth,
    referrer: candidate.referrer,
    seq: crawl.nextSeq - kind.seqBias,
    anchors: candidate.anchors.slice(0, MAX_ANCHORS_PER_URL),
    inlinks: candidate.isLink ? 1 : 0,
    attempts: 0,
    leaseRunId: null,
  };
}

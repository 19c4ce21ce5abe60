/**
 * Admission into the frontier, inside one store transaction: a URL found
 * becomes a frontier entry at most once per crawl, within its kind's budget
 * (the kind's own rules: `kinds/`); a URL the crawl already holds only gains
 * an inlink and its anchor text, tallied (see `CrawlWrites`). These functions
 * await nothing but {@link StoreTx} calls, so they can run inside an
 * IndexedDB transaction. The queue's contract (what a step asks of the
 * entries once admitted) is `frontier-queue.ts`.
 */
import type { EntryKind, FrontierEntry } from '../model.ts';
import { addAnchor, type CrawlWrites, MAX_ANCHORS_PER_URL } from './crawl-writes.ts';
import type { StoreTx } from './ports.ts';

/**
 * Subtracted from a resource's admission number to give its queue position:
 * a host's queue is served in `seq` order, so its resources go before its
 * pages (in the order they were found), and a page's resources are fetched
 * soon after the page: a crawl cut short by its limits has whole pages, not
 * many pages each missing its styles. 2^50: far below any page's number,
 * and still an exact number.
 */
export const RESOURCE_SEQ_BIAS = 2 ** 50;

/** A URL found somewhere (link, redirect, sitemap, start, a page's resource), already normalized (and in scope, when followed). */
export interface Candidate {
  url: string;
  origin: string;
  kind: EntryKind;
  depth: number;
  referrer: string | null;
  /** Anchor text of the link, or null (redirects, sitemaps, empty text). */
  anchor: string | null;
  /** Found as a followed link of a page (counts as an inlink); false for redirects, sitemaps and the start URL. */
  isLink: boolean;
}

/** Told of a new URL left out because a budget is spent: the crawl's for its kind, or its host's (links to other sites). */
export type OverBudget = (candidate: Candidate, budget: 'crawl' | 'host') => void;

/**
 * Admits candidates: a URL already in the frontier or the crawl table only
 * gains the inlink and the anchor text, tallied (added to it by
 * `foldLinkTallies` (`link-tallies.ts`)); a new one is queued while the crawl's budget for
 * its kind lasts (`maxPages` for pages and sitemaps, `maxResources` for
 * resources) and `accept` agrees. Changes the crawl and hosts in
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
  const { tx, crawl } = writes;
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
  const isResource = candidate.kind === 'resource';
  const isExternal = candidate.kind === 'external';
  const spent = isExternal
    ? (counts.externalAdmitted ?? 0) >= (settings.maxExternal ?? 0)
    : isResource
      ? (counts.resourcesAdmitted ?? 0) + (counts.files ?? 0) >= (settings.maxResources ?? 0)
      : counts.admitted >= settings.maxPages;
  if (spent) {
    overBudget?.(candidate, 'crawl');
    return null;
  }
  if (accept && !accept(candidate)) return null;
  const host = await writes.host(candidate.origin);
  if (isExternal && (host.externalAdmitted ?? 0) >= (settings.maxExternalPerHost ?? 0)) {
    overBudget?.(candidate, 'host');
    return null;
  }
  host.pending += 1;
  if (isExternal) {
    counts.externalAdmitted = (counts.externalAdmitted ?? 0) + 1;
    host.externalAdmitted = (host.externalAdmitted ?? 0) + 1;
  } else if (isResource) counts.resourcesAdmitted = (counts.resourcesAdmitted ?? 0) + 1;
  else counts.admitted += 1;
  crawl.nextSeq += 1;
  return {
    crawlId: crawl.id,
    url: candidate.url,
    origin: candidate.origin,
    kind: candidate.kind,
    depth: candidate.depth,
    referrer: candidate.referrer,
    seq: isResource ? crawl.nextSeq - RESOURCE_SEQ_BIAS : crawl.nextSeq,
    anchors: candidate.anchors.slice(0, MAX_ANCHORS_PER_URL),
    inlinks: candidate.isLink ? 1 : 0,
    attempts: 0,
    leaseRunId: null,
  };
}

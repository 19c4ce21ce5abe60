/**
 * Links to URLs the crawl already holds, tallied instead of rewriting their
 * row or entry at once (`CrawlWrites.tallyLink`), and the folds that add
 * those tallies to the inlinks and anchor texts of the rows and entries
 * they name: while the crawl runs (entries only, and rows while the loop
 * is idle), and whole at the loop's end. These functions await nothing but
 * {@link StoreTx} calls, so they can run inside an IndexedDB transaction.
 */
import type { FrontierEntry, PageRecord } from '../model.ts';
import { addAnchor, type CrawlWrites } from './crawl-writes.ts';
import type { LinkTally } from './ports.ts';

/**
 * URLs a fold reads and writes at a time (see {@link foldLinkTallies}): about 12 MB of rows at most (a
 * page's row is a few KB), and the result chunks a slice's rows fall in, written once a slice (a crawl's
 * rows spread over all of them: at 50,000 rows, 196 chunks of 256 rows).
 */
export const FOLD_SLICE_URLS = 4096;

/**
 * How long, in ms, the crawl loop must have nothing due to fold some of the links kept while the crawl
 * runs into their rows ({@link IDLE_FOLD_URLS} at a time): a polite crawl waits most of its time, and
 * its rows then catch up while it waits instead of all at its end (1,672 rows, 0.9 s of the 55 s of
 * bench part 2 before, at 8 hosts with a Crawl-delay of 0.25 s). See {@link mayFoldWhileIdle}.
 */
export const IDLE_FOLD_MS = 100;

/**
 * Whether the loop may fold now without delaying any request. The fold's transaction goes before any
 * that comes after it, so: the next claim a host without a running step is due for (`nextClaimAt`, ms;
 * infinite when none is due, which is not idle: a host waiting for a free slot is due when a step ends)
 * is at least {@link IDLE_FOLD_MS} away; and each host with a step running waits at least twice that
 * between requests (`runningGapsMs`): its step's transaction, which may wait for the fold, then does not
 * claim its next request, that request waiting for the host's gap. A crawl at delay 0 never folds while
 * it runs (its hosts are always due): it folds at the loop's end.
 */
export function mayFoldWhileIdle(now: number, nextClaimAt: number, runningGapsMs: Iterable<number>): boolean {
  if (!Number.isFinite(nextClaimAt) || nextClaimAt - now < IDLE_FOLD_MS) return false;
  for (const gap of runningGapsMs) if (gap < 2 * IDLE_FOLD_MS) return false;
  return true;
}

/**
 * About how many linked URLs a fold made while the crawl loop is idle adds up in one transaction: a few
 * tens of ms of work on this project's machine (0.7 to 0.8 ms a URL: the row read and rewritten, and the
 * results index's chunks it falls in), short enough to end before a host's next claim is due (see
 * {@link IDLE_FOLD_MS}).
 */
export const IDLE_FOLD_URLS = 96;

/**
 * URLs of each tally a fold while running keeps for a later one (see {@link FoldOptions.entriesOnly}): small
 * enough that a fold while the loop is idle can take one whole. A full fold takes as many of them as its
 * transaction's URLs allow, so their size costs it nothing.
 */
export const KEPT_TALLY_URLS = IDLE_FOLD_URLS;

/** How {@link foldLinkTallies} folds. */
export interface FoldOptions {
  /**
   * URLs read and written at a time: the rows of a slice are written before the next is read, so a fold
   * holds at most this many rows in memory, however many URLs it updates.
   */
  sliceUrls?: number;
  /**
   * Adds the tallies to frontier entries only, and keeps those of fetched rows (in one tally of their own,
   * `rowsOnly`, not read again until a full fold) for a later fold: the crawl's folds while it runs. A row
   * is a page's every field (its links, headers, facts) and its place in the results index, an entry a few
   * hundred bytes; rewriting the rows linked since the last fold, every 16,384 links, made a crawl slow
   * down as it grew (issue 19: on a 10,000-page site at 8 at once, pages/s over the last tenth ÷ the
   * first, 0.61 with them, 0.95 without).
   */
  entriesOnly?: boolean;
  /**
   * A full fold takes the stored tallies in batch order up to about this many URLs (at least one
   * tally), so that one transaction stays short however many links a large crawl kept; `more` then says
   * whether some are left for the next. This transaction's own tallies go with the last part.
   */
  maxUrls?: number;
  /**
   * With `maxUrls`: no tally over it is taken, not even the first (nothing is folded then, and `more`
   * says that some are left). A fold while the loop is idle must stay short: a page that links to
   * thousands of known URLs leaves a tally of that size, for the fold at the loop's end.
   */
  fitting?: boolean;
}

/**
 * Adds the crawl's link tallies (and those of this transaction not written
 * yet) to the inlinks and anchor texts of the URLs they name, row or entry,
 * and removes them: one read (two for a URL not fetched yet) and one write
 * per linked URL, however many pages linked to it since the last fold.
 * Awaits only calls of `writes`.
 * @returns how many URLs were updated, and whether tallies are left for another fold (see `maxUrls`).
 */
export async function foldLinkTallies(
  writes: CrawlWrites,
  options: FoldOptions = {},
): Promise<{ updated: number; more: boolean }> {
  const {
    sliceUrls = FOLD_SLICE_URLS,
    entriesOnly = false,
    maxUrls = Number.POSITIVE_INFINITY,
    fitting = false,
  } = options;
  const { tx, crawl } = writes;
  const stored = await tx.linkTallies(crawl.id);
  // The tallies kept for the full fold are not read again until then: their URLs are rows.
  const foldable = entriesOnly ? stored.filter((tally) => tally.rowsOnly !== true) : stored;
  let folded = foldable;
  if (!entriesOnly && Number.isFinite(maxUrls)) {
    let urlsTaken = 0;
    let taken = 0;
    while (
      taken < folded.length &&
      ((taken === 0 && !fitting) || urlsTaken + (folded[taken]?.urls.length ?? 0) <= maxUrls)
    ) {
      urlsTaken += folded[taken]?.urls.length ?? 0;
      taken += 1;
    }
    folded = folded.slice(0, taken);
  }
  const more = folded.length < foldable.length;
  // This transaction's own tallies go with the last part (else they are written as a tally of their own).
  const merged = mergedSlots(folded, more ? [] : writes.takeTally());
  if (merged.size === 0) {
    if (folded.length > 0)
      await tx.deleteLinkTallyBatches(
        crawl.id,
        folded.map((tally) => tally.batch),
      );
    return { updated: 0, more };
  }
  const addTo = <T extends FrontierEntry | PageRecord>(existing: T | undefined, updates: T[]): void => {
    const slot = existing && merged.get(existing.url);
    if (!existing || !slot) return;
    existing.inlinks += slot.inlinks;
    for (const anchor of slot.anchors) addAnchor(existing.anchors, anchor);
    updates.push(existing);
  };
  const urls = [...merged.keys()];
  let updated = 0;
  if (entriesOnly) {
    /** Tallies of URLs without an entry (fetched rows; rows never become entries again): kept for the full fold. */
    const kept: [string, { inlinks: number; anchors: string[] }][] = [];
    for (let start = 0; start < urls.length; start += Math.max(1, sliceUrls)) {
      const slice = urls.slice(start, start + Math.max(1, sliceUrls));
      const entries = await tx.getEntries(crawl.id, slice);
      const entryUpdates: FrontierEntry[] = [];
      slice.forEach((url, i) => {
        const entry = entries[i];
        if (entry) addTo(entry, entryUpdates);
        else kept.push([url, merged.get(url) ?? { inlinks: 0, anchors: [] }]);
      });
      if (entryUpdates.length > 0) await tx.putEntries(entryUpdates);
      updated += entryUpdates.length;
    }
    await tx.deleteLinkTallyBatches(
      crawl.id,
      folded.map((tally) => tally.batch),
    );
    // In small tallies: a bounded fold takes a tally whole, and a fold while idle takes only small ones.
    await putTallyParts(writes, kept, KEPT_TALLY_URLS, true);
    return { updated, more };
  }
  for (let start = 0; start < urls.length; start += Math.max(1, sliceUrls)) {
    const slice = urls.slice(start, start + Math.max(1, sliceUrls));
    // A URL is a row or an entry, never both (a row replaces its entry in one transaction): rows first (most
    // linked URLs have been fetched by the time of a fold), entries only for the rest.
    const pages = await writes.getPages(slice);
    const entries = await tx.getEntries(
      crawl.id,
      slice.filter((_, i) => pages[i] === undefined),
    );
    const entryUpdates: FrontierEntry[] = [];
    const pageUpdates: PageRecord[] = [];
    for (const page of pages) addTo(page, pageUpdates);
    for (const entry of entries) addTo(entry, entryUpdates);
    if (entryUpdates.length > 0) await tx.putEntries(entryUpdates);
    await writes.writePages(pageUpdates);
    updated += entryUpdates.length + pageUpdates.length;
  }
  await tx.deleteLinkTallyBatches(
    crawl.id,
    folded.map((tally) => tally.batch),
  );
  return { updated, more };
}

/**
 * Rewrites the crawl's stored tallies (and this transaction's) as tallies of distinct URLs, at most
 * `partUrls` each, when they name more than `partUrls` URLs in all: a URL linked in many tallies then has
 * one slot, so that a fold in bounded transactions ({@link FoldOptions.maxUrls}) rewrites its row once, not
 * once per transaction its tallies fall in. At the end of a crawl at delay 0 most rows are linked from many
 * tallies. One read of the tallies and their rewrite, all small; the same counts and anchor texts, in the
 * same order. Awaits only calls of `writes`.
 * @returns whether it rewrote them (false: they fit in one fold of `partUrls` URLs).
 */
export async function mergeLinkTallies(writes: CrawlWrites, partUrls: number): Promise<boolean> {
  const { tx, crawl } = writes;
  const stored = await tx.linkTallies(crawl.id);
  let slots = 0;
  for (const tally of stored) slots += tally.urls.length;
  if (slots <= partUrls) return false;
  const merged = mergedSlots(stored, writes.takeTally());
  await tx.deleteLinkTallyBatches(
    crawl.id,
    stored.map((tally) => tally.batch),
  );
  await putTallyParts(writes, [...merged], partUrls, false);
  return true;
}

/** The tallies' links added up per URL (the first URL named first), then `extra`'s (this transaction's, not stored yet). */
function mergedSlots(
  tallies: readonly LinkTally[],
  extra: Iterable<[string, { inlinks: number; anchors: string[] }]>,
): Map<string, { inlinks: number; anchors: string[] }> {
  const merged = new Map<string, { inlinks: number; anchors: string[] }>();
  const add = (url: string, inlinks: number, anchors: readonly string[]): void => {
    let slot = merged.get(url);
    if (!slot) merged.set(url, (slot = { inlinks: 0, anchors: [] }));
    slot.inlinks += inlinks;
    for (const anchor of anchors) addAnchor(slot.anchors, anchor);
  };
  for (const tally of tallies) tally.urls.forEach((url, i) => add(url, tally.inlinks[i] ?? 0, tally.anchors[i] ?? []));
  for (const [url, slot] of extra) add(url, slot.inlinks, slot.anchors);
  return merged;
}

/** Stores `slots` as new tallies of at most `partUrls` URLs each, in order (`rowsOnly`: see {@link LinkTally.rowsOnly}). */
async function putTallyParts(
  writes: CrawlWrites,
  slots: readonly [string, { inlinks: number; anchors: string[] }][],
  partUrls: number,
  rowsOnly: boolean,
): Promise<void> {
  const { tx, crawl } = writes;
  for (let start = 0; start < slots.length; start += partUrls) {
    const part = slots.slice(start, start + partUrls);
    crawl.linkBatch = (crawl.linkBatch ?? 0) + 1;
    await tx.putLinkTally({
      crawlId: crawl.id,
      batch: crawl.linkBatch,
      urls: part.map(([url]) => url),
      inlinks: part.map(([, slot]) => slot.inlinks),
      anchors: part.map(([, slot]) => slot.anchors),
      ...(rowsOnly ? { rowsOnly: true as const } : {}),
    });
  }
}

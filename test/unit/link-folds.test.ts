/**
 * One run's link folds (`core/crawl/link-folds.ts`): when a fold of the tallied links is due, whether
 * a fold while idle may run, and what each fold adds to the rows and entries. On a memory store.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Candidate } from '../../src/core/crawl/candidate.ts';
import { CommitQueue } from '../../src/core/crawl/commit-queue.ts';
import { createCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { admit } from '../../src/core/crawl/frontier-admit.ts';
import { markHandled, unfetchedRow } from '../../src/core/crawl/frontier-queue.ts';
import { LinkFolds } from '../../src/core/crawl/link-folds.ts';
import { IDLE_FOLD_MS } from '../../src/core/crawl/link-tallies.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { settingsFor } from '../support/crawl-world.ts';

const A = 'http://a.test';
const link = (path: string, referrer: string): Candidate => ({
  url: `${A}${path}`,
  origin: A,
  kind: 'page',
  depth: 1,
  referrer,
  anchor: null,
  isLink: true,
});

/** A crawl whose start URL is a row and `/q` a queued entry; the folds tell of each batch's tallied links. */
async function setUp(foldLinksAt?: number) {
  const store = new MemoryCrawlStore();
  await createCrawl(store, settingsFor({ startUrl: `${A}/`, delayMs: 0, requestsPerHost: 4 }), { id: 'c1', now: 0 });
  // Told of the batches only once the folds exist (the queue's first commit comes later).
  const queue = new CommitQueue(store, (committed) => folds.tallied(committed.talliedLinks));
  const folds = new LinkFolds(queue, 'c1', foldLinksAt);
  await queue.run(
    'c1',
    async (writes) => {
      const [start] = await writes.tx.getEntries('c1', [`${A}/`]);
      if (!start) throw new Error('no start entry');
      await markHandled(writes, { ...unfetchedRow(start), status: 200 });
      await admit(writes, [link('/q', `${A}/`)]);
    },
    undefined,
  );
  /** Pages `/p0`…: each links to `/` (a row) and `/q` (an entry), in one transaction. */
  const linkFrom = (pages: number): Promise<void> =>
    queue.run(
      'c1',
      async (writes) => {
        for (let i = 0; i < pages; i += 1) await admit(writes, [link('/', `${A}/p${i}`), link('/q', `${A}/p${i}`)]);
      },
      undefined,
    );
  const inlinksOf = (path: string): Promise<{ row?: number; entry?: number }> =>
    store.transaction(async (tx) => {
      const [entry] = await tx.getEntries('c1', [`${A}${path}`]);
      const [row] = await tx.getPages('c1', [`${A}${path}`]);
      return { row: row?.inlinks, entry: entry?.inlinks };
    });
  const tallies = async (): Promise<number> => (await store.transaction((tx) => tx.linkTallies('c1'))).length;
  return { folds, linkFrom, inlinksOf, tallies };
}

/** Far enough ahead that a fold while idle never holds up the next claim. */
const LATER = 10 * IDLE_FOLD_MS;

describe('link folds', () => {
  it('is due once the batches committed since the last fold tallied its number of links, and counts again from the fold', async () => {
    const { folds, linkFrom } = await setUp(4);
    await linkFrom(1);
    assert.equal(folds.isDue(), false, 'two links');
    await linkFrom(1);
    assert.equal(folds.isDue(), true, 'four links');
    const fold = folds.foldWhileRunning();
    assert.equal(folds.isDue(), false, 'counted from 0 as soon as the fold begins');
    await fold;
  });

  it('adds the tallies to the entries while the crawl runs, and keeps those of rows for a later fold', async () => {
    const { folds, linkFrom, inlinksOf, tallies } = await setUp();
    const rowBefore = (await inlinksOf('/')).row;
    await linkFrom(3);
    await folds.foldWhileRunning();
    assert.equal((await inlinksOf('/q')).entry, 4, 'its first link and one per page');
    assert.equal((await inlinksOf('/')).row, rowBefore, 'the row is not rewritten');
    assert.equal(await tallies(), 1, 'the row’s tally kept');
  });

  it('adds every tally to the rows and entries in a whole fold, leaving none', async () => {
    const { folds, linkFrom, inlinksOf, tallies } = await setUp();
    const rowBefore = (await inlinksOf('/')).row ?? 0;
    await linkFrom(3);
    await folds.foldAll();
    assert.equal((await inlinksOf('/')).row, rowBefore + 3);
    assert.equal((await inlinksOf('/q')).entry, 4);
    assert.equal(await tallies(), 0);
  });

  it('folds while idle only when no claim is due soon, and not again once a fold left no tallies, until new links are tallied', async () => {
    const { folds, linkFrom, inlinksOf, tallies } = await setUp();
    const rowBefore = (await inlinksOf('/')).row ?? 0;
    await linkFrom(2);
    assert.equal(
      folds.mayFoldWhileIdle(0, IDLE_FOLD_MS - 1, () => []),
      false,
      'a claim is due too soon',
    );
    assert.equal(
      folds.mayFoldWhileIdle(0, Infinity, () => []),
      false,
      'a host waits for a free slot',
    );
    assert.equal(
      folds.mayFoldWhileIdle(0, LATER, () => [IDLE_FOLD_MS]),
      false,
      'a running host’s gap is too short',
    );
    assert.equal(
      folds.mayFoldWhileIdle(0, LATER, () => [2 * IDLE_FOLD_MS]),
      true,
    );
    await folds.foldWhileIdle();
    assert.equal((await inlinksOf('/')).row, rowBefore + 2);
    assert.equal(await tallies(), 0);
    let gapsAsked = false;
    const gaps = (): number[] => ((gapsAsked = true), []);
    assert.equal(folds.mayFoldWhileIdle(0, LATER, gaps), false, 'nothing left to fold');
    assert.equal(gapsAsked, false, 'the running hosts’ gaps are not worked out then');
    await linkFrom(1);
    assert.equal(folds.mayFoldWhileIdle(0, LATER, gaps), true, 'new links tallied');
  });
});

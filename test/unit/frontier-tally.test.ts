/**
 * Deferred link counting (`CrawlWrites`, `foldLinkTallies`): a crawl, at one
 * request per host as at several, tallies links to URLs it already holds
 * instead of rewriting their rows, and a fold adds the tallies to the rows and
 * entries: each linking page counted once per URL, anchor texts in the order
 * found, at most {@link MAX_ANCHORS_PER_URL} kept.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CommitQueue } from '../../src/core/crawl/commit-queue.ts';
import { createCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { MAX_ANCHORS_PER_URL } from '../../src/core/crawl/crawl-writes.ts';
import { admit } from '../../src/core/crawl/frontier-admit.ts';
import type { Candidate } from '../../src/core/crawl/candidate.ts';
import { markHandled, unfetchedRow } from '../../src/core/crawl/frontier-queue.ts';
import { foldLinkTallies, mergeLinkTallies } from '../../src/core/crawl/link-tallies.ts';
import type { StoreTx } from '../../src/core/crawl/ports.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { settingsFor } from '../support/crawl-world.ts';

const A = 'http://a.test';
const link = (path: string, anchor: string | null, referrer = `${A}/`): Candidate => ({
  url: `${A}${path}`,
  origin: A,
  kind: 'page',
  depth: 1,
  referrer,
  anchor,
  isLink: true,
});

/** A memory store that counts the writes of each row (by URL). */
class RowWriteCounter extends MemoryCrawlStore {
  readonly rowWrites = new Map<string, number>();

  override transaction<T>(work: (tx: StoreTx) => Promise<T>): Promise<T> {
    return super.transaction((tx) =>
      work({
        ...tx,
        putPages: async (pages) => {
          for (const page of pages) this.rowWrites.set(page.url, (this.rowWrites.get(page.url) ?? 0) + 1);
          await tx.putPages(pages);
        },
      }),
    );
  }
}

async function setUp(requestsPerHost: number, store = new MemoryCrawlStore()) {
  await createCrawl(store, settingsFor({ startUrl: `${A}/`, delayMs: 0, requestsPerHost }), { id: 'c1', now: 0 });
  const queue = new CommitQueue(store);
  // The start URL becomes a row; /q stays queued.
  await queue.run(
    'c1',
    async (writes) => {
      const [start] = await writes.tx.getEntries('c1', [`${A}/`]);
      if (!start) throw new Error('no start entry');
      await markHandled(writes, { ...unfetchedRow(start), status: 200 });
      await admit(writes, [link('/q', 'Q')]);
    },
    undefined,
  );
  return { store, queue };
}

/** What the crawl holds for a URL: its inlinks and anchors, from its row or its entry. */
async function linksOf(store: MemoryCrawlStore, url: string) {
  return store.transaction(async (tx) => {
    const [entry] = await tx.getEntries('c1', [url]);
    const [row] = await tx.getPages('c1', [url]);
    const found = entry ?? row;
    return found && { inlinks: found.inlinks, anchors: found.anchors, as: entry ? 'entry' : 'row' };
  });
}

describe('deferred link counting', () => {
  it('tallies links to known URLs (rows and entries) without rewriting them, and queues new ones', async () => {
    const { store, queue } = await setUp(4);
    const before = await linksOf(store, `${A}/`);
    await queue.run(
      'c1',
      async (writes) => void (await admit(writes, [link('/', 'Home'), link('/q', 'Queue'), link('/new', 'New')])),
      undefined,
    );
    assert.deepEqual(await linksOf(store, `${A}/`), before, 'the row is not rewritten');
    assert.deepEqual(await linksOf(store, `${A}/q`), { inlinks: 1, anchors: ['Q'], as: 'entry' });
    assert.deepEqual(await linksOf(store, `${A}/new`), { inlinks: 1, anchors: ['New'], as: 'entry' });
    const tallies = await store.transaction((tx) => tx.linkTallies('c1'));
    assert.deepEqual(tallies, [
      { crawlId: 'c1', batch: 1, urls: [`${A}/`, `${A}/q`], inlinks: [1, 1], anchors: [['Home'], ['Queue']] },
    ]);
    assert.equal((await store.getCrawl('c1'))?.linkBatch, 1);
  });

  it("folds every tally, its own transaction's too, into the counts and anchors of each linking page", async () => {
    const deferred = await setUp(4);
    // Twelve pages each link to / and five times to /q with varied anchor texts (more than /q keeps), in three transactions.
    const linkers = Array.from({ length: 12 }, (_, i) => [
      link('/', `Home ${i % 5}`, `${A}/p${i}`),
      ...Array.from({ length: 5 }, (_, k) => link('/q', `Q${i}.${k}`, `${A}/p${i}`)),
    ]);
    for (let t = 0; t < 3; t += 1) {
      await deferred.queue.run(
        'c1',
        async (writes) => {
          for (const candidates of linkers.slice(t * 4, t * 4 + 4)) await admit(writes, candidates);
        },
        undefined,
      );
    }
    assert.equal((await deferred.store.transaction((tx) => tx.linkTallies('c1'))).length, 3);
    // The fold runs with one more page's links not yet written: they are counted too.
    const folded = await deferred.queue.run(
      'c1',
      async (writes) => {
        await admit(writes, [link('/', 'Last', `${A}/last`)]);
        return (await foldLinkTallies(writes)).updated;
      },
      0,
    );
    assert.equal(folded, 2);
    assert.deepEqual(await linksOf(deferred.store, `${A}/`), {
      inlinks: 13,
      anchors: ['Home 0', 'Home 1', 'Home 2', 'Home 3', 'Home 4', 'Last'],
      as: 'row',
    });
    // /q: its first link (set-up) and one per page, each page once however many links it has there.
    const qAnchors = [
      'Q',
      ...Array.from({ length: 12 }, (_, i) => Array.from({ length: 5 }, (_, k) => `Q${i}.${k}`)).flat(),
    ].slice(0, MAX_ANCHORS_PER_URL);
    assert.deepEqual(await linksOf(deferred.store, `${A}/q`), { inlinks: 13, anchors: qAnchors, as: 'entry' });
    assert.deepEqual(await deferred.store.transaction((tx) => tx.linkTallies('c1')), [], 'no tally left');
    assert.deepEqual(
      await deferred.queue.run('c1', (writes) => foldLinkTallies(writes), null),
      { updated: 0, more: false },
      'a second fold finds nothing',
    );
  });

  it('folds in slices of any size to the same counts, and the rest of the transaction sees the folded rows', async () => {
    const linkers = Array.from({ length: 12 }, (_, i) => [
      link('/', `Home ${i % 5}`, `${A}/p${i}`),
      link('/q', `Q${i}`, `${A}/p${i}`),
      link(`/n${i % 3}`, null, `${A}/p${i}`),
    ]);
    const results: unknown[] = [];
    for (const slice of [1, 2, 1024]) {
      const { store, queue } = await setUp(4);
      for (let t = 0; t < 3; t += 1) {
        await queue.run(
          'c1',
          async (writes) => {
            for (const candidates of linkers.slice(t * 4, t * 4 + 4)) await admit(writes, candidates);
          },
          undefined,
        );
      }
      const seen = await queue.run(
        'c1',
        async (writes) => {
          const { updated: folded } = await foldLinkTallies(writes, { sliceUrls: slice });
          // A row written by the fold is read back from the store, with the fold's counts.
          const [home] = await writes.getPages([`${A}/`]);
          return { folded, homeInlinks: home?.inlinks };
        },
        null,
      );
      const held = await Promise.all(['/', '/q', '/n0', '/n1', '/n2'].map((path) => linksOf(store, `${A}${path}`)));
      results.push({ seen, held });
      assert.deepEqual(await store.transaction((tx) => tx.linkTallies('c1')), [], `slices of ${slice}: no tally left`);
    }
    assert.deepEqual(results[0], results[2], 'slices of 1 and of 1,024 store the same');
    assert.deepEqual(results[1], results[2], 'slices of 2 and of 1,024 store the same');
    assert.deepEqual((results[2] as { seen: unknown }).seen, { folded: 5, homeInlinks: 12 });
  });

  it('a fold while the crawl runs adds the tallies to entries only, and keeps those of fetched rows, once, for the full fold', async () => {
    const { store, queue } = await setUp(4);
    // Three pages link to / (a row), /q and /new (entries), over two transactions.
    for (const page of ['/p1', '/p2', '/p3']) {
      await queue.run(
        'c1',
        async (writes) =>
          void (await admit(writes, [
            link('/', `Home${page}`, `${A}${page}`),
            link('/q', `Q${page}`, `${A}${page}`),
            link('/new', null, `${A}${page}`),
          ])),
        undefined,
      );
    }
    const homeBefore = await linksOf(store, `${A}/`);
    assert.deepEqual(
      await queue.run('c1', (writes) => foldLinkTallies(writes, { entriesOnly: true }), null),
      { updated: 2, more: false },
      '/q and /new updated',
    );
    assert.deepEqual(await linksOf(store, `${A}/`), homeBefore, 'the row is not rewritten');
    assert.deepEqual(await linksOf(store, `${A}/q`), {
      inlinks: 4,
      anchors: ['Q', 'Q/p1', 'Q/p2', 'Q/p3'],
      as: 'entry',
    });
    assert.deepEqual(await linksOf(store, `${A}/new`), { inlinks: 3, anchors: [], as: 'entry' });
    const kept = await store.transaction((tx) => tx.linkTallies('c1'));
    assert.deepEqual(
      kept.map(({ urls, inlinks, anchors, rowsOnly }) => ({ urls, inlinks, anchors, rowsOnly })),
      [{ urls: [`${A}/`], inlinks: [3], anchors: [['Home/p1', 'Home/p2', 'Home/p3']], rowsOnly: true }],
    );

    // More links, another fold while running: the kept tally is neither read again nor counted twice.
    await queue.run(
      'c1',
      async (writes) => void (await admit(writes, [link('/', 'Home/p4', `${A}/p4`), link('/q', null, `${A}/p4`)])),
      undefined,
    );
    assert.deepEqual(await queue.run('c1', (writes) => foldLinkTallies(writes, { entriesOnly: true }), null), {
      updated: 1,
      more: false,
    });
    assert.deepEqual(await linksOf(store, `${A}/q`), {
      inlinks: 5,
      anchors: ['Q', 'Q/p1', 'Q/p2', 'Q/p3'],
      as: 'entry',
    });
    assert.equal(
      (await store.transaction((tx) => tx.linkTallies('c1'))).filter((tally) => tally.rowsOnly === true).length,
      2,
    );

    // The fold at the loop's end adds every kept tally to the row, once.
    await queue.run('c1', (writes) => foldLinkTallies(writes), null);
    assert.deepEqual(await linksOf(store, `${A}/`), {
      inlinks: (homeBefore?.inlinks ?? 0) + 4,
      anchors: [...(homeBefore?.anchors ?? []), 'Home/p1', 'Home/p2', 'Home/p3', 'Home/p4'],
      as: 'row',
    });
    assert.deepEqual(await store.transaction((tx) => tx.linkTallies('c1')), [], 'no tally left');
  });

  it('a full fold with maxUrls takes whole tallies in order, says when more are left, and ends with the same counts as one fold', async () => {
    const linkers = Array.from({ length: 6 }, (_, i) => [
      link('/', `Home ${i}`, `${A}/p${i}`),
      link('/q', null, `${A}/p${i}`),
      link(`/n${i}`, null, `${A}/p${i}`),
    ]);
    const held: unknown[] = [];
    for (const maxUrls of [1, 3, Number.POSITIVE_INFINITY]) {
      const { store, queue } = await setUp(4);
      // Six tallies of two known URLs each (/ and /q); the /n URLs are new.
      for (const candidates of linkers)
        await queue.run('c1', async (writes) => void (await admit(writes, candidates)), undefined);
      const parts: { updated: number; more: boolean }[] = [];
      for (let more = true; more;) {
        const part = await queue.run('c1', (writes) => foldLinkTallies(writes, { maxUrls }), null);
        if (part === null) throw new Error('the crawl is gone');
        parts.push(part);
        more = part.more;
      }
      // At most about maxUrls a part, at least one tally: six parts of one tally (2 URLs) when maxUrls is 1 or 3.
      assert.equal(parts.length, Number.isFinite(maxUrls) ? 6 : 1, `maxUrls ${maxUrls}`);
      assert.deepEqual(await store.transaction((tx) => tx.linkTallies('c1')), [], `maxUrls ${maxUrls}: no tally left`);
      held.push(await Promise.all(['/', '/q', '/n0'].map((path) => linksOf(store, `${A}${path}`))));
    }
    assert.deepEqual(held[0], held[2]);
    assert.deepEqual(held[1], held[2]);
    assert.deepEqual(
      (held[2] as { inlinks: number }[]).map((l) => l.inlinks),
      [6, 7, 1],
    );
  });

  it('merged first, a fold in bounded transactions rewrites each linked row once, to the same counts and anchors', async () => {
    const linkers = Array.from({ length: 6 }, (_, i) => [
      link('/', `Home ${i}`, `${A}/p${i}`),
      link('/q', null, `${A}/p${i}`),
      link(`/n${i}`, null, `${A}/p${i}`),
    ]);
    const held: unknown[] = [];
    for (const merge of [false, true]) {
      const store = new RowWriteCounter();
      const { queue } = await setUp(4, store);
      // Six tallies of two known URLs each (/ and /q): 12 slots, 2 URLs.
      for (const candidates of linkers)
        await queue.run('c1', async (writes) => void (await admit(writes, candidates)), undefined);
      store.rowWrites.clear();
      if (merge) assert.equal(await queue.run('c1', (writes) => mergeLinkTallies(writes, 3), null), true);
      if (merge)
        assert.deepEqual(
          (await store.transaction((tx) => tx.linkTallies('c1'))).map((tally) => tally.urls),
          [[`${A}/`, `${A}/q`]],
          'one tally of the distinct URLs',
        );
      for (let more = true; more;) {
        const part = await queue.run('c1', (writes) => foldLinkTallies(writes, { maxUrls: 3 }), null);
        more = part?.more ?? false;
      }
      // The start page's row: rewritten by each of six transactions unmerged, once merged.
      assert.equal(store.rowWrites.get(`${A}/`), merge ? 1 : 6, merge ? 'merged' : 'not merged');
      held.push(await Promise.all(['/', '/q', '/n0'].map((path) => linksOf(store, `${A}${path}`))));
    }
    assert.deepEqual(held[1], held[0]);
    assert.deepEqual(
      (held[1] as { inlinks: number; anchors: string[] }[]).map((l) => l.inlinks),
      [6, 7, 1],
    );
    assert.deepEqual(
      (held[1] as { anchors: string[] }[])[0]?.anchors.slice(0, 2),
      ['Home 0', 'Home 1'],
      'anchor texts in the order found',
    );
  });

  it('leaves tallies that fit in one fold as they are', async () => {
    const { store, queue } = await setUp(4);
    await queue.run(
      'c1',
      async (writes) => void (await admit(writes, [link('/', 'Home'), link('/q', 'Q')])),
      undefined,
    );
    const before = await store.transaction((tx) => tx.linkTallies('c1'));
    assert.equal(await queue.run('c1', (writes) => mergeLinkTallies(writes, 2), null), false);
    assert.deepEqual(await store.transaction((tx) => tx.linkTallies('c1')), before);
  });

  it('tallies at one request per host too, and the fold counts the link', async () => {
    const { store, queue } = await setUp(1);
    await queue.run('c1', async (writes) => void (await admit(writes, [link('/', 'Home')])), undefined);
    assert.deepEqual(await linksOf(store, `${A}/`), { inlinks: 0, anchors: [], as: 'row' });
    assert.equal((await store.transaction((tx) => tx.linkTallies('c1'))).length, 1);
    await queue.run('c1', (writes) => foldLinkTallies(writes), null);
    assert.deepEqual(await linksOf(store, `${A}/`), { inlinks: 1, anchors: ['Home'], as: 'row' });
  });
});

/**
 * The {@link CrawlStore} of the extension: crawls kept in IndexedDB through
 * Dexie. Behaves as the in-memory reference store (`memory-store.ts`); both
 * pass the same contract suite (`test/support/store-contract.ts`).
 *
 * Transactions: {@link DexieCrawlStore.transaction} runs the work in one
 * read-write IndexedDB transaction over all its tables. The work's calls go
 * through tables bound to that transaction (`Transaction.table`), not through
 * Dexie's ambient zone, so a call can never slip into a transaction of its own.
 * IndexedDB keeps a transaction alive while it has requests pending, and the
 * continuation of an `await` on a request runs as a microtask of the request's
 * success event, while the transaction is still active: a work that awaits
 * only tx calls (native `async`/`await` included) stays in its transaction to
 * the end (Dexie 4's own zone tracking of native `await` is not needed for
 * this). A work that awaits anything else (a timer, `fetch`, Web Crypto) lets
 * IndexedDB commit while it waits: the writes made before that await are
 * committed, and its next tx call rejects with `TransactionInactiveError`
 * (or the transaction with `PrematureCommitError` if there is none). Compute
 * hashes and fetch before the transaction, never inside it.
 *
 * Read-write transactions over the same tables never overlap: IndexedDB starts
 * a transaction only after every earlier overlapping one has finished, in the
 * order they were created. The single-table reads outside `transaction` see
 * the state after every transaction created before them.
 */
import { Dexie, type Collection, type Table, type Transaction } from 'dexie';
import { StorageFullError, type CrawlStore, type StoredBody, type StoreTx } from '../core/crawl/ports.ts';
import type {
  CrawlRecord,
  HostState,
  NotCrawledReason,
  NotCrawledUrl,
  PageRecord,
  RenderEntry,
} from '../core/model.ts';
import {
  fromFrontierRow,
  fromPageRow,
  toFrontierRow,
  toPageRow,
  type CrawlScopedKey,
  type FrontierRow,
  type PageRow,
  type TabcrawlDatabase,
} from './database.ts';
import {
  chunkOf,
  emptyFacetCounts,
  emptyResultsChunk,
  recordRows,
  type FacetCounts,
  type ResultsChunk,
} from './results-chunks.ts';

/**
 * Whether an error (or one it wraps: Dexie's `inner`, an `Error.cause`) is
 * IndexedDB's `QuotaExceededError`: the origin's quota or the disk is full.
 * The transaction it ended wrote nothing.
 */
export function isQuotaError(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { name, inner, cause } = error as { name?: unknown; inner?: unknown; cause?: unknown };
  return name === 'QuotaExceededError' || isQuotaError(inner, depth + 1) || isQuotaError(cause, depth + 1);
}

/** The same table, bound to `trans`: its calls run in that transaction or fail. */
function bound<T, K>(trans: Transaction, table: Table<T, K>): Table<T, K> {
  return trans.table<T, K>(table.name);
}

export class DexieCrawlStore implements CrawlStore {
  constructor(private readonly db: TabcrawlDatabase) {}

  /** Every table a crawl writes: a read-write transaction spans them all. */
  private get crawlTables(): Table[] {
    const { crawls, hosts, frontier, pages, bodies, resultChunks, facetCounts, linkTallies, notCrawled, renders } =
      this.db;
    return [crawls, hosts, frontier, pages, bodies, resultChunks, facetCounts, linkTallies, notCrawled, renders];
  }

  transaction<T>(work: (tx: StoreTx) => Promise<T>): Promise<T> {
    return this.db
      .transaction('rw', this.crawlTables, async (trans) => {
        const writes = new PipelinedWrites(trans.idbtrans);
        const result = await work(this.txOver(trans, writes));
        await writes.settled();
        return result;
      })
      .catch((error: unknown) => {
        throw isQuotaError(error)
          ? new StorageFullError(
              `IndexedDB refused the write: ${error instanceof Error ? error.message : String(error)}`,
            )
          : error;
      });
  }

  /**
   * @param writes where the transaction's writes are sent: they are not awaited one by one (see
   *   {@link PipelinedWrites}), so a step's transaction waits for the store only where it reads.
   */
  private txOver(trans: Transaction, writes: PipelinedWrites): StoreTx {
    const crawls = bound(trans, this.db.crawls);
    const hosts = bound(trans, this.db.hosts);
    const frontier = bound(trans, this.db.frontier);
    const pages = bound(trans, this.db.pages);
    const bodies = bound(trans, this.db.bodies);
    const resultChunks = bound(trans, this.db.resultChunks);
    const facetCounts = bound(trans, this.db.facetCounts);
    const linkTallies = bound(trans, this.db.linkTallies);
    const notCrawled = bound(trans, this.db.notCrawled);
    const renders = bound(trans, this.db.renders);
    const reads = new NativeReads(trans.idbtrans);
    return {
      // The reads of every page's transaction go to IndexedDB directly: Dexie's promise and zone machinery
      // around each was about a tenth of the worker's time per page (issue 19's profile).
      getCrawl: (crawlId) => reads.get<CrawlRecord>(crawls.name, crawlId),
      putCrawl: (crawl) => writes.put(crawls.name, [crawl]),

      getHost: (crawlId, origin) => reads.get<HostState>(hosts.name, [crawlId, origin]),
      putHosts: (rows) => writes.put(hosts.name, rows),
      listHosts: (crawlId) =>
        hosts.where('[crawlId+origin]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).toArray(),

      getEntries: async (crawlId, urls) => {
        const rows = await reads.getMany<FrontierRow>(
          frontier.name,
          urls.map((url) => [crawlId, url]),
        );
        return rows.map((row) => (row === undefined ? undefined : fromFrontierRow(row)));
      },
      putEntries: (entries) => writes.put(frontier.name, entries.map(toFrontierRow)),
      deleteEntries: (crawlId, urls) =>
        writes.delete(
          frontier.name,
          urls.map((url) => [crawlId, url]),
        ),
      nextEntry: async (crawlId, origin) => {
        // The first row of the host's queue index: one request, no cursor.
        const row = await reads.first<FrontierRow>(
          frontier.name,
          QUEUE_INDEX,
          IDBKeyRange.bound([crawlId, origin, -Infinity], [crawlId, origin, Infinity]),
        );
        return row === undefined ? undefined : fromFrontierRow(row);
      },
      leasedEntries: async (crawlId) => {
        const rows = await frontier
          .where('[crawlId+leaseRunId]')
          .between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey])
          .toArray();
        return rows.map(fromFrontierRow);
      },
      queuedEntries: async (crawlId, origin, limit) => {
        if (limit <= 0) return [];
        const rows = await queuedOfHost(frontier, crawlId, origin).limit(limit).toArray();
        return rows.map(fromFrontierRow);
      },

      getPages: async (crawlId, urls) => {
        const rows = await reads.getMany<PageRow>(
          pages.name,
          urls.map((url) => [crawlId, url]),
        );
        return rows.map((row) => (row === undefined ? undefined : fromPageRow(row)));
      },
      putPages: (records) => {
        const rows = records.map(toPageRow);
        // The derived records are read, then written: one change after the other, in the order of the calls.
        writes.then(() => recordDerived(resultChunks, facetCounts, rows));
        return writes.put(pages.name, rows);
      },

      knownOf: async (crawlId, urls) => {
        if (urls.length === 0) return [];
        // Keys only, and every lookup sent at once: IDBObjectStore.getKey reads no record, and unlike a
        // cursor jumping from key to key (Dexie's anyOf) it does not wait for one answer before the next.
        const native = trans.idbtrans;
        const lookups = (store: string): IDBRequest<IDBValidKey | undefined>[] =>
          urls.map((url) => native.objectStore(store).getKey([crawlId, url]));
        const found = await answers([...lookups(this.db.pages.name), ...lookups(this.db.frontier.name)]);
        return urls.map((_, i) => found[i] !== undefined || found[urls.length + i] !== undefined);
      },
      putLinkTally: (tally) => writes.put(linkTallies.name, [tally]),
      linkTallies: (crawlId) =>
        linkTallies.where('[crawlId+batch]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).toArray(),
      deleteLinkTallyBatches: (crawlId, batches) =>
        writes.delete(
          linkTallies.name,
          batches.map((batch) => [crawlId, batch]),
        ),
      bodyOwner: async (crawlId, sha256) => (await reads.get<StoredBody>(bodies.name, [crawlId, sha256]))?.url,
      putBody: (body) => writes.put(bodies.name, [body]),
      putNotCrawled: (urls) => writes.put(notCrawled.name, urls),
      notCrawledAfter: (crawlId, afterUrl, limit) => notCrawledAfter(notCrawled, crawlId, afterUrl, limit, null),
      deleteNotCrawled: async (crawlId, urls) =>
        void (await notCrawled.bulkDelete(urls.map((url): CrawlScopedKey => [crawlId, url]))),
      putRenders: (entries) => writes.put(renders.name, entries),
      nextRender: (crawlId) =>
        reads.first<RenderEntry>(
          renders.name,
          '[crawlId+seq]',
          IDBKeyRange.bound([crawlId, -Infinity], [crawlId, Infinity]),
        ),
      deleteRender: (crawlId, url) => writes.delete(renders.name, [[crawlId, url]]),
    };
  }

  listCrawls(): Promise<CrawlRecord[]> {
    return this.read(this.db.crawls, (crawls) => crawls.orderBy('createdAt').reverse().toArray());
  }

  getCrawl(crawlId: string): Promise<CrawlRecord | undefined> {
    return this.read(this.db.crawls, (crawls) => crawls.get(crawlId));
  }

  knownUrls(crawlId: string): Promise<string[]> {
    const { pages, frontier } = this.db;
    return this.db.transaction('r', [pages, frontier], async (trans) => {
      const ofCrawl = <T>(table: Table<T, CrawlScopedKey>): Promise<CrawlScopedKey[]> =>
        bound(trans, table)
          .where('[crawlId+url]')
          .between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey])
          .primaryKeys();
      const [rows, queued] = await Promise.all([ofCrawl(pages), ofCrawl(frontier)]);
      return [...rows, ...queued].map(([, url]) => url);
    });
  }

  listHosts(crawlId: string): Promise<HostState[]> {
    return this.read(this.db.hosts, (hosts) =>
      hosts.where('[crawlId+origin]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).toArray(),
    );
  }

  async pagesAfter(crawlId: string, afterSeq: number, limit: number): Promise<PageRecord[]> {
    if (limit <= 0) return [];
    return this.read(this.db.pages, (pages) =>
      pages
        .where('[crawlId+seq]')
        .between([crawlId, afterSeq], [crawlId, Dexie.maxKey], false, true)
        .limit(limit)
        .toArray()
        .then((rows) => rows.map(fromPageRow)),
    );
  }

  async latestPages(crawlId: string, limit: number): Promise<PageRecord[]> {
    if (limit <= 0) return [];
    return this.read(this.db.pages, (pages) =>
      pages
        .where('[crawlId+seq]')
        .between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey])
        .reverse()
        .limit(limit)
        .toArray()
        .then((rows) => rows.map(fromPageRow)),
    );
  }

  getBody(crawlId: string, sha256: string): Promise<StoredBody | undefined> {
    return this.read(this.db.bodies, (bodies) => bodies.get([crawlId, sha256]));
  }

  getBodies(crawlId: string, sha256s: readonly string[]): Promise<(StoredBody | undefined)[]> {
    if (sha256s.length === 0) return Promise.resolve([]);
    return this.read(this.db.bodies, (bodies) =>
      bodies.bulkGet(sha256s.map((sha256): CrawlScopedKey => [crawlId, sha256])),
    );
  }

  notCrawledAfter(
    crawlId: string,
    afterUrl: string | null,
    limit: number,
    reason: NotCrawledReason | null = null,
  ): Promise<NotCrawledUrl[]> {
    return this.read(this.db.notCrawled, (table) => notCrawledAfter(table, crawlId, afterUrl, limit, reason));
  }

  /** Removes the crawl record and its hosts, frontier, pages, bodies and derived records, in one transaction. */
  async deleteCrawl(crawlId: string): Promise<void> {
    await this.db.transaction('rw', this.crawlTables, (trans) => this.deleteParts(trans, crawlId));
  }

  /**
   * Removes the parts stored under crawl ids that have no crawl record, in one transaction. Keys only: the
   * distinct crawl ids of each table are found by skipping from one id to the next on its `[crawlId+…]`
   * primary key (one lookup per crawl id, not one per row).
   */
  async deleteOrphans(): Promise<number> {
    const { crawls, hosts, frontier, pages, bodies, resultChunks, facetCounts, linkTallies, notCrawled, renders } =
      this.db;
    return this.db.transaction('rw', this.crawlTables, async (trans) => {
      const known = new Set(await bound(trans, crawls).toCollection().primaryKeys());
      const orphans = new Set<string>();
      for (const table of [pages, bodies, hosts, frontier, linkTallies, resultChunks, notCrawled, renders] as Table<
        unknown,
        [string, unknown]
      >[]) {
        const scoped = bound(trans, table);
        let next = await scoped.toCollection().limit(1).primaryKeys();
        while (next[0] !== undefined) {
          const crawlId = next[0][0];
          if (!known.has(crawlId)) orphans.add(crawlId);
          next = await scoped.where(':id').above([crawlId, Dexie.maxKey]).limit(1).primaryKeys();
        }
      }
      for (const crawlId of await bound(trans, facetCounts).toCollection().primaryKeys())
        if (!known.has(crawlId)) orphans.add(crawlId);
      for (const crawlId of orphans) await this.deleteParts(trans, crawlId);
      return orphans.size;
    });
  }

  /** Deletes the crawl record and every part of the crawl, in the transaction `trans`. */
  private async deleteParts(trans: Transaction, crawlId: string): Promise<void> {
    const { crawls, hosts, frontier, pages, bodies, resultChunks, facetCounts, linkTallies, notCrawled, renders } =
      this.db;
    const ofCrawl = <T, K>(table: Table<T, K>, keyPath: string): Promise<number> =>
      bound(trans, table).where(keyPath).between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).delete();
    await Promise.all([
      bound(trans, crawls).delete(crawlId),
      ofCrawl(hosts, '[crawlId+origin]'),
      ofCrawl(frontier, '[crawlId+url]'),
      ofCrawl(pages, '[crawlId+url]'),
      ofCrawl(bodies, '[crawlId+sha256]'),
      ofCrawl(resultChunks, '[crawlId+chunk]'),
      ofCrawl(linkTallies, '[crawlId+batch]'),
      ofCrawl(notCrawled, '[crawlId+url]'),
      ofCrawl(renders, '[crawlId+url]'),
      bound(trans, facetCounts).delete(crawlId),
    ]);
  }

  /**
   * Runs `query` in a read-only transaction of its own. Going through
   * `Dexie.transaction` like {@link transaction} does keeps the calls in the
   * order they were made even while the database is still opening (a bare
   * `table.get` would overtake a transaction queued before it), so a read sees
   * every transaction started before it, as with the in-memory store.
   */
  private read<T, K, R>(table: Table<T, K>, query: (table: Table<T, K>) => PromiseLike<R>): Promise<R> {
    return this.db.transaction('r', [table], (trans) => query(bound(trans, table)));
  }
}

/**
 * Keeps the result chunks and facet counts (schema version 4, see
 * `results-chunks.ts`) in step with written rows: reads the chunks and counts
 * the rows fall in (one request each), records every row, writes back those
 * that changed (a rewrite that only merged anchor texts changes none). Awaits
 * only calls of the bound tables, so it stays in the caller's transaction.
 */
async function recordDerived(
  resultChunks: Table<ResultsChunk, [string, number]>,
  facetCounts: Table<FacetCounts, string>,
  rows: PageRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const chunkKeys = new Map<string, [string, number]>();
  for (const row of rows) chunkKeys.set(`${chunkOf(row.seq)} ${row.crawlId}`, [row.crawlId, chunkOf(row.seq)]);
  const crawlIds = [...new Set(rows.map((row) => row.crawlId))];
  const [chunks, counts] = await Promise.all([
    resultChunks.bulkGet([...chunkKeys.values()]),
    facetCounts.bulkGet(crawlIds),
  ]);
  const chunkByKey = new Map<string, ResultsChunk>();
  [...chunkKeys].forEach(([key, [crawlId, chunk]], i) =>
    chunkByKey.set(key, chunks[i] ?? emptyResultsChunk(crawlId, chunk)),
  );
  const countsByCrawl = new Map<string, FacetCounts>();
  crawlIds.forEach((crawlId, i) => countsByCrawl.set(crawlId, counts[i] ?? emptyFacetCounts(crawlId)));
  const changed = recordRows(
    rows,
    (crawlId, chunk) => chunkByKey.get(`${chunk} ${crawlId}`) ?? emptyResultsChunk(crawlId, chunk),
    (crawlId) => countsByCrawl.get(crawlId) ?? emptyFacetCounts(crawlId),
  );
  if (changed.chunks.length === 0) return;
  await Promise.all([resultChunks.bulkPut(changed.chunks), facetCounts.bulkPut(changed.counts)]);
}

/**
 * The writes of one read-write transaction, sent to IndexedDB as they come
 * and not awaited one by one: IndexedDB runs a transaction's requests in the
 * order they were made, so a read made after a write sees it, and the
 * transaction waits for the store only where its work reads. A step's
 * transaction at one request per host made about fifteen round trips to the
 * browser's IndexedDB backend one after the other, ten of them writes (issue 19).
 *
 * Each call resolves at once. {@link settled} resolves when every write has
 * succeeded and rejects with the first failure; a failed request also aborts
 * the transaction (IndexedDB's default), so nothing of it is stored, as when
 * each write was awaited. Values are cloned when the call is made: changing
 * an object after writing it does not change what is stored.
 */
class PipelinedWrites {
  private readonly pending: Promise<unknown>[] = [];
  /** The last of the chained works (see {@link then}). */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly trans: IDBTransaction) {}

  put(store: string, values: readonly unknown[]): Promise<void> {
    if (values.length > 0) {
      const target = this.trans.objectStore(store);
      this.track(answers(values.map((value) => target.put(value))));
    }
    return Promise.resolve();
  }

  delete(store: string, keys: readonly IDBValidKey[]): Promise<void> {
    if (keys.length > 0) {
      const target = this.trans.objectStore(store);
      this.track(answers(keys.map((key) => target.delete(key))));
    }
    return Promise.resolve();
  }

  /**
   * Runs `work` (which awaits only requests of this transaction) after the works chained before it, for a
   * read-then-write that must not interleave with another of its kind.
   */
  then(work: () => Promise<unknown>): void {
    this.chain = this.chain.then(work);
    this.track(this.chain);
  }

  /** Every write sent so far has succeeded (or the first failure). */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }

  private track(write: Promise<unknown>): void {
    // Handled here so that a failure is not reported as unhandled before `settled` is awaited.
    write.catch(() => undefined);
    this.pending.push(write);
  }
}

/** The frontier's index of queued entries by host, in queue order (see `database.ts`). */
const QUEUE_INDEX = '[crawlId+origin+queuedSeq]';

/**
 * Reads of one transaction, made on IndexedDB itself. Each resolves with
 * the stored value (a structured clone, as through Dexie) or undefined.
 */
class NativeReads {
  constructor(private readonly trans: IDBTransaction) {}

  async get<T>(store: string, key: IDBValidKey): Promise<T | undefined> {
    const [value] = await answers<T | undefined>([this.trans.objectStore(store).get(key)]);
    return value;
  }

  /** Values of these keys, in order, every request sent at once. */
  getMany<T>(store: string, keys: readonly IDBValidKey[]): Promise<(T | undefined)[]> {
    const target = this.trans.objectStore(store);
    return answers<T | undefined>(keys.map((key) => target.get(key)));
  }

  /** The record of `index` with the lowest key in `range`. */
  async first<T>(store: string, index: string, range: IDBKeyRange): Promise<T | undefined> {
    const [value] = await answers<T | undefined>([this.trans.objectStore(store).index(index).get(range)]);
    return value;
  }
}

/**
 * The results of IndexedDB requests, in order, once all have succeeded; the
 * first error otherwise. The requests are all in flight together.
 */
function answers<T>(requests: IDBRequest<T>[]): Promise<T[]> {
  return new Promise<T[]>((resolve, reject) => {
    const results = new Array<T>(requests.length);
    let left = requests.length;
    if (left === 0) resolve(results);
    requests.forEach((request, i) => {
      request.onsuccess = () => {
        results[i] = request.result;
        left -= 1;
        if (left === 0) resolve(results);
      };
      request.onerror = () => reject(request.error);
    });
  });
}

/** Queued entries of one host in `seq` order: a range of the queued-only index. */
function queuedOfHost(
  frontier: Table<FrontierRow, CrawlScopedKey>,
  crawlId: string,
  origin: string,
): Collection<FrontierRow, CrawlScopedKey> {
  return frontier
    .where('[crawlId+origin+queuedSeq]')
    .between([crawlId, origin, Dexie.minKey], [crawlId, origin, Dexie.maxKey]);
}

/**
 * URLs left unvisited of one crawl, after `afterUrl` (null: from the first) in URL order, at most `limit`;
 * of one reason only when `reason` is given (its own index).
 */
function notCrawledAfter(
  table: Table<NotCrawledUrl, CrawlScopedKey>,
  crawlId: string,
  afterUrl: string | null,
  limit: number,
  reason: NotCrawledReason | null,
): Promise<NotCrawledUrl[]> {
  if (limit <= 0) return Promise.resolve([]);
  const after = afterUrl ?? Dexie.minKey;
  const range =
    reason === null
      ? table.where('[crawlId+url]').between([crawlId, after], [crawlId, Dexie.maxKey], afterUrl === null, true)
      : table
          .where('[crawlId+reason+url]')
          .between([crawlId, reason, after], [crawlId, reason, Dexie.maxKey], afterUrl === null, true);
  return range.limit(limit).toArray();
}

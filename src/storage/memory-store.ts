/**
 * An in-memory {@link CrawlStore}: the reference implementation of the store
 * contract, used by the crawl core's tests. Transactions run one at a time;
 * a transaction that throws leaves nothing behind (writes are staged and
 * applied only when the work function returns).
 */
import {
  StorageFullError,
  type CrawlStore,
  type LinkTally,
  type StoredBody,
  type StoreTx,
} from '../core/crawl/ports.ts';
import type {
  CrawlRecord,
  FrontierEntry,
  HostState,
  NotCrawledReason,
  NotCrawledUrl,
  PageRecord,
  RenderEntry,
} from '../core/model.ts';

const key = (crawlId: string, id: string): string => `${crawlId}\u0000${id}`;

interface Tables {
  crawls: Map<string, CrawlRecord>;
  hosts: Map<string, HostState>;
  entries: Map<string, FrontierEntry>;
  pages: Map<string, PageRecord>;
  bodies: Map<string, StoredBody>;
  /** By crawl and batch number. */
  tallies: Map<string, LinkTally>;
  notCrawled: Map<string, NotCrawledUrl>;
  renders: Map<string, RenderEntry>;
}

function emptyTables(): Tables {
  return {
    crawls: new Map(),
    hosts: new Map(),
    entries: new Map(),
    pages: new Map(),
    bodies: new Map(),
    tallies: new Map(),
    notCrawled: new Map(),
    renders: new Map(),
  };
}

/** The tables holding a crawl's parts, by crawl id. */
const CRAWL_PARTS = ['hosts', 'entries', 'pages', 'bodies', 'tallies', 'notCrawled', 'renders'] as const;

/** Deep copy through structured clone, as IndexedDB does: callers never share objects with the store. */
const copy = <T>(value: T): T => structuredClone(value);

/** Options of {@link MemoryCrawlStore}. */
export interface MemoryStoreOptions {
  /**
   * Most body bytes stored at once (all crawls): a transaction that would
   * leave more throws {@link StorageFullError} and writes nothing, as a full
   * quota does. @default Infinity
   */
  bodyBytesLimit?: number;
}

export class MemoryCrawlStore implements CrawlStore {
  private tables: Tables = emptyTables();
  private queue: Promise<unknown> = Promise.resolve();
  /** See {@link MemoryStoreOptions.bodyBytesLimit}; tests raise it to "free space". */
  bodyBytesLimit: number;

  constructor(options: MemoryStoreOptions = {}) {
    this.bodyBytesLimit = options.bodyBytesLimit ?? Infinity;
  }

  /** Runs `fn` after every earlier operation, one at a time. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  transaction<T>(work: (tx: StoreTx) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      const staged: Tables = {
        crawls: new Map(this.tables.crawls),
        hosts: new Map(this.tables.hosts),
        entries: new Map(this.tables.entries),
        pages: new Map(this.tables.pages),
        bodies: new Map(this.tables.bodies),
        tallies: new Map(this.tables.tallies),
        notCrawled: new Map(this.tables.notCrawled),
        renders: new Map(this.tables.renders),
      };
      const result = await work(this.txOver(staged));
      if (this.bodyBytesLimit !== Infinity) {
        const bodyBytes = (tables: Tables): number =>
          [...tables.bodies.values()].reduce((sum, body) => sum + body.bytes.byteLength, 0);
        const after = bodyBytes(staged);
        // Like a quota: a transaction that adds bytes past the limit is refused; one that adds none passes.
        if (after > this.bodyBytesLimit && after > bodyBytes(this.tables)) {
          throw new StorageFullError(`${after} body bytes would pass the limit of ${this.bodyBytesLimit}`);
        }
      }
      this.tables = staged;
      return result;
    });
  }

  private txOver(t: Tables): StoreTx {
    const ofCrawl = <V extends { crawlId: string }>(map: Map<string, V>, crawlId: string): V[] =>
      [...map.values()].filter((v) => v.crawlId === crawlId);
    return {
      getCrawl: async (id) => copy(t.crawls.get(id)),
      putCrawl: async (crawl) => void t.crawls.set(crawl.id, copy(crawl)),
      getHost: async (crawlId, origin) => copy(t.hosts.get(key(crawlId, origin))),
      putHosts: async (hosts) => hosts.forEach((h) => t.hosts.set(key(h.crawlId, h.origin), copy(h))),
      listHosts: async (crawlId) => copy(ofCrawl(t.hosts, crawlId)),
      getEntries: async (crawlId, urls) => urls.map((u) => copy(t.entries.get(key(crawlId, u)))),
      putEntries: async (entries) => entries.forEach((e) => t.entries.set(key(e.crawlId, e.url), copy(e))),
      deleteEntries: async (crawlId, urls) => urls.forEach((u) => t.entries.delete(key(crawlId, u))),
      nextEntry: async (crawlId, origin) => {
        let best: FrontierEntry | undefined;
        for (const e of t.entries.values()) {
          if (e.crawlId === crawlId && e.origin === origin && e.leaseRunId === null && (!best || e.seq < best.seq))
            best = e;
        }
        return copy(best);
      },
      leasedEntries: async (crawlId) => copy(ofCrawl(t.entries, crawlId).filter((e) => e.leaseRunId !== null)),
      queuedEntries: async (crawlId, origin, limit) =>
        copy(
          ofCrawl(t.entries, crawlId)
            .filter((e) => e.origin === origin && e.leaseRunId === null)
            .sort((a, b) => a.seq - b.seq)
            .slice(0, limit),
        ),
      getPages: async (crawlId, urls) => urls.map((u) => copy(t.pages.get(key(crawlId, u)))),
      putPages: async (pages) => pages.forEach((p) => t.pages.set(key(p.crawlId, p.url), copy(p))),
      knownOf: async (crawlId, urls) => urls.map((u) => t.pages.has(key(crawlId, u)) || t.entries.has(key(crawlId, u))),
      putLinkTally: async (tally) => void t.tallies.set(key(tally.crawlId, String(tally.batch)), copy(tally)),
      linkTallies: async (crawlId) => copy(ofCrawl(t.tallies, crawlId).sort((a, b) => a.batch - b.batch)),
      deleteLinkTallyBatches: async (crawlId, batches) =>
        batches.forEach((batch) => t.tallies.delete(key(crawlId, String(batch)))),
      bodyOwner: async (crawlId, sha256) => t.bodies.get(key(crawlId, sha256))?.url,
      putBody: async (body) => void t.bodies.set(key(body.crawlId, body.sha256), copy(body)),
      putNotCrawled: async (urls) => urls.forEach((u) => t.notCrawled.set(key(u.crawlId, u.url), copy(u))),
      notCrawledAfter: async (crawlId, afterUrl, limit) => copy(notCrawledAfter(t, crawlId, afterUrl, limit, null)),
      deleteNotCrawled: async (crawlId, urls) => urls.forEach((u) => t.notCrawled.delete(key(crawlId, u))),
      putRenders: async (entries) => entries.forEach((e) => t.renders.set(key(e.crawlId, e.url), copy(e))),
      nextRender: async (crawlId) => copy(ofCrawl(t.renders, crawlId).sort((a, b) => a.seq - b.seq)[0]),
      deleteRender: async (crawlId, url) => void t.renders.delete(key(crawlId, url)),
    };
  }

  async listCrawls(): Promise<CrawlRecord[]> {
    await this.queue;
    return copy([...this.tables.crawls.values()].sort((a, b) => b.createdAt - a.createdAt));
  }

  async getCrawl(crawlId: string): Promise<CrawlRecord | undefined> {
    await this.queue;
    return copy(this.tables.crawls.get(crawlId));
  }

  async pagesAfter(crawlId: string, afterSeq: number, limit: number): Promise<PageRecord[]> {
    await this.queue;
    const rows = [...this.tables.pages.values()].filter((p) => p.crawlId === crawlId && p.seq > afterSeq);
    return copy(rows.sort((a, b) => a.seq - b.seq).slice(0, limit));
  }

  async latestPages(crawlId: string, limit: number): Promise<PageRecord[]> {
    await this.queue;
    const rows = [...this.tables.pages.values()].filter((p) => p.crawlId === crawlId);
    return copy(rows.sort((a, b) => b.seq - a.seq).slice(0, limit));
  }

  async getBody(crawlId: string, sha256: string): Promise<StoredBody | undefined> {
    await this.queue;
    return copy(this.tables.bodies.get(key(crawlId, sha256)));
  }

  async getBodies(crawlId: string, sha256s: readonly string[]): Promise<(StoredBody | undefined)[]> {
    await this.queue;
    return sha256s.map((sha256) => copy(this.tables.bodies.get(key(crawlId, sha256))));
  }

  async notCrawledAfter(
    crawlId: string,
    afterUrl: string | null,
    limit: number,
    reason: NotCrawledReason | null = null,
  ): Promise<NotCrawledUrl[]> {
    await this.queue;
    return copy(notCrawledAfter(this.tables, crawlId, afterUrl, limit, reason));
  }

  async knownUrls(crawlId: string): Promise<string[]> {
    await this.queue;
    return [...this.tables.pages.values(), ...this.tables.entries.values()]
      .filter((record) => record.crawlId === crawlId)
      .map((record) => record.url);
  }

  async listHosts(crawlId: string): Promise<HostState[]> {
    await this.queue;
    return copy([...this.tables.hosts.values()].filter((host) => host.crawlId === crawlId));
  }

  async deleteCrawl(crawlId: string): Promise<void> {
    await this.exclusive(async () => this.removeCrawls(new Set([crawlId])));
  }

  async deleteOrphans(): Promise<number> {
    return this.exclusive(async () => {
      const orphans = new Set<string>();
      for (const name of CRAWL_PARTS) {
        for (const { crawlId } of this.tables[name].values())
          if (!this.tables.crawls.has(crawlId)) orphans.add(crawlId);
      }
      this.removeCrawls(orphans);
      return orphans.size;
    });
  }

  private removeCrawls(crawlIds: ReadonlySet<string>): void {
    if (crawlIds.size === 0) return;
    for (const crawlId of crawlIds) this.tables.crawls.delete(crawlId);
    for (const name of CRAWL_PARTS) {
      const map: Map<string, { crawlId: string }> = this.tables[name];
      for (const [k, v] of map) if (crawlIds.has(v.crawlId)) map.delete(k);
    }
  }
}

/** As the Dexie store orders them: by URL (code units, as IndexedDB compares strings), after `afterUrl`. */
function notCrawledAfter(
  t: Tables,
  crawlId: string,
  afterUrl: string | null,
  limit: number,
  reason: NotCrawledReason | null,
): NotCrawledUrl[] {
  return [...t.notCrawled.values()]
    .filter(
      (u) =>
        u.crawlId === crawlId && (reason === null || u.reason === reason) && (afterUrl === null || u.url > afterUrl),
    )
    .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))
    .slice(0, Math.max(0, limit));
}

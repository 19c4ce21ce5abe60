/**
 * The extension's IndexedDB database: one typed Dexie class and its schema.
 *
 * Records are stored as the model types ({@link CrawlRecord}, {@link HostState},
 * {@link FrontierEntry}, {@link PageRecord}, {@link StoredBody}). The frontier
 * alone carries one storage-only field ({@link FrontierRow.queuedSeq}); it is
 * added by {@link toFrontierRow} and stripped by {@link fromFrontierRow}, so the
 * records callers see equal the model types exactly.
 *
 * Indexes, and the query each one serves:
 *
 * | table      | primary key           | indexes                          | served query                                  |
 * | ---------- | --------------------- | -------------------------------- | --------------------------------------------- |
 * | `crawls`   | `id`                  | `createdAt`                      | list crawls newest first                      |
 * | `hosts`    | `[crawlId+origin]`    | (key prefix `crawlId`)           | hosts of a crawl; delete by crawl             |
 * | `frontier` | `[crawlId+url]`       | `[crawlId+origin+queuedSeq]`     | next / first n queued entries of one host     |
 * |            |                       | `[crawlId+leaseRunId]`           | leased entries of a crawl                     |
 * | `pages`    | `[crawlId+url]`       | `[crawlId+seq]`                  | pages after a seq (export), latest pages      |
 * | `bodies`   | `[crawlId+sha256]`    | (key prefix `crawlId`)           | body by hash; delete by crawl                 |
 *
 * IndexedDB leaves a record out of an index when the index key is not a valid
 * key (`null`, `undefined`, missing), also when only one part of a compound key
 * is. Two frontier indexes rely on that and hold only the rows they serve:
 * `[crawlId+leaseRunId]` holds leased entries only (`leaseRunId` is null while
 * queued), and `[crawlId+origin+queuedSeq]` holds queued entries only
 * (`queuedSeq` is absent while leased). So `nextEntry` is one index lookup,
 * however long the host's queue and however many entries are leased.
 */
import { Dexie, type Table } from 'dexie';
import type { StoredBody } from '../core/crawl/ports.ts';
import type { CrawlRecord, FrontierEntry, HostState, PageRecord } from '../core/model.ts';

/** Name of the extension's database. Tests pass their own, one per test. */
export const DEFAULT_DATABASE_NAME = 'tabcrawl';

/** A key of the tables keyed by crawl and one more string: `[crawlId, url | origin | sha256]`. */
export type CrawlScopedKey = [crawlId: string, id: string];

/** A frontier entry as stored. */
export interface FrontierRow extends FrontierEntry {
  /**
   * Storage only: equals `seq` while the entry is queued (`leaseRunId === null`),
   * absent while it is leased. Never present on a {@link FrontierEntry} handed out.
   */
  queuedSeq?: number;
}

/** The stored form of an entry: `queuedSeq` set exactly when it is queued. */
export function toFrontierRow(entry: FrontierEntry): FrontierRow {
  return entry.leaseRunId === null ? { ...entry, queuedSeq: entry.seq } : entry;
}

/** The entry a stored row stands for: the row without its storage-only fields. */
export function fromFrontierRow(row: FrontierRow): FrontierEntry {
  const { queuedSeq: _storageOnly, ...entry } = row;
  return entry;
}

export class TabcrawlDatabase extends Dexie {
  declare readonly crawls: Table<CrawlRecord, string>;
  declare readonly hosts: Table<HostState, CrawlScopedKey>;
  declare readonly frontier: Table<FrontierRow, CrawlScopedKey>;
  declare readonly pages: Table<PageRecord, CrawlScopedKey>;
  declare readonly bodies: Table<StoredBody, CrawlScopedKey>;

  /** @param name IndexedDB database name. @default "tabcrawl" */
  constructor(name: string = DEFAULT_DATABASE_NAME) {
    super(name);
    /**
     * Schema version 1, shipped with Tabcrawl 0.1.0.
     *
     * Never edit a shipped version: browsers that already hold the database
     * would keep the old schema (or fail to open it). To change the schema, add
     * `this.version(n + 1).stores({ ...changed tables only })` below, with an
     * `.upgrade(tx => ...)` that rewrites the existing rows to the new shape.
     */
    this.version(1).stores({
      crawls: 'id, createdAt',
      hosts: '[crawlId+origin]',
      frontier: '[crawlId+url], [crawlId+origin+queuedSeq], [crawlId+leaseRunId]',
      pages: '[crawlId+url], [crawlId+seq]',
      bodies: '[crawlId+sha256]',
    });
  }
}

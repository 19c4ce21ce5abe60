/**
 * The extension's IndexedDB database: one typed Dexie class and its schema.
 *
 * Records are stored as the model types ({@link CrawlRecord}, {@link HostState},
 * {@link FrontierEntry}, {@link PageRecord}, {@link StoredBody}). The frontier
 * alone carries one storage-only field ({@link FrontierRow.queuedSeq}); it is
 * added by {@link toFrontierRow} and stripped by {@link fromFrontierRow}, so the
 * records callers see equal the model types exactly. Pages likewise carry the
 * derived sort keys of {@link PageKeys} (schema version 2): added by
 * {@link toPageRow}, stripped by {@link fromPageRow}.
 *
 * Every results index ends in `seq` (unique within a crawl), so rows with equal
 * sort keys come in `seq` order: ascending walks break ties by ascending `seq`,
 * descending walks (the same index backwards) by descending `seq`.
 *
 * Indexes, and the query each one serves (the pages' sort indexes are derived
 * from the results columns, `results-columns.ts`, by {@link pagesIndexSchema}):
 *
 * | table          | primary key        | indexes                      | served query                                   |
 * | -------------- | ------------------ | ---------------------------- | ---------------------------------------------- |
 * | `crawls`       | `id`               | `createdAt`                  | list crawls newest first                       |
 * | `hosts`        | `[crawlId+origin]` | (key prefix `crawlId`)       | hosts of a crawl; delete by crawl              |
 * | `frontier`     | `[crawlId+url]`    | `[crawlId+origin+queuedSeq]` | next / first n queued entries of one host      |
 * |                |                    | `[crawlId+leaseRunId]`       | leased entries of a crawl                      |
 * | `pages`        | `[crawlId+url]`    | `[crawlId+seq]`              | pages after a seq (export), latest pages,      |
 * |                | (also: by URL)     |                              | results by seq                                 |
 * |                |                    | `[crawlId+statusKey+seq]`    | results by status (first windows, see below)   |
 * |                |                    | `[crawlId+mediaKey+seq]`     | results by content type                        |
 * |                |                    | `[crawlId+sizeKey+seq]`      | results by size                                |
 * |                |                    | `[crawlId+timeKey+seq]`      | results by response time                       |
 * |                |                    | `[crawlId+depth+seq]`        | results by depth                               |
 * |                |                    | `[crawlId+titleKey+seq]`     | results by title                               |
 * |                |                    | `[crawlId+inlinks+seq]`      | results by inlinks                             |
 * |                |                    | `[crawlId+indexKey+seq]`     | results by indexability (version 7)            |
 * |                |                    | `[crawlId+wordsKey+seq]`     | results by words                               |
 * |                |                    | `[crawlId+h1Key+seq]`        | results by number of h1                        |
 * |                |                    | `[crawlId+internalKey+seq]`  | results by internal links                      |
 * |                |                    | `[crawlId+outboundKey+seq]`  | results by outbound links                      |
 * |                |                    | `[crawlId+renderKey+seq]`    | results by rendered (version 10)               |
 * | `bodies`       | `[crawlId+sha256]` | (key prefix `crawlId`)       | body by hash; delete by crawl                  |
 * | `resultChunks` | `[crawlId+chunk]`  | `[crawlId+rev]`              | every filter (status, kind, type, depth, index-|
 * |                |                    |                              | ability),                                      |
 * |                |                    |                              | search and deep window: one read of all        |
 * |                |                    |                              | chunks, then only those written since          |
 * | `facetCounts`  | `crawlId`          |                              | facets, row count and revision: one `get`      |
 * | `linkTallies`  | `[crawlId+batch]`  | (key prefix `crawlId`)       | links not yet added to inlinks, in batch order |
 * | `notCrawled`   | `[crawlId+url]`    | `[crawlId+reason+url]`       | URLs left unvisited, all or of one reason,     |
 * |                |                    |                              | in URL order (version 8)                       |
 * | `renders`      | `[crawlId+url]`    | `[crawlId+seq]`              | pages waiting for their render, in order (10)  |
 *
 * The sort indexes answer an unfiltered window near either end of any sort at
 * once, while the results page is still reading the crawl's result chunks;
 * everything else is answered from the chunks (see `results-chunks.ts` for
 * their invariants and `dexie-page-queries.ts` for the strategy).
 *
 * IndexedDB leaves a record out of an index when the index key is not a valid
 * key (`null`, `undefined`, missing), also when only one part of a compound key
 * is. Two frontier indexes rely on that and hold only the rows they serve:
 * `[crawlId+leaseRunId]` holds leased entries only (`leaseRunId` is null while
 * queued), and `[crawlId+origin+queuedSeq]` holds queued entries only
 * (`queuedSeq` is absent while leased). So `nextEntry` is one index lookup,
 * however long the host's queue and however many entries are leased.
 */
import { Dexie, type Table, type Transaction } from 'dexie';
import type { LinkTally, StoredBody } from '../core/crawl/ports.ts';
import type { CrawlRecord, FrontierEntry, HostState, NotCrawledUrl, PageRecord, RenderEntry } from '../core/model.ts';
import { mediaTypeOf } from '../core/links/decode-html.ts';
import type { PageKeys, PageRow } from './page-row.ts';
import {
  chunkOf,
  emptyFacetCounts,
  emptyResultsChunk,
  recordRow,
  type FacetCounts,
  type ResultsChunk,
} from './results-chunks.ts';
import { PAGE_KEYS, pagesIndexSchema } from './results-columns.ts';

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

export type { PageKeys, PageRow } from './page-row.ts';

/** The media type rows are indexed by (`core/links/decode-html.ts`). */
export { mediaTypeOf };

/** The derived keys of a page: each computed as its column declares (`results-columns.ts`, {@link PAGE_KEYS}). */
export function pageKeysOf(page: PageRecord): PageKeys {
  const keys: Partial<Record<keyof PageKeys, number | string>> = {};
  for (const { field, keyOf } of PAGE_KEYS) keys[field] = keyOf(page);
  return keys as PageKeys;
}

/** The stored form of a page: the record with its derived keys. */
export function toPageRow(page: PageRecord): PageRow {
  return { ...page, ...pageKeysOf(page) };
}

/** The fields of {@link PageKeys}, which a stored row has and a record does not. */
const PAGE_KEY_FIELDS: ReadonlySet<string> = new Set(PAGE_KEYS.map((key) => key.field));

/** The page a stored row stands for: the row without its storage-only keys. */
export function fromPageRow(row: PageRow): PageRecord {
  const page: Record<string, unknown> = {};
  for (const field in row) if (!PAGE_KEY_FIELDS.has(field)) page[field] = row[field as keyof PageRow];
  const record = page as unknown as PageRecord;
  // Rows stored before resources were archived have none.
  record.resources ??= [];
  return record;
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

/** The pages schema of version 2. */
const PAGES_V2 =
  '[crawlId+url], [crawlId+seq], [crawlId+statusKey+seq], [crawlId+mediaKey+seq], [crawlId+sizeKey+seq], ' +
  '[crawlId+timeKey+seq], [crawlId+depth+seq], [crawlId+titleKey+seq], [crawlId+inlinks+seq], [crawlId+isDuplicate+seq]';

/**
 * The pages schema of version 4: version 2's without `[crawlId+isDuplicate+seq]` (the result chunks filter duplicates);
 * the sort index of every results column indexed by then (`results-columns.ts`).
 */
const PAGES_V4 = pagesIndexSchema(4);

/**
 * The pages schema of version 7: version 4's and the page facts' sort indexes (indexability, words, h1, internal and
 * outbound links), as `results-columns.ts` declares them (`indexedSince: 7`).
 */
const PAGES_V7 = pagesIndexSchema(7);

/** The pages schema of version 10: version 7's and the *Rendered* column's sort index (`indexedSince: 10`, issue 29). */
const PAGES_V10 = pagesIndexSchema(10);

/**
 * The pages schema of each version that declared one, derived from the results columns but for version 2's (a
 * shipped index since dropped). `test/unit/results-columns.test.ts` holds them as written when shipped: a version's
 * schema never changes.
 */
export const PAGES_SCHEMAS: Readonly<Record<number, string>> = Object.freeze({
  2: PAGES_V2,
  4: PAGES_V4,
  7: PAGES_V7,
  10: PAGES_V10,
});

export class TabcrawlDatabase extends Dexie {
  declare readonly crawls: Table<CrawlRecord, string>;
  declare readonly hosts: Table<HostState, CrawlScopedKey>;
  declare readonly frontier: Table<FrontierRow, CrawlScopedKey>;
  declare readonly pages: Table<PageRow, CrawlScopedKey>;
  declare readonly bodies: Table<StoredBody, CrawlScopedKey>;
  declare readonly resultChunks: Table<ResultsChunk, [crawlId: string, chunk: number]>;
  declare readonly facetCounts: Table<FacetCounts, string>;
  declare readonly linkTallies: Table<LinkTally, [crawlId: string, batch: number]>;
  declare readonly notCrawled: Table<NotCrawledUrl, CrawlScopedKey>;
  declare readonly renders: Table<RenderEntry, CrawlScopedKey>;

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
    /**
     * Schema version 2, Tabcrawl 0.2.0: the results browser's sort and filter
     * indexes on pages (see the table above), over the keys of {@link PageKeys},
     * which the upgrade fills in on every existing page row.
     */
    this.version(2)
      .stores({ pages: PAGES_V2 })
      .upgrade((trans) =>
        trans
          .table<PageRow, CrawlScopedKey>('pages')
          .toCollection()
          .modify((row) => void Object.assign(row, pageKeysOf(row))),
      );
    /**
     * Schema version 3, Tabcrawl 0.3.0: the derived `searchChunks` and
     * `facetCounts` records. Its upgrade (building them from the rows) is gone:
     * version 4 replaces the chunks and rebuilds both from the rows, so an
     * older database passes through version 3 with these tables empty.
     */
    this.version(3).stores({ searchChunks: '[crawlId+chunk]', facetCounts: 'crawlId' });
    /**
     * Schema version 4, Tabcrawl 0.4.0: `resultChunks` replaces `searchChunks`
     * (every sort key in typed columns, slot by seq, and a `rev` to catch up
     * by; see `results-chunks.ts`); `facetCounts` gain `rev`; pages lose the
     * duplicate index, which nothing reads any more. Both are rebuilt
     * here from every existing page row, in one pass.
     */
    this.version(4)
      .stores({ pages: PAGES_V4, searchChunks: null, resultChunks: '[crawlId+chunk], [crawlId+rev]' })
      .upgrade(async (trans) => {
        const chunks = new Map<string, ResultsChunk>();
        const counts = new Map<string, FacetCounts>();
        // Row by row (not all rows in memory at once: they hold links and headers).
        await trans
          .table<PageRow, CrawlScopedKey>('pages')
          .toCollection()
          .each((stored) => {
            const row: PageRow = { ...stored, ...pageKeysOf(stored) };
            const chunkKey = JSON.stringify([row.crawlId, chunkOf(row.seq)]);
            let chunk = chunks.get(chunkKey);
            if (chunk === undefined) chunks.set(chunkKey, (chunk = emptyResultsChunk(row.crawlId, chunkOf(row.seq))));
            let crawlCounts = counts.get(row.crawlId);
            if (crawlCounts === undefined) counts.set(row.crawlId, (crawlCounts = emptyFacetCounts(row.crawlId)));
            recordRow(chunk, crawlCounts, row);
          });
        // One revision for everything built here.
        for (const crawlCounts of counts.values()) crawlCounts.rev = 1;
        for (const chunk of chunks.values()) chunk.rev = 1;
        await trans.table<ResultsChunk, [string, number]>('resultChunks').bulkPut([...chunks.values()]);
        const facetCounts = trans.table<FacetCounts, string>('facetCounts');
        await facetCounts.clear();
        await facetCounts.bulkPut([...counts.values()]);
      });
    /**
     * Schema version 5, Tabcrawl 0.5.0: `linkTallies`, the links a fast crawl
     * (several requests per host) found to URLs it already knew, kept until
     * they are added to those URLs' inlinks and anchors in one pass (see
     * `CrawlWrites` in `core/crawl/crawl-writes.ts`). A new, empty table: nothing
     * to upgrade.
     */
    this.version(5).stores({ linkTallies: '[crawlId+batch]' });
    /**
     * Schema version 6, Tabcrawl 0.6.0: result chunks gain the kind column
     * (`kinds`: page, sitemap, resource, file) and facet counts the rows per
     * kind, so the results browser filters by kind like by status. No index
     * changes. Its upgrade (rebuilding both from the rows) is gone: version 7
     * rebuilds them again, so an older database passes through version 6 as it is.
     */
    this.version(6).stores({});
    /**
     * Schema version 7, Tabcrawl 0.7.0: the page facts as results columns.
     * Page rows gain the keys `indexKey`, `wordsKey`, `h1Key`, `internalKey`
     * and `outboundKey` (see {@link PageKeys}) and a sort index each; result
     * chunks gain their columns and facet counts the rows per indexability.
     * The upgrade writes the keys on every page row and rebuilds the chunks
     * and counts from them, in one pass.
     */
    this.version(7)
      .stores({ pages: PAGES_V7 })
      .upgrade((trans) => rebuildResults(trans));
    /**
     * Schema version 8, Tabcrawl 0.8.0: the URLs a crawl found and left unvisited (`NotCrawledUrl`: the
     * depth limit, the page limit, a scope or trap rule), by URL and by reason. A new, empty table:
     * crawls stored before have none (their `counts.notCrawled` is absent), nothing to upgrade.
     */
    this.version(8).stores({ notCrawled: '[crawlId+url], [crawlId+reason+url]' });
    /**
     * Schema version 9, Tabcrawl 0.9.0: no index changes. Crawls imported before
     * {@link CrawlRecord.importedFrom} was recorded are marked imported (by the
     * message every import wrote, `Imported from NAME (…)`) and lose *with my cookies*,
     * so an archive imported before cannot re-run with the user's cookies or without
     * its settings shown first.
     */
    this.version(9)
      .stores({})
      .upgrade((trans) =>
        trans
          .table<CrawlRecord, string>('crawls')
          .toCollection()
          .modify((crawl) => {
            const importedFrom = importedFromMessage(crawl);
            if (importedFrom === undefined) return;
            crawl.importedFrom = importedFrom;
            crawl.settings = { ...crawl.settings, withCookies: false };
          }),
      );
    /**
     * Schema version 10, Tabcrawl 0.10.0 (issue 29, rendering): `renders`, the pages of a crawl waiting for
     * their render (see `RenderEntry`), in the order they are rendered; and the *Rendered* results column
     * (whether and how the crawl rendered a page: `rendered`, `rendered (capped)`, `failed: timeout`…). Page
     * rows gain the key `renderKey` (see {@link PageKeys}) and its sort index, result chunks its column
     * (`renderKeys`). Rows stored before were not rendered (`''`); the upgrade writes the key on every page
     * row and rebuilds the chunks and counts, in one pass.
     */
    this.version(10)
      .stores({ pages: PAGES_V10, renders: '[crawlId+url], [crawlId+seq]' })
      .upgrade((trans) => rebuildResults(trans));
  }
}

/**
 * The archive a crawl stored before schema version 9 was imported from, read from the message each import
 * wrote (`Imported from NAME (WACZ)`, `(WARC)` or `(Tabcrawl WACZ)…`); undefined for a crawl Tabcrawl made
 * or one already marked.
 */
export function importedFromMessage(crawl: Pick<CrawlRecord, 'message' | 'importedFrom'>): string | undefined {
  if (crawl.importedFrom !== undefined || typeof crawl.message !== 'string') return undefined;
  const match = /^Imported from (.+?) \((?:WACZ|WARC|Tabcrawl WACZ)\)/su.exec(crawl.message);
  return match?.[1];
}

/**
 * Writes every page row's derived keys again and builds every crawl's result
 * chunks and facet counts from them, in one pass (row by row: not all rows in
 * memory at once, they hold links and headers), at a revision above the one
 * they had.
 */
async function rebuildResults(trans: Transaction): Promise<void> {
  const chunks = new Map<string, ResultsChunk>();
  const counts = new Map<string, FacetCounts>();
  await trans
    .table<PageRow, CrawlScopedKey>('pages')
    .toCollection()
    .modify((row) => {
      Object.assign(row, pageKeysOf(row));
      const chunkKey = JSON.stringify([row.crawlId, chunkOf(row.seq)]);
      let chunk = chunks.get(chunkKey);
      if (chunk === undefined) chunks.set(chunkKey, (chunk = emptyResultsChunk(row.crawlId, chunkOf(row.seq))));
      let crawlCounts = counts.get(row.crawlId);
      if (crawlCounts === undefined) counts.set(row.crawlId, (crawlCounts = emptyFacetCounts(row.crawlId)));
      recordRow(chunk, crawlCounts, row);
    });
  const facetCounts = trans.table<FacetCounts, string>('facetCounts');
  const resultChunks = trans.table<ResultsChunk, [string, number]>('resultChunks');
  // Above every revision a reader may have seen, so no reader takes the new chunks for ones it holds.
  const before = new Map((await facetCounts.toArray()).map((old) => [old.crawlId, old.rev]));
  for (const crawlCounts of counts.values()) crawlCounts.rev = (before.get(crawlCounts.crawlId) ?? 0) + 1;
  for (const chunk of chunks.values()) chunk.rev = counts.get(chunk.crawlId)?.rev ?? 1;
  await resultChunks.clear();
  await resultChunks.bulkPut([...chunks.values()]);
  await facetCounts.clear();
  await facetCounts.bulkPut([...counts.values()]);
}

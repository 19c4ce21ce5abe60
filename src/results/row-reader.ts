/**
 * What the URL detail reads besides {@link PageQueries}: whole rows of the
 * crawl table and the crawl record. A small interface so the results browser
 * runs against an in-memory fake in tests and against IndexedDB in the tab
 * (`dexie-row-reader.ts`).
 */
import type { CrawlRecord, NotCrawledReason, NotCrawledUrl, PageRecord } from '../core/model.ts';

export interface RowReader {
  /** The full row of `url` in the crawl table, or undefined when the URL has no row. */
  getRow(crawlId: string, url: string): Promise<PageRecord | undefined>;
  /** The rows of `urls`, in the same order; undefined where a URL has no row. */
  getRows(crawlId: string, urls: readonly string[]): Promise<(PageRecord | undefined)[]>;
  /** At most `limit` rows with `seq > afterSeq`, in `seq` order (a full scan goes page by page with this). */
  rowsAfter(crawlId: string, afterSeq: number, limit: number): Promise<PageRecord[]>;
  /** The body stored under `sha256` (a row's digest), byte for byte; undefined when the store no longer holds it. */
  getBody(crawlId: string, sha256: string): Promise<Uint8Array | undefined>;
  /** The crawl record, or undefined when there is no such crawl. */
  getCrawl(crawlId: string): Promise<CrawlRecord | undefined>;
  /** URLs the crawl left unvisited after `afterUrl` (null: from the first), in URL order, at most `limit`; of one reason when given. */
  notCrawledAfter(
    crawlId: string,
    afterUrl: string | null,
    limit: number,
    reason: NotCrawledReason | null,
  ): Promise<NotCrawledUrl[]>;
}

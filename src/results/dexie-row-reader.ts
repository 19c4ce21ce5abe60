/**
 * The {@link RowReader} of the results tab: reads the worker's database
 * directly (extension pages share its origin). Read-only: nothing here writes.
 */
import type { CrawlRecord, NotCrawledReason, NotCrawledUrl, PageRecord } from '../core/model.ts';
import type { TabcrawlDatabase } from '../storage/database.ts';
import { DexieCrawlStore } from '../storage/dexie-crawl-store.ts';
import type { RowReader } from './row-reader.ts';

export class DexieRowReader implements RowReader {
  private readonly store: DexieCrawlStore;

  constructor(private readonly db: TabcrawlDatabase) {
    this.store = new DexieCrawlStore(db);
  }

  async getBody(crawlId: string, sha256: string): Promise<Uint8Array | undefined> {
    return (await this.store.getBody(crawlId, sha256))?.bytes;
  }

  getRow(crawlId: string, url: string): Promise<PageRecord | undefined> {
    return this.db.pages.get([crawlId, url]);
  }

  getRows(crawlId: string, urls: readonly string[]): Promise<(PageRecord | undefined)[]> {
    if (urls.length === 0) return Promise.resolve([]);
    return this.db.pages.bulkGet(urls.map((url): [string, string] => [crawlId, url]));
  }

  rowsAfter(crawlId: string, afterSeq: number, limit: number): Promise<PageRecord[]> {
    return this.store.pagesAfter(crawlId, afterSeq, limit);
  }

  getCrawl(crawlId: string): Promise<CrawlRecord | undefined> {
    return this.store.getCrawl(crawlId);
  }

  notCrawledAfter(
    crawlId: string,
    afterUrl: string | null,
    limit: number,
    reason: NotCrawledReason | null,
  ): Promise<NotCrawledUrl[]> {
    return this.store.notCrawledAfter(crawlId, afterUrl, limit, reason);
  }
}

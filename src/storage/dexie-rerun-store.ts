/**
 * The Dexie side of *Re-run extraction* (`core/custom-rules/rerun-rules.ts`): reads rows and stored bodies
 * through the crawl store, and writes only the fields a re-run changes (a row's `custom`, the crawl's
 * `settings.searches` and `settings.extractions`), each batch in one transaction, so that nothing else of a
 * row or of the crawl record is written back as read. No results column reads those fields: the result
 * chunks and facet counts stay as they are.
 */
import type { CustomFindings } from '../core/custom-rules/apply-rules.ts';
import type { RerunStore } from '../core/custom-rules/rerun-rules.ts';
import type { PageRecord } from '../core/model.ts';
import type { StoredBody } from '../core/crawl/ports.ts';
import type { TabcrawlDatabase } from './database.ts';
import { DexieCrawlStore } from './dexie-crawl-store.ts';

export class DexieRerunStore implements RerunStore {
  private readonly store: DexieCrawlStore;

  constructor(private readonly db: TabcrawlDatabase) {
    this.store = new DexieCrawlStore(db);
  }

  pagesAfter(crawlId: string, afterSeq: number, limit: number): Promise<PageRecord[]> {
    return this.store.pagesAfter(crawlId, afterSeq, limit);
  }

  getBodies(crawlId: string, sha256s: readonly string[]): Promise<(StoredBody | undefined)[]> {
    return this.store.getBodies(crawlId, sha256s);
  }

  async putFindings(
    crawlId: string,
    findings: readonly { url: string; custom: CustomFindings | undefined }[],
  ): Promise<void> {
    await this.db.transaction('rw', this.db.pages, async () => {
      for (const { url, custom } of findings) {
        // Dexie's update sets the field, or removes it when given undefined.
        await this.db.pages.update([crawlId, url], { custom });
      }
    });
  }

  async putRules(crawlId: string, searches: readonly string[], extractions: readonly string[]): Promise<void> {
    await this.db.crawls.update(crawlId, {
      'settings.searches': [...searches],
      'settings.extractions': [...extractions],
    });
  }
}

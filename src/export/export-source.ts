/**
 * What every export format reads: one crawl, its rows in order, and the
 * stored bodies. Rows are read a page at a time, so an export never holds
 * the crawl in memory.
 */
import type { CrawlReader } from '../core/crawl/ports.ts';
import type { CrawlRecord, NotCrawledUrl, PageRecord } from '../core/model.ts';

export interface ExportSource {
  readonly crawl: CrawlRecord;
  /** Crawl-table rows in `seq` order (the order they were finished). */
  rows(): AsyncIterable<PageRecord>;
  /** The stored body with this SHA-256 (hex), or undefined. */
  body(sha256: string): Promise<Uint8Array | undefined>;
  /**
   * Several stored bodies at once, in the order asked (undefined where none is stored): one storage
   * transaction instead of one per body. Optional: without it, writers read them one `body` at a time.
   */
  bodies?(sha256s: readonly string[]): Promise<(Uint8Array | undefined)[]>;
  /** The URLs the crawl left unvisited by its rules, in URL order. Optional: without it, none. */
  notCrawled?(): AsyncIterable<NotCrawledUrl>;
}

/** What a format writer is told besides the data. */
export interface ExportContext {
  /** Names the writing software in archives, e.g. `Tabcrawl 0.1.0`. */
  software: string;
  /** The export's time (archives record when they were made). */
  now: Date;
  /** Called once per row written, for progress. */
  onRow: () => void;
}

/** A format: rows in, bytes out, one chunk at a time. */
export type FormatWriter = (source: ExportSource, context: ExportContext) => AsyncIterable<Uint8Array>;

/** An {@link ExportSource} over a store's read side, reading `pageSize` rows at a time. */
export function storeExportSource(store: CrawlReader, crawl: CrawlRecord, pageSize = 200): ExportSource {
  return {
    crawl,
    async *rows() {
      let afterSeq = 0;
      for (;;) {
        const rows = await store.pagesAfter(crawl.id, afterSeq, pageSize);
        yield* rows;
        const last = rows.at(-1);
        if (last === undefined || rows.length < pageSize) return;
        afterSeq = last.seq;
      }
    },
    async body(sha256) {
      return (await store.getBody(crawl.id, sha256))?.bytes;
    },
    async bodies(sha256s) {
      return (await store.getBodies(crawl.id, sha256s)).map((body) => body?.bytes);
    },
    async *notCrawled() {
      for (let after: string | null = null; ;) {
        const urls = await store.notCrawledAfter(crawl.id, after, pageSize);
        yield* urls;
        const last = urls.at(-1);
        if (last === undefined || urls.length < pageSize) return;
        after = last.url;
      }
    },
  };
}

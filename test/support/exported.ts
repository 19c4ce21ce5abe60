/**
 * A stored crawl exported through the pipeline every export goes through (`exportCrawl`, with the command
 * line's streaming sink), for the unit tests of one format: the bytes, the result and every progress report.
 */
import { exportCrawl, type ExportProgress } from '../../src/export/export-crawl.ts';
import type { ExportFormat } from '../../src/export/format-info.ts';
import type { MemoryCrawlStore } from '../../src/storage/memory-store.ts';

export async function exported(store: MemoryCrawlStore, crawlId: string, format: ExportFormat) {
  const chunks: Uint8Array[] = [];
  const reports: ExportProgress[] = [];
  const result = await exportCrawl(
    {
      request: { crawlId, format },
      store,
      software: 'Tabcrawl test',
      now: () => new Date(0),
      save: () => Promise.reject(new Error('streamed, not saved')),
      stream: { write: async (chunk) => void chunks.push(chunk), end: async () => undefined },
      progressIntervalMs: 0,
    },
    (progress) => reports.push(progress),
  );
  return { bytes: Buffer.concat(chunks), result, reports };
}

/**
 * Writes an export to a file by running the extension's own export page
 * (the same code the popup's Export uses) with a sink in place of the
 * download: chunks stream from the page into the file, with backpressure.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ExportFormat } from '../../export/format-info.ts';
import type { SinkEvent } from '../../export/page-sink.ts';
import { exportPagePath } from '../../messaging/routes.ts';

/** An extension page opened with a function exposed on it, as a driver opens it (Chromium or Firefox). */
export interface SinkPage {
  close(): Promise<void>;
  /** Calls `listener` if the page's process crashes. */
  onCrash(listener: () => void): void;
}

/** What a browser session offers for an export: an extension page opened with `sink` exposed as `SINK_NAME` (`export/page-sink.ts`) before its scripts run. */
export interface SinkPageOpener {
  openSinkPage(path: string, sink: (event: SinkEvent) => Promise<void>): Promise<SinkPage>;
}

export interface PageExportResult {
  path: string;
  bytes: number;
  rows: number;
}

/**
 * Exports crawl `crawlId` as `format` into `path` (parent folders created).
 * @param onProgress rows written so far and the crawl's row count.
 * @throws Error with the page's message when the export fails; the partial file is removed.
 */
export async function exportThroughPage(
  session: SinkPageOpener,
  crawlId: string,
  format: ExportFormat,
  path: string,
  onProgress?: (rows: number, totalRows: number) => void,
): Promise<PageExportResult> {
  await mkdir(dirname(path), { recursive: true });
  const file = createWriteStream(path);
  const failedToWrite = new Promise<never>((_, reject) => file.once('error', reject));
  failedToWrite.catch(() => undefined);
  await Promise.race([once(file, 'open'), failedToWrite]);

  let rows = 0;
  let settle: (outcome: { ok: true; bytes: number } | { ok: false; message: string }) => void = () => undefined;
  const finished = new Promise<{ ok: true; bytes: number } | { ok: false; message: string }>(
    (resolve) => (settle = resolve),
  );

  let page: SinkPage | null = null;
  try {
    page = await session.openSinkPage(exportPagePath(crawlId, format), async (event: SinkEvent): Promise<void> => {
      switch (event.kind) {
        case 'progress':
          rows = event.rows;
          onProgress?.(event.rows, event.totalRows);
          return;
        case 'chunk':
          if (!file.write(Buffer.from(event.base64, 'base64')))
            await Promise.race([once(file, 'drain'), failedToWrite]);
          return;
        case 'done':
          settle({ ok: true, bytes: event.bytes });
          return;
        case 'failed':
          settle({ ok: false, message: event.message });
          return;
      }
    });
    page.onCrash(() => settle({ ok: false, message: 'the export page crashed' }));
    const outcome = await Promise.race([finished, failedToWrite]);
    await Promise.race([new Promise<void>((resolve) => file.end(resolve)), failedToWrite]);
    if (!outcome.ok) throw new Error(outcome.message);
    return { path, bytes: outcome.bytes, rows };
  } catch (error) {
    file.destroy();
    await rm(path, { force: true });
    throw error;
  } finally {
    await page?.close().catch(() => undefined);
  }
}

import { expect } from 'chai';
import { Dexie } from 'dexie';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import type { CrawlStore } from '../../src/core/crawl/ports.ts';
import type { CrawlRecord, PageRecord } from '../../src/core/model.ts';
import { CSV_COLUMNS } from '../../src/export/csv.ts';
import type { ExportContext, ExportSource } from '../../src/export/export-source.ts';
import { formatInfo, type ExportFormat } from '../../src/export/format-info.ts';
import { exportBytes } from '../../src/export/format-writers.ts';
import { blobOf } from '../../src/export/export-blob.ts';
import { exportCrawl, type ExportDeps } from '../../src/export/export-crawl.ts';
import { ExportError, type ExportErrorCode } from '../../src/export/export-errors.ts';
import { exportPagePath, parseExportParams } from '../../src/messaging/routes.ts';
import type { ExportProgress, ExportResult } from '../../src/export-view/export-text.ts';
import { ExportView, type RunExport } from '../../src/export-view/export-view.tsx';
import {
  saveDownload,
  type DownloadDelta,
  type DownloadsApi,
  type ObjectUrls,
} from '../../src/export/save-download.ts';
import { TabcrawlDatabase } from '../../src/storage/database.ts';
import { DexieCrawlStore } from '../../src/storage/dexie-crawl-store.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { crawlFixture, pageFixture } from '../support/store-contract.ts';
import { waitFor } from './support/popup-harness.tsx';

const SITE = 'https://c1.example';

function page(seq: number, overrides: Partial<PageRecord> = {}): PageRecord {
  return { ...pageFixture('c1', `${SITE}/p${seq}`, seq), ...overrides };
}

function fakeSource(pages: PageRecord[]): ExportSource {
  return {
    crawl: crawlFixture('c1'),
    async *rows() {
      yield* pages;
    },
    body: () => Promise.resolve(undefined),
  };
}

const context = (onRow: () => void = () => undefined): ExportContext => ({
  software: 'Tabcrawl test',
  now: new Date(0),
  onRow,
});

/** The rejection of `promise`, which must reject. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** The {@link ExportError} `run` throws, which it must. */
function thrownBy(run: () => unknown): ExportError {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(ExportError);
    return error as ExportError;
  }
  throw new Error('expected an ExportError');
}

async function expectExportError(promise: Promise<unknown>, code: ExportErrorCode): Promise<ExportError> {
  const error = await rejectionOf(promise);
  expect(error).to.be.instanceOf(ExportError);
  const exportError = error as ExportError;
  expect(exportError.code).to.equal(code);
  return exportError;
}

describe('export page view', () => {
  let container: HTMLElement | undefined;

  afterEach(async () => {
    const mounted = container;
    if (mounted !== undefined) {
      await act(() => {
        render(null, mounted);
      });
      mounted.remove();
    }
    container = undefined;
  });

  async function mountView(runExport: RunExport): Promise<HTMLElement> {
    const element = document.createElement('div');
    document.body.append(element);
    container = element;
    await act(() => {
      render(<ExportView runExport={runExport} />, element);
    });
    return element;
  }

  const status = (element: HTMLElement): string =>
    element.querySelector('[data-testid="export-status"]')?.textContent ?? '';
  const stateOf = (element: HTMLElement): string | null =>
    element.querySelector('[data-state]')?.getAttribute('data-state') ?? null;

  const progress = (overrides: Partial<ExportProgress> = {}): ExportProgress => ({
    phase: 'writing',
    site: 'example.com',
    formatName: 'WACZ',
    fileName: 'example.com-2026-11-21.wacz',
    rowsDone: 1234,
    rowsTotal: 10_000,
    isCrawlRunning: false,
    ...overrides,
  });

  const result: ExportResult = {
    fileName: 'example.com-2026-11-21.csv',
    downloadId: 42,
    rows: 3,
    site: 'example.com',
    formatName: 'CSV',
    archivedResources: true,
    setCookies: null,
  };

  it('shows the site, the format and the rows written while the export runs', async () => {
    const element = await mountView((onProgress) => {
      onProgress(progress());
      return new Promise<ExportResult>(() => undefined);
    });

    await waitFor(() => expect(status(element)).to.equal('Exporting example.com as WACZ: 1,234 of 10,000 URLs'));
    expect(stateOf(element)).to.equal('working');
    const bar = element.querySelector<HTMLProgressElement>('progress');
    expect(bar?.value).to.equal(1234);
    expect(bar?.max).to.equal(10_000);
    expect(document.title).to.include('working');
    expect(element.querySelector('[data-testid="export-running-note"]')).to.equal(null);
  });

  it('says a crawl still running is exported as stored when the export started', async () => {
    const element = await mountView((onProgress) => {
      onProgress(progress({ isCrawlRunning: true, rowsTotal: 250, rowsDone: 10 }));
      return new Promise<ExportResult>(() => undefined);
    });

    await waitFor(() =>
      expect(element.querySelector('[data-testid="export-running-note"]')?.textContent).to.include('still running'),
    );
    expect(element.textContent).to.include('the 250 URLs stored when the export started');
  });

  it('shows the saved file name and the download id when the export is done', async () => {
    const element = await mountView((onProgress) => {
      onProgress(progress({ rowsDone: 3, rowsTotal: 3 }));
      return Promise.resolve(result);
    });

    await waitFor(() => expect(stateOf(element)).to.equal('done'));
    expect(status(element)).to.equal('Saved example.com-2026-11-21.csv');
    expect(element.textContent).to.include('download #42');
    expect(element.textContent).to.include('3 URLs');
    expect(element.querySelector('progress')).to.equal(null);
    expect(document.title).to.include('done');
    expect(element.textContent).to.include("browser's downloads folder");
    expect(element.querySelector('[data-testid="export-open-hint"]'), 'a CSV needs no hint').to.equal(null);
  });

  it('says a WACZ holds no Cookie or Authorization value nor Set-Cookie value, and offers to export again with the Set-Cookie values', async () => {
    const element = document.createElement('div');
    document.body.append(element);
    container = element;
    const wacz: ExportResult = {
      ...result,
      fileName: 'example.com-2026-11-21.wacz',
      formatName: 'WACZ',
      setCookies: 'removed',
    };
    await act(() => {
      render(
        <ExportView
          runExport={() => Promise.resolve(wacz)}
          keepSetCookiesHref="chrome-extension://x/export?setcookie=keep"
        />,
        element,
      );
    });
    await waitFor(() => expect(stateOf(element)).to.equal('done'));
    const note = element.querySelector('[data-testid="export-credentials"]')?.textContent ?? '';
    expect(note)
      .to.include('Cookie and Authorization')
      .and.include('[removed by Tabcrawl]')
      .and.include('Set-Cookie) are removed');
    expect(element.querySelector('[data-testid="export-keep-set-cookies"]')?.getAttribute('href')).to.equal(
      'chrome-extension://x/export?setcookie=keep',
    );
  });

  it('says a WACZ exported with the Set-Cookie values holds them, and says nothing of credentials for a CSV', async () => {
    const kept = await mountView(() =>
      Promise.resolve({ ...result, fileName: 'example.com-2026-11-21.wacz', formatName: 'WACZ', setCookies: 'kept' }),
    );
    await waitFor(() => expect(stateOf(kept)).to.equal('done'));
    expect(kept.querySelector('[data-testid="export-credentials"]')?.textContent).to.include('Set-Cookie) are in it');
    expect(kept.querySelector('[data-testid="export-keep-set-cookies"]')).to.equal(null);
    render(null, kept);
    kept.remove();
    const csv = await mountView(() => Promise.resolve(result));
    await waitFor(() => expect(stateOf(csv)).to.equal('done'));
    expect(csv.querySelector('[data-testid="export-credentials"]')).to.equal(null);
  });

  it('says how to open a WACZ of a crawl without resources and that its pages show unstyled', async () => {
    const element = await mountView(() =>
      Promise.resolve({
        ...result,
        fileName: 'example.com-2026-11-21.wacz',
        formatName: 'WACZ',
        archivedResources: false,
      }),
    );
    await waitFor(() => expect(stateOf(element)).to.equal('done'));
    const hint = element.querySelector('[data-testid="export-open-hint"]')?.textContent ?? '';
    expect(hint).to.include('ReplayWeb.page').and.include('unstyled');
  });

  it('says how to open a WACZ with its resources and what it lacks, and offers to show the file and close the tab', async () => {
    const shown: number[] = [];
    let closed = 0;
    const element = document.createElement('div');
    document.body.append(element);
    const runExport: RunExport = () =>
      Promise.resolve({ ...result, fileName: 'example.com-2026-11-21.wacz', formatName: 'WACZ' });
    await act(() => {
      render(
        <ExportView runExport={runExport} onShowFile={(id) => shown.push(id)} onClose={() => (closed += 1)} />,
        element,
      );
    });
    await waitFor(() => expect(stateOf(element)).to.equal('done'));
    const hint = element.querySelector('[data-testid="export-open-hint"]')?.textContent ?? '';
    expect(hint)
      .to.include('ReplayWeb.page')
      .and.include('stylesheets, scripts, images and fonts')
      .and.include('scripts request only when they run')
      .and.not.include('unstyled');
    element.querySelector<HTMLButtonElement>('[data-testid="show-file"]')?.click();
    element.querySelector<HTMLButtonElement>('[data-testid="close-tab"]')?.click();
    expect(shown).to.deep.equal([42]);
    expect(closed).to.equal(1);
    await act(() => render(null, element));
    element.remove();
  });

  it('shows the error of a failed export as an alert', async () => {
    const element = await mountView(() =>
      Promise.reject(new ExportError('export', 'Could not write the WACZ file: WACZ export not written yet')),
    );

    await waitFor(() => expect(stateOf(element)).to.equal('failed'));
    const alert = element.querySelector('[role="alert"]');
    expect(alert?.getAttribute('data-testid')).to.equal('export-status');
    expect(alert?.textContent).to.equal('Could not write the WACZ file: WACZ export not written yet');
    expect(element.textContent).to.include('Nothing was offered for download');
    expect(document.title).to.include('failed');
  });
});

describe('export page URL', () => {
  it('reads back the crawl id and format it was built with', () => {
    const path = exportPagePath('id with spaces&more', 'warc.gz');
    expect(path.startsWith('src/shells/export/index.html?')).to.equal(true);
    expect(parseExportParams(new URL(path, 'chrome-extension://x/').search)).to.deep.equal({
      crawlId: 'id with spaces&more',
      format: 'warc.gz',
      keepSetCookies: false,
    });
    const keeping = exportPagePath('c1', 'wacz', { keepSetCookies: true });
    expect(parseExportParams(new URL(keeping, 'chrome-extension://x/').search)).to.deep.equal({
      crawlId: 'c1',
      format: 'wacz',
      keepSetCookies: true,
    });
  });

  it('refuses a URL without a crawl id', () => {
    expect(thrownBy(() => parseExportParams('?format=csv'))).to.include({ code: 'bad-url' });
    expect(thrownBy(() => parseExportParams('?crawl=&format=csv'))).to.include({ code: 'bad-url' });
  });

  it('refuses a format Tabcrawl does not write, naming the ones it does', () => {
    const error = thrownBy(() => parseExportParams('?crawl=c1&format=xlsx'));
    expect(error.code).to.equal('unknown-format');
    expect(error.message).to.include('wacz, warc.gz, warc, csv, jsonl');
    expect(thrownBy(() => parseExportParams('?crawl=c1'))).to.include({ code: 'unknown-format' });
  });
});

describe('export bytes into a Blob in the browser', () => {
  it('writes JSON Lines, one object per row, into a Blob of its media type', async () => {
    const pages = [page(1), page(2, { title: 'Line\nbreak "quoted"' })];
    let rows = 0;

    const blob = await blobOf(
      exportBytes(
        fakeSource(pages),
        'jsonl',
        context(() => (rows += 1)),
      ),
      formatInfo('jsonl').mediaType,
    );

    expect(blob.type).to.equal('application/x-ndjson');
    const lines = (await blob.text()).split('\n');
    expect(lines).to.have.lengthOf(3);
    expect(lines[2]).to.equal('');
    expect(JSON.parse(lines[0] ?? '')).to.include({ url: `${SITE}/p1`, status: 200 });
    expect(JSON.parse(lines[1] ?? '')).to.include({ url: `${SITE}/p2`, title: 'Line\nbreak "quoted"' });
    expect(rows).to.equal(2);
  });

  it('writes CSV with a byte order mark, a header and CRLF records into a Blob', async () => {
    const pages = [page(1), page(2, { title: '=1+1' })];

    const blob = await blobOf(exportBytes(fakeSource(pages), 'csv', context()), formatInfo('csv').mediaType);

    expect(blob.type).to.equal('text/csv');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    const records = text.split('\r\n');
    expect(records[0]).to.equal(CSV_COLUMNS.join(','));
    expect(records).to.have.lengthOf(4);
    expect(records[1]?.startsWith(`${SITE}/p1,page,200,`)).to.equal(true);
    expect(records[2]).to.include(",'=1+1,");
  });

  it('rejects with the writer’s own error, not a stream error, when a writer fails half-way', async () => {
    const failure = new Error('disk on fire');
    async function* halfWritten(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode('first chunk');
      throw failure;
    }

    expect(await rejectionOf(blobOf(halfWritten(), 'text/plain'))).to.equal(failure);
  });
});

describe('exportCrawl', () => {
  interface Saved {
    blob: Blob;
    fileName: string;
  }

  async function storeWith(
    crawl: CrawlRecord,
    pages: PageRecord[],
    store: CrawlStore = new MemoryCrawlStore(),
  ): Promise<CrawlStore> {
    await store.transaction(async (tx) => {
      await tx.putCrawl(crawl);
      await tx.putPages(pages);
    });
    return store;
  }

  function depsFor(store: CrawlStore, format: ExportFormat, crawlId = 'c1') {
    const saved: Saved[] = [];
    const deps: ExportDeps = {
      request: { crawlId, format },
      store,
      software: 'Tabcrawl test',
      now: () => new Date(0),
      save: async (blob, fileName) => {
        saved.push({ blob, fileName });
        return 7;
      },
      progressIntervalMs: 0,
    };
    return { deps, saved };
  }

  it('saves the stored rows as a CSV file named after the site and the crawl’s date', async () => {
    const store = await storeWith(crawlFixture('c1', Date.UTC(2026, 10, 21, 12)), [page(1), page(2), page(3)]);
    const { deps, saved } = depsFor(store, 'csv');
    const reports: ExportProgress[] = [];

    const result = await exportCrawl(deps, (progress) => reports.push(progress));

    expect(result).to.deep.equal({
      fileName: 'c1.example-2026-11-21.csv',
      downloadId: 7,
      rows: 3,
      site: 'c1.example',
      formatName: 'CSV',
      archivedResources: true,
      setCookies: null,
    });
    expect(saved).to.have.lengthOf(1);
    expect(saved[0]?.fileName).to.equal('c1.example-2026-11-21.csv');
    const records = ((await saved[0]?.blob.text()) ?? '').split('\r\n');
    expect(records.slice(1, 4).map((record) => record.split(',')[0])).to.deep.equal([
      `${SITE}/p1`,
      `${SITE}/p2`,
      `${SITE}/p3`,
    ]);
    expect(reports[0]).to.include({ phase: 'writing', rowsDone: 0, rowsTotal: 3, isCrawlRunning: true });
    expect(reports.at(-2)).to.include({ phase: 'writing', rowsDone: 3 });
    expect(reports.at(-1)).to.include({ phase: 'saving', rowsDone: 3, fileName: 'c1.example-2026-11-21.csv' });
  });

  it('hands the bytes to a stream as they are made, the same file as the Blob, without saving a Blob', async () => {
    const store = await storeWith(crawlFixture('c1', Date.UTC(2026, 10, 21, 12)), [page(1), page(2), page(3)]);
    const { deps, saved } = depsFor(store, 'csv');
    const { deps: blobDeps, saved: blobSaved } = depsFor(store, 'csv');
    const streamed: Uint8Array[] = [];
    let ended = 0;
    const stream = {
      write: async (chunk: Uint8Array) => void streamed.push(chunk),
      end: async () => void (ended += 1),
    };

    const result = await exportCrawl({ ...deps, stream }, () => undefined);
    await exportCrawl(blobDeps, () => undefined);

    expect(result).to.include({ fileName: 'c1.example-2026-11-21.csv', downloadId: 0, rows: 3 });
    expect(saved).to.have.lengthOf(0);
    expect(ended).to.equal(1);
    expect(new TextDecoder().decode(new Uint8Array(streamed.flatMap((chunk) => [...chunk])))).to.equal(
      await blobSaved[0]?.blob.text(),
    );
  });

  it('reads the crawl from IndexedDB through Dexie and saves it as JSON Lines', async () => {
    const name = `tabcrawl-export-test-${Date.now()}`;
    const db = new TabcrawlDatabase(name);
    try {
      const store = await storeWith(crawlFixture('c1'), [page(1), page(2)], new DexieCrawlStore(db));
      const { deps, saved } = depsFor(store, 'jsonl');

      const result = await exportCrawl(deps, () => undefined);

      expect(result.rows).to.equal(2);
      const lines = ((await saved[0]?.blob.text()) ?? '').trimEnd().split('\n');
      expect(lines.map((line) => (JSON.parse(line) as { url: string }).url)).to.deep.equal([
        `${SITE}/p1`,
        `${SITE}/p2`,
      ]);
    } finally {
      db.close();
      await Dexie.delete(name);
    }
  });

  it('leaves out rows finished after the export started', async () => {
    class GrowingStore extends MemoryCrawlStore {
      private hasGrown = false;
      override async pagesAfter(crawlId: string, afterSeq: number, limit: number): Promise<PageRecord[]> {
        if (!this.hasGrown) {
          this.hasGrown = true;
          await this.transaction((tx) => tx.putPages([page(3)]));
        }
        return super.pagesAfter(crawlId, afterSeq, limit);
      }
    }
    const store = await storeWith(crawlFixture('c1'), [page(1), page(2)], new GrowingStore());
    const { deps, saved } = depsFor(store, 'jsonl');

    const result = await exportCrawl(deps, () => undefined);

    expect(result.rows).to.equal(2);
    expect(((await saved[0]?.blob.text()) ?? '').trimEnd().split('\n')).to.have.lengthOf(2);
  });

  it('fails with not-found for a crawl id that is not stored, and saves nothing', async () => {
    const { deps, saved } = depsFor(await storeWith(crawlFixture('c1'), [page(1)]), 'csv', 'gone');

    const error = await expectExportError(
      exportCrawl(deps, () => undefined),
      'not-found',
    );

    expect(error.message).to.include('"gone"');
    expect(saved).to.deep.equal([]);
  });

  it('fails with export and saves nothing when the writer throws, before or after its first row', async () => {
    const store = await storeWith(crawlFixture('c1'), [page(1), page(2)]);
    const { deps, saved } = depsFor(store, 'wacz');
    const notWritten: typeof exportBytes = () => {
      throw new Error('WACZ export not written yet');
    };
    const brokenAfterOneRow: typeof exportBytes = async function* (source, _format, ctx) {
      for await (const row of source.rows()) {
        yield new TextEncoder().encode(row.url);
        ctx.onRow();
        throw new Error('zip writer broke');
      }
    };

    const first = await expectExportError(
      exportCrawl({ ...deps, write: notWritten }, () => undefined),
      'export',
    );
    const second = await expectExportError(
      exportCrawl({ ...deps, write: brokenAfterOneRow }, () => undefined),
      'export',
    );

    expect(first.message).to.equal('Could not write the WACZ file: WACZ export not written yet');
    expect(second.message).to.include('zip writer broke');
    expect(saved).to.deep.equal([]);
  });

  it('fails with storage and saves nothing when reading the rows fails', async () => {
    class BrokenStore extends MemoryCrawlStore {
      override pagesAfter(): Promise<PageRecord[]> {
        return Promise.reject(new DOMException('the database connection is closing', 'InvalidStateError'));
      }
    }
    const { deps, saved } = depsFor(await storeWith(crawlFixture('c1'), [page(1)], new BrokenStore()), 'jsonl');

    const error = await expectExportError(
      exportCrawl(deps, () => undefined),
      'storage',
    );

    expect(error.message).to.include('the database connection is closing');
    expect(saved).to.deep.equal([]);
  });

  it('fails with download when the browser does not save the file', async () => {
    const { deps } = depsFor(await storeWith(crawlFixture('c1'), [page(1)]), 'csv');

    await expectExportError(
      exportCrawl({ ...deps, save: () => Promise.reject(new Error('Invalid filename')) }, () => undefined),
      'download',
    );
  });
});

describe('saveDownload', () => {
  interface FakeDownloads extends DownloadsApi {
    emit: (delta: DownloadDelta) => void;
    requests: { url: string; filename: string; saveAs: boolean; conflictAction: string }[];
    listenerCount: () => number;
  }

  /** A downloads API whose `download` answers with `answer` (an id, or an error to reject with). */
  function fakeDownloads(answer: (emit: (delta: DownloadDelta) => void) => Promise<number>): FakeDownloads {
    const listeners = new Set<(delta: DownloadDelta) => void>();
    const emit = (delta: DownloadDelta): void => listeners.forEach((listener) => listener(delta));
    const requests: FakeDownloads['requests'] = [];
    return {
      emit,
      requests,
      listenerCount: () => listeners.size,
      download: (options) => {
        requests.push(options);
        return answer(emit);
      },
      onChanged: {
        addListener: (listener) => listeners.add(listener),
        removeListener: (listener) => listeners.delete(listener),
      },
    };
  }

  function fakeUrls(): ObjectUrls & { revoked: string[] } {
    const revoked: string[] = [];
    return { revoked, create: () => 'blob:fake/1', revoke: (url) => revoked.push(url) };
  }

  it('resolves with the download id once the download completes, then revokes the object URL', async () => {
    const downloads = fakeDownloads(async () => 5);
    const urls = fakeUrls();

    const saving = saveDownload(downloads, new Blob(['x']), 'a.csv', urls);
    await waitFor(() => downloads.requests.length === 1);
    await Promise.resolve();
    expect(urls.revoked).to.deep.equal([]);
    downloads.emit({ id: 4, state: { current: 'complete' } });
    downloads.emit({ id: 5, state: { current: 'in_progress' } });
    downloads.emit({ id: 5, state: { current: 'complete' } });

    expect(await saving).to.equal(5);
    expect(downloads.requests).to.deep.equal([
      { url: 'blob:fake/1', filename: 'a.csv', saveAs: false, conflictAction: 'uniquify' },
    ]);
    expect(urls.revoked).to.deep.equal(['blob:fake/1']);
    expect(downloads.listenerCount()).to.equal(0);
  });

  it('sees a download that completes before download() resolves', async () => {
    const downloads = fakeDownloads(async (emit) => {
      emit({ id: 9, state: { current: 'complete' } });
      return 9;
    });

    expect(await saveDownload(downloads, new Blob(['x']), 'a.csv', fakeUrls())).to.equal(9);
  });

  it('fails with download when the browser refuses the download', async () => {
    const downloads = fakeDownloads(() => Promise.reject(new Error('Invalid filename')));
    const urls = fakeUrls();

    const error = await expectExportError(saveDownload(downloads, new Blob(['x']), 'a.csv', urls), 'download');

    expect(error.message).to.include('refused');
    expect(error.message).to.include('Invalid filename');
    expect(urls.revoked).to.deep.equal(['blob:fake/1']);
    expect(downloads.listenerCount()).to.equal(0);
  });

  it('fails with download when the user cancels the download', async () => {
    const downloads = fakeDownloads(async (emit) => {
      setTimeout(() => emit({ id: 3, state: { current: 'interrupted' }, error: { current: 'USER_CANCELED' } }), 0);
      return 3;
    });

    const error = await expectExportError(saveDownload(downloads, new Blob(['x']), 'a.csv', fakeUrls()), 'download');

    expect(error.message).to.equal('The download was cancelled.');
  });
});

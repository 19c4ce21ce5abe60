/**
 * importArchive (src/import/import-crawl.ts) on the extension's store, Dexie over
 * Chromium's IndexedDB: its batched transactions, the crawl record last, an
 * abort leaving nothing, the orphan sweep, and a WACZ round trip. The unit
 * tests (test/unit/import-crawl.test.ts) cover the rest on the memory store.
 */
import { expect } from 'chai';
import { Dexie } from 'dexie';
import { TabcrawlDatabase } from '../../src/storage/database.ts';
import { DexieCrawlStore } from '../../src/storage/dexie-crawl-store.ts';
import { importArchive } from '../../src/import/import-crawl.ts';
import { IMPORT_LOCK } from '../../src/core/crawl/ports.ts';
import { writeWacz } from '../../src/export/wacz.ts';
import { storeExportSource } from '../../src/export/export-source.ts';

function syntheticWarc(count: number): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const body = `<!doctype html><title>Page ${i}</title><a href="/p${i + 1}">next</a> ${'x'.repeat(i % 7)}`;
    const block = `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${encoder.encode(body).length}\r\n\r\n${body}`;
    parts.push(
      `WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.com/p${i}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nContent-Type: application/http;msgtype=response\r\nContent-Length: ${encoder.encode(block).length}\r\n\r\n${block}\r\n\r\n`,
    );
  }
  return encoder.encode(parts.join(''));
}

describe('importArchive on DexieCrawlStore', () => {
  it('imports in several transactions, leaves nothing when aborted, sweeps orphans, and gives a Tabcrawl WACZ back', async () => {
    const db = new TabcrawlDatabase(`tmp-import-${Date.now()}`);
    const store = new DexieCrawlStore(db);
    const warc = syntheticWarc(700);
    const { crawl } = await importArchive(store, new Blob([warc]), 'many.warc', { newId: () => 'one' });
    expect((await store.pagesAfter('one', 0, 10000)).length).to.equal(700);
    expect((await store.listCrawls()).map((c) => c.id)).to.deep.equal(['one']);
    const controller = new AbortController();
    let n = 0;
    const p = importArchive(store, new Blob([warc]), 'many.warc', {
      newId: () => 'two',
      signal: controller.signal,
      onProgress: () => {
        n += 1;
        if (n === 2) controller.abort();
      },
    });
    let name = '';
    try {
      await p;
    } catch (e) {
      name = (e as Error).name;
    }
    expect(name).to.equal('AbortError');
    expect((await store.pagesAfter('two', 0, 10)).length).to.equal(0);
    // leave an orphan, sweep it
    await store.transaction(async (tx) => {
      await tx.putPages((await store.pagesAfter('one', 0, 5)).map((r) => ({ ...r, crawlId: 'orphan' })));
    });
    expect(await store.deleteOrphans()).to.equal(1);
    expect((await store.pagesAfter('orphan', 0, 10)).length).to.equal(0);
    expect((await store.pagesAfter('one', 0, 10000)).length).to.equal(700);
    // round trip
    const parts: Uint8Array<ArrayBuffer>[] = [];
    for await (const chunk of writeWacz(storeExportSource(store, crawl), {
      software: 'T',
      now: new Date(0),
      onRow: () => undefined,
    }))
      parts.push(chunk.slice());
    const { crawl: back } = await importArchive(store, new Blob(parts), 'one.wacz', { newId: () => 'back' });
    // The same crawl but for its message, which names the archive it came from and keeps the original's, and that archive.
    expect(back.message).to.equal(
      'Imported from one.wacz (Tabcrawl WACZ); when crawled: Imported from many.warc (WARC)',
    );
    expect([crawl.importedFrom, back.importedFrom]).to.deep.equal(['many.warc', 'one.wacz']);
    expect({ ...back, id: 'one', message: crawl.message, importedFrom: crawl.importedFrom }).to.deep.equal(crawl);
    const a = await store.pagesAfter('one', 0, 10000);
    const b = await store.pagesAfter('back', 0, 10000);
    expect(b.map((r) => ({ ...r, crawlId: 'one' }))).to.deep.equal(a);
    db.close();
    await Dexie.delete(db.name);
  });

  it('holds the import lock while it runs: a sweep asking for it then gets none', async () => {
    const db = new TabcrawlDatabase(`tmp-import-lock-${Date.now()}`);
    const store = new DexieCrawlStore(db);
    const sweeps: Promise<boolean>[] = [];
    await importArchive(store, new Blob([syntheticWarc(600)]), 'many.warc', {
      onProgress: () =>
        void sweeps.push(navigator.locks.request(IMPORT_LOCK, { ifAvailable: true }, (lock) => lock !== null)),
    });
    expect(sweeps.length > 1).to.equal(true);
    const got = await Promise.all(sweeps);
    expect(got).to.deep.equal(got.map(() => false));
    expect(await navigator.locks.request(IMPORT_LOCK, { ifAvailable: true }, (lock) => lock !== null)).to.equal(true);
    db.close();
    await Dexie.delete(db.name);
  });
});

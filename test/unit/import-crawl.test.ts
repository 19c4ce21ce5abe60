/**
 * The import into the store (src/import/import-crawl.ts): each fixture archive
 * stored as a crawl whose rows and bodies are what the archive reader gives;
 * nothing half-stored on an abort, a cut file or a full store; and the round
 * trip: a crawl exported as a WACZ and imported gives back the same crawl
 * record (but its id), rows (but crawlId) and bodies, and the same JSONL, CSV
 * and WARC exports.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeZip } from 'client-zip';
import type { CrawlStore } from '../../src/core/crawl/ports.ts';
import { countRow } from '../../src/core/crawl/frontier-queue.ts';
import { emptyCounts, type CrawlRecord, type NotCrawledUrl, type PageRecord } from '../../src/core/model.ts';
import { writeCsv } from '../../src/export/csv.ts';
import { storeExportSource, type ExportContext, type FormatWriter } from '../../src/export/export-source.ts';
import { writeJsonl } from '../../src/export/jsonl.ts';
import { TABCRAWL_CRAWL_FORMAT as EXPORTED_FORMAT } from '../../src/export/tabcrawl-crawl-file.ts';
import { writeWacz } from '../../src/export/wacz.ts';
import { writeWarc } from '../../src/export/warc.ts';
import { ArchiveReadError } from '../../src/import/archive-error.ts';
import { ArchiveRowBuilder, type ImportedRow } from '../../src/import/archive-rows.ts';
import { importArchive, type ImportProgress } from '../../src/import/import-crawl.ts';
import { TABCRAWL_CRAWL_FORMAT } from '../../src/import/import-tabcrawl.ts';
import { LinkGraph, otherSiteTest } from '../../src/import/link-graph.ts';
import { readWarc } from '../../src/import/warc-reader.ts';
import { normalizeUrl } from '../../src/core/url/normalize-url.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { crawl, world } from '../support/crawl-world.ts';
import { page } from '../support/fake-site.ts';
import {
  FIXTURE_CRAWL,
  collectBytes,
  fixtureBodies,
  fixtureRowsWithResources,
  sha256Hex,
} from '../support/export-fixtures.ts';
import { readWithWarcio, warcFixture, warcFixtureNames } from '../support/warc-fixtures.ts';

const TIMEOUT = { timeout: 60_000 };
const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

function ids(): () => string {
  let n = 0;
  return () => `imported-${(n += 1)}`;
}

const blobOf = (bytes: Uint8Array): Blob => new Blob([bytes.slice()]);

async function allRows(store: CrawlStore, crawlId: string): Promise<PageRecord[]> {
  return store.pagesAfter(crawlId, 0, 1_000_000);
}

/** Asserts that the store holds nothing at all: no crawl, and no row or body under any crawl id. */
async function assertEmpty(store: MemoryCrawlStore, crawlId: string): Promise<void> {
  assert.deepEqual(await store.listCrawls(), []);
  assert.deepEqual(await allRows(store, crawlId), []);
  assert.equal(await store.deleteOrphans(), 0, 'no row or body left under any crawl id');
}

/** The rows the reader gives for a WARC, as the import should store them: builder, then link walk from the start URL. */
async function readerRows(
  bytes: Uint8Array,
  crawl: CrawlRecord,
  start = crawl.settings.startUrl,
): Promise<ImportedRow[]> {
  const builder = new ArchiveRowBuilder({ crawlId: crawl.id, settings: crawl.settings });
  const made: ImportedRow[] = [];
  for await (const record of readWarc(bytes, { fileName: 'x.warc' })) made.push(...(await builder.add(record)));
  made.push(...(await builder.finish()));
  const graph = new LinkGraph(otherSiteTest(crawl.settings));
  for (const { row } of made) graph.add(row);
  const fields = graph.fields([start]);
  return made.map((item) => ({ ...item, row: { ...item.row, ...fields.get(item.row.url) } }));
}

/** A plain WARC of `count` HTML pages, each linking the next: enough records for several transactions. */
function syntheticWarc(count: number): Uint8Array {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const body = `<!doctype html><title>Page ${i}</title><a href="/p${i + 1}">next</a> ${'x'.repeat(i % 7)}`;
    const block = `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${encoder.encode(body).length}\r\n\r\n${body}`;
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    parts.push(
      `WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.com/p${i}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n` +
        `WARC-Record-ID: <urn:uuid:${id}>\r\nContent-Type: application/http;msgtype=response\r\nContent-Length: ${encoder.encode(block).length}\r\n\r\n${block}\r\n\r\n`,
    );
  }
  return encoder.encode(parts.join(''));
}

describe('importArchive: the fixture archives', () => {
  for (const name of warcFixtureNames()) {
    it(`stores ${name} as a finished crawl whose rows and bodies are the reader's`, TIMEOUT, async () => {
      const bytes = warcFixture(name);
      const store = new MemoryCrawlStore();
      const progress: ImportProgress[] = [];
      const { crawl, warnings } = await importArchive(store, blobOf(bytes), name, {
        newId: ids(),
        now: () => NOW,
        onProgress: (p) => progress.push(p),
      });

      assert.equal(crawl.id, 'imported-1');
      assert.equal(crawl.state, 'finished');
      assert.match(crawl.message ?? '', new RegExp(`Imported from ${name.replace(/\./g, '\\.')}`));
      assert.deepEqual(await store.listCrawls(), [crawl]);
      assert.ok(Array.isArray(warnings));

      // The start URL: the first capture (this one's has a user name, which the settings' start URL drops).
      const expected = await readerRows(
        bytes,
        crawl,
        name === 'example-url-agnostic-revisit.warc.gz' ? 'http://test@example.com/' : crawl.settings.startUrl,
      );
      // Dated by its captures, not by the import: from the first capture to the last.
      const dates = expected.flatMap(({ row }) => (row.fetchedAt === null ? [] : [row.fetchedAt]));
      assert.ok(dates.length > 0);
      assert.equal(crawl.createdAt, Math.min(...dates));
      assert.equal(crawl.endedAt, Math.max(...dates));
      assert.notEqual(crawl.createdAt, NOW);
      const rows = await allRows(store, crawl.id);
      assert.deepEqual(
        rows,
        expected.map(({ row }) => row),
      );
      assert.ok(rows.length > 0);
      for (const row of rows) assert.equal(row.source, 'archive');

      // Bodies: each stored once, under its hash, as the reader gave it.
      let bytesStored = 0;
      for (const { row, body } of expected) {
        if (body === null || row.sha256 === null) continue;
        const stored = await store.getBody(crawl.id, row.sha256);
        assert.ok(stored, `the body of ${row.url}`);
        assert.deepEqual(stored.bytes, body);
        assert.equal(sha256Hex(stored.bytes), row.sha256);
        bytesStored += body.byteLength;
      }
      const counts = emptyCounts();
      for (const row of rows) countRow(counts, row);
      assert.deepEqual(crawl.counts, {
        ...counts,
        admitted: counts.done,
        resourcesAdmitted: counts.resources,
        externalAdmitted: counts.external,
        bytesStored,
      });
      assert.equal(crawl.nextSeq, rows.length + 1);

      // warcio.js, the reference reader: every row is a URL it reads a capture of.
      const targets = new Set(
        (await readWithWarcio(bytes))
          .filter((r) => ['response', 'revisit', 'resource'].includes(r.type) && r.targetUri !== null)
          .map((r) => normalizeUrl(r.targetUri ?? '')),
      );
      for (const row of rows) assert.ok(targets.has(row.url), `${row.url} is a capture warcio.js reads`);

      const last = progress.at(-1);
      assert.ok(last);
      assert.deepEqual(last, {
        bytesRead: bytes.length,
        totalBytes: bytes.length,
        records: last.records,
        rows: rows.length,
      });
      assert.ok(last.records >= rows.length);
    });
  }
});

describe('importArchive: nothing half-stored', () => {
  const PAGES = 700;
  const warc = syntheticWarc(PAGES);

  it('imports the synthetic archive whole (several transactions), the link walk giving depths', TIMEOUT, async () => {
    const store = new MemoryCrawlStore();
    const progress: ImportProgress[] = [];
    const { crawl } = await importArchive(store, blobOf(warc), 'many.warc', {
      newId: ids(),
      onProgress: (p) => progress.push(p),
    });
    const rows = await allRows(store, crawl.id);
    assert.equal(rows.length, PAGES);
    assert.equal(crawl.settings.startUrl, 'https://example.com/p0');
    assert.deepEqual(
      rows.slice(0, 3).map((r) => [r.depth, r.referrer, r.inlinks, r.anchors]),
      [
        [0, null, 0, []],
        [1, 'https://example.com/p0', 1, ['next']],
        [2, 'https://example.com/p1', 1, ['next']],
      ],
    );
    assert.equal(crawl.counts.done, PAGES);
    assert.ok(progress.length >= 3, 'progress every few hundred records, and at the end');
    assert.ok(progress.every((p, i) => i === 0 || p.bytesRead >= (progress[i - 1]?.bytesRead ?? 0)));
  });

  it('an abort at any point leaves no row, body or crawl, and rejects with an AbortError', TIMEOUT, async () => {
    // Abort after the k-th transaction, for every k the import runs: the row batches, the rewrite, the last one.
    let transactions = 0;
    await importArchive(
      counting(new MemoryCrawlStore(), () => (transactions += 1)),
      blobOf(warc),
      'many.warc',
    );
    assert.ok(transactions >= 4, `${transactions} transactions`);
    for (let k = 0; k < transactions; k += 1) {
      const store = new MemoryCrawlStore();
      const controller = new AbortController();
      let seen = 0;
      const watched = counting(store, () => {
        seen += 1;
        if (seen === k) controller.abort();
      });
      if (k === 0) controller.abort();
      await assert.rejects(
        importArchive(watched, blobOf(warc), 'many.warc', { signal: controller.signal, newId: () => 'cut' }),
        (error: unknown) => {
          assert.ok(error instanceof DOMException, String(error));
          assert.equal(error.name, 'AbortError');
          return true;
        },
      );
      // An abort after the last transaction (the crawl record) is too late: the crawl is whole.
      if (k === transactions) continue;
      await assertEmpty(store, 'cut');
    }
  });

  it('a cut file leaves nothing, and rejects with the reader error naming the file and the byte', TIMEOUT, async () => {
    for (const cut of [Math.floor(warc.length / 3), Math.floor((warc.length * 2) / 3), warc.length - 10]) {
      const store = new MemoryCrawlStore();
      let transactions = 0;
      await assert.rejects(
        importArchive(
          counting(store, () => (transactions += 1)),
          blobOf(warc.subarray(0, cut)),
          'many.warc',
          { newId: () => 'cut' },
        ),
        (error: unknown) => {
          assert.ok(error instanceof ArchiveReadError, String(error));
          assert.equal(error.kind, 'truncated');
          assert.match(error.message, /^many\.warc: .*\(at byte \d+; \d+ records read before it\)$/);
          return true;
        },
      );
      if (cut > warc.length / 2) assert.ok(transactions > 0, 'rows were written before the cut, then removed');
      await assertEmpty(store, 'cut');
    }
  });

  it('a cut gzipped fixture leaves nothing', TIMEOUT, async () => {
    const bytes = warcFixture('example.warc.gz');
    const store = new MemoryCrawlStore();
    await assert.rejects(
      importArchive(store, blobOf(bytes.subarray(0, bytes.length - 40)), 'example.warc.gz', { newId: () => 'cut' }),
      /^ArchiveReadError: example\.warc\.gz: .*at byte \d+/,
    );
    await assertEmpty(store, 'cut');
  });

  it('a full store leaves nothing, and rejects with its error', TIMEOUT, async () => {
    const store = new MemoryCrawlStore({ bodyBytesLimit: 20_000 });
    await assert.rejects(importArchive(store, blobOf(warc), 'many.warc', { newId: () => 'full' }), {
      name: 'StorageFullError',
    });
    await assertEmpty(store, 'full');
  });

  it('a file that is no archive stores nothing', async () => {
    const store = new MemoryCrawlStore();
    await assert.rejects(
      importArchive(store, new Blob(['%PDF-1.7 not an archive']), 'paper.pdf'),
      /paper\.pdf: this is not a WARC file/,
    );
    await assertEmpty(store, 'x');
  });

  it(
    'when a sweep of orphans removes the rows mid-import, the import fails instead of writing a crawl without them',
    TIMEOUT,
    async () => {
      const store = new MemoryCrawlStore();
      let swept = false;
      const sweeping = counting(store, () => {
        if (!swept) {
          swept = true;
          void store.deleteOrphans();
        }
      });
      await assert.rejects(
        importArchive(sweeping, blobOf(warc), 'many.warc', { newId: () => 'swept' }),
        /removed while the import ran/,
      );
      await assertEmpty(store, 'swept');
    },
  );
});

/** The store, calling `after` once each transaction has been committed. */
function counting(store: CrawlStore, after: () => void): CrawlStore {
  return Object.assign(Object.create(store) as CrawlStore, {
    async transaction<T>(work: Parameters<CrawlStore['transaction']>[0]): Promise<T> {
      const result = (await store.transaction(work)) as T;
      after();
      return result;
    },
  });
}

describe('importArchive: the round trip of a Tabcrawl WACZ', () => {
  const context = (): ExportContext => ({
    software: 'Tabcrawl 0.1.0-test',
    now: new Date(NOW),
    onRow: () => undefined,
  });

  async function originalStore(): Promise<{ store: MemoryCrawlStore; crawl: CrawlRecord }> {
    const store = new MemoryCrawlStore();
    const rows = fixtureRowsWithResources().map((row) => ({ ...row, crawlId: FIXTURE_CRAWL.id }));
    const bodies = fixtureBodies();
    let bytesStored = 0;
    for (const body of bodies.values()) bytesStored += body.byteLength;
    const left: NotCrawledUrl[] = [
      {
        crawlId: FIXTURE_CRAWL.id,
        url: 'https://a.example/deep/1',
        reason: 'depth',
        depth: 21,
        referrer: 'https://a.example/',
      },
      { crawlId: FIXTURE_CRAWL.id, url: 'https://a.example/more', reason: 'page-limit', depth: 2, referrer: null },
    ];
    const crawl: CrawlRecord = {
      ...FIXTURE_CRAWL,
      counts: { ...FIXTURE_CRAWL.counts, bytesStored, notCrawled: { depth: 1, 'page-limit': 1 } },
      message: 'Stopped by the user',
      pausedMs: 1234,
      linkBatch: 3,
    };
    await store.transaction(async (tx) => {
      await tx.putCrawl(crawl);
      await tx.putPages(rows);
      await tx.putNotCrawled(left);
      for (const row of rows) {
        const bytes = row.sha256 === null ? undefined : bodies.get(row.sha256);
        if (bytes !== undefined && row.sha256 !== null && (await tx.bodyOwner(crawl.id, row.sha256)) === undefined) {
          await tx.putBody({ crawlId: crawl.id, sha256: row.sha256, url: row.url, bytes });
        }
      }
    });
    return { store, crawl };
  }

  async function exported(store: CrawlStore, crawl: CrawlRecord, writer: FormatWriter): Promise<Buffer> {
    return collectBytes(writer(storeExportSource(store, crawl), context()));
  }

  it('gives back the same crawl, rows, bodies and exports (but ids)', TIMEOUT, async () => {
    const { store, crawl } = await originalStore();
    await assertRoundTrip(store, crawl);
  });

  it(
    'tells the twin from the original: imported from the file, its rows from an archive, as many URLs as it holds',
    TIMEOUT,
    async () => {
      const { store, crawl } = await originalStore();
      const finished: CrawlRecord = { ...crawl, message: null };
      await store.transaction((tx) => tx.putCrawl(finished));
      const fresh = new MemoryCrawlStore();
      const progress: ImportProgress[] = [];
      const { crawl: imported } = await importArchive(
        fresh,
        blobOf(await exported(store, finished, writeWacz)),
        'site-2026.wacz',
        { newId: () => 'back', onProgress: (p) => progress.push(p) },
      );
      assert.equal(imported.message, 'Imported from site-2026.wacz (Tabcrawl WACZ)');
      const rows = await allRows(fresh, 'back');
      assert.notEqual(crawl.counts.done, rows.length, 'the fixture crawl counts fewer rows than it holds');
      assert.equal(imported.counts.done, rows.length, 'the import says as many URLs as it holds');
      assert.equal(progress.at(-1)?.rows, rows.length, 'and its progress as many');
      assert.ok(rows.every((row) => row.source === 'archive'));
    },
  );

  it(
    'gives back a crawl the crawl core made of a fake site (resources, robots.txt, a redirect, a duplicate, a 404, a link out)',
    TIMEOUT,
    async () => {
      const w = world();
      const A = 'https://site.example';
      const png = { headers: { 'content-type': 'image/png' }, body: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) };
      w.site.route(`${A}/robots.txt`, {
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: *\nDisallow: /private/\n',
      });
      w.site.route(
        `${A}/`,
        page(
          ['/a', '/b', '/private/x', '/old', '/missing', '/copy', 'https://other.example/'],
          '<link rel="stylesheet" href="/s.css"><img src="/logo.png"><h1>Home</h1><meta name="description" content="d">',
        ),
      );
      w.site.route(`${A}/a`, page(['/', '/b']));
      w.site.route(`${A}/copy`, page(['/', '/b']));
      w.site.route(`${A}/b`, page(['/a', '/b/deeper'], '<title>B</title>'));
      w.site.route(`${A}/old`, { status: 301, headers: { location: '/a' } });
      w.site.route(`${A}/s.css`, {
        headers: { 'content-type': 'text/css' },
        body: 'body { background: url(/bg.png) }',
      });
      w.site.route(`${A}/logo.png`, png);
      w.site.route(`${A}/bg.png`, png);
      const { final, rows } = await crawl(w, { startUrl: `${A}/`, maxDepth: 1 });
      assert.equal(final?.state, 'finished');
      assert.deepEqual(final?.counts.notCrawled, { depth: 1 }, '/b/deeper, past the depth limit');
      assert.ok(
        rows.some((row) => row.blockedBy !== null) &&
          rows.some((row) => row.duplicateOf !== null) &&
          rows.some((row) => row.kind === 'resource'),
      );
      const crawled = await w.store.getCrawl('c1');
      assert.ok(crawled);
      await assertRoundTrip(w.store, crawled);
    },
  );

  it(
    "gives back the URLs on the user's network a crawl of a public site never asked for, with their reason (issue 27, item 8)",
    TIMEOUT,
    async () => {
      const w = world();
      const A = 'https://site.example';
      w.site.route(
        `${A}/`,
        page(
          ['/a', '/b', 'http://192.168.1.1/admin'],
          '<img src="http://127.0.0.1/cgi-bin/reboot.cgi"><link rel="stylesheet" href="/s.css">',
        ),
      );
      w.site.route(`${A}/a`, page(['/'], '<title>A</title>'));
      w.site.route(`${A}/b`, page(['/a'], '<title>B</title>'));
      w.site.route(`${A}/s.css`, { headers: { 'content-type': 'text/css' }, body: 'body { color: red }' });
      const { final } = await crawl(w, { startUrl: `${A}/` });
      assert.deepEqual(final?.counts.notCrawled, { 'private-address': 2 });
      const crawled = await w.store.getCrawl('c1');
      assert.ok(crawled);
      await assertRoundTrip(w.store, crawled);
    },
  );

  async function assertRoundTrip(store: MemoryCrawlStore, crawl: CrawlRecord): Promise<void> {
    const wacz = await exported(store, crawl, writeWacz);

    const fresh = new MemoryCrawlStore();
    const { crawl: imported, warnings } = await importArchive(fresh, blobOf(wacz), 'crawl.wacz', {
      newId: () => 'back',
    });
    assert.deepEqual(warnings, []);
    const rows = await allRows(store, crawl.id);
    // The same crawl, but that it says where it came from, and counts the rows it holds.
    const counted = emptyCounts();
    for (const row of rows) countRow(counted, row);
    const { done, fetched, errors, blocked, resources, files, external } = counted;
    assert.deepEqual(imported, {
      ...crawl,
      id: 'back',
      message: `Imported from crawl.wacz (Tabcrawl WACZ)${crawl.message === null ? '' : `; when crawled: ${crawl.message}`}`,
      counts: { ...crawl.counts, done, fetched, errors, blocked, resources, files, external },
      importedFrom: 'crawl.wacz',
    });
    assert.deepEqual(await fresh.listCrawls(), [imported]);

    // The same rows, marked as imported from an archive.
    assert.deepEqual(
      await allRows(fresh, 'back'),
      rows.map((row) => ({ ...row, crawlId: 'back', source: 'archive' })),
    );
    const left = await store.notCrawledAfter(crawl.id, null, 1000);
    assert.ok(left.length > 0, 'the crawl left URLs unvisited');
    assert.deepEqual(
      await fresh.notCrawledAfter('back', null, 1000),
      left.map((url) => ({ ...url, crawlId: 'back' })),
    );
    const hashes = new Set(rows.flatMap((row) => (row.sha256 === null ? [] : [row.sha256])));
    assert.ok(hashes.size > 3);
    for (const sha256 of hashes) {
      const body = await store.getBody(crawl.id, sha256);
      assert.ok(body, `the original has the body ${sha256}`);
      assert.deepEqual(await fresh.getBody('back', sha256), { ...body, crawlId: 'back' });
    }

    for (const writer of [writeJsonl, writeCsv]) {
      assert.deepEqual(await exported(fresh, imported, writer), await exported(store, crawl, writer));
    }
    // WARC: the same but the record ids (random) and the crawl id the warcinfo names (`isPartOf`, hence that
    // record's digest and length), the rest byte for byte (same `now`: the warcinfo's date too).
    const strip = (bytes: Buffer): string =>
      bytes
        .toString('latin1')
        .replace(/<urn:uuid:[0-9a-f-]{36}>/g, '<id>')
        .replace(/isPartOf: [^\r]*\r\n/, 'isPartOf: <crawl>\r\n')
        .replace(/WARC-Block-Digest: [^\r]*\r\n/, '')
        .replace(/Content-Length: [^\r]*\r\n/, '');
    assert.equal(
      (await exported(fresh, imported, writeWarc)).toString('latin1').match(/isPartOf: ([^\r]*)/)?.[1],
      'back',
    );
    assert.equal(strip(await exported(fresh, imported, writeWarc)), strip(await exported(store, crawl, writeWarc)));
  }

  it('reads the format the export writes, and refuses a newer one, storing nothing', TIMEOUT, async () => {
    assert.equal(TABCRAWL_CRAWL_FORMAT, EXPORTED_FORMAT);
    const warc = syntheticWarc(3);
    const crawlJson = JSON.stringify({
      format: 'tabcrawl-crawl-2',
      software: 'Tabcrawl 9',
      exportedAt: new Date(NOW).toISOString(),
      crawl: FIXTURE_CRAWL,
      rows: { path: 'tabcrawl/rows.jsonl.gz', count: 0 },
    });
    const zip = await new Response(
      makeZip([
        { name: 'archive/data.warc', input: warc },
        { name: 'tabcrawl/crawl.json', input: crawlJson },
      ]),
    ).arrayBuffer();
    const store = new MemoryCrawlStore();
    await assert.rejects(
      importArchive(store, new Blob([zip]), 'future.wacz', { newId: () => 'future' }),
      (error: unknown) => {
        assert.ok(error instanceof ArchiveReadError);
        assert.match(
          error.message,
          /^future\.wacz › tabcrawl\/crawl\.json: the crawl is saved in format tabcrawl-crawl-2, newer than this version of Tabcrawl reads \(tabcrawl-crawl-1\): update Tabcrawl/,
        );
        return true;
      },
    );
    await assertEmpty(store, 'future');
  });

  it('stores nothing when a Tabcrawl WACZ import is aborted at any point, or the WACZ is cut', TIMEOUT, async () => {
    const { store, crawl } = await originalStore();
    const wacz = await exported(store, crawl, writeWacz);
    let transactions = 0;
    const progress: ImportProgress[] = [];
    await importArchive(
      counting(new MemoryCrawlStore(), () => (transactions += 1)),
      blobOf(wacz),
      'crawl.wacz',
      { onProgress: (p) => progress.push(p) },
    );
    assert.deepEqual(progress.at(-1), {
      bytesRead: wacz.length,
      totalBytes: wacz.length,
      records: progress.at(-1)?.records,
      rows: fixtureRowsWithResources().length,
    });
    for (let k = 0; k < transactions; k += 1) {
      const target = new MemoryCrawlStore();
      const controller = new AbortController();
      let seen = 0;
      if (k === 0) controller.abort();
      const watched = counting(target, () => {
        seen += 1;
        if (seen === k) controller.abort();
      });
      await assert.rejects(
        importArchive(watched, blobOf(wacz), 'crawl.wacz', { signal: controller.signal, newId: () => 'cut' }),
        { name: 'AbortError' },
      );
      await assertEmpty(target, 'cut');
    }
    const target = new MemoryCrawlStore();
    await assert.rejects(
      importArchive(target, blobOf(wacz.subarray(0, wacz.length - 100)), 'crawl.wacz', { newId: () => 'cut' }),
      /^ArchiveReadError: crawl\.wacz: .*\(at byte \d+\)$/,
    );
    await assertEmpty(target, 'cut');
  });
});

describe('importArchive: a WACZ of another tool', () => {
  const encoder = new TextEncoder();
  async function waczOf(datapackage: object, pages: object[] | null): Promise<Blob> {
    const files: { name: string; input: Uint8Array }[] = [
      { name: 'archive/data.warc.gz', input: warcFixture('example-iana.warc') },
    ];
    if (pages !== null)
      files.push({
        name: 'pages/pages.jsonl',
        input: encoder.encode(
          [{ format: 'json-pages-1.0', id: 'pages' }, ...pages].map((line) => JSON.stringify(line)).join('\n'),
        ),
      });
    files.push({ name: 'datapackage.json', input: encoder.encode(JSON.stringify(datapackage)) });
    return new Blob([await new Response(makeZip(files)).arrayBuffer()]);
  }

  it('starts the link walk at mainPageUrl, else at the seeds of pages.jsonl', TIMEOUT, async () => {
    const warc = warcFixture('example-iana.warc');
    const start = 'https://www.iana.org/about';
    for (const [datapackage, pages] of [
      [{ profile: 'data-package', mainPageURL: start }, null],
      [
        { profile: 'data-package' },
        [
          { url: 'https://www.iana.org/', ts: '2020' },
          { url: start, ts: '2020', seed: true },
        ],
      ],
    ] as const) {
      const store = new MemoryCrawlStore();
      const { crawl } = await importArchive(
        store,
        await waczOf(datapackage, pages === null ? null : [...pages]),
        'iana.wacz',
        { newId: ids() },
      );
      assert.equal(crawl.settings.startUrl, start);
      assert.match(crawl.message ?? '', /^Imported from iana\.wacz \(WACZ\)$/);
      const rows = await allRows(store, crawl.id);
      assert.deepEqual(
        rows,
        (await readerRows(warc, crawl)).map(({ row }) => row),
      );
      assert.equal(rows.find((row) => row.url === start)?.depth, 0);
    }
  });

  it(
    "takes every seed of pages.jsonl as a site of the crawl: the pages of a second seed's host are pages, not links to another site",
    TIMEOUT,
    async () => {
      const seeds = [
        { url: 'https://example.com/', ts: '2020', seed: true },
        { url: 'https://www.iana.org/about', ts: '2020', seed: true },
      ];
      const store = new MemoryCrawlStore();
      const { crawl } = await importArchive(store, await waczOf({ profile: 'data-package' }, seeds), 'two.wacz', {
        newId: ids(),
      });
      assert.equal(crawl.settings.startUrl, 'https://example.com/');
      assert.deepEqual(crawl.settings.extraOrigins, ['https://www.iana.org']);
      const rows = await allRows(store, crawl.id);
      assert.equal(rows.find((row) => row.url === 'https://www.iana.org/about')?.kind, 'page');
      assert.equal(rows.find((row) => row.url === 'https://www.iana.org/domains')?.kind, 'page');
      // Only a URL of neither site is another site's: http://www.iana.org/… (another scheme, so another origin).
      assert.deepEqual(
        rows.filter((row) => row.kind === 'external').map((row) => row.url),
        ['http://www.iana.org/domains/reserved'],
      );
    },
  );
});

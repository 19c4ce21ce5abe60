/**
 * The URLs a crawl left unvisited, outside the extension: in the WACZ an export of a stored crawl writes
 * (for an import to list them again), as the `not-crawled.csv` export (`--out NAME.not-crawled.csv`), and
 * the command line's line about them.
 */
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { describe, test } from 'node:test';
import { fromBufferPromise } from 'yauzl';
import type { CrawlRecord, NotCrawledUrl } from '../../src/core/model.ts';
import { formatOfPath, type ExportFormat } from '../../src/export/format-info.ts';
import { notCrawledLine } from '../../src/shells/cli/run-cli.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { exported as exportedThroughPipeline } from '../support/exported.ts';
import { crawlFixture, pageFixture } from '../support/store-contract.ts';

const SITE = 'https://c1.example';

const LEFT: NotCrawledUrl[] = [
  { crawlId: 'c1', url: `${SITE}/deep/x`, reason: 'depth', depth: 6, referrer: `${SITE}/deep` },
  { crawlId: 'c1', url: `${SITE}/more`, reason: 'page-limit', depth: 1, referrer: `${SITE}/` },
  { crawlId: 'c1', url: `${SITE}/private/=1`, reason: 'excluded', depth: 2, referrer: null },
];

/** A stored crawl of two pages that left {@link LEFT} unvisited; counted when `isCounted` (it finished). */
async function storedCrawl(isCounted: boolean): Promise<MemoryCrawlStore> {
  const fixture = crawlFixture('c1', Date.UTC(2026, 10, 21, 12));
  const crawl: CrawlRecord = {
    ...fixture,
    settings: { ...fixture.settings, maxDepth: 5, maxPages: 2 },
    state: isCounted ? 'finished' : 'stopped',
    counts: { ...fixture.counts, ...(isCounted ? { notCrawled: { depth: 1, 'page-limit': 1, excluded: 1 } } : {}) },
  };
  const store = new MemoryCrawlStore();
  await store.transaction(async (tx) => {
    await tx.putCrawl(crawl);
    await tx.putPages([pageFixture('c1', `${SITE}/`, 1), pageFixture('c1', `${SITE}/deep`, 2)]);
    await tx.putNotCrawled(LEFT);
  });
  return store;
}

/** Exports crawl `c1` as `format` through the pipeline every export goes through (the command line's sink). */
const exported = (store: MemoryCrawlStore, format: ExportFormat) => exportedThroughPipeline(store, 'c1', format);

async function zipEntry(zip: Buffer, name: string): Promise<Buffer> {
  const file = await fromBufferPromise(zip, { lazyEntries: true });
  for await (const entry of file.eachEntry()) {
    if (entry.fileName !== name) continue;
    const parts: Buffer[] = [];
    for await (const part of await file.openReadStreamPromise(entry)) parts.push(Buffer.from(part as Uint8Array));
    return Buffer.concat(parts);
  }
  throw new Error(`${name} is not in the zip`);
}

describe('the URLs left unvisited, exported', () => {
  test('a WACZ of a stored crawl holds its list of URLs not crawled, as the count says', async () => {
    const { bytes } = await exported(await storedCrawl(true), 'wacz');
    const crawlFile = JSON.parse((await zipEntry(bytes, 'tabcrawl/crawl.json')).toString('utf8')) as {
      notCrawled?: unknown;
    };
    assert.deepEqual(crawlFile.notCrawled, { path: 'tabcrawl/not-crawled.jsonl.gz', count: 3 });
    const lines = gunzipSync(await zipEntry(bytes, 'tabcrawl/not-crawled.jsonl.gz'))
      .toString('utf8')
      .trimEnd()
      .split('\n');
    assert.deepEqual(
      lines.map((line) => JSON.parse(line) as unknown),
      LEFT,
    );
  });

  test('not-crawled.csv lists each URL with its reason, why in words, its depth and the page that linked it', async () => {
    const { bytes, result, reports } = await exported(await storedCrawl(true), 'not-crawled.csv');
    assert.equal(
      bytes.toString('utf8'),
      '\uFEFFurl,reason,why,depth,found_on\r\n' +
        `${SITE}/deep/x,depth,deeper than 5,6,${SITE}/deep\r\n` +
        `${SITE}/more,page-limit,past the page limit (2),1,${SITE}/\r\n` +
        `${SITE}/private/=1,excluded,excluded by a pattern,2,\r\n`,
    );
    assert.equal(result.fileName, 'c1.example-2026-11-21.not-crawled.csv');
    assert.equal(result.rows, 3, 'the URLs written are what the command line counts');
    assert.equal(result.formatName, 'Not crawled CSV');
    assert.ok(
      reports.every((progress) => progress.rowsTotal === 3),
      "progress runs to the URLs left out, not the crawl's rows",
    );
  });

  test('not-crawled.csv of a crawl that ended before counting them lists what is stored, and counts it', async () => {
    const { bytes, result, reports } = await exported(await storedCrawl(false), 'not-crawled.csv');
    assert.equal(bytes.toString('utf8').trimEnd().split('\r\n').length, 1 + LEFT.length);
    assert.equal(result.rows, 3);
    assert.equal(reports[0]?.rowsTotal, 3);
  });

  test('--out NAME.not-crawled.csv picks the format by its name', () => {
    assert.equal(formatOfPath('site.not-crawled.csv'), 'not-crawled.csv');
    assert.equal(formatOfPath('site.csv'), 'csv');
  });

  test('the command line names the file that lists them, not a results page its user does not have', () => {
    const crawl = {
      counts: { notCrawled: { depth: 13, excluded: 1 } },
      settings: { maxDepth: 2, maxPages: 500, pathPrefix: '' },
    };
    assert.equal(
      notCrawledLine(crawl, false),
      '14 URLs not crawled: 13 deeper than 2, 1 excluded by a pattern; every one: --out NAME.not-crawled.csv',
    );
    assert.equal(notCrawledLine(crawl, true), '14 URLs not crawled: 13 deeper than 2, 1 excluded by a pattern');
    assert.equal(notCrawledLine({ ...crawl, counts: {} }, false), null);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrawlRecord, PageRecord } from '../../src/core/model.ts';
import { parse } from 'csv-parse/sync';
import { filteredCsv } from '../../src/results/filtered-csv.ts';
import type { RowReader } from '../../src/results/row-reader.ts';
import {
  toPageListRow,
  type PageQueries,
  type PageQuery,
  type PageQueryResult,
} from '../../src/storage/page-queries.ts';
import { pageFixture } from '../support/store-contract.ts';

const A = 'https://a.example';

function row(seq: number, path: string): PageRecord {
  return { ...pageFixture('c1', `${A}${path}`, 0), seq };
}

/** Rows sorted by URL; `onQuery` may add rows between two windows, as a running crawl does. */
class GrowingQueries implements PageQueries {
  queries = 0;
  constructor(
    readonly rows: PageRecord[],
    private readonly onQuery: (count: number, rows: PageRecord[]) => void,
  ) {}

  query(query: PageQuery): Promise<PageQueryResult> {
    this.onQuery((this.queries += 1), this.rows);
    const sorted = [...this.rows].sort((a, b) => a.url.localeCompare(b.url));
    return Promise.resolve({
      rows: sorted.slice(query.offset, query.offset + query.limit).map(toPageListRow),
      total: sorted.length,
    });
  }

  facets(): never {
    throw new Error('not used');
  }
}

function readerOf(queries: GrowingQueries): RowReader {
  const find = (url: string): PageRecord | undefined => queries.rows.find((r) => r.url === url);
  return {
    getRow: (_crawlId, url) => Promise.resolve(find(url)),
    getRows: (_crawlId, urls) => Promise.resolve(urls.map(find)),
    rowsAfter: () => Promise.resolve([]),
    getCrawl: () => Promise.resolve(undefined as CrawlRecord | undefined),
    getBody: () => Promise.resolve(undefined),
    notCrawledAfter: () => Promise.resolve([]),
  };
}

describe('the current view as CSV', () => {
  it('writes each row once when the crawl adds rows ahead of the window being read', async () => {
    const rows = Array.from({ length: 1200 }, (_, index) => row(index + 1, `/p${String(index).padStart(4, '0')}`));
    // After the first window, rows sorting first arrive: every later window shifts by as many.
    const queries = new GrowingQueries(rows, (count, all) => {
      if (count === 2) all.push(row(2001, '/a-new-1'), row(2002, '/a-new-2'), row(2003, '/a-new-3'));
    });
    const { text, rows: written } = await filteredCsv(queries, readerOf(queries), {
      crawlId: 'c1',
      sort: { column: 'url', descending: false },
      filter: {},
    });
    const urls = text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    assert.equal(new Set(urls).size, urls.length, 'no row written twice');
    for (const r of rows.slice(0, 1200)) assert.ok(urls.includes(r.url), `${r.url} written`);
    assert.equal(written, urls.length);
  });

  it("counts a row's resources and broken resources from their rows, whether the view holds them or not", async () => {
    const rows = [
      { ...row(1, '/page'), resources: [`${A}/ok.png`, `${A}/gone.png`, `${A}/never.png`] },
      { ...row(2, '/ok.png'), kind: 'resource' as const },
      { ...row(3, '/gone.png'), kind: 'resource' as const, status: 404 },
    ];
    const queries = new GrowingQueries(rows, () => undefined);
    // The view's filter keeps the page alone: its resources are read by key.
    queries.query = (query) =>
      Promise.resolve({
        rows: rows
          .slice(0, 1)
          .slice(query.offset, query.offset + query.limit)
          .map(toPageListRow),
        total: 1,
      });
    const { text } = await filteredCsv(queries, readerOf(queries), {
      crawlId: 'c1',
      sort: { column: 'url', descending: false },
      filter: { kind: 'page' },
    });
    const records = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    assert.deepEqual(
      records.map((r) => [r['url'], r['kind'], r['resourceCount'], r['brokenResourceCount']]),
      [[`${A}/page`, 'page', '3', '1']],
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuditResult, Finding } from '../../src/audit/engine.ts';
import type { CrawlRecord, PageRecord } from '../../src/core/model.ts';
import type { Send } from '../../src/messaging/client.ts';
import { TabcrawlError, type CrawlSummary, type RequestType } from '../../src/messaging/protocol.ts';
import {
  allRows,
  exportIssuesView,
  exportTableView,
  exportTableViewLinks,
  saveBrowsertrixConfig,
  sendCrawlAction,
} from '../../src/results/results-actions.ts';
import type { RowReader } from '../../src/results/row-reader.ts';
import {
  toPageListRow,
  type PageQueries,
  type PageQuery,
  type PageQueryResult,
} from '../../src/storage/page-queries.ts';
import { crawlFixture, pageFixture } from '../support/store-contract.ts';
import { parse } from 'csv-parse/sync';

const crawl = crawlFixture('c1');

function rows(count: number): PageRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    ...pageFixture('c1', `https://c1.example/p${index + 1}`, 0),
    seq: index + 1,
  }));
}

/** A reader over these rows that records each `rowsAfter` asked. */
function readerOf(all: PageRecord[], asked: [number, number][] = []): RowReader {
  const find = (url: string): PageRecord | undefined => all.find((row) => row.url === url);
  return {
    getRow: (_crawlId, url) => Promise.resolve(find(url)),
    getRows: (_crawlId, urls) => Promise.resolve(urls.map(find)),
    rowsAfter: (_crawlId, afterSeq, limit) => {
      asked.push([afterSeq, limit]);
      return Promise.resolve(all.filter((row) => row.seq > afterSeq).slice(0, limit));
    },
    getCrawl: () => Promise.resolve(undefined as CrawlRecord | undefined),
    getBody: () => Promise.resolve(undefined),
    notCrawledAfter: () => Promise.resolve([]),
  };
}

function queriesOf(all: PageRecord[]): PageQueries {
  return {
    query: (query: PageQuery): Promise<PageQueryResult> =>
      Promise.resolve({
        rows: all.slice(query.offset, query.offset + query.limit).map(toPageListRow),
        total: all.length,
      }),
    facets: () => Promise.reject(new Error('not used')),
  };
}

/** A `saveCsv` that keeps what it is given. */
function saver() {
  const saved: { name: string; text: string }[] = [];
  return { saved, saveCsv: (name: string, text: string) => Promise.resolve(void saved.push({ name, text })) };
}

function finding(check: Finding['check'], url: string): Finding {
  return { check, url, detail: 'd', related: [], relatedCount: 0 };
}

describe('results actions: every row', () => {
  it('reads the rows 500 at a time after the last seq, and stops at a short page', async () => {
    const asked: [number, number][] = [];
    const seen: number[] = [];
    for await (const row of allRows(readerOf(rows(1200), asked), 'c1')) seen.push(row.seq);
    assert.equal(seen.length, 1200);
    assert.deepEqual(asked, [
      [0, 500],
      [500, 500],
      [1000, 500],
    ]);
  });

  it('asks once more after a full last page, and ends on an empty one', async () => {
    const asked: [number, number][] = [];
    let count = 0;
    for await (const _row of allRows(readerOf(rows(500), asked), 'c1')) count += 1;
    assert.equal(count, 500);
    assert.deepEqual(asked, [
      [0, 500],
      [500, 500],
    ]);
  });
});

describe('results actions: saving the view', () => {
  it('saves the table view as <site>-<date>-view.csv with a row per URL', async () => {
    const all = rows(3);
    const { saved, saveCsv } = saver();
    await exportTableView({ queries: queriesOf(all), reader: readerOf(all), saveCsv }, crawl, {
      crawlId: 'c1',
      sort: { column: 'seq', descending: false },
      filter: {},
    });
    assert.equal(saved[0]?.name, 'c1.example-2026-01-01-view.csv');
    assert.equal(saved[0]?.text.trimEnd().split('\r\n').length, 4);
  });

  it("saves the links of the table view as <site>-<date>-view.links.csv, with each target's answer", async () => {
    const all = rows(3);
    all[0] = { ...all[0]!, links: ['https://c1.example/p2', 'https://c1.example/left'], linkTexts: ['Two', ''] };
    const reader: RowReader = {
      ...readerOf(all),
      notCrawledAfter: (_crawlId, after) =>
        Promise.resolve(
          after === null
            ? [{ crawlId: 'c1', url: 'https://c1.example/left', reason: 'depth' as const, depth: 9, referrer: null }]
            : [],
        ),
    };
    const { saved, saveCsv } = saver();
    // The view holds the first row only (a filter): its links' targets are read whether in the view or not.
    const one: PageQueries = { ...queriesOf(all.slice(0, 1)) };
    await exportTableViewLinks({ queries: one, reader, saveCsv }, crawl, {
      crawlId: 'c1',
      sort: { column: 'seq', descending: false },
      filter: { search: 'p1' },
    });
    assert.equal(saved[0]?.name, 'c1.example-2026-01-01-view.links.csv');
    const lines = parse((saved[0]?.text ?? '').replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    assert.deepEqual(
      lines.map((l) => [l['source'], l['target'], l['anchor'], l['followed'], l['target_status'], l['target_kind']]),
      [
        ['https://c1.example/p1', 'https://c1.example/p2', 'Two', 'yes', '200', 'page'],
        ['https://c1.example/p1', 'https://c1.example/left', '', 'no', '', 'not-crawled'],
      ],
    );
    assert.match(lines[1]?.['target_note'] ?? '', /^not crawled: /);
  });

  it('lets a failed read of the table reject, and saves nothing', async () => {
    const { saved, saveCsv } = saver();
    const failing: PageQueries = {
      query: () => Promise.reject(new Error('disk gone')),
      facets: () => Promise.reject(new Error('not used')),
    };
    await assert.rejects(
      exportTableView({ queries: failing, reader: readerOf([]), saveCsv }, crawl, {
        crawlId: 'c1',
        sort: { column: 'seq', descending: false },
        filter: {},
      }),
      /disk gone/,
    );
    assert.deepEqual(saved, []);
  });

  it('saves the issues of the checks open, named after the one check open', async () => {
    const result: AuditResult = {
      findings: new Map([
        ['broken-resource', [finding('broken-resource', 'https://c1.example/a')]],
        ['redirect-chain', [finding('redirect-chain', 'https://c1.example/b')]],
      ]),
      notJudged: new Map(),
      scans: 1,
    };
    const { saved, saveCsv } = saver();
    await exportIssuesView({ saveCsv }, crawl, result, ['redirect-chain']);
    assert.equal(saved[0]?.name, 'c1.example-2026-01-01-issues-redirect-chain.csv');
    assert.match(saved[0]?.text ?? '', /c1\.example\/b/);
    assert.doesNotMatch(saved[0]?.text ?? '', /c1\.example\/a/);
    await exportIssuesView({ saveCsv }, crawl, result, []);
    assert.equal(saved[1]?.name, 'c1.example-2026-01-01-issues.csv');
    assert.match(saved[1]?.text ?? '', /c1\.example\/a/);
  });

  it('refuses to save the issues while they are still being checked', async () => {
    const { saved, saveCsv } = saver();
    await assert.rejects(exportIssuesView({ saveCsv }, crawl, null, []), /still being checked/);
    assert.deepEqual(saved, []);
  });

  it('saves the crawl as a Browsertrix config naming this version', async () => {
    const saved: [string, string][] = [];
    await saveBrowsertrixConfig(
      { saveConfig: (name, text) => Promise.resolve(saved.push([name, text])), tabcrawlVersion: '9.9' },
      crawl,
    );
    assert.equal(saved[0]?.[0], 'c1.example-2026-01-01.browsertrix.yaml');
    assert.match(saved[0]?.[1] ?? '', /9\.9/);
  });
});

describe('results actions: Pause, Resume, Stop', () => {
  const summary = { id: 'c1', state: 'paused' } as CrawlSummary;
  function sendAnswering(answer: () => Promise<{ crawl: CrawlSummary }>, sent: RequestType[] = []): Send {
    return ((type: RequestType) => {
      sent.push(type);
      return answer();
    }) as Send;
  }

  it('sends the action and gives the reply to lay over the record read before, as of its arrival', async () => {
    const sent: RequestType[] = [];
    const reply = await sendCrawlAction(
      sendAnswering(() => Promise.resolve({ crawl: summary }), sent),
      'c1',
      'pause',
      crawl,
      () => 42,
    );
    assert.deepEqual(sent, ['crawl/pause']);
    assert.deepEqual(reply, { summary, before: crawl, receivedAt: 42 });
  });

  it('gives no reply to show when no record had been read', async () => {
    assert.equal(
      await sendCrawlAction(
        sendAnswering(() => Promise.resolve({ crawl: summary })),
        'c1',
        'stop',
        undefined,
        () => 0,
      ),
      null,
    );
  });

  it("rejects with the background's error when the request fails", async () => {
    const refused = new TabcrawlError({ code: 'not-found', message: 'no such crawl' });
    await assert.rejects(
      sendCrawlAction(
        sendAnswering(() => Promise.reject(refused)),
        'c1',
        'resume',
        crawl,
        () => 0,
      ),
      (err) => err instanceof TabcrawlError && err.code === 'not-found',
    );
  });
});

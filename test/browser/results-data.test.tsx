import { expect } from 'chai';
import { Dexie } from 'dexie';
import { DexieRowReader } from '../../src/results/dexie-row-reader.ts';
import { NO_TABLE_PARAMS, parseResultsParams, resultsPagePath, resultsSearch } from '../../src/messaging/routes.ts';
import { nextSort, toPageFilter } from '../../src/results/results-query.ts';
import { RowWindows } from '../../src/results/row-windows.ts';
import { redirectChain } from '../../src/results/url-detail-queries.ts';
import { TabcrawlDatabase } from '../../src/storage/database.ts';
import { DexieCrawlStore } from '../../src/storage/dexie-crawl-store.ts';
import {
  CRAWL_ID,
  FakePageQueries,
  FakeRowReader,
  SITE,
  crawlRecord,
  manyListRows,
  pageRecord,
} from './support/results-fakes.ts';

/** Lets pending promise callbacks run. */
function flush(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

describe('results row windows', () => {
  const base = { crawlId: CRAWL_ID, sort: { column: 'seq' as const, descending: false }, filter: {} };

  it('drops a reply for an older query that arrives after the query changed', async () => {
    const queries = new FakePageQueries(manyListRows(300));
    queries.isHolding = true;
    const windows = new RowWindows(queries, () => undefined, { windowSize: 50 });
    windows.setQuery(base);
    windows.ensure(0, 10);
    windows.setQuery({ ...base, sort: { column: 'seq', descending: true } });
    windows.ensure(0, 10);
    const [old, fresh] = queries.held;
    if (old === undefined || fresh === undefined) throw new Error('expected two held replies');
    fresh.release();
    await flush();
    old.release();
    await flush();
    expect(windows.rowAt(0)?.seq).to.equal(300);
    expect(windows.total).to.equal(300);
  });

  it('fetches each window once and keeps no more windows than its limit', async () => {
    const queries = new FakePageQueries(manyListRows(1000));
    const windows = new RowWindows(queries, () => undefined, { windowSize: 100, maxWindows: 2 });
    windows.setQuery(base);
    windows.ensure(0, 150);
    windows.ensure(0, 150);
    expect(queries.queries.map((query) => query.offset)).to.deep.equal([0, 100]);
    await flush();
    windows.ensure(500, 520);
    await flush();
    expect(windows.rowAt(500)?.seq).to.equal(501);
    expect(windows.rowAt(0)).to.equal(undefined);
    expect(windows.rowAt(150)?.seq).to.equal(151);
  });
});

describe('results query helpers', () => {
  it('sorts a new column ascending and reverses the same column', () => {
    expect(nextSort({ column: 'seq', descending: false }, 'url')).to.deep.equal({ column: 'url', descending: false });
    expect(nextSort({ column: 'url', descending: false }, 'url')).to.deep.equal({ column: 'url', descending: true });
  });

  it('leaves unset filters out of the query and trims the search', () => {
    expect(
      toPageFilter({ statusClasses: [], kind: null, mediaType: null, depth: null, indexability: null }, '  '),
    ).to.deep.equal({});
    expect(
      toPageFilter(
        { statusClasses: ['blocked'], kind: 'resource', mediaType: '', depth: 0, indexability: 'noindex' },
        ' a ',
      ),
    ).to.deep.equal({
      statusClasses: ['blocked'],
      kind: 'resource',
      mediaType: '',
      depth: 0,
      indexability: 'noindex',
      search: 'a',
    });
  });

  it('stops a redirect chain after 20 hops', async () => {
    const rows = Array.from({ length: 30 }, (_, index) =>
      pageRecord(index + 1, {
        url: `${SITE}/r${index}`,
        status: 301,
        location: `${SITE}/r${index + 1}`,
        referrer: null,
      }),
    );
    const first = rows[0];
    if (first === undefined) throw new Error('no rows');
    const chain = await redirectChain(new FakeRowReader(rows), first);
    expect(chain.hops).to.have.lengthOf(21);
    expect(chain.isCut).to.equal(true);
    expect(chain.hasLoop).to.equal(false);
  });
});

describe('DexieRowReader on IndexedDB', () => {
  let db: TabcrawlDatabase | undefined;

  afterEach(async () => {
    if (db === undefined) return;
    db.close();
    await Dexie.delete(db.name);
    db = undefined;
  });

  it('reads one row, rows in the asked order and rows after a seq, within one crawl', async () => {
    db = new TabcrawlDatabase(`tabcrawl-results-${Date.now()}`);
    const rows = [1, 2, 3].map((seq) => pageRecord(seq));
    const stranger = { ...pageRecord(9), crawlId: 'other' };
    await new DexieCrawlStore(db).transaction(async (tx) => {
      await tx.putCrawl(crawlRecord());
      await tx.putPages([...rows, stranger]);
    });
    const reader = new DexieRowReader(db);
    expect((await reader.getRow(CRAWL_ID, `${SITE}/p2`))?.seq).to.equal(2);
    expect(await reader.getRow(CRAWL_ID, `${SITE}/p9`)).to.equal(undefined);
    const some = await reader.getRows(CRAWL_ID, [`${SITE}/p3`, `${SITE}/nope`, `${SITE}/p1`]);
    expect(some.map((row) => row?.seq)).to.deep.equal([3, undefined, 1]);
    expect((await reader.rowsAfter(CRAWL_ID, 1, 500)).map((row) => row.seq)).to.deep.equal([2, 3]);
    expect((await reader.rowsAfter(CRAWL_ID, 0, 2)).map((row) => row.seq)).to.deep.equal([1, 2]);
    expect((await reader.getCrawl(CRAWL_ID))?.state).to.equal('finished');
  });
});

describe('results page address', () => {
  it('reads the crawl and the URL from the address and writes them back the same', () => {
    const url = `${SITE}/a?b=c&d=e#f`;
    const nothingMore = { checks: [], scrollY: 0, table: NO_TABLE_PARAMS };
    expect(parseResultsParams(resultsSearch(CRAWL_ID, url))).to.deep.equal({
      crawlId: CRAWL_ID,
      url,
      view: 'table',
      ...nothingMore,
    });
    expect(parseResultsParams('?crawl=&url=')).to.deep.equal({
      crawlId: null,
      url: null,
      view: 'table',
      ...nothingMore,
    });
    expect(resultsPagePath(CRAWL_ID)).to.equal(`src/shells/results/index.html?crawl=${CRAWL_ID}`);
  });

  it('reads the view from the address and writes it back the same; the table when it names none or no view', () => {
    expect(parseResultsParams(resultsSearch(CRAWL_ID, null, 'issues'))).to.deep.include({
      crawlId: CRAWL_ID,
      url: null,
      view: 'issues',
    });
    expect(resultsPagePath(CRAWL_ID, null, 'issues')).to.equal(
      `src/shells/results/index.html?crawl=${CRAWL_ID}&view=issues`,
    );
    expect(parseResultsParams(`?crawl=${CRAWL_ID}&view=reports`).view).to.equal('reports');
    expect(parseResultsParams(`?crawl=${CRAWL_ID}&view=nope`).view).to.equal('table');
  });

  it("reads the open checks, the table's filters and order and the scroll from the address and writes them back the same", () => {
    const more = {
      checks: ['title-missing', 'broken-link-internal'],
      scrollY: 480,
      table: {
        status: ['4xx', '5xx'],
        kind: 'page',
        media: 'text/html',
        depth: '2',
        index: 'indexable',
        search: 'a b&c',
        sort: '-status',
      },
    };
    const search = resultsSearch(CRAWL_ID, `${SITE}/x`, 'issues', more);
    expect(parseResultsParams(search)).to.deep.equal({ crawlId: CRAWL_ID, url: `${SITE}/x`, view: 'issues', ...more });
    expect(parseResultsParams(`?crawl=${CRAWL_ID}&scroll=-3`).scrollY).to.equal(0);
    expect(parseResultsParams(`?crawl=${CRAWL_ID}&scroll=abc`).scrollY).to.equal(0);
  });
});

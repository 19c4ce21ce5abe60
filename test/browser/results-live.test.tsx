import { expect } from 'chai';
import { act } from 'preact/test-utils';
import type { CrawlRecord, PageRecord } from '../../src/core/model.ts';
import { ROW_HEIGHT_PX } from '../../src/results/results-grid.tsx';
import { RowWindows } from '../../src/results/row-windows.ts';
import type {
  PageFacets,
  PageListRow,
  PageQueries,
  PageQuery,
  PageQueryResult,
} from '../../src/storage/page-queries.ts';
import { click, settle, waitFor } from './support/popup-harness.tsx';
import { CRAWL_ID, FakeRowReader, SITE, crawlRecord, facetsOf, manyListRows } from './support/results-fakes.ts';
import { loadResultsStyles, mountResults, press, type MountedResults } from './support/results-harness.tsx';

/** Short poll so the tests need not wait 2 s. */
const POLL_MS = 20;

/** Rows in `seq` order that a test can add to, as a running crawl writes them; replies may be held. */
class GrowingQueries implements PageQueries {
  readonly queries: PageQuery[] = [];
  readonly facetCalls: string[] = [];
  isHolding = false;
  readonly held: (() => void)[] = [];

  constructor(public rows: PageListRow[]) {}

  query(query: PageQuery): Promise<PageQueryResult> {
    this.queries.push(query);
    const ordered = query.sort.descending ? [...this.rows].reverse() : this.rows;
    const result: PageQueryResult = {
      rows: ordered.slice(query.offset, query.offset + query.limit),
      total: this.rows.length,
    };
    if (!this.isHolding) return Promise.resolve(result);
    return new Promise((resolve) => this.held.push(() => resolve(result)));
  }

  facets(crawlId: string): Promise<PageFacets> {
    this.facetCalls.push(crawlId);
    return Promise.resolve(facetsOf(this.rows));
  }

  releaseAll(): void {
    for (const release of this.held.splice(0)) release();
  }
}

/** A reader whose crawl record a test can change between reads; counts the reads. */
class LiveReader extends FakeRowReader {
  crawlReads = 0;

  constructor(
    rows: readonly PageRecord[],
    public record: CrawlRecord,
  ) {
    super(rows, record);
  }

  override getCrawl(crawlId: string): Promise<CrawlRecord | undefined> {
    this.crawlReads += 1;
    return Promise.resolve(crawlId === CRAWL_ID ? structuredClone(this.record) : undefined);
  }
}

function runningCrawl(done: number): CrawlRecord {
  return crawlRecord({
    state: 'running',
    endedAt: null,
    counts: { admitted: done + 50, done, fetched: done, errors: 0, blocked: 0, bytesStored: done * 1024 },
  });
}

describe('results while the crawl runs', () => {
  let view: MountedResults | undefined;

  before(async () => {
    await loadResultsStyles();
  });

  afterEach(async () => {
    await view?.unmount();
    view = undefined;
  });

  it('updates the total, the counters and the facets when a running crawl gains rows, keeping scroll, selection and detail', async function (this: MochaContext) {
    this.timeout(10_000);
    const all = manyListRows(400);
    const queries = new GrowingQueries(all.slice(0, 300));
    const reader = new LiveReader([], runningCrawl(300));
    view = await mountResults({ queries, reader, crawlId: CRAWL_ID, pollMs: POLL_MS });
    const mounted = view;
    await waitFor(() => expect(mounted.byTestId('results-total').textContent).to.equal('300 URLs'));
    expect(mounted.byTestId('results-counter-done').textContent).to.equal('done300');
    expect(mounted.byTestId('results-bytes-stored').textContent).to.equal('stored300.0 KiB');

    const scroller = mounted.byTestId('results-scroll');
    await act(() => {
      scroller.scrollTop = 150 * ROW_HEIGHT_PX;
      scroller.dispatchEvent(new Event('scroll'));
    });
    await waitFor(() =>
      expect(mounted.allByTestId('results-row').some((row) => row.dataset['url'] === `${SITE}/page/151`)).to.equal(
        true,
      ),
    );
    const target = mounted.allByTestId('results-row').find((row) => row.dataset['url'] === `${SITE}/page/152`);
    if (target === undefined) throw new Error('row 152 is not rendered');
    await click(target);
    await waitFor(() => expect(mounted.byTestId('detail').dataset['url']).to.equal(`${SITE}/page/152`));
    const facetReads = queries.facetCalls.length;
    const scrollTop = scroller.scrollTop;

    queries.rows = all;
    reader.record = runningCrawl(400);

    await waitFor(() => expect(mounted.byTestId('results-total').textContent).to.equal('400 URLs'));
    expect(mounted.byTestId('results-counter-done').textContent).to.equal('done400');
    expect(mounted.byTestId('results-bytes-stored').textContent).to.equal('stored400.0 KiB');
    await waitFor(() => expect(queries.facetCalls.length).to.be.above(facetReads));
    expect(mounted.byTestId('filter-2xx').textContent).to.equal(`2xx${facetsOf(all).statusClasses['2xx']}`);
    expect(scroller.scrollTop).to.equal(scrollTop);
    expect(mounted.byTestId('detail').dataset['url']).to.equal(`${SITE}/page/152`);
    const selected = mounted.allByTestId('results-row').find((row) => row.getAttribute('aria-selected') === 'true');
    expect(selected?.dataset['url']).to.equal(`${SITE}/page/152`);
    expect(mounted.byTestId('results-crawl-state').textContent).to.equal('running');

    reader.record = { ...runningCrawl(400), state: 'finished', endedAt: 1_700_000_200_000 };
    await waitFor(() => expect(mounted.byTestId('results-crawl-state').textContent).to.equal('finished'));
    const reads = reader.crawlReads;
    await settle(POLL_MS * 5);
    expect(reader.crawlReads).to.equal(reads);
  });

  it('reads a finished crawl once and never polls it', async () => {
    const queries = new GrowingQueries(manyListRows(5));
    const reader = new LiveReader([], crawlRecord());
    view = await mountResults({ queries, reader, crawlId: CRAWL_ID, pollMs: POLL_MS });
    const mounted = view;
    await waitFor(() => expect(mounted.byTestId('results-crawl-state').textContent).to.equal('finished'));
    await settle(POLL_MS * 5);
    expect(reader.crawlReads).to.equal(1);
    expect(queries.facetCalls).to.have.lengthOf(1);
  });

  it('stops polling when the view is unmounted', async () => {
    const reader = new LiveReader([], runningCrawl(5));
    view = await mountResults({
      queries: new GrowingQueries(manyListRows(5)),
      reader,
      crawlId: CRAWL_ID,
      pollMs: POLL_MS,
    });
    await waitFor(() => expect(reader.crawlReads).to.be.at.least(2));
    await view.unmount();
    view = undefined;
    const reads = reader.crawlReads;
    await settle(POLL_MS * 5);
    expect(reader.crawlReads).to.equal(reads);
  });

  it('keeps the selection when arrows move it and the crawl then gains rows', async () => {
    const all = manyListRows(8);
    const queries = new GrowingQueries(all.slice(0, 4));
    const reader = new LiveReader([], runningCrawl(4));
    view = await mountResults({ queries, reader, crawlId: CRAWL_ID, pollMs: POLL_MS });
    const mounted = view;
    await waitFor(() => expect(mounted.allByTestId('results-row')).to.have.lengthOf(4));
    const grid = mounted.byTestId('results-grid');
    grid.focus();
    await press(grid, 'ArrowDown');
    await press(grid, 'ArrowDown');

    queries.rows = all;
    reader.record = runningCrawl(8);

    await waitFor(() => expect(mounted.allByTestId('results-row')).to.have.lengthOf(8));
    expect(mounted.allByTestId('results-row').map((row) => row.getAttribute('aria-selected'))).to.deep.equal([
      'false',
      'false',
      'true',
      'false',
      'false',
      'false',
      'false',
      'false',
    ]);
  });
});

describe('row windows refresh', () => {
  it("keeps showing a window's previous rows until its fresh reply replaces the whole window", async () => {
    const all = manyListRows(10);
    const queries = new GrowingQueries(all.slice(0, 3));
    let changes = 0;
    const windows = new RowWindows(queries, () => (changes += 1), { windowSize: 4 });
    windows.setQuery({ crawlId: CRAWL_ID, sort: { column: 'seq', descending: true }, filter: {} });
    windows.ensure(0, 7);
    await settle();
    expect(windows.total).to.equal(3);
    expect(windows.rowAt(0)?.seq).to.equal(3);

    queries.rows = all;
    queries.isHolding = true;
    windows.refresh();
    expect(windows.rowAt(0)?.seq).to.equal(3, 'the previous rows stay while the fresh ones load');
    expect(windows.total).to.equal(3);
    expect(queries.held.length).to.be.above(0);

    queries.releaseAll();
    await settle();
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((index) => windows.rowAt(index)?.seq)).to.deep.equal([10, 9, 8, 7, 6, 5, 4, 3]);
    expect(windows.total).to.equal(10);
    expect(changes).to.be.above(1);
  });

  it('ignores a reply to a fetch made before the refresh', async () => {
    const all = manyListRows(6);
    const queries = new GrowingQueries(all.slice(0, 2));
    const windows = new RowWindows(queries, () => undefined, { windowSize: 4 });
    windows.setQuery({ crawlId: CRAWL_ID, sort: { column: 'seq', descending: false }, filter: {} });
    queries.isHolding = true;
    windows.ensure(0, 3);
    const before = queries.held.splice(0);
    queries.rows = all;
    windows.refresh();
    queries.releaseAll();
    await settle();
    expect(windows.total).to.equal(6);
    for (const release of before) release();
    await settle();
    expect(windows.total).to.equal(6);
    expect(windows.rowAt(3)?.seq).to.equal(4);
  });
});

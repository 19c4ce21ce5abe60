/**
 * The page facts as columns of the results table: the column chooser (kept in
 * the page's storage), the cells, sorting by the new columns, the
 * indexability filter, and the table narrowed to one issue's URLs.
 */
import { expect } from 'chai';
import { act } from 'preact/test-utils';
import {
  COLUMNS_PREF_KEY,
  DEFAULT_COLUMNS,
  loadShownColumns,
  shownColumnsOf,
  type PrefsStorage,
  type ShownColumn,
} from '../../src/results/column-prefs.ts';
import { fittingColumns } from '../../src/results/results-grid.tsx';
import { urlListQueries } from '../../src/results/url-list-queries.ts';
import { click, settle, waitFor } from './support/popup-harness.tsx';
import {
  CRAWL_ID,
  FakePageQueries,
  FakeRowReader,
  listRowOf,
  manyListRows,
  pageRecord,
} from './support/results-fakes.ts';
import { loadResultsStyles, mountResults, type MountedResults } from './support/results-harness.tsx';
import { factsOf } from '../support/page-facts-fixture.ts';

/** A `localStorage` stand-in. */
class MemoryStorage implements PrefsStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

const ALL_COLUMNS: ShownColumn[] = [
  'url',
  'status',
  'contentType',
  'size',
  'responseTime',
  'depth',
  'title',
  'inlinks',
  'indexability',
  'words',
  'h1Count',
  'internalLinks',
  'outboundLinks',
];

describe('results table columns', () => {
  let view: MountedResults | undefined;

  before(async () => {
    await loadResultsStyles();
  });

  afterEach(async () => {
    await view?.unmount();
    view = undefined;
  });

  async function mount(
    queries: FakePageQueries,
    prefs: PrefsStorage | null = null,
    reader = new FakeRowReader([]),
  ): Promise<MountedResults> {
    view = await mountResults({ queries, reader, crawlId: CRAWL_ID, prefs });
    const mounted = view;
    await waitFor(() => expect(mounted.allByTestId('results-row').length).to.be.above(0));
    return mounted;
  }

  function headers(mounted: MountedResults): string[] {
    return [...mounted.container.querySelectorAll<HTMLElement>('[role="columnheader"]')].map(
      (cell) => cell.querySelector('button')?.dataset['testid']?.replace(/^sort-/, '') ?? '',
    );
  }

  function cellsOf(mounted: MountedResults, column: string): string[] {
    return mounted.allByTestId('results-row').map((row) => row.querySelector(`.cell-${column}`)?.textContent ?? '');
  }

  async function toggleColumn(mounted: MountedResults, column: string): Promise<void> {
    if (!mounted.byTestId<HTMLDetailsElement>('column-chooser').open)
      await click(mounted.byTestId('column-chooser-open'));
    await click(mounted.byTestId(`column-${column}`));
  }

  it('shows the default columns, then the ones chosen, and keeps the choice for the next time the page opens', async () => {
    const prefs = new MemoryStorage();
    const mounted = await mount(new FakePageQueries(manyListRows(20)), prefs);
    expect(headers(mounted)).to.deep.equal([...DEFAULT_COLUMNS]);
    expect(mounted.byTestId<HTMLInputElement>('column-url').disabled, 'the URL always stays').to.equal(true);

    await toggleColumn(mounted, 'words');
    await toggleColumn(mounted, 'outboundLinks');
    await toggleColumn(mounted, 'size');
    await waitFor(() => expect(headers(mounted)).to.include('words'));
    expect(headers(mounted)).to.deep.equal([
      'url',
      'status',
      'contentType',
      'responseTime',
      'depth',
      'title',
      'inlinks',
      'indexability',
      'words',
      'outboundLinks',
    ]);
    // Every row has a cell for each header.
    for (const row of mounted.allByTestId('results-row')) expect(row.children.length).to.equal(10);
    expect(JSON.parse(prefs.getItem(COLUMNS_PREF_KEY) ?? 'null')).to.deep.equal(headers(mounted));

    await view?.unmount();
    const again = await mount(new FakePageQueries(manyListRows(20)), prefs);
    expect(headers(again)).to.deep.equal([
      'url',
      'status',
      'contentType',
      'responseTime',
      'depth',
      'title',
      'inlinks',
      'indexability',
      'words',
      'outboundLinks',
    ]);
  });

  it('reads a stored choice it cannot use as the default columns, and always keeps the URL', () => {
    expect(shownColumnsOf('not json')).to.deep.equal([...DEFAULT_COLUMNS]);
    expect(shownColumnsOf('{"a":1}')).to.deep.equal([...DEFAULT_COLUMNS]);
    expect(shownColumnsOf('["words", "nonsense", 3, "status"]')).to.deep.equal(['url', 'status', 'words']);
    const refusing: PrefsStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => undefined,
    };
    expect(loadShownColumns(refusing)).to.deep.equal([...DEFAULT_COLUMNS]);
  });

  it('shows indexability, words, h1 count (the first h1 as its tooltip) and link counts, blank for rows without facts', async () => {
    const rows = [
      pageRecord(1, {
        facts: factsOf({ wordCount: 321, h1: 'Welcome', h1Count: 1, internalLinks: 14, outboundLinks: 2 }),
      }),
      pageRecord(2, { facts: factsOf({ robots: ['noindex'], h1Count: 3, h1: 'First' }) }),
      pageRecord(3, { facts: factsOf({ canonical: 'https://site.example/p1' }) }),
      pageRecord(4, { status: 301, location: 'https://site.example/p1', facts: null }),
      pageRecord(5, { kind: 'resource', contentType: 'text/css', facts: null }),
    ];
    const prefs = new MemoryStorage();
    prefs.setItem(COLUMNS_PREF_KEY, JSON.stringify(ALL_COLUMNS));
    const mounted = await mount(new FakePageQueries(rows.map(listRowOf)), prefs);
    mounted.container.style.width = '1700px';
    await settle(20);
    expect(headers(mounted)).to.deep.equal(ALL_COLUMNS);
    expect(cellsOf(mounted, 'indexability')).to.deep.equal(['Indexable', 'noindex', 'canonicalised', 'redirected', '']);
    expect(cellsOf(mounted, 'words')).to.deep.equal(['321', '0', '0', '', '']);
    expect(cellsOf(mounted, 'h1Count')).to.deep.equal(['1', '3', '0', '', '']);
    expect(cellsOf(mounted, 'internalLinks')).to.deep.equal(['14', '0', '0', '', '']);
    expect(cellsOf(mounted, 'outboundLinks')).to.deep.equal(['2', '0', '0', '', '']);
    const [first, second, third] = mounted.allByTestId('results-row');
    expect(first?.querySelector('.cell-h1Count')?.getAttribute('title')).to.equal('Welcome');
    expect(second?.querySelector('.cell-indexability')?.getAttribute('title')).to.equal('Not indexable: noindex');
    expect(third?.querySelector('.cell-indexability')?.getAttribute('title')).to.equal(
      'Not indexable: canonicalised elsewhere',
    );
  });

  it('sorts by each new column both ways, and shows every header whole with all columns chosen', async () => {
    const prefs = new MemoryStorage();
    prefs.setItem(COLUMNS_PREF_KEY, JSON.stringify(ALL_COLUMNS));
    const queries = new FakePageQueries(manyListRows(40));
    const mounted = await mount(queries, prefs);
    mounted.container.style.width = '1700px';
    await settle(20);
    for (const [column, field] of [
      ['words', 'wordCount'],
      ['h1Count', 'h1Count'],
      ['internalLinks', 'internalLinks'],
      ['outboundLinks', 'outboundLinks'],
    ] as const) {
      await click(mounted.byTestId(`sort-${column}`));
      await waitFor(() => expect(queries.lastQuery().sort).to.deep.equal({ column, descending: false }));
      const ascending = manyListRows(40)
        .map((row) => row[field] ?? -1)
        .sort((a, b) => a - b);
      await waitFor(() =>
        expect(cellsOf(mounted, column).slice(0, 5).map(Number)).to.deep.equal(ascending.slice(0, 5)),
      );
      await click(mounted.byTestId(`sort-${column}`));
      await waitFor(() =>
        expect(cellsOf(mounted, column).slice(0, 5).map(Number)).to.deep.equal(ascending.reverse().slice(0, 5)),
      );
      const grid = mounted.byTestId('results-grid').getBoundingClientRect();
      for (const cell of mounted.container.querySelectorAll<HTMLElement>('[role="columnheader"]')) {
        expect(cell.scrollWidth, `${cell.textContent ?? ''} fits its column`).to.be.at.most(cell.clientWidth);
        expect(cell.getBoundingClientRect().right).to.be.at.most(grid.right);
      }
    }
    await click(mounted.byTestId('sort-indexability'));
    await waitFor(() => expect(queries.lastQuery().sort).to.deep.equal({ column: 'indexability', descending: false }));
    await waitFor(() => expect(cellsOf(mounted, 'indexability')[0]).to.equal('Indexable'));
  });

  it('drops whole columns, least needed first, when all are chosen in a narrow table', async () => {
    const prefs = new MemoryStorage();
    prefs.setItem(COLUMNS_PREF_KEY, JSON.stringify(ALL_COLUMNS));
    const mounted = await mount(new FakePageQueries(manyListRows(5)), prefs);
    for (const width of [1700, 1200, 900, 600, 400]) {
      mounted.container.style.width = `${width}px`;
      await settle(20);
      const shown = headers(mounted);
      expect(shown.slice(0, 2), `${width} px`).to.deep.equal(['url', 'status']);
      const grid = mounted.byTestId('results-grid').getBoundingClientRect();
      for (const cell of mounted.container.querySelectorAll<HTMLElement>(
        '[role="columnheader"], [data-testid="results-row"] [role="gridcell"]',
      )) {
        expect(cell.getBoundingClientRect().right, `${width} px: ${cell.className}`).to.be.at.most(grid.right + 0.5);
      }
      for (const row of mounted.allByTestId('results-row'))
        expect(row.children.length, `${width} px`).to.equal(shown.length);
    }
    // The order they go in: the page facts' counts first, then as before (inlinks, depth…).
    expect(fittingColumns(ALL_COLUMNS, 1100).columns.map((column) => column.column)).to.deep.equal([
      'url',
      'status',
      'contentType',
      'size',
      'responseTime',
      'depth',
      'title',
      'inlinks',
      'indexability',
      'words',
    ]);
    expect(fittingColumns(ALL_COLUMNS, 700).columns.map((column) => column.column)).to.deep.equal([
      'url',
      'status',
      'contentType',
      'size',
      'responseTime',
    ]);
    expect(fittingColumns(ALL_COLUMNS, 0).columns, 'not measured: every column').to.have.lengthOf(ALL_COLUMNS.length);
  });

  it('filters by indexability: the values the crawl has with their counts, one reason at a time', async () => {
    const queries = new FakePageQueries(manyListRows(40));
    const mounted = await mount(queries);
    const select = mounted.byTestId<HTMLSelectElement>('filter-indexability');
    await waitFor(() =>
      expect([...select.options].map((option) => option.textContent)).to.deep.equal([
        'All',
        'Indexable (14)',
        'Not indexable: redirected (8)',
        'Not indexable: not 200 (16)',
        'Not indexable: noindex (2)',
      ]),
    );
    await act(() => {
      select.value = 'indexability:noindex';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await waitFor(() => expect(queries.lastQuery().filter).to.deep.equal({ indexability: 'noindex' }));
    await waitFor(() => expect(cellsOf(mounted, 'indexability')).to.deep.equal(['noindex', 'noindex']));
    expect(mounted.byTestId('results-total').textContent).to.equal('2 URLs');
    await act(() => {
      select.value = 'all';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await waitFor(() => expect(queries.lastQuery().filter).to.deep.equal({}));
  });

  it("sorts one issue's URLs by the new columns too", async () => {
    const rows = [1, 2, 3, 4].map((seq) =>
      pageRecord(seq, { facts: factsOf({ wordCount: [50, 10, 0, 30][seq - 1] ?? 0, outboundLinks: seq % 2 }) }),
    );
    rows.push(pageRecord(5, { facts: null, status: 404 }));
    const base = new FakePageQueries([]);
    const queries = urlListQueries(
      base,
      new FakeRowReader(rows),
      CRAWL_ID,
      rows.map((row) => row.url),
    );
    const byWords = await queries.query({
      crawlId: CRAWL_ID,
      sort: { column: 'words', descending: true },
      filter: {},
      offset: 0,
      limit: 10,
    });
    expect(byWords.rows.map((row) => row.seq)).to.deep.equal([1, 4, 2, 3, 5]);
    const byIndexability = await queries.query({
      crawlId: CRAWL_ID,
      sort: { column: 'indexability', descending: false },
      filter: {},
      offset: 0,
      limit: 10,
    });
    expect(byIndexability.rows.map((row) => row.seq)).to.deep.equal([1, 2, 3, 4, 5]);
  });
});

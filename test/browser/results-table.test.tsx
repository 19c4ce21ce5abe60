import { expect } from 'chai';
import { act } from 'preact/test-utils';
import { ROW_HEIGHT_PX } from '../../src/results/results-grid.tsx';
import { click, settle, typeInto, waitFor } from './support/popup-harness.tsx';
import {
  CRAWL_ID,
  FakePageQueries,
  FakeRowReader,
  SITE,
  crawlRecord,
  facetsOf,
  listRowOf,
  manyListRows,
  pageRecord,
} from './support/results-fakes.ts';
import { loadResultsStyles, mountResults, press, type MountedResults } from './support/results-harness.tsx';

describe('results table', () => {
  let view: MountedResults | undefined;

  before(async () => {
    await loadResultsStyles();
  });

  afterEach(async () => {
    await view?.unmount();
    view = undefined;
  });

  /** Mounts the view over `rows` list rows; full rows for the reader are made from the same seqs. */
  async function mountOver(queries: FakePageQueries, reader = new FakeRowReader([])): Promise<MountedResults> {
    view = await mountResults({ queries, reader, crawlId: CRAWL_ID });
    const mounted = view;
    await waitFor(() => expect(mounted.byTestId('results-total').textContent).to.match(/URLs?$/));
    return mounted;
  }

  function renderedRows(mounted: MountedResults): HTMLElement[] {
    return mounted.allByTestId('results-row');
  }

  it('shows the crawl site, state and counts, and the filtered total as "N URLs"', async () => {
    const mounted = await mountOver(new FakePageQueries(manyListRows(12)), new FakeRowReader([]));
    await waitFor(() => expect(mounted.byTestId('results-crawl').textContent).to.include(`${SITE}/`));
    expect(mounted.byTestId('results-crawl-state').textContent).to.equal('finished');
    expect(mounted.byTestId('results-crawl').textContent).to.include('done10');
    expect(mounted.byTestId('results-total').textContent).to.equal('12 URLs');
    const headers = [...mounted.container.querySelectorAll('[role="columnheader"]')].map((header) =>
      header.textContent?.trim(),
    );
    expect(headers).to.deep.equal([
      'URL',
      'Status',
      'Type',
      'Size',
      'Time (ms)',
      'Depth',
      'Title',
      'Inlinks',
      'Indexability',
    ]);
  });

  it('counts the page resources, linked files and checked links to other sites among the rows done, when the crawl has any', async () => {
    const plain = await mountOver(new FakePageQueries(manyListRows(3)), new FakeRowReader([]));
    await waitFor(() => expect(plain.byTestId('results-crawl').textContent).to.include('done10'));
    expect(plain.queryTestId('results-counter-resources')).to.equal(null);
    expect(plain.queryTestId('results-counter-external')).to.equal(null);
    await view?.unmount();
    const counts = { ...crawlRecord().counts, done: 25, resources: 11, files: 2, external: 4 };
    const mounted = await mountOver(
      new FakePageQueries(manyListRows(3)),
      new FakeRowReader([], crawlRecord({ counts })),
    );
    await waitFor(() => expect(mounted.byTestId('results-counter-resources').textContent).to.equal('resources11'));
    expect(mounted.byTestId('results-counter-files').textContent).to.equal('files2');
    expect(mounted.byTestId('results-counter-external').textContent).to.equal('external links4');
    await view?.unmount();
    const one = { ...crawlRecord().counts, done: 13, resources: 1, files: 1, external: 1 };
    const single = await mountOver(
      new FakePageQueries(manyListRows(3)),
      new FakeRowReader([], crawlRecord({ counts: one })),
    );
    await waitFor(() =>
      expect(single.byTestId('results-counter-files').textContent).to.equal('file1', 'one file, not "1 files"'),
    );
    expect(single.byTestId('results-counter-resources').textContent).to.equal('resource1');
    expect(single.byTestId('results-counter-external').textContent).to.equal('external link1');
  });

  /** Every column header shown: its text and sort arrow whole in its cell, its cell whole inside the grid's box. */
  function expectHeadersWhole(mounted: MountedResults, when: string): string[] {
    const grid = mounted.byTestId('results-grid').getBoundingClientRect();
    const shown = [...mounted.container.querySelectorAll<HTMLElement>('[role="columnheader"]')].filter(
      (cell) => cell.getClientRects().length > 0,
    );
    for (const cell of shown) {
      const box = cell.getBoundingClientRect();
      const name = `${cell.textContent ?? ''} (${when})`;
      expect(cell.scrollWidth, `${name} fits its column`).to.be.at.most(cell.clientWidth);
      expect(box.left, `${name} starts inside the table`).to.be.at.least(grid.left);
      expect(box.right, `${name} ends inside the table`).to.be.at.most(grid.right);
    }
    return shown.map((cell) => cell.querySelector('button')?.dataset['testid']?.replace(/^sort-/, '') ?? '');
  }

  it('shows every column header whole, with its sort arrow, at 1200 px', async () => {
    const mounted = await mountOver(new FakePageQueries(manyListRows(5)));
    for (const column of [
      'url',
      'status',
      'contentType',
      'size',
      'responseTime',
      'depth',
      'title',
      'inlinks',
      'indexability',
    ]) {
      // Twice: ascending, then descending (the arrows differ).
      for (let click2 = 0; click2 < 2; click2 += 1) {
        await click(mounted.byTestId(`sort-${column}`));
        await waitFor(() => expect(mounted.byTestId(`sort-${column}`).textContent).to.match(/[▲▼]$/));
        expect(expectHeadersWhole(mounted, `sorted by ${column}`)).to.have.lengthOf(9);
      }
    }
  });

  it("never cuts a header or a column at the table's edge in a narrow window or beside the detail: it shows fewer columns", async () => {
    const rows = manyListRows(5);
    const mounted = await mountOver(
      new FakePageQueries(rows),
      new FakeRowReader(rows.map((row) => pageRecord(row.seq, { url: row.url }))),
    );
    await click(mounted.byTestId('sort-status'));
    for (const [width, withDetail] of [
      [1200, true],
      [1024, true],
      [800, false],
      [800, true],
      [1024, false],
    ] as const) {
      mounted.container.style.width = `${width}px`;
      if (withDetail && mounted.queryTestId('detail') === null)
        await click(mounted.allByTestId('results-row')[0] as HTMLElement);
      if (!withDetail && mounted.queryTestId('detail') !== null) await click(mounted.byTestId('detail-close'));
      await waitFor(() => expect(mounted.queryTestId('detail') !== null).to.equal(withDetail));
      await settle(20);
      const when = `${width} px${withDetail ? ', detail open' : ''}`;
      const shown = expectHeadersWhole(mounted, when);
      expect(shown.slice(0, 2), when).to.deep.equal(['url', 'status']);
      // The cells of a row are the same columns as the headers, and as whole.
      const row = mounted.allByTestId('results-row')[0] as HTMLElement;
      const cells = [...row.children].filter((cell) => cell.getClientRects().length > 0);
      expect(cells.length, when).to.equal(shown.length);
      const grid = mounted.byTestId('results-grid').getBoundingClientRect();
      for (const cell of cells)
        expect(cell.getBoundingClientRect().right, `${when}: ${cell.className}`).to.be.at.most(grid.right);
    }
  });

  it('cuts a long URL of another site in the middle at 900 px, keeping its path, so two such URLs read apart', async () => {
    const host = 'https://assets-of-a-very-long-named-content-delivery-network.other-site.example';
    const rows = [`${host}/styles/main.css`, `${host}/scripts/app.js`].map((url, i) =>
      listRowOf(pageRecord(i + 1, { url, kind: 'resource' })),
    );
    const mounted = await mountOver(new FakePageQueries(rows));
    mounted.container.style.width = '900px';
    await settle(20);
    await waitFor(() => expect(renderedRows(mounted)).to.have.lengthOf(2));
    for (const [i, path] of ['/styles/main.css', '/scripts/app.js'].entries()) {
      const cell = renderedRows(mounted)[i]?.querySelector<HTMLElement>('.cell-url');
      expect(cell?.textContent).to.include(`${host}${path}`);
      const tail = cell?.querySelector<HTMLElement>('.url-tail');
      expect(tail?.textContent, 'the path is a part of its own').to.equal(path);
      // The path shows whole, inside the cell; the origin before it is what gives way.
      expect(tail?.scrollWidth, `${path} in a cell of ${cell?.clientWidth} px`).to.be.at.most(tail?.clientWidth ?? 0);
      const cellBox = cell?.getBoundingClientRect();
      expect(tail?.getBoundingClientRect().right, path).to.be.at.most((cellBox?.right ?? 0) + 0.5);
      const head = cell?.querySelector<HTMLElement>('.url-head');
      expect(head?.scrollWidth, 'the origin is cut').to.be.above(head?.clientWidth ?? 0);
    }
  });

  it('asks for seq order first, sorts by a clicked column ascending and reverses on a second click', async () => {
    const queries = new FakePageQueries(manyListRows(30));
    const mounted = await mountOver(queries);
    expect(queries.lastQuery().sort).to.deep.equal({ column: 'seq', descending: false });
    const statusHeader = mounted.byTestId('sort-status').parentElement;
    expect(statusHeader?.getAttribute('aria-sort')).to.equal('none');

    await click(mounted.byTestId('sort-status'));
    await waitFor(() => expect(queries.lastQuery().sort).to.deep.equal({ column: 'status', descending: false }));
    expect(statusHeader?.getAttribute('aria-sort')).to.equal('ascending');
    await waitFor(() => expect(renderedRows(mounted)[0]?.querySelector('.cell-status')?.textContent).to.equal('200'));

    await click(mounted.byTestId('sort-status'));
    await waitFor(() => expect(queries.lastQuery().sort).to.deep.equal({ column: 'status', descending: true }));
    expect(statusHeader?.getAttribute('aria-sort')).to.equal('descending');
    await waitFor(() => expect(renderedRows(mounted)[0]?.querySelector('.cell-status')?.textContent).to.equal('500'));

    await click(mounted.byTestId('sort-title'));
    await waitFor(() => expect(queries.lastQuery().sort).to.deep.equal({ column: 'title', descending: false }));
    expect(statusHeader?.getAttribute('aria-sort')).to.equal('none');
  });

  it('sends the pressed status classes, the chosen media type and the depth as the query filter', async () => {
    const rows = manyListRows(50);
    const queries = new FakePageQueries(rows);
    const mounted = await mountOver(queries);
    const facets = facetsOf(rows);
    await waitFor(() =>
      expect(mounted.byTestId('filter-4xx').textContent).to.equal(`4xx${facets.statusClasses['4xx']}`),
    );

    await click(mounted.byTestId('filter-5xx'));
    await click(mounted.byTestId('filter-4xx'));
    expect(mounted.byTestId('filter-4xx').getAttribute('aria-pressed')).to.equal('true');
    await waitFor(() => expect(queries.lastQuery().filter).to.deep.equal({ statusClasses: ['4xx', '5xx'] }));
    await waitFor(() =>
      expect(mounted.byTestId('results-total').textContent).to.equal(
        `${facets.statusClasses['4xx'] + facets.statusClasses['5xx']} URLs`,
      ),
    );

    const depth = mounted.byTestId<HTMLSelectElement>('filter-depth');
    await act(() => {
      depth.value = '3';
      depth.dispatchEvent(new Event('change', { bubbles: true }));
    });
    const type = mounted.byTestId<HTMLSelectElement>('filter-media-type');
    await act(() => {
      type.value = 'type:text/html';
      type.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await waitFor(() =>
      expect(queries.lastQuery().filter).to.deep.equal({
        statusClasses: ['4xx', '5xx'],
        mediaType: 'text/html',
        depth: 3,
      }),
    );
    expect(queries.lastQuery().offset).to.equal(0);

    await click(mounted.byTestId('filter-4xx'));
    await waitFor(() =>
      expect(queries.lastQuery().filter).to.deep.equal({ statusClasses: ['5xx'], mediaType: 'text/html', depth: 3 }),
    );
  });

  it("filters by kind with the crawl's count of each kind, combined with the other filters, and tags rows that are not pages", async () => {
    const rows = manyListRows(40).map((row) => ({
      ...row,
      kind: row.seq % 4 === 0 ? ('resource' as const) : row.seq % 10 === 1 ? ('file' as const) : row.kind,
    }));
    const queries = new FakePageQueries(rows);
    const mounted = await mountOver(queries);
    const facets = facetsOf(rows);
    const kind = mounted.byTestId<HTMLSelectElement>('filter-kind');
    // Only the kinds the crawl has (no sitemap here), each with its count.
    await waitFor(() =>
      expect([...kind.options].map((option) => option.textContent)).to.deep.equal([
        'All kinds',
        `Pages (${facets.kinds.page})`,
        `Resources (${facets.kinds.resource})`,
        `Files (${facets.kinds.file})`,
      ]),
    );
    await act(() => {
      kind.value = 'kind:resource';
      kind.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await waitFor(() => expect(queries.lastQuery().filter).to.deep.equal({ kind: 'resource' }));
    await waitFor(() =>
      expect(mounted.byTestId('results-total').textContent).to.equal(`${facets.kinds.resource} URLs`),
    );
    await waitFor(() =>
      expect(renderedRows(mounted).every((row) => row.dataset['kind'] === 'resource')).to.equal(true),
    );
    expect(renderedRows(mounted)[0]?.querySelector('.cell-url [data-testid="kind-tag"]')?.textContent).to.equal(
      'resource',
    );

    await click(mounted.byTestId('filter-4xx'));
    await waitFor(() => expect(queries.lastQuery().filter).to.deep.equal({ kind: 'resource', statusClasses: ['4xx'] }));
    await waitFor(() =>
      expect(mounted.byTestId('results-total').textContent).to.equal(
        `${rows.filter((row) => row.kind === 'resource' && row.status === 404).length} URLs`,
      ),
    );

    await act(() => {
      kind.value = 'all';
      kind.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await waitFor(() => expect(queries.lastQuery().filter).to.deep.equal({ statusClasses: ['4xx'] }));
    // Pages carry no tag.
    await waitFor(() => expect(renderedRows(mounted).some((row) => row.dataset['kind'] === 'page')).to.equal(true));
    const page = renderedRows(mounted).find((row) => row.dataset['kind'] === 'page');
    expect(page?.querySelector('[data-testid="kind-tag"]')).to.equal(null);
  });

  it('runs the search once typing has paused for 150 ms, not on every keystroke', async () => {
    const queries = new FakePageQueries(manyListRows(200));
    const mounted = await mountOver(queries);
    const search = mounted.byTestId<HTMLInputElement>('results-search');
    const before = queries.queries.length;

    await typeInto(search, 't');
    await settle(40);
    await typeInto(search, 'ti');
    await settle(40);
    await typeInto(search, 'Title 12');
    await settle(100);
    expect(queries.queries.slice(before).filter((query) => query.filter.search !== undefined)).to.have.lengthOf(0);

    await waitFor(() => expect(queries.lastQuery().filter).to.deep.equal({ search: 'Title 12' }));
    const searches = queries.queries.slice(before).map((query) => query.filter.search);
    expect(searches).to.deep.equal(['Title 12']);
    await waitFor(() => expect(mounted.byTestId('results-total').textContent).to.equal('11 URLs'));
  });

  it('renders fewer than 100 DOM rows for 100,000 rows, in a scroll area 100,000 rows tall', async function (this: MochaContext) {
    this.timeout(10_000);
    const queries = new FakePageQueries(manyListRows(100_000));
    const mounted = await mountOver(queries);
    expect(mounted.byTestId('results-total').textContent).to.equal('100,000 URLs');
    await waitFor(() => expect(renderedRows(mounted)[0]?.dataset['url']).to.equal(`${SITE}/page/1`));
    const spacer = mounted.byTestId('results-scroll').firstElementChild;
    expect(spacer?.getBoundingClientRect().height).to.equal(100_000 * ROW_HEIGHT_PX);
    expect(renderedRows(mounted).length).to.be.above(10).and.below(100);
    expect(mounted.container.querySelectorAll('[role="row"]').length).to.be.below(100);
    for (const query of queries.queries) expect(query.limit).to.be.at.most(100);
  });

  it('fetches the window at the scroll position and renders its rows when scrolled far down', async function (this: MochaContext) {
    this.timeout(10_000);
    const queries = new FakePageQueries(manyListRows(100_000));
    const mounted = await mountOver(queries);
    await waitFor(() => expect(renderedRows(mounted)).to.not.be.empty);
    const scroller = mounted.byTestId('results-scroll');
    await act(() => {
      scroller.scrollTop = 50_000 * ROW_HEIGHT_PX;
      scroller.dispatchEvent(new Event('scroll'));
    });
    await waitFor(() =>
      expect(queries.queries.some((query) => query.offset === 49_900 || query.offset === 50_000)).to.equal(true),
    );
    await waitFor(() =>
      expect(renderedRows(mounted).some((row) => row.dataset['url'] === `${SITE}/page/50001`)).to.equal(true),
    );
    expect(renderedRows(mounted).length).to.be.below(100);
    const offsets = new Set(queries.queries.map((query) => query.offset));
    expect(offsets.has(10_000)).to.equal(false);
  });

  it('moves the selection with the arrow keys, opens the detail with Enter and closes it with Esc', async () => {
    const full = [1, 2, 3, 4].map((seq) => pageRecord(seq));
    const queries = new FakePageQueries(full.map(listRowOf));
    const mounted = await mountOver(queries, new FakeRowReader(full));
    const grid = mounted.byTestId('results-grid');
    await waitFor(() => expect(renderedRows(mounted)).to.have.lengthOf(4));
    grid.focus();
    expect(renderedRows(mounted)[0]?.getAttribute('aria-selected')).to.equal('true');

    await press(grid, 'ArrowDown');
    await press(grid, 'ArrowDown');
    await press(grid, 'ArrowUp');
    expect(renderedRows(mounted).map((row) => row.getAttribute('aria-selected'))).to.deep.equal([
      'false',
      'true',
      'false',
      'false',
    ]);
    expect(grid.getAttribute('aria-activedescendant')).to.equal(renderedRows(mounted)[1]?.id);

    await press(grid, 'Enter');
    await waitFor(() => expect(mounted.byTestId('detail').dataset['url']).to.equal(`${SITE}/p2`));
    await waitFor(() => expect(mounted.byTestId('detail-fields').textContent).to.include('Page 2'));

    await press(document.activeElement ?? document.body, 'Escape');
    expect(mounted.queryTestId('detail')).to.equal(null);
    expect(document.activeElement).to.equal(grid);
  });

  it('focuses the search box when / is pressed outside a text field', async () => {
    const mounted = await mountOver(new FakePageQueries(manyListRows(3)));
    const grid = mounted.byTestId('results-grid');
    grid.focus();
    await press(grid, '/');
    expect(document.activeElement).to.equal(mounted.byTestId('results-search'));
  });

  it('opens the detail named at mount and reports each opened or closed detail', async () => {
    const full = [1, 2].map((seq) => pageRecord(seq));
    const reported: (string | null)[] = [];
    view = await mountResults({
      queries: new FakePageQueries(full.map(listRowOf)),
      reader: new FakeRowReader(full),
      crawlId: CRAWL_ID,
      initialUrl: `${SITE}/p1`,
      onDetailChange: (url) => reported.push(url),
    });
    const mounted = view;
    await waitFor(() => expect(mounted.byTestId('detail').dataset['url']).to.equal(`${SITE}/p1`));
    await waitFor(() => expect(renderedRows(mounted)).to.have.lengthOf(2));
    const second = renderedRows(mounted)[1];
    if (second === undefined) throw new Error('no second row');
    await click(second);
    await waitFor(() => expect(mounted.byTestId('detail').dataset['url']).to.equal(`${SITE}/p2`));
    await click(mounted.byTestId('detail-close'));
    expect(reported).to.deep.equal([`${SITE}/p2`, null]);
  });

  it('shows markup in a title as text and creates no element from it', async () => {
    const hostile = '<img src=x onerror="window.__pwned = true">';
    const full = [pageRecord(1, { title: hostile, url: `${SITE}/<b>bold</b>` })];
    const queries = new FakePageQueries(full.map(listRowOf));
    const mounted = await mountOver(queries, new FakeRowReader(full));
    await waitFor(() => expect(renderedRows(mounted)).to.have.lengthOf(1));
    expect(mounted.container.querySelector('[data-testid="results-row"] .cell-title')?.textContent).to.equal(hostile);
    expect(mounted.container.querySelector('img')).to.equal(null);
    expect(mounted.container.querySelector('b')).to.equal(null);
  });

  it('says that no crawl is named when the address has none', async () => {
    view = await mountResults({ queries: new FakePageQueries([]), reader: new FakeRowReader([]), crawlId: null });
    expect(view.byTestId('results-no-crawl').textContent).to.include('No crawl');
  });
});

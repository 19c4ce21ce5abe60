import { expect } from 'chai';
import { Dexie } from 'dexie';
import { countRow } from '../../src/core/crawl/frontier-queue.ts';
import { emptyCounts, type FetchFailure, type PageRecord } from '../../src/core/model.ts';
import { DexieRowReader } from '../../src/results/dexie-row-reader.ts';
import { TabcrawlDatabase } from '../../src/storage/database.ts';
import { DexieCrawlStore } from '../../src/storage/dexie-crawl-store.ts';
import { DexieCrawlPageQueries } from '../../src/storage/dexie-page-queries.ts';
import { click, waitFor } from './support/popup-harness.tsx';
import { CRAWL_ID, SITE, crawlRecord, pageRecord } from './support/results-fakes.ts';
import { loadResultsStyles, mountResults, press, type MountedResults } from './support/results-harness.tsx';

describe('results browser over IndexedDB', () => {
  let db: TabcrawlDatabase | undefined;
  let view: MountedResults | undefined;

  before(async () => {
    await loadResultsStyles();
  });

  afterEach(async () => {
    await view?.unmount();
    view = undefined;
    if (db === undefined) return;
    db.close();
    await Dexie.delete(db.name);
    db = undefined;
  });

  it('lists, filters and opens the rows of a crawl stored by the Dexie store', async function (this: MochaContext) {
    this.timeout(10_000);
    db = new TabcrawlDatabase(`tabcrawl-results-ui-${Date.now()}`);
    const rows = Array.from({ length: 300 }, (_, index) =>
      pageRecord(index + 1, {
        status: index % 10 === 0 ? 404 : 200,
        links: index === 5 ? [`${SITE}/p1`] : [],
        linkTexts: index === 5 ? ['First page'] : [],
      }),
    );
    await new DexieCrawlStore(db).transaction(async (tx) => {
      await tx.putCrawl(crawlRecord());
      await tx.putPages(rows);
    });
    view = await mountResults({
      queries: new DexieCrawlPageQueries(db),
      reader: new DexieRowReader(db),
      crawlId: CRAWL_ID,
    });
    const mounted = view;
    await waitFor(() => expect(mounted.byTestId('results-total').textContent).to.equal('300 URLs'));
    await waitFor(() => expect(mounted.allByTestId('results-row')[0]?.dataset['url']).to.equal(`${SITE}/p1`));

    await click(mounted.byTestId('filter-4xx'));
    await waitFor(() => expect(mounted.byTestId('results-total').textContent).to.equal('30 URLs'));
    await waitFor(() =>
      expect(
        mounted.allByTestId('results-row').every((row) => row.querySelector('.cell-status')?.textContent === '404'),
      ).to.equal(true),
    );

    const grid = mounted.byTestId('results-grid');
    grid.focus();
    await press(grid, 'Enter');
    await waitFor(() => expect(mounted.byTestId('detail').dataset['url']).to.equal(`${SITE}/p1`));
    await waitFor(() =>
      expect(mounted.allByTestId('inlink').map((row) => row.dataset['url'])).to.deep.equal([`${SITE}/p6`]),
    );
    expect(mounted.byTestId('inlink').textContent).to.include('First page');
  });

  it("shows a row's stored body, read from the Dexie store", async () => {
    db = new TabcrawlDatabase(`tabcrawl-results-source-${Date.now()}`);
    const sha256 = 'ab'.repeat(32);
    const row = pageRecord(1, { contentType: 'text/css', sha256 });
    const css = 'body { color: #b58900; }';
    await new DexieCrawlStore(db).transaction(async (tx) => {
      await tx.putCrawl(crawlRecord());
      await tx.putPages([row]);
      await tx.putBody({ crawlId: CRAWL_ID, sha256, url: row.url, bytes: new TextEncoder().encode(css) });
    });
    view = await mountResults({
      queries: new DexieCrawlPageQueries(db),
      reader: new DexieRowReader(db),
      crawlId: CRAWL_ID,
      initialUrl: row.url,
    });
    const mounted = view;
    await waitFor(() => mounted.byTestId('detail-source-show'));
    await click(mounted.byTestId('detail-source-show'));
    await waitFor(() => expect(mounted.byTestId('detail-source-text').textContent).to.equal(css));
  });

  it("lists under Errors exactly as many rows as the crawl's errors count (the popup's), as the crawl core counts them", async () => {
    db = new TabcrawlDatabase(`tabcrawl-results-errors-${Date.now()}`);
    const failure = (code: FetchFailure['code']): Partial<PageRecord> => ({
      status: null,
      contentType: null,
      error: { code, message: `${code} while fetching` },
    });
    const rows = [
      pageRecord(1, { depth: 0 }),
      pageRecord(2, { status: 301, location: `${SITE}/p1`, contentType: null }),
      pageRecord(3, { status: 302, location: `${SITE}/p9`, contentType: null }),
      pageRecord(4, { status: 404 }),
      pageRecord(5, { status: 410 }),
      pageRecord(6, { status: 500 }),
      pageRecord(7, { status: 503 }),
      pageRecord(8, failure('timeout')),
      pageRecord(9, failure('network')),
      pageRecord(10, { status: null, contentType: null, blockedBy: 'robots', blockedRule: 'Disallow: /' }),
      pageRecord(11, { duplicateOf: `${SITE}/p1` }),
      pageRecord(12, { status: 404, duplicateOf: `${SITE}/p4` }),
    ];
    const counts = emptyCounts();
    for (const row of rows) countRow(counts, row);
    counts.admitted = counts.done;
    await new DexieCrawlStore(db).transaction(async (tx) => {
      await tx.putCrawl(crawlRecord({ counts }));
      await tx.putPages(rows);
    });
    view = await mountResults({
      queries: new DexieCrawlPageQueries(db),
      reader: new DexieRowReader(db),
      crawlId: CRAWL_ID,
    });
    const mounted = view;
    await waitFor(() =>
      expect(mounted.byTestId('results-counter-errors').textContent).to.equal(`URLs with errors${counts.errors}`),
    );
    await waitFor(() => expect(mounted.byTestId('filter-errors').textContent).to.equal(`Errors${counts.errors}`));
    await click(mounted.byTestId('filter-errors'));
    await waitFor(() => expect(mounted.byTestId('results-total').textContent).to.equal(`${counts.errors} URLs`));
    expect(counts.errors).to.equal(7);
  });
});

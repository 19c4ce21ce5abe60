/**
 * The results page keeps what it shows in the tab's address (a fake history here): Back from a URL
 * opened in the Issues view returns to that view with its checks open and its scroll, a reload of an
 * address shows the same view, and *Export this view* on the Issues view saves the issues shown.
 */
import { expect } from 'chai';
import { parseResultsParams } from '../../src/messaging/routes.ts';
import { click, waitFor } from './support/popup-harness.tsx';
import { CRAWL_ID, FakePageQueries, FakeRowReader, listRowOf, manyListRows } from './support/results-fakes.ts';
import {
  fakeLocation,
  loadResultsStyles,
  mountResults,
  type FakeLocation,
  type MountedResults,
} from './support/results-harness.tsx';
import { PLANTED, SITE, auditRows } from '../support/audit-fixture.ts';

function inside(parent: HTMLElement | null, testId: string): HTMLElement {
  const found = parent?.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  if (found === null || found === undefined) throw new Error(`no ${testId}`);
  return found;
}

describe('results page: the address', () => {
  let view: MountedResults | undefined;

  afterEach(async () => {
    await view?.unmount();
    view = undefined;
  });

  async function mountAt(location: FakeLocation, saved: [string, string][] = []): Promise<MountedResults> {
    const rows = auditRows().map((row) => ({ ...row, crawlId: CRAWL_ID }));
    view = await mountResults({
      queries: new FakePageQueries(rows.map(listRowOf)),
      reader: new FakeRowReader(rows),
      crawlId: CRAWL_ID,
      location,
      saveCsv: (fileName, text) => void saved.push([fileName, text]),
      send: () => Promise.reject(new Error('this test sends nothing')),
    });
    return view;
  }

  const check = (page: MountedResults, id: string): HTMLElement | null =>
    page.container.querySelector<HTMLElement>(`[data-check="${id}"]`);
  const openChecks = (page: MountedResults): string[] =>
    [...page.container.querySelectorAll<HTMLElement>('[data-testid="issue-check"]')]
      .filter(
        (element) => element.querySelector('[data-testid="issue-toggle"]')?.getAttribute('aria-expanded') === 'true',
      )
      .map((element) => element.dataset['check'] ?? '');

  it('comes Back from a URL opened in the Issues view to that view, its checks open and its scroll', async () => {
    const location = fakeLocation(`?crawl=${CRAWL_ID}`);
    const page = await mountAt(location);
    await waitFor(() => page.byTestId('tab-issues'));
    await click(page.byTestId('tab-issues'));
    await waitFor(() => expect(page.byTestId('issues').dataset['state']).to.equal('ready'));
    await click(inside(check(page, 'title-missing'), 'issue-toggle'));
    await click(inside(check(page, 'broken-link-internal'), 'issue-toggle'));
    location.scrollBy(340);

    await click(inside(check(page, 'broken-link-internal'), 'issue-url'));
    await waitFor(() => expect(page.byTestId('detail').dataset['url']).to.equal(`${SITE}/gone`));
    expect(location.entries).to.have.length(3, 'the table, the Issues view, the URL: one entry each');
    expect(parseResultsParams(location.search())).to.include({ view: 'table', url: `${SITE}/gone` });

    location.back();

    await waitFor(() => expect(page.byTestId('issues').dataset['state']).to.equal('ready'));
    expect(page.byTestId('tab-issues').getAttribute('aria-pressed')).to.equal('true');
    expect(openChecks(page).sort()).to.deep.equal(['broken-link-internal', 'title-missing']);
    await waitFor(() => expect(location.scrolledTo).to.deep.equal([340]));
    expect(page.queryTestId('detail')).to.equal(null);
  });

  it('shows what a shared or reloaded address says: the Issues checks open, or the table filtered and sorted', async () => {
    const issues = fakeLocation(`?crawl=${CRAWL_ID}&view=issues&check=title-missing,no-such-check&scroll=120`);
    let page = await mountAt(issues);
    await waitFor(() => expect(page.byTestId('issues').dataset['state']).to.equal('ready'));
    expect(openChecks(page)).to.deep.equal(['title-missing']);
    await waitFor(() => expect(issues.scrolledTo).to.deep.equal([120]));
    await view?.unmount();

    const table = fakeLocation(`?crawl=${CRAWL_ID}&status=4xx&sort=-url&q=gone`);
    page = await mountAt(table);
    await waitFor(() => expect(page.byTestId<HTMLInputElement>('results-search').value).to.equal('gone'));
    expect(page.byTestId('filter-4xx').getAttribute('aria-pressed')).to.equal('true');
    await waitFor(() => {
      const urls = [...page.container.querySelectorAll<HTMLElement>('[data-testid="results-row"][data-url]')].map(
        (row) => row.dataset['url'],
      );
      expect(urls).to.deep.equal([`${SITE}/gone`]);
    });
    expect(table.entries).to.deep.equal(
      [`?crawl=${CRAWL_ID}&status=4xx&q=gone&sort=-url`],
      'read as it was written, no new entry',
    );
  });

  it('keeps a filter typed in the table in the address, in place of the entry', async () => {
    const location = fakeLocation(`?crawl=${CRAWL_ID}`);
    const page = await mountAt(location);
    await waitFor(() => page.byTestId('filter-4xx'));
    await click(page.byTestId('filter-4xx'));
    await waitFor(() => expect(parseResultsParams(location.search()).table.status).to.deep.equal(['4xx']));
    expect(location.entries).to.have.length(1);
  });

  it('exports the issues shown from the Issues view, not the table', async () => {
    const saved: [string, string][] = [];
    const location = fakeLocation(`?crawl=${CRAWL_ID}&view=issues&check=title-missing`);
    const page = await mountAt(location, saved);
    await waitFor(() => expect(page.byTestId('issues').dataset['state']).to.equal('ready'));
    await click(page.byTestId('results-export-view'));
    await waitFor(() => expect(saved).to.have.length(1));
    expect(saved[0]?.[0]).to.match(/-issues-title-missing\.csv$/);
    const lines = saved[0]?.[1].trim().split('\r\n') ?? [];
    expect(lines).to.have.length(1 + PLANTED['title-missing'].length);
    for (const url of PLANTED['title-missing']) expect(saved[0]?.[1]).to.include(url);
  });

  it("says the table shows one issue's URLs as a note, not styled as an error", async () => {
    await loadResultsStyles();
    const page = await mountAt(fakeLocation(`?crawl=${CRAWL_ID}&view=issues&check=title-missing`));
    await waitFor(() => expect(page.byTestId('issues').dataset['state']).to.equal('ready'));
    await click(inside(check(page, 'title-missing'), 'issue-show-in-table'));
    await waitFor(() => page.byTestId('issue-filter'));
    const note = getComputedStyle(page.byTestId('issue-filter'));
    const error = document.createElement('p');
    error.className = 'banner';
    page.container.append(error);
    const errorStyle = getComputedStyle(error);
    expect(note.borderLeftColor).to.not.equal(errorStyle.borderLeftColor);
    expect(note.backgroundColor).to.not.equal(errorStyle.backgroundColor);
    error.remove();
  });

  it('comes Back to the table scrolled where it was, and a reload of its address too', async () => {
    await loadResultsStyles();
    const rows = manyListRows(400);
    const location = fakeLocation(`?crawl=${CRAWL_ID}`);
    view = await mountResults({
      queries: new FakePageQueries(rows),
      reader: new FakeRowReader([]),
      crawlId: CRAWL_ID,
      location,
    });
    const page = view;
    await waitFor(() => expect(page.byTestId('results-total').textContent).to.equal('400 URLs'));
    const body = (): HTMLElement => {
      const found = page.container.querySelector<HTMLElement>('.grid-body');
      if (found === null) throw new Error('no grid body');
      return found;
    };
    body().scrollTop = 2400;
    body().dispatchEvent(new Event('scroll'));
    await waitFor(() => expect(parseResultsParams(location.search()).scrollY).to.equal(2400));

    await click(page.byTestId('tab-reports'));
    await waitFor(() => expect(page.queryTestId('results-grid')).to.equal(null));
    location.back();

    await waitFor(() => expect(body().scrollTop).to.equal(2400));
    await view.unmount();
    view = await mountResults({
      queries: new FakePageQueries(rows),
      reader: new FakeRowReader([]),
      crawlId: CRAWL_ID,
      location: fakeLocation(location.search()),
    });
    const reloaded = view;
    await waitFor(() => expect(reloaded.container.querySelector<HTMLElement>('.grid-body')?.scrollTop).to.equal(2400));
  });
});

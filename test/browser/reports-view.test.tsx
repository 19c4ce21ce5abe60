import { expect } from 'chai';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import type { PageRecord } from '../../src/core/model.ts';
import type { ReportKind, RowScan } from '../../src/audit/reports.ts';
import type { ReportCrawl } from '../../src/reports/report-csv.ts';
import { ReportsView, type SaveCsv } from '../../src/reports/reports-view.tsx';
import { pageFixture } from '../support/store-contract.ts';
import { click, waitFor } from './support/popup-harness.tsx';

const A = 'https://a.example';
const CRAWL: ReportCrawl = { createdAt: Date.UTC(2026, 10, 21, 12), settings: { startUrl: `${A}/` } };
const EVIL = '<img src=x onerror="window.__reportsXss = true">';

function row(path: string, overrides: Partial<PageRecord> = {}): PageRecord {
  return { ...pageFixture('c1', `${A}${path}`, 0), sha256: null, links: [], linkTexts: [], anchors: [], ...overrides };
}

/** A small crawl with something in every report. */
const ROWS: PageRecord[] = [
  row('/', { links: [`${A}/gone`, `${A}/old`], linkTexts: [EVIL, 'Old'] }),
  row('/b', { links: [`${A}/gone`], linkTexts: ['=cmd|calc'] }),
  row('/gone', { status: 404 }),
  row('/old', { status: 301, location: `${A}/loop` }),
  row('/loop', { status: 302, location: `${A}/old` }),
  row('/private', { status: null, blockedBy: 'robots', blockedRule: 'Disallow: /private' }),
  row('/a', { sha256: 'aa'.repeat(32) }),
  row('/a2', { sha256: 'aa'.repeat(32), duplicateOf: `${A}/a` }),
  row('/a3', { sha256: 'aa'.repeat(32), duplicateOf: `${A}/a` }),
  row('/styled', { resources: [`${A}/s/site.css`, `${A}/img/gone.png`] }),
  row('/s/site.css', { kind: 'resource', contentType: 'text/css', title: null, resources: [`${A}/img/gone.png`] }),
  row('/img/gone.png', { kind: 'resource', status: 404, contentType: 'text/html', title: null }),
].map((r, index) => ({ ...r, seq: index + 1 }));

function scanOf(rows: PageRecord[]): RowScan {
  return async function* () {
    yield* rows;
  };
}

interface Saved {
  fileName: string;
  text: string;
}

interface Mounted {
  container: HTMLElement;
  byTestId: <E extends HTMLElement = HTMLElement>(testId: string) => E;
  queryTestId: (testId: string) => HTMLElement | null;
  saved: Saved[];
}

let mounted: HTMLElement[] = [];

async function mount(loadRows: RowScan, saveCsv?: SaveCsv, onOpenUrl?: (url: string) => void): Promise<Mounted> {
  const saved: Saved[] = [];
  const container = document.createElement('div');
  document.body.append(container);
  mounted.push(container);
  const save: SaveCsv = saveCsv ?? ((fileName, text) => void saved.push({ fileName, text }));
  await act(() => {
    render(<ReportsView loadRows={loadRows} crawl={CRAWL} saveCsv={save} onOpenUrl={onOpenUrl} />, container);
  });
  const queryTestId = (testId: string): HTMLElement | null =>
    container.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  return {
    container,
    queryTestId,
    byTestId: <E extends HTMLElement = HTMLElement>(testId: string): E => {
      const element = container.querySelector<E>(`[data-testid="${testId}"]`);
      if (element === null) throw new Error(`no element with data-testid="${testId}"`);
      return element;
    },
    saved,
  };
}

async function pick(view: Mounted, kind: ReportKind): Promise<void> {
  const select = view.byTestId<HTMLSelectElement>('report-select');
  await act(() => {
    select.value = kind;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/** The text of each body cell of the report table, row by row. */
function tableCells(view: Mounted): string[][] {
  return [...view.byTestId('report-table').querySelectorAll('tbody tr')].map((tr) =>
    [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
  );
}

afterEach(async () => {
  for (const container of mounted) {
    await act(() => {
      render(null, container);
    });
    container.remove();
  }
  mounted = [];
});

describe('ReportsView', () => {
  it('says it is building the report until the scan ends', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const view = await mount(async function* () {
      await gate;
      yield* ROWS;
    });
    expect(view.byTestId('report-status').textContent).to.equal('Building report…');
    expect(view.byTestId<HTMLButtonElement>('report-download').disabled).to.equal(true);
    release();
    await waitFor(() => view.queryTestId('report-table') !== null);
    expect(view.queryTestId('report-status')).to.equal(null);
  });

  it('shows the broken links first, with counts for every report in the picker', async () => {
    const view = await mount(scanOf(ROWS));
    await waitFor(() => view.queryTestId('report-table') !== null);
    expect(view.byTestId('report-count').dataset['count']).to.equal('1');
    expect(view.byTestId('report-count').textContent).to.equal('1 broken URL');
    const options = [...view.byTestId<HTMLSelectElement>('report-select').options].map((o) => o.textContent);
    expect(options).to.deep.equal([
      'Broken links (1)',
      'Broken resources (1)',
      'Redirect chains and loops (1)',
      'Blocked by robots.txt (1)',
      'Duplicate content (1)',
    ]);
    const [cells] = tableCells(view);
    expect(cells?.[0]).to.equal(`${A}/gone`);
    expect(cells?.[1]).to.equal('404');
  });

  it('renders anchor text as text, never as HTML', async () => {
    const view = await mount(scanOf(ROWS));
    await waitFor(() => view.queryTestId('report-table') !== null);
    expect(view.byTestId('report-table').textContent).to.include(EVIL);
    expect(view.byTestId('report-table').querySelector('img')).to.equal(null);
    expect((window as unknown as Record<string, unknown>)['__reportsXss']).to.equal(undefined);
  });

  it('shows each report when picked', async () => {
    const view = await mount(scanOf(ROWS));
    await waitFor(() => view.queryTestId('report-table') !== null);

    await pick(view, 'broken-resources');
    expect(view.byTestId('report-table').dataset['kind']).to.equal('broken-resources');
    expect(view.byTestId('report-count').textContent).to.equal('1 broken resource');
    expect(tableCells(view)).to.deep.equal([
      [`${A}/img/gone.png`, 'image', '404', `${A}/styled${A}/s/site.css (stylesheet)`],
    ]);

    await pick(view, 'redirects');
    expect(view.byTestId('report-table').dataset['kind']).to.equal('redirects');
    // A loop is named a loop, as the Issues name it, not also a chain.
    expect(view.byTestId('report-count').textContent).to.equal('1 redirect loop');
    expect(tableCells(view)[0]?.[3]).to.equal('loop');

    await pick(view, 'blocked');
    expect(tableCells(view)).to.deep.equal([[`${A}/private`, 'Disallow: /private', 'https://a.example/']]);

    await pick(view, 'duplicates');
    expect(tableCells(view)[0]?.[0]).to.equal('3');
    expect(tableCells(view)[0]?.[2]).to.include(`${A}/a · 200 (first capture)`);
  });

  it("counts redirect loops, chains of more than one hop and single redirects apart, in the Issues' words", async () => {
    const rows = [
      row('/old', { status: 301, location: `${A}/loop` }),
      row('/loop', { status: 302, location: `${A}/old` }),
      row('/a', { status: 301, location: `${A}/b` }),
      row('/b', { status: 301, location: `${A}/c` }),
      row('/c'),
      row('/d', { status: 308, location: `${A}/c` }),
    ];
    const view = await mount(scanOf(rows));
    await waitFor(() => view.container.querySelector('[data-state="ready"]') !== null);
    await pick(view, 'redirects');
    expect(view.byTestId('report-count').textContent).to.equal(
      '1 redirect loop, 1 redirect chain of more than one hop, 1 single redirect',
    );
    expect(tableCells(view).map((cells) => cells[3])).to.deep.equal(['loop', 'chain', '']);
  });

  it('opens the detail of every URL a redirect chain names, where it ends included', async () => {
    const opened: string[] = [];
    const rows = [
      row('/r1', { status: 301, location: `${A}/r2` }),
      row('/r2', { status: 308, location: `${A}/home` }),
      row('/home'),
      row('/gone', { status: 301, location: `${A}/elsewhere` }),
    ].map((r, index) => ({ ...r, seq: index + 1 }));
    const view = await mount(scanOf(rows), undefined, (url) => opened.push(url));
    await waitFor(() => view.queryTestId('report-count') !== null);
    await pick(view, 'redirects');
    const links = [...view.byTestId('report-table').querySelectorAll<HTMLElement>('[data-testid="report-url"]')];
    expect(links.map((link) => link.textContent)).to.deep.equal([
      `${A}/r1`,
      `${A}/r2`,
      `${A}/home`,
      `${A}/gone`,
      `${A}/elsewhere`,
    ]);
    expect(tableCells(view).map((cells) => cells[2])).to.deep.equal([`200 ${A}/home`, `not crawled: ${A}/elsewhere`]);
    for (const link of links) await click(link);
    expect(opened).to.deep.equal([`${A}/r1`, `${A}/r2`, `${A}/home`, `${A}/gone`, `${A}/elsewhere`]);
  });

  it('hands the chosen report to saveCsv as CSV, named after the host, date and report', async () => {
    const view = await mount(scanOf(ROWS));
    await waitFor(() => view.queryTestId('report-table') !== null);
    await click(view.byTestId('report-download'));
    await pick(view, 'blocked');
    await click(view.byTestId('report-download'));
    await pick(view, 'broken-resources');
    await click(view.byTestId('report-download'));

    expect(view.saved.map((s) => s.fileName)).to.deep.equal([
      'a.example-2026-11-21-broken-links.csv',
      'a.example-2026-11-21-blocked.csv',
      'a.example-2026-11-21-broken-resources.csv',
    ]);
    expect(view.saved[0]?.text).to.equal(
      '\uFEFFtarget,status,error,linking page,anchor text\r\n' +
        `${A}/gone,404,,${A}/,"<img src=x onerror=""window.__reportsXss = true"">"\r\n` +
        `${A}/gone,404,,${A}/b,'=cmd|calc\r\n`,
    );
    expect(view.saved[1]?.text).to.equal(`\uFEFFurl,rule,referrer\r\n${A}/private,Disallow: /private,${A}/\r\n`);
    expect(view.saved[2]?.text).to.equal(
      '\uFEFFresource,type,status,problem,found via,used by,used by kind\r\n' +
        `${A}/img/gone.png,image,404,404,${A}/,${A}/styled,page\r\n` +
        `${A}/img/gone.png,image,404,404,${A}/,${A}/s/site.css,resource\r\n`,
    );
  });

  it('says so when a report is empty', async () => {
    const view = await mount(scanOf([row('/')]));
    await waitFor(() => view.queryTestId('report-empty') !== null);
    expect(view.queryTestId('report-table')).to.equal(null);
    expect(view.byTestId('report-count').textContent).to.equal('0 broken URLs');
    expect(view.byTestId<HTMLButtonElement>('report-download').disabled).to.equal(false);
  });

  it('shows why the reports could not be built', async () => {
    const view = await mount(async function* () {
      yield* [];
      throw new Error('database closed');
    });
    await waitFor(() => view.byTestId('report-status').getAttribute('role') === 'alert');
    expect(view.byTestId('report-status').textContent).to.include('database closed');
  });

  it('shows why a download failed', async () => {
    const view = await mount(scanOf(ROWS), () => Promise.reject(new Error('downloads refused')));
    await waitFor(() => view.queryTestId('report-table') !== null);
    await click(view.byTestId('report-download'));
    await waitFor(() => view.queryTestId('report-save-error') !== null);
    expect(view.byTestId('report-save-error').textContent).to.include('downloads refused');
  });
});

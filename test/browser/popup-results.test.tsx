import { expect } from 'chai';
import {
  crawlSummary,
  fakeBackground,
  loadPopupStyles,
  mountPopup,
  pageSummary,
  tabAt,
  waitFor,
  type MountedPopup,
} from './support/popup-harness.tsx';

describe('popup results', () => {
  let popup: MountedPopup | undefined;

  afterEach(async () => {
    await popup?.unmount();
    popup = undefined;
  });

  it('renders the status, "blocked" for robots, "301 → location" for redirects and the code of network failures', async () => {
    const pages = [
      pageSummary({
        seq: 5,
        url: 'https://example.com/old',
        status: 301,
        contentType: null,
        location: 'https://example.com/new',
      }),
      pageSummary({
        seq: 4,
        url: 'https://example.com/private/x',
        status: null,
        contentType: null,
        blockedBy: 'robots',
      }),
      pageSummary({
        seq: 3,
        url: 'https://example.com/slow',
        status: null,
        contentType: null,
        error: { code: 'timeout', message: 'no answer in 30 s' },
      }),
      pageSummary({ seq: 2, url: 'https://example.com/missing', status: 404, contentType: 'text/html' }),
      pageSummary({ seq: 1, url: 'https://example.com/', status: 200, contentType: 'text/html; charset=utf-8' }),
    ];
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [crawlSummary({ state: 'finished' })] }),
      'pages/latest': () => ({ pages }),
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/') });
    const mounted = popup;

    await waitFor(() => expect(mounted.byTestId('results').querySelectorAll('tbody tr')).to.have.lengthOf(5));
    const table = mounted.byTestId<HTMLTableElement>('results');
    const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
    expect(headers).to.deep.equal(['URL', 'Status', 'Type']);
    const rows = [...table.querySelectorAll('tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent),
    );
    expect(rows.map((row) => row[1])).to.deep.equal([
      '301 → https://example.com/new',
      'blocked',
      'timeout',
      '404',
      '200',
    ]);
    expect(rows[4]?.[2]).to.equal('text/html');
  });

  it('truncates a long URL in its cell and keeps the full URL in its title', async () => {
    await loadPopupStyles();
    const longUrl = `https://example.com/${'very-long-segment/'.repeat(12)}page.html`;
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [crawlSummary({ state: 'finished' })] }),
      'pages/latest': () => ({ pages: [pageSummary({ url: longUrl })] }),
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/') });
    const mounted = popup;

    await waitFor(() => mounted.byTestId('results'));
    const cell = mounted.byTestId('results').querySelector<HTMLTableCellElement>('tbody td');
    if (cell === null || cell === undefined) throw new Error('no URL cell');
    expect(cell.title).to.equal(longUrl);
    expect(longUrl.endsWith(cell.textContent ?? '-')).to.equal(true);
    expect(cell.scrollWidth).to.be.above(cell.clientWidth);
    expect(document.body.getBoundingClientRect().width).to.equal(380);
  });
});

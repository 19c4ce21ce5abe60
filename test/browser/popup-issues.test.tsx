/**
 * The popup's Issues summary of a crawl that is over: counts by severity and
 * the checks with the most issues from `crawl/issues`, a button to the
 * results page's Issues view, and one line when the request fails.
 */
import { expect } from 'chai';
import { emptyCounts } from '../../src/core/model.ts';
import type { ReplyOf } from '../../src/messaging/protocol.ts';
import type { ResultsViewName } from '../../src/messaging/routes.ts';
import {
  click,
  crawlSummary,
  fakeBackground,
  mountPopup,
  payloadsOf,
  settle,
  tabAt,
  waitFor,
  type FakeHandlers,
  type MountedPopup,
} from './support/popup-harness.tsx';

const ISSUES: ReplyOf<'crawl/issues'> = {
  bySeverity: { error: 3, warning: 9, notice: 1 },
  checks: [
    { check: 'broken-link-internal', count: 2 },
    { check: 'redirect-loop', count: 1 },
    { check: 'title-duplicate', count: 4 },
    { check: 'h1-missing', count: 2 },
    { check: 'slow-response', count: 3 },
    { check: 'deep-page', count: 1 },
  ],
};

function crawlIn(state: 'running' | 'paused' | 'stopped' | 'finished', id = 'c-1') {
  return crawlSummary({ id, state, counts: { ...emptyCounts(), done: 12, fetched: 12 } });
}

function background(state: 'running' | 'paused' | 'stopped' | 'finished', issues: FakeHandlers['crawl/issues']) {
  return fakeBackground({
    'crawl/list': () => ({ crawls: [crawlIn(state)] }),
    'pages/latest': () => ({ pages: [] }),
    'crawl/hosts': () => ({ hosts: [] }),
    ...(issues === undefined ? {} : { 'crawl/issues': issues }),
  });
}

describe('popup issues summary', () => {
  let popup: MountedPopup | undefined;

  afterEach(async () => {
    await popup?.unmount();
    popup = undefined;
  });

  it('counts a finished crawl’s issues by severity and names the three worst checks, by title: errors first, then the most issues', async () => {
    const fake = background('finished', () => ISSUES);
    popup = await mountPopup({ send: fake.send, currentTabUrl: tabAt('https://example.com/') });
    const mounted = popup;

    await waitFor(() => mounted.byTestId('popup-issues-counts'));
    expect(mounted.byTestId('popup-issues-counts').textContent).to.equal('3 errors · 9 warnings · 1 notice');
    const top = [...mounted.byTestId('popup-issues-top').querySelectorAll('li')];
    expect(top.map((item) => [item.dataset['check'], item.textContent])).to.deep.equal([
      ['broken-link-internal', 'Broken internal links2'],
      ['redirect-loop', 'Redirect loops1'],
      ['title-duplicate', 'Duplicate titles4'],
    ]);
    expect(top.map((item) => item.dataset['severity'])).to.deep.equal(['error', 'error', 'warning']);
    expect(payloadsOf(fake.sent, 'crawl/issues')).to.deep.equal([{ crawlId: 'c-1' }]);
  });

  it('says no issue was found when every check passed', async () => {
    const fake = background('stopped', () => ({ bySeverity: { error: 0, warning: 0, notice: 0 }, checks: [] }));
    popup = await mountPopup({ send: fake.send, currentTabUrl: tabAt('https://example.com/') });
    const mounted = popup;

    await waitFor(() => expect(mounted.byTestId('popup-issues').dataset['state']).to.equal('done'));
    expect(mounted.byTestId('popup-issues-counts').textContent).to.equal('0 errors · 0 warnings · 0 notices');
    expect(mounted.queryTestId('popup-issues-top')).to.equal(null);
    expect(mounted.byTestId('popup-issues').textContent).to.include('No issue found.');
  });

  it('opens the results page of the crawl on its Issues view', async () => {
    const opened: [string, ResultsViewName | undefined][] = [];
    const fake = background('paused', () => ISSUES);
    popup = await mountPopup({
      send: fake.send,
      currentTabUrl: tabAt('https://example.com/'),
      openResultsTab: (crawlId, view) => {
        opened.push([crawlId, view]);
        return Promise.resolve();
      },
    });
    const mounted = popup;

    await waitFor(() => mounted.byTestId('popup-issues-counts'));
    await click(mounted.byTestId('open-issues'));
    await waitFor(() => expect(opened).to.deep.equal([['c-1', 'issues']]));
  });

  it('says in one line that the issues could not be had, and shows the crawl as before', async () => {
    const fake = background('finished', () => {
      throw new Error('the database is closed');
    });
    popup = await mountPopup({ send: fake.send, currentTabUrl: tabAt('https://example.com/') });
    const mounted = popup;

    await waitFor(() => mounted.byTestId('popup-issues-error'));
    expect(mounted.byTestId('popup-issues-error').textContent).to.equal(
      'Could not check the issues: the database is closed',
    );
    expect(mounted.queryTestId('popup-issues-counts')).to.equal(null);
    expect(mounted.byTestId('crawl-state').textContent).to.equal('finished');
    expect(mounted.container.querySelector('[role="alert"]')).to.equal(null);
    expect(mounted.byTestId<HTMLButtonElement>('open-issues').disabled).to.equal(false);
  });

  it('shows no summary of a running crawl and asks for none', async () => {
    const fake = background('running', () => ISSUES);
    popup = await mountPopup({ send: fake.send, currentTabUrl: tabAt('https://example.com/'), pollMs: 60_000 });
    const mounted = popup;

    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('running'));
    await settle(20);
    expect(mounted.queryTestId('popup-issues')).to.equal(null);
    expect(payloadsOf(fake.sent, 'crawl/issues')).to.deep.equal([]);
  });
});

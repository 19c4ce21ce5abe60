import { expect } from 'chai';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import {
  click,
  crawlSummary,
  fakeBackground,
  mountPopup,
  pageSummary,
  payloadsOf,
  settle,
  tabAt,
  waitFor,
  type MountedPopup,
} from './support/popup-harness.tsx';

const counts = (fetched: number, errors: number, blocked: number) => ({
  admitted: fetched + 5,
  done: fetched,
  fetched,
  errors,
  blocked,
  bytesStored: 0,
});

describe('popup crawl', () => {
  let popup: MountedPopup | undefined;

  afterEach(async () => {
    await popup?.unmount();
    popup = undefined;
  });

  it('shows the newest crawl of the tab’s site with its counters', async () => {
    const crawls: CrawlSummary[] = [
      crawlSummary({
        id: 'other-site',
        createdAt: 300,
        settings: { ...crawlSummary().settings, startUrl: 'https://other.test/' },
      }),
      crawlSummary({
        id: 'newest',
        createdAt: 200,
        state: 'failed',
        message: 'the start URL did not answer',
        counts: counts(12, 3, 2),
        queued: 4,
      }),
      crawlSummary({ id: 'older', createdAt: 100, state: 'finished', counts: counts(99, 0, 0) }),
    ];
    const background = fakeBackground({
      'crawl/list': () => ({ crawls }),
      'pages/latest': () => ({ pages: [pageSummary()] }),
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/blog/') });
    const mounted = popup;

    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('failed'));
    expect(mounted.container.textContent).to.include('the start URL did not answer');
    expect(mounted.byTestId('count-fetched').textContent).to.equal('12');
    expect(mounted.byTestId('count-queued').textContent).to.equal('4');
    expect(mounted.byTestId('count-errors').textContent).to.equal('3');
    expect(mounted.byTestId('count-blocked').textContent).to.equal('2');
    const labels = [...mounted.container.querySelectorAll('.counters dt')].map((dt) => dt.textContent);
    // A failed crawl queues nothing more: what was left is "Not fetched".
    expect(labels).to.deep.equal(['Fetched', 'Not fetched', 'URLs with errors', 'Blocked by robots']);
    expect(payloadsOf(background.sent, 'pages/latest')).to.deep.equal([{ crawlId: 'newest', limit: 20 }]);
    expect(mounted.queryTestId('stop')).to.equal(null);
    await waitFor(() => expect(mounted.byTestId('results').querySelectorAll('tbody tr')).to.have.lengthOf(1));
  });

  it('shows no crawl for a tab whose site was never crawled', async () => {
    const background = fakeBackground({ 'crawl/list': () => ({ crawls: [crawlSummary()] }) });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('http://example.com/') });
    const mounted = popup;

    await waitFor(() => expect(mounted.container.textContent).not.to.include('Looking for earlier crawls'));
    expect(mounted.queryTestId('crawl-state')).to.equal(null);
  });

  it('sends crawl/stop for the running crawl when Stop is clicked', async () => {
    const running = crawlSummary({ id: 'run-1', state: 'running' });
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [running] }),
      'pages/latest': () => ({ pages: [] }),
      'crawl/stop': ({ crawlId }) => ({ crawl: { ...running, id: crawlId, state: 'stopped', endedAt: 1 } }),
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/'), pollMs: 60_000 });
    const mounted = popup;
    await waitFor(() => mounted.byTestId('stop'));

    await click(mounted.byTestId('stop'));

    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('stopped'));
    expect(payloadsOf(background.sent, 'crawl/stop')).to.deep.equal([{ crawlId: 'run-1' }]);
    expect(mounted.queryTestId('stop')).to.equal(null);
    expect([...mounted.container.querySelectorAll('button')].map((button) => button.textContent)).to.include(
      'New crawl',
    );
  });

  it('refreshes the counters every pollMs while the crawl runs, one poll at a time', async () => {
    let gets = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [crawlSummary({ id: 'run-1', counts: counts(0, 0, 0) })] }),
      'crawl/get': async ({ crawlId }) => {
        gets += 1;
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 15)); // slower than pollMs
        inFlight -= 1;
        return { crawl: crawlSummary({ id: crawlId, counts: counts(gets * 10, 0, 0) }) };
      },
      'pages/latest': () => ({ pages: [] }),
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/'), pollMs: 5 });
    const mounted = popup;

    await waitFor(() => expect(Number(mounted.byTestId('count-fetched').textContent)).to.be.at.least(30));
    expect(maxInFlight).to.equal(1);
    expect(payloadsOf(background.sent, 'crawl/get').every((payload) => payload.crawlId === 'run-1')).to.equal(true);
  });

  it('stops polling when the crawl is no longer running', async () => {
    let gets = 0;
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [crawlSummary({ id: 'run-1' })] }),
      'crawl/get': ({ crawlId }) => {
        gets += 1;
        return {
          crawl: crawlSummary({ id: crawlId, state: gets >= 2 ? 'finished' : 'running', counts: counts(gets, 0, 0) }),
        };
      },
      'pages/latest': () => ({ pages: [] }),
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/'), pollMs: 5 });
    const mounted = popup;

    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('finished'));
    await settle(40);
    expect(gets).to.equal(2);
    expect(mounted.byTestId('count-fetched').textContent).to.equal('2');
  });

  it('stops polling when the popup closes', async () => {
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [crawlSummary({ id: 'run-1' })] }),
      'crawl/get': ({ crawlId }) => ({ crawl: crawlSummary({ id: crawlId }) }),
      'pages/latest': () => ({ pages: [] }),
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/'), pollMs: 5 });
    await waitFor(() => payloadsOf(background.sent, 'crawl/get').length >= 1);

    await popup.unmount();
    popup = undefined;
    const sentAtClose = background.sent.length;
    await settle(40);
    expect(background.sent.length).to.equal(sentAtClose);
  });

  it('shows the new crawl after Start succeeds, first, with the Start form folded away', async () => {
    const started = crawlSummary({ id: 'new-1', state: 'running', queued: 1 });
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [] }),
      'crawl/start': () => ({ crawl: started }),
      'pages/latest': () => ({ pages: [] }),
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/'), pollMs: 60_000 });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));
    expect(mounted.queryTestId('crawl-state')).to.equal(null);

    await click(mounted.byTestId('start'));

    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('running'));
    expect(mounted.byTestId('count-queued').textContent).to.equal('1');
    expect(mounted.byTestId('stop')).to.be.an('htmlbuttonelement');
    expect(mounted.queryTestId('start'), 'the form folds away while the crawl runs').to.equal(null);
    await click(mounted.byTestId('show-start-form'));
    await waitFor(() => expect(mounted.byTestId<HTMLButtonElement>('start').disabled).to.equal(true));
    expect(mounted.container.textContent).to.include('A crawl of this site is running');
  });
});

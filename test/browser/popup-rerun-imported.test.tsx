import { expect } from 'chai';
import {
  click,
  crawlSummary,
  fakeBackground,
  mountPopup,
  payloadsOf,
  tabAt,
  waitFor,
  type MountedPopup,
} from './support/popup-harness.tsx';

/** Re-run of a crawl imported from an archive (issue 27): its settings came from a file, so they are shown first. */
describe('popup: re-run of an imported crawl', () => {
  let popup: MountedPopup | undefined;

  afterEach(async () => {
    await popup?.unmount();
    popup = undefined;
  });

  const imported = crawlSummary({
    id: 'imported',
    state: 'finished',
    importedFrom: 'site.wacz',
    settings: {
      ...crawlSummary().settings,
      startUrl: 'http://127.0.0.1:9/transfer?to=someone',
      delayMs: 0,
      maxDepth: 3,
    },
  });

  async function mountWith(crawls = [imported]) {
    const background = fakeBackground({
      'crawl/list': () => ({ crawls }),
      'pages/latest': () => ({ pages: [] }),
      'crawl/hosts': () => ({ hosts: [] }),
      'crawl/rerun': () => ({ crawl: crawlSummary({ id: 'new', state: 'running', queued: 1 }) }),
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('about:blank'), pollMs: 60_000 });
    const mounted = popup;
    await click(mounted.byTestId('view-crawls'));
    await waitFor(() => mounted.byTestId('rerun-crawl'));
    return { mounted, background };
  }

  it('shows the start URL and settings of an imported crawl before re-running it, and sends nothing until Start', async () => {
    const { mounted, background } = await mountWith();
    await click(mounted.byTestId('rerun-crawl'));

    await waitFor(() => mounted.byTestId('confirm-rerun'));
    expect(mounted.byTestId('confirm-rerun-start').textContent).to.equal('http://127.0.0.1:9/transfer?to=someone');
    expect(mounted.byTestId('confirm-rerun-settings').textContent).to.include('delay 0 s').and.include('depth 3');
    expect(mounted.byTestId('confirm-rerun-text').textContent)
      .to.include('site.wacz')
      .and.include('without your cookies');
    expect(document.activeElement).to.equal(mounted.byTestId('confirm-rerun'));
    expect(payloadsOf(background.sent, 'crawl/rerun')).to.deep.equal([]);

    await click(mounted.byTestId('confirm-rerun'));
    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('running'));
    expect(payloadsOf(background.sent, 'crawl/rerun')).to.deep.equal([{ crawlId: 'imported' }]);
  });

  it('takes the re-run of an imported crawl back on Cancel, sending nothing', async () => {
    const { mounted, background } = await mountWith();
    await click(mounted.byTestId('rerun-crawl'));
    await waitFor(() => mounted.byTestId('cancel-rerun'));
    await click(mounted.byTestId('cancel-rerun'));
    await waitFor(() => expect(mounted.queryTestId('confirm-rerun')).to.equal(null));
    expect(payloadsOf(background.sent, 'crawl/rerun')).to.deep.equal([]);
  });
});

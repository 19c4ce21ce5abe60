import { expect } from 'chai';
import { act } from 'preact/test-utils';
import type { ExportFormat } from '../../src/export/format-info.ts';
import { FORMATS } from '../../src/export/format-info.ts';
import {
  click,
  crawlSummary,
  fakeBackground,
  mountPopup,
  tabAt,
  waitFor,
  type MountedPopup,
} from './support/popup-harness.tsx';

const withRows = (done: number) => ({ admitted: done + 3, done, fetched: done, errors: 0, blocked: 0, bytesStored: 0 });

/** Picks an option the way a user's choice reaches the app (a `change` event). */
async function choose(select: HTMLSelectElement, value: string): Promise<void> {
  await act(() => {
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

describe('popup export', () => {
  let popup: MountedPopup | undefined;

  afterEach(async () => {
    await popup?.unmount();
    popup = undefined;
  });

  async function mountWith(crawl = crawlSummary({ id: 'crawl-7', state: 'finished', counts: withRows(12) })) {
    const opened: [string, ExportFormat][] = [];
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [crawl] }),
      'pages/latest': () => ({ pages: [] }),
    });
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      pollMs: 60_000,
      openExportTab: async (crawlId, format) => {
        opened.push([crawlId, format]);
      },
    });
    const mounted = popup;
    await waitFor(() => mounted.byTestId('export'));
    return { mounted, opened };
  }

  it('offers every export format by its label, WACZ first', async () => {
    const { mounted } = await mountWith();

    const select = mounted.byTestId<HTMLSelectElement>('export-format');
    expect([...select.options].map((option) => option.textContent)).to.deep.equal(FORMATS.map((info) => info.label));
    expect(select.value).to.equal('wacz');
    expect(select.labels?.[0]?.textContent).to.equal('Export as');
  });

  it('opens the export page for the crawl shown in the chosen format when Export is clicked', async () => {
    const { mounted, opened } = await mountWith();

    await choose(mounted.byTestId<HTMLSelectElement>('export-format'), 'csv');
    await click(mounted.byTestId('export'));

    await waitFor(() => expect(opened).to.deep.equal([['crawl-7', 'csv']]));
  });

  it('opens the export page in WACZ when no format was chosen', async () => {
    const { mounted, opened } = await mountWith();

    await click(mounted.byTestId('export'));

    await waitFor(() => expect(opened).to.deep.equal([['crawl-7', 'wacz']]));
  });

  it('offers Export for a running crawl that has rows stored', async () => {
    const { mounted } = await mountWith(crawlSummary({ id: 'crawl-7', state: 'running', counts: withRows(1) }));

    expect(mounted.byTestId<HTMLButtonElement>('export').disabled).to.equal(false);
  });

  it('disables Export while the crawl has no row stored', async () => {
    const { mounted, opened } = await mountWith(crawlSummary({ id: 'crawl-7', state: 'running', counts: withRows(0) }));

    const button = mounted.byTestId<HTMLButtonElement>('export');
    expect(button.disabled).to.equal(true);
    expect(mounted.container.textContent).to.include('Nothing to export yet');
    await click(button);
    expect(opened).to.deep.equal([]);
  });

  it('says so when the export page cannot be opened', async () => {
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [crawlSummary({ state: 'finished', counts: withRows(3) })] }),
      'pages/latest': () => ({ pages: [] }),
    });
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      openExportTab: () => Promise.reject(new Error('tabs.create failed')),
    });
    const mounted = popup;
    await waitFor(() => mounted.byTestId('export'));

    await click(mounted.byTestId('export'));

    await waitFor(() =>
      expect(mounted.container.querySelector('[role="alert"]')?.textContent).to.include('tabs.create failed'),
    );
    expect(mounted.byTestId<HTMLButtonElement>('export').disabled).to.equal(false);
  });
});

/**
 * The import page's view (issue 18, *Open an archive*), with a fake import: the picker takes
 * archives only, progress shows bytes, records, rows and the time left, Cancel aborts (nothing
 * stored), a failure says why and that nothing was stored, success sums up with the warnings and
 * links to the new crawl's results. And the popup's Crawls view opens the page in a tab.
 */
import { expect } from 'chai';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import type { ImportOutcome, ImportProgress } from '../../src/import-view/import-text.ts';
import { ImportView, type RunImport } from '../../src/import-view/import-view.tsx';
import {
  click,
  crawlSummary,
  fakeBackground,
  mountPopup,
  tabAt,
  waitFor,
  type MountedPopup,
} from './support/popup-harness.tsx';

interface Pending {
  file: File;
  signal: AbortSignal;
  onProgress: (progress: ImportProgress) => void;
  resolve: (outcome: ImportOutcome) => void;
  reject: (error: unknown) => void;
}

/** An import the test drives by hand. */
function fakeImport(): { runImport: RunImport; calls: Pending[] } {
  const calls: Pending[] = [];
  const runImport: RunImport = (file, { signal, onProgress }) =>
    new Promise<ImportOutcome>((resolve, reject) => {
      calls.push({ file, signal, onProgress, resolve, reject });
      // As importArchive does: an abort rejects with an AbortError once what was stored is deleted.
      signal.addEventListener('abort', () => reject(new DOMException('The import was cancelled.', 'AbortError')));
    });
  return { runImport, calls };
}

async function mountView(runImport: RunImport, now: () => number = Date.now) {
  const container = document.createElement('div');
  document.body.append(container);
  await act(() => {
    render(
      <ImportView
        runImport={runImport}
        resultsHref={(id) => `chrome-extension://x/src/shells/results/index.html?crawl=${id}`}
        now={now}
      />,
      container,
    );
  });
  const q = <E extends HTMLElement = HTMLElement>(testId: string): E | null =>
    container.querySelector<E>(`[data-testid="${testId}"]`);
  const by = <E extends HTMLElement = HTMLElement>(testId: string): E => {
    const found = q<E>(testId);
    if (found === null) throw new Error(`no element with data-testid="${testId}"`);
    return found;
  };
  const root = (): HTMLElement => by('import-page');
  const pick = async (file: File): Promise<void> => {
    const input = by<HTMLInputElement>('import-file');
    const transfer = new DataTransfer();
    transfer.items.add(file);
    input.files = transfer.files;
    await act(() => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
  };
  const unmount = async (): Promise<void> => {
    await act(() => {
      render(null, container);
    });
    container.remove();
  };
  return { container, q, by, root, pick, unmount };
}

const archive = (name = 'site.wacz', size = 1000): File => new File([new Uint8Array(size)], name);

describe('Import page', () => {
  let unmount: (() => Promise<void>) | undefined;
  let popup: MountedPopup | undefined;
  afterEach(async () => {
    await unmount?.();
    await popup?.unmount();
    unmount = undefined;
    popup = undefined;
  });

  it('offers a file picker for archives, and starts nothing before a file is picked', async () => {
    const fake = fakeImport();
    const view = await mountView(fake.runImport);
    unmount = view.unmount;
    expect(view.root().dataset.state).to.equal('idle');
    expect(view.by<HTMLInputElement>('import-file').accept).to.equal('.wacz,.warc,.warc.gz,.gz');
    expect(fake.calls).to.have.lengthOf(0);
    expect(document.title).to.equal('Open an archive · Tabcrawl');
  });

  it('shows bytes read of the total, records, rows and the time left, then the summary with the warnings and Open results', async () => {
    const fake = fakeImport();
    let clock = 10_000;
    const view = await mountView(fake.runImport, () => clock);
    unmount = view.unmount;
    await view.pick(archive('site.wacz', 2_000_000));
    expect(view.root().dataset.state).to.equal('working');
    expect(view.by('import-status').textContent).to.equal('Opening site.wacz…');
    expect(view.by<HTMLInputElement>('import-file').disabled, 'no second import while one runs').to.equal(true);
    const call = fake.calls[0];
    if (call === undefined) throw new Error('runImport was not called');
    expect(call.file.name).to.equal('site.wacz');

    clock += 4000;
    await act(() => call.onProgress({ bytesRead: 500_000, totalBytes: 2_000_000, records: 30, rows: 12 }));
    expect(view.by('import-status').textContent).to.match(/^Read .+ of .+ \(25%\): 30 records, 12 URLs$/);
    expect(view.by('import-time-left').textContent, '4 s for a quarter: 12 s for the rest').to.equal('about 12 s left');
    expect(view.by<HTMLProgressElement>('import-progress').value).to.equal(500_000);
    expect(view.root().dataset.bytesRead).to.equal('500000');
    expect(view.root().dataset.rows).to.equal('12');
    expect(document.title).to.equal('25% importing · Tabcrawl');

    await act(async () => {
      call.resolve({
        crawlId: 'c-42',
        rows: 40,
        warnings: ['site.wacz: record at byte 812: no WARC-Target-URI; skipped', 'pages.jsonl: line 3 is not JSON'],
      });
      await Promise.resolve();
    });
    await waitFor(() => expect(view.root().dataset.state).to.equal('done'));
    expect(view.by('import-status').textContent).to.equal('Imported 40 URLs from site.wacz');
    expect(view.by('import-warnings-count').textContent).to.equal('2 warnings');
    expect([...view.by('import-warnings').querySelectorAll('li')].map((li) => li.textContent)).to.deep.equal([
      'site.wacz: record at byte 812: no WARC-Target-URI; skipped',
      'pages.jsonl: line 3 is not JSON',
    ]);
    const link = view.by<HTMLAnchorElement>('open-results');
    expect(link.textContent).to.equal('Open results');
    expect(link.href).to.equal('chrome-extension://x/src/shells/results/index.html?crawl=c-42');
    expect(view.root().dataset.crawlId).to.equal('c-42');
    expect(view.by<HTMLInputElement>('import-file').disabled, 'another file can be opened').to.equal(false);
    expect(document.title).to.equal('Imported · Tabcrawl');
  });

  it('says "No warnings" and lists none when the archive read cleanly', async () => {
    const fake = fakeImport();
    const view = await mountView(fake.runImport);
    unmount = view.unmount;
    await view.pick(archive('a.warc.gz'));
    await act(async () => {
      fake.calls[0]?.resolve({ crawlId: 'c1', rows: 1, warnings: [] });
      await Promise.resolve();
    });
    await waitFor(() => expect(view.root().dataset.state).to.equal('done'));
    expect(view.by('import-status').textContent).to.equal('Imported 1 URL from a.warc.gz');
    expect(view.by('import-warnings-count').textContent).to.equal('No warnings');
    expect(view.q('import-warnings')).to.equal(null);
  });

  it('cancels: the import is aborted and the page says nothing was stored', async () => {
    const fake = fakeImport();
    const view = await mountView(fake.runImport);
    unmount = view.unmount;
    await view.pick(archive('big.warc'));
    await act(() => fake.calls[0]?.onProgress({ bytesRead: 10, totalBytes: 1000, records: 1, rows: 1 }));
    await click(view.by('import-cancel'));
    expect(fake.calls[0]?.signal.aborted).to.equal(true);
    await waitFor(() => expect(view.root().dataset.state).to.equal('cancelled'));
    expect(view.by('import-status').textContent).to.equal('Import of big.warc cancelled: nothing was stored.');
    expect(view.q('open-results')).to.equal(null);
  });

  it("on failure shows the reader's message (file and offset) and that nothing was stored; the same file can be picked again", async () => {
    const fake = fakeImport();
    const view = await mountView(fake.runImport);
    unmount = view.unmount;
    await view.pick(archive('broken.warc.gz'));
    await act(async () => {
      fake.calls[0]?.reject(new Error('broken.warc.gz: truncated gzip member at byte 4096'));
      await Promise.resolve();
    });
    await waitFor(() => expect(view.root().dataset.state).to.equal('failed'));
    expect(view.by('import-status').textContent).to.equal('broken.warc.gz: truncated gzip member at byte 4096');
    expect(view.by('import-status').getAttribute('role')).to.equal('alert');
    expect(view.by('import-nothing-stored').textContent).to.match(/^Nothing was stored\./);
    expect(document.title).to.equal('Import failed · Tabcrawl');

    await view.pick(archive('broken.warc.gz'));
    expect(fake.calls).to.have.lengthOf(2);
    expect(view.root().dataset.state).to.equal('working');
  });

  it('says at once that an empty file is not a WARC or WACZ, starting no import', async () => {
    const fake = fakeImport();
    const view = await mountView(fake.runImport);
    unmount = view.unmount;
    await view.pick(archive('empty.warc', 0));
    await waitFor(() => expect(view.root().dataset.state).to.equal('failed'));
    expect(fake.calls).to.have.lengthOf(0);
    expect(view.by('import-status').textContent).to.equal('empty.warc: the file is empty: not a WARC or WACZ');
    expect(view.by('import-nothing-stored').textContent).to.match(/^Nothing was stored\./);
  });

  it('aborts a running import when the page goes away', async () => {
    const fake = fakeImport();
    const view = await mountView(fake.runImport);
    await view.pick(archive());
    await view.unmount();
    expect(fake.calls[0]?.signal.aborted).to.equal(true);
  });

  it('the popup\'s Crawls view has "Open an archive…", which opens the import page in a tab, even with no crawl stored', async () => {
    let opened = 0;
    const background = fakeBackground({ 'crawl/list': () => ({ crawls: [] }) });
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('about:blank'),
      openImportTab: async () => void opened++,
    });
    const mounted = popup;
    await click(mounted.byTestId('view-crawls'));
    await waitFor(() => mounted.byTestId('crawls-empty'));
    const button = mounted.byTestId('open-archive');
    expect(button.textContent).to.equal('Open an archive…');
    await click(button);
    expect(opened).to.equal(1);
  });

  it('the popup says when the import page cannot be opened, and has no button without the dep', async () => {
    const background = fakeBackground({ 'crawl/list': () => ({ crawls: [crawlSummary({ state: 'finished' })] }) });
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('about:blank'),
      openImportTab: () => Promise.reject(new Error('no tabs here')),
    });
    const mounted = popup;
    await click(mounted.byTestId('view-crawls'));
    await waitFor(() => expect(mounted.queryAll('crawl-row')).to.have.lengthOf(1));
    expect(mounted.byTestId('open-archive').className, "as light as the rows' buttons").to.equal(
      mounted.queryAll('open-crawl')[0]?.className,
    );
    await click(mounted.byTestId('open-archive'));
    await waitFor(() =>
      expect(mounted.container.querySelector('[role="alert"]')?.textContent).to.equal(
        'Could not open the import page: no tabs here',
      ),
    );
    await popup.unmount();

    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('about:blank') });
    const plain = popup;
    await click(plain.byTestId('view-crawls'));
    await waitFor(() => expect(plain.queryAll('crawl-row')).to.have.lengthOf(1));
    expect(plain.queryTestId('open-archive')).to.equal(null);
  });
});

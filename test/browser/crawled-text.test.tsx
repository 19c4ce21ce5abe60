/**
 * Crawled text on the pages shows its control characters and keeps its direction to itself (issue 27,
 * item 9): an RLO in a title cannot make `\u202Egnp.exe` read as `exe.png`, a NUL or an ESC in a title
 * or a warning shows as `\x00` or `\x1B`, in the results table, the URL detail and the import page's
 * warnings alike (one hook on Preact's vnodes, installed by each page's shell).
 */
import { expect } from 'chai';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { showControlsVisibly } from '../../src/ui/show-controls.ts';
import type { ImportOutcome } from '../../src/import-view/import-text.ts';
import { ImportView, type RunImport } from '../../src/import-view/import-view.tsx';
import { waitFor } from './support/popup-harness.tsx';
import { CRAWL_ID, FakePageQueries, FakeRowReader, SITE, listRowOf, pageRecord } from './support/results-fakes.ts';
import { loadResultsStyles, mountResults, type MountedResults } from './support/results-harness.tsx';

/** Any control a page should never show raw (tab, LF and CR are laid out as white space). */
const RAW = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

describe('crawled text on the pages', () => {
  let view: MountedResults | undefined;

  before(async () => {
    showControlsVisibly();
    await loadResultsStyles();
  });

  afterEach(async () => {
    await view?.unmount();
    view = undefined;
  });

  it("shows a title's RLO in the results table as \\u202E, in a cell whose direction is isolated, as the URL's parts are", async () => {
    const row = pageRecord(1, { url: `https://other.example/download`, title: '\u202Egnp.exe' });
    view = await mountResults({
      queries: new FakePageQueries([listRowOf(row)]),
      reader: new FakeRowReader([row]),
      crawlId: CRAWL_ID,
    });
    const mounted = view;
    await waitFor(() =>
      expect(mounted.container.querySelector('[data-testid="results-row"] .cell-title')?.textContent).to.equal(
        '\\u202Egnp.exe',
      ),
    );
    const cell = mounted.container.querySelector<HTMLElement>('[data-testid="results-row"] .cell-title');
    expect(cell?.getAttribute('title')).to.equal('\\u202Egnp.exe');
    expect(getComputedStyle(cell as HTMLElement).unicodeBidi).to.equal('isolate');
    const urlParts = [
      ...mounted.container.querySelectorAll<HTMLElement>(
        '[data-testid="results-row"] .url-head, [data-testid="results-row"] .url-tail',
      ),
    ];
    expect(urlParts.length).to.equal(2, 'a URL of another site: its origin and its path');
    for (const part of urlParts) expect(getComputedStyle(part).unicodeBidi).to.equal('isolate');
    expect(mounted.byTestId('results-grid').textContent).not.to.match(RAW);
  });

  it('shows a NUL and an ESC of a title as \\x00 and \\x1B in the URL detail', async () => {
    const row = pageRecord(1, { url: `${SITE}/doc`, title: 'a\u0000b\u001B[2Jc' });
    view = await mountResults({
      queries: new FakePageQueries([listRowOf(row)]),
      reader: new FakeRowReader([row]),
      crawlId: CRAWL_ID,
      initialUrl: row.url,
    });
    const mounted = view;
    await waitFor(() => expect(mounted.byTestId('detail-fields').textContent).to.include('a\\x00b\\x1B[2Jc'));
    expect(mounted.container.textContent).not.to.match(RAW);
  });

  it("shows a rendered page's script error with its ESC and RLO written out in the URL detail's Rendering section (issue 29)", async () => {
    const row = pageRecord(1, {
      url: `${SITE}/app`,
      render: {
        outcome: 'rendered',
        message: null,
        why: 'always',
        at: 1,
        durationMs: 10,
        capped: false,
        static: { title: 'Loading\u202E', links: [], linkTexts: [], facts: null },
        sha256: null,
        truncated: false,
        scriptErrors: ['Error: \u001B[2J\u202Egnp.exe'],
        requests: [],
        refused: [],
        navigations: [],
      },
    });
    view = await mountResults({
      queries: new FakePageQueries([listRowOf(row)]),
      reader: new FakeRowReader([row]),
      crawlId: CRAWL_ID,
      initialUrl: row.url,
    });
    const mounted = view;
    await waitFor(() =>
      expect(mounted.byTestId('render-script-errors').textContent).to.include('Error: \\x1B[2J\\u202Egnp.exe'),
    );
    expect(mounted.byTestId('render-compare').textContent).to.include('Loading\\u202E');
    expect(mounted.byTestId('detail-render').textContent).not.to.match(RAW);
  });

  it('shows an ESC, a BEL and an RLO of an import warning written out', async () => {
    const warning =
      'site.warc: record at byte 0: WARC-Target-URI http://a.test/\u001B]0;owned\u0007\u202Egnp.exe is not a URL';
    const runImport: RunImport = () => Promise.resolve<ImportOutcome>({ crawlId: 'c1', rows: 1, warnings: [warning] });
    const container = document.createElement('div');
    document.body.append(container);
    try {
      await act(() => {
        render(<ImportView runImport={runImport} resultsHref={(id) => `results.html?crawl=${id}`} />, container);
      });
      const input = container.querySelector<HTMLInputElement>('[data-testid="import-file"]');
      const transfer = new DataTransfer();
      transfer.items.add(new File(['x'], 'site.warc'));
      (input as HTMLInputElement).files = transfer.files;
      await act(() => {
        input?.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await waitFor(() =>
        expect(container.querySelector('[data-testid="import-warnings"] li')?.textContent).to.equal(
          'site.warc: record at byte 0: WARC-Target-URI http://a.test/\\x1B]0;owned\\x07\\u202Egnp.exe is not a URL',
        ),
      );
      const item = container.querySelector('[data-testid="import-warnings"] li') as HTMLElement;
      expect(getComputedStyle(item).unicodeBidi).to.equal('isolate');
    } finally {
      render(null, container);
      container.remove();
    }
  });
});

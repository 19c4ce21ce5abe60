import { expect } from 'chai';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import type { CrawlRecord, NotCrawledReason, NotCrawledUrl } from '../../src/core/model.ts';
import { NotCrawledView, PAGE_SIZE, type NotCrawledSource } from '../../src/reports/not-crawled-view.tsx';
import { CrawlProgress } from '../../src/popup/crawl-progress.tsx';
import { crawlFixture } from '../support/store-contract.ts';
import { click, crawlSummary, waitFor } from './support/popup-harness.tsx';

const S = 'https://c1.example';

function left(path: string, reason: NotCrawledReason, depth = 21): NotCrawledUrl {
  return { crawlId: 'c1', url: `${S}${path}`, reason, depth, referrer: `${S}/from${path}` };
}

/** A source over these URLs, in URL order, as the store answers. */
function sourceOf(urls: NotCrawledUrl[]): NotCrawledSource & { calls: number } {
  const sorted = [...urls].sort((a, b) => (a.url < b.url ? -1 : 1));
  const source = (crawlId: string, afterUrl: string | null, limit: number, reason: NotCrawledReason | null) => {
    source.calls += 1;
    return Promise.resolve(
      sorted
        .filter(
          (u) =>
            u.crawlId === crawlId &&
            (reason === null || u.reason === reason) &&
            (afterUrl === null || u.url > afterUrl),
        )
        .slice(0, limit),
    );
  };
  source.calls = 0;
  return source;
}

function finished(counts: CrawlRecord['counts']['notCrawled']): CrawlRecord {
  const crawl = crawlFixture('c1');
  return {
    ...crawl,
    state: 'finished',
    endedAt: crawl.createdAt + 1000,
    settings: { ...crawl.settings, maxDepth: 20, maxPages: 500 },
    counts: { ...crawl.counts, notCrawled: counts },
  };
}

describe('the Not crawled view of the results page', () => {
  let root: HTMLElement;
  beforeEach(() => {
    root = document.createElement('div');
    document.body.append(root);
  });
  afterEach(() => {
    render(null, root);
    root.remove();
  });

  const rows = (): string[] =>
    [...root.querySelectorAll<HTMLElement>('[data-testid="not-crawled-row"]')].map((row) => row.dataset.url ?? '');
  const byTestId = (id: string): HTMLElement => {
    const found = root.querySelector<HTMLElement>(`[data-testid="${id}"]`);
    if (found === null) throw new Error(`no ${id}`);
    return found;
  };

  it('sums them up by reason, lists one reason or all, a page at a time, and opens the page that linked one', async () => {
    const urls = [
      ...Array.from({ length: PAGE_SIZE + 5 }, (_, i) => left(`/deep/${String(i).padStart(4, '0')}`, 'depth')),
      left('/p1', 'page-limit', 3),
      left('/p2', 'page-limit', 4),
    ];
    const opened: string[] = [];
    await act(() =>
      render(
        <NotCrawledView
          crawl={finished({ depth: PAGE_SIZE + 5, 'page-limit': 2 })}
          load={sourceOf(urls)}
          saveCsv={() => undefined}
          onOpenUrl={(url) => opened.push(url)}
        />,
        root,
      ),
    );
    await waitFor(() => rows().length === PAGE_SIZE);
    expect(byTestId('not-crawled-summary').textContent).to.equal(
      `${PAGE_SIZE + 7} URLs not crawled: ${PAGE_SIZE + 5} deeper than 20, 2 past the page limit (500)`,
    );
    await click(byTestId('not-crawled-more'));
    await waitFor(() => rows().length === PAGE_SIZE + 7);
    expect(rows()).to.deep.equal(urls.map((u) => u.url).sort());
    expect(root.querySelector('[data-testid="not-crawled-more"]')).to.equal(null);

    await click(byTestId('not-crawled-page-limit'));
    await waitFor(() => rows().length === 2);
    expect(rows()).to.deep.equal([`${S}/p1`, `${S}/p2`]);
    const cells = [...root.querySelectorAll('[data-testid="not-crawled-row"]')[0]!.querySelectorAll('td')].map(
      (cell) => cell.textContent,
    );
    expect(cells).to.deep.equal([`${S}/p1`, 'past the page limit (500)', '3', `${S}/from/p1`]);
    await click(root.querySelector<HTMLElement>('[data-testid="not-crawled-row"] a')!);
    expect(opened).to.deep.equal([`${S}/from/p1`]);
    await click(byTestId('not-crawled-all'));
    await waitFor(() => rows().length === PAGE_SIZE);
  });

  it('lists the links to other sites it did not check, each with why, one reason at a time (issue 26, item 3)', async () => {
    const X = 'https://x.example';
    const other = (path: string, reason: NotCrawledReason): NotCrawledUrl => ({
      crawlId: 'c1',
      url: `${X}${path}`,
      reason,
      depth: 1,
      referrer: `${S}/`,
    });
    const urls = [
      other('/a', 'external-host-limit'),
      other('/b', 'external-host-limit'),
      other('/c', 'external-limit'),
      other('/private', 'external-robots'),
    ];
    const crawl = finished({ 'external-host-limit': 2, 'external-limit': 1, 'external-robots': 1 });
    crawl.settings = { ...crawl.settings, maxExternal: 3, maxExternalPerHost: 2 };
    await act(() => render(<NotCrawledView crawl={crawl} load={sourceOf(urls)} saveCsv={() => undefined} />, root));
    await waitFor(() => rows().length === 4);
    expect(byTestId('not-crawled-summary').textContent).to.equal(
      '4 URLs not crawled: 2 past the limit of checks per other site (2), 1 past the limit of links to other sites to check (3), 1 on other sites whose robots.txt refused the check',
    );
    const why = [...root.querySelectorAll('[data-testid="not-crawled-row"]')].map(
      (row) => row.querySelectorAll('td')[1]?.textContent,
    );
    expect(why).to.deep.equal([
      'past the limit of checks per other site (2)',
      'past the limit of checks per other site (2)',
      'past the limit of links to other sites to check (3)',
      'on other sites whose robots.txt refused the check',
    ]);
    await click(byTestId('not-crawled-external-robots'));
    await waitFor(() => rows().length === 1);
    expect(rows()).to.deep.equal([`${X}/private`]);
  });

  it('downloads them all as CSV, each URL with its reason in words, depth and the page that linked it', async () => {
    const saved: { name: string; text: string }[] = [];
    const urls = [left('/a', 'excluded', 2), left('/b', 'prefix', 1), left('/c', 'trap', 5)];
    await act(() =>
      render(
        <NotCrawledView
          crawl={finished({ excluded: 1, prefix: 1, trap: 1 })}
          load={sourceOf(urls)}
          saveCsv={(name, text) => void saved.push({ name, text })}
        />,
        root,
      ),
    );
    await waitFor(() => rows().length === 3);
    await click(byTestId('not-crawled-download'));
    await waitFor(() => saved.length === 1);
    expect(saved[0]?.name).to.equal('c1.example-2026-01-01-not-crawled.csv');
    expect(saved[0]?.text.replace(/^\uFEFF/, '').split('\r\n')).to.deep.equal([
      'url,reason,why,depth,found_on',
      `${S}/a,excluded,excluded by a pattern,2,${S}/from/a`,
      `${S}/b,prefix,outside the path prefix,1,${S}/from/b`,
      `${S}/c,trap,"likely traps (repeating paths, endless query variants)",5,${S}/from/c`,
      '',
    ]);
  });

  it('says when nothing was left out, when the crawl has no count (imported, or stored before they were counted), and lists what is recorded while it runs', async () => {
    await act(() =>
      render(<NotCrawledView crawl={finished({})} load={sourceOf([])} saveCsv={() => undefined} />, root),
    );
    await waitFor(() => byTestId('not-crawled').dataset.state === 'ready');
    expect(byTestId('not-crawled-summary').textContent).to.match(/^The crawl left nothing unvisited/);

    await act(() =>
      render(
        <NotCrawledView crawl={{ ...finished(undefined), id: 'c1' }} load={sourceOf([])} saveCsv={() => undefined} />,
        root,
      ),
    );
    expect(byTestId('not-crawled-summary').textContent).to.match(
      /^Not counted for this crawl: it was imported from another tool’s archive, or stored before/,
    );

    const running = { ...crawlFixture('c1') };
    await act(() =>
      render(<NotCrawledView crawl={running} load={sourceOf([left('/x', 'depth')])} saveCsv={() => undefined} />, root),
    );
    await waitFor(() => rows().length === 1);
    expect(byTestId('not-crawled-summary').textContent).to.match(
      /^What the crawl leaves unvisited is counted when it finishes/,
    );
  });
});

describe('the popup on a finished crawl that left URLs unvisited', () => {
  let root: HTMLElement;
  beforeEach(() => {
    root = document.createElement('div');
    document.body.append(root);
  });
  afterEach(() => {
    render(null, root);
    root.remove();
  });

  it('says how many and why, with a link to the list; nothing while the crawl runs', async () => {
    const opened: number[] = [];
    const summary = crawlSummary({ state: 'finished', endedAt: Date.now() });
    const crawl = {
      ...summary,
      settings: { ...summary.settings, maxDepth: 20 },
      counts: { ...summary.counts, notCrawled: { depth: 13_242 } },
    };
    const props = {
      hosts: [],
      pendingAction: null,
      now: Date.now(),
      onAction: () => undefined,
      onNewCrawl: () => undefined,
      onOpenInTab: () => undefined,
      onOpenNotCrawled: () => void opened.push(1),
    };
    await act(() => render(<CrawlProgress crawl={crawl} {...props} />, root));
    const line = root.querySelector<HTMLElement>('[data-testid="not-crawled"]');
    expect(line?.textContent).to.equal('13,242 URLs not crawled: deeper than 20 · List them');
    await click(root.querySelector<HTMLElement>('[data-testid="open-not-crawled"]')!);
    expect(opened).to.deep.equal([1]);

    await act(() =>
      render(
        <CrawlProgress
          crawl={{ ...crawl, state: 'running', endedAt: null, counts: { ...crawl.counts, notCrawled: undefined } }}
          {...props}
        />,
        root,
      ),
    );
    expect(root.querySelector('[data-testid="not-crawled"]')).to.equal(null);
  });
});

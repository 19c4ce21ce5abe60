import { expect } from 'chai';
import type { PageRecord, RenderRecord } from '../../src/core/model.ts';
import type { PageFacts } from '../../src/core/page-facts/page-facts.ts';
import { factsOf } from '../support/page-facts-fixture.ts';
import { click, waitFor } from './support/popup-harness.tsx';
import { CRAWL_ID, FakePageQueries, FakeRowReader, SITE, listRowOf, pageRecord } from './support/results-fakes.ts';
import { loadResultsStyles, mountResults, type MountedResults } from './support/results-harness.tsx';

/** A script error as a hostile page throws it: markup, a terminal escape, a bidi override. */
const HOSTILE_ERROR = 'TypeError: <img src=x onerror="window.__pwned=1">\u001b[2J\u202Egnp.exe\n    at app.js:3';

function render(overrides: Partial<RenderRecord> = {}): RenderRecord {
  return {
    outcome: 'rendered',
    message: null,
    why: 'auto: an empty root element an app mounts into',
    at: Date.UTC(2026, 10, 28, 4, 0, 0),
    durationMs: 1234,
    capped: false,
    static: null,
    sha256: 'cd'.repeat(32),
    truncated: false,
    scriptErrors: [],
    requests: [`${SITE}/app`, `${SITE}/products.json`],
    refused: [],
    navigations: [],
    ...overrides,
  };
}

const STATIC_FACTS: PageFacts = factsOf({ description: null, h1: null, wordCount: 3, robots: ['noindex'] });
const RENDERED_FACTS: PageFacts = factsOf({
  description: 'Every shoe we sell',
  h1: 'Shoes',
  h1Count: 1,
  wordCount: 240,
  canonical: `${SITE}/app`,
});

function renderedApp(): PageRecord {
  return pageRecord(1, {
    url: `${SITE}/app`,
    title: 'Shoes — the example shop',
    links: [`${SITE}/about`, `${SITE}/shoe/1`, `${SITE}/shoe/2`],
    linkTexts: ['About', 'Shoe 1', 'Shoe 2'],
    facts: RENDERED_FACTS,
    render: render({
      capped: true,
      static: { title: 'Loading…', links: [`${SITE}/about`], linkTexts: ['About'], facts: STATIC_FACTS },
      scriptErrors: [HOSTILE_ERROR, 'ReferenceError: later is not defined'],
      refused: [
        { url: `${SITE}/private/api.json`, because: 'robots' },
        { url: `${SITE}/poll`, because: 'timeout' },
      ],
      navigations: [`${SITE}/login`],
    }),
  });
}

describe('results URL detail: rendering', () => {
  let view: MountedResults | undefined;

  before(async () => {
    await loadResultsStyles();
  });

  afterEach(async () => {
    await view?.unmount();
    view = undefined;
  });

  async function openDetail(rows: PageRecord[], url: string): Promise<MountedResults> {
    view = await mountResults({
      queries: new FakePageQueries(rows.map(listRowOf)),
      reader: new FakeRowReader(rows),
      crawlId: CRAWL_ID,
      initialUrl: url,
    });
    const mounted = view;
    await waitFor(() => mounted.byTestId('detail-fields'));
    return mounted;
  }

  const textOf = (mounted: MountedResults, testId: string): string => mounted.byTestId(testId).textContent ?? '';

  it('has no Rendering section for a page the crawl did not render', async () => {
    const row = pageRecord(1);
    const mounted = await openDetail([row], row.url);
    expect(mounted.allByTestId('detail-render')).to.have.length(0);
    expect(mounted.allByTestId('detail-facts')).to.have.length(1);
  });

  it('says why the page was rendered, the outcome, the duration and that the cap ended it', async () => {
    const row = renderedApp();
    const mounted = await openDetail([row], row.url);
    const section = textOf(mounted, 'detail-render');
    expect(section).to.include('auto: an empty root element an app mounts into');
    expect(textOf(mounted, 'render-outcome')).to.equal('rendered (capped)');
    expect(section).to.include('1234 ms (the cap ended it before the network was quiet)');
    expect(section).to.include('Requests answered by the crawl2');
  });

  it('sets the static HTML’s title, description, canonical, robots, h1, words and links beside the rendered page’s', async () => {
    const row = renderedApp();
    const mounted = await openDetail([row], row.url);
    const cells = mounted
      .allByTestId('render-compare-row')
      .map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''));
    expect(cells).to.deep.equal([
      ['Title', 'Loading…', 'Shoes — the example shop'],
      ['Description', '— (none)', 'Every shoe we sell'],
      ['Canonical', '— (none)', `${SITE}/app`],
      ['Robots directives', 'noindex', '— (none)'],
      ['First h1', '— (none)', 'Shoes'],
      ['Words', '3', '240'],
      ['Links', '1', '3'],
    ]);
  });

  it('marks a value alike in both versions as the same', async () => {
    const row = pageRecord(2, {
      facts: RENDERED_FACTS,
      render: render({ static: { title: 'Page 2', links: [], linkTexts: [], facts: RENDERED_FACTS } }),
    });
    const mounted = await openDetail([row], row.url);
    const differing = mounted
      .allByTestId('render-compare-row')
      .filter((tr) => tr.getAttribute('data-differs') === 'true')
      .map((tr) => tr.querySelector('th')?.textContent);
    expect(differing).to.deep.equal([]);
    expect(mounted.allByTestId('render-links-only')).to.have.length(0);
  });

  it('lists the links found only after rendering, each opening its detail', async () => {
    const row = renderedApp();
    const shoe = pageRecord(3, { url: `${SITE}/shoe/1`, title: 'Shoe one' });
    const mounted = await openDetail([row, shoe], row.url);
    const links = [...mounted.byTestId('render-links-only').querySelectorAll('a')];
    expect(links.map((a) => a.textContent)).to.deep.equal([`${SITE}/shoe/1`, `${SITE}/shoe/2`]);
    await click(links[0] as HTMLElement);
    await waitFor(() => mounted.byTestId('detail').getAttribute('data-url') === `${SITE}/shoe/1` || undefined);
  });

  it('shows script errors as text only: markup is not parsed, nothing runs', async () => {
    const row = renderedApp();
    const mounted = await openDetail([row], row.url);
    const list = mounted.byTestId('render-script-errors');
    expect(list.querySelector('img')).to.equal(null);
    expect(list.querySelectorAll('li')).to.have.length(2);
    expect(list.textContent).to.include('TypeError: <img src=x onerror="window.__pwned=1">');
    expect((window as unknown as { __pwned?: number }).__pwned).to.equal(undefined);
  });

  it('lists the refused requests with why, and the navigations the page tried', async () => {
    const row = renderedApp();
    const mounted = await openDetail([row], row.url);
    const refused = [...mounted.byTestId('render-refused').querySelectorAll('li')].map((li) => li.textContent);
    expect(refused).to.deep.equal([
      `${SITE}/private/api.json — robots.txt disallows it`,
      `${SITE}/poll — no answer before the page’s cap`,
    ]);
    expect(textOf(mounted, 'render-navigations')).to.include(`${SITE}/login`);
  });

  it('says a failed render gave no page, with the outcome and the browser’s words', async () => {
    const row = pageRecord(4, {
      render: render({ outcome: 'timeout', message: 'The page never went quiet', static: null }),
    });
    const mounted = await openDetail([row], row.url);
    expect(textOf(mounted, 'render-outcome')).to.equal('failed: timeout: The page never went quiet');
    expect(mounted.allByTestId('render-compare')).to.have.length(0);
    expect(textOf(mounted, 'render-no-compare')).to.include('static HTML');
  });
});

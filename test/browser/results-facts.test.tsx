import { expect } from 'chai';
import { extractLinks } from '../../src/core/links/extract-links.ts';
import type { PageRecord } from '../../src/core/model.ts';
import { click, waitFor } from './support/popup-harness.tsx';
import { CRAWL_ID, FakePageQueries, FakeRowReader, SITE, listRowOf, pageRecord } from './support/results-fakes.ts';
import { loadResultsStyles, mountResults, type MountedResults } from './support/results-harness.tsx';

describe('results URL detail: page facts', () => {
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

  /** Facts of `html` as the crawl records them (no header, no scope: link counts 0). */
  function factsOf(html: string, url: string): NonNullable<PageRecord['facts']> {
    return { ...extractLinks(html, url).facts, canonicalHeader: null, internalLinks: 4, outboundLinks: 2 };
  }

  it('shows the facts of a page, its indexability and its lists, as text', async () => {
    const url = `${SITE}/doc`;
    const html =
      '<html lang="fr"><head><link rel="canonical" href="/other"><meta name="robots" content="noarchive"><meta name="description" content="<b>About</b>">' +
      '<link rel="alternate" hreflang="de" href="/de/doc"></head><body><h1>Le <em>titre</em></h1><h1>Deux</h1><img src="/no-alt.png"><a href="mailto:x@example.com">m</a></body></html>';
    const page = pageRecord(2, { url, facts: factsOf(html, url) });
    const other = pageRecord(3, { url: `${SITE}/other` });
    const mounted = await openDetail([page, other], url);
    await waitFor(() => mounted.byTestId('detail-facts'));
    const section = mounted.byTestId('detail-facts');
    const text = section.textContent ?? '';
    for (const expected of [
      'Not indexable: canonicalised elsewhere',
      `${SITE}/other`,
      'noarchive',
      '<b>About</b>',
      'Le titre',
      'h1 count2',
      'Languagefr',
      'Internal links4',
      'Outbound links2',
    ]) {
      expect(text).to.include(expected);
    }
    expect(section.querySelector('b')).to.equal(null, 'markup in a fact is shown as text');
    expect(mounted.byTestId('facts-hreflang').textContent).to.include(`de: ${SITE}/de/doc`);
    expect(mounted.byTestId('facts-images-without-alt').textContent).to.include(`${SITE}/no-alt.png`);
    expect(mounted.byTestId('facts-other-links').textContent).to.include('mailto:x@example.com');
    // The canonical opens its own detail.
    const canonical = [...section.querySelectorAll('a')].find((a) => a.textContent === `${SITE}/other`);
    expect(canonical).to.not.equal(undefined);
    await click(canonical as HTMLElement);
    await waitFor(() => mounted.byTestId('detail').dataset['url'] === `${SITE}/other`);
  });

  it('shows what an auditor looks for (status, title, indexability, canonical, h1) before how the URL was fetched (method, IP, SHA-256)', async () => {
    const url = `${SITE}/doc`;
    const html =
      '<html><head><title>Doc</title><link rel="canonical" href="/doc"></head><body><h1>Heading</h1></body></html>';
    const page = pageRecord(2, {
      url,
      facts: factsOf(html, url),
      title: 'Doc',
      methods: ['GET'],
      ipAddress: '127.0.0.1',
      sha256: 'cd'.repeat(32),
    });
    const mounted = await openDetail([page], url);
    await waitFor(() => mounted.byTestId('detail-facts'));
    const labels = [...mounted.byTestId('detail').querySelectorAll('dt')].map((dt) => dt.textContent ?? '');
    const at = (label: string): number => {
      const index = labels.indexOf(label);
      expect(index, label).to.be.at.least(0);
      return index;
    };
    const first = ['Status', 'Title', 'Indexability', 'Canonical', 'First h1'].map(at);
    const later = ['Methods', 'IP address', 'SHA-256', 'Response time', 'Content length'].map(at);
    expect(Math.max(...first)).to.be.below(Math.min(...later));
    expect(first).to.deep.equal(
      [...first].sort((a, b) => a - b),
      'in that order',
    );
  });

  it('says why a page has no facts, and judges it by its status', async () => {
    const moved = pageRecord(2, { url: `${SITE}/moved`, status: 301, location: `${SITE}/` });
    const mounted = await openDetail([moved], moved.url);
    await waitFor(() => mounted.byTestId('detail-facts'));
    const text = mounted.byTestId('detail-facts').textContent ?? '';
    expect(text).to.include('Not indexable: redirected');
    expect(text).to.include('No page facts');
  });
});

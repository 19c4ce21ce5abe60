/**
 * *Browsertrix config* (issue 18, the hand-off): the results tab's crawl bar and the popup's
 * Crawls view each save the crawl's settings as a Browsertrix Crawler config through the
 * downloads helper they are given; and the link selectors the config gives Browsertrix pick,
 * in Chromium, the links Tabcrawl follows.
 */
import { expect } from 'chai';
import { linkSelectors } from '../../src/handoff/browsertrix-parts.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import {
  click,
  crawlSummary,
  fakeBackground,
  mountPopup,
  tabAt,
  waitFor,
  type MountedPopup,
} from './support/popup-harness.tsx';
import {
  CRAWL_ID,
  FakePageQueries,
  FakeRowReader,
  SITE,
  crawlRecord,
  listRowOf,
  pageRecord,
} from './support/results-fakes.ts';
import { mountResults, type MountedResults } from './support/results-harness.tsx';

interface Saved {
  name: string;
  text: string;
}

describe('Browsertrix config', () => {
  let results: MountedResults | undefined;
  let popup: MountedPopup | undefined;

  afterEach(async () => {
    await results?.unmount();
    await popup?.unmount();
    results = undefined;
    popup = undefined;
  });

  it('the results tab saves the crawl as a Browsertrix Crawler config, named as its exports are', async () => {
    const saved: Saved[] = [];
    const record = crawlRecord({ state: 'finished' });
    record.settings = { ...record.settings, excludePatterns: ['*/private/*'], delayMs: 2500 };
    const rows = [pageRecord(1, { url: `${SITE}/`, depth: 0 })];
    results = await mountResults({
      queries: new FakePageQueries(rows.map(listRowOf)),
      reader: new FakeRowReader(rows, record),
      crawlId: CRAWL_ID,
      saveConfig: async (name: string, text: string) => void saved.push({ name, text }),
      tabcrawlVersion: '7.7.7',
    });
    const mounted = results;
    await waitFor(() => mounted.byTestId('results-browsertrix-config'));
    const button = mounted.byTestId<HTMLButtonElement>('results-browsertrix-config');
    expect(button.textContent).to.equal('Browsertrix config');
    expect(button.className, 'as light as the other buttons of the bar').to.equal(
      mounted.byTestId('results-export-view').className,
    );
    await click(button);
    await waitFor(() => expect(saved).to.have.lengthOf(1));
    expect(saved[0]?.name).to.match(/^site\.example-\d{4}-\d{2}-\d{2}\.browsertrix\.yaml$/);
    const text = saved[0]?.text ?? '';
    expect(text).to.match(/^# Browsertrix Crawler 1\.14\.1 config, written by Tabcrawl 7\.7\.7/);
    expect(text).to.include(`seeds:\n  - url: '${record.settings.startUrl}'\n`);
    expect(text).to.include("exclude:\n  - '^.*/private/.*$'\n");
    expect(text).to.include('\npageExtraDelay: 3\n');
    expect(text).to.include('tabcrawl/7.7.7');
  });

  it('the results tab has no such button when it cannot save', async () => {
    const record = crawlRecord({ state: 'finished' });
    const rows = [pageRecord(1, { url: `${SITE}/`, depth: 0 })];
    results = await mountResults({
      queries: new FakePageQueries(rows.map(listRowOf)),
      reader: new FakeRowReader(rows, record),
      crawlId: CRAWL_ID,
    });
    const mounted = results;
    await waitFor(() => mounted.byTestId('results-export-view'));
    expect(mounted.queryTestId('results-browsertrix-config')).to.equal(null);
  });

  it("the Crawls view saves each crawl's config from its row, and says when the download fails", async () => {
    const base = crawlSummary().settings;
    const crawls: CrawlSummary[] = [
      crawlSummary({
        id: 'a',
        state: 'finished',
        createdAt: Date.UTC(2026, 10, 24),
        settings: { ...base, startUrl: 'https://a.example/', pathPrefix: '/docs/' },
      }),
      crawlSummary({
        id: 'b',
        state: 'stopped',
        createdAt: Date.UTC(2026, 10, 23),
        settings: { ...base, startUrl: 'http://127.0.0.1:8080/' },
      }),
    ];
    const saved: Saved[] = [];
    let fail = false;
    const background = fakeBackground({ 'crawl/list': () => ({ crawls }) });
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('about:blank'),
      saveConfig: async (name: string, text: string) => {
        if (fail) throw new Error('The download was interrupted (FILE_FAILED).');
        saved.push({ name, text });
      },
      tabcrawlVersion: '0.1.0',
    });
    const mounted = popup;
    await click(mounted.byTestId('view-crawls'));
    await waitFor(() => expect(mounted.queryAll('crawl-row')).to.have.lengthOf(2));
    const buttons = mounted.queryAll('browsertrix-config');
    expect(buttons.map((b) => b.textContent)).to.deep.equal(['Browsertrix config', 'Browsertrix config']);
    expect(buttons[0]?.className, 'as light as Open').to.equal(mounted.queryAll('open-crawl')[0]?.className);

    await click(buttons[1] as HTMLElement);
    await waitFor(() => expect(saved).to.have.lengthOf(1));
    expect(saved[0]?.name).to.equal('127.0.0.1_8080-2026-11-23.browsertrix.yaml');
    expect(saved[0]?.text).to.include("include:\n  - '^http://127\\.0\\.0\\.1:8080/'\n");

    await click(buttons[0] as HTMLElement);
    await waitFor(() => expect(saved).to.have.lengthOf(2));
    expect(saved[1]?.name).to.equal('a.example-2026-11-24.browsertrix.yaml');
    expect(saved[1]?.text).to.include("include:\n  - '^https://a\\.example/docs/'\n");

    fail = true;
    await click(buttons[0] as HTMLElement);
    await waitFor(() =>
      expect(mounted.container.querySelector('[role="alert"]')?.textContent).to.equal(
        'Could not save the Browsertrix config: The download was interrupted (FILE_FAILED).',
      ),
    );
  });

  it('the Crawls view has no such button when the popup cannot save', async () => {
    const background = fakeBackground({ 'crawl/list': () => ({ crawls: [crawlSummary({ state: 'finished' })] }) });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('about:blank') });
    const mounted = popup;
    await click(mounted.byTestId('view-crawls'));
    await waitFor(() => expect(mounted.queryAll('crawl-row')).to.have.lengthOf(1));
    expect(mounted.queryAll('browsertrix-config')).to.deep.equal([]);
  });

  it('the link selectors given to Browsertrix pick the links Tabcrawl follows, in Chromium', () => {
    const page = document.createElement('div');
    page.innerHTML = `
      <a id="plain" href="/a">a</a>
      <a id="nofollow" href="/b" rel="nofollow">b</a>
      <a id="upper" href="/c" rel="external NoFollow">c</a>
      <a id="other-rel" href="/d" rel="nofollower">d</a>
      <a id="no-href">e</a>
      <map><area id="area" href="/f" alt="f"><area id="area-nofollow" href="/g" rel="nofollow" alt="g"></map>`;
    document.body.append(page);
    try {
      const picked = (follow: boolean): string[] =>
        linkSelectors(follow).flatMap((entry) =>
          [...page.querySelectorAll(entry.split('->')[0] ?? '')].map((element) => element.id),
        );
      expect(picked(false).sort()).to.deep.equal(['area', 'other-rel', 'plain']);
      expect(picked(true).sort()).to.deep.equal(['area', 'area-nofollow', 'nofollow', 'other-rel', 'plain', 'upper']);
    } finally {
      page.remove();
    }
  });
});

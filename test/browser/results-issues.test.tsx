import { expect } from 'chai';
import { CHECK_IDS, CHECKS } from '../../src/audit/checks.ts';
import { click, waitFor } from './support/popup-harness.tsx';
import { CRAWL_ID, FakePageQueries, FakeRowReader, crawlRecord, listRowOf } from './support/results-fakes.ts';
import type { CrawlRecord, PageRecord } from '../../src/core/model.ts';
import { mountResults, type MountedResults } from './support/results-harness.tsx';
import { PLANTED, SITE, auditRows, cleanFacts, page } from '../support/audit-fixture.ts';

/** The element with `testId` inside `parent`; fails the test when there is none. */
function inside(parent: HTMLElement | null, testId: string): HTMLElement {
  const found = parent?.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  if (found === null || found === undefined) throw new Error(`no ${testId}`);
  return found;
}

describe('results page: issues', () => {
  let view: MountedResults | undefined;

  afterEach(async () => {
    await view?.unmount();
    view = undefined;
  });

  async function mounted(saved: [string, string][] = []): Promise<MountedResults> {
    const rows = auditRows().map((row) => ({ ...row, crawlId: CRAWL_ID }));
    view = await mountResults({
      queries: new FakePageQueries(rows.map(listRowOf)),
      reader: new FakeRowReader(rows),
      crawlId: CRAWL_ID,
      saveCsv: (fileName, text) => void saved.push([fileName, text]),
    });
    const current = view;
    await waitFor(() => expect(current.queryTestId('tab-issues')).to.not.equal(null));
    await click(current.byTestId('tab-issues'));
    await waitFor(() => expect(current.byTestId('issues').dataset['state']).to.equal('ready'));
    return current;
  }

  it('lists every check with its planted count, severity, explanation and threshold', async () => {
    const page = await mounted();
    const checks = [...page.container.querySelectorAll<HTMLElement>('[data-testid="issue-check"]')];
    expect(checks.map((check) => check.dataset['check']).sort()).to.deep.equal([...CHECK_IDS].sort());
    for (const check of checks) {
      const id = check.dataset['check'] as (typeof CHECK_IDS)[number];
      expect(Number(check.dataset['count']), id).to.equal(PLANTED[id].length);
      const info = CHECKS.find((candidate) => candidate.id === id);
      expect(check.dataset['severity']).to.equal(info?.severity);
      expect(check.textContent).to.include(info?.why ?? '?');
    }
    expect(page.byTestId('issues-summary').textContent).to.match(/^\d+ errors, \d+ warnings, \d+ notices$/);
  });

  it('opens a check to its URLs, each opening its detail', async () => {
    const page = await mounted();
    const broken = page.container.querySelector<HTMLElement>('[data-check="broken-link-internal"]');
    await click(inside(broken, 'issue-toggle'));
    await waitFor(() => expect(broken?.querySelectorAll('[data-testid="issue-url-row"]').length).to.equal(2));
    expect(broken?.textContent).to.include(`${SITE}/gone`);
    await click(inside(broken, 'issue-url'));
    await waitFor(() => expect(page.queryTestId('results-grid')).to.not.equal(null));
    await waitFor(() => expect(page.container.textContent).to.include(`${SITE}/gone`));
  });

  it('downloads one check, and every check, as CSV', async () => {
    const saved: [string, string][] = [];
    const page = await mounted(saved);
    const redirects = page.container.querySelector<HTMLElement>('[data-check="link-to-redirect"]');
    await click(inside(redirects, 'issue-toggle'));
    await click(inside(redirects, 'issue-download'));
    await click(page.byTestId('issues-download-all'));
    await waitFor(() => expect(saved).to.have.length(2));
    expect(saved[0]?.[0]).to.match(/-issues-link-to-redirect\.csv$/);
    expect(saved[0]?.[1].trim().split('\r\n')).to.have.length(1 + PLANTED['link-to-redirect'].length);
    expect(saved[1]?.[0]).to.match(/-issues\.csv$/);
    const total = CHECK_IDS.reduce((sum, id) => sum + PLANTED[id].length, 0);
    expect(saved[1]?.[1].trim().split('\r\n')).to.have.length(1 + total);
  });

  it('filters the table to the URLs of one issue, and back to every URL', async () => {
    const page = await mounted();
    const titles = page.container.querySelector<HTMLElement>('[data-check="title-missing"]');
    await click(inside(titles, 'issue-toggle'));
    await click(inside(titles, 'issue-show-in-table'));
    await waitFor(() => expect(page.queryTestId('issue-filter')).to.not.equal(null));
    await waitFor(() => {
      const urls = [...page.container.querySelectorAll<HTMLElement>('[data-testid="results-row"][data-url]')].map(
        (row) => row.dataset['url'],
      );
      expect(urls).to.deep.equal([...PLANTED['title-missing']]);
    });
    await click(page.byTestId('issue-filter-clear'));
    await waitFor(() =>
      expect(page.container.querySelectorAll('[data-testid="results-row"]').length).to.equal(auditRows().length),
    );
  });

  it('says beside a check the URLs it could not judge, and does not grey its 0 as a pass (issue 26, item 4)', async () => {
    const base = auditRows();
    const unjudged = page('/canon-unfetched', {
      seq: base.length + 1,
      facts: cleanFacts('/canon-unfetched', { canonical: `${SITE}/never-fetched` }),
    });
    const rows = [...base, unjudged].map((row) => ({ ...row, crawlId: CRAWL_ID }));
    view = await mountResults({
      queries: new FakePageQueries(rows.map(listRowOf)),
      reader: new FakeRowReader(rows),
      crawlId: CRAWL_ID,
      initialView: 'issues',
    });
    const current = view;
    await waitFor(() => expect(current.byTestId('issues').dataset['state']).to.equal('ready'));
    const canonicals = current.container.querySelector<HTMLElement>('[data-check="canonical-to-non-200"]');
    expect(canonicals?.dataset['count']).to.equal(String(PLANTED['canonical-to-non-200'].length));
    expect(canonicals?.dataset['notJudged']).to.equal('1');
    expect(inside(canonicals, 'issue-not-judged').textContent).to.include('1 not judged');
    expect(inside(canonicals, 'issue-not-judged-why').textContent).to.match(
      /^1 canonical not judged: the crawl did not fetch its target/,
    );
    const titles = current.container.querySelector<HTMLElement>('[data-check="title-too-long"]');
    expect(titles?.querySelector('[data-testid="issue-not-judged"]')).to.equal(
      null,
      'a check that judged everything says nothing more',
    );
  });

  it('counts the links to other sites not checked beside Broken links to other sites, and says "not checked" when checks were off (issue 26, item 3)', async () => {
    const all = auditRows().map((row) => ({ ...row, crawlId: CRAWL_ID }));
    const mountWith = async (crawl: CrawlRecord, rows: PageRecord[]): Promise<HTMLElement | null> => {
      await view?.unmount();
      view = await mountResults({
        queries: new FakePageQueries(rows.map(listRowOf)),
        reader: new FakeRowReader(rows, crawl),
        crawlId: CRAWL_ID,
        initialView: 'issues',
      });
      const current = view;
      await waitFor(() => expect(current.byTestId('issues').dataset['state']).to.equal('ready'));
      return current.container.querySelector<HTMLElement>('[data-check="broken-link-external"]');
    };
    const counts = (notCrawled: CrawlRecord['counts']['notCrawled']): CrawlRecord['counts'] => ({
      ...crawlRecord().counts,
      notCrawled,
    });
    const capped = await mountWith(
      crawlRecord({ counts: counts({ 'external-host-limit': 2888, 'external-limit': 2 }) }),
      all,
    );
    expect(capped?.dataset['count']).to.equal(String(PLANTED['broken-link-external'].length));
    expect(inside(capped, 'issue-not-judged').textContent).to.include('2,891 not checked');
    expect(inside(capped, 'issue-not-judged-why').textContent).to.equal(
      '2,891 links to other sites not checked, listed in Not crawled: 2,888 past the limit of checks per other site (100), 2 past the limit of links to other sites to check (10,000), 1 kept out by their robots.txt.',
    );

    const off = crawlRecord({
      settings: { ...crawlRecord().settings, checkExternal: false },
      counts: counts({ 'external-off': 40 }),
    });
    const unchecked = await mountWith(
      off,
      all.filter((row) => (row.kind as string) !== 'external'),
    );
    expect(unchecked?.dataset['count']).to.equal('0');
    expect(inside(unchecked, 'issue-count').textContent).to.equal('not checked', 'a 0 here is no pass');
    expect(unchecked?.querySelector('[data-testid="issue-not-judged"]')).to.equal(null);
    expect(inside(unchecked, 'issue-not-judged-why').textContent).to.match(
      /not checked in this crawl .* 40 links to other sites, listed in Not crawled\.$/,
    );
    expect(unchecked?.dataset['notJudged']).to.equal('40', 'not greyed as a pass');
  });

  it('opens on the Issues view when the address names it, and tells which view is shown as it changes', async () => {
    const rows = auditRows().map((row) => ({ ...row, crawlId: CRAWL_ID }));
    const shown: string[] = [];
    view = await mountResults({
      queries: new FakePageQueries(rows.map(listRowOf)),
      reader: new FakeRowReader(rows),
      crawlId: CRAWL_ID,
      initialView: 'issues',
      onViewChange: (next) => void shown.push(next),
    });
    const page = view;
    await waitFor(() => expect(page.byTestId('issues').dataset['state']).to.equal('ready'));
    expect(page.byTestId('tab-issues').getAttribute('aria-pressed')).to.equal('true');
    expect(page.queryTestId('results-grid')).to.equal(null);
    await click(page.byTestId('tab-reports'));
    await click(page.byTestId('tab-table'));
    expect(shown).to.deep.equal(['reports', 'table']);
  });
});

import { expect } from 'chai';
import { click, waitFor } from './support/popup-harness.tsx';
import { CRAWL_ID, FakePageQueries, FakeRowReader, listRowOf } from './support/results-fakes.ts';
import { mountResults, type MountedResults } from './support/results-harness.tsx';
import { SITE, page, rendered } from '../support/audit-fixture.ts';

/** A script error as a hostile page throws it. */
const HOSTILE_ERROR = 'Error: <img src=x onerror="window.__pwnedIssues=1"><b>bold</b>';

describe('results page: the rendering issues', () => {
  let view: MountedResults | undefined;

  afterEach(async () => {
    await view?.unmount();
    view = undefined;
  });

  async function mounted(): Promise<MountedResults> {
    const rows = [
      page('/', { links: [`${SITE}/app`] }),
      rendered(
        '/app',
        { links: [`${SITE}/x`], linkTexts: ['x'] },
        { links: [], linkTexts: [] },
        { scriptErrors: [HOSTILE_ERROR], refused: [{ url: `${SITE}/private/a.json`, because: 'robots' }] },
      ),
    ].map((row, index) => ({ ...row, crawlId: CRAWL_ID, seq: index + 1 }));
    view = await mountResults({
      queries: new FakePageQueries(rows.map(listRowOf)),
      reader: new FakeRowReader(rows),
      crawlId: CRAWL_ID,
    });
    const current = view;
    await waitFor(() => expect(current.queryTestId('tab-issues')).to.not.equal(null));
    await click(current.byTestId('tab-issues'));
    await waitFor(() => expect(current.byTestId('issues').dataset['state']).to.equal('ready'));
    return current;
  }

  it('lists a rendered page’s script errors, links found only after rendering and refused URLs under their checks', async () => {
    const shown = await mounted();
    const count = (id: string): string | undefined =>
      shown.container.querySelector<HTMLElement>(`[data-check="${id}"]`)?.dataset['count'];
    expect(count('render-script-errors')).to.equal('1');
    expect(count('rendered-links-only')).to.equal('1');
    expect(count('render-blocked-request')).to.equal('1');
    expect(count('render-failed')).to.equal('0');
  });

  it('shows a hostile script error in the check’s detail as text: its markup is not parsed, nothing runs', async () => {
    const shown = await mounted();
    const check = shown.container.querySelector<HTMLElement>('[data-check="render-script-errors"]');
    const toggle = check?.querySelector<HTMLElement>('[data-testid="issue-toggle"]');
    if (toggle === null || toggle === undefined) throw new Error('no toggle');
    await click(toggle);
    await waitFor(() => expect(check?.querySelectorAll('[data-testid="issue-url-row"]').length).to.equal(1));
    expect(check?.textContent).to.include(`1 script error; first: ${HOSTILE_ERROR}`);
    expect(check?.querySelector('img, b')).to.equal(null);
    expect((window as unknown as { __pwnedIssues?: number }).__pwnedIssues).to.equal(undefined);
  });
});

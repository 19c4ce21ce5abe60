import { expect } from 'chai';
import { click, waitFor } from './support/popup-harness.tsx';
import { CRAWL_ID, FakePageQueries, FakeRowReader, SITE, listRowOf, pageRecord } from './support/results-fakes.ts';
import { mountResults, type MountedResults } from './support/results-harness.tsx';

describe('results page: reports', () => {
  let view: MountedResults | undefined;

  afterEach(async () => {
    await view?.unmount();
    view = undefined;
  });

  it('switches from the table to the reports, which read every row and save CSV through the tab', async () => {
    const rows = [
      pageRecord(1, { url: `${SITE}/`, links: [`${SITE}/gone`], linkTexts: ['Gone page'] }),
      pageRecord(2, { url: `${SITE}/gone`, status: 404, referrer: `${SITE}/` }),
    ];
    const saved: [string, string][] = [];
    view = await mountResults({
      queries: new FakePageQueries(rows.map(listRowOf)),
      reader: new FakeRowReader(rows),
      crawlId: CRAWL_ID,
      saveCsv: (fileName, text) => void saved.push([fileName, text]),
    });
    const mounted = view;
    await click(mounted.byTestId('tab-reports'));
    await waitFor(() => expect(mounted.byTestId('report-table').textContent).to.include(`${SITE}/gone`));
    expect(mounted.queryTestId('results-grid')).to.equal(null);
    expect(mounted.byTestId('report-table').textContent).to.include('Gone page');
    await click(mounted.byTestId('report-download'));
    await waitFor(() => expect(saved).to.have.length(1));
    expect(saved[0]?.[0]).to.match(/broken-links\.csv$/);
    expect(saved[0]?.[1]).to.include('Gone page');
    await click(mounted.byTestId('tab-table'));
    await waitFor(() => expect(mounted.queryTestId('results-grid')).to.not.equal(null));
  });
});

/**
 * The results tab acting on its crawl and telling the truth about it (issue
 * 13): progress, run time, Pause / Resume / Stop, Export (the crawl, or the
 * current view as CSV), one Errors filter that matches the popup's count, an
 * empty state that clears the filters, report rows that open the detail,
 * and an unknown crawl shown as that alone.
 */
import { expect } from 'chai';
import type { Send } from '../../src/messaging/client.ts';
import type { CrawlRecord, PageRecord } from '../../src/core/model.ts';
import type { ExportFormat } from '../../src/export/format-info.ts';
import type { CrawlSummary, Events, OnEvent, RequestOf, RequestType } from '../../src/messaging/protocol.ts';
import { click, settle, typeInto, waitFor } from './support/popup-harness.tsx';
import {
  CRAWL_ID,
  FakePageQueries,
  FakeRowReader,
  SITE,
  crawlRecord,
  listRowOf,
  pageRecord,
} from './support/results-fakes.ts';
import { loadResultsStyles, mountResults, type MountedResults } from './support/results-harness.tsx';

/** A crawl's rows of every kind, and the record whose counts they make (errors: 4xx, 5xx, failed). */
function crawlOfEveryKind(state: CrawlRecord['state'] = 'finished'): { rows: PageRecord[]; record: CrawlRecord } {
  const rows = [
    pageRecord(1, { url: `${SITE}/`, depth: 0 }),
    pageRecord(2, { url: `${SITE}/ok` }),
    pageRecord(3, { url: `${SITE}/old`, status: 301, location: `${SITE}/new` }),
    pageRecord(4, { url: `${SITE}/missing`, status: 404 }),
    pageRecord(5, { url: `${SITE}/gone`, status: 410 }),
    pageRecord(6, { url: `${SITE}/broken`, status: 500 }),
    pageRecord(7, {
      url: `${SITE}/slow`,
      status: null,
      contentType: null,
      error: { code: 'timeout', message: 'no complete answer within 1000 ms' },
    }),
    pageRecord(8, {
      url: `${SITE}/private/x`,
      status: null,
      contentType: null,
      blockedBy: 'robots',
      blockedRule: 'Disallow: /private/',
    }),
    pageRecord(9, { url: `${SITE}/copy`, duplicateOf: `${SITE}/ok` }),
  ];
  const errors = rows.filter((row) => row.error !== null || (row.status !== null && row.status >= 400)).length;
  const record = crawlRecord({
    state,
    endedAt: state === 'running' || state === 'paused' ? null : 1_700_000_100_000,
    counts: {
      admitted: rows.length + (state === 'finished' ? 0 : 11),
      done: rows.length,
      fetched: 7,
      errors,
      blocked: 1,
      bytesStored: 4096,
    },
  });
  return { rows, record };
}

/** A crawl record as a `crawl/*` reply carries it, with `overrides`. */
function summaryOf(record: CrawlRecord, overrides: Partial<CrawlSummary> = {}): CrawlSummary {
  const { id, state, createdAt, endedAt, counts, message, settings } = record;
  return {
    id,
    startUrl: settings.startUrl,
    state,
    createdAt,
    endedAt,
    counts,
    queued: counts.admitted - counts.done,
    message,
    settings,
    ...overrides,
  };
}

/** A reader whose crawl record the test replaces, as the background changes it. */
class ChangingReader extends FakeRowReader {
  constructor(
    rows: readonly PageRecord[],
    public record: CrawlRecord,
  ) {
    super(rows, record);
  }

  override getCrawl(crawlId: string): Promise<CrawlRecord | undefined> {
    return Promise.resolve(crawlId === CRAWL_ID ? this.record : undefined);
  }
}

/** A push channel the test fires by hand, as the background's `crawl/changed` events. */
function fakeEvents() {
  const listeners = new Set<(payload: Events['crawl/changed']) => void>();
  const onEvent: OnEvent = (_type, listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return { onEvent, fire: () => listeners.forEach((listener) => listener({ crawlId: CRAWL_ID, isDeleted: false })) };
}

describe('the results tab acts on its crawl and tells the truth about it', () => {
  let view: MountedResults | undefined;

  before(async () => {
    await loadResultsStyles();
  });

  afterEach(async () => {
    await view?.unmount();
    view = undefined;
  });

  async function mount(
    state: CrawlRecord['state'],
    extra: Parameters<typeof mountResults>[0] extends infer P ? Partial<P> : never = {},
  ) {
    const { rows, record } = crawlOfEveryKind(state);
    const queries = new FakePageQueries(rows.map(listRowOf));
    view = await mountResults({
      queries,
      reader: new FakeRowReader(rows, record),
      crawlId: CRAWL_ID,
      now: () => record.createdAt + 95_000,
      ...extra,
    });
    const mounted = view;
    await waitFor(() => expect(mounted.byTestId('results-total').textContent).to.equal(`${rows.length} URLs`));
    return { mounted, rows, record, queries };
  }

  it('lists exactly the rows the popup counts as errors under one Errors filter, with that count', async () => {
    const { mounted, record } = await mount('finished');
    await waitFor(() =>
      expect(mounted.byTestId('filter-errors').textContent).to.equal(`Errors${record.counts.errors}`),
    );
    await click(mounted.byTestId('filter-errors'));
    await waitFor(() => expect(mounted.byTestId('results-total').textContent).to.equal(`${record.counts.errors} URLs`));
    const urls = mounted.allByTestId('results-row').map((row) => row.dataset['url']);
    expect(urls.sort()).to.deep.equal([`${SITE}/broken`, `${SITE}/gone`, `${SITE}/missing`, `${SITE}/slow`]);
    expect(mounted.byTestId('filter-errors').getAttribute('aria-pressed')).to.equal('true');
    await click(mounted.byTestId('filter-errors'));
    await waitFor(() => expect(mounted.byTestId('results-total').textContent).to.equal('9 URLs'));
  });

  it('says when no URL matches the filters and clears them in one click', async () => {
    const { mounted } = await mount('finished');
    await typeInto(mounted.byTestId<HTMLInputElement>('results-search'), 'nothing-like-this');
    await waitFor(() => expect(mounted.byTestId('results-total').textContent).to.equal('0 URLs'));
    expect(mounted.byTestId('results-empty').textContent).to.include('No URL matches these filters');
    expect(
      mounted.byTestId<HTMLButtonElement>('results-export-view').disabled,
      'an empty view is not exported',
    ).to.equal(true);
    await click(mounted.byTestId('clear-filters'));
    await waitFor(() => expect(mounted.byTestId('results-total').textContent).to.equal('9 URLs'));
    expect(mounted.byTestId<HTMLButtonElement>('results-export-view').disabled).to.equal(false);
    expect(mounted.byTestId<HTMLInputElement>('results-search').value).to.equal('');
    expect(mounted.queryTestId('results-empty')).to.equal(null);
  });

  it('says that no URL is recorded yet while a crawl has none, and offers no Clear filters then', async () => {
    const waiting = crawlRecord({
      state: 'running',
      endedAt: null,
      counts: { admitted: 1, done: 0, fetched: 0, errors: 0, blocked: 0, bytesStored: 0 },
    });
    view = await mountResults({
      queries: new FakePageQueries([]),
      reader: new FakeRowReader([], waiting),
      crawlId: CRAWL_ID,
    });
    const mounted = view;
    await waitFor(() =>
      expect(mounted.byTestId('results-none').textContent).to.equal(
        'No URL recorded yet: rows appear here as the crawl finishes them.',
      ),
    );
    expect(mounted.queryTestId('clear-filters')).to.equal(null);
  });

  it('shows a finished crawl at 100 % with how long it took, and no Pause, Resume or Stop', async () => {
    const sent: RequestType[] = [];
    const send = (async (type: RequestType) => {
      sent.push(type);
      return {};
    }) as unknown as Send;
    const { mounted } = await mount('finished', { send });
    await waitFor(() => expect(mounted.byTestId('results-progress').getAttribute('aria-valuenow')).to.equal('100'));
    expect(mounted.byTestId('results-run-time').textContent).to.match(/^took /);
    for (const action of ['pause', 'resume', 'stop'])
      expect(mounted.queryTestId(`results-${action}`), action).to.equal(null);
  });

  it('pauses a running crawl and stops a paused one from the tab, showing progress of what is known', async () => {
    const sent: { type: RequestType; payload: unknown }[] = [];
    const replies: Record<string, CrawlRecord['state']> = {
      'crawl/pause': 'paused',
      'crawl/stop': 'stopped',
      'crawl/resume': 'running',
    };
    const send = (async <K extends RequestType>(type: K, payload: RequestOf<K>) => {
      sent.push({ type, payload });
      return { crawl: summaryOf(crawlOfEveryKind(replies[type] ?? 'running').record) };
    }) as unknown as Send;
    const running = await mount('running', { send });
    // 9 done of 9 + 11 queued.
    await waitFor(() =>
      expect(running.mounted.byTestId('results-progress').getAttribute('aria-valuenow')).to.equal('45'),
    );
    expect(running.mounted.byTestId('results-counter-queued').textContent).to.equal('queued11');
    expect(running.mounted.byTestId('results-run-time').textContent).to.match(/^running for /);
    expect(running.mounted.queryTestId('results-resume')).to.equal(null);
    await click(running.mounted.byTestId('results-pause'));
    await waitFor(() => expect(sent.map((s) => s.type)).to.deep.equal(['crawl/pause']));
    expect(sent[0]?.payload).to.deep.equal({ crawlId: CRAWL_ID });
    await view?.unmount();

    const paused = await mount('paused', { send });
    await waitFor(() => paused.mounted.byTestId('results-resume'));
    expect(paused.mounted.queryTestId('results-pause')).to.equal(null);
    await click(paused.mounted.byTestId('results-stop'));
    await waitFor(() => expect(sent.map((s) => s.type)).to.deep.equal(['crawl/pause', 'crawl/stop']));
  });

  it('shows the state a Pause reply gives at once, before the crawl is read again, until a newer read', async () => {
    const { rows, record } = crawlOfEveryKind('running');
    const reader = new ChangingReader(rows, record);
    const events = fakeEvents();
    const pausedReply = summaryOf(record, { state: 'paused', activeMs: 61_000 });
    const send = (async () => ({ crawl: pausedReply })) as unknown as Send;
    view = await mountResults({
      queries: new FakePageQueries(rows.map(listRowOf)),
      reader,
      crawlId: CRAWL_ID,
      onEvent: events.onEvent,
      send,
      now: () => record.createdAt + 95_000,
    });
    const mounted = view;
    await waitFor(() => expect(mounted.byTestId('results-crawl-state').textContent).to.equal('running'));

    await click(mounted.byTestId('results-pause'));
    // No read of the crawl since: the reply alone says it is paused, with its run time.
    await waitFor(() => expect(mounted.byTestId('results-crawl-state').textContent).to.equal('paused'));
    expect(mounted.queryTestId('results-pause')).to.equal(null);
    expect(mounted.byTestId('results-resume').textContent).to.equal('Resume');
    expect(mounted.byTestId('results-run-time').textContent).to.equal('ran 1 min');

    // A read that still finds it running as before the click (begun before the pause was written) is older than the reply.
    events.fire();
    await settle(20);
    expect(mounted.byTestId('results-crawl-state').textContent).to.equal('paused');

    // Resumed elsewhere and gone on: the newer read wins.
    reader.record = {
      ...record,
      counts: { ...record.counts, admitted: record.counts.admitted + 2, done: record.counts.done + 2 },
    };
    events.fire();
    await waitFor(() => expect(mounted.byTestId('results-crawl-state').textContent).to.equal('running'));
    expect(mounted.byTestId('results-pause').textContent).to.equal('Pause');
  });

  it('says what an export from the tab saved, beside the bar', async () => {
    const { mounted } = await mount('finished', {
      openExport: async () => 'Saved site.example-2026-01-31.wacz (10 URLs) into the downloads',
    });
    await click(mounted.byTestId('results-export'));
    await waitFor(() =>
      expect(mounted.byTestId('results-export-saved').textContent).to.equal(
        'Saved site.example-2026-01-31.wacz (10 URLs) into the downloads',
      ),
    );
    expect(mounted.byTestId('results-export').textContent).to.equal('Export');
  });

  it('exports the crawl in the chosen format, and the current view as CSV of exactly its rows', async () => {
    const exports: [string, ExportFormat][] = [];
    const saved: { name: string; text: string }[] = [];
    const { mounted } = await mount('finished', {
      openExport: async (crawlId: string, format: ExportFormat) => void exports.push([crawlId, format]),
      saveCsv: async (name: string, text: string) => void saved.push({ name, text }),
    });
    const select = mounted.byTestId<HTMLSelectElement>('results-export-format');
    select.value = 'warc.gz';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await settle();
    await click(mounted.byTestId('results-export'));
    await waitFor(() => expect(exports).to.deep.equal([[CRAWL_ID, 'warc.gz']]));

    await click(mounted.byTestId('filter-4xx'));
    await waitFor(() => expect(mounted.byTestId('results-total').textContent).to.equal('2 URLs'));
    await click(mounted.byTestId('results-export-view'));
    await waitFor(() => expect(saved).to.have.lengthOf(1));
    expect(saved[0]?.name).to.match(/^site\.example-\d{4}-\d{2}-\d{2}-view\.csv$/);
    const records = (saved[0]?.text ?? '')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(records[0]).to.match(/^url,/);
    expect(records.slice(1).map((record) => record.split(',')[0])).to.deep.equal([`${SITE}/missing`, `${SITE}/gone`]);

    // The same view's links: one line per link of those rows, with the links export's columns.
    await click(mounted.byTestId('results-export-view-links'));
    await waitFor(() => expect(saved).to.have.lengthOf(2));
    expect(saved[1]?.name).to.match(/^site\.example-\d{4}-\d{2}-\d{2}-view\.links\.csv$/);
    const links = (saved[1]?.text ?? '')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(links[0]).to.equal('source,target,anchor,rel,found_in,followed,target_status,target_kind,target_note');
    for (const line of links.slice(1)) expect([`${SITE}/missing`, `${SITE}/gone`]).to.include(line.split(',')[0]);
  });

  it('opens the detail of a URL from a report row', async () => {
    const { mounted } = await mount('finished');
    await click(mounted.byTestId('tab-reports'));
    await waitFor(() => expect(mounted.allByTestId('report-url').length).to.be.above(0));
    const link = mounted.allByTestId('report-url').find((element) => element.textContent === `${SITE}/missing`);
    expect(link, 'the broken link is a link').to.not.equal(undefined);
    await click(link as HTMLElement);
    await waitFor(() => expect(mounted.byTestId('detail').getAttribute('data-url')).to.equal(`${SITE}/missing`));
    expect(mounted.byTestId('tab-table').getAttribute('aria-pressed')).to.equal('true');
  });

  it('says when the crawl started in the local time, with the exact UTC time on hover', async () => {
    const { mounted, record } = await mount('finished');
    const started = mounted.byTestId('results-started');
    const local = new Date(record.createdAt);
    const two = (n: number): string => String(n).padStart(2, '0');
    const localText = `${local.getFullYear()}-${two(local.getMonth() + 1)}-${two(local.getDate())} ${two(local.getHours())}:${two(local.getMinutes())}:${two(local.getSeconds())}`;
    expect(started.textContent).to.equal(`started ${localText}`);
    expect(started.getAttribute('title')).to.equal(new Date(record.createdAt).toISOString());
    expect(started.getAttribute('datetime')).to.equal(new Date(record.createdAt).toISOString());
  });

  it('says why a crawl failed, and shows no counters when it recorded nothing', async () => {
    const failed = crawlRecord({
      state: 'failed',
      message: 'could not reach http://127.0.0.1:9: connection refused',
      counts: { admitted: 1, done: 0, fetched: 0, errors: 0, blocked: 0, bytesStored: 0 },
    });
    view = await mountResults({
      queries: new FakePageQueries([]),
      reader: new FakeRowReader([], failed),
      crawlId: CRAWL_ID,
    });
    const mounted = view;
    await waitFor(() => expect(mounted.byTestId('results-crawl-message').textContent).to.include('could not reach'));
    expect(mounted.queryTestId('results-counter-errors')).to.equal(null);
    expect(mounted.queryTestId('results-counter-queued')).to.equal(null);
  });

  it('shows only the error when the crawl cannot be read, with where to open it again', async () => {
    const reader = new FakeRowReader([]);
    reader.getCrawl = () => Promise.reject(new Error('database closed'));
    view = await mountResults({ queries: new FakePageQueries([]), reader, crawlId: CRAWL_ID });
    const mounted = view;
    await waitFor(() =>
      expect(mounted.byTestId('results-read-error').textContent).to.include(
        'Could not read the crawl: database closed',
      ),
    );
    expect(mounted.byTestId('results-read-error').textContent).to.include("popup's Crawls list");
    for (const testId of ['results-search', 'results-total', 'tab-table'])
      expect(mounted.queryTestId(testId), testId).to.equal(null);
  });

  it('shows only the error for a crawl id that is not stored: no filters, no table', async () => {
    view = await mountResults({
      queries: new FakePageQueries([]),
      reader: new FakeRowReader([], undefined),
      crawlId: 'deleted-crawl',
    });
    const mounted = view;
    await waitFor(() =>
      expect(mounted.byTestId('results-missing-crawl').textContent).to.include('There is no crawl deleted-crawl'),
    );
    expect(mounted.byTestId('results-missing-crawl').textContent).to.include("popup's Crawls list");
    for (const testId of ['results-search', 'results-total', 'filter-2xx', 'tab-table', 'tab-reports']) {
      expect(mounted.queryTestId(testId), testId).to.equal(null);
    }
    expect(mounted.container.querySelector('[role="grid"], .grid')).to.equal(null);
  });
});

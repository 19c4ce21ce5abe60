/**
 * useLiveCrawl, the results tab's view of a crawl record: it follows the
 * crawl through a pause and a resume (issue 13, defect 1), on the push
 * channel's events when there is one, else by reading while it may change.
 */
import { expect } from 'chai';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import type { CrawlRecord } from '../../src/core/model.ts';
import type { Events, OnEvent } from '../../src/messaging/protocol.ts';
import { useLiveCrawl } from '../../src/results/use-live-crawl.ts';
import { settle, waitFor } from './support/popup-harness.tsx';
import { CRAWL_ID, FakeRowReader, crawlRecord } from './support/results-fakes.ts';

/** A reader whose record the test changes, as the worker does; counts the reads. */
class ChangingReader extends FakeRowReader {
  reads = 0;
  constructor(public record: CrawlRecord) {
    super([], record);
  }
  override getCrawl(crawlId: string): Promise<CrawlRecord | undefined> {
    this.reads += 1;
    return Promise.resolve(crawlId === CRAWL_ID ? structuredClone(this.record) : undefined);
  }
}

function Probe({ reader, pollMs, onEvent }: { reader: ChangingReader; pollMs: number; onEvent?: OnEvent }) {
  const crawl = useLiveCrawl(reader, CRAWL_ID, pollMs, onEvent);
  return (
    <p data-testid="state">
      {crawl.state === 'done' ? `${crawl.value?.state ?? 'gone'} · ${crawl.value?.counts.done ?? 0} done` : crawl.state}
    </p>
  );
}

async function mount(reader: ChangingReader, pollMs: number, onEvent?: OnEvent) {
  const container = document.createElement('div');
  document.body.append(container);
  await act(() => render(<Probe reader={reader} pollMs={pollMs} onEvent={onEvent} />, container));
  return {
    text: () => container.querySelector('[data-testid="state"]')?.textContent ?? '',
    unmount: async () => {
      await act(() => render(null, container));
      container.remove();
    },
  };
}

const paused = (done: number): CrawlRecord =>
  crawlRecord({ state: 'paused', endedAt: null, counts: { ...crawlRecord().counts, done } });

describe('useLiveCrawl: the results tab follows a crawl through pause and resume', () => {
  it('without events, keeps reading a paused crawl, so a resume from the popup and the end show without a reload', async () => {
    const reader = new ChangingReader(paused(18));
    const view = await mount(reader, 20);
    await waitFor(() => expect(view.text()).to.equal('paused · 18 done'));
    reader.record = { ...reader.record, state: 'running' };
    await waitFor(() => expect(view.text()).to.equal('running · 18 done'));
    reader.record = { ...reader.record, state: 'finished', counts: { ...reader.record.counts, done: 84 } };
    await waitFor(() => expect(view.text()).to.equal('finished · 84 done'));
    const reads = reader.reads;
    await settle(100);
    expect(reader.reads, 'a finished crawl is not read again').to.equal(reads);
    await view.unmount();
  });

  it('with the push channel, reads on each event of its crawl and never polls', async () => {
    const listeners = new Set<(payload: Events['crawl/changed']) => void>();
    const onEvent: OnEvent = (_type, listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    };
    const fire = (crawlId: string) => listeners.forEach((listener) => listener({ crawlId, isDeleted: false }));
    const reader = new ChangingReader(paused(18));
    const view = await mount(reader, 5, onEvent);
    await waitFor(() => expect(view.text()).to.equal('paused · 18 done'));
    await settle(60);
    expect(reader.reads, 'no polling while events come').to.equal(1);

    reader.record = { ...reader.record, state: 'running' };
    fire('another-crawl');
    await settle(20);
    expect(view.text()).to.equal('paused · 18 done');
    fire(CRAWL_ID);
    await waitFor(() => expect(view.text()).to.equal('running · 18 done'));
    reader.record = { ...reader.record, state: 'finished', counts: { ...reader.record.counts, done: 84 } };
    fire(CRAWL_ID);
    await waitFor(() => expect(view.text()).to.equal('finished · 84 done'));
    await view.unmount();
    expect(listeners.size, 'stops listening when unmounted').to.equal(0);
  });
});

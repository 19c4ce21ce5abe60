import { expect } from 'chai';
import {
  TabcrawlError,
  type CrawlSummary,
  type Events,
  type HostProgress,
  type OnEvent,
} from '../../src/messaging/protocol.ts';
import { clockTime } from '../../src/ui/format-time.ts';
import {
  click,
  crawlSummary,
  fakeBackground,
  mountPopup,
  payloadsOf,
  tabAt,
  typeInto,
  waitFor,
  type MountedPopup,
} from './support/popup-harness.tsx';

const NOW = 1_700_000_100_000;

const counts = (admitted: number, done: number, bytesStored = 0) => ({
  admitted,
  done,
  fetched: done,
  errors: 0,
  blocked: 0,
  bytesStored,
});

/** A host whose answers all take about as long as its last (its typical response time and gap are its last). */
function hostProgress(overrides: Partial<HostProgress> = {}): HostProgress {
  const gapMs = overrides.gapMs ?? 2000;
  const responseMs = overrides.responseMs ?? 0;
  return {
    origin: 'http://127.0.0.1:8080',
    pending: 12,
    gapMs,
    responseMs,
    typicalResponseMs: responseMs,
    typicalGapMs: gapMs,
    readyAt: NOW + 1000,
    wait: { kind: 'ready' },
    ...overrides,
  };
}

/** A push channel the test fires by hand, as the background's `crawl/changed` events. */
function fakeEvents() {
  const listeners = new Set<(payload: Events['crawl/changed']) => void>();
  const onEvent: OnEvent = (_type, listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return {
    onEvent,
    fire: (crawlId: string) => listeners.forEach((listener) => listener({ crawlId, isDeleted: false })),
  };
}

describe('popup controls', () => {
  let popup: MountedPopup | undefined;

  afterEach(async () => {
    await popup?.unmount();
    popup = undefined;
  });

  it('shows progress as done of what is known, the run time, the rate, the time left and what each host waits for and why', async () => {
    const running = crawlSummary({
      id: 'run-1',
      counts: counts(60, 30),
      queued: 30,
      activeMs: 60_000,
      settings: { ...crawlSummary().settings, maxPages: 120, hostConcurrency: 8 },
    });
    const hosts: HostProgress[] = [
      hostProgress({
        pending: 12,
        gapMs: 2000,
        readyAt: NOW + 1000,
        wait: { kind: 'gap', until: NOW + 1000, rule: 'crawl-delay', gapMs: 2000 },
      }),
      hostProgress({
        origin: 'http://127.0.0.1:9090',
        pending: 3,
        gapMs: 1000,
        readyAt: NOW + 42_000,
        wait: { kind: 'backoff', until: NOW + 42_000 },
      }),
      hostProgress({
        origin: 'https://c.test',
        pending: 1,
        readyAt: NOW + 5000,
        wait: { kind: 'robots', retryAt: NOW + 5000 },
      }),
    ];
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [running] }),
      'pages/latest': () => ({ pages: [] }),
      'crawl/hosts': () => ({ hosts }),
    });
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      pollMs: 60_000,
      now: () => NOW,
    });
    const mounted = popup;

    await waitFor(() => expect(mounted.queryAll('host-line')).to.have.lengthOf(3));
    const bar = mounted.byTestId('progress-bar');
    expect(bar.getAttribute('role')).to.equal('progressbar');
    expect(bar.getAttribute('aria-valuenow')).to.equal('50');
    expect(mounted.byTestId('progress-done').style.width).to.equal('50%');
    expect(mounted.byTestId('progress-text').textContent).to.equal('30 done · 30 queued · limit 120');
    expect(mounted.byTestId('run-time').textContent).to.equal('running for 1 min');
    expect(mounted.byTestId('rate').textContent).to.equal('30 pages/min');
    // Slowest host: the back-off's 42 s, then 2 more requests 1 s apart.
    expect(mounted.byTestId('eta').textContent).to.equal('about 44 s left');
    const lines = mounted.queryAll('host-line').map((line) => line.textContent);
    expect(lines).to.deep.equal([
      '127.0.0.1:8080 · 12 queued · waiting 1 s · robots.txt Crawl-delay 2 s',
      `127.0.0.1:9090 · 3 queued · backing off after 429/503 · 42 s left (until ${clockTime(NOW + 42_000)})`,
      'https://c.test · 1 queued · robots.txt unavailable · retry in 5 s',
    ]);
    expect(payloadsOf(background.sent, 'crawl/hosts')).to.deep.equal([{ crawlId: 'run-1' }]);
  });

  it('names the response-time rule and its real wait after a slow page at delay 0, and counts it in the time left', async () => {
    const running = crawlSummary({
      id: 'slow',
      queued: 64,
      counts: counts(66, 2),
      settings: { ...crawlSummary().settings, delayMs: 0 },
    });
    const slowHost = hostProgress({
      pending: 64,
      gapMs: 9000,
      responseMs: 3000,
      readyAt: NOW + 9000,
      wait: { kind: 'gap', until: NOW + 9000, rule: 'response-time', gapMs: 9000 },
    });
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [running] }),
      'pages/latest': () => ({ pages: [] }),
      'crawl/hosts': () => ({ hosts: [slowHost] }),
    });
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      pollMs: 60_000,
      now: () => NOW,
    });
    const mounted = popup;
    await waitFor(() => expect(mounted.queryAll('host-line')).to.have.lengthOf(1));
    expect(mounted.byTestId('host-line').textContent).to.equal(
      '127.0.0.1:8080 · 64 queued · waiting 9 s · response time: last answer took 3 s, so 9 s between requests',
    );
    // 9 s, then 64 answers of 3 s with 63 gaps of 9 s: 12.8 min.
    expect(mounted.byTestId('eta').textContent).to.equal('about 13 min left');
  });

  it('says "nothing queued" only when nothing is queued', async () => {
    const oneLeft = crawlSummary({ id: 'one', queued: 1, counts: counts(2, 1) });
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [oneLeft] }),
      'pages/latest': () => ({ pages: [] }),
      'crawl/hosts': () => ({
        hosts: [hostProgress({ pending: 1, gapMs: 0, readyAt: NOW - 5, wait: { kind: 'ready' } })],
      }),
    });
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      pollMs: 60_000,
      now: () => NOW,
    });
    const mounted = popup;
    await waitFor(() => expect(mounted.queryAll('host-line')).to.have.lengthOf(1));
    expect(mounted.byTestId('count-queued').textContent).to.equal('1');
    expect(mounted.byTestId('eta').textContent).to.equal('under 1 s left');
    await popup.unmount();

    const none = fakeBackground({
      'crawl/list': () => ({ crawls: [crawlSummary({ id: 'none', queued: 0, counts: counts(2, 2) })] }),
      'pages/latest': () => ({ pages: [] }),
      'crawl/hosts': () => ({ hosts: [] }),
    });
    popup = await mountPopup({
      send: none.send,
      currentTabUrl: tabAt('https://example.com/'),
      pollMs: 60_000,
      now: () => NOW,
    });
    const second = popup;
    await waitFor(() => expect(second.byTestId('eta').textContent).to.equal('nothing queued'));
  });

  it('shows no wait and no time left for a paused or stopped crawl', async () => {
    for (const state of ['paused', 'stopped'] as const) {
      const crawl = crawlSummary({ id: state, state, queued: 12, counts: counts(20, 8) });
      const background = fakeBackground({
        'crawl/list': () => ({ crawls: [crawl] }),
        'pages/latest': () => ({ pages: [] }),
        'crawl/hosts': () => ({
          hosts: [hostProgress({ wait: { kind: 'gap', until: NOW + 1000, rule: 'delay', gapMs: 1000 } })],
        }),
      });
      popup = await mountPopup({
        send: background.send,
        currentTabUrl: tabAt('https://example.com/'),
        pollMs: 60_000,
        now: () => NOW,
      });
      const mounted = popup;
      await waitFor(() => expect(mounted.queryAll('host-line')).to.have.lengthOf(1));
      expect(mounted.byTestId('host-line').textContent, state).to.equal('127.0.0.1:8080 · 12 queued');
      expect(mounted.queryTestId('eta'), state).to.equal(null);
      await popup.unmount();
      popup = undefined;
    }
  });

  it('fills the progress bar for a finished crawl, whatever the page limit', async () => {
    const finished = crawlSummary({
      id: 'done',
      state: 'finished',
      queued: 0,
      counts: counts(21, 21),
      settings: { ...crawlSummary().settings, maxPages: 500 },
    });
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [finished] }),
      'pages/latest': () => ({ pages: [] }),
    });
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      pollMs: 60_000,
      now: () => NOW,
    });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId('progress-done').style.width).to.equal('100%'));
    expect(mounted.byTestId('progress-text').textContent).to.equal('21 done · limit 500');
  });

  it('counts pages, resources and files apart while the crawl runs, is paused, stops and once it is over, the page limit capping pages alone', async () => {
    /** `pages` done (one of them a linked file) and `resources` done, with as many of each queued. */
    const withKinds = (pages: number, resources: number, queued: 'queued' | 'done') => {
      const left = queued === 'queued' ? 2 : 1;
      return {
        admitted: pages * left,
        done: pages + resources,
        fetched: pages + resources,
        errors: 0,
        blocked: 0,
        bytesStored: 0,
        resourcesAdmitted: resources * left,
        resources,
        files: 1,
      };
    };
    let current = crawlSummary({
      id: 'kinds',
      counts: withKinds(10, 30, 'queued'),
      queued: 40,
      activeMs: 60_000,
      settings: { ...crawlSummary().settings, maxPages: 20 },
    });
    let stopped: (crawl: CrawlSummary) => void = () => undefined;
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [current] }),
      'crawl/get': () => ({ crawl: current }),
      'pages/latest': () => ({ pages: [] }),
      'crawl/hosts': () => ({ hosts: [] }),
      'crawl/stop': () => new Promise<{ crawl: CrawlSummary }>((resolve) => (stopped = (crawl) => resolve({ crawl }))),
    });
    const events = fakeEvents();
    popup = await mountPopup({
      send: background.send,
      onEvent: events.onEvent,
      currentTabUrl: tabAt('https://example.com/'),
      pollMs: 60_000,
      now: () => NOW,
    });
    const mounted = popup;
    const progress = '40 done (9 pages, 30 resources, 1 file) · 40 queued · page limit 20';

    await waitFor(() => expect(mounted.byTestId('progress-text').textContent).to.equal(progress));
    // 10 of 20 pages (the limit) and 30 of 60 resources: half, though the pages done and queued reach the limit.
    expect(mounted.byTestId('progress-bar').getAttribute('aria-valuenow')).to.equal('50');
    expect(mounted.byTestId('progress-bar').getAttribute('aria-valuetext')).to.equal(
      '40 done (9 pages, 30 resources, 1 file), 40 queued, page limit 20',
    );
    expect(mounted.byTestId('rate').textContent).to.equal('40 URLs/min');

    current = { ...current, state: 'paused' };
    events.fire('kinds');
    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('paused'));
    expect(mounted.byTestId('progress-text').textContent).to.equal(progress);
    expect(mounted.byTestId('progress-bar').getAttribute('aria-valuenow')).to.equal('50');

    await click(mounted.byTestId('stop'));
    await waitFor(() => expect(mounted.byTestId('stop').textContent).to.equal('Stopping…'));
    expect(mounted.byTestId('progress-text').textContent).to.equal(progress);
    stopped({ ...current, state: 'stopped' });
    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('stopped'));
    expect(mounted.byTestId('progress-text').textContent).to.equal(progress);

    current = { ...current, state: 'finished', counts: withKinds(20, 60, 'done'), queued: 0 };
    events.fire('kinds');
    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('finished'));
    expect(mounted.byTestId('progress-text').textContent).to.equal(
      '80 done (19 pages, 60 resources, 1 file) · page limit 20',
    );
    expect(mounted.byTestId('progress-done').style.width).to.equal('100%');
  });

  it('shows only the reason of a crawl that failed before recording anything, no counters', async () => {
    const failed = crawlSummary({
      id: 'f',
      state: 'failed',
      queued: 1,
      counts: counts(1, 0),
      message: 'could not reach http://127.0.0.1:9/: connection refused',
    });
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [failed] }),
      'pages/latest': () => ({ pages: [] }),
    });
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      pollMs: 60_000,
      now: () => NOW,
    });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('failed'));
    expect(mounted.container.textContent).to.include('could not reach');
    expect(mounted.queryTestId('count-errors')).to.equal(null);
    expect(mounted.queryTestId('count-queued')).to.equal(null);
    // Nothing was recorded: no bar, no run time, no rate, nothing to export, and nothing "yet".
    for (const testId of ['progress-bar', 'progress-text', 'run-time', 'rate', 'export'])
      expect(mounted.queryTestId(testId), testId).to.equal(null);
    expect(mounted.container.textContent).to.include('No pages were recorded.').and.not.include('yet');
  });

  it('follows the crawl shown through the push channel, paused or running, without polling', async () => {
    let current = crawlSummary({ id: 'live', state: 'paused', queued: 5, counts: counts(6, 1) });
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [current] }),
      'crawl/get': () => ({ crawl: current }),
      'pages/latest': () => ({ pages: [] }),
      'crawl/hosts': () => ({ hosts: [] }),
    });
    const events = fakeEvents();
    popup = await mountPopup({
      send: background.send,
      onEvent: events.onEvent,
      currentTabUrl: tabAt('https://example.com/'),
      pollMs: 10,
      now: () => NOW,
    });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('paused'));
    // Resumed elsewhere (the results tab), then finished: each change arrives as an event.
    current = { ...current, state: 'running', counts: counts(6, 3), queued: 3 };
    events.fire('live');
    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('running'));
    current = { ...current, state: 'finished', counts: counts(6, 6), queued: 0 };
    events.fire('other-crawl');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mounted.byTestId('crawl-state').textContent, 'an event of another crawl changes nothing').to.equal(
      'running',
    );
    events.fire('live');
    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('finished'));
    expect(payloadsOf(background.sent, 'crawl/get')).to.have.lengthOf(
      2,
      'one read per event of this crawl, no polling',
    );
  });

  it('offers to resume a paused crawl of the site, or to stop it and start anew, instead of starting a second crawl', async () => {
    let paused = crawlSummary({ id: 'p-1', state: 'paused', queued: 4, counts: counts(5, 1) });
    const started = crawlSummary({ id: 'new-1', state: 'running' });
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [paused] }),
      'pages/latest': () => ({ pages: [] }),
      'crawl/hosts': () => ({ hosts: [] }),
      'crawl/stop': () => {
        paused = { ...paused, state: 'stopped' };
        return { crawl: paused };
      },
      'crawl/start': () => ({ crawl: started }),
    });
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      pollMs: 60_000,
      now: () => NOW,
    });
    const mounted = popup;
    await waitFor(() => mounted.byTestId('resume'));
    // A paused crawl comes first; the form is one click away.
    await click(mounted.byTestId('show-start-form'));
    await waitFor(() => expect(mounted.byTestId<HTMLButtonElement>('start').disabled).to.equal(true));
    expect(mounted.container.textContent).to.include('A crawl of this site is paused');

    await click(mounted.byTestId('stop-and-start'));

    await waitFor(() => expect(payloadsOf(background.sent, 'crawl/start')).to.have.lengthOf(1));
    expect(payloadsOf(background.sent, 'crawl/stop')).to.deep.equal([{ crawlId: 'p-1' }]);
    const order = background.sent
      .map((request) => request.type)
      .filter((type) => type === 'crawl/stop' || type === 'crawl/start');
    expect(order).to.deep.equal(['crawl/stop', 'crawl/start']);
  });

  it('when a Start is refused because another crawl runs on the site, offers to stop that crawl and start anew', async () => {
    const stopped = crawlSummary({ id: 'old-1', state: 'stopped', endedAt: NOW - 60_000 });
    let blocker = crawlSummary({
      id: 'b-1',
      state: 'running',
      settings: {
        ...crawlSummary().settings,
        startUrl: 'https://other.example/',
        extraOrigins: ['https://example.com'],
      },
    });
    const started = crawlSummary({ id: 'new-1', state: 'running' });
    let isBlocked = true;
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [stopped, blocker] }),
      'pages/latest': () => ({ pages: [] }),
      'crawl/hosts': () => ({ hosts: [] }),
      'crawl/get': ({ crawlId }) => ({ crawl: crawlId === blocker.id ? blocker : stopped }),
      'crawl/stop': ({ crawlId }) => {
        isBlocked = false;
        blocker = { ...blocker, id: crawlId, state: 'stopped' };
        return { crawl: blocker };
      },
      'crawl/start': () => {
        if (isBlocked) {
          const message =
            'https://example.com is already being crawled (by the crawl of https://other.example/); stop that crawl first';
          throw new TabcrawlError({ code: 'already-running', message, crawlId: 'b-1' });
        }
        return { crawl: started };
      },
    });
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      pollMs: 60_000,
      now: () => NOW,
    });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('stopped'));
    await click(mounted.byTestId('start'));
    await waitFor(() =>
      expect(mounted.container.querySelector('[role="alert"]')?.textContent).to.include('already being crawled'),
    );
    await waitFor(() =>
      expect(mounted.byTestId('stop-blocker-and-start').textContent).to.equal('Stop that crawl and start anew'),
    );
    expect(mounted.byTestId('show-blocker').textContent).to.equal('Show that crawl');

    await click(mounted.byTestId('stop-blocker-and-start'));

    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('running'));
    expect(payloadsOf(background.sent, 'crawl/stop')).to.deep.equal([{ crawlId: 'b-1' }]);
    const order = background.sent
      .map((request) => request.type)
      .filter((type) => type === 'crawl/stop' || type === 'crawl/start');
    expect(order).to.deep.equal(['crawl/start', 'crawl/stop', 'crawl/start']);
    expect(mounted.container.querySelector('[role="alert"]')).to.equal(null);
    expect(mounted.queryTestId('stop-blocker-and-start')).to.equal(null);
  });

  it('takes away the refusal of a Start once the crawl in the way ends', async () => {
    let blocker = crawlSummary({
      id: 'b-1',
      state: 'running',
      settings: {
        ...crawlSummary().settings,
        startUrl: 'https://other.example/',
        extraOrigins: ['https://example.com'],
      },
    });
    const events = fakeEvents();
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [] }),
      'crawl/get': () => ({ crawl: blocker }),
      'crawl/start': () => {
        throw new TabcrawlError({
          code: 'already-running',
          message:
            'https://example.com is already being crawled (by the crawl of https://other.example/); stop that crawl first',
          crawlId: 'b-1',
        });
      },
    });
    popup = await mountPopup({
      send: background.send,
      onEvent: events.onEvent,
      currentTabUrl: tabAt('https://example.com/'),
      pollMs: 60_000,
      now: () => NOW,
    });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));
    await click(mounted.byTestId('start'));
    await waitFor(() => mounted.byTestId('stop-blocker-and-start'));

    blocker = { ...blocker, state: 'finished' };
    events.fire('b-1');

    await waitFor(() => expect(mounted.container.querySelector('[role="alert"]')).to.equal(null));
    expect(mounted.queryTestId('stop-blocker-and-start')).to.equal(null);
    expect(mounted.byTestId<HTMLButtonElement>('start').disabled).to.equal(false);
  });

  it('takes away the refusal of a Start once another URL is typed', async () => {
    const blocker = crawlSummary({
      id: 'b-1',
      state: 'running',
      settings: {
        ...crawlSummary().settings,
        startUrl: 'https://other.example/',
        extraOrigins: ['https://example.com'],
      },
    });
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [] }),
      'crawl/get': () => ({ crawl: blocker }),
      'crawl/start': () => {
        throw new TabcrawlError({
          code: 'already-running',
          message:
            'https://example.com is already being crawled (by the crawl of https://other.example/); stop that crawl first',
          crawlId: 'b-1',
        });
      },
    });
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      pollMs: 60_000,
      now: () => NOW,
    });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));
    await click(mounted.byTestId('start'));
    await waitFor(() => mounted.byTestId('stop-blocker-and-start'));

    await typeInto(mounted.byTestId<HTMLInputElement>('start-url'), 'https://third.example/');

    // Booleans: a failing comparison of an element would be reported with the element itself.
    await waitFor(() =>
      expect(mounted.queryTestId('stop-blocker-and-start') === null, 'the choice is gone').to.equal(true),
    );
    expect(mounted.container.querySelector('[role="alert"]') === null, 'the refusal is gone').to.equal(true);
  });

  it('still shows the crawl when its host details cannot be had', async () => {
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [crawlSummary({ id: 'run-1' })] }),
      'pages/latest': () => ({ pages: [] }),
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/'), pollMs: 60_000 });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('running'));
    expect(mounted.queryTestId('host-lines')).to.equal(null);
    expect(mounted.container.querySelector('[role="alert"]')).to.equal(null);
  });

  it('pauses a running crawl with Pause, then resumes it with Resume', async () => {
    const running = crawlSummary({ id: 'run-1', state: 'running', queued: 4, counts: counts(5, 1) });
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [running] }),
      'pages/latest': () => ({ pages: [] }),
      'crawl/hosts': () => ({ hosts: [] }),
      'crawl/pause': ({ crawlId }) => ({ crawl: { ...running, id: crawlId, state: 'paused' } }),
      'crawl/resume': ({ crawlId }) => ({ crawl: { ...running, id: crawlId, state: 'running' } }),
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/'), pollMs: 60_000 });
    const mounted = popup;
    await waitFor(() => mounted.byTestId('pause'));
    expect(mounted.queryTestId('resume')).to.equal(null);

    await click(mounted.byTestId('pause'));

    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('paused'));
    expect(payloadsOf(background.sent, 'crawl/pause')).to.deep.equal([{ crawlId: 'run-1' }]);
    expect(mounted.queryTestId('pause')).to.equal(null);
    expect(mounted.byTestId('stop')).to.be.an('htmlbuttonelement', 'a paused crawl can be stopped');
    await waitFor(() => expect(mounted.byTestId<HTMLButtonElement>('resume').disabled).to.equal(false));

    await click(mounted.byTestId('resume'));

    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('running'));
    expect(payloadsOf(background.sent, 'crawl/resume')).to.deep.equal([{ crawlId: 'run-1' }]);
    expect(mounted.byTestId('pause')).to.be.an('htmlbuttonelement');
  });

  it('offers Resume for a stopped crawl with URLs still queued', async () => {
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [crawlSummary({ id: 's-1', state: 'stopped', queued: 7 })] }),
      'pages/latest': () => ({ pages: [] }),
      'crawl/hosts': () => ({ hosts: [] }),
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/'), pollMs: 60_000 });
    const mounted = popup;
    await waitFor(() => mounted.byTestId('resume'));
    expect(mounted.queryTestId('pause')).to.equal(null);
    expect(mounted.queryTestId('stop')).to.equal(null);
  });

  it('lists every stored crawl, newest first, with its state and row count', async () => {
    const crawls: CrawlSummary[] = [
      crawlSummary({ id: 'old', createdAt: 100, state: 'finished', counts: counts(3, 3) }),
      crawlSummary({
        id: 'new',
        createdAt: 200,
        state: 'paused',
        counts: counts(9, 1),
        settings: { ...crawlSummary().settings, startUrl: 'https://other.test/' },
      }),
    ];
    const background = fakeBackground({ 'crawl/list': () => ({ crawls }) });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('about:blank') });
    const mounted = popup;
    await waitFor(() => mounted.byTestId('view-crawls'));

    await click(mounted.byTestId('view-crawls'));

    await waitFor(() => expect(mounted.queryAll('crawl-row')).to.have.lengthOf(2));
    const rows = mounted.queryAll('crawl-row');
    expect(rows.map((row) => row.dataset['crawlId'])).to.deep.equal(['new', 'old']);
    expect(rows[0]?.textContent).to.include('https://other.test').and.include('paused').and.include('1 URL');
    expect(rows[1]?.textContent).to.include('finished').and.include('3 URLs');
    expect(mounted.byTestId('view-crawls').getAttribute('aria-pressed')).to.equal('true');
  });

  it('shows the size of the stored bodies of each listed crawl, 0 B for a crawl stored before the size was kept', async () => {
    const legacy = crawlSummary({ id: 'legacy', createdAt: 100, state: 'finished', counts: counts(2, 2) });
    // A record stored before `bytesStored` existed, as an older background might still answer.
    Reflect.deleteProperty(legacy.counts, 'bytesStored');
    const crawls: CrawlSummary[] = [
      crawlSummary({ id: 'sized', createdAt: 200, state: 'finished', counts: counts(128, 128, 1_468_006) }),
      legacy,
    ];
    const background = fakeBackground({ 'crawl/list': () => ({ crawls }) });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('about:blank') });
    const mounted = popup;
    await waitFor(() => mounted.byTestId('view-crawls'));

    await click(mounted.byTestId('view-crawls'));

    await waitFor(() => expect(mounted.queryAll('crawl-row')).to.have.lengthOf(2));
    const sizes = mounted.queryAll('crawl-row-count').map((count) => count.textContent);
    expect(sizes).to.deep.equal(['128 URLs · 1.4 MiB', '2 URLs · 0 B']);
  });

  it('deletes a crawl only after the confirmation in the popup', async () => {
    let crawls: CrawlSummary[] = [
      crawlSummary({ id: 'a', createdAt: 2, state: 'finished' }),
      crawlSummary({ id: 'b', createdAt: 1, state: 'finished' }),
    ];
    const background = fakeBackground({
      'crawl/list': () => ({ crawls }),
      'crawl/delete': ({ crawlId }) => {
        crawls = crawls.filter((c) => c.id !== crawlId);
        return {};
      },
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('about:blank') });
    const mounted = popup;
    await click(mounted.byTestId('view-crawls'));
    await waitFor(() => expect(mounted.queryAll('crawl-row')).to.have.lengthOf(2));

    await click(mounted.byTestId('delete-crawl'));
    expect(payloadsOf(background.sent, 'crawl/delete')).to.deep.equal([]);
    await waitFor(() => expect(document.activeElement).to.equal(mounted.byTestId('confirm-delete')));
    await click(mounted.byTestId('cancel-delete'));
    expect(mounted.queryTestId('confirm-delete')).to.equal(null);
    expect(payloadsOf(background.sent, 'crawl/delete')).to.deep.equal([]);

    await click(mounted.byTestId('delete-crawl'));
    await click(mounted.byTestId('confirm-delete'));

    await waitFor(() => expect(mounted.queryAll('crawl-row')).to.have.lengthOf(1));
    expect(payloadsOf(background.sent, 'crawl/delete')).to.deep.equal([{ crawlId: 'a' }]);
    expect(mounted.queryAll('crawl-row')[0]?.dataset['crawlId']).to.equal('b');
  });

  it('tells crawls of one site apart: run time and the settings that differ; Delete weighs what Open does and its confirmation names the crawl', async () => {
    const base = crawlSummary().settings;
    const crawls: CrawlSummary[] = [
      crawlSummary({
        id: 'quick',
        createdAt: new Date(2026, 10, 24, 9, 5).getTime(),
        state: 'finished',
        activeMs: 95_000,
        counts: counts(21, 21, 2048),
        settings: { ...base, maxPages: 100, delayMs: 0, includeSubdomains: true },
      }),
      crawlSummary({
        id: 'plain',
        createdAt: new Date(2026, 10, 23, 18, 0).getTime(),
        state: 'stopped',
        activeMs: 30_000,
        counts: counts(9, 4),
        settings: { ...base },
      }),
    ];
    const background = fakeBackground({ 'crawl/list': () => ({ crawls }) });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('about:blank') });
    const mounted = popup;
    await click(mounted.byTestId('view-crawls'));
    await waitFor(() => expect(mounted.queryAll('crawl-row')).to.have.lengthOf(2));

    expect(mounted.queryAll('crawl-row-time').map((el) => el.textContent)).to.deep.equal(['took 2 min', 'ran 30 s']);
    expect(mounted.queryAll('crawl-row-settings').map((el) => el.textContent)).to.deep.equal([
      'limit 100 · delay 0 s · subdomains',
    ]);
    const [open, del] = [mounted.queryAll('open-crawl')[0], mounted.queryAll('delete-crawl')[0]];
    expect(del?.className, 'Delete is no heavier than Open').to.equal(open?.className);

    await click(mounted.queryAll('delete-crawl')[0] as HTMLElement);
    expect(mounted.byTestId('confirm-delete-text').textContent).to.equal(
      'Delete the crawl of https://example.com from 2026-11-24 09:05 (21 URLs, 2.0 KiB)?',
    );
  });

  it('takes back a delete confirmation with Escape', async () => {
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [crawlSummary({ id: 'a', state: 'finished' })] }),
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('about:blank') });
    const mounted = popup;
    await click(mounted.byTestId('view-crawls'));
    await waitFor(() => mounted.byTestId('delete-crawl'));
    await click(mounted.byTestId('delete-crawl'));
    const confirm = mounted.byTestId('confirm-delete');

    confirm.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));

    await waitFor(() => expect(mounted.queryTestId('confirm-delete')).to.equal(null));
    expect(payloadsOf(background.sent, 'crawl/delete')).to.deep.equal([]);
  });

  it('opens a crawl of the list in the popup', async () => {
    const other = crawlSummary({
      id: 'other',
      state: 'finished',
      counts: counts(4, 4),
      settings: { ...crawlSummary().settings, startUrl: 'https://other.test/' },
    });
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [other] }),
      'pages/latest': () => ({ pages: [] }),
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/') });
    const mounted = popup;
    await click(mounted.byTestId('view-crawls'));
    await waitFor(() => mounted.byTestId('open-crawl'));

    await click(mounted.byTestId('open-crawl'));

    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('finished'));
    expect(mounted.container.querySelector('.crawl-site')?.textContent).to.equal('https://other.test');
    expect(mounted.queryTestId('crawls-list')).to.equal(null);
  });

  it('re-runs a crawl and shows the new one', async () => {
    const old = crawlSummary({ id: 'old', state: 'finished' });
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [old] }),
      'pages/latest': () => ({ pages: [] }),
      'crawl/hosts': () => ({ hosts: [] }),
      'crawl/rerun': () => ({ crawl: crawlSummary({ id: 'new', state: 'running', queued: 1 }) }),
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('about:blank'), pollMs: 60_000 });
    const mounted = popup;
    await click(mounted.byTestId('view-crawls'));
    await waitFor(() => mounted.byTestId('rerun-crawl'));

    await click(mounted.byTestId('rerun-crawl'));

    await waitFor(() => expect(mounted.byTestId('crawl-state').textContent).to.equal('running'));
    expect(payloadsOf(background.sent, 'crawl/rerun')).to.deep.equal([{ crawlId: 'old' }]);
    expect(mounted.byTestId('count-queued').textContent).to.equal('1');
  });

  it('says why a re-run was refused', async () => {
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [crawlSummary({ id: 'old', state: 'finished' })] }),
      'crawl/rerun': () => {
        throw new TabcrawlError({
          code: 'already-running',
          message: 'https://example.com is already being crawled; stop that crawl first',
        });
      },
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('about:blank') });
    const mounted = popup;
    await click(mounted.byTestId('view-crawls'));
    await waitFor(() => mounted.byTestId('rerun-crawl'));
    await click(mounted.byTestId('rerun-crawl'));
    await waitFor(() =>
      expect(mounted.container.querySelector('[role="alert"]')?.textContent).to.include('already being crawled'),
    );
    expect(mounted.byTestId('crawls-list')).to.be.an('htmlulistelement');
  });

  it('opens the results page of a crawl in a tab, from the list and from the crawl shown', async () => {
    const opened: string[] = [];
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [crawlSummary({ id: 'c-7', state: 'finished' })] }),
      'pages/latest': () => ({ pages: [] }),
    });
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      openResultsTab: (crawlId) => {
        opened.push(crawlId);
        return Promise.resolve();
      },
    });
    const mounted = popup;
    await waitFor(() => mounted.byTestId('open-in-tab-current'));
    await click(mounted.byTestId('open-in-tab-current'));
    await click(mounted.byTestId('view-crawls'));
    await waitFor(() => mounted.byTestId('open-in-tab'));
    await click(mounted.byTestId('open-in-tab'));

    await waitFor(() => expect(opened).to.deep.equal(['c-7', 'c-7']));
  });
});

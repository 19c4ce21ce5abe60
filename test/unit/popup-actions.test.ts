import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyCounts } from '../../src/core/model.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import type { Send } from '../../src/messaging/client.ts';
import {
  TabcrawlError,
  type CrawlSummary,
  type ReplyOf,
  type RequestOf,
  type RequestType,
} from '../../src/messaging/protocol.ts';
import type { PopupDeps } from '../../src/popup/deps.ts';
import {
  accessRefusedMessage,
  actOnCrawl,
  deleteCrawl,
  editForm,
  loadCrawls,
  loadOnOpen,
  openArchive,
  openInTab,
  openScreen,
  rerunCrawl,
  saveBrowsertrixConfig,
  startCrawl,
  stopBlockerAndStart,
  type PopupPorts,
} from '../../src/popup/popup-actions.ts';
import { createPopupStore, initialPopupState, NOT_A_SITE_NOTE, type PopupState } from '../../src/popup/popup-state.ts';
import type { CrawlAction } from '../../src/popup/use-crawl.ts';
import type { StartRefusal } from '../../src/popup/use-start-refusal.ts';
import { fromSettings } from '../../src/settings/settings-values.ts';
import { loadSiteSettings, memorySettingsStorage } from '../../src/settings/site-settings.ts';

type Handlers = { [K in RequestType]?: (payload: RequestOf<K>) => ReplyOf<K> | Promise<ReplyOf<K>> };

function summary(overrides: Partial<CrawlSummary> = {}): CrawlSummary {
  const startUrl = overrides.startUrl ?? 'https://example.com/';
  return {
    id: 'crawl-1',
    startUrl,
    state: 'running',
    createdAt: 1_700_000_000_000,
    endedAt: null,
    counts: emptyCounts(),
    queued: 0,
    message: null,
    settings: { ...DEFAULT_SETTINGS, startUrl },
    ...overrides,
  };
}

/** Fake ports: a background answering from `handlers` (a missing answer fails), and records of what was done. */
function fakePorts(
  handlers: Handlers,
  { deps = {}, state = {} }: { deps?: Partial<PopupDeps>; state?: Partial<PopupState> } = {},
) {
  const sent: { type: RequestType; payload: unknown }[] = [];
  async function send<K extends RequestType>(type: K, payload: RequestOf<K>): Promise<ReplyOf<K>> {
    sent.push({ type, payload });
    const handler = handlers[type];
    if (handler === undefined) throw new TabcrawlError({ code: 'internal', message: `no answer to ${type}` });
    return handler(payload);
  }
  const shown: (CrawlSummary | null)[] = [];
  const performed: CrawlAction[] = [];
  const refusals: (StartRefusal | null)[] = [];
  const accessAsked: string[][] = [];
  const settingsStorage = memorySettingsStorage();
  let current: CrawlSummary | null = null;
  const ports: PopupPorts = {
    deps: {
      send: send as Send,
      requestHostAccess: (patterns) => {
        accessAsked.push(patterns);
        return Promise.resolve(true);
      },
      currentTabUrl: () => Promise.resolve('https://example.com/page'),
      openExportTab: () => Promise.resolve(),
      openResultsTab: () => Promise.resolve(),
      settingsStorage,
      ...deps,
    },
    store: createPopupStore({ ...initialPopupState(), ...state }),
    crawl: {
      current: () => current,
      show: (crawl) => {
        current = crawl;
        shown.push(crawl);
        return Promise.resolve();
      },
      perform: (action) => {
        performed.push(action);
        return Promise.resolve();
      },
    },
    setRefusal: (refusal) => refusals.push(refusal),
  };
  const typesSent = (): RequestType[] => sent.map((request) => request.type);
  return {
    ports,
    sent,
    typesSent,
    shown,
    performed,
    refusals,
    accessAsked,
    settingsStorage,
    state: () => ports.store.getState(),
    show: (crawl: CrawlSummary | null) => (current = crawl),
  };
}

/** A form ready to start a crawl of example.com. */
const ready: Partial<PopupState> = {
  values: { startUrl: 'https://example.com/', settings: fromSettings({ maxPages: 5 }) },
};

describe('popup actions: on open', () => {
  it('fills the form from the tab and shows the newest crawl of its site', async () => {
    const older = summary({ id: 'old', createdAt: 1 });
    const newer = summary({ id: 'new', createdAt: 2 });
    const fake = fakePorts({
      'crawl/list': () => ({ crawls: [older, newer, summary({ id: 'other', startUrl: 'https://other.test/' })] }),
    });
    await loadOnOpen(fake.ports, () => false);
    assert.equal(fake.state().values.startUrl, 'https://example.com/');
    assert.deepEqual(
      fake.shown.map((crawl) => crawl?.id),
      ['new'],
    );
    assert.equal(fake.state().isLoading, false);
  });

  it('notes a tab that is no web site and shows no crawl', async () => {
    const fake = fakePorts(
      { 'crawl/list': () => ({ crawls: [summary()] }) },
      { deps: { currentTabUrl: () => Promise.resolve('chrome://newtab/') } },
    );
    await loadOnOpen(fake.ports, () => false);
    assert.equal(fake.state().note, NOT_A_SITE_NOTE);
    assert.deepEqual(fake.shown, []);
  });

  it('says so when the earlier crawls cannot be listed', async () => {
    const fake = fakePorts({});
    await loadOnOpen(fake.ports, () => false);
    assert.match(fake.state().banner ?? '', /^Could not list earlier crawls/);
    assert.equal(fake.state().isLoading, false);
  });

  it('changes nothing once the popup is gone', async () => {
    const fake = fakePorts({ 'crawl/list': () => ({ crawls: [summary()] }) });
    await loadOnOpen(fake.ports, () => true);
    assert.deepEqual(fake.state(), initialPopupState());
    assert.deepEqual(fake.shown, []);
  });
});

describe('popup actions: Start', () => {
  it('sends nothing and asks no access for a start URL that is not a site', async () => {
    const fake = fakePorts({}, { state: { values: { startUrl: 'not a url', settings: fromSettings({}) } } });
    await startCrawl(fake.ports);
    assert.deepEqual(fake.sent, []);
    assert.deepEqual(fake.accessAsked, []);
    assert.ok(fake.state().fieldErrors.startUrl !== undefined);
  });

  it('starts nothing when access to the site is refused, and says so', async () => {
    const fake = fakePorts({}, { state: ready, deps: { requestHostAccess: () => Promise.resolve(false) } });
    await startCrawl(fake.ports);
    assert.deepEqual(fake.sent, []);
    assert.equal(
      fake.state().banner,
      accessRefusedMessage({ startUrl: 'https://example.com/', includeSubdomains: false }),
    );
    assert.equal(fake.state().isStarting, false);
  });

  it('counts a failed access request as refused', async () => {
    const fake = fakePorts(
      {},
      { state: ready, deps: { requestHostAccess: () => Promise.reject(new Error('no gesture')) } },
    );
    await startCrawl(fake.ports);
    assert.deepEqual(fake.sent, []);
    assert.match(fake.state().banner ?? '', /did not get it/);
  });

  it('asks access, starts, shows the crawl and remembers its settings for the site', async () => {
    const started = summary({ id: 'started' });
    const fake = fakePorts({ 'crawl/start': () => ({ crawl: started }) }, { state: { ...ready, isFormWanted: true } });
    await startCrawl(fake.ports);
    assert.equal(fake.accessAsked.length, 1);
    assert.deepEqual(fake.typesSent(), ['crawl/start']);
    assert.deepEqual(fake.shown, [started]);
    assert.deepEqual(fake.refusals, [null]);
    assert.equal(fake.state().isFormWanted, false);
    assert.equal(fake.state().isStarting, false);
    assert.equal(fake.state().banner, null);
    assert.equal((await loadSiteSettings(fake.settingsStorage, 'https://example.com')).maxPages, 5);
  });

  it('turns a refusal because another crawl is in the way into the refusal, naming that crawl', async () => {
    const fake = fakePorts(
      {
        'crawl/start': () =>
          Promise.reject(
            new TabcrawlError({ code: 'already-running', message: 'A crawl of example.com runs', crawlId: 'blocker' }),
          ),
      },
      { state: ready },
    );
    await startCrawl(fake.ports);
    assert.equal(fake.refusals.at(-1)?.crawlId, 'blocker');
    assert.equal(fake.refusals.at(-1)?.crawl, null);
    assert.equal(fake.state().banner, null);
    assert.deepEqual(fake.shown, []);
  });

  it('shows a refusal on fields next to them', async () => {
    const fake = fakePorts(
      {
        'crawl/start': () =>
          Promise.reject(
            new TabcrawlError({
              code: 'invalid-settings',
              message: 'bad',
              fields: [{ field: 'maxPages', message: 'too many' }],
            }),
          ),
      },
      { state: ready },
    );
    await startCrawl(fake.ports);
    assert.equal(fake.state().fieldErrors.maxPages, 'too many');
    assert.equal(fake.state().banner, null);
    assert.equal(fake.state().focusRequest, 1);
  });

  it('shows a failed message as the banner, and the form is usable again', async () => {
    const fake = fakePorts({}, { state: ready });
    await startCrawl(fake.ports);
    assert.match(fake.state().banner ?? '', /no answer to crawl\/start/i);
    assert.equal(fake.state().isStarting, false);
    assert.deepEqual(fake.shown, []);
  });

  it('stops the crawl in the way, then starts; when the stop fails it starts nothing', async () => {
    const ok = fakePorts(
      {
        'crawl/stop': () => ({ crawl: summary({ id: 'blocker', state: 'stopped' }) }),
        'crawl/start': () => ({ crawl: summary() }),
      },
      { state: ready },
    );
    await stopBlockerAndStart(ok.ports, 'blocker');
    assert.deepEqual(ok.typesSent(), ['crawl/stop', 'crawl/start']);
    const failing = fakePorts({ 'crawl/start': () => ({ crawl: summary() }) }, { state: ready });
    await stopBlockerAndStart(failing.ports, 'blocker');
    assert.deepEqual(failing.typesSent(), ['crawl/stop']);
    assert.match(failing.state().banner ?? '', /^Could not stop that crawl/);
  });

  it('drops the refusal when the start URL changes, not when a setting does', () => {
    const fake = fakePorts({}, { state: ready });
    editForm(fake.ports, { ...fake.state().values, settings: fromSettings({ maxPages: 9 }) });
    assert.deepEqual(fake.refusals, []);
    editForm(fake.ports, { ...fake.state().values, startUrl: 'https://b.test/' });
    assert.deepEqual(fake.refusals, [null]);
    assert.equal(fake.state().hasEditedUrl, true);
  });
});

describe('popup actions: the crawl shown', () => {
  it('pauses through the crawl view', async () => {
    const fake = fakePorts({});
    fake.show(summary());
    await actOnCrawl(fake.ports, 'pause');
    assert.deepEqual(fake.performed, ['pause']);
    assert.deepEqual(fake.accessAsked, []);
  });

  it('resumes only once access to the site is granted', async () => {
    const fake = fakePorts({}, { deps: { requestHostAccess: () => Promise.resolve(false) } });
    fake.show(summary({ state: 'paused' }));
    await actOnCrawl(fake.ports, 'resume');
    assert.deepEqual(fake.performed, []);
    assert.match(fake.state().banner ?? '', /did not get it/);
  });
});

describe('popup actions: the Crawls view', () => {
  it('reads the list anew when the Crawls view opens', async () => {
    const fake = fakePorts({ 'crawl/list': () => ({ crawls: [summary()] }) }, { state: { crawls: [] } });
    await openScreen(fake.ports, 'crawls');
    assert.equal(fake.state().crawls?.length, 1);
  });

  it('shows an empty list and says why when the list cannot be read', async () => {
    const fake = fakePorts({});
    await loadCrawls(fake.ports);
    assert.deepEqual(fake.state().crawls, []);
    assert.match(fake.state().banner ?? '', /^Could not list the crawls/);
  });

  it('re-runs a crawl and shows the new one on the site screen', async () => {
    const again = summary({ id: 'again' });
    const fake = fakePorts({ 'crawl/rerun': () => ({ crawl: again }) }, { state: { screen: 'crawls' } });
    await rerunCrawl(fake.ports, summary({ state: 'finished' }));
    assert.deepEqual(fake.shown, [again]);
    assert.equal(fake.state().screen, 'site');
    assert.equal(fake.state().busyId, null);
  });

  it('re-runs nothing when access is refused, and frees the row', async () => {
    const fake = fakePorts(
      {},
      { state: { screen: 'crawls' }, deps: { requestHostAccess: () => Promise.resolve(false) } },
    );
    await rerunCrawl(fake.ports, summary({ state: 'finished' }));
    assert.deepEqual(fake.sent, []);
    assert.equal(fake.state().screen, 'crawls');
    assert.match(fake.state().banner ?? '', /did not get it/);
    assert.equal(fake.state().busyId, null);
  });

  it('says why a re-run failed', async () => {
    const fake = fakePorts({}, { state: { screen: 'crawls' } });
    await rerunCrawl(fake.ports, summary({ state: 'finished' }));
    assert.match(fake.state().banner ?? '', /no answer to crawl\/rerun/i);
    assert.equal(fake.state().busyId, null);
  });

  it('deletes a crawl from the list, and from the site screen when it was shown there', async () => {
    const doomed = summary({ id: 'doomed', state: 'finished' });
    const fake = fakePorts({ 'crawl/delete': () => ({}) }, { state: { crawls: [doomed, summary({ id: 'kept' })] } });
    fake.show(doomed);
    await deleteCrawl(fake.ports, doomed);
    assert.deepEqual(
      fake.state().crawls?.map((crawl) => crawl.id),
      ['kept'],
    );
    assert.deepEqual(fake.shown, [null]);
    assert.equal(fake.state().busyId, null);
  });

  it('keeps a crawl whose delete failed, and says so', async () => {
    const kept = summary({ id: 'kept' });
    const fake = fakePorts({}, { state: { crawls: [kept] } });
    await deleteCrawl(fake.ports, kept);
    assert.deepEqual(fake.state().crawls, [kept]);
    assert.match(fake.state().banner ?? '', /^Could not delete the crawl/);
    assert.equal(fake.state().busyId, null);
  });

  it('saves a crawl as a Browsertrix config named after its site and date', async () => {
    const saved: [string, string][] = [];
    const fake = fakePorts(
      {},
      { deps: { saveConfig: (name, text) => Promise.resolve(saved.push([name, text])), tabcrawlVersion: '9.9' } },
    );
    await saveBrowsertrixConfig(fake.ports, summary());
    assert.equal(saved[0]?.[0], 'example.com-2023-11-14.browsertrix.yaml');
    assert.match(saved[0]?.[1] ?? '', /9\.9/);
  });

  it('says why a Browsertrix config could not be saved', async () => {
    const fake = fakePorts({}, { deps: { saveConfig: () => Promise.reject(new Error('disk full')) } });
    await saveBrowsertrixConfig(fake.ports, summary());
    assert.equal(fake.state().banner, 'Could not save the Browsertrix config: disk full');
  });

  it('says why a tab could not be opened', async () => {
    const fake = fakePorts(
      {},
      {
        deps: {
          openResultsTab: () => Promise.reject(new Error('no tabs')),
          openImportTab: () => Promise.reject(new Error('no tabs')),
        },
      },
    );
    await openInTab(fake.ports, 'crawl-1', 'issues');
    assert.equal(fake.state().banner, 'Could not open the results page: no tabs');
    await openArchive(fake.ports);
    assert.equal(fake.state().banner, 'Could not open the import page: no tabs');
  });
});

import { expect } from 'chai';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import {
  loadSiteSettings,
  memorySettingsStorage,
  saveDefaultSettings,
  saveSiteSettings,
  SITES_KEY,
  type SettingsStorage,
} from '../../src/settings/site-settings.ts';
import {
  click,
  descriptionOf,
  loadPopupStyles,
  mountPopup,
  payloadsOf,
  startingBackground,
  settle,
  tabAt,
  typeInto,
  waitFor,
  type MountedPopup,
} from './support/popup-harness.tsx';

describe('popup settings', () => {
  let popup: MountedPopup | undefined;

  afterEach(async () => {
    await popup?.unmount();
    popup = undefined;
  });

  async function openMoreSettings(mounted: MountedPopup): Promise<void> {
    const toggle = mounted.byTestId('more-settings');
    if (toggle.getAttribute('aria-expanded') !== 'true') await click(toggle);
    expect(toggle.getAttribute('aria-expanded')).to.equal('true');
  }

  it('fills the form with the settings remembered for the tab site', async () => {
    const storage = memorySettingsStorage();
    await saveSiteSettings(storage, 'https://example.com', {
      maxPages: 40,
      delayMs: 2500,
      excludePatterns: ['*/private/*', '*?s=*'],
      headBeforeGet: true,
    });
    await saveSiteSettings(storage, 'https://other.test', { maxPages: 7 });
    popup = await mountPopup({
      send: startingBackground().send,
      currentTabUrl: tabAt('https://example.com/docs/'),
      settingsStorage: storage,
    });
    const mounted = popup;

    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('max-pages').value).to.equal('40'));
    expect(mounted.byTestId<HTMLInputElement>('delay').value).to.equal('2.5');
    await openMoreSettings(mounted);
    expect(mounted.byTestId<HTMLTextAreaElement>('exclude-patterns').value).to.equal('*/private/*\n*?s=*');
    expect(mounted.byTestId<HTMLInputElement>('head-before-get').checked).to.equal(true);
    expect(mounted.byTestId<HTMLInputElement>('max-pages').value).to.equal('40');
  });

  it('fills the form with the user defaults when the tab site has no remembered settings', async () => {
    const storage = memorySettingsStorage();
    await saveDefaultSettings(storage, { maxPages: 80, timeoutMs: 5000 });
    popup = await mountPopup({
      send: startingBackground().send,
      currentTabUrl: tabAt('https://example.com/'),
      settingsStorage: storage,
    });
    const mounted = popup;

    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('max-pages').value).to.equal('80'));
    await openMoreSettings(mounted);
    expect(mounted.byTestId<HTMLInputElement>('timeout').value).to.equal('5');
  });

  it('keeps the settings shown when the start URL is changed to another site', async () => {
    const storage = memorySettingsStorage();
    await saveSiteSettings(storage, 'https://example.com', { maxPages: 40 });
    await saveSiteSettings(storage, 'https://other.test', { maxPages: 7 });
    popup = await mountPopup({
      send: startingBackground().send,
      currentTabUrl: tabAt('https://example.com/'),
      settingsStorage: storage,
    });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('max-pages').value).to.equal('40'));

    await typeInto(mounted.byTestId<HTMLInputElement>('start-url'), 'https://other.test/');
    await settle(50);

    expect(mounted.byTestId<HTMLInputElement>('max-pages').value).to.equal('40');
    expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://other.test/');
  });

  it('keeps a setting typed before the remembered settings arrive', async () => {
    const storage = memorySettingsStorage();
    await saveSiteSettings(storage, 'https://example.com', { maxPages: 40 });
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: SettingsStorage = {
      get: async (key) => {
        await gate;
        return storage.get(key);
      },
      set: (key, value) => storage.set(key, value),
    };
    popup = await mountPopup({
      send: startingBackground().send,
      currentTabUrl: tabAt('https://example.com/'),
      settingsStorage: slow,
    });
    const mounted = popup;

    await typeInto(mounted.byTestId<HTMLInputElement>('max-pages'), '9');
    release();
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));
    await settle(20);

    expect(mounted.byTestId<HTMLInputElement>('max-pages').value).to.equal('9');
  });

  it('lays out every option within the 380 px popup', async () => {
    await loadPopupStyles();
    popup = await mountPopup({ send: startingBackground().send, currentTabUrl: tabAt('https://example.com/') });
    const mounted = popup;
    await openMoreSettings(mounted);

    const form = mounted.byTestId('settings-form');
    expect(document.body.getBoundingClientRect().width).to.equal(380);
    expect(form.scrollWidth).to.be.at.most(form.clientWidth);
    expect(form.getBoundingClientRect().right).to.be.at.most(380);
    expect(mounted.byTestId('head-before-get').getBoundingClientRect().width).to.be.below(40);
  });

  it('shows max pages, delay and Start exactly once whether more settings are open or not', async () => {
    popup = await mountPopup({ send: startingBackground().send, currentTabUrl: tabAt('https://example.com/') });
    const mounted = popup;
    const counts = () =>
      ['start-url', 'max-pages', 'delay', 'start', 'more-settings'].map((testId) => mounted.queryAll(testId).length);

    expect(counts()).to.deep.equal([1, 1, 1, 1, 1]);
    expect(mounted.queryTestId('settings-form')).to.equal(null);
    await openMoreSettings(mounted);
    expect(counts()).to.deep.equal([1, 1, 1, 1, 1]);
    expect(mounted.queryTestId('settings-form')).not.to.equal(null);
    await click(mounted.byTestId('more-settings'));
    expect(mounted.byTestId('more-settings').getAttribute('aria-expanded')).to.equal('false');
    expect(counts()).to.deep.equal([1, 1, 1, 1, 1]);
  });

  it('sends every setting with crawl/start and remembers them for the site of the start URL', async () => {
    const storage = memorySettingsStorage();
    const background = startingBackground();
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      settingsStorage: storage,
      pollMs: 60_000,
    });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));

    await typeInto(mounted.byTestId<HTMLInputElement>('start-url'), 'https://example.org/docs/');
    await typeInto(mounted.byTestId<HTMLInputElement>('max-pages'), '25');
    await openMoreSettings(mounted);
    await typeInto(mounted.byTestId<HTMLTextAreaElement>('exclude-patterns'), '*/private/*\n\n*?sessionid=*');
    await click(mounted.byTestId('head-before-get'));
    await typeInto(mounted.byTestId<HTMLInputElement>('timeout'), '5');
    await typeInto(mounted.byTestId<HTMLInputElement>('delay'), '0.5');
    await click(mounted.byTestId('start'));

    await waitFor(() => expect(payloadsOf(background.sent, 'crawl/start')).to.have.lengthOf(1));
    expect(payloadsOf(background.sent, 'crawl/start')[0]).to.deep.equal({
      settings: {
        startUrl: 'https://example.org/docs/',
        maxPages: 25,
        delayMs: 500,
        excludePatterns: ['*/private/*', '*?sessionid=*'],
        headBeforeGet: true,
        timeoutMs: 5000,
      },
    });
    await waitFor(() => storage.entries.has(SITES_KEY));
    const remembered = await loadSiteSettings(storage, 'https://example.org');
    expect(remembered).to.include({ maxPages: 25, delayMs: 500, headBeforeGet: true, timeoutMs: 5000 });
    expect(remembered.excludePatterns).to.deep.equal(['*/private/*', '*?sessionid=*']);
    expect(await loadSiteSettings(storage, 'https://example.com')).to.deep.equal({
      ...DEFAULT_SETTINGS,
      excludePatterns: [],
    });
  });

  it('shows the message of an invalid timeout next to it and sends and remembers nothing', async () => {
    const storage = memorySettingsStorage();
    const background = startingBackground();
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      settingsStorage: storage,
    });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));

    await openMoreSettings(mounted);
    const timeout = mounted.byTestId<HTMLInputElement>('timeout');
    await typeInto(timeout, '-3');
    await click(mounted.byTestId('start'));

    expect(timeout.getAttribute('aria-invalid')).to.equal('true');
    expect(mounted.byTestId('timeout-error').textContent).to.match(/^Timeout must be from/);
    expect(descriptionOf(timeout)).to.include(mounted.byTestId('timeout-error').textContent ?? '');
    expect(document.activeElement).to.equal(timeout);
    expect(payloadsOf(background.sent, 'crawl/start')).to.have.lengthOf(0);
    expect(storage.entries.size).to.equal(0);
  });

  it('opens more settings on Start when a setting inside them is invalid', async () => {
    const background = startingBackground();
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/') });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));

    await openMoreSettings(mounted);
    await typeInto(mounted.byTestId<HTMLInputElement>('path-prefix'), 'docs');
    await click(mounted.byTestId('more-settings'));
    expect(mounted.queryTestId('path-prefix')).to.equal(null);
    await click(mounted.byTestId('start'));

    expect(mounted.byTestId('more-settings').getAttribute('aria-expanded')).to.equal('true');
    expect(mounted.byTestId('path-prefix-error').textContent).to.equal('The path prefix must start with "/"');
    expect(mounted.byTestId<HTMLInputElement>('path-prefix').value).to.equal('docs');
    expect(payloadsOf(background.sent, 'crawl/start')).to.have.lengthOf(0);
  });

  it('tells how many hidden settings need fixing when more settings are closed', async () => {
    const background = startingBackground();
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/') });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));

    await openMoreSettings(mounted);
    await typeInto(mounted.byTestId<HTMLInputElement>('timeout'), 'soon');
    await typeInto(mounted.byTestId<HTMLInputElement>('retries'), '-1');
    await click(mounted.byTestId('start'));
    await click(mounted.byTestId('more-settings'));

    expect(mounted.byTestId('more-settings-errors').textContent).to.equal('2 settings here need fixing');
    expect(descriptionOf(mounted.byTestId('more-settings'))).to.equal('2 settings here need fixing');
  });
});

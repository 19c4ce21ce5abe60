/**
 * Bad input in the popup: each gets a clear message where the user acted,
 * and nothing else changes (no request sent, no access asked for, no
 * settings remembered).
 */
import { expect } from 'chai';
import { TabcrawlError } from '../../src/messaging/protocol.ts';
import { memorySettingsStorage, saveSiteSettings, SITES_KEY } from '../../src/settings/site-settings.ts';
import { WITH_COOKIES_WARNING } from '../../src/settings/settings-values.ts';
import {
  click,
  crawlSummary,
  descriptionOf,
  fakeBackground,
  mountPopup,
  payloadsOf,
  startingBackground,
  tabAt,
  typeInto,
  waitFor,
  type MountedPopup,
} from './support/popup-harness.tsx';

/** A `requestHostAccess` that answers `answer` and records what it was asked. */
function accessAsker(answer: boolean) {
  const asked: string[][] = [];
  return {
    asked,
    requestHostAccess: (patterns: string[]) => {
      asked.push(patterns);
      return Promise.resolve(answer);
    },
  };
}

describe('popup bad input', () => {
  let popup: MountedPopup | undefined;

  afterEach(async () => {
    await popup?.unmount();
    popup = undefined;
  });

  async function mountAt(tabUrl: string | null, extra: Partial<Parameters<typeof mountPopup>[0]> = {}) {
    const background = extra.send === undefined ? startingBackground() : null;
    const access = accessAsker(true);
    const mounted = await mountPopup({
      send: background?.send ?? startingBackground().send,
      currentTabUrl: tabAt(tabUrl),
      requestHostAccess: access.requestHostAccess,
      ...extra,
    });
    popup = mounted;
    await waitFor(() => expect(mounted.queryTestId('start')).not.to.equal(null));
    return { mounted, background, access };
  }

  for (const [typed, message] of [
    ['chrome://extensions/', 'only http and https sites can be crawled, not chrome: URLs'],
    ['file:///home/me/page.html', 'only http and https sites can be crawled, not file: URLs'],
    ['about:blank', 'only http and https sites can be crawled, not about: URLs'],
    [
      'https://chromewebstore.google.com/detail/abc',
      'Chrome does not let extensions read the Chrome Web Store, so it cannot be crawled',
    ],
    [
      'https://chrome.google.com/webstore/category/extensions',
      'Chrome does not let extensions read the Chrome Web Store, so it cannot be crawled',
    ],
    ['example.com', '"example.com" is not a full URL; did you mean https://example.com?'],
    ['https://[::1/', '"https://[::1/" is not a valid URL'],
    ['https://me:secret@example.com/', 'the start URL must not contain a user name or password'],
  ] as const) {
    it(`says why it cannot crawl ${typed}, next to the start URL, and sends nothing`, async () => {
      const { mounted, background, access } = await mountAt(null);
      const input = mounted.byTestId<HTMLInputElement>('start-url');
      await typeInto(input, typed);
      await click(mounted.byTestId('start'));

      expect(input.getAttribute('aria-invalid')).to.equal('true');
      expect(descriptionOf(input)).to.include(message);
      expect(input.value).to.equal(typed);
      expect(background?.sent.filter((r) => r.type !== 'crawl/list')).to.deep.equal([]);
      expect(access.asked).to.deep.equal([]);
    });
  }

  it('says an exclude pattern rules out the start URL, under that field, before anything is sent', async () => {
    const { mounted, background, access } = await mountAt('https://example.com/');
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));
    await click(mounted.byTestId('more-settings'));
    const patterns = mounted.byTestId<HTMLTextAreaElement>('exclude-patterns');
    await typeInto(patterns, '*example.com*');
    await click(mounted.byTestId('start'));

    expect(patterns.getAttribute('aria-invalid')).to.equal('true');
    expect(mounted.byTestId('exclude-patterns-error').textContent).to.equal(
      'the exclude pattern "*example.com*" matches the start URL itself',
    );
    expect(payloadsOf(background?.sent ?? [], 'crawl/start')).to.have.lengthOf(0);
    expect(access.asked).to.deep.equal([]);
  });

  it('asks for access to the site before starting, and starts nothing when it is refused', async () => {
    const storage = memorySettingsStorage();
    const background = startingBackground();
    const access = accessAsker(false);
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      requestHostAccess: access.requestHostAccess,
      settingsStorage: storage,
    });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));
    await typeInto(mounted.byTestId<HTMLInputElement>('max-pages'), '40');
    await click(mounted.byTestId('start'));

    await waitFor(() =>
      expect(mounted.container.querySelector('[role="alert"]')?.textContent).to.equal(
        'Tabcrawl needs access to https://example.com to crawl it, and did not get it. Nothing was started.',
      ),
    );
    expect(access.asked).to.deep.equal([['https://example.com/*']]);
    expect(payloadsOf(background.sent, 'crawl/start')).to.have.lengthOf(0);
    expect(await storage.get(SITES_KEY)).to.equal(undefined);
    expect(mounted.byTestId<HTMLInputElement>('max-pages').value).to.equal('40');
  });

  it("shows the background's refusal of a second crawl of the site, and forgets nothing it had remembered", async () => {
    const storage = memorySettingsStorage();
    await saveSiteSettings(storage, 'https://example.com', { maxPages: 40 }, 1);
    const before = structuredClone(await storage.get(SITES_KEY));
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [] }),
      'crawl/start': () => {
        throw new TabcrawlError({
          code: 'already-running',
          message: 'https://example.com is already being crawled; stop that crawl first',
        });
      },
    });
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      settingsStorage: storage,
    });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('max-pages').value).to.equal('40'));
    await typeInto(mounted.byTestId<HTMLInputElement>('max-pages'), '90');
    await click(mounted.byTestId('start'));

    await waitFor(() =>
      expect(mounted.container.querySelector('[role="alert"]')?.textContent).to.equal(
        'https://example.com is already being crawled; stop that crawl first',
      ),
    );
    expect(await storage.get(SITES_KEY)).to.deep.equal(before);
    expect(mounted.byTestId<HTMLInputElement>('max-pages').value).to.equal('90');
  });

  it("shows the background's refusal of a site it has no access to", async () => {
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [] }),
      'crawl/start': () => {
        throw new TabcrawlError({
          code: 'permission-needed',
          message: 'Tabcrawl has no access to https://example.com',
        });
      },
    });
    const { mounted } = await mountAt('https://example.com/', { send: background.send });
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));
    await click(mounted.byTestId('start'));
    await waitFor(() =>
      expect(mounted.container.querySelector('[role="alert"]')?.textContent).to.equal(
        'Tabcrawl has no access to https://example.com',
      ),
    );
  });

  it('shows a background message that starts in lower case as a sentence', async () => {
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [] }),
      'crawl/start': () => {
        throw new TabcrawlError({ code: 'invalid-settings', message: 'this Tabcrawl cannot crawl with cookies' });
      },
    });
    const { mounted } = await mountAt('https://example.com/', { send: background.send });
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));
    await click(mounted.byTestId('start'));
    await waitFor(() =>
      expect(mounted.container.querySelector('[role="alert"]')?.textContent).to.equal(
        'This Tabcrawl cannot crawl with cookies',
      ),
    );
  });

  it('asks for access again before re-running a crawl, and re-runs nothing when it is refused', async () => {
    const earlier = crawlSummary({
      id: 'old',
      state: 'finished',
      settings: { ...crawlSummary().settings, startUrl: 'https://docs.test/', includeSubdomains: true },
    });
    const background = fakeBackground({ 'crawl/list': () => ({ crawls: [earlier] }) });
    const access = accessAsker(false);
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt(null),
      requestHostAccess: access.requestHostAccess,
    });
    const mounted = popup;
    await click(mounted.byTestId('view-crawls'));
    await waitFor(() => expect(mounted.queryAll('rerun-crawl')).to.have.lengthOf(1));
    await click(mounted.byTestId('rerun-crawl'));

    await waitFor(() =>
      expect(access.asked).to.deep.equal([
        ['http://docs.test/*', 'http://*.docs.test/*', 'https://docs.test/*', 'https://*.docs.test/*'],
      ]),
    );
    await waitFor(() => expect(mounted.container.textContent).to.include('Tabcrawl needs access to http://docs.test'));
    expect(payloadsOf(background.sent, 'crawl/rerun')).to.have.lengthOf(0);
  });

  it('asks for access again before resuming a crawl, and resumes nothing when it is refused', async () => {
    const paused = crawlSummary({
      id: 'p-1',
      state: 'paused',
      queued: 4,
      settings: { ...crawlSummary().settings, startUrl: 'https://example.com/' },
    });
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [paused] }),
      'pages/latest': () => ({ pages: [] }),
      'crawl/hosts': () => ({ hosts: [] }),
      'crawl/get': () => ({ crawl: paused }),
    });
    const access = accessAsker(false);
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      requestHostAccess: access.requestHostAccess,
      pollMs: 60_000,
    });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLButtonElement>('resume').disabled).to.equal(false));
    await click(mounted.byTestId('resume'));

    await waitFor(() => expect(access.asked).to.deep.equal([['https://example.com/*']]));
    await waitFor(() =>
      expect(mounted.container.textContent).to.include('Tabcrawl needs access to https://example.com'),
    );
    expect(payloadsOf(background.sent, 'crawl/resume')).to.have.lengthOf(0);
    expect(mounted.byTestId('crawl-state').textContent).to.equal('paused');
  });

  it('warns, while "Crawl with my cookies" is on, that the crawl acts as the user, and sends the option', async () => {
    const background = startingBackground();
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/') });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));
    await click(mounted.byTestId('more-settings'));
    expect(mounted.queryTestId('with-cookies-warning')).to.equal(null);

    await click(mounted.byTestId('with-cookies'));
    expect(mounted.byTestId('with-cookies-warning').textContent).to.equal(WITH_COOKIES_WARNING);
    await click(mounted.byTestId('start'));
    await waitFor(() => expect(payloadsOf(background.sent, 'crawl/start')).to.have.lengthOf(1));
    expect(payloadsOf(background.sent, 'crawl/start')[0]?.settings.withCookies).to.equal(true);
  });

  it('sends no cookie option for a crawl that does not ask for one', async () => {
    const background = startingBackground();
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/') });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));
    await click(mounted.byTestId('start'));
    await waitFor(() => expect(payloadsOf(background.sent, 'crawl/start')).to.have.lengthOf(1));
    expect(payloadsOf(background.sent, 'crawl/start')[0]?.settings.withCookies).to.equal(undefined);
  });
});

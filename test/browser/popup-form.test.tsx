import { expect } from 'chai';
import { TabcrawlError } from '../../src/messaging/protocol.ts';
import { NOT_A_SITE_NOTE } from '../../src/popup/popup-state.ts';
import {
  click,
  crawlSummary,
  descriptionOf,
  fakeBackground,
  mountPopup,
  payloadsOf,
  tabAt,
  typeInto,
  waitFor,
  type MountedPopup,
} from './support/popup-harness.tsx';

describe('popup form', () => {
  let popup: MountedPopup | undefined;

  afterEach(async () => {
    await popup?.unmount();
    popup = undefined;
  });

  it('prefills the start URL with the origin of an http tab', async () => {
    const background = fakeBackground({ 'crawl/list': () => ({ crawls: [] }) });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/docs/page?q=1#top') });
    const mounted = popup;

    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));
    expect(mounted.byTestId<HTMLInputElement>('max-pages').value).to.equal('500');
    expect(mounted.byTestId<HTMLInputElement>('delay').value).to.equal('1');
    expect(mounted.container.textContent).not.to.include(NOT_A_SITE_NOTE);
  });

  it('shows a note and leaves the start URL empty for a chrome:// tab', async () => {
    const background = fakeBackground({ 'crawl/list': () => ({ crawls: [] }) });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('chrome://extensions/') });
    const mounted = popup;

    await waitFor(() => expect(mounted.container.textContent).to.include(NOT_A_SITE_NOTE));
    expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('');
  });

  it('drops the not-a-site note once a URL is typed', async () => {
    const background = fakeBackground({ 'crawl/list': () => ({ crawls: [] }) });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('chrome://extensions/') });
    const mounted = popup;
    await waitFor(() => expect(mounted.container.textContent).to.include(NOT_A_SITE_NOTE));

    await typeInto(mounted.byTestId<HTMLInputElement>('start-url'), 'http://127.0.0.1:8090/');

    await waitFor(() => expect(mounted.container.textContent).not.to.include(NOT_A_SITE_NOTE));
  });

  it('labels every field so it can be reached by its name', async () => {
    const background = fakeBackground({ 'crawl/list': () => ({ crawls: [] }) });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt(null) });

    const labels = [...popup.container.querySelectorAll('label')].map((label) => [
      label.textContent,
      label.control?.dataset['testid'],
    ]);
    expect(labels).to.deep.equal([
      ['Start URL', 'start-url'],
      ['Max pages', 'max-pages'],
      ['Delay (s)', 'delay'],
    ]);
    expect(popup.byTestId('start').tagName).to.equal('BUTTON');
  });

  it('shows the validator message next to Delay for a negative delay and sends nothing', async () => {
    const background = fakeBackground({ 'crawl/list': () => ({ crawls: [] }) });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/') });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));

    const delay = mounted.byTestId<HTMLInputElement>('delay');
    await typeInto(delay, '-1');
    await click(mounted.byTestId('start'));

    expect(delay.getAttribute('aria-invalid')).to.equal('true');
    expect(descriptionOf(delay)).to.equal('Delay must be from 0 s to 3600 s, not -1 s');
    expect(delay.value).to.equal('-1');
    expect(payloadsOf(background.sent, 'crawl/start')).to.have.lengthOf(0);
  });

  it('sends crawl/start with the typed settings and the delay in ms', async () => {
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [] }),
      'crawl/start': ({ settings }) => ({
        crawl: crawlSummary({ settings: { ...crawlSummary().settings, ...settings } }),
      }),
      'pages/latest': () => ({ pages: [] }),
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/a'), pollMs: 60_000 });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));

    await typeInto(mounted.byTestId('start-url'), 'https://example.org/docs/');
    await typeInto(mounted.byTestId('max-pages'), '25');
    await typeInto(mounted.byTestId('delay'), '2.5');
    await click(mounted.byTestId('start'));

    await waitFor(() => expect(payloadsOf(background.sent, 'crawl/start')).to.have.lengthOf(1));
    expect(payloadsOf(background.sent, 'crawl/start')[0]).to.deep.equal({
      settings: { startUrl: 'https://example.org/docs/', maxPages: 25, delayMs: 2500 },
    });
  });

  it('shows a server invalid-settings error next to its field and keeps the input', async () => {
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [] }),
      'crawl/start': () => {
        throw new TabcrawlError({
          code: 'invalid-settings',
          message: 'invalid settings',
          fields: [{ field: 'startUrl', message: 'this host is not allowed' }],
        });
      },
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt(null) });
    const mounted = popup;

    const startUrl = mounted.byTestId<HTMLInputElement>('start-url');
    await typeInto(startUrl, 'http://localhost:8080/private/');
    await typeInto(mounted.byTestId('max-pages'), '7');
    await click(mounted.byTestId('start'));

    await waitFor(() => expect(descriptionOf(startUrl)).to.include('this host is not allowed'));
    expect(startUrl.getAttribute('aria-invalid')).to.equal('true');
    expect(startUrl.value).to.equal('http://localhost:8080/private/');
    expect(mounted.byTestId<HTMLInputElement>('max-pages').value).to.equal('7');
    expect(mounted.container.querySelector('[role="alert"]')).to.equal(null);
  });

  it('shows a server error without fields in a banner and keeps the input', async () => {
    const background = fakeBackground({
      'crawl/list': () => ({ crawls: [] }),
      'crawl/start': () => {
        throw new TabcrawlError({ code: 'already-running', message: 'another crawl is running' });
      },
    });
    popup = await mountPopup({ send: background.send, currentTabUrl: tabAt('https://example.com/') });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));

    await click(mounted.byTestId('start'));

    await waitFor(() =>
      expect(mounted.container.querySelector('[role="alert"]')?.textContent).to.equal(
        'Another crawl is running',
        'a message shown on its own reads as a sentence',
      ),
    );
    expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/');
  });
});

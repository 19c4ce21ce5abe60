import { expect } from 'chai';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { SETTINGS_LIMITS, validateSettings } from '../../src/core/settings.ts';
import { WITH_COOKIES_WARNING } from '../../src/settings/settings-values.ts';
import { OptionsView } from '../../src/options/options-view.tsx';
import {
  DEFAULTS_KEY,
  loadDefaultSettings,
  loadSiteSettings,
  memorySettingsStorage,
  saveDefaultSettings,
  saveSiteSettings,
  SITES_KEY,
  type SettingsStorage,
} from '../../src/settings/site-settings.ts';

interface MountedPage {
  container: HTMLElement;
  byTestId: <E extends HTMLElement = HTMLElement>(testId: string) => E;
  queryTestId: <E extends HTMLElement = HTMLElement>(testId: string) => E | null;
}

let mounted: HTMLElement | null = null;

async function mountPage(storage: SettingsStorage): Promise<MountedPage> {
  const container = document.createElement('div');
  document.body.append(container);
  mounted = container;
  await act(() => {
    render(<OptionsView storage={storage} />, container);
  });
  const queryTestId = <E extends HTMLElement = HTMLElement>(testId: string): E | null =>
    container.querySelector<E>(`[data-testid="${testId}"]`);
  return {
    container,
    queryTestId,
    byTestId: <E extends HTMLElement = HTMLElement>(testId: string): E => {
      const element = queryTestId<E>(testId);
      if (element === null) throw new Error(`no element with data-testid="${testId}"`);
      return element;
    },
  };
}

/** Lets promises, renders and effects run until `check` stops throwing. */
async function waitFor(check: () => unknown, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
  }
}

async function typeInto(input: HTMLInputElement, text: string): Promise<void> {
  await act(() => {
    input.value = text;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function click(element: HTMLElement): Promise<void> {
  await act(() => {
    element.click();
  });
}

/** A storage whose writes fail, as a full or broken storage area does. */
function failingWrites(storage: SettingsStorage): SettingsStorage {
  return { get: (key) => storage.get(key), set: () => Promise.reject(new Error('QUOTA_BYTES quota exceeded')) };
}

describe('options page', () => {
  afterEach(async () => {
    const container = mounted;
    mounted = null;
    if (container === null) return;
    await act(() => {
      render(null, container);
    });
    container.remove();
  });

  it('says how the built-in defaults come back, beside fields that are all filled (none left empty)', async () => {
    const page = await mountPage(memorySettingsStorage());
    await waitFor(() => page.byTestId('delay'));
    const empty = [
      ...page.container.querySelectorAll<HTMLInputElement>('input[type="text"], input:not([type])'),
    ].filter((input) => input.value === '' && input.dataset['testid'] !== 'path-prefix');
    expect(empty.map((input) => input.dataset['testid'])).to.deep.equal([]);
    const intro = page.byTestId('defaults-intro').textContent ?? '';
    expect(intro).to.not.include('left empty');
    expect(intro).to.include('Built-in defaults puts every field back');
  });

  it('shows the saved defaults in the form when it opens', async () => {
    const storage = memorySettingsStorage();
    await saveDefaultSettings(storage, { delayMs: 2500, maxBodyBytes: 2 * 1024 * 1024, headBeforeGet: true });
    const page = await mountPage(storage);

    await waitFor(() => expect(page.byTestId<HTMLInputElement>('delay').value).to.equal('2.5'));
    expect(page.byTestId<HTMLInputElement>('max-body-size').value).to.equal('2');
    expect(page.byTestId<HTMLInputElement>('head-before-get').checked).to.equal(true);
    expect(page.byTestId<HTMLInputElement>('max-pages').value).to.equal('500');
  });

  it('saves valid defaults and says they were saved', async () => {
    const storage = memorySettingsStorage();
    const page = await mountPage(storage);
    await waitFor(() => page.byTestId('delay'));

    await typeInto(page.byTestId<HTMLInputElement>('delay'), '3');
    await typeInto(page.byTestId<HTMLInputElement>('max-body-size'), '0.25');
    await click(page.byTestId('save-defaults'));

    await waitFor(() => expect(page.byTestId('save-status').dataset['state']).to.equal('saved'));
    expect(page.byTestId('save-status').textContent).to.match(/^Saved\./);
    const saved = await loadDefaultSettings(storage);
    expect([saved.delayMs, saved.maxBodyBytes]).to.deep.equal([3000, 256 * 1024]);
  });

  it('saves requests at once per host as a default, shows it when the page opens again, and lists it for a site', async () => {
    const storage = memorySettingsStorage();
    const page = await mountPage(storage);
    await waitFor(() => page.byTestId('requests-per-host'));
    expect(page.byTestId<HTMLInputElement>('requests-per-host').value).to.equal('1');

    await typeInto(page.byTestId<HTMLInputElement>('delay'), '0');
    await typeInto(page.byTestId<HTMLInputElement>('requests-per-host'), '6');
    await click(page.byTestId('save-defaults'));
    await waitFor(() => expect(page.byTestId('save-status').dataset['state']).to.equal('saved'));
    const saved = await loadDefaultSettings(storage);
    expect([saved.delayMs, saved.requestsPerHost]).to.deep.equal([0, 6]);

    await act(() => {
      render(null, page.container);
    });
    page.container.remove();
    await saveSiteSettings(storage, 'https://staging.example', { delayMs: 0, requestsPerHost: 4 });
    const again = await mountPage(storage);
    await waitFor(() => expect(again.byTestId<HTMLInputElement>('requests-per-host').value).to.equal('6'));
    await waitFor(() =>
      expect(again.byTestId('site-summary').textContent).to.match(/^Delay \(s\): 0 · Requests at once per host: 4/),
    );
  });

  it("shows the validator's message next to an out-of-range field and saves nothing", async () => {
    const storage = memorySettingsStorage();
    const page = await mountPage(storage);
    await waitFor(() => page.byTestId('max-pages'));

    await typeInto(page.byTestId<HTMLInputElement>('max-pages'), '0');
    await click(page.byTestId('save-defaults'));

    const expected = validateSettings({ startUrl: 'https://a.test/', maxPages: 0 });
    const message = expected.ok ? '' : (expected.errors[0]?.message ?? '');
    await waitFor(() => expect(page.byTestId('max-pages-error').textContent).to.equal(message));
    expect(message).to.equal('Max pages must be from 1 to 1000000, not 0');
    expect(page.byTestId('max-pages').getAttribute('aria-invalid')).to.equal('true');
    expect(page.byTestId('save-status').dataset['state']).to.equal('invalid');
    expect(page.byTestId('save-status').textContent).to.match(/^Not saved/);
    expect(document.activeElement).to.equal(page.byTestId('max-pages'));
    expect(storage.entries.has(DEFAULTS_KEY)).to.equal(false);
  });

  it('keeps the saved defaults and remembered sites as they were when a Save is refused', async () => {
    const storage = memorySettingsStorage();
    await saveDefaultSettings(storage, { delayMs: 2500 }, 1);
    await saveSiteSettings(storage, 'https://example.com', { maxPages: 40 }, 1);
    const before = structuredClone([...storage.entries]);
    const page = await mountPage(storage);
    await waitFor(() => expect(page.byTestId<HTMLInputElement>('delay').value).to.equal('2.5'));

    for (const [testId, value] of [
      ['delay', String(SETTINGS_LIMITS.delayMs.max / 1000 + 1)],
      ['hosts-at-once', '0'],
      ['requests-per-host', '17'],
      ['max-depth', 'deep'],
      ['product-token', 'my bot/1.0'],
      ['path-prefix', 'docs'],
    ] as const) {
      await typeInto(page.byTestId<HTMLInputElement>(testId), value);
    }
    await click(page.byTestId('save-defaults'));

    await waitFor(() => expect(page.byTestId('save-status').dataset['state']).to.equal('invalid'));
    expect(page.byTestId('save-status').textContent).to.equal(
      'Not saved: 6 settings need fixing (see the message under each).',
    );
    expect(page.byTestId('requests-per-host-error').textContent).to.equal(
      'Requests at once per host must be from 1 to 16, not 17',
    );
    for (const testId of ['delay', 'hosts-at-once', 'requests-per-host', 'max-depth', 'product-token', 'path-prefix']) {
      expect(page.byTestId(`${testId}-error`).textContent, testId).not.to.equal('');
    }
    expect([...storage.entries]).to.deep.equal(before);
  });

  it('warns, while "Crawl with my cookies" is on, what that default means, and saves it only on Save', async () => {
    const storage = memorySettingsStorage();
    const page = await mountPage(storage);
    await waitFor(() => page.byTestId('with-cookies'));
    expect(page.queryTestId('with-cookies-warning')).to.equal(null);

    await click(page.byTestId('with-cookies'));
    expect(page.byTestId('with-cookies-warning').textContent).to.equal(WITH_COOKIES_WARNING);
    expect(page.byTestId('with-cookies-warning').getAttribute('role')).to.equal('alert');
    expect((await loadDefaultSettings(storage)).withCookies).to.equal(false);

    await click(page.byTestId('save-defaults'));
    await waitFor(() => expect(page.byTestId('save-status').dataset['state']).to.equal('saved'));
    expect((await loadDefaultSettings(storage)).withCookies).to.equal(true);
    await click(page.byTestId('with-cookies'));
    expect(page.queryTestId('with-cookies-warning')).to.equal(null);
  });

  it('clears the message as soon as the field is fixed, and then saves', async () => {
    const storage = memorySettingsStorage();
    const page = await mountPage(storage);
    await waitFor(() => page.byTestId('timeout'));

    await typeInto(page.byTestId<HTMLInputElement>('timeout'), '0.5');
    await click(page.byTestId('save-defaults'));
    await waitFor(() =>
      expect(page.byTestId('timeout-error').textContent).to.equal('Timeout must be from 1 s to 600 s, not 0.5 s'),
    );

    await typeInto(page.byTestId<HTMLInputElement>('timeout'), '5');
    expect(page.queryTestId('timeout-error')).to.equal(null);
    expect(page.byTestId('save-status').dataset['state']).to.equal('idle');
    await click(page.byTestId('save-defaults'));
    await waitFor(() => expect(page.byTestId('save-status').dataset['state']).to.equal('saved'));
    expect((await loadDefaultSettings(storage)).timeoutMs).to.equal(5000);
  });

  it('says why when the storage refuses to save', async () => {
    const page = await mountPage(failingWrites(memorySettingsStorage()));
    await waitFor(() => page.byTestId('delay'));

    await click(page.byTestId('save-defaults'));

    await waitFor(() => expect(page.byTestId('save-status').dataset['state']).to.equal('error'));
    expect(page.byTestId('save-status').textContent).to.equal('Not saved: QUOTA_BYTES quota exceeded');
  });

  it('fills the built-in defaults back in without saving them', async () => {
    const storage = memorySettingsStorage();
    await saveDefaultSettings(storage, { maxDepth: 2 });
    const page = await mountPage(storage);
    await waitFor(() => expect(page.byTestId<HTMLInputElement>('max-depth').value).to.equal('2'));

    await click(page.byTestId('reset-defaults'));

    expect(page.byTestId<HTMLInputElement>('max-depth').value).to.equal('20');
    expect((await loadDefaultSettings(storage)).maxDepth).to.equal(2);
  });

  it('lists remembered sites with what their settings change', async () => {
    const storage = memorySettingsStorage();
    await saveSiteSettings(storage, 'https://b.example', { delayMs: 2000, includeSubdomains: true });
    await saveSiteSettings(storage, 'https://a.example', { maxPages: 500 });
    const page = await mountPage(storage);

    await waitFor(() => expect(page.container.querySelectorAll('[data-testid="site-row"]')).to.have.lengthOf(2));
    const rows = [...page.container.querySelectorAll<HTMLElement>('[data-testid="site-row"]')];
    expect(rows.map((row) => row.dataset['origin'])).to.deep.equal(['https://a.example', 'https://b.example']);
    expect(rows[0]?.querySelector('[data-testid="site-summary"]')?.textContent).to.match(
      /^Same as the built-in defaults/,
    );
    expect(rows[1]?.querySelector('[data-testid="site-summary"]')?.textContent).to.match(
      /^Delay \(s\): 2 · Include subdomains: on/,
    );
  });

  it("writes when a site was remembered as the popup writes a crawl's start: 2026-01-31 12:03, local time", async () => {
    const storage = memorySettingsStorage();
    const savedAt = new Date(2026, 0, 31, 12, 3, 45).getTime();
    await saveSiteSettings(storage, 'https://a.example', { maxPages: 5 }, savedAt);
    const page = await mountPage(storage);
    await waitFor(() => page.byTestId('site-summary'));
    expect(page.byTestId('site-summary').textContent).to.equal('Max pages: 5 · saved 2026-01-31 12:03');
  });

  it('forgets a site when its Forget button is pressed', async () => {
    const storage = memorySettingsStorage();
    await saveDefaultSettings(storage, { maxPages: 50 });
    await saveSiteSettings(storage, 'https://a.example', { maxPages: 5 });
    await saveSiteSettings(storage, 'https://b.example', { maxPages: 6 });
    const page = await mountPage(storage);
    await waitFor(() => expect(page.container.querySelectorAll('[data-testid="site-row"]')).to.have.lengthOf(2));

    const forgetA = page.container.querySelector<HTMLButtonElement>(
      '[data-origin="https://a.example"] [data-testid="forget-site"]',
    );
    expect(forgetA?.getAttribute('aria-label')).to.equal('Forget https://a.example');
    if (forgetA === null) throw new Error('no Forget button for https://a.example');
    await click(forgetA);

    await waitFor(() => expect(page.container.querySelectorAll('[data-testid="site-row"]')).to.have.lengthOf(1));
    expect(page.byTestId('site-row').dataset['origin']).to.equal('https://b.example');
    expect(page.byTestId('sites-status').textContent).to.include('Forgot https://a.example');
    expect(Object.keys(storage.entries.get(SITES_KEY) as object)).to.deep.equal(['https://b.example']);
    expect((await loadSiteSettings(storage, 'https://a.example')).maxPages).to.equal(50);
  });

  it('says so when no site has remembered settings', async () => {
    const page = await mountPage(memorySettingsStorage());
    await waitFor(() => expect(page.byTestId('sites-empty').textContent).to.equal('No remembered sites yet.'));
  });
});

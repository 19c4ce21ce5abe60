/**
 * *Render pages (run their scripts)* in the settings form (issue 29): a list of its three modes, and the
 * permission the browser is asked for when the user turns rendering on, on the options page as in the
 * popup's More settings (both are this form). The browser's prompt is a fake here: in a headless browser
 * `permissions.request` never answers (PLATFORM.md).
 */
import { expect } from 'chai';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { RENDER_REFUSED_MESSAGE } from '../../src/settings/settings-form.tsx';
import { OptionsView } from '../../src/options/options-view.tsx';
import {
  click,
  mountPopup,
  payloadsOf,
  startingBackground,
  tabAt,
  type MountedPopup,
} from './support/popup-harness.tsx';
import {
  loadDefaultSettings,
  memorySettingsStorage,
  saveDefaultSettings,
  type SettingsStorage,
} from '../../src/settings/site-settings.ts';

let mounted: HTMLElement | null = null;

/** Settings whose saved defaults turn rendering off (the built-in default is auto): turning it on asks. */
async function storageRenderingOff(): Promise<SettingsStorage> {
  const storage = memorySettingsStorage();
  await saveDefaultSettings(storage, { render: 'off' });
  return storage;
}

/** A prompt whose questions wait (`pending`) until the test answers them, first asked first. */
function fakePrompt() {
  const answers: ((isGranted: boolean) => void)[] = [];
  return {
    pending: () => answers.length,
    request: () => new Promise<boolean>((resolve) => answers.push(resolve)),
    answer: async (isGranted: boolean) => {
      await act(async () => {
        answers.shift()?.(isGranted);
        await Promise.resolve();
      });
    },
  };
}

async function mountPage(storage: SettingsStorage, requestRenderPermission?: () => Promise<boolean>) {
  const container = document.createElement('div');
  document.body.append(container);
  mounted = container;
  await act(() => {
    render(<OptionsView storage={storage} requestRenderPermission={requestRenderPermission} />, container);
  });
  const query = <E extends HTMLElement = HTMLElement>(testId: string): E | null =>
    container.querySelector<E>(`[data-testid="${testId}"]`);
  const byTestId = <E extends HTMLElement = HTMLElement>(testId: string): E => {
    const element = query<E>(testId);
    if (element === null) throw new Error(`no element with data-testid="${testId}"`);
    return element;
  };
  return { container, query, byTestId };
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

/** Picks an option of a `<select>` as the user does (a `change` event). */
async function choose(select: HTMLSelectElement, value: string): Promise<void> {
  await act(() => {
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

describe('the render setting in the settings form', () => {
  afterEach(async () => {
    const container = mounted;
    mounted = null;
    if (container === null) return;
    await act(() => {
      render(null, container);
    });
    container.remove();
  });

  it('is a list of off, auto and always in the Rendering group, labelled, auto by default, with the render cap beside it', async () => {
    const page = await mountPage(memorySettingsStorage());
    await waitFor(() => page.byTestId('render'));
    const select = page.byTestId<HTMLSelectElement>('render');
    expect(select.tagName).to.equal('SELECT');
    expect([...select.options].map((option) => option.value)).to.deep.equal(['off', 'auto', 'always']);
    expect(select.value).to.equal('auto');
    expect(select.labels[0]?.textContent).to.equal('Render pages (run their scripts)');
    expect(page.byTestId<HTMLInputElement>('render-timeout').value).to.equal('15');
    expect(page.byTestId<HTMLInputElement>('render-timeout').labels?.[0]?.textContent).to.equal('Render cap (s)');
    const group = select.closest('fieldset');
    expect(group?.querySelector('legend')?.textContent).to.equal('Rendering');
    expect(group?.contains(page.byTestId('render-timeout'))).to.equal(true);
  });

  it('asks for the permission when rendering is turned on, and keeps it on when the user grants it: Save stores it', async () => {
    const storage = await storageRenderingOff();
    const prompt = fakePrompt();
    const page = await mountPage(storage, prompt.request);
    await waitFor(() => page.byTestId('render'));
    await choose(page.byTestId<HTMLSelectElement>('render'), 'auto');
    expect(prompt.pending()).to.equal(1);
    await prompt.answer(true);
    expect(page.byTestId<HTMLSelectElement>('render').value).to.equal('auto');
    expect(page.query('render-permission')).to.equal(null);
    // From one mode that renders to another, nothing more is asked.
    await choose(page.byTestId<HTMLSelectElement>('render'), 'always');
    expect(prompt.pending()).to.equal(0);
    await act(() => {
      page.byTestId('save-defaults').click();
    });
    await waitFor(() => expect(page.byTestId('save-status').dataset['state']).to.equal('saved'));
    expect((await loadDefaultSettings(storage)).render).to.equal('always');
  });

  it('puts rendering back to off with a message when the user refuses, keeping the edits made meanwhile', async () => {
    const prompt = fakePrompt();
    const page = await mountPage(await storageRenderingOff(), prompt.request);
    await waitFor(() => page.byTestId('render'));
    await choose(page.byTestId<HTMLSelectElement>('render'), 'always');
    expect(page.byTestId<HTMLSelectElement>('render').value).to.equal('always');
    // The user edits another field while the browser's prompt is open.
    await act(() => {
      const cap = page.byTestId<HTMLInputElement>('render-timeout');
      cap.value = '30';
      cap.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await prompt.answer(false);
    expect(page.byTestId<HTMLSelectElement>('render').value).to.equal('off');
    expect(page.byTestId<HTMLInputElement>('render-timeout').value).to.equal('30');
    const note = page.byTestId('render-permission');
    expect(note.textContent).to.equal(RENDER_REFUSED_MESSAGE);
    expect(note.getAttribute('role')).to.equal('alert');
    // Choosing again asks again, and the message goes.
    await choose(page.byTestId<HTMLSelectElement>('render'), 'auto');
    expect(page.query('render-permission')).to.equal(null);
    expect(prompt.pending()).to.equal(1);
  });

  it('puts rendering back to off when asking fails, saying why', async () => {
    const page = await mountPage(await storageRenderingOff(), () =>
      Promise.reject(new Error('Only permissions specified in the manifest may be requested.')),
    );
    await waitFor(() => page.byTestId('render'));
    await choose(page.byTestId<HTMLSelectElement>('render'), 'auto');
    await waitFor(() => expect(page.byTestId<HTMLSelectElement>('render').value).to.equal('off'));
    expect(page.byTestId('render-permission').textContent).to.equal(
      'The browser would not ask for the permission rendering needs (Only permissions specified in the manifest may be requested.), so Render pages is back to off.',
    );
  });

  it('shows saved defaults that render as they are, without asking again', async () => {
    const storage = memorySettingsStorage();
    await saveDefaultSettings(storage, { render: 'auto', renderTimeoutMs: 20_000 });
    const prompt = fakePrompt();
    const page = await mountPage(storage, prompt.request);
    await waitFor(() => expect(page.byTestId<HTMLSelectElement>('render').value).to.equal('auto'));
    expect(page.byTestId<HTMLInputElement>('render-timeout').value).to.equal('20');
    expect(prompt.pending()).to.equal(0);
  });
});

describe("the render setting in the popup's More settings", () => {
  let popup: MountedPopup | undefined;

  afterEach(async () => {
    await popup?.unmount();
    popup = undefined;
  });

  it('asks for the permission when rendering is turned on, and starts the crawl with it once granted', async () => {
    const background = startingBackground();
    const prompt = fakePrompt();
    popup = await mountPopup({
      send: background.send,
      currentTabUrl: tabAt('https://example.com/'),
      requestRenderPermission: prompt.request,
    });
    const mounted = popup;
    await waitFor(() => expect(mounted.byTestId<HTMLInputElement>('start-url').value).to.equal('https://example.com/'));
    await click(mounted.byTestId('more-settings'));
    await click(mounted.byTestId('settings-group-rendering').querySelector('summary') ?? mounted.byTestId('render'));
    // From auto (the default) to off asks nothing; from off to a mode that renders asks.
    await choose(mounted.byTestId<HTMLSelectElement>('render'), 'off');
    expect(prompt.pending()).to.equal(0);
    await choose(mounted.byTestId<HTMLSelectElement>('render'), 'always');
    expect(prompt.pending()).to.equal(1);
    await prompt.answer(false);
    expect(mounted.byTestId<HTMLSelectElement>('render').value).to.equal('off');
    expect(mounted.byTestId('render-permission').textContent).to.equal(RENDER_REFUSED_MESSAGE);

    await choose(mounted.byTestId<HTMLSelectElement>('render'), 'always');
    await prompt.answer(true);
    await click(mounted.byTestId('start'));
    await waitFor(() => expect(payloadsOf(background.sent, 'crawl/start')).to.have.lengthOf(1));
    expect(payloadsOf(background.sent, 'crawl/start')[0]?.settings.render).to.equal('always');
  });
});

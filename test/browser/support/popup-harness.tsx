/**
 * Renders the popup's App in a plain page with a fake `send`, and small
 * helpers to act on it. Never imports client.ts or main.tsx (they load
 * webextension-polyfill, which throws outside an extension).
 */
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { emptyCounts } from '../../../src/core/model.ts';
import { DEFAULT_SETTINGS } from '../../../src/core/settings.ts';
import type { Send } from '../../../src/messaging/client.ts';
import {
  TabcrawlError,
  type CrawlSummary,
  type PageSummary,
  type ReplyOf,
  type RequestOf,
  type RequestType,
} from '../../../src/messaging/protocol.ts';
import { App } from '../../../src/popup/app.tsx';
import type { PopupDeps } from '../../../src/popup/deps.ts';
import { memorySettingsStorage } from '../../../src/settings/site-settings.ts';

/** Fake answers, one function per request type; a missing one fails the request with `internal`. */
export type FakeHandlers = {
  [K in RequestType]?: (payload: RequestOf<K>) => ReplyOf<K> | Promise<ReplyOf<K>>;
};

export interface SentRequest {
  type: RequestType;
  payload: unknown;
}

export interface FakeBackground {
  send: Send;
  /** Every request sent, in order. */
  sent: SentRequest[];
}

export function fakeBackground(handlers: FakeHandlers): FakeBackground {
  const sent: SentRequest[] = [];
  async function send<K extends RequestType>(type: K, payload: RequestOf<K>): Promise<ReplyOf<K>> {
    sent.push({ type, payload });
    const handler = handlers[type];
    if (handler === undefined)
      throw new TabcrawlError({ code: 'internal', message: `the fake has no answer to ${type}` });
    return handler(payload);
  }
  return { send, sent };
}

/** A background that lists no crawls and starts any crawl it is asked for, with the settings sent. */
export function startingBackground(): FakeBackground {
  return fakeBackground({
    'crawl/list': () => ({ crawls: [] }),
    'crawl/start': ({ settings }) => ({
      crawl: crawlSummary({ settings: { ...crawlSummary().settings, ...settings } }),
    }),
    'pages/latest': () => ({ pages: [] }),
    'crawl/hosts': () => ({ hosts: [] }),
  });
}

/** The payloads sent with one request type, in order. */
export function payloadsOf<K extends RequestType>(sent: readonly SentRequest[], type: K): RequestOf<K>[] {
  return sent.filter((request) => request.type === type).map((request) => request.payload as RequestOf<K>);
}

export function crawlSummary(overrides: Partial<CrawlSummary> = {}): CrawlSummary {
  const startUrl = overrides.settings?.startUrl ?? overrides.startUrl ?? 'https://example.com/';
  return {
    id: 'crawl-1',
    startUrl,
    state: 'running',
    createdAt: 1_700_000_000_000,
    endedAt: null,
    counts: emptyCounts(),
    queued: 0,
    message: null,
    settings: { ...DEFAULT_SETTINGS, excludePatterns: [], startUrl },
    ...overrides,
  };
}

export function pageSummary(overrides: Partial<PageSummary> = {}): PageSummary {
  return {
    seq: 1,
    url: 'https://example.com/',
    kind: 'page',
    depth: 0,
    status: 200,
    contentType: 'text/html; charset=utf-8',
    location: null,
    blockedBy: null,
    error: null,
    duplicateOf: null,
    ...overrides,
  };
}

export interface MountedPopup {
  container: HTMLElement;
  /** The element with this `data-testid`; throws when there is none. */
  byTestId: <E extends HTMLElement = HTMLElement>(testId: string) => E;
  /** The element with this `data-testid`, or null. */
  queryTestId: <E extends HTMLElement = HTMLElement>(testId: string) => E | null;
  /** Every element with this `data-testid`, in document order. */
  queryAll: (testId: string) => HTMLElement[];
  unmount: () => Promise<void>;
}

/**
 * {@link PopupDeps} as tests give them: `openExportTab`, `openResultsTab`, `settingsStorage` and
 * `requestHostAccess` may be left out (see {@link mountPopup}).
 */
export type FakePopupDeps = Omit<
  PopupDeps,
  'openExportTab' | 'openResultsTab' | 'settingsStorage' | 'requestHostAccess'
> &
  Partial<Pick<PopupDeps, 'openExportTab' | 'openResultsTab' | 'settingsStorage' | 'requestHostAccess'>>;

/** The `requestHostAccess` of tests that do not care: access is granted, as with the manifest's host permissions. */
export function hostAccessGranted(): Promise<boolean> {
  return Promise.resolve(true);
}

/** The `openExportTab` of tests that do not export: it fails, as a missing fake answer does. */
export function noExportTab(): Promise<void> {
  return Promise.reject(new Error('the fake has no openExportTab'));
}

/** The `openResultsTab` of tests that do not open results: it fails, as a missing fake answer does. */
export function noResultsTab(): Promise<void> {
  return Promise.reject(new Error('the fake has no openResultsTab'));
}

/**
 * Renders `<App deps={deps} />` into a fresh container in the page; a missing
 * `openExportTab` is {@link noExportTab}, a missing `openResultsTab`
 * {@link noResultsTab}, a missing `settingsStorage` an empty `memorySettingsStorage()`,
 * a missing `requestHostAccess` {@link hostAccessGranted}.
 */
export async function mountPopup(fakeDeps: FakePopupDeps): Promise<MountedPopup> {
  const deps: PopupDeps = {
    ...fakeDeps,
    openExportTab: fakeDeps.openExportTab ?? noExportTab,
    openResultsTab: fakeDeps.openResultsTab ?? noResultsTab,
    settingsStorage: fakeDeps.settingsStorage ?? memorySettingsStorage(),
    requestHostAccess: fakeDeps.requestHostAccess ?? hostAccessGranted,
  };
  const container = document.createElement('div');
  document.body.append(container);
  await act(() => {
    render(<App deps={deps} />, container);
  });
  const queryTestId = <E extends HTMLElement = HTMLElement>(testId: string): E | null =>
    container.querySelector<E>(`[data-testid="${testId}"]`);
  return {
    container,
    queryTestId,
    queryAll: (testId: string): HTMLElement[] => [
      ...container.querySelectorAll<HTMLElement>(`[data-testid="${testId}"]`),
    ],
    byTestId: <E extends HTMLElement = HTMLElement>(testId: string): E => {
      const element = queryTestId<E>(testId);
      if (element === null) throw new Error(`no element with data-testid="${testId}"`);
      return element;
    },
    unmount: async () => {
      await act(() => {
        render(null, container);
      });
      container.remove();
    },
  };
}

/** Loads the popup's stylesheet into the test page (once), so layout can be measured. */
export async function loadPopupStyles(): Promise<void> {
  if (document.querySelector('link[data-popup-styles]') !== null) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('../../../src/popup/popup.css', import.meta.url).href;
  link.dataset['popupStyles'] = '';
  const loaded = new Promise<void>((resolve, reject) => {
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => reject(new Error(`could not load ${link.href}`)));
  });
  document.head.append(link);
  await loaded;
}

/** The tab URL function of {@link PopupDeps} for a fixed URL. */
export function tabAt(url: string | null): () => Promise<string | null> {
  return () => Promise.resolve(url);
}

/**
 * Lets the app's promises, renders and effects run (real time, a few ms a
 * step) until `check` stops throwing and does not return false.
 */
export async function waitFor(check: () => unknown, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = new Error('condition never held');
  for (;;) {
    try {
      if (check() !== false) return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw lastError;
    await settle(5);
  }
}

/** Waits `ms` of real time inside `act`, so pending renders and effects are flushed. */
export async function settle(ms = 0): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, ms));
  });
}

/** Types `text` into an input or textarea the way a user's edit reaches the app (an `input` event). */
export async function typeInto(input: HTMLInputElement | HTMLTextAreaElement, text: string): Promise<void> {
  await act(() => {
    input.value = text;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export async function click(element: HTMLElement): Promise<void> {
  await act(() => {
    element.click();
  });
}

/** The text of the element an input's `aria-describedby` points to, joined. */
export function descriptionOf(input: HTMLElement): string {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id !== '');
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

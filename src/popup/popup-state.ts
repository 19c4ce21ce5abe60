/**
 * The popup's state, apart from its layout: what the Start form holds, the
 * banner and note, which screen is shown, the Crawls list, and what is in
 * flight. One pure {@link reducePopup} moves it; the async actions over the
 * popup's ports (`popup-actions.ts`) dispatch to it, and `use-popup.ts` keeps
 * it for `App` to lay out (issue 28: state out of the big components).
 *
 * The crawl shown (its summary, rows and hosts, kept fresh) is `use-crawl.ts`'s,
 * and a refused Start's following is `use-start-refusal.ts`'s: both follow the
 * background's events, which a reducer cannot do.
 */
import type { CrawlSummary } from '../messaging/protocol.ts';
import type { FormValues, SettingKey } from '../settings/settings-values.ts';
import { defaultStartForm, type StartFormErrors, type StartFormValues } from './start-form.ts';
import { httpOrigin } from '../core/url/normalize-url.ts';

/** Under the start URL when the tab is no web site. */
export const NOT_A_SITE_NOTE = 'This tab is not a web site; type a URL to crawl';

/** What the popup shows: the tab's site (form and crawl) or the list of every crawl. */
export type PopupScreen = 'site' | 'crawls';

export interface PopupState {
  /** What the Start form holds. */
  values: StartFormValues;
  /** Messages next to the form's fields; empty when none. */
  fieldErrors: StartFormErrors;
  /** The form's *More settings* disclosure is open. */
  isMoreOpen: boolean;
  /** Bumped to take the keyboard to the first field with a problem. */
  focusRequest: number;
  /** The error shown above everything, or null. */
  banner: string | null;
  /** Shown under the start URL (e.g. the tab is no web site), or null. */
  note: string | null;
  /** The on-open reads (tab, remembered settings, earlier crawls) are not over. */
  isLoading: boolean;
  /** A Start is in flight (access asked, `crawl/start` sent). */
  isStarting: boolean;
  /** The user typed in the start URL field: the tab's URL must not overwrite it. */
  hasEditedUrl: boolean;
  /** The user changed a setting: the remembered settings must not overwrite it. */
  hasEditedSettings: boolean;
  screen: PopupScreen;
  /** Every stored crawl for the Crawls view; null until loaded. */
  crawls: CrawlSummary[] | null;
  /** The crawl of the Crawls view with a request in flight, or null. */
  busyId: string | null;
  /** The user opened the Start form while a crawl runs (it is folded away then). */
  isFormWanted: boolean;
}

/** The popup as it opens: the default form, loading, on the site screen. */
export function initialPopupState(): PopupState {
  return {
    values: defaultStartForm(),
    fieldErrors: {},
    isMoreOpen: false,
    focusRequest: 0,
    banner: null,
    note: null,
    isLoading: true,
    isStarting: false,
    hasEditedUrl: false,
    hasEditedSettings: false,
    screen: 'site',
    crawls: null,
    busyId: null,
    isFormWanted: false,
  };
}

/** Everything that changes the popup's state, named by what happened. */
export type PopupAction =
  /** The user changed the form. */
  | { type: 'form-edited'; values: StartFormValues }
  /** The active tab was read: its origin, or null when it is no web site (or could not be read). */
  | { type: 'tab-read'; origin: string | null }
  /** The settings remembered for the tab's site (or the defaults) were read. */
  | { type: 'remembered-read'; settings: FormValues }
  /** The on-open reads are over. */
  | { type: 'loaded' }
  | { type: 'banner'; text: string | null }
  /** A Start was refused on these fields: shown next to them, the disclosure opened when one is inside it. */
  | { type: 'field-errors'; fields: StartFormErrors }
  | { type: 'more-open-changed'; isOpen: boolean }
  /** A valid Start goes out: old messages go. */
  | { type: 'start-sent' }
  /** The background started the crawl. */
  | { type: 'started' }
  /** The Start is over, however it went. */
  | { type: 'start-over' }
  /** The user opened a screen: the banner goes, and the Crawls view is read anew. */
  | { type: 'screen-opened'; screen: PopupScreen }
  /** A re-run crawl is shown on the site screen. */
  | { type: 'rerun-shown' }
  | { type: 'crawls-listed'; crawls: CrawlSummary[] }
  /** A crawl picked from the Crawls list (or a refusal) is shown on the site screen. */
  | { type: 'crawl-opened' }
  | { type: 'busy'; crawlId: string | null }
  | { type: 'crawl-deleted'; crawlId: string }
  /** *New crawl* or *Start another crawl…*: the form unfolds. */
  | { type: 'form-wanted' };

/** Settings the form's own row shows while the disclosure is closed. */
const ROW_SETTINGS: ReadonlySet<SettingKey> = new Set<SettingKey>(['maxPages', 'delayMs']);

/** How many settings out of sight (in the closed disclosure) have a message. */
export function hiddenErrorCount(errors: StartFormErrors): number {
  return Object.keys(errors).filter((field) => field !== 'startUrl' && !ROW_SETTINGS.has(field as SettingKey)).length;
}

/** The popup's state after `action`; pure. */
export function reducePopup(state: PopupState, action: PopupAction): PopupState {
  switch (action.type) {
    case 'form-edited': {
      const isUrlEdited = action.values.startUrl !== state.values.startUrl;
      return {
        ...state,
        values: action.values,
        hasEditedUrl: state.hasEditedUrl || isUrlEdited,
        hasEditedSettings: state.hasEditedSettings || action.values.settings !== state.values.settings,
        // The note is about the tab: once a URL is typed it no longer applies.
        note: isUrlEdited ? null : state.note,
      };
    }
    case 'tab-read':
      if (action.origin === null) return { ...state, note: NOT_A_SITE_NOTE };
      return state.hasEditedUrl ? state : { ...state, values: { ...state.values, startUrl: `${action.origin}/` } };
    case 'remembered-read':
      return state.hasEditedSettings ? state : { ...state, values: { ...state.values, settings: action.settings } };
    case 'loaded':
      return { ...state, isLoading: false };
    case 'banner':
      return { ...state, banner: action.text };
    case 'field-errors':
      return {
        ...state,
        fieldErrors: action.fields,
        isMoreOpen: state.isMoreOpen || hiddenErrorCount(action.fields) > 0,
        focusRequest: state.focusRequest + 1,
      };
    case 'more-open-changed':
      return { ...state, isMoreOpen: action.isOpen };
    case 'start-sent':
      return { ...state, fieldErrors: {}, banner: null, isStarting: true };
    case 'started':
      return { ...state, note: null, isFormWanted: false };
    case 'start-over':
      return { ...state, isStarting: false };
    case 'screen-opened':
      return {
        ...state,
        banner: null,
        screen: action.screen,
        crawls: action.screen === 'crawls' ? null : state.crawls,
      };
    case 'rerun-shown':
      return { ...state, screen: 'site' };
    case 'crawls-listed':
      return { ...state, crawls: action.crawls };
    case 'crawl-opened':
      return { ...state, banner: null, screen: 'site', isFormWanted: false };
    case 'busy':
      return { ...state, busyId: action.crawlId };
    case 'crawl-deleted':
      return { ...state, crawls: state.crawls?.filter((crawl) => crawl.id !== action.crawlId) ?? null };
    case 'form-wanted':
      return { ...state, isFormWanted: true };
  }
}

/** Why Start is off for the crawl shown, or null when it is not. */
export function startBlockedReason(crawl: CrawlSummary | null, startUrl: string): string | null {
  if (crawl === null) return null;
  if (crawl.state === 'running') return 'A crawl of this site is running: stop it to start again.';
  if (crawl.state === 'paused' && httpOrigin(startUrl.trim()) === httpOrigin(crawl.settings.startUrl)) {
    return 'A crawl of this site is paused: resume it below, or stop it and start anew.';
  }
  return null;
}

/** Whether the popup summarises the crawl's issues: once it is not running, and has rows. */
export function hasIssuesSummary(crawl: CrawlSummary): boolean {
  return crawl.state !== 'running' && crawl.counts.done > 0;
}

/** A state holder the async actions can read and write between their awaits (`getState` is always current). */
export interface PopupStore {
  getState: () => PopupState;
  dispatch: (action: PopupAction) => void;
  /** Calls `listener` after each dispatch; returns the unsubscribe. */
  subscribe: (listener: () => void) => () => void;
}

/** A store over {@link reducePopup}: what `use-popup.ts` renders from, and what the unit tests drive. */
export function createPopupStore(initial: PopupState = initialPopupState()): PopupStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch: (action) => {
      const next = reducePopup(state, action);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

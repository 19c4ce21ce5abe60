/**
 * The popup's state for `App` to lay out: the {@link PopupStore} (rendered on
 * each change), the crawl shown (`use-crawl.ts`), a refused Start
 * (`use-start-refusal.ts`), and the actions of `popup-actions.ts` bound to
 * them. Also the two effects that belong to the page's life: the on-open
 * reads, and the Crawls view following the background's events.
 */
import { createContext } from 'preact';
import { useContext, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { CrawlSummary } from '../messaging/protocol.ts';
import type { ResultsViewName } from '../messaging/routes.ts';
import { DEFAULT_POLL_MS, type PopupDeps } from './deps.ts';
import type { StartFormValues } from './start-form.ts';
import * as actions from './popup-actions.ts';
import { createPopupStore, type PopupScreen, type PopupState } from './popup-state.ts';
import { useCrawl, type CrawlAction, type CrawlView } from './use-crawl.ts';
import { useStartRefusal, type StartRefusal } from './use-start-refusal.ts';

/** The popup's actions, bound to its ports; each resolves once done and never rejects. */
export interface PopupHandlers {
  editForm: (next: StartFormValues) => void;
  setMoreOpen: (isOpen: boolean) => void;
  start: () => Promise<void>;
  actOnCrawl: (action: CrawlAction) => Promise<void>;
  stopAndStart: () => Promise<void>;
  stopBlockerAndStart: (crawlId: string) => Promise<void>;
  openScreen: (screen: PopupScreen) => Promise<void>;
  openCrawl: (crawl: CrawlSummary) => Promise<void>;
  openInTab: (crawlId: string, view?: ResultsViewName) => Promise<void>;
  openArchive: () => Promise<void>;
  rerun: (crawl: CrawlSummary) => Promise<void>;
  delete: (crawl: CrawlSummary) => Promise<void>;
  saveBrowsertrixConfig: (crawl: CrawlSummary) => Promise<void>;
  /** The Start form unfolds (the caller takes the keyboard to it). */
  wantForm: () => void;
}

export interface Popup {
  state: PopupState;
  /** The crawl shown, with its rows and hosts. */
  view: CrawlView;
  /** The background's refusal of the last Start because another crawl is in the way; null when none holds. */
  refusal: StartRefusal | null;
  act: PopupHandlers;
}

/** The popup's state and actions for the components under `App` (one store, reached through a context). */
export const PopupContext = createContext<Popup | null>(null);

/** The {@link Popup} `App` provides; throws outside it (a component used out of place). */
export function usePopupContext(): Popup {
  const popup = useContext(PopupContext);
  if (popup === null) throw new Error('usePopupContext is used outside App');
  return popup;
}

export function usePopup(deps: PopupDeps): Popup {
  const { send, currentTabUrl, settingsStorage, onEvent } = deps;
  const pollMs = deps.pollMs ?? DEFAULT_POLL_MS;
  const view = useCrawl(send, pollMs, onEvent, deps.now ?? Date.now);
  const [refusal, setRefusal] = useStartRefusal(send, pollMs, onEvent);
  const store = useMemo(() => createPopupStore(), []);
  const [state, setState] = useState(store.getState);
  useEffect(() => {
    setState(store.getState());
    return store.subscribe(() => setState(store.getState()));
  }, [store]);

  // The actions read the crawl shown and the deps as they are when they run, not as when bound.
  const latest = useRef({ deps, view });
  latest.current = { deps, view };
  const ports = useMemo<actions.PopupPorts>(
    () => ({
      get deps() {
        return latest.current.deps;
      },
      store,
      crawl: {
        current: () => latest.current.view.crawl,
        show: (crawl) => latest.current.view.show(crawl),
        perform: (action) => latest.current.view.perform(action),
      },
      setRefusal,
    }),
    [store, setRefusal],
  );

  const { show } = view;
  useEffect(() => {
    let isCancelled = false;
    void actions.loadOnOpen(ports, () => isCancelled);
    return () => {
      isCancelled = true;
    };
  }, [currentTabUrl, send, show, settingsStorage, ports]);

  // The Crawls view follows the background's events too: a crawl that ends or is deleted elsewhere shows so.
  const { screen } = state;
  useEffect(() => {
    if (screen !== 'crawls' || onEvent === undefined) return undefined;
    return onEvent('crawl/changed', () => void actions.loadCrawls(ports));
  }, [screen, onEvent, ports]);

  const act = useMemo<PopupHandlers>(
    () => ({
      editForm: (next) => actions.editForm(ports, next),
      setMoreOpen: (isOpen) => store.dispatch({ type: 'more-open-changed', isOpen }),
      start: () => actions.startCrawl(ports),
      actOnCrawl: (action) => actions.actOnCrawl(ports, action),
      stopAndStart: () => actions.stopAndStart(ports),
      stopBlockerAndStart: (crawlId) => actions.stopBlockerAndStart(ports, crawlId),
      openScreen: (next) => actions.openScreen(ports, next),
      openCrawl: (crawl) => actions.openCrawl(ports, crawl),
      openInTab: (crawlId, resultsView) => actions.openInTab(ports, crawlId, resultsView),
      openArchive: () => actions.openArchive(ports),
      rerun: (crawl) => actions.rerunCrawl(ports, crawl),
      delete: (crawl) => actions.deleteCrawl(ports, crawl),
      saveBrowsertrixConfig: (crawl) => actions.saveBrowsertrixConfig(ports, crawl),
      wantForm: () => store.dispatch({ type: 'form-wanted' }),
    }),
    [ports, store],
  );

  return { state, view, refusal, act };
}

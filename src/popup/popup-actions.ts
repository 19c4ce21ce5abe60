/**
 * What the popup does, as plain async functions over its ports: the
 * browser's side in {@link PopupDeps}, the state in a {@link PopupStore},
 * the crawl shown (`use-crawl.ts`) and the refused Start (`use-start-refusal.ts`).
 * None touches the DOM, so each runs in a unit test with fakes (issue 28).
 *
 * Every failure becomes a banner (or messages next to the fields): no action rejects.
 */
import { hostAccessPatterns, startUrlProblem } from '../core/crawl/crawl-lifecycle.ts';
import { validateSettings, withSessionGuard, type CrawlSettings } from '../core/settings.ts';
import { browsertrixConfigFileName, browsertrixConfigYaml } from '../handoff/browsertrix-config.ts';
import { TabcrawlError, type CrawlSummary } from '../messaging/protocol.ts';
import type { ResultsViewName } from '../messaging/routes.ts';
import { fromSettings, toSettings } from '../settings/settings-values.ts';
import { loadDefaultSettings, loadSiteSettings, saveSiteSettings } from '../settings/site-settings.ts';
import type { PopupDeps } from './deps.ts';
import { describeError, errorSentence } from './crawl-text.ts';
import { httpOrigin } from '../core/url/normalize-url.ts';
import { parseStartForm, splitErrors, startRequestSettings, type StartFormValues } from './start-form.ts';
import { pickCrawlFor } from './pick-crawl.ts';
import type { PopupScreen, PopupStore } from './popup-state.ts';
import type { CrawlAction } from './use-crawl.ts';
import type { StartRefusal } from './use-start-refusal.ts';

/** The crawl the popup shows, as `use-crawl.ts` keeps it. */
export interface ShownCrawlPort {
  /** The crawl shown now, or null. */
  current: () => CrawlSummary | null;
  /** Shows this crawl (or none) and loads its rows. */
  show: (crawl: CrawlSummary | null) => Promise<void>;
  /** Sends `crawl/<action>` for the crawl shown; its failure shows as the view's error. */
  perform: (action: CrawlAction) => Promise<void>;
}

/** Everything the popup's actions work through. */
export interface PopupPorts {
  deps: PopupDeps;
  store: PopupStore;
  crawl: ShownCrawlPort;
  /** Sets (or clears) the refusal of the last Start. */
  setRefusal: (refusal: StartRefusal | null) => void;
}

/** The banner when the user (or Chrome) refused access to the site: nothing was started. */
export function accessRefusedMessage(settings: Pick<CrawlSettings, 'startUrl' | 'includeSubdomains'>): string {
  const sites = hostAccessPatterns(settings).map((pattern) => pattern.replace(/\/\*$/, ''));
  return `Tabcrawl needs access to ${sites.join(', ')} to crawl it, and did not get it. Nothing was started.`;
}

/**
 * On open: the tab's site fills the form with its remembered settings (else the defaults), and the
 * newest crawl of that site is shown. Reads nothing into the state once `isCancelled()` (the popup is gone).
 */
export async function loadOnOpen({ deps, store, crawl }: PopupPorts, isCancelled: () => boolean): Promise<void> {
  const { send, currentTabUrl, settingsStorage } = deps;
  try {
    const tabUrl = currentTabUrl().catch(() => null);
    const remembered = tabUrl.then((url) => {
      const site = httpOrigin(url);
      return site === null ? loadDefaultSettings(settingsStorage) : loadSiteSettings(settingsStorage, site);
    });
    const [tab, listing, settings] = await Promise.allSettled([tabUrl, send('crawl/list', {}), remembered]);
    if (isCancelled()) return;
    const origin = httpOrigin(tab.status === 'fulfilled' ? tab.value : null);
    store.dispatch({ type: 'tab-read', origin });
    if (settings.status === 'fulfilled') {
      store.dispatch({ type: 'remembered-read', settings: fromSettings(settings.value) });
    } else {
      store.dispatch({
        type: 'banner',
        text: `Could not read the remembered settings: ${describeError(settings.reason)}`,
      });
    }
    if (listing.status === 'rejected') {
      store.dispatch({ type: 'banner', text: `Could not list earlier crawls: ${describeError(listing.reason)}` });
    } else if (origin !== null) {
      const newest = pickCrawlFor(listing.value.crawls, origin);
      if (newest !== null) await crawl.show(newest);
    }
  } finally {
    if (!isCancelled()) store.dispatch({ type: 'loaded' });
  }
}

/** The user changed the form; a new start URL makes the last refusal (about the URL refused) go. */
export function editForm({ store, setRefusal }: PopupPorts, next: StartFormValues): void {
  if (next.startUrl !== store.getState().values.startUrl) setRefusal(null);
  store.dispatch({ type: 'form-edited', values: next });
}

/** Whether Chrome lets Tabcrawl crawl these settings' site; asks the user when it does not. False when asking failed. */
export async function requestAccess(
  deps: Pick<PopupDeps, 'requestHostAccess'>,
  settings: Pick<CrawlSettings, 'startUrl' | 'includeSubdomains'>,
): Promise<boolean> {
  try {
    return await deps.requestHostAccess(hostAccessPatterns(settings));
  } catch {
    return false;
  }
}

/**
 * Start: checks the form (nothing is sent, and no access asked for, for a crawl that could not start),
 * asks for access to the site, sends `crawl/start`, shows the crawl and remembers its settings for
 * its site. A refusal because another crawl is in the way becomes the refusal; one on fields, their messages.
 */
export async function startCrawl(ports: PopupPorts): Promise<void> {
  const { deps, store, crawl, setRefusal } = ports;
  const { values } = store.getState();
  const result = validateSettings(parseStartForm(values));
  // The background checks the same again.
  const problem = result.ok ? startUrlProblem(withSessionGuard(result.settings)) : null;
  if (!result.ok || problem !== null) {
    const { fields, other } = splitErrors(result.ok ? (problem === null ? [] : [problem]) : result.errors);
    store.dispatch({ type: 'field-errors', fields });
    store.dispatch({ type: 'banner', text: other.length > 0 ? other.join('; ') : null });
    return;
  }
  store.dispatch({ type: 'start-sent' });
  setRefusal(null);
  try {
    // Asked first, while the click still counts as a user gesture: Chrome shows its prompt only then.
    if (!(await requestAccess(deps, result.settings))) {
      store.dispatch({ type: 'banner', text: accessRefusedMessage(result.settings) });
      return;
    }
    const reply = await deps.send('crawl/start', { settings: startRequestSettings(result.settings) });
    store.dispatch({ type: 'started' });
    await crawl.show(reply.crawl);
    await rememberSettings(ports, result.settings.startUrl, values);
  } catch (err) {
    if (err instanceof TabcrawlError && err.code === 'already-running' && err.crawlId !== null) {
      setRefusal({ message: errorSentence(err), crawl: null, crawlId: err.crawlId });
    } else if (err instanceof TabcrawlError && err.fields.length > 0) {
      const { fields, other } = splitErrors(err.fields);
      store.dispatch({ type: 'field-errors', fields });
      store.dispatch({
        type: 'banner',
        text: other.length > 0 ? other.join('; ') : Object.keys(fields).length > 0 ? null : err.message,
      });
    } else {
      store.dispatch({ type: 'banner', text: errorSentence(err) });
    }
  } finally {
    store.dispatch({ type: 'start-over' });
  }
}

/** Remembers the form's settings (those given; an empty field keeps following the defaults) for the site of a started crawl. */
export async function rememberSettings(
  { deps, store }: PopupPorts,
  startUrl: string,
  values: StartFormValues,
): Promise<void> {
  try {
    const saved = await saveSiteSettings(deps.settingsStorage, startUrl, toSettings(values.settings));
    if (!saved.ok)
      store.dispatch({
        type: 'banner',
        text: `Could not remember these settings: ${saved.errors.map((error) => error.message).join('; ')}`,
      });
  } catch (err) {
    store.dispatch({ type: 'banner', text: `Could not remember these settings: ${describeError(err)}` });
  }
}

/** Pause, resume or stop the shown crawl; a resume first makes sure Tabcrawl still has access to the site. */
export async function actOnCrawl({ deps, store, crawl }: PopupPorts, action: CrawlAction): Promise<void> {
  const shown = crawl.current();
  if (action === 'resume' && shown !== null && !(await requestAccess(deps, shown.settings))) {
    store.dispatch({ type: 'banner', text: accessRefusedMessage(shown.settings) });
    return;
  }
  await crawl.perform(action);
}

/** Stops the paused crawl of this site, then starts the form's crawl: nothing is left stranded. */
export async function stopAndStart(ports: PopupPorts): Promise<void> {
  await ports.crawl.perform('stop');
  await startCrawl(ports);
}

/** Stops the crawl in the way of the last Start, then starts the form's crawl again. */
export async function stopBlockerAndStart(ports: PopupPorts, crawlId: string): Promise<void> {
  try {
    await ports.deps.send('crawl/stop', { crawlId });
  } catch (err) {
    ports.store.dispatch({ type: 'banner', text: `Could not stop that crawl: ${describeError(err)}` });
    return;
  }
  await startCrawl(ports);
}

/** Reads every stored crawl into the Crawls view; on failure the list is empty and a banner says why. */
export async function loadCrawls({ deps, store }: Pick<PopupPorts, 'deps' | 'store'>): Promise<void> {
  try {
    store.dispatch({ type: 'crawls-listed', crawls: (await deps.send('crawl/list', {})).crawls });
  } catch (err) {
    store.dispatch({ type: 'crawls-listed', crawls: [] });
    store.dispatch({ type: 'banner', text: `Could not list the crawls: ${describeError(err)}` });
  }
}

/** Shows this screen; the Crawls view is read anew each time it opens. */
export async function openScreen(ports: PopupPorts, next: PopupScreen): Promise<void> {
  ports.store.dispatch({ type: 'screen-opened', screen: next });
  if (next === 'crawls') await loadCrawls(ports);
}

/** Shows a crawl picked in the Crawls list (or the one in the way of a Start) on the site screen. */
export async function openCrawl({ store, crawl }: PopupPorts, picked: CrawlSummary): Promise<void> {
  store.dispatch({ type: 'crawl-opened' });
  await crawl.show(picked);
}

/** Opens the results page of a crawl in a new tab, on this view. */
export async function openInTab(
  { deps, store }: PopupPorts,
  crawlId: string,
  view: ResultsViewName = 'table',
): Promise<void> {
  try {
    await deps.openResultsTab(crawlId, view);
  } catch (err) {
    store.dispatch({ type: 'banner', text: `Could not open the results page: ${describeError(err)}` });
  }
}

/** Opens the import page in a new tab (nothing without `openImportTab`). */
export async function openArchive({ deps, store }: PopupPorts): Promise<void> {
  try {
    await deps.openImportTab?.();
  } catch (err) {
    store.dispatch({ type: 'banner', text: `Could not open the import page: ${describeError(err)}` });
  }
}

/** Runs a stored crawl again (access asked first) and shows the new crawl on the site screen. */
export async function rerunCrawl({ deps, store, crawl }: PopupPorts, picked: CrawlSummary): Promise<void> {
  store.dispatch({ type: 'busy', crawlId: picked.id });
  store.dispatch({ type: 'banner', text: null });
  try {
    if (!(await requestAccess(deps, picked.settings))) {
      store.dispatch({ type: 'banner', text: accessRefusedMessage(picked.settings) });
      return;
    }
    const reply = await deps.send('crawl/rerun', { crawlId: picked.id });
    store.dispatch({ type: 'rerun-shown' });
    await crawl.show(reply.crawl);
  } catch (err) {
    store.dispatch({ type: 'banner', text: errorSentence(err) });
  } finally {
    store.dispatch({ type: 'busy', crawlId: null });
  }
}

/** Deletes a stored crawl: it leaves the list, and the site screen when it was shown there. */
export async function deleteCrawl({ deps, store, crawl }: PopupPorts, picked: CrawlSummary): Promise<void> {
  store.dispatch({ type: 'busy', crawlId: picked.id });
  store.dispatch({ type: 'banner', text: null });
  try {
    await deps.send('crawl/delete', { crawlId: picked.id });
    store.dispatch({ type: 'crawl-deleted', crawlId: picked.id });
    if (crawl.current()?.id === picked.id) await crawl.show(null);
  } catch (err) {
    store.dispatch({ type: 'banner', text: `Could not delete the crawl: ${describeError(err)}` });
  } finally {
    store.dispatch({ type: 'busy', crawlId: null });
  }
}

/** Saves a stored crawl as a Browsertrix Crawler config (nothing without `saveConfig`). */
export async function saveBrowsertrixConfig({ deps, store }: PopupPorts, picked: CrawlSummary): Promise<void> {
  const { saveConfig } = deps;
  if (saveConfig === undefined) return;
  store.dispatch({ type: 'banner', text: null });
  try {
    const text = browsertrixConfigYaml({
      settings: picked.settings,
      version: deps.tabcrawlVersion ?? 'unknown',
      createdAt: picked.createdAt,
    });
    await saveConfig(browsertrixConfigFileName(picked), text);
  } catch (err) {
    store.dispatch({ type: 'banner', text: `Could not save the Browsertrix config: ${describeError(err)}` });
  }
}

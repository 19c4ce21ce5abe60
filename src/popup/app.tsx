/**
 * The popup: the Start form for the current tab's site, then that site's
 * newest crawl with its progress, hosts, issues (once it is not running) and
 * latest rows; and the Crawls view, which lists every stored crawl (open,
 * open in tab, re-run, delete).
 *
 * The Start form offers every crawl option. On open it shows the settings
 * remembered for the tab's site (else the user's defaults from the options
 * page); a started crawl's settings are remembered for its site.
 *
 * Platform-free: everything it needs from the browser comes in `deps`, so
 * tests render it in a plain page with a fake `send` and a memory storage.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { hostAccessPatterns, startUrlProblem } from '../core/crawl/crawl-lifecycle.ts';
import { validateSettings, withSessionGuard, type CrawlSettings } from '../core/settings.ts';
import { browsertrixConfigFileName, browsertrixConfigYaml } from '../handoff/browsertrix-config.ts';
import { TabcrawlError, type CrawlSummary } from '../messaging/protocol.ts';
import type { ResultsViewName } from '../messaging/routes.ts';
import { fromSettings, toSettings } from '../settings/settings-values.ts';
import { loadDefaultSettings, loadSiteSettings, saveSiteSettings } from '../settings/site-settings.ts';
import { CrawlForm, hiddenErrorCount } from './crawl-form.tsx';
import { CrawlProgress } from './crawl-progress.tsx';
import { CrawlsList } from './crawls-list.tsx';
import { DEFAULT_POLL_MS, type PopupDeps } from './deps.ts';
import { ExportMenu } from './export-menu.tsx';
import { IssuesSummary } from './issues-summary.tsx';
import { useStartRefusal } from './use-start-refusal.ts';
import {
  defaultStartForm,
  describeError,
  errorSentence,
  httpOrigin,
  parseStartForm,
  pickCrawlFor,
  splitErrors,
  startRequestSettings,
  type StartFormErrors,
  type StartFormValues,
} from './format.ts';
import { ResultsTable } from './results-table.tsx';
import { useCrawl, type CrawlAction } from './use-crawl.ts';

export const NOT_A_SITE_NOTE = 'This tab is not a web site; type a URL to crawl';

/** The banner when the user (or Chrome) refused access to the site: nothing was started. */
export function accessRefusedMessage(settings: Pick<CrawlSettings, 'startUrl' | 'includeSubdomains'>): string {
  const sites = hostAccessPatterns(settings).map((pattern) => pattern.replace(/\/\*$/, ''));
  return `Tabcrawl needs access to ${sites.join(', ')} to crawl it, and did not get it. Nothing was started.`;
}

/** What the popup shows: the tab's site (form and crawl) or the list of every crawl. */
export type PopupScreen = 'site' | 'crawls';

export interface AppProps {
  deps: PopupDeps;
}

/** Re-renders every second while `isTicking`, for the countdowns and the run time; returns the time. */
function useTick(now: () => number, isTicking: boolean): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!isTicking) return undefined;
    const timer = setInterval(() => setTick((tick) => tick + 1), TICK_MS);
    return () => clearInterval(timer);
  }, [isTicking]);
  return now();
}

/** Time between two re-renders of a running crawl's countdowns, in ms (no request is made). */
const TICK_MS = 1000;

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

export function App({ deps }: AppProps) {
  const { send, currentTabUrl, settingsStorage, onEvent } = deps;
  const now = deps.now ?? Date.now;
  const view = useCrawl(send, deps.pollMs ?? DEFAULT_POLL_MS, deps.onEvent, now);
  const { show } = view;

  const [values, setValues] = useState<StartFormValues>(defaultStartForm);
  const [fieldErrors, setFieldErrors] = useState<StartFormErrors>({});
  const [isMoreOpen, setMoreOpen] = useState(false);
  /** Bumped to take the keyboard to the first field with a problem. */
  const [focusRequest, setFocusRequest] = useState(0);
  const [banner, setBanner] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [isLoading, setLoading] = useState(true);
  const [isStarting, setStarting] = useState(false);
  /** The user typed in the start URL field: the tab's URL must not overwrite it. */
  const hasEditedUrl = useRef(false);
  /** The user changed a setting: the remembered settings must not overwrite it. */
  const hasEditedSettings = useRef(false);
  const startUrlRef = useRef<HTMLInputElement>(null);
  const [screen, setScreen] = useState<PopupScreen>('site');
  /** Every stored crawl for the Crawls view; null until loaded. */
  const [crawls, setCrawls] = useState<CrawlSummary[] | null>(null);
  /** The crawl of the Crawls view with a request in flight. */
  const [busyId, setBusyId] = useState<string | null>(null);
  /** The user opened the Start form while a crawl runs (it is folded away then). */
  const [isFormWanted, setFormWanted] = useState(false);
  /** The background's refusal of the last Start because another crawl is in the way; null when none holds. */
  const [refusal, setRefusal] = useStartRefusal(send, deps.pollMs ?? DEFAULT_POLL_MS, onEvent);

  // On open: the tab's site fills the form with its remembered settings, and the newest crawl of that site is shown.
  useEffect(() => {
    let isCancelled = false;
    const load = async (): Promise<void> => {
      const tabUrl = currentTabUrl().catch(() => null);
      const remembered = tabUrl.then((url) => {
        const site = httpOrigin(url);
        return site === null ? loadDefaultSettings(settingsStorage) : loadSiteSettings(settingsStorage, site);
      });
      const [tab, listing, settings] = await Promise.allSettled([tabUrl, send('crawl/list', {}), remembered]);
      if (isCancelled) return;
      const origin = httpOrigin(tab.status === 'fulfilled' ? tab.value : null);
      if (origin === null) setNote(NOT_A_SITE_NOTE);
      else if (!hasEditedUrl.current) setValues((current) => ({ ...current, startUrl: `${origin}/` }));
      if (settings.status === 'fulfilled') {
        if (!hasEditedSettings.current) setValues((current) => ({ ...current, settings: fromSettings(settings.value) }));
      } else {
        setBanner(`Could not read the remembered settings: ${describeError(settings.reason)}`);
      }
      if (listing.status === 'rejected') {
        setBanner(`Could not list earlier crawls: ${describeError(listing.reason)}`);
      } else if (origin !== null) {
        const crawl = pickCrawlFor(listing.value.crawls, origin);
        if (crawl !== null) await show(crawl);
      }
    };
    void load().finally(() => {
      if (!isCancelled) setLoading(false);
    });
    return () => {
      isCancelled = true;
    };
  }, [currentTabUrl, send, show, settingsStorage]);

  const onChange = (next: StartFormValues): void => {
    if (next.startUrl !== values.startUrl) {
      hasEditedUrl.current = true;
      // The note is about the tab, a refusal about the URL refused: once a URL is typed they no longer apply.
      setNote(null);
      setRefusal(null);
    }
    if (next.settings !== values.settings) hasEditedSettings.current = true;
    setValues(next);
  };

  /** Shows these messages next to their fields, opening the disclosure when one of its fields has one. */
  const showFieldErrors = (fields: StartFormErrors): void => {
    setFieldErrors(fields);
    if (hiddenErrorCount(fields) > 0) setMoreOpen(true);
    setFocusRequest((count) => count + 1);
  };

  const onSubmit = async (): Promise<void> => {
    const result = validateSettings(parseStartForm(values));
    // The background checks the same again; checked here too so that nothing is sent, and no
    // access is asked for, for a crawl that could not start.
    const problem = result.ok ? startUrlProblem(withSessionGuard(result.settings)) : null;
    if (!result.ok || problem !== null) {
      const { fields, other } = splitErrors(result.ok ? (problem === null ? [] : [problem]) : result.errors);
      showFieldErrors(fields);
      setBanner(other.length > 0 ? other.join('; ') : null);
      return;
    }
    setFieldErrors({});
    setBanner(null);
    setRefusal(null);
    setStarting(true);
    try {
      // Asked first, while the click still counts as a user gesture: Chrome shows its prompt only then.
      if (!(await requestAccess(result.settings))) {
        setBanner(accessRefusedMessage(result.settings));
        return;
      }
      const reply = await send('crawl/start', { settings: startRequestSettings(result.settings) });
      setNote(null);
      setFormWanted(false);
      await show(reply.crawl);
      await remember(result.settings.startUrl);
    } catch (err) {
      if (err instanceof TabcrawlError && err.code === 'already-running' && err.crawlId !== null) {
        setRefusal({ message: errorSentence(err), crawl: null, crawlId: err.crawlId });
      } else if (err instanceof TabcrawlError && err.fields.length > 0) {
        const { fields, other } = splitErrors(err.fields);
        showFieldErrors(fields);
        setBanner(other.length > 0 ? other.join('; ') : Object.keys(fields).length > 0 ? null : err.message);
      } else {
        setBanner(errorSentence(err));
      }
    } finally {
      setStarting(false);
    }
  };

  /** Whether Chrome lets Tabcrawl crawl these settings' site; asks the user when it does not. False when asking failed. */
  const requestAccess = async (settings: Pick<CrawlSettings, 'startUrl' | 'includeSubdomains'>): Promise<boolean> => {
    try {
      return await deps.requestHostAccess(hostAccessPatterns(settings));
    } catch {
      return false;
    }
  };

  /** Pause, resume or stop the shown crawl; a resume first makes sure Tabcrawl still has access to the site. */
  const onCrawlAction = async (action: CrawlAction): Promise<void> => {
    const shown = view.crawl;
    if (action === 'resume' && shown !== null && !(await requestAccess(shown.settings))) {
      setBanner(accessRefusedMessage(shown.settings));
      return;
    }
    await view.perform(action);
  };

  /** Remembers the form's settings (those given; an empty field keeps following the defaults) for the site of a started crawl. */
  const remember = async (startUrl: string): Promise<void> => {
    try {
      const saved = await saveSiteSettings(settingsStorage, startUrl, toSettings(values.settings));
      if (!saved.ok) setBanner(`Could not remember these settings: ${saved.errors.map((error) => error.message).join('; ')}`);
    } catch (err) {
      setBanner(`Could not remember these settings: ${describeError(err)}`);
    }
  };

  const onNewCrawl = (): void => {
    setFormWanted(true);
    // The form may be folded away: focus it once it is shown.
    setTimeout(() => {
      const input = startUrlRef.current;
      input?.focus();
      input?.select();
    }, 0);
  };

  /** Stops the paused crawl of this site, then starts the form's crawl: nothing is left stranded. */
  const onStopAndStart = async (): Promise<void> => {
    await view.perform('stop');
    await onSubmit();
  };

  /** Stops the crawl in the way of the last Start, then starts the form's crawl again. */
  const onStopBlockerAndStart = async (crawlId: string): Promise<void> => {
    try {
      await send('crawl/stop', { crawlId });
    } catch (err) {
      setBanner(`Could not stop that crawl: ${describeError(err)}`);
      return;
    }
    await onSubmit();
  };

  const loadCrawls = useCallback(async (): Promise<void> => {
    try {
      setCrawls((await send('crawl/list', {})).crawls);
    } catch (err) {
      setCrawls([]);
      setBanner(`Could not list the crawls: ${describeError(err)}`);
    }
  }, [send]);

  const openScreen = (next: PopupScreen): void => {
    setBanner(null);
    setScreen(next);
    if (next === 'crawls') {
      setCrawls(null);
      void loadCrawls();
    }
  };

  const onOpenCrawl = (picked: CrawlSummary): void => {
    setBanner(null);
    setScreen('site');
    setFormWanted(false);
    void show(picked);
  };

  // The Crawls view follows the background's events too: a crawl that ends or is deleted elsewhere shows so.
  useEffect(() => {
    if (screen !== 'crawls' || onEvent === undefined) return undefined;
    return onEvent('crawl/changed', () => void loadCrawls());
  }, [screen, onEvent, loadCrawls]);

  const openInTab = async (crawlId: string, resultsView: ResultsViewName = 'table'): Promise<void> => {
    try {
      await deps.openResultsTab(crawlId, resultsView);
    } catch (err) {
      setBanner(`Could not open the results page: ${describeError(err)}`);
    }
  };

  const { openImportTab } = deps;
  const openArchive = async (): Promise<void> => {
    try {
      await openImportTab?.();
    } catch (err) {
      setBanner(`Could not open the import page: ${describeError(err)}`);
    }
  };

  const onRerun = async (picked: CrawlSummary): Promise<void> => {
    setBusyId(picked.id);
    setBanner(null);
    try {
      if (!(await requestAccess(picked.settings))) {
        setBanner(accessRefusedMessage(picked.settings));
        return;
      }
      const reply = await send('crawl/rerun', { crawlId: picked.id });
      setScreen('site');
      await show(reply.crawl);
    } catch (err) {
      setBanner(errorSentence(err));
    } finally {
      setBusyId(null);
    }
  };

  const onDelete = async (picked: CrawlSummary): Promise<void> => {
    setBusyId(picked.id);
    setBanner(null);
    try {
      await send('crawl/delete', { crawlId: picked.id });
      setCrawls((current) => current?.filter((c) => c.id !== picked.id) ?? null);
      if (view.crawl?.id === picked.id) await show(null);
    } catch (err) {
      setBanner(`Could not delete the crawl: ${describeError(err)}`);
    } finally {
      setBusyId(null);
    }
  };

  const { saveConfig } = deps;
  const onBrowsertrixConfig = async (picked: CrawlSummary): Promise<void> => {
    if (saveConfig === undefined) return;
    setBanner(null);
    try {
      const text = browsertrixConfigYaml({ settings: picked.settings, version: deps.tabcrawlVersion ?? 'unknown', createdAt: picked.createdAt });
      await saveConfig(browsertrixConfigFileName(picked), text);
    } catch (err) {
      setBanner(`Could not save the Browsertrix config: ${describeError(err)}`);
    }
  };

  const { crawl } = view;
  const isRunning = crawl?.state === 'running';
  const errorText = banner ?? refusal?.message ?? view.error;
  const shownAt = useTick(now, isRunning);
  const blockedReason = startBlockedReason(crawl, values.startUrl);
  // While a crawl of the site runs or is paused, it comes first and the Start form folds away.
  const isCrawlFirst = crawl !== null && (crawl.state === 'running' || crawl.state === 'paused');
  const isFormShown = !isCrawlFirst || isFormWanted;

  return (
    <main class="popup">
      <header class="popup-head">
        <h1 class="title">Tabcrawl</h1>
        <nav class="views" aria-label="Views">
          <button type="button" data-testid="view-site" aria-pressed={screen === 'site'} onClick={() => openScreen('site')}>
            This site
          </button>
          <button type="button" data-testid="view-crawls" aria-pressed={screen === 'crawls'} onClick={() => openScreen('crawls')}>
            Crawls
          </button>
        </nav>
      </header>
      {errorText !== null && screen === 'crawls' && (
        <p class="banner" role="alert">
          {errorText}
        </p>
      )}
      {screen === 'crawls' ? (
        <CrawlsList
          crawls={crawls}
          busyId={busyId}
          onOpen={onOpenCrawl}
          onOpenInTab={(picked) => void openInTab(picked.id)}
          onRerun={(picked) => void onRerun(picked)}
          onDelete={(picked) => void onDelete(picked)}
          onBrowsertrixConfig={saveConfig === undefined ? undefined : (picked) => void onBrowsertrixConfig(picked)}
          onOpenArchive={openImportTab === undefined ? undefined : () => void openArchive()}
        />
      ) : (
        <>
          {isFormShown ? (
            <CrawlForm
              values={values}
              errors={fieldErrors}
              note={note}
              isStarting={isStarting}
              isStartDisabled={blockedReason !== null}
              isMoreOpen={isMoreOpen}
              onMoreOpenChange={setMoreOpen}
              focusRequest={focusRequest}
              disabledReason={blockedReason}
              startUrlRef={startUrlRef}
              onChange={onChange}
              onSubmit={() => void onSubmit()}
            />
          ) : null}
          {isFormShown && crawl?.state === 'paused' && blockedReason !== null && (
            <button type="button" class="link" data-testid="stop-and-start" disabled={view.pendingAction !== null} onClick={() => void onStopAndStart()}>
              Stop the paused crawl and start anew
            </button>
          )}
          {errorText !== null && (
            <p class="banner" role="alert">
              {errorText}
            </p>
          )}
          {banner === null && refusal !== null && (
            <p class="refusal-choices">
              <button
                type="button"
                class="link"
                data-testid="stop-blocker-and-start"
                disabled={isStarting}
                onClick={() => void onStopBlockerAndStart(refusal.crawlId)}
              >
                {refusal.crawl?.state === 'paused' ? 'Stop that paused crawl and start anew' : 'Stop that crawl and start anew'}
              </button>
              {refusal.crawl !== null && refusal.crawl.id !== crawl?.id && (
                <button type="button" class="link" data-testid="show-blocker" onClick={() => refusal.crawl !== null && onOpenCrawl(refusal.crawl)}>
                  Show that crawl
                </button>
              )}
            </p>
          )}
          {crawl !== null ? (
            <>
              <CrawlProgress
                crawl={crawl}
                hosts={view.hosts}
                pendingAction={view.pendingAction}
                now={shownAt}
                readAt={view.readAt}
                onAction={(action) => void onCrawlAction(action)}
                onNewCrawl={onNewCrawl}
                onOpenInTab={() => void openInTab(crawl.id)}
                onOpenNotCrawled={() => void openInTab(crawl.id, 'not-crawled')}
              >
                <ExportMenu crawlId={crawl.id} rowCount={crawl.counts.done} onExport={deps.openExportTab} />
              </CrawlProgress>
              {hasIssuesSummary(crawl) && <IssuesSummary crawl={crawl} send={send} onOpenIssues={() => void openInTab(crawl.id, 'issues')} />}
              {!isFormShown && (
                <button type="button" class="link" data-testid="show-start-form" onClick={onNewCrawl}>
                  Start another crawl…
                </button>
              )}
              <ResultsTable pages={view.pages} origin={httpOrigin(crawl.settings.startUrl)} isOver={crawl.state !== 'running' && crawl.state !== 'paused'} />
            </>
          ) : (
            isLoading && (
              <p class="loading" aria-busy="true">
                Looking for earlier crawls…
              </p>
            )
          )}
        </>
      )}
    </main>
  );
}

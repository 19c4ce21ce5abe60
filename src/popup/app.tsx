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
 * Layout only: the state and what the popup does are in `popup-state.ts`
 * and `popup-actions.ts`, kept by `use-popup.ts`; the site screen is
 * `site-screen.tsx`.
 *
 * Platform-free: everything it needs from the browser comes in `deps`, so
 * tests render it in a plain page with a fake `send` and a memory storage.
 */
import { CrawlsList } from './crawls-list.tsx';
import type { PopupDeps } from './deps.ts';
import { SiteScreen } from './site-screen.tsx';
import { PopupContext, usePopup } from './use-popup.ts';

export interface AppProps {
  deps: PopupDeps;
}

export function App({ deps }: AppProps) {
  const popup = usePopup(deps);
  const { state, refusal, view, act } = popup;
  const { screen } = state;
  const errorText = state.banner ?? refusal?.message ?? view.error;
  const { saveConfig, openImportTab } = deps;

  return (
    <PopupContext.Provider value={popup}>
      <main class="popup">
        <header class="popup-head">
          <h1 class="title">Tabcrawl</h1>
          <nav class="views" aria-label="Views">
            <button
              type="button"
              data-testid="view-site"
              aria-pressed={screen === 'site'}
              onClick={() => void act.openScreen('site')}
            >
              This site
            </button>
            <button
              type="button"
              data-testid="view-crawls"
              aria-pressed={screen === 'crawls'}
              onClick={() => void act.openScreen('crawls')}
            >
              Crawls
            </button>
          </nav>
        </header>
        {screen === 'crawls' ? (
          <>
            {errorText !== null && (
              <p class="banner" role="alert">
                {errorText}
              </p>
            )}
            <CrawlsList
              crawls={state.crawls}
              busyId={state.busyId}
              onOpen={(picked) => void act.openCrawl(picked)}
              onOpenInTab={(picked) => void act.openInTab(picked.id)}
              onRerun={(picked) => void act.rerun(picked)}
              onDelete={(picked) => void act.delete(picked)}
              onBrowsertrixConfig={
                saveConfig === undefined ? undefined : (picked) => void act.saveBrowsertrixConfig(picked)
              }
              onOpenArchive={openImportTab === undefined ? undefined : () => void act.openArchive()}
            />
          </>
        ) : (
          <SiteScreen deps={deps} errorText={errorText} />
        )}
      </main>
    </PopupContext.Provider>
  );
}

/**
 * The popup's *This site* screen, laid out from the state `use-popup.ts`
 * keeps: the Start form (folded away while a crawl of the site runs or is
 * paused, unless asked for), the banner and a refused Start's choices, then
 * the crawl shown with its progress, issues and latest rows.
 */
import { useRef } from 'preact/hooks';
import { CrawlForm } from './crawl-form.tsx';
import { CrawlProgress } from './crawl-progress.tsx';
import type { PopupDeps } from './deps.ts';
import { ExportMenu } from './export-menu.tsx';
import { httpOrigin } from '../core/url/normalize-url.ts';
import { IssuesSummary } from './issues-summary.tsx';
import { hasIssuesSummary, startBlockedReason } from './popup-state.ts';
import { ResultsTable } from './results-table.tsx';
import { usePopupContext } from './use-popup.ts';
import { useTick } from './use-tick.ts';

export interface SiteScreenProps {
  deps: PopupDeps;
  /** The banner's text, or null. */
  errorText: string | null;
}

export function SiteScreen({ deps, errorText }: SiteScreenProps) {
  const { state, view, refusal, act } = usePopupContext();
  const { crawl } = view;
  const startUrlRef = useRef<HTMLInputElement>(null);
  const shownAt = useTick(deps.now ?? Date.now, crawl?.state === 'running');
  const blockedReason = startBlockedReason(crawl, state.values.startUrl);
  // While a crawl of the site runs or is paused, it comes first and the Start form folds away.
  const isCrawlFirst = crawl !== null && (crawl.state === 'running' || crawl.state === 'paused');
  const isFormShown = !isCrawlFirst || state.isFormWanted;
  const onNewCrawl = (): void => {
    act.wantForm();
    // The form may be folded away: focus it once it is shown.
    setTimeout(() => {
      startUrlRef.current?.focus();
      startUrlRef.current?.select();
    }, 0);
  };

  return (
    <>
      {isFormShown ? (
        <CrawlForm
          values={state.values}
          errors={state.fieldErrors}
          note={state.note}
          isStarting={state.isStarting}
          isStartDisabled={blockedReason !== null}
          isMoreOpen={state.isMoreOpen}
          onMoreOpenChange={act.setMoreOpen}
          focusRequest={state.focusRequest}
          disabledReason={blockedReason}
          startUrlRef={startUrlRef}
          onChange={act.editForm}
          onSubmit={() => void act.start()}
          requestRenderPermission={deps.requestRenderPermission}
        />
      ) : null}
      {isFormShown && crawl?.state === 'paused' && blockedReason !== null && (
        <button
          type="button"
          class="link"
          data-testid="stop-and-start"
          disabled={view.pendingAction !== null}
          onClick={() => void act.stopAndStart()}
        >
          Stop the paused crawl and start anew
        </button>
      )}
      {errorText !== null && (
        <p class="banner" role="alert">
          {errorText}
        </p>
      )}
      {state.banner === null && refusal !== null && (
        <p class="refusal-choices">
          <button
            type="button"
            class="link"
            data-testid="stop-blocker-and-start"
            disabled={state.isStarting}
            onClick={() => void act.stopBlockerAndStart(refusal.crawlId)}
          >
            {refusal.crawl?.state === 'paused'
              ? 'Stop that paused crawl and start anew'
              : 'Stop that crawl and start anew'}
          </button>
          {refusal.crawl !== null && refusal.crawl.id !== crawl?.id && (
            <button
              type="button"
              class="link"
              data-testid="show-blocker"
              onClick={() => refusal.crawl !== null && void act.openCrawl(refusal.crawl)}
            >
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
            onAction={(action) => void act.actOnCrawl(action)}
            onNewCrawl={onNewCrawl}
            onOpenInTab={() => void act.openInTab(crawl.id)}
            onOpenNotCrawled={() => void act.openInTab(crawl.id, 'not-crawled')}
          >
            <ExportMenu crawlId={crawl.id} rowCount={crawl.counts.done} onExport={deps.openExportTab} />
          </CrawlProgress>
          {hasIssuesSummary(crawl) && (
            <IssuesSummary crawl={crawl} send={deps.send} onOpenIssues={() => void act.openInTab(crawl.id, 'issues')} />
          )}
          {!isFormShown && (
            <button type="button" class="link" data-testid="show-start-form" onClick={onNewCrawl}>
              Start another crawl…
            </button>
          )}
          <ResultsTable
            pages={view.pages}
            origin={httpOrigin(crawl.settings.startUrl)}
            isOver={crawl.state !== 'running' && crawl.state !== 'paused'}
          />
        </>
      ) : (
        state.isLoading && (
          <p class="loading" aria-busy="true">
            Looking for earlier crawls…
          </p>
        )
      )}
    </>
  );
}

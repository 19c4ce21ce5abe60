/**
 * The background (Chrome's service worker, Firefox's event page): a flat list of registrations. Listeners are added
 * synchronously at the top level, as MV3 requires for events that wake the
 * worker. Everything a crawl needs to continue is in IndexedDB; on every
 * start the worker resumes the crawls that were running.
 */
import browser from 'webextension-polyfill';
import { systemClock } from '../../core/crawl/clock.ts';
import { IMPORT_LOCK } from '../../core/crawl/ports.ts';
import { isMessage, type RequestType } from '../../messaging/protocol.ts';
import { TabcrawlDatabase } from '../../storage/database.ts';
import { DexieCrawlStore } from '../../storage/dexie-crawl-store.ts';
import { DexieRerunStore } from '../../storage/dexie-rerun-store.ts';
import { Badge, type BadgeAction } from './adapters/badge.ts';
import { browserKindOf } from './adapters/browser-differences.ts';
import { withAccessGuard } from './adapters/access-guard.ts';
import { createBrowserFetcher } from './adapters/browser-fetcher.ts';
import { ChromeRenderer } from './adapters/chrome-renderer.ts';
import { closeLeftoverRenderWindows, RenderWindowHost } from './adapters/render-window-host.ts';
import {
  firefoxRenderContainers,
  removeLeftoverRenderContainers,
  renderContainerIds,
} from './adapters/render-containers.ts';
import { RenderSuspension, removeRenderBlockRule } from './adapters/render-suspension.ts';
import { hasDebugger } from './adapters/debugger-target.ts';
import { FirefoxRenderer } from './adapters/firefox-renderer.ts';
import { HeldRequests, withTabRequests } from './adapters/tab-request-fetcher.ts';
import { isNewBrowserSession } from './adapters/browser-session.ts';
import { KeepAlive, WATCHDOG_ALARM } from './adapters/keep-alive.ts';
import { WireObserver } from './adapters/wire-observer.ts';
import { installUserAgentRule } from './adapters/user-agent-rule.ts';
import { crawlerUserAgent } from '../../core/user-agent.ts';
import { CrawlEvents, observeCrawlChanges } from './crawl-events.ts';
import { CrawlManager } from './crawl-manager.ts';
import { createHandlers, dispatch } from './message-handlers.ts';
import { isTrustedSender, pageOriginOf } from './trusted-sender.ts';

/** Requests that change a crawl's state, after which the badge is refreshed. */
const STATE_CHANGES: ReadonlySet<RequestType> = new Set<RequestType>([
  'crawl/start',
  'crawl/stop',
  'crawl/pause',
  'crawl/resume',
  'crawl/rerun',
  'crawl/delete',
  'crawl/imported',
]);

/** Chrome or Firefox: the adapters whose APIs differ ask (see docs/firefox.md). */
const browserKind = browserKindOf(browser.runtime.getURL('/'));
const wire = new WireObserver();
wire.register(browserKind);

// Open pages are told when a crawl changes (the push channel): they read again only then.
const events = new CrawlEvents((message) => browser.runtime.sendMessage(message));
const db = new TabcrawlDatabase();
const store = observeCrawlChanges(new DexieCrawlStore(db), events.changed);
const keepAlive = new KeepAlive();
// Chrome MV3 and Firefox MV3 have `action`; Firefox MV2 only `browserAction`.
const badgeAction: BadgeAction = browser.action ?? browser.browserAction;
const badge = new Badge(badgeAction, store);
/** Tabcrawl itself, as the sender check compares against. */
const self = { id: browser.runtime.id, pagesOrigin: pageOriginOf(browser.runtime.getURL('/')) ?? '' };

/** Whether Chrome gives Tabcrawl access to every one of these match patterns (the user may change site access at any time). */
const hasHostAccess = (patterns: string[]): Promise<boolean> => browser.permissions.contains({ origins: patterns });
const hasAccess = (pattern: string): Promise<boolean> => hasHostAccess([pattern]);

const userAgent = crawlerUserAgent(browser.runtime.getManifest().version);
/**
 * Firefox renders through the network (docs/rendering-firefox.md): a render tab's held request of a URL the
 * crawl fetches is let go as that fetch (`withTabRequests`), so both fetchers take the tabs' held requests.
 */
const heldRequests = new HeldRequests();
const tabAware = (fetcher: ReturnType<typeof createBrowserFetcher>): ReturnType<typeof createBrowserFetcher> =>
  browserKind === 'firefox' ? withTabRequests(fetcher, heldRequests) : fetcher;

/**
 * The render tabs open in one window for the worker (render-window-host.ts says why): minimized in Chrome,
 * normal in Firefox (which throttles a minimized page's timers).
 */
const renderWindows =
  browserKind === 'firefox'
    ? new RenderWindowHost(undefined, 'normal', firefoxRenderContainers)
    : new RenderWindowHost(undefined, 'minimized');

/**
 * Firefox suspends its event page when idle (or when told to): the renders under way then stop at once, their
 * tabs' requests cancelled and blocked, so that none goes out when the page's listeners go (render-suspension.ts).
 */
const renderSuspension = new RenderSuspension();
if (browserKind === 'firefox') renderSuspension.watch();

const manager = new CrawlManager({
  store,
  // Two fetchers: crawls never carry the user's cookies unless started with `withCookies`.
  // Both ask Chrome first whether the site is still reachable: site access can be withdrawn mid-crawl.
  fetcher: withAccessGuard(tabAware(createBrowserFetcher(wire, Date.now, 'omit')), hasAccess),
  sessionFetcher: withAccessGuard(tabAware(createBrowserFetcher(wire, Date.now, 'include')), hasAccess),
  // The user may restrict Tabcrawl's site access in Chrome; a crawl starts only where it has access.
  hasHostAccess,
  clock: systemClock,
  // Each render has a renderer and a tab of its own: two crawls may render at once. Chrome renders with
  // chrome.debugger, in tabs of one minimized window; Firefox with its blocking webRequest, through the network (docs/rendering-firefox.md).
  renderer: hasDebugger()
    ? { render: (job) => new ChromeRenderer(renderWindows).render(job) }
    : browserKind === 'firefox'
      ? {
          answers: 'network',
          render: (job) => new FirefoxRenderer(heldRequests, userAgent, renderWindows, renderSuspension).render(job),
        }
      : null,
  runId: crypto.randomUUID(),
  newId: () => crypto.randomUUID(),
  onActiveChange: (active) => {
    void keepAlive.set(active);
    badge.setActive(active);
  },
});
const handlers = createHandlers(store, manager, systemClock, new DexieRerunStore(db));

browser.runtime.onMessage.addListener((message: unknown, sender: browser.Runtime.MessageSender) => {
  if (!isMessage(message)) return undefined;
  if (!isTrustedSender(sender, self)) {
    return Promise.resolve({
      ok: false,
      error: { code: 'forbidden', message: 'messages are accepted only from Tabcrawl pages' },
    });
  }
  const reply = dispatch(handlers, message);
  // A paused or deleted crawl has no runner to report its end: refresh the badge after every change of state.
  if (STATE_CHANGES.has(message.type)) {
    void reply.finally(() => void badge.refresh());
  }
  return reply;
});

browser.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === WATCHDOG_ALARM) void manager.resumeAll();
});
// Registered so that the browser starts the worker when it starts: a running crawl goes on at once
// (the work itself is done below, at every worker start).
browser.runtime.onStartup.addListener(() => undefined);

void installUserAgentRule(userAgent).catch((error: unknown) =>
  console.error('could not set the crawl User-Agent', error),
);
// On every worker start: resume running crawls, noting the interruption on each when the browser restarted;
// first sweep the rows and bodies an import left without its crawl record when its page was closed mid-import.
// Queued before any message is handled: a crawl started meanwhile waits, and is not taken for an interrupted one.
void manager.workerStarted(async () => {
  const isNew = await isNewBrowserSession().catch(() => false);
  // A worker stopped mid-render left its window open: closed before the crawl renders that page again.
  await closeLeftoverRenderWindows(renderContainerIds).catch(() => 0);
  // And, in Firefox, the containers of its render tabs, with what their pages stored, and the rule that blocked
  // those tabs while the page was suspended.
  await removeLeftoverRenderContainers().catch(() => 0);
  if (browserKind === 'firefox') await removeRenderBlockRule();
  await sweepUnfinishedImports(isNew).catch((error: unknown) =>
    console.error('could not clear unfinished imports', error),
  );
  return isNew;
});

/**
 * Removes what imports cut short left (`deleteOrphans`), never the rows of an import under way: only while no
 * import page holds the import lock (Web Locks); without Web Locks, only at a browser's (or the extension's)
 * start, when no import can be running yet.
 */
async function sweepUnfinishedImports(isNewSession: boolean): Promise<void> {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  if (locks === undefined) {
    if (isNewSession) await store.deleteOrphans();
    return;
  }
  await locks.request(IMPORT_LOCK, { ifAvailable: true }, async (lock) => {
    if (lock !== null) await store.deleteOrphans();
  });
}
void badge.refresh();

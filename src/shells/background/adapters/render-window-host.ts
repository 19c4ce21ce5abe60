/**
 * The window the render tabs open in (Chrome's and Firefox's), and its lifecycle: one unfocused window for
 * the worker (minimized in Chrome), opened by the first render, a new tab in it for each page (closed when
 * the page is read), and the window closed once no render has used it for {@link RenderWindowHost}'s idle time.
 *
 * Why one window and not a window a page: each browser window Chrome opens grows the memory of its
 * top-level WebUI renderer for good (measured with Chromium 156: 9 → 292 MiB over 100 windows opened and
 * closed, against 19 → 86 MiB over 100 tabs opened and closed in one window; docs/benchmarks.md, "The
 * rendered part"), so a crawl of thousands of rendered pages would swell the browser; and opening or
 * closing a Firefox window holds its main process, and the crawl's requests with it, for seconds under load.
 *
 * The window is noted in `storage.session` while it is open, with the tabs Tabcrawl opened in it, so that a
 * worker stopped mid-render has it closed by the next one ({@link closeLeftoverRenderWindows}). A tab someone else opened in the window (a page the command line's
 * driver opens lands in the browser's last window) is never closed: then only Tabcrawl's tabs are
 * (`whatToClose`).
 */
import type { RenderContainers } from './render-containers.ts';
import { ownTabsOf, unnotedRenderWindows, whatToClose, windowNoteOf, type WindowNote } from './render-windows.ts';

/** Time given to closing a tab or window, in ms: a browser that does not answer does not hold the crawl. */
const CLEANUP_TIMEOUT_MS = 5_000;

/** How long the render window stays open with no render in it, in ms: the gap between two renders of a crawl is far shorter. */
export const RENDER_WINDOW_IDLE_MS = 5_000;

/** The render window of a worker: see the module's comment. */
export class RenderWindowHost {
  private windowId: number | undefined;
  /** The container of the window's blank tab (Firefox), removed with the window. */
  private windowContainer: string | undefined;
  /** The tabs Tabcrawl opened in the window: its blank tab and the render tabs open now. */
  private ownTabs: number[] = [];
  private opening: Promise<OpenedWindow> | undefined;
  private inUse = 0;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * @param idleMs how long the window stays open unused (the tests make it short).
   * @param state how the window opens: `minimized` in Chrome; `normal` in Firefox, which throttles the
   *   timers of a page in a minimized window (measured: a 150 ms `setInterval` did not fire within 2 s).
   * @param containers where each render tab keeps its cookies and storage (Firefox: a container of its own,
   *   removed once the tab is closed); none in Chrome, whose renderer guards `document.cookie` in the page.
   */
  constructor(
    private readonly idleMs = RENDER_WINDOW_IDLE_MS,
    private readonly state: 'minimized' | 'normal' = 'minimized',
    private readonly containers?: RenderContainers,
  ) {}

  /**
   * A new tab in the render window (opened first when there is none, or the user closed it), with the
   * function that closes it (once; a second call waits for the first). Rejects when the browser opens no window or tab (the render then fails).
   */
  async openTab(): Promise<{ tabId: number; close: () => Promise<void> }> {
    this.inUse += 1;
    clearTimeout(this.idleTimer);
    let closed = false;
    const release = (): void => {
      if (closed) return;
      closed = true;
      this.inUse -= 1;
      if (this.inUse === 0) this.idleTimer = setTimeout(() => void this.closeIfIdle(), this.idleMs);
    };
    let cookieStoreId: string | undefined;
    let windowId: number | undefined;
    try {
      windowId = await this.window();
      cookieStoreId = await this.containers?.open();
      // `cookieStoreId` is Firefox's (tabs.create takes it there); Chrome's types do not know it.
      const createProperties: chrome.tabs.CreateProperties & { cookieStoreId?: string } = {
        windowId,
        url: 'about:blank',
        active: true,
        ...(cookieStoreId === undefined ? {} : { cookieStoreId }),
      };
      // Noted first with the tabs others have in the window: a worker stopped before it learns the new tab's id
      // leaves a tab the next worker still knows as Tabcrawl's (else it closed only the blank tab, and the window
      // stayed open with the render tab in it).
      const windowTabs = await chrome.tabs.query({ windowId }).catch((): chrome.tabs.Tab[] => []);
      const others = windowTabs.flatMap((t) => (t.id === undefined || this.ownTabs.includes(t.id) ? [] : [t.id]));
      await noteRenderWindow(windowId, { others });
      const tab = await chrome.tabs.create(createProperties);
      const tabId = tab.id;
      if (tabId === undefined) throw new Error('the browser opened no tab to render in');
      this.ownTabs.push(tabId);
      await noteRenderWindow(windowId, this.ownTabs);
      let closing: Promise<void> | undefined;
      const container = cookieStoreId;
      const tabWindow = windowId;
      return {
        tabId,
        // Once: later calls wait for the first (the render tab closes it before detaching, the renderer after).
        close: () =>
          (closing ??= (async () => {
            await bounded(chrome.tabs.remove(tabId));
            // Not waited for: removing a container clears what its page stored (up to about 0.5 s), which is no
            // part of the render; one a stopped worker left is removed by the next (removeLeftoverRenderContainers).
            if (container !== undefined) void this.containers?.remove(container);
            this.ownTabs = this.ownTabs.filter((id) => id !== tabId);
            if (this.windowId === tabWindow) await noteRenderWindow(tabWindow, this.ownTabs);
            release();
          })()),
      };
    } catch (error) {
      if (cookieStoreId !== undefined) void this.containers?.remove(cookieStoreId);
      // No tab was made: the window's note goes back to the tabs it has (a note `{ others }` would claim any new tab).
      if (windowId !== undefined && this.windowId === windowId) await noteRenderWindow(windowId, this.ownTabs);
      release();
      throw error;
    }
  }

  /** The open render window's id, opening it when there is none. */
  private async window(): Promise<number> {
    const known = this.windowId;
    if (known !== undefined) {
      if (
        await chrome.windows.get(known).then(
          () => true,
          () => false,
        )
      )
        return known;
      this.windowId = undefined;
      this.ownTabs = [];
      this.forgetWindowContainer();
      await noteRenderWindow(known, false);
    }
    this.opening ??= openRenderWindow(this.state, this.containers).finally(() => {
      this.opening = undefined;
    });
    const opened = await this.opening;
    if (this.windowId !== opened.windowId) {
      this.windowId = opened.windowId;
      this.ownTabs = opened.tabId === undefined ? [] : [opened.tabId];
      this.windowContainer = opened.cookieStoreId;
    }
    return opened.windowId;
  }

  /** Removes the container of the window's blank tab (not waited for: see openTab's close). */
  private forgetWindowContainer(): void {
    const container = this.windowContainer;
    this.windowContainer = undefined;
    if (container !== undefined) void this.containers?.remove(container);
  }

  private async closeIfIdle(): Promise<void> {
    const windowId = this.windowId;
    if (this.inUse > 0 || windowId === undefined) return;
    const ownTabs = this.ownTabs;
    this.windowId = undefined;
    this.ownTabs = [];
    await closeRenderWindow(windowId, ownTabs);
    this.forgetWindowContainer();
  }
}

/** A render window just opened: its id, its blank tab's, and that tab's container (Firefox). */
interface OpenedWindow {
  windowId: number;
  tabId: number | undefined;
  cookieStoreId: string | undefined;
}

/**
 * Opens a render window, unfocused (the user's window keeps the focus) and in `state`, with one blank tab that
 * keeps it open between two render tabs (in a render container of its own when there are `containers`, which
 * tells the window apart if a worker stops before noting it: {@link unnotedRenderWindows}); notes it as open.
 */
async function openRenderWindow(
  state: 'minimized' | 'normal',
  containers: RenderContainers | undefined,
): Promise<OpenedWindow> {
  // A worker stopped between the window's creation and its note would leave it unnoted: noted as pending first.
  await notePendingWindow();
  const cookieStoreId = await containers?.open();
  // `cookieStoreId` is Firefox's (windows.create takes it there); Chrome's types do not know it.
  const createData: chrome.windows.CreateData & { cookieStoreId?: string } = {
    state,
    focused: false,
    url: 'about:blank',
    ...(cookieStoreId === undefined ? {} : { cookieStoreId }),
  };
  let created: chrome.windows.Window | undefined;
  try {
    created = await chrome.windows.create(createData);
  } catch (error) {
    if (cookieStoreId !== undefined) void containers?.remove(cookieStoreId);
    throw error;
  }
  const windowId = created?.id;
  if (windowId === undefined) throw new Error('the browser opened no window to render in');
  const tabId = created?.tabs?.[0]?.id;
  await noteRenderWindow(windowId, tabId === undefined ? true : [tabId]);
  await forgetPendingWindow();
  return { windowId, tabId, cookieStoreId };
}

/** Waits for `work`, at most {@link CLEANUP_TIMEOUT_MS}; its failure (a tab or window already gone) is fine. */
async function bounded(work: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLEANUP_TIMEOUT_MS);
  });
  await Promise.race([work.catch(() => undefined), late]);
  clearTimeout(timer);
}

/** The `storage.session` key that notes a render window as open. */
const WINDOW_KEY_PREFIX = 'render-window-';

/**
 * Notes the render window `windowId` in `storage.session` (a failure is ignored): open, with the tabs
 * Tabcrawl opened in it (a {@link WindowNote}: `true`, the whole window is Tabcrawl's, as each of Firefox's
 * render windows is; `{ others }` while a render tab is being created), or closed (`false`). Firefox's
 * renderer notes its windows here too, so one cleanup closes what either left.
 */
export async function noteRenderWindow(windowId: number, open: false | WindowNote): Promise<void> {
  const key = `${WINDOW_KEY_PREFIX}${windowId}`;
  const session = typeof chrome === 'undefined' ? undefined : chrome.storage?.session;
  if (session === undefined) return;
  await (open === false ? session.remove(key) : session.set({ [key]: open })).catch(() => undefined);
}

/** The `storage.session` key of a render window about to open: the ids of the windows open before it. */
const PENDING_KEY = 'render-pending-window';

/** Notes that a render window is about to open, with the windows open before it (a failure is ignored). */
async function notePendingWindow(): Promise<void> {
  const session = chrome.storage?.session;
  if (session === undefined) return;
  const before = (await chrome.windows.getAll().catch(() => [])).flatMap((w) => (w.id === undefined ? [] : [w.id]));
  await session.set({ [PENDING_KEY]: before }).catch(() => undefined);
}

/** The render window is noted by its id: it is no longer pending. */
async function forgetPendingWindow(): Promise<void> {
  await chrome.storage?.session?.remove(PENDING_KEY).catch(() => undefined);
}

/**
 * Closes the render windows a stopped worker left open (noted in `storage.session`, which lasts as long as
 * the browser session, or opened while one was pending): their page is rendered again by the crawl's next
 * run. Call it when the worker starts.
 * @param renderStores the render containers' `cookieStoreId`s (Firefox: `renderContainerIds`), which tell a
 *   render window opened while one was pending; none in Chrome.
 * @returns how many it closed.
 */
export async function closeLeftoverRenderWindows(
  renderStores: () => Promise<string[]> = () => Promise.resolve([]),
): Promise<number> {
  if (typeof chrome === 'undefined' || chrome.storage?.session === undefined) return 0;
  const noted: Record<string, unknown> = await chrome.storage.session.get(null).catch(() => ({}));
  const windows = new Map<number, WindowNote>();
  for (const [key, value] of Object.entries(noted)) {
    const id = Number(key.slice(WINDOW_KEY_PREFIX.length));
    if (!key.startsWith(WINDOW_KEY_PREFIX) || !Number.isInteger(id)) continue;
    windows.set(id, windowNoteOf(value));
  }
  const pending = noted[PENDING_KEY];
  if (Array.isArray(pending)) {
    const open = await chrome.windows.getAll({ populate: true }).catch(() => []);
    const stores = await renderStores().catch((): string[] => []);
    for (const id of unnotedRenderWindows(pending.filter(Number.isInteger), open, stores))
      if (!windows.has(id)) windows.set(id, true);
    await forgetPendingWindow();
  }
  for (const [id, ownTabs] of windows) await closeRenderWindow(id, ownTabs);
  return windows.size;
}

/**
 * Closes a render window, or only Tabcrawl's tabs in it (as `note` tells them: `ownTabsOf`) when it holds
 * someone else's; bounded in time (a window or tab already gone is fine); and forgets it.
 */
export async function closeRenderWindow(windowId: number, note: WindowNote = true): Promise<void> {
  const tabs = note === true ? [] : await chrome.tabs.query({ windowId }).catch((): chrome.tabs.Tab[] => []);
  const ownTabs = ownTabsOf(note, tabs);
  const close = ownTabs === true ? { window: true as const } : whatToClose(ownTabs, tabs);
  if ('window' in close) await bounded(chrome.windows.remove(windowId));
  else if (close.tabs.length > 0) await bounded(chrome.tabs.remove(close.tabs));
  await noteRenderWindow(windowId, false);
}

/**
 * The {@link Renderer} of Chrome: each page is loaded in a minimized, unfocused window of its own, with
 * `chrome.debugger` attached and the DevTools Fetch domain holding every request of the page until the
 * crawl answers it (`job.serve`). Needs the `debugger` permission; without it (or in a browser with no
 * `chrome.debugger`, such as Firefox) every render answers `unavailable`. Each window is noted in
 * `storage.session` while it is open, so that a worker stopped mid-render has it closed by the next one
 * ({@link closeLeftoverRenderWindows}).
 * What the page can and cannot reach: docs/rendering.md, "In Chrome".
 */
import type { RenderJob, RenderOutcome, Renderer } from '../../../core/crawl/ports.ts';
import { hasDebugger } from './debugger-target.ts';
import { RenderTab } from './render-tab.ts';
import { unnotedRenderWindows } from './render-windows.ts';

/** Time given to closing the window and detaching after the render's cap, in ms. */
const CLEANUP_TIMEOUT_MS = 5_000;

export class ChromeRenderer implements Renderer {
  private busy = false;

  /**
   * Renders one page (one at a time per instance: a second call while one runs answers `failed`).
   * Resolves, never rejects; the window is closed and the debugger detached before it resolves.
   */
  async render(job: RenderJob): Promise<RenderOutcome> {
    if (!hasDebugger()) {
      return { ok: false, code: 'unavailable', message: 'this browser gives extensions no chrome.debugger' };
    }
    if (!/^https?:\/\//i.test(job.url)) {
      return { ok: false, code: 'failed', message: 'only http and https pages are rendered' };
    }
    if (this.busy) return { ok: false, code: 'failed', message: 'another page is being rendered' };
    this.busy = true;
    const deadline = Date.now() + job.timeoutMs;
    let windowId: number | undefined;
    try {
      // A worker stopped between the window's creation and its note would leave it unnoted: noted as pending first.
      await notePendingWindow();
      // Minimized and unfocused: the user's window keeps the focus, and no page shows on screen.
      const created = await chrome.windows.create({ state: 'minimized', focused: false, url: 'about:blank' });
      windowId = created?.id;
      if (windowId !== undefined) await noteRenderWindow(windowId, true);
      await forgetPendingWindow();
      const tabId = created?.tabs?.[0]?.id;
      if (tabId === undefined) return { ok: false, code: 'failed', message: 'the browser opened no tab to render in' };
      return await new RenderTab(job, deadline).run(tabId);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      return { ok: false, code: 'failed', message };
    } finally {
      if (windowId !== undefined) await closeRenderWindow(windowId);
      this.busy = false;
    }
  }
}

/** The `storage.session` key that notes a render window as open. */
const WINDOW_KEY_PREFIX = 'render-window-';

/**
 * Notes the render window `windowId` as open (`open`) or closed, in `storage.session` (a failure is ignored).
 * Firefox's renderer notes its windows here too, so one cleanup closes what either left.
 */
export async function noteRenderWindow(windowId: number, open: boolean): Promise<void> {
  const key = `${WINDOW_KEY_PREFIX}${windowId}`;
  const session = typeof chrome === 'undefined' ? undefined : chrome.storage?.session;
  if (session === undefined) return;
  await (open ? session.set({ [key]: true }) : session.remove(key)).catch(() => undefined);
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
 * @returns how many it closed.
 */
export async function closeLeftoverRenderWindows(): Promise<number> {
  if (typeof chrome === 'undefined' || chrome.storage?.session === undefined) return 0;
  const noted: Record<string, unknown> = await chrome.storage.session.get(null).catch(() => ({}));
  const ids = Object.keys(noted)
    .filter((key) => key.startsWith(WINDOW_KEY_PREFIX))
    .map((key) => Number(key.slice(WINDOW_KEY_PREFIX.length)))
    .filter((id) => Number.isInteger(id));
  const pending = noted[PENDING_KEY];
  if (Array.isArray(pending)) {
    const windows = await chrome.windows.getAll({ populate: true }).catch(() => []);
    for (const id of unnotedRenderWindows(pending.filter(Number.isInteger), windows))
      if (!ids.includes(id)) ids.push(id);
    await forgetPendingWindow();
  }
  for (const id of ids) await closeRenderWindow(id);
  return ids.length;
}

/** Closes the render's window, bounded in time (a window already gone is fine), and forgets it. */
export async function closeRenderWindow(windowId: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLEANUP_TIMEOUT_MS);
  });
  await Promise.race([chrome.windows.remove(windowId).catch(() => undefined), late]);
  clearTimeout(timer);
  await noteRenderWindow(windowId, false);
}

/**
 * The {@link Renderer} of Chrome: each page is loaded in a minimized, unfocused window of its own, with
 * `chrome.debugger` attached and the DevTools Fetch domain holding every request of the page until the
 * crawl answers it (`job.serve`). Needs the optional `debugger` permission; without it (or in a browser
 * with no `chrome.debugger`, such as Firefox) every render answers `unavailable`.
 * What the page can and cannot reach: docs/rendering.md, "In Chrome".
 */
import type { RenderJob, RenderOutcome, Renderer } from '../../../core/crawl/ports.ts';
import { hasDebugger } from './debugger-target.ts';
import { RenderTab } from './render-tab.ts';

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
      // Minimized and unfocused: the user's window keeps the focus, and no page shows on screen.
      const created = await chrome.windows.create({ state: 'minimized', focused: false, url: 'about:blank' });
      windowId = created?.id;
      const tabId = created?.tabs?.[0]?.id;
      if (tabId === undefined) return { ok: false, code: 'failed', message: 'the browser opened no tab to render in' };
      return await new RenderTab(job, deadline).run(tabId);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      return { ok: false, code: 'failed', message };
    } finally {
      if (windowId !== undefined) await closeWindow(windowId);
      this.busy = false;
    }
  }
}

/** Closes the render's window, bounded in time (a window already gone is fine). */
async function closeWindow(windowId: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLEANUP_TIMEOUT_MS);
  });
  await Promise.race([chrome.windows.remove(windowId).catch(() => undefined), late]);
  clearTimeout(timer);
}

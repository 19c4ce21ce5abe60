/**
 * The {@link Renderer} of Chrome: each page is loaded in a tab of its own, in the minimized, unfocused
 * window of a {@link RenderWindowHost}, with `chrome.debugger` attached and the DevTools Fetch domain
 * holding every request of the page until the crawl answers it (`job.serve`). Needs the `debugger`
 * permission; without it (or in a browser with no `chrome.debugger`, such as Firefox) every render answers
 * `unavailable`. What the page can and cannot reach: docs/rendering.md, "In Chrome".
 */
import type { RenderJob, RenderOutcome, Renderer } from '../../../core/crawl/ports.ts';
import { hasDebugger } from './debugger-target.ts';
import { RenderTab } from './render-tab.ts';
import type { RenderWindowHost } from './render-window-host.ts';

export class ChromeRenderer implements Renderer {
  private busy = false;

  /** `windows`: the window the render tabs open in (one for the whole worker: see {@link RenderWindowHost}). */
  constructor(private readonly windows: RenderWindowHost) {}

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
    let tab: { tabId: number; close: () => Promise<void> } | undefined;
    try {
      tab = await this.windows.openTab();
      return await new RenderTab(job, deadline, tab.close).run(tab.tabId);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      return { ok: false, code: 'failed', message };
    } finally {
      await tab?.close();
      this.busy = false;
    }
  }
}

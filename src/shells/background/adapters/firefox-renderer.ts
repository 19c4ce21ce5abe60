/**
 * The {@link Renderer} of Firefox (docs/rendering-firefox.md, "The renderer"): each page is loaded in a tab of
 * its own, in the unfocused window of a {@link RenderWindowHost}, every request of its tab held by a blocking `webRequest` listener
 * until the crawl answers it ({@link FirefoxTabRequests}). Firefox cannot answer a request with bytes, so
 * this renderer answers through the network (`answers: 'network'`): the tab's own request is the crawl's
 * request, let go on its host's turn. Waits for the network to be quiet (or the cap), scrolls once to the
 * bottom, waits again, and reads the DOM from the content scripts' isolated world (`scripting`).
 */
import browser from 'webextension-polyfill';
import type { RenderFailureCode, RenderJob, RenderOutcome, Renderer } from '../../../core/crawl/ports.ts';
import type { RenderWindowHost } from './render-window-host.ts';
import { FirefoxTabRequests } from './firefox-tab-requests.ts';
import { readDomInTab, readScriptErrors, scrollTabToBottom, watchScriptErrors } from './firefox-isolated-world.ts';
import { canFilterResponses } from './response-copy.ts';
import type { RenderSuspension } from './render-suspension.ts';
import type { HeldRequests } from './tab-request-fetcher.ts';
import { quietStep, sleepOrWake } from './quiet-network.ts';

interface Failure {
  code: RenderFailureCode;
  message: string;
}

/** Whether this browser and Tabcrawl's permissions allow the Firefox renderer. */
async function isAvailable(): Promise<boolean> {
  if (
    !canFilterResponses() ||
    typeof browser.scripting?.executeScript !== 'function' ||
    typeof browser.contextualIdentities?.create !== 'function'
  )
    return false;
  // contextualIdentities and cookies: each render tab opens in a container of its own (render-containers.ts).
  const needed = ['webRequestBlocking', 'webRequestFilterResponse', 'scripting', 'contextualIdentities', 'cookies'];
  return browser.permissions.contains({ permissions: needed as never[] }).catch(() => false);
}

/** The longest wait, in ms, while the page is busy: a load no event told of is seen by looking again. */
const BUSY_POLL_MS = 1000;

export class FirefoxRenderer implements Renderer {
  readonly answers = 'network' as const;
  private busy = false;

  /**
   * @param held where the tab's held GETs are offered to the crawl's fetches (the fetcher wrapped by
   *   `withTabRequests` takes them).
   * @param userAgent the crawl's User-Agent, which the tab's requests carry instead of the browser's.
   * @param windows the window the render tabs open in (`normal`, not minimized: see {@link RenderWindowHost}).
   *   One window for the worker, not one a page: opening and closing a Firefox window holds the browser's main
   *   process for seconds under load, and the crawl's own requests with it (measured: a fetch of the crawl
   *   reached the server 4 s after it was claimed while a render window opened, and the render waiting for
   *   that host ended `no document within 4000 ms`).
   * @param suspension the event page's suspension (render-suspension.ts): a render under way is stopped at once
   *   when Firefox suspends the page, and a new one waits until the suspension is cancelled.
   */
  constructor(
    private readonly held: HeldRequests,
    private readonly userAgent: string,
    private readonly windows: RenderWindowHost,
    private readonly suspension?: RenderSuspension,
  ) {}

  /**
   * Renders one page (one at a time per instance: a second call while one runs answers `failed`).
   * Resolves, never rejects; the tab is closed and the listeners removed before it resolves.
   */
  async render(job: RenderJob): Promise<RenderOutcome> {
    if (!(await isAvailable())) {
      return { ok: false, code: 'unavailable', message: 'Firefox gives Tabcrawl no blocking webRequest or scripting' };
    }
    if (!/^https?:\/\//i.test(job.url))
      return { ok: false, code: 'failed', message: 'only http and https pages are rendered' };
    if (this.busy) return { ok: false, code: 'failed', message: 'another page is being rendered' };
    this.busy = true;
    let tab: { tabId: number; close: () => Promise<void> } | undefined;
    let requests: FirefoxTabRequests | null = null;
    let forget: (() => void) | undefined;
    try {
      // No tab opens while Firefox suspends the event page: its requests would outlive their listener.
      await this.suspension?.whenRunning(job.signal);
      if (job.signal.aborted) return { ok: false, code: 'stopped', message: 'the crawl stopped' };
      // The window is not minimized: Firefox throttles the timers of a hidden page, so its scripts would not run
      // as on the web. Unfocused: the user's window keeps the focus. In a Firefox with a screen, the window
      // shows (docs/rendering-firefox.md).
      tab = await this.windows.openTab();
      const { tabId } = tab;
      // The cap counts from here, the tab about to ask for the page (`RenderJob.timeoutMs`), not from the window's
      // opening (about 0.9 s under load here), which is not the page's time. The lane's own bound
      // (cap + RENDER_GRACE_MS) still holds the whole render.
      const deadline = Date.now() + job.timeoutMs;
      requests = new FirefoxTabRequests(tabId, job, this.held, this.userAgent, {
        activity: () => render.touch(),
        fail: (message) => render.fail('failed', message),
      });
      const render = new FirefoxRender(job, deadline, tabId, requests);
      forget = this.suspension?.add({ tabId, suspend: () => render.suspend() });
      return await render.run();
    } catch (error) {
      return { ok: false, code: 'failed', message: messageOf(error) };
    } finally {
      requests?.end();
      await tab?.close();
      requests?.unlisten();
      // After the tab is closed: a suspended render's tab stays blocked until then (render-suspension.ts).
      forget?.();
      this.busy = false;
    }
  }
}

/** The waits and reads of one render, over its tab's requests. */
class FirefoxRender {
  private lastActivity = Date.now();
  private hasLoaded = false;
  private capped = false;
  private failure: Failure | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly job: RenderJob,
    /** When the cap ends the render (ms since the epoch). */
    private readonly deadline: number,
    private readonly tabId: number,
    private readonly requests: FirefoxTabRequests,
  ) {}

  private readonly onUpdated = (tabId: number, change: { status?: string; url?: string }): void => {
    if (tabId !== this.tabId) return;
    // The tab shows the page's URL: its document has committed. Its uncaught errors are kept from now on.
    if (change.url !== undefined && /^https?:/i.test(change.url)) void watchScriptErrors(tabId).catch(() => undefined);
    if (change.status === 'complete' && this.requests.hasDocument) {
      this.hasLoaded = true;
      this.touch();
    }
  };

  private readonly onRemoved = (tabId: number): void => {
    if (tabId === this.tabId) this.fail('crashed', 'the render tab was closed');
  };

  /**
   * Firefox is suspending the event page: cancels what the tab's listener holds, removes every listener of the
   * render at once (an event Firefox dispatched to one of them would cancel the suspension, and the
   * cancellations themselves make events), and ends the render `stopped`. render-suspension.ts.
   */
  suspend(): void {
    this.requests.end();
    this.requests.unlisten();
    this.unlistenTabs();
    this.fail('stopped', 'Firefox suspended the event page');
  }

  private unlistenTabs(): void {
    browser.tabs.onUpdated.removeListener(this.onUpdated);
    browser.tabs.onRemoved.removeListener(this.onRemoved);
  }

  async run(): Promise<RenderOutcome> {
    const onAbort = (): void => this.fail('stopped', 'the crawl stopped');
    this.job.signal.addEventListener('abort', onAbort);
    browser.tabs.onUpdated.addListener(this.onUpdated);
    browser.tabs.onRemoved.addListener(this.onRemoved);
    try {
      if (this.job.signal.aborted) return { ok: false, code: 'stopped', message: 'the crawl stopped' };
      // The document's turn first, within the cap (a stop refuses it at once).
      const refused = await beforeDeadline(this.requests.takeDocumentTurn(), this.deadline);
      const stopped = this.failed();
      if (stopped !== null) return stopped;
      if (refused === 'late')
        return { ok: false, code: 'timeout', message: `no document within ${this.job.timeoutMs} ms` };
      if (refused !== null) return { ok: false, code: 'failed', message: refused };
      this.requests.listen();
      await browser.tabs.update(this.tabId, { url: this.job.url });
      await this.waitForQuiet();
      const failed = this.failed();
      if (failed !== null) return failed;
      if (!this.requests.hasDocument) {
        return { ok: false, code: 'timeout', message: `no document within ${this.job.timeoutMs} ms` };
      }
      // A page whose script never yields does not answer the scroll: then only the read is tried.
      const hasScrolled =
        !this.capped &&
        (await scrollTabToBottom(this.tabId).then(
          () => true,
          () => false,
        ));
      if (hasScrolled) {
        this.touch();
        await this.waitForQuiet();
        const failedLater = this.failed();
        if (failedLater !== null) return failedLater;
      }
      const read = await this.read();
      // A suspension that came while the DOM was read cut the page's requests: rendered again.
      const late = this.failed();
      return late !== null && !late.ok && late.code === 'stopped' ? late : read;
    } catch (error) {
      return this.failed() ?? { ok: false, code: 'failed', message: messageOf(error) };
    } finally {
      this.job.signal.removeEventListener('abort', onAbort);
      this.unlistenTabs();
    }
  }

  touch(): void {
    this.lastActivity = Date.now();
    this.wake?.();
  }

  fail(code: RenderFailureCode, message: string): void {
    this.failure ??= { code, message };
    this.wake?.();
  }

  /** Resolves when nothing is held or under way and nothing new came for `quietMs` after the load, or at the cap, or on a failure. */
  private async waitForQuiet(): Promise<void> {
    for (;;) {
      if (this.failure !== null) return;
      const step = quietStep({
        now: Date.now(),
        deadline: this.deadline,
        lastActivity: this.lastActivity,
        idle: this.hasLoaded && this.requests.busy === 0,
        quietMs: this.job.quietMs,
        busyPollMs: BUSY_POLL_MS,
      });
      if (step.kind === 'capped') this.capped = true;
      if (step.kind !== 'wait') return;
      await sleepOrWake(step.ms, (wake) => (this.wake = wake));
      if (!this.hasLoaded && this.requests.hasDocument) {
        const tab = await browser.tabs.get(this.tabId).catch(() => null);
        if (tab?.status === 'complete') this.hasLoaded = true;
      }
    }
  }

  private async read(): Promise<RenderOutcome> {
    let dom: { html: string; truncated: boolean };
    try {
      dom = await readDomInTab(this.tabId, this.job.maxHtmlChars);
    } catch (error) {
      const message = `the DOM could not be read (a script keeps the page busy?): ${messageOf(error)}`;
      return { ok: false, code: 'failed', message };
    }
    const scriptErrors = await readScriptErrors(this.tabId).catch((): string[] => []);
    return {
      ok: true,
      ...dom,
      scriptErrors,
      navigations: [...this.requests.navigations],
      capped: this.capped,
      requests: this.requests.requests,
    };
  }

  /** The outcome of a render something ended (a closed tab, the crawl stopping, a refused document), or null. */
  private failed(): RenderOutcome | null {
    return this.failure === null ? null : { ok: false, code: this.failure.code, message: this.failure.message };
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

/** `promise`'s value, or `late` when `deadline` (ms since the epoch) comes first. */
async function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | 'late'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What Firefox's renderer does when Firefox suspends the event page (`runtime.onSuspend`: idle, or
 * about:debugging's *Terminate background script*, as the tests do). A blocking `webRequest` listener dies with
 * its page, and Firefox then lets every request it still held go to the server, with the browser's User-Agent
 * (measured by `test/e2e/firefox-rendered-restart.test.ts`: `/private/track`, which robots.txt disallows, reached
 * the server). So at the suspension each render under way, at once and in this order:
 * 1. puts a declarativeNetRequest session rule in place that blocks every request of the render tabs (session
 *    rules outlive the page; DNR takes precedence over `webRequest` in Firefox), so nothing the page asks for
 *    later reaches the network while its tab is left open;
 * 2. cancels every request its listener holds, then removes its listeners, and ends `stopped` (the crawl
 *    renders the page again: `render-lane.ts` leaves it queued).
 * It does not close the tab: any event Firefox dispatches to the page meanwhile (a tab closed, a request's
 * error to a listener still there) cancels the suspension (measured: with the tab closed here, about:debugging's
 * *Terminate background script* never stopped the page in 10 tries). The next event page closes the window left
 * open, then removes the rule ({@link removeRenderBlockRule}). New renders wait until the suspension is cancelled
 * (`runtime.onSuspendCanceled`: the page runs on, its render's tab is closed as usual, then the rule removed) or
 * the page is gone.
 */
import browser from 'webextension-polyfill';

/** The id of the session rule that blocks the render tabs of a suspending event page (the User-Agent rule is 1). */
export const RENDER_BLOCK_RULE_ID = 2;

/** A render under way, as the suspension reaches it. */
export interface SuspendableRender {
  /** The render's tab. */
  readonly tabId: number;
  /** Cancels what the tab's listener holds, removes its listeners and ends the render `stopped` (synchronously: the page may go at any moment). */
  suspend(): void;
}

export class RenderSuspension {
  private suspending = false;
  private readonly renders = new Set<SuspendableRender>();
  /** Renders suspended whose tab is not closed yet: the block rule stays while any is (see {@link resume}). */
  private readonly suspendedOpen = new Set<SuspendableRender>();
  private waiters: (() => void)[] = [];
  /** The tabs the block rule names during this suspension: every call rewrites the rule, so it keeps them all. */
  private blocked: number[] = [];

  /** Listens to the event page's suspension (call once, when the page starts). */
  watch(): void {
    browser.runtime.onSuspend?.addListener(() => this.suspend());
    browser.runtime.onSuspendCanceled?.addListener(() => this.resume());
  }

  /** Resolves once the event page is not being suspended (at once when it is not), or when `signal` aborts. */
  whenRunning(signal: AbortSignal): Promise<void> {
    if (!this.suspending || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        signal.removeEventListener('abort', done);
        resolve();
      };
      signal.addEventListener('abort', done, { once: true });
      this.waiters.push(done);
    });
  }

  /**
   * Tells the suspension of a render under way; a render that begins while the page is being suspended is
   * suspended at once.
   * @returns the function that forgets it: call it once the render's tab is closed (not before: a suspended
   *   render's tab is kept blocked until then, {@link resume}).
   */
  add(render: SuspendableRender): () => void {
    this.renders.add(render);
    if (this.suspending) this.suspendAll([render]);
    return () => {
      this.renders.delete(render);
      if (this.suspendedOpen.delete(render)) this.unblockWhenClosed();
    };
  }

  /** The event page is about to go: see the module's comment. */
  suspend(): void {
    this.suspending = true;
    this.suspendAll([...this.renders]);
  }

  /** The suspension was cancelled: the page runs on. */
  resume(): void {
    if (!this.suspending) return;
    this.suspending = false;
    this.unblockWhenClosed();
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /**
   * Removes the block rule once the page runs on and every suspended render's tab is closed. A suspended render
   * removed its listeners at once, so its tab, open until its render's end closes it, must stay blocked until
   * then: removed at the cancellation itself, the rule let that tab's requests go with the browser's
   * User-Agent (measured: `/private/track` and the api host's `/secret/pixel`, which robots.txt disallows, the
   * latter before that host's robots.txt, in firefox-rendered-restart.test.ts under load).
   */
  private unblockWhenClosed(): void {
    if (this.suspending || this.suspendedOpen.size > 0 || this.blocked.length === 0) return;
    this.blocked = [];
    void removeRenderBlockRule();
  }

  private suspendAll(renders: readonly SuspendableRender[]): void {
    if (renders.length === 0) return;
    for (const render of renders) this.suspendedOpen.add(render);
    // A render that began its tab as the suspension came is added later: the rule still names the earlier tabs.
    this.blocked = [...new Set([...this.blocked, ...renders.map((render) => render.tabId)])];
    // Each call is sent to the browser before this function returns; none is waited for (the page may go first).
    void blockTabs(this.blocked);
    for (const render of renders) {
      try {
        render.suspend();
      } catch {
        // The next render's cancel still runs; the rule blocks what this one left.
      }
    }
  }
}

/** Blocks every request of `tabIds` with the session rule {@link RENDER_BLOCK_RULE_ID} (a failure is ignored). */
async function blockTabs(tabIds: number[]): Promise<void> {
  await browser.declarativeNetRequest
    .updateSessionRules({
      removeRuleIds: [RENDER_BLOCK_RULE_ID],
      addRules: [{ id: RENDER_BLOCK_RULE_ID, priority: 1, action: { type: 'block' }, condition: { tabIds } }],
    })
    .catch(() => undefined);
}

/** Removes the rule a suspending event page left (call when the event page starts, after the leftover windows are closed). */
export async function removeRenderBlockRule(): Promise<void> {
  await browser.declarativeNetRequest
    ?.updateSessionRules({ removeRuleIds: [RENDER_BLOCK_RULE_ID] })
    .catch(() => undefined);
}

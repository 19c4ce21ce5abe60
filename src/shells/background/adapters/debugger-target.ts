/**
 * `chrome.debugger` as the Chrome renderer uses it: commands bounded in time, and the events of one tab
 * (its own session and every child session: out-of-process frames, workers) handed to one listener.
 */

/** A session of the tab: the tab's own (no `sessionId`) or a child one (`Target.setAutoAttach`). */
export type Session = chrome.debugger.DebuggerSession;

/** What an event handler receives: the session it came from, the method and its parameters. */
export type EventHandler = (session: Session, method: string, params: Record<string, unknown>) => void;

/** How long one DevTools command may take before the renderer gives up on it, in ms. */
export const COMMAND_TIMEOUT_MS = 5_000;

/** Whether this browser gives the extension `chrome.debugger` and `chrome.windows` (the permission granted). */
export function hasDebugger(): boolean {
  const api = (globalThis as { chrome?: Partial<typeof chrome> }).chrome;
  return typeof api?.debugger?.attach === 'function' && typeof api.windows?.create === 'function';
}

/** The debugger attached to one tab. {@link DebuggerTarget.detach} removes the listeners and detaches; safe to call twice. */
export class DebuggerTarget {
  readonly root: Session;
  private detached = false;
  private readonly onEvent: (source: Session, method: string, params?: object) => void;
  private readonly onDetach: (source: chrome.debugger.Debuggee, reason: string) => void;

  private constructor(
    readonly tabId: number,
    handler: EventHandler,
    onGone: (reason: string) => void,
  ) {
    this.root = { tabId };
    this.onEvent = (source, method, params) => {
      if (source.tabId === tabId) handler(source, method, (params ?? {}) as Record<string, unknown>);
    };
    this.onDetach = (source, reason) => {
      if (source.tabId !== tabId) return;
      this.detached = true;
      onGone(reason);
    };
  }

  /**
   * Attaches to the tab (DevTools protocol 1.3) and starts handing its events to `handler`; `onGone` is
   * told when the debugger is detached by something else than {@link detach} (the tab closed, the user
   * cancelled the debugging bar).
   * @throws when the browser refuses to attach (another debugger is attached, the tab is gone).
   */
  static async attach(tabId: number, handler: EventHandler, onGone: (reason: string) => void): Promise<DebuggerTarget> {
    const target = new DebuggerTarget(tabId, handler, onGone);
    chrome.debugger.onEvent.addListener(target.onEvent);
    chrome.debugger.onDetach.addListener(target.onDetach);
    try {
      await chrome.debugger.attach({ tabId }, '1.3');
    } catch (error) {
      target.removeListeners();
      throw error;
    }
    return target;
  }

  /** Sends one command; rejects after `timeoutMs` if the browser has not answered. */
  async send<T = Record<string, unknown>>(
    session: Session,
    method: string,
    params: Record<string, unknown> = {},
    timeoutMs = COMMAND_TIMEOUT_MS,
  ): Promise<T> {
    if (this.detached) throw new Error(`${method}: the debugger is detached`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${method} took more than ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const result = await Promise.race([chrome.debugger.sendCommand(session, method, params), late]);
      return (result ?? {}) as T;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sends a command whose failure changes nothing (the request or frame is gone, the page ended). */
  async sendQuietly(session: Session, method: string, params: Record<string, unknown> = {}): Promise<void> {
    await this.send(session, method, params).catch(() => undefined);
  }

  /** Stops listening and detaches the debugger (the "started debugging" bar goes with it), in at most {@link COMMAND_TIMEOUT_MS}. */
  async detach(): Promise<void> {
    this.removeListeners();
    if (this.detached) return;
    this.detached = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, COMMAND_TIMEOUT_MS);
    });
    await Promise.race([chrome.debugger.detach(this.root).catch(() => undefined), late]);
    clearTimeout(timer);
  }

  private removeListeners(): void {
    chrome.debugger.onEvent.removeListener(this.onEvent);
    chrome.debugger.onDetach.removeListener(this.onDetach);
  }
}

/**
 * One render in one tab the debugger is attached to: every request of the page (its frames, in process
 * or not, and its workers) paused by the DevTools Fetch domain and answered through `job.serve`; the
 * waits for a quiet network; the DOM read from an isolated world. docs/rendering.md, "In Chrome".
 */
import type { PageRequest, RenderFailureCode, RenderJob, RenderOutcome, Served } from '../../../core/crawl/ports.ts';
import { DebuggerTarget, type Session } from './debugger-target.ts';
import { readDom, scrollToBottom } from './isolated-world.ts';
import {
  GUARD_SCRIPT,
  MAX_NAVIGATIONS,
  MAX_SCRIPT_ERRORS,
  base64Of,
  failReasonOf,
  headersForTab,
  requestTypeOf,
  scriptErrorText,
  type ExceptionDetails,
} from './page-guards.ts';
import { quietStep, sleepOrWake } from './quiet-network.ts';

/** Every request of a session, paused before it is sent. */
const FETCH_PATTERNS = { patterns: [{ urlPattern: '*', requestStage: 'Request' }] };
/** Every child target (frame in another process, worker) attached and held until it is set up. */
const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: true, flatten: true };

interface RequestPaused {
  requestId: string;
  request: { url: string; method: string };
  frameId: string;
  resourceType: string;
}

interface AttachedToTarget {
  sessionId: string;
  targetInfo: { type: string; url: string };
}

interface Failure {
  code: RenderFailureCode;
  message: string;
}

/** The URL without its fragment (the port's form; the server never sees a fragment). */
function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

export class RenderTab {
  private debuggee: DebuggerTarget | null = null;
  /** Requests paused and not answered yet, by session and request id. */
  private readonly pending = new Map<string, { session: Session; requestId: string }>();
  /** When a request was last paused or answered (ms since the epoch). */
  private lastActivity = Date.now();
  private mainFrameId: string | null = null;
  /** The page's first document was answered with a page (not a redirect): later main-frame documents are navigations. */
  private hasDocument = false;
  private hasLoaded = false;
  private capped = false;
  private ended = false;
  private failure: Failure | null = null;
  private wake: (() => void) | null = null;
  private readonly scriptErrors: string[] = [];
  private readonly navigations: string[] = [];
  private requests = 0;
  private readonly jobUrl: string;

  constructor(
    private readonly job: RenderJob,
    /** When the cap ends the render (ms since the epoch). */
    private readonly deadline: number,
    /**
     * Closes the render tab (bounded in time; a tab already gone is fine). {@link close} calls it before it
     * detaches: a request paused when the debugger detaches goes to the network, so the page must be gone first.
     */
    private readonly closeTab: () => Promise<void>,
  ) {
    this.jobUrl = withoutFragment(job.url);
  }

  /** Attaches to the tab, loads the page, waits, scrolls, waits, reads. Ends with {@link close}, whatever happens. */
  async run(tabId: number): Promise<RenderOutcome> {
    const onAbort = (): void => this.fail('stopped', 'the crawl stopped');
    this.job.signal.addEventListener('abort', onAbort);
    try {
      if (this.job.signal.aborted) return { ok: false, code: 'stopped', message: 'the crawl stopped' };
      try {
        this.debuggee = await DebuggerTarget.attach(
          tabId,
          (session, method, params) => this.onEvent(session, method, params),
          (reason) =>
            this.fail(reason === 'target_closed' ? 'crashed' : 'failed', `the debugger was detached: ${reason}`),
        );
      } catch (error) {
        return { ok: false, code: 'unavailable', message: `could not attach the debugger: ${messageOf(error)}` };
      }
      const target = this.debuggee;
      await this.setUp(target, target.root);
      await target.sendQuietly(target.root, 'Network.setBypassServiceWorker', { bypass: true });
      await target.sendQuietly(target.root, 'Page.setDownloadBehavior', { behavior: 'deny' });
      void target.send(target.root, 'Page.navigate', { url: this.job.url }, this.deadline - Date.now()).catch(() => {
        // The navigation's own answer says nothing the waits do not: a refused or failed document ends them.
      });
      await this.waitForQuiet();
      const failed = this.failed();
      if (failed !== null) return failed;
      if (!this.hasDocument) {
        return { ok: false, code: 'timeout', message: `no document within ${this.job.timeoutMs} ms` };
      }
      // A page whose script never yields does not answer the scroll: then only the read is tried.
      const hasScrolled =
        !this.capped &&
        (await scrollToBottom(target).then(
          () => true,
          () => false,
        ));
      if (hasScrolled) {
        this.touch();
        await this.waitForQuiet();
        const failedLater = this.failed();
        if (failedLater !== null) return failedLater;
      }
      return await this.read(target);
    } catch (error) {
      return this.failed() ?? { ok: false, code: 'failed', message: messageOf(error) };
    } finally {
      this.job.signal.removeEventListener('abort', onAbort);
      await this.close();
    }
  }

  /**
   * Fails every request still paused (a late `serve` answer is then ignored), closes the tab, then detaches.
   * In that order: the page's scripts run until its tab is closed, a request they make from here stays paused
   * (unanswered, {@link ended}), and Chrome lets every request still paused go to the network when the
   * debugger detaches (measured: a poll of the test shop reached it with the browser's own User-Agent when
   * the debugger detached before the tab was closed). Safe to call twice.
   */
  async close(): Promise<void> {
    this.ended = true;
    const target = this.debuggee;
    if (target !== null) {
      const paused = [...this.pending.values()];
      this.pending.clear();
      await Promise.all(
        paused.map(({ session, requestId }) =>
          target.sendQuietly(session, 'Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' }),
        ),
      );
    }
    await this.closeTab();
    await target?.detach();
  }

  /** Holds every request of a session, guards its frames, and does the same to its children; then lets it run. */
  private async setUp(target: DebuggerTarget, session: Session, kind = 'page'): Promise<void> {
    const steps: Promise<unknown>[] = [target.send(session, 'Fetch.enable', FETCH_PATTERNS)];
    if (kind === 'page' || kind === 'iframe') {
      steps.push(target.send(session, 'Page.enable'));
      steps.push(target.send(session, 'Page.addScriptToEvaluateOnNewDocument', { source: GUARD_SCRIPT }));
    }
    steps.push(target.send(session, 'Runtime.enable'));
    steps.push(target.send(session, 'Target.setAutoAttach', AUTO_ATTACH));
    const results = await Promise.allSettled(steps);
    const fetchHeld = results[0];
    if (session.sessionId === undefined && fetchHeld?.status === 'rejected') {
      throw new Error(`Fetch.enable failed: ${messageOf(fetchHeld.reason)}`);
    }
    if (session.sessionId !== undefined) {
      if (fetchHeld?.status === 'rejected' && kind !== 'worker') {
        // A child whose requests cannot be held is not let run: it stays paused until the tab closes.
        return;
      }
      await target.sendQuietly(session, 'Runtime.runIfWaitingForDebugger');
    }
  }

  private onEvent(session: Session, method: string, params: Record<string, unknown>): void {
    const target = this.debuggee;
    if (target === null || this.ended) return;
    switch (method) {
      case 'Fetch.requestPaused':
        void this.answer(target, session, params as unknown as RequestPaused);
        break;
      case 'Target.attachedToTarget': {
        const attached = params as unknown as AttachedToTarget;
        const child: Session = { tabId: target.tabId, sessionId: attached.sessionId };
        void this.setUp(target, child, attached.targetInfo.type).catch(() => undefined);
        break;
      }
      case 'Page.loadEventFired':
        if (session.sessionId === undefined && this.hasDocument) {
          this.hasLoaded = true;
          this.touch();
        }
        break;
      case 'Page.javascriptDialogOpening':
        void target.sendQuietly(session, 'Page.handleJavaScriptDialog', { accept: false });
        break;
      case 'Runtime.exceptionThrown':
        if (this.scriptErrors.length < MAX_SCRIPT_ERRORS) {
          const details = (params as { exceptionDetails?: ExceptionDetails }).exceptionDetails ?? {};
          this.scriptErrors.push(scriptErrorText(details));
        }
        break;
      case 'Inspector.targetCrashed':
        this.fail('crashed', 'the page crashed (or ran out of memory)');
        break;
      default:
        break;
    }
  }

  /** Asks the crawl for one paused request and gives its answer to the tab. */
  private async answer(target: DebuggerTarget, session: Session, paused: RequestPaused): Promise<void> {
    const key = `${session.sessionId ?? ''} ${paused.requestId}`;
    this.pending.set(key, { session, requestId: paused.requestId });
    this.touch();
    const url = withoutFragment(paused.request.url);
    const isRootDocument = session.sessionId === undefined && paused.resourceType === 'Document';
    this.mainFrameId ??= isRootDocument ? paused.frameId : null;
    const isMainDocument = isRootDocument && paused.frameId === this.mainFrameId;
    const navigation = isMainDocument && this.hasDocument && url !== this.jobUrl;
    let served: Served;
    if (isMainDocument && this.hasDocument && !navigation) {
      // The page reloading itself: its DOM is the one being read, so the reload is not sent anywhere.
      served = { kind: 'refused', because: 'navigation' };
    } else {
      if (navigation && this.navigations.length < MAX_NAVIGATIONS && !this.navigations.includes(url)) {
        this.navigations.push(url);
      }
      const request: PageRequest = {
        url,
        method: paused.request.method.toUpperCase(),
        type: requestTypeOf(paused.resourceType),
        navigation,
      };
      this.requests += 1;
      served = await this.job.serve(request).catch((): Served => ({ kind: 'refused', because: 'failed' }));
      // `go` is for renderers that answer through the network (Firefox): this one never lets a request go.
      if (served.kind === 'go') {
        await served.ended();
        served = { kind: 'refused', because: 'failed' };
      }
    }
    if (this.ended) return;
    if (isMainDocument && !this.hasDocument) {
      if (served.kind === 'refused') this.fail('failed', `the crawl refused the page's document (${served.because})`);
      else if (served.status < 300 || served.status >= 400) this.hasDocument = true;
    }
    const requestId = paused.requestId;
    if (served.kind === 'response' && served.status >= 100 && served.status <= 599) {
      await target.sendQuietly(session, 'Fetch.fulfillRequest', {
        requestId,
        responseCode: served.status,
        responseHeaders: headersForTab(served.headers, paused.resourceType),
        body: base64Of(served.body),
      });
    } else {
      // A main-frame navigation failed any other way than Aborted commits an error page over the page's DOM.
      const reason =
        isMainDocument && this.hasDocument
          ? 'Aborted'
          : served.kind === 'refused'
            ? failReasonOf(served.because)
            : 'Failed';
      await target.sendQuietly(session, 'Fetch.failRequest', { requestId, errorReason: reason });
    }
    this.pending.delete(key);
    this.touch();
  }

  /** Resolves when nothing is paused and nothing new came for `quietMs` after the load event, or at the cap, or on a failure. */
  private async waitForQuiet(): Promise<void> {
    for (;;) {
      if (this.failure !== null) return;
      const step = quietStep({
        now: Date.now(),
        deadline: this.deadline,
        lastActivity: this.lastActivity,
        idle: this.hasLoaded && this.pending.size === 0,
        quietMs: this.job.quietMs,
        busyPollMs: Number.POSITIVE_INFINITY,
      });
      if (step.kind === 'capped') this.capped = true;
      if (step.kind !== 'wait') return;
      await sleepOrWake(step.ms, (wake) => (this.wake = wake));
    }
  }

  /** The live DOM, read in an isolated world so that the page's scripts cannot change what is read. */
  private async read(target: DebuggerTarget): Promise<RenderOutcome> {
    let dom: { html: string; truncated: boolean };
    try {
      dom = await readDom(target, this.job.maxHtmlChars);
    } catch (error) {
      const message = `the DOM could not be read (a script keeps the page busy?): ${messageOf(error)}`;
      return { ok: false, code: 'failed', message };
    }
    return {
      ok: true,
      ...dom,
      scriptErrors: [...this.scriptErrors],
      navigations: [...this.navigations],
      capped: this.capped,
      requests: this.requests,
    };
  }

  /** The outcome of a render something ended (a crash, the crawl stopping, a refused document), or null. */
  private failed(): RenderOutcome | null {
    return this.failure === null ? null : { ok: false, code: this.failure.code, message: this.failure.message };
  }

  private touch(): void {
    this.lastActivity = Date.now();
    this.wake?.();
  }

  private fail(code: RenderFailureCode, message: string): void {
    this.failure ??= { code, message };
    this.wake?.();
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

/**
 * A renderer for the crawl core's tests: each page's "script" is a function that asks for URLs through the
 * crawl's answers (`RenderJob.serve`, as a browser tab's requests are held) and writes the page's HTML, on the
 * virtual clock. It renders the document the crawl serves when a page has no script. The renderer's cap is
 * kept as a browser's would be: a script still running at the cap is cut, and what it wrote so far is read.
 */
import type { PageRequestType, Renderer, RenderJob, RenderOutcome, Served } from '../../src/core/crawl/ports.ts';
import type { VirtualClock } from './virtual-clock.ts';

/** What a page's script can do. */
export interface ScriptPage {
  /** Asks for `url` (relative to the page) as the page's script would. */
  ask(url: string, options?: { method?: string; type?: PageRequestType; navigation?: boolean }): Promise<Served>;
  /** The text of an answer's body (empty when refused). */
  text(served: Served): string;
  sleep(ms: number): Promise<void>;
  /** The page's DOM so far: what is read when the script ends or the cap cuts it. */
  html: string;
  errors: string[];
}

export type PageScript = (page: ScriptPage) => Promise<void>;

export class ScriptedRenderer implements Renderer {
  /** The URLs rendered, in order (a render begun and cut short counts). */
  readonly rendered: string[] = [];
  /** Pages whose render never ends until aborted (a worker stopped mid-render). */
  readonly hang = new Set<string>();

  constructor(
    private readonly clock: VirtualClock,
    private readonly scripts: ReadonlyMap<string, PageScript>,
  ) {}

  async render(job: RenderJob): Promise<RenderOutcome> {
    this.rendered.push(job.url);
    if (this.hang.has(job.url))
      return new Promise((resolve) =>
        job.signal.addEventListener('abort', () => resolve({ ok: false, code: 'stopped', message: 'stopped' })),
      );
    let requests = 0;
    const ask: ScriptPage['ask'] = (url, options = {}) => {
      requests += 1;
      return job.serve({
        url: new URL(url, job.url).href,
        method: options.method ?? 'GET',
        type: options.type ?? 'fetch',
        navigation: options.navigation ?? false,
      });
    };
    const doc = await ask(job.url, { type: 'document' });
    if (doc.kind !== 'response')
      return {
        ok: false,
        code: 'failed',
        message: `document refused: ${doc.kind === 'refused' ? doc.because : doc.kind}`,
      };
    const text = (served: Served): string => (served.kind === 'response' ? new TextDecoder().decode(served.body) : '');
    const page: ScriptPage = {
      ask,
      text,
      sleep: (ms) => this.clock.sleep(ms, job.signal),
      html: text(doc),
      errors: [],
    };
    const script = this.scripts.get(job.url);
    let capped = false;
    if (script !== undefined) {
      const cap = new AbortController();
      const ran = script(page).then(
        () => 'done' as const,
        (error: unknown) => {
          page.errors.push(String(error));
          return 'done' as const;
        },
      );
      const timer = this.clock.sleep(job.timeoutMs, cap.signal).then(
        () => 'cap' as const,
        () => 'done' as const,
      );
      capped = (await Promise.race([ran, timer])) === 'cap';
      cap.abort();
    }
    return {
      ok: true,
      html: page.html.slice(0, job.maxHtmlChars),
      truncated: page.html.length > job.maxHtmlChars,
      scriptErrors: page.errors,
      navigations: [],
      capped,
      requests,
    };
  }
}

/**
 * A renderer for the crawl core's tests that answers through the network, as Firefox's does
 * (`Renderer.answers` `network`): each request of the page's "script" is held while the crawl answers it;
 * the tab's own request is the crawl's. A URL the crawl fetches while the page waits is fetched through
 * {@link NetworkScriptedRenderer.fetcher}, which lets the held request go (one request to the fake site, its
 * bytes shared by the crawl and the page); a URL the crawl already held is answered `go` on its host's
 * turn, and the "tab" asks the fake site itself, then ends the turn. All on the virtual clock.
 */
import type {
  FetchOutcome,
  FetchRequest,
  Fetcher,
  PageRequestType,
  Renderer,
  RenderJob,
  RenderOutcome,
  Served,
} from '../../src/core/crawl/ports.ts';
import type { FakeSite } from './fake-site.ts';
import type { PageScript, ScriptPage } from './fake-renderer.ts';
import type { VirtualClock } from './virtual-clock.ts';

/** A request of a page held until the crawl answers it, or until the crawl's fetcher lets it go. */
interface Held {
  /** Set when the crawl's fetcher let this request go: what the page got. */
  released: Promise<FetchOutcome> | null;
}

export class NetworkScriptedRenderer implements Renderer {
  readonly answers = 'network' as const;
  /** The URLs rendered, in order. */
  readonly rendered: string[] = [];
  /** How many `go` answers were given, and how many were ended. */
  goes = 0;
  ended = 0;
  /** Requests held by the render under way, by URL. */
  private readonly held = new Map<string, Held[]>();

  constructor(
    private readonly clock: VirtualClock,
    private readonly site: FakeSite,
    private readonly scripts: ReadonlyMap<string, PageScript>,
  ) {}

  /** The crawl's fetcher: a GET of a URL the page holds lets that request go instead of fetching again. */
  readonly fetcher: Fetcher = {
    fetch: (request: FetchRequest): Promise<FetchOutcome> => {
      const waiting =
        request.method === 'GET' ? this.held.get(request.url)?.find((h) => h.released === null) : undefined;
      const outcome = this.site.fetch(request);
      if (waiting !== undefined) waiting.released = outcome;
      return outcome;
    },
  };

  async render(job: RenderJob): Promise<RenderOutcome> {
    this.rendered.push(job.url);
    let requests = 0;
    const text = (served: Served): string => (served.kind === 'response' ? new TextDecoder().decode(served.body) : '');
    const ask: ScriptPage['ask'] = async (url, options = {}) => {
      requests += 1;
      const absolute = new URL(url, job.url).href;
      const request = {
        url: absolute,
        method: options.method ?? 'GET',
        type: options.type ?? ('fetch' as PageRequestType),
        navigation: options.navigation ?? false,
      };
      const held: Held = { released: null };
      this.held.set(absolute, [...(this.held.get(absolute) ?? []), held]);
      try {
        let served = await job.serve(request);
        // Fetched by the crawl while the page waited, but not through this request: ask again (`go`).
        if (served.kind === 'response' && held.released === null) served = await job.serve(request);
        if (served.kind === 'refused') return served;
        const outcome =
          served.kind === 'go'
            ? await this.goToNetwork(absolute, served.ended)
            : await (held.released as Promise<FetchOutcome>);
        if (!outcome.ok) return { kind: 'refused', because: 'failed' };
        return {
          kind: 'response',
          status: outcome.status,
          headers: outcome.headers,
          body: outcome.body ?? new Uint8Array(),
        };
      } finally {
        this.held.set(
          absolute,
          (this.held.get(absolute) ?? []).filter((h) => h !== held),
        );
      }
    };
    const doc = await ask(job.url, { type: 'document' });
    if (doc.kind !== 'response')
      return {
        ok: false,
        code: 'failed',
        message: `document refused: ${doc.kind === 'refused' ? doc.because : doc.kind}`,
      };
    const page: ScriptPage = {
      ask,
      text,
      sleep: (ms) => this.clock.sleep(ms, job.signal),
      html: text(doc),
      errors: [],
    };
    await this.scripts.get(job.url)?.(page);
    return {
      ok: true,
      html: page.html.slice(0, job.maxHtmlChars),
      truncated: page.html.length > job.maxHtmlChars,
      scriptErrors: page.errors,
      navigations: [],
      capped: false,
      requests,
    };
  }

  /** The tab's own request for a `go` answer: one request to the site, then the turn ended. */
  private async goToNetwork(url: string, ended: () => Promise<void>): Promise<FetchOutcome> {
    this.goes += 1;
    try {
      return await this.site.fetch({ url, method: 'GET', timeoutMs: 30_000, bodyLimit: () => 10_000_000 });
    } finally {
      await ended();
      this.ended += 1;
    }
  }
}

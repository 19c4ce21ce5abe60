/**
 * The crawl's answers to a rendered page's requests (`RenderJob.serve`): every request the page makes is a
 * request of the crawl, so politeness does not change, it grows to cover them.
 *
 * - A URL the crawl holds a row for is answered from the store (the page's own document first of all): its
 *   body byte for byte, a redirect as a redirect; nothing is fetched again.
 * - Any other http(s) GET is admitted as a resource of the page (`admitAnyHost`: the trap rules, the
 *   private-address guard, the resource budget), fetched by the crawl's own steps on its host's turn
 *   (robots.txt first and once, the host's gap, its back-off, the crawl's User-Agent and credentials), and
 *   answered when its row is written ({@link RowWaiters}). A URL robots.txt disallows is recorded blocked,
 *   never requested, and fails inside the page.
 * - What a crawl does not do fails inside the page, listed with why: other methods (a POST, a beacon),
 *   other schemes and WebSockets, URLs not admitted; the main frame navigating elsewhere is recorded as a
 *   link (`navigations`) and not followed.
 *
 * A renderer that answers through the network (`Renderer.answers` `network`: Firefox) gets the same
 * answers but one: a URL the crawl held when the page asked for it is answered `go` on its host's turn
 * (`render-turn.ts`), and the tab asks its server again. A URL fetched while the page waited was fetched
 * by the tab's own request (the shell's fetcher lets it go), so its `response` carries no body.
 */
import type { FrontierEntry, PageRecord, RefusedRequest } from '../../model.ts';
import { normalizeUrl, originOf } from '../../url/normalize-url.ts';
import type { CrawlView } from '../crawl-view.ts';
import { resourceCandidate } from '../kinds/work-kind.ts';
import type { PageRequest, RefusedBecause, Served } from '../ports.ts';
import type { StepContext } from '../run-context.ts';
import { takeRenderTurn } from './render-turn.ts';

/** Most refused requests kept per page (the rest are counted in none: a page that asks for thousands of beacons is bounded). */
export const MAX_REFUSED = 200;
/** Most URLs kept per page in `requests` and `navigations`. */
export const MAX_REQUESTS = 2000;
export const MAX_NAVIGATIONS = 100;

/** Response headers never handed to the rendering tab: the body is decoded, cookies are not the crawl's to set, and a download is not wanted. */
const DROPPED_HEADERS: ReadonlySet<string> = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'set-cookie',
  'set-cookie2',
  'content-disposition',
]);

const EMPTY: Uint8Array = new Uint8Array(0);

/** The requests of one render of one page, and the crawl's answers to them. */
export class PageRequests {
  /** URLs answered (the page's document first), distinct, in order. */
  readonly requests: string[] = [];
  readonly refused: RefusedRequest[] = [];
  /** Where the main frame tried to go, distinct, in order. */
  readonly navigations: string[] = [];
  private readonly answered = new Set<string>();

  /**
   * @param page the rendered page's frontier entry as stored when it was fetched (its URL and depth): its
   *   resources are found at its depth.
   * @param signal aborts when the render ends or the crawl stops: waits end, answered `timeout`; turns
   *   taken and not yet ended end.
   * @param answers how the renderer gives the page its answers (`Renderer.answers`).
   */
  constructor(
    private readonly ctx: StepContext,
    private readonly view: CrawlView,
    private readonly page: Pick<FrontierEntry, 'crawlId' | 'url' | 'depth'>,
    private readonly signal: AbortSignal,
    private readonly answers: 'bytes' | 'network' = 'bytes',
  ) {}

  /** Answers one request of the page (see the module's comment). Never throws: a failure is a refusal. */
  readonly serve = async (request: PageRequest): Promise<Served> => {
    try {
      return await this.answer(request);
    } catch {
      return this.refuse(request.url, 'failed');
    }
  };

  private async answer(request: PageRequest): Promise<Served> {
    if (request.type === 'websocket' || !/^https?:\/\//i.test(request.url)) return this.refuse(request.url, 'scheme');
    const url = normalizeUrl(request.url);
    if (url === null) return this.refuse(request.url, 'scheme');
    if (request.navigation) {
      if (!this.navigations.includes(url) && this.navigations.length < MAX_NAVIGATIONS) this.navigations.push(url);
      return { kind: 'refused', because: 'navigation' };
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return this.refuse(url, 'method');
    const { ctx, view, page } = this;
    let admitted = false;
    for (;;) {
      if (this.signal.aborted) return this.refuse(url, 'timeout');
      // Waits from before the read: a row written between the read and the wait is not missed.
      const wait = view.rowWaiters.wait(url, this.signal);
      const [row] = await ctx.commits.run(page.crawlId, (writes) => writes.getPages([url]), [undefined]);
      if (row !== undefined) {
        wait.cancel();
        // Held before the page asked: a renderer that cannot hand over bytes asks the server again, on its turn.
        if (this.answers === 'network' && !admitted) return this.turnFor(row);
        return this.fromRow(row, request);
      }
      if (!admitted) {
        admitted = true;
        const known = await ctx.commits.run(
          page.crawlId,
          async (writes) => {
            await ctx.admitAnyHost(writes, [resourceCandidate(url, originOf(url), page as FrontierEntry)]);
            const [isKnown] = await writes.knownOf([url]);
            return isKnown === true;
          },
          false,
        );
        if (!known) {
          wait.cancel();
          return this.refuse(url, 'not-admitted');
        }
        // Its host may have work again: the loop looks at once.
        view.scheduler.workAdded();
        view.poke();
      }
      if (!(await wait.written)) return this.refuse(url, 'timeout');
    }
  }

  /** `go` for a URL the crawl holds, on its host's turn; refused as {@link fromRow} refuses. */
  private async turnFor(row: PageRecord): Promise<Served> {
    if (row.blockedBy === 'robots') return this.refuse(row.url, 'robots');
    if (row.error !== null || row.status === null) return this.refuse(row.url, 'failed');
    const turn = await takeRenderTurn(this.ctx, this.view, row.url, this.signal);
    if (turn.kind === 'refused') return this.refuse(row.url, turn.because);
    this.noteAnswered(row.url);
    return turn;
  }

  /** Lists `url` among the requests answered, once. */
  private noteAnswered(url: string): void {
    if (!this.answered.has(url) && this.requests.length < MAX_REQUESTS) {
      this.answered.add(url);
      this.requests.push(url);
    }
  }

  /** The stored answer for `row`, as the tab gets it. */
  private async fromRow(row: PageRecord, request: PageRequest): Promise<Served> {
    if (row.blockedBy === 'robots') return this.refuse(row.url, 'robots');
    if (row.error !== null || row.status === null) return this.refuse(row.url, 'failed');
    const headers = row.headers.filter(([name]) => !DROPPED_HEADERS.has(name));
    // The crawl's own request sent no Origin, so a server that answers CORS only when asked did not: the page's
    // script, which did ask, is answered as that server would have.
    if (
      (request.type === 'fetch' || request.type === 'xhr' || request.type === 'eventsource') &&
      !headers.some(([name]) => name === 'access-control-allow-origin')
    )
      headers.push(['access-control-allow-origin', '*']);
    let body: Uint8Array = EMPTY;
    if (row.status >= 300 && row.status < 400) {
      if (row.location !== null && !headers.some(([name]) => name === 'location'))
        headers.push(['location', row.location]);
    } else if (row.sha256 !== null && this.answers === 'bytes') {
      body = (await this.ctx.store.getBody(row.crawlId, row.sha256))?.bytes ?? EMPTY;
    }
    this.noteAnswered(row.url);
    return { kind: 'response', status: row.status, headers, body };
  }

  private refuse(url: string, because: RefusedBecause): Served {
    if (this.refused.length < MAX_REFUSED && !this.refused.some((r) => r.url === url && r.because === because))
      this.refused.push({ url, because });
    return { kind: 'refused', because };
  }
}

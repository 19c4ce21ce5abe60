/**
 * The crawl core's view of the outside world: the network, time and storage.
 * The extension plugs in `fetch`, `Date.now`/`setTimeout` and Dexie; the tests
 * plug in a fake site, a virtual clock and an in-memory store.
 */
import type {
  CrawlRecord,
  FetchFailure,
  FrontierEntry,
  HostState,
  NotCrawledReason,
  NotCrawledUrl,
  PageRecord,
  RenderEntry,
} from '../model.ts';

/** One HTTP request, never following redirects. */
export interface FetchRequest {
  url: string;
  method: 'GET' | 'HEAD';
  /** From the request's start to the end of the body, in ms. */
  timeoutMs: number;
  /**
   * How many body bytes to read, decided from the status and `Content-Type`
   * (null when none was sent): 0 cancels the body unread; past the limit the
   * rest is cancelled and the outcome marked `truncated`.
   */
  bodyLimit: (status: number, contentType: string | null) => number;
  signal?: AbortSignal;
  /** Send no cookies or other credentials, whatever the fetcher sends otherwise (a link to another site is checked anonymously). */
  withoutCredentials?: boolean;
}

export type FetchOutcome =
  | {
      ok: true;
      status: number;
      /** Lower-cased header names, in the order served. */
      headers: [string, string][];
      /** Absolute target of a 3xx `Location`, resolved against the request URL; null otherwise. */
      location: string | null;
      /** The body bytes exactly as delivered (decoded of any Content-Encoding), or null when not read. */
      body: Uint8Array | null;
      truncated: boolean;
      /** What only the network layer sees (the wire), when the platform reports it. */
      wire: WireDetails | null;
      /** Timestamps (ms) of the request's start and of the end of the response as read. */
      startedAt: number;
      endedAt: number;
    }
  | {
      ok: false;
      error: FetchFailure;
      startedAt: number;
      endedAt: number;
      /**
       * True when the browser reported no request sent (webRequest saw no `onSendHeaders`: a name that does not
       * resolve, a connection never made, a request the browser held back until the timeout): the server never
       * saw it, so its duration is no response time of the server's (`response-time.ts`).
       */
      unsent?: boolean;
    };

/** Details of one exchange that `fetch` does not expose; an archive (WARC) records them. */
export interface WireDetails {
  /** e.g. `HTTP/1.1 200 OK`. */
  statusLine: string | null;
  /** Request headers as sent, lower-cased names. */
  requestHeaders: [string, string][] | null;
  ipAddress: string | null;
  /**
   * How long the server took to answer, in ms: from the request's headers sent to the response's headers
   * received, on the browser's network clock (webRequest's `timeStamp`s); absent or null when not seen. Unlike
   * the fetch's own duration, it leaves out the time the extension's page took to hand the request over and
   * read the answer (measured in Firefox under load: a response the server ended at once reached the crawl
   * 3.1 s later). The host's adaptive gap is counted from it (`response-time.ts`).
   */
  serverMs?: number | null;
}

export interface Fetcher {
  fetch(request: FetchRequest): Promise<FetchOutcome>;
}

/** Time, injectable so that politeness can be tested without sleeping. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds, or rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A body stored once per crawl, keyed by its SHA-256; `url` is the first URL that served it. */
export interface StoredBody {
  crawlId: string;
  sha256: string;
  url: string;
  bytes: Uint8Array;
}

/**
 * Links to URLs the crawl already knew, found by the pages of one transaction
 * and not yet added to those URLs' inlink counts and anchor texts (see
 * `CrawlWrites` in `crawl-writes.ts`: a crawl with several requests per host
 * counts them in batches). Parallel arrays, one slot per URL.
 */
export interface LinkTally {
  crawlId: string;
  /** Increasing per crawl: tallies are folded in this order. */
  batch: number;
  urls: string[];
  /** Linking pages per URL. */
  inlinks: number[];
  /** New anchor texts per URL, in the order found. */
  anchors: string[][];
  /**
   * Links to fetched rows only, kept by a fold of the running crawl for the fold at its end (see
   * `foldLinkTallies`'s `entriesOnly`); absent on the tallies steps write.
   */
  rowsOnly?: true;
}

/**
 * Reads and writes inside one transaction. Implementations must make the
 * whole transaction atomic; the work function awaits nothing but these calls.
 */
export interface StoreTx {
  getCrawl(crawlId: string): Promise<CrawlRecord | undefined>;
  putCrawl(crawl: CrawlRecord): Promise<void>;

  getHost(crawlId: string, origin: string): Promise<HostState | undefined>;
  putHosts(hosts: HostState[]): Promise<void>;
  listHosts(crawlId: string): Promise<HostState[]>;

  /** Entries for these URLs, in the same order; undefined where absent. */
  getEntries(crawlId: string, urls: string[]): Promise<(FrontierEntry | undefined)[]>;
  putEntries(entries: FrontierEntry[]): Promise<void>;
  deleteEntries(crawlId: string, urls: string[]): Promise<void>;
  /** The queued (unleased) entry of this host with the lowest `seq`. */
  nextEntry(crawlId: string, origin: string): Promise<FrontierEntry | undefined>;
  /** Every entry of the crawl that holds a lease (any run). */
  leasedEntries(crawlId: string): Promise<FrontierEntry[]>;
  /** Queued entries of one host in `seq` order, at most `limit`. */
  queuedEntries(crawlId: string, origin: string, limit: number): Promise<FrontierEntry[]>;

  getPages(crawlId: string, urls: string[]): Promise<(PageRecord | undefined)[]>;
  putPages(pages: PageRecord[]): Promise<void>;

  /** Which of these URLs the crawl holds, as a frontier entry or a row (keys only, no record read). */
  knownOf(crawlId: string, urls: string[]): Promise<boolean[]>;

  putLinkTally(tally: LinkTally): Promise<void>;
  /** Every tally of the crawl not folded yet, in batch order. */
  linkTallies(crawlId: string): Promise<LinkTally[]>;
  /** Removes these tallies of the crawl, by batch. */
  deleteLinkTallyBatches(crawlId: string, batches: number[]): Promise<void>;

  /** The first URL stored with this body hash, if any. */
  bodyOwner(crawlId: string, sha256: string): Promise<string | undefined>;
  putBody(body: StoredBody): Promise<void>;

  /** Records URLs left unvisited (a URL already recorded is replaced). */
  putNotCrawled(urls: NotCrawledUrl[]): Promise<void>;
  /** The crawl's URLs left unvisited after `afterUrl` (null: from the first), in URL order, at most `limit`. */
  notCrawledAfter(crawlId: string, afterUrl: string | null, limit: number): Promise<NotCrawledUrl[]>;
  deleteNotCrawled(crawlId: string, urls: string[]): Promise<void>;

  /** Queues pages to render (a page already queued is replaced). */
  putRenders(entries: RenderEntry[]): Promise<void>;
  /** The queued render with the lowest `seq`, if any. */
  nextRender(crawlId: string): Promise<RenderEntry | undefined>;
  deleteRender(crawlId: string, url: string): Promise<void>;
}

/**
 * The store refused a transaction because the browser's storage for the
 * extension is full (its quota, or the disk). Nothing of that transaction was
 * written. Stores throw this, not their own quota errors, so the crawl core
 * can pause a crawl instead of failing it.
 */
export class StorageFullError extends Error {
  override readonly name = 'StorageFullError';
}

/**
 * The Web Lock (`navigator.locks`, shared by the extension's pages and worker) an import holds, in `shared`
 * mode, from before its first write to its end; the sweep of orphans ({@link CrawlStore.deleteOrphans}) runs
 * only while it can take it exclusively, so that it never removes the rows of an import under way. A page
 * closed mid-import releases it.
 */
export const IMPORT_LOCK = 'tabcrawl-import';

/** Storage of crawls. The crawl core needs nothing else to run and to resume. */
export interface CrawlStore {
  /**
   * Runs `work` as one atomic read-write transaction. Transactions do not interleave.
   * @throws StorageFullError when the storage is full (nothing of `work` is written).
   */
  transaction<T>(work: (tx: StoreTx) => Promise<T>): Promise<T>;

  listCrawls(): Promise<CrawlRecord[]>;
  getCrawl(crawlId: string): Promise<CrawlRecord | undefined>;
  /** The crawl's hosts, read outside any read-write transaction (it waits for none and holds none up). */
  listHosts(crawlId: string): Promise<HostState[]>;
  /** Every URL the crawl holds, as a row or in the frontier (keys only: cheap however large the rows). */
  knownUrls(crawlId: string): Promise<string[]>;
  /** Crawl-table rows with `seq > afterSeq`, in `seq` order, at most `limit`. */
  pagesAfter(crawlId: string, afterSeq: number, limit: number): Promise<PageRecord[]>;
  /** The newest rows (highest `seq` first), at most `limit`. */
  latestPages(crawlId: string, limit: number): Promise<PageRecord[]>;
  getBody(crawlId: string, sha256: string): Promise<StoredBody | undefined>;
  /** Several bodies in one read (an export reads a few hundred at a time), in the order asked: undefined where none is stored. */
  getBodies(crawlId: string, sha256s: readonly string[]): Promise<(StoredBody | undefined)[]>;
  /**
   * URLs the crawl left unvisited (see `NotCrawledUrl`) after `afterUrl` (null: from the first), in URL
   * order, at most `limit`; of one reason only when `reason` is given.
   */
  notCrawledAfter(
    crawlId: string,
    afterUrl: string | null,
    limit: number,
    reason?: NotCrawledReason | null,
  ): Promise<NotCrawledUrl[]>;
  /** Removes the crawl and everything stored for it (rows, bodies… even when no crawl record exists under that id). */
  deleteCrawl(crawlId: string): Promise<void>;
  /**
   * Removes everything stored under a crawl id that has no crawl record (an import stopped by a closed page
   * writes its rows and bodies first and its crawl record last), in one transaction; returns how many such ids
   * there were. Cheap: reads keys only, one lookup per crawl id.
   */
  deleteOrphans(): Promise<number>;
}

/**
 * The read side of a {@link CrawlStore}: what a page that only shows or
 * exports a crawl gets (the export page, the results tab), so that it cannot
 * write the database the worker owns.
 */
export type CrawlReader = Pick<
  CrawlStore,
  | 'listCrawls'
  | 'getCrawl'
  | 'listHosts'
  | 'knownUrls'
  | 'pagesAfter'
  | 'latestPages'
  | 'getBody'
  | 'getBodies'
  | 'notCrawledAfter'
>;

/**
 * What asked for a request of a rendered page, as the browser classifies it: a frame's `document` (the
 * page's own, an iframe's, or the page navigating itself elsewhere), its subresources, the requests its
 * scripts make (`fetch`, `xhr`, `beacon`, `eventsource`, `websocket`), a worker's script or its requests.
 */
export type PageRequestType =
  | 'document'
  | 'stylesheet'
  | 'script'
  | 'image'
  | 'font'
  | 'media'
  | 'fetch'
  | 'xhr'
  | 'beacon'
  | 'eventsource'
  | 'websocket'
  | 'worker'
  | 'manifest'
  | 'other';

/** One request a rendered page made, held by the renderer until the crawl answers it ({@link RenderJob.serve}). */
export interface PageRequest {
  /** Absolute URL as the page asked for it (fragment removed). */
  url: string;
  /** The HTTP method, upper case (`GET`, `POST`…). */
  method: string;
  type: PageRequestType;
  /**
   * True when the page's main frame asks to go to another document (a script setting `location`, a
   * meta refresh, a form): the tab never follows it; the crawl records the target as a link.
   */
  navigation: boolean;
}

/** Why a rendered page's request failed inside the page without reaching any server. */
export type RefusedBecause =
  /** robots.txt of its host disallows the URL (or could not be read: the host is blocked). */
  | 'robots'
  /** Not a GET (a POST, a beacon…): a crawl only reads. */
  | 'method'
  /** Not http(s), or a WebSocket: the crawl has no polite way to make it. */
  | 'scheme'
  /** The crawl's budget of resources is spent, or the URL is outside what the crawl may fetch. */
  | 'not-admitted'
  /** The main frame navigating elsewhere: recorded as a link, not followed by the tab. */
  | 'navigation'
  /** The crawl did not answer it before the page's time was up, or the crawl stopped. */
  | 'timeout'
  /** It was fetched, and failed at the network level (the row says how). */
  | 'failed';

/** The crawl's answer to one {@link PageRequest}. */
export type Served =
  | {
      kind: 'response';
      status: number;
      /** Lower-cased names, as stored (no `content-encoding`: the body is decoded). */
      headers: [string, string][];
      body: Uint8Array;
    }
  | { kind: 'refused'; because: RefusedBecause }
  /**
   * Only to a renderer whose {@link Renderer.answers} is `network`, for a URL the crawl already holds: the
   * host's turn has come (its robots.txt read and allowing the URL, its gap kept, the host marked busy), so
   * the tab's own request may go to the server now. The renderer must call `ended` once, when that
   * response has ended or failed (or when it cancels the request instead): the host's next turn is
   * counted from then. What the tab gets is not stored (the crawl keeps its first capture).
   * `ended('cut')` says the request did not end by its response (cancelled, or still under way when the
   * render ended): its time is then no response time, and the host's adaptive gap does not grow from it.
   * `serverMs`, when the renderer saw it, is the server's own time to answer (as `WireDetails.serverMs`):
   * the adaptive gap counts it rather than the turn's length.
   */
  | { kind: 'go'; ended: (how?: TurnEnd, serverMs?: number | null) => Promise<void> };

/** How a rendered page's request on its host's turn ended: `answered` (its response, or a failure), or `cut`. */
export type TurnEnd = 'answered' | 'cut';

/** One page to render. */
export interface RenderJob {
  url: string;
  /** The longest the whole render may take, from the tab's first request to the DOM read, in ms. */
  timeoutMs: number;
  /** The network counts as quiet after this many ms with no request of the page unanswered or new. */
  quietMs: number;
  /** The most characters of the rendered DOM returned; past it the HTML is cut and `truncated` set. */
  maxHtmlChars: number;
  /** Answers each request of the page; the renderer lets nothing reach the network any other way. */
  serve(request: PageRequest): Promise<Served>;
  /** Aborts the render (the crawl stops or pauses): it resolves soon after with `stopped`. */
  signal: AbortSignal;
}

/** Why a render produced no DOM. */
export type RenderFailureCode =
  /** The browser gives the extension no way to render (no permission, no API). */
  | 'unavailable'
  /** The page's tab crashed or ran out of memory. */
  | 'crashed'
  /** The page had not loaded its document when the time was up. */
  | 'timeout'
  /**
   * The crawl stopped or paused, or the renderer was stopped from outside before the page was read (Firefox
   * suspending its event page): either way the page is rendered again (in the second case, this attempt
   * counted, as when a worker stops mid-render).
   */
  | 'stopped'
  /** Anything else the browser reported. */
  | 'failed';

export type RenderOutcome =
  | {
      ok: true;
      /** The live DOM serialized (`document.documentElement.outerHTML` with its doctype), at most `maxHtmlChars`. */
      html: string;
      truncated: boolean;
      /** Uncaught script errors and unhandled rejections, in order, each at most 500 characters, at most 20. */
      scriptErrors: string[];
      /** Where the page's main frame tried to navigate itself (absolute URLs, distinct, in order). */
      navigations: string[];
      /** Whether the cap ended the render before the network was quiet. */
      capped: boolean;
      /** How many requests the page made (each answered through `serve`). */
      requests: number;
    }
  | { ok: false; code: RenderFailureCode; message: string };

/**
 * Loads a page in a browser tab the user does not see and runs its scripts, every request of it held
 * until {@link RenderJob.serve} answers: the network is reached only by the crawl, on each host's turn.
 * Waits for the network to be quiet (or the cap), scrolls once to the bottom, waits again, and returns
 * the live DOM.
 */
export interface Renderer {
  /**
   * How the renderer gives the page the crawl's answers. `bytes` (the default; Chrome's Fetch domain): it
   * hands the page the body `serve` returns, and no request of the page reaches the network. `network`
   * (Firefox, which can hold and cancel a tab's requests but not answer them): the tab's own request is the
   * crawl's request. A URL the crawl does not hold yet is fetched by the crawl's steps on its host's turn as
   * always, through a `Fetcher` that lets the tab's held request go and copies its response (the shell's
   * part); `serve` answers `response` once that row is written. A URL the crawl already holds (the page's
   * own document first of all) is answered `go` on its host's turn: asked of the server again, politely.
   */
  readonly answers?: 'bytes' | 'network';
  render(job: RenderJob): Promise<RenderOutcome>;
}

/**
 * The records a crawl is made of. These are plain data: the same shapes are
 * kept in IndexedDB by the extension and in memory by the tests.
 *
 * Times are `Date.now()`-style timestamps in ms since the epoch unless the
 * name says otherwise.
 */
import type { CustomFindings } from './custom-rules/apply-rules.ts';
import type { PageFacts } from './page-facts/page-facts.ts';
import type { CrawlSettings } from './settings.ts';

/**
 * Life of a crawl:
 *
 * ```
 * running ──(user pauses)──► paused ──(user resumes)──► running
 * running ──(user stops)───► stopped ─(user resumes)──► running
 * paused ───(user stops)───► stopped
 * running ──(frontier empty, nothing in flight)──► finished
 * running ──(internal error / start URL unreachable)──► failed
 * ```
 *
 * Only `running` crawls are run, and resumed on a worker start. `paused` and
 * `stopped` keep the frontier and every host clock (`nextAllowedAt` is
 * stored), so a resumed crawl continues where it was, with its spacing.
 * A pause lets the requests in flight finish and be recorded; a stop cuts them
 * (they are queued again).
 */
export type CrawlState = 'running' | 'paused' | 'stopped' | 'finished' | 'failed';

/** Counters kept on the crawl record, updated in the same transaction as the rows they count. */
export interface CrawlCounts {
  /** URLs ever admitted to the frontier (the `maxPages` budget is spent against this). */
  admitted: number;
  /** Rows written to the crawl table (every outcome). */
  done: number;
  /** Rows with an HTTP status (any status). */
  fetched: number;
  /** Rows that failed at the network level (timeout, connection refused, ...) or with HTTP status >= 400. */
  errors: number;
  /** Rows never requested because robots.txt disallowed them. */
  blocked: number;
  /**
   * Page resources ever admitted (stylesheets, scripts, images, fonts…: the
   * `maxResources` budget is spent against this with {@link CrawlCounts.files}).
   * Absent (read as 0) in crawls stored before resources were archived.
   */
  resourcesAdmitted?: number;
  /** Rows of kind `resource` written (in `done`). Absent: 0. */
  resources?: number;
  /** Rows of kind `file` written (in `done`): linked files, downloaded or not. Absent: 0. */
  files?: number;
  /** URLs on other sites ever admitted to be checked (the `maxExternal` budget). Absent: 0. */
  externalAdmitted?: number;
  /** Rows of kind `external` written (in `done`): links to other sites checked, or blocked by their robots.txt. Absent: 0. */
  external?: number;
  /**
   * Bytes of the bodies stored for this crawl, each distinct body (by SHA-256)
   * counted once, and nothing else: crawl-table rows, frontier entries, host
   * records and indexes are not counted, so this is a lower bound of the space
   * the crawl takes on disk. Absent (read as 0) in crawls stored before this
   * counter existed; bodies stored before then are not counted.
   */
  bytesStored: number;
  /** Pages queued to be rendered (`settings.render`); absent (0) in crawls that render none. Also the render queue's `seq`. */
  renders?: number;
  /** Renders ended (rendered, or failed with a recorded reason); absent (0) in crawls that render none. */
  rendered?: number;
  /**
   * URLs the crawl found and left unvisited, by why (see {@link NotCrawledUrl}): set when the crawl
   * finishes, from the URLs recorded while it ran that it never got to in the end. Absent while it runs,
   * when it ends otherwise, and in crawls stored before it was counted.
   */
  notCrawled?: NotCrawledCounts;
}

/**
 * Why a URL a page linked to (or a redirect led to) was left unvisited by a rule of the crawl: the depth
 * limit (`maxDepth`), the page limit (`maxPages`), the path prefix, an exclude pattern, or the trap rules
 * (a URL that repeats itself, or one query variant too many of one path). A link to another site is
 * outside the crawl by definition, and checked (a row of kind `external`); it is listed here only when
 * it was not checked: past the crawl's limit of checks per other site (`external-host-limit`,
 * `maxExternalPerHost`) or of them all (`external-limit`, `maxExternal`), with checks turned off (`external-off`), or
 * kept from it by that site's robots.txt (`external-robots`: it also has its blocked row). A URL on the user's
 * own network (a private, loopback, link-local or metadata address) that a crawl of a public site never asks
 * for, whatever kind of work it was (`private-address`, see `crawl/network-guard.ts`).
 */
export type NotCrawledReason = (typeof NOT_CRAWLED_REASONS)[number];

/** Every {@link NotCrawledReason}, in the order they are told (the usual first). */
export const NOT_CRAWLED_REASONS = Object.freeze([
  'depth',
  'page-limit',
  'prefix',
  'excluded',
  'trap',
  'external-host-limit',
  'external-limit',
  'external-off',
  'external-robots',
  'private-address',
] as const);

/** URLs left unvisited, by reason; a reason with none is absent. */
export type NotCrawledCounts = Partial<Record<NotCrawledReason, number>>;

/**
 * A URL the crawl found and did not visit, as first refused: stored while the crawl runs (once per URL),
 * and, when it finishes, kept only if the URL was not visited after all (found again nearer the start,
 * or a slot freed). The results browser lists them.
 */
export interface NotCrawledUrl {
  crawlId: string;
  /** Normalized absolute URL. */
  url: string;
  reason: NotCrawledReason;
  /** The depth it would have had (link hops from the start URL). */
  depth: number;
  /** The page that linked to it (or redirected to it). */
  referrer: string | null;
}

export interface CrawlRecord {
  /** Random id, also the key in storage. */
  id: string;
  settings: CrawlSettings;
  state: CrawlState;
  /** When the crawl was created. */
  createdAt: number;
  /** When the crawl reached `finished`, `stopped` or `failed`; null while running or paused. */
  endedAt: number | null;
  /**
   * When the crawl last left `running` for `paused` or `stopped`; null while
   * running, and absent in crawls stored before pausing existed.
   */
  pausedAt?: number | null;
  /**
   * Total time spent paused or stopped before the last resume, in ms; absent
   * (read as 0) in crawls stored before pausing existed.
   */
  pausedMs?: number;
  counts: CrawlCounts;
  /**
   * What the user should know of how the crawl went: why it failed, stopped
   * or paused by itself, or that the browser interrupted it; null otherwise.
   */
  message: string | null;
  /** Next frontier sequence number; orders the frontier (breadth first). */
  nextSeq: number;
  /** Number of the last link tally written (see `LinkTally`); absent before the first. */
  linkBatch?: number;
  /**
   * The name of the archive the crawl was imported from; absent for a crawl Tabcrawl made (crawls
   * imported before it was recorded gain it in the upgrade to schema version 9). A re-run of an imported crawl shows its settings before it starts.
   */
  importedFrom?: string;
  /**
   * Private addresses the crawl's own sites answered from (at most `MAX_OWN_SITE_ADDRESSES`), in a crawl that
   * must not reach the user's network (`crawl/network-guard.ts`): a proxy or gateway of the user's, or an
   * intranet under a public name. Another host answering from one of them is not taken for private. Absent: none.
   */
  ownSiteAddresses?: string[];
}

/**
 * What a frontier entry asks for, the kind of work it is (see
 * `core/crawl/kinds/`): a page found by a link (HTML, or a linked file), a
 * sitemap listed in robots.txt, or a page resource (a stylesheet, script,
 * image, font… that a stored page or stylesheet loads: fetched whatever its
 * host, never followed, outside the page budget), or a link to another site
 * (`external`: checked with HEAD, never followed, outside the page budget).
 */
export type EntryKind = 'page' | 'sitemap' | 'resource' | 'external';

/**
 * What a crawl-table row is: its entry's kind, except that a page entry
 * answered with a successful response that is not HTML (a PDF, an image, an
 * archive…) is a linked `file`.
 */
export type RowKind = EntryKind | 'file';

/** What a URL of a crawl is, from its admission on: shared by frontier entries and crawl-table rows. */
export interface CrawlUrl {
  crawlId: string;
  /** Normalized absolute URL; unique per crawl across the frontier and the crawl table. */
  url: string;
  /** Scheme, host and port of `url`: the unit of politeness. */
  origin: string;
  kind: EntryKind;
  /** Link hops from the start URL (0); a redirect target keeps its source's depth. */
  depth: number;
  /** The page whose link (or redirect, or sitemap) admitted this URL; null for the start URL. */
  referrer: string | null;
  /** Every distinct anchor text of the links seen so far that point here, in the order found (at most 50, each at most 200 characters). */
  anchors: string[];
  /** Pages of this crawl with a followed link here (each page counted once; redirects and sitemaps do not count). */
  inlinks: number;
}

/** A URL waiting to be attempted. Deleted when its row is written to the crawl table. */
export interface FrontierEntry extends CrawlUrl {
  /** Admission order within the crawl. */
  seq: number;
  /** Attempts that ended in a retryable answer (429/503) or were cut by a worker stop. */
  attempts: number;
  /**
   * Id of the worker run that is fetching this entry now, or null when queued.
   * A lease from another run is stale: that worker died mid-request.
   */
  leaseRunId: string | null;
  /**
   * Set when a HEAD was sent for this URL and its answer called for a GET (a page or file to read, a
   * link checker's HEAD refused): the GET is a request of its own, claimed after the host's gap like
   * any other, and the next claim sends it alone. Absent otherwise.
   */
  awaitsGet?: true;
}

/** A network-level failure, as data. */
export interface FetchFailure {
  /**
   * `no-access`: Chrome does not let Tabcrawl reach the host (site access restricted or withdrawn); the
   * request was not sent. On one of the crawl's own sites the crawl pauses instead of recording it; on
   * another host (a page resource, a checked link) the row records it and the crawl goes on.
   * `dns`: the host name does not resolve; `refused`: the host refused the connection (nothing listens
   * on its port). Either makes a host unreachable (see {@link isUnreachableFailure}). `network`: any other
   * failure before an answer (reset, TLS, or one the browser did not name).
   */
  code: 'timeout' | 'network' | 'dns' | 'refused' | 'aborted' | 'invalid-response' | 'no-access';
  message: string;
}

/**
 * Whether a failure says the host cannot be reached at all (its name does not resolve, or it refuses
 * connections), as opposed to a server that took the request and did not answer properly.
 */
export function isUnreachableFailure(failure: FetchFailure): boolean {
  return failure.code === 'dns' || failure.code === 'refused';
}

/** The element a link was written in: `<a href>`, `<area href>`, a document `<link href>`, `<iframe src>`, `<frame src>`. */
export type LinkElement = 'a' | 'area' | 'link' | 'iframe' | 'frame';

/** One row of the crawl table: one attempted URL. */
export interface PageRecord extends Omit<CrawlUrl, 'kind'> {
  kind: RowKind;
  /** Completion order within the crawl (1, 2, ...). */
  seq: number;
  /** HTTP status of the final answer for this URL; null when never fetched or failed at the network level. */
  status: number | null;
  /** `Content-Type` as served, or null. */
  contentType: string | null;
  /** `Content-Length` as served, else the number of body bytes read; null when unknown. */
  contentLength: number | null;
  /** Absolute redirect target for 3xx answers with a `Location`. */
  location: string | null;
  /** Request methods sent for this URL, in order (e.g. `["HEAD", "GET"]`). Empty when blocked. */
  methods: ('GET' | 'HEAD')[];
  /** When the (last) request started; null when never requested. */
  fetchedAt: number | null;
  /** From the request's start to the end of the response as read (body included when stored), in ms. */
  responseTimeMs: number | null;
  /** Response headers, lower-cased names, in order. */
  headers: [string, string][];
  /** The HTTP status line as received (e.g. `HTTP/1.1 200 OK`), when the browser reported it; else null. */
  statusLine: string | null;
  /** Request headers as the browser sent them (lower-cased names), when it reported them; else null. */
  requestHeaders: [string, string][] | null;
  /** IP address of the server that answered, when the browser reported it; else null. */
  ipAddress: string | null;
  /** Hex SHA-256 of the stored body; null when no body is stored. */
  sha256: string | null;
  /** Earlier URL of this crawl with a byte-identical body; its links were not extracted again. */
  duplicateOf: string | null;
  /** The body was cut at its size cap (`maxBodyBytes` for pages, `maxFileBytes` for resources and files). */
  truncated: boolean;
  /** `<title>` text of HTML pages. */
  title: string | null;
  /** Outgoing links found in the page, absolute and normalized, in document order, distinct. */
  links: string[];
  /** Anchor text of the first link to each of `links` (same order; "" when the link had none). */
  linkTexts: string[];
  /**
   * The element of the first link to each of `links` (same order): `a`, `area`, a document `link`,
   * `iframe`, `frame`. Absent in rows stored before it was recorded, and in imported rows.
   */
  linkElements?: LinkElement[];
  /** The `rel` of the first link to each of `links` (same order; "" when none), tokens lower-cased. Absent as `linkElements` is. */
  linkRels?: string[];
  /**
   * Page resources this row loads (an HTML page's stylesheets, scripts,
   * images…; a stylesheet's imports, fonts and images), absolute and
   * normalized, distinct, in document order; empty for other rows. Read as
   * empty in rows stored before resources were archived.
   */
  resources: string[];
  /**
   * What an audit reads off an HTML page (canonical, robots directives, headings…: see
   * `core/page-facts/page-facts.ts`); null for other rows, and absent in rows stored before facts were recorded.
   */
  facts?: PageFacts | null;
  /**
   * What rendering the page (running its scripts in a browser tab) found, when the crawl rendered it
   * (`settings.render`); absent when it did not. When the render succeeded, `title`, `links`,
   * `linkTexts` and `facts` above are the rendered page's, and the static HTML's are kept here.
   */
  render?: RenderRecord;
  /**
   * What the crawl's custom searches and extractions (`settings.searches`, `settings.extractions`) found in
   * this HTML page (`core/custom-rules/`): the rendered page's when it was rendered. Absent when the crawl had
   * none, in other rows, and in rows stored before they existed.
   */
  custom?: CustomFindings;
  /** `"robots"` when robots.txt disallowed the URL: it was never requested. */
  blockedBy: 'robots' | null;
  /** The robots.txt rule that blocked the URL (e.g. `Disallow: /private`), when known. */
  blockedRule: string | null;
  error: FetchFailure | null;
  /**
   * Where the row came from: `"archive"` when it was read from a WARC or WACZ file (the import,
   * `src/import/`): it has no politeness timings, and a response time only when the archive recorded
   * one. Absent on the rows of Tabcrawl's own crawls.
   */
  source?: 'archive';
}

/** Where the robots.txt of one host stands. */
export type RobotsPhase =
  /** Not fetched yet (or fetching: see `HostState.inFlight`). */
  | 'pending'
  /** Known: `body` parsed (2xx), or allow-all (4xx, too many redirects). */
  | 'ready'
  /** 5xx, 429 or network failure: disallow all until `retryAt`. */
  | 'unavailable'
  /** Unavailable too often: every queued URL of the host is recorded as blocked. */
  | 'failed'
  /**
   * The host cannot be reached (its name does not resolve, or it refuses connections: `failure`): every
   * queued URL of the host is recorded as failed with that reason, without a request. Not retried.
   */
  | 'unreachable';

export interface RobotsState {
  phase: RobotsPhase;
  /** URL to request next: `/robots.txt` of the host, or the target of a redirect being followed. */
  nextUrl: string;
  /** Redirect hops followed so far (RFC 9309 §2.3.1.2: at most 5). */
  redirects: number;
  /** Failed fetches so far (5xx, 429, network). */
  failures: number;
  /** Earliest time to try again while `unavailable`; 0 otherwise. */
  retryAt: number;
  /** HTTP status of the last robots.txt answer; null before any or after a network failure. */
  status: number | null;
  /** Body of a 2xx answer (at most the parse limit), else null: allow-all or not known yet. */
  body: string | null;
  /** When the final answer arrived; null before. */
  fetchedAt: number | null;
  /** Why the host is `unreachable` (a `dns` or `refused` failure of its robots.txt); absent in other phases. */
  failure?: FetchFailure;
}

/** Politeness and robots state of one host (scheme, host and port) within one crawl. */
export interface HostState {
  crawlId: string;
  origin: string;
  robots: RobotsState;
  /** Earliest start of the next request to this host; 0 when it may go at once. */
  nextAllowedAt: number;
  /** Response time of the last answer from this host, in ms (the adaptive term of the gap); 0 before any. */
  lastResponseMs: number;
  /**
   * Response times of the host's most recent answers (at most `RECENT_RESPONSES` of `core/crawl/progress.ts`),
   * oldest first, in ms: the time left is estimated from their median, so one slow answer does not make it jump.
   * Absent before the first answer, and on hosts stored before it existed.
   */
  recentResponseMs?: number[];
  /** Until when the host asked us to back off (429/503, Retry-After); 0 when not backing off. */
  backoffUntil: number;
  /** The request in flight to this host, or null. At most one at a time. */
  inFlight: { url: string; startedAt: number; runId: string } | null;
  /** Frontier entries of this host still queued or in flight. */
  pending: number;
  /** URLs of this host ever admitted to be checked as links from the crawl's site (the `maxExternalPerHost` budget). Absent: 0. */
  externalAdmitted?: number;
  /**
   * The private address (loopback, local network, link-local, metadata) a host whose name reads as public
   * was found to answer from (the IP the browser reports for its robots.txt or a later answer), in a crawl
   * that must not reach the user's network (`crawl/network-guard.ts`): nothing more is asked of it. Absent:
   * none seen.
   */
  privateAddress?: string;
}

export function emptyCounts(): CrawlCounts {
  return {
    admitted: 0,
    done: 0,
    fetched: 0,
    errors: 0,
    blocked: 0,
    bytesStored: 0,
    resourcesAdmitted: 0,
    resources: 0,
    files: 0,
    externalAdmitted: 0,
    external: 0,
  };
}

/** One request of a rendered page that failed inside the page without reaching any server. */
export interface RefusedRequest {
  url: string;
  /** Why (see `RefusedBecause` in `core/crawl/ports.ts`). */
  because: 'robots' | 'method' | 'scheme' | 'not-admitted' | 'navigation' | 'timeout' | 'failed';
}

/** The static HTML's facts of a rendered page, as the fetch read them before the render replaced them. */
export interface StaticFacts {
  title: string | null;
  links: string[];
  linkTexts: string[];
  facts: PageFacts | null;
}

/**
 * What the render of one page found (see `PageRecord.render`). Bounded: at most 20 script errors, 200
 * refused requests and 100 navigations are kept; `requests` lists at most 2,000 URLs.
 */
export interface RenderRecord {
  /** `rendered`, or why the render produced no DOM (then the row keeps its static facts). */
  outcome: 'rendered' | 'unavailable' | 'crashed' | 'timeout' | 'stopped' | 'failed';
  /** The browser's words on a failure; null when rendered. */
  message: string | null;
  /** Why the page was rendered: `always`, or the `auto` rule that matched (see `core/page-facts/render-rule.ts`). */
  why: string;
  /** When the render ended (ms since the epoch). */
  at: number;
  /** How long it took, in ms. */
  durationMs: number;
  /** The cap ended it before the network was quiet. */
  capped: boolean;
  /** The static HTML's facts; null when the render failed (the row's own are then the static ones). */
  static: StaticFacts | null;
  /** Hex SHA-256 of the rendered DOM stored as a body; null when none was stored. */
  sha256: string | null;
  /** The rendered DOM was cut at the page's size cap. */
  truncated: boolean;
  /** Uncaught script errors and unhandled rejections during the render, in order. */
  scriptErrors: string[];
  /** Every URL the page used and the crawl answered (its document's included), distinct, in order. */
  requests: string[];
  /** The page's requests that failed inside it, with why. */
  refused: RefusedRequest[];
  /** Where the page's main frame tried to navigate itself (recorded as links, never followed by the tab). */
  navigations: string[];
}

/**
 * A page waiting for its render (stored, so that a restarted worker renders it again). Served in `seq`
 * order, one at a time per crawl.
 */
export interface RenderEntry {
  crawlId: string;
  /** The page's URL (its row holds the static fetch). */
  url: string;
  /** Increasing per crawl: the order renders are done in. */
  seq: number;
  /** Why it is rendered: `always`, or the `auto` rule that matched. */
  why: string;
  /** Renders begun and cut short (a worker or browser restart): after {@link MAX_RENDER_ATTEMPTS} it is given up. */
  attempts: number;
  /**
   * Renders the renderer itself ended `stopped` (Firefox suspending its event page, a suspension it may cancel
   * and the page run on): after {@link MAX_RENDER_STOPS} it is given up. Missing in entries stored before it: 0.
   */
  stops?: number;
}

/** Most renders of one page begun before it is given up (each cut short by a restart). */
export const MAX_RENDER_ATTEMPTS = 3;

/**
 * Most renders of one page the renderer may end `stopped` before it is given up: a bound on a browser that
 * stops every render, not a count of restarts. A suspension Firefox cancels stops the render while the event
 * page lives on, which is no fault of the page's, and a page busy with its requests cancels suspension after
 * suspension (one stop of the tests' driver took dozens of requests to stop it).
 */
export const MAX_RENDER_STOPS = 100;

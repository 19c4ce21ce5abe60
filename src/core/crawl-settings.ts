/**
 * The type of a crawl's settings, on its own so that both the validator
 * (`core/settings.ts`) and the table of settings (`core/setting-table.ts`)
 * can name it without importing each other. Import it from `core/settings.ts`.
 */
/**
 * How a crawl renders pages (runs their scripts in a browser tab and reads the page as the browser shows it):
 * `off` never (the HTML as fetched is parsed, as before issue 29), `auto` only pages whose HTML suggests that
 * scripts build them, `always` every page. The order is the form's and `--help`'s.
 */
export const RENDER_MODES = ['off', 'auto', 'always'] as const;
export type RenderMode = (typeof RENDER_MODES)[number];

/** Everything that shapes one crawl. Stored with the crawl, so a crawl can be resumed or re-run. */
export interface CrawlSettings {
  /** Absolute http(s) URL the crawl starts from. Its origin is the default scope. */
  startUrl: string;
  /**
   * Most pages, as `MAX_PAGES_COUNTS` (`core/setting-table.ts`) says (the crawl's `counts.admitted` is spent against it).
   * @default 500
   */
  maxPages: number;
  /** Most link hops from the start URL (start URL = depth 0). Redirect targets keep their source's depth. @default 20 */
  maxDepth: number;
  /** Politeness delay between the end of one response and the start of the next request to the same host, in ms. @default 1000 */
  delayMs: number;
  /** Product token matched against robots.txt `User-agent` lines (the group we obey). The User-Agent header itself always names tabcrawl. @default "tabcrawl" */
  productToken: string;
  /** Also crawl subdomains of the start host (its leading `www.` removed), over http and https. @default false */
  includeSubdomains: boolean;
  /** Only crawl URLs whose path starts with this prefix (e.g. `/docs/`). Empty string: no restriction. @default "" */
  pathPrefix: string;
  /** Wildcard patterns (`*` = any run of characters) matched against the whole URL; a match is never crawled. @default [] */
  excludePatterns: string[];
  /**
   * Other sites crawled with the start URL's, as origins (`scheme://host[:port]`,
   * no path): their URLs are in scope too, whole (the path prefix applies to the
   * start site only; see `core/url/scope.ts`), and each is its own host for
   * politeness (its own robots.txt, read first and once, and its own gap).
   * Stored normalized (`URL.origin`: lower-case host, default port dropped),
   * each once. A crawl stored before this setting existed has none.
   * @default []
   */
  extraOrigins: string[];
  /** Send HEAD first and GET only when the HEAD says HTML. @default false */
  headBeforeGet: boolean;
  /** Per-request timeout, in ms, from the request's start to the end of its body. @default 30000 */
  timeoutMs: number;
  /** Follow links even when the page says `<meta name="robots" content="nofollow">` or the link has `rel="nofollow"`. @default false */
  followNofollow: boolean;
  /** How often a URL answered with 429 or 503 is retried before its status is recorded as final. @default 2 */
  maxRetries: number;
  /** Most hosts crawled at the same time (each with at most {@link CrawlSettings.requestsPerHost} requests in flight). @default 8 */
  hostConcurrency: number;
  /**
   * Most requests in flight to one host at the same time. More than 1 is used
   * only while there is no spacing to keep: the delay and the jitter are 0, the
   * host's robots.txt sets no Crawl-delay and the host is not backing us off
   * (429/503); otherwise that host gets one request at a time, each after its
   * gap (see `politeness/spacing.ts`, `requestSlots`). For the user's own
   * site or a staging server. @default 1
   */
  requestsPerHost: number;
  /** Largest random extra wait added to a host's gap, in ms. Jitter only ever lengthens a gap. @default 0 */
  jitterMs: number;
  /** Largest body stored for one HTML page, in bytes; a longer body is cut and the row marked `truncated`. @default 10 MiB */
  maxBodyBytes: number;
  /**
   * Archive page resources: what each stored page needs to display
   * (stylesheets and what they import and load, scripts, images, fonts,
   * icons, media), on whatever host, each URL once per crawl, politely (each
   * host's robots.txt and gap). Never followed; outside `maxPages`. Read as
   * false in crawls stored before this setting existed (they behave as then).
   * @default true
   */
  archiveResources: boolean;
  /**
   * Download linked files: a followed link whose answer is not HTML (a PDF,
   * an image, an archive…) has its body stored, up to `maxFileBytes`. Off:
   * only its headers are recorded. Read as false in crawls stored before
   * this setting existed. @default true
   */
  downloadFiles: boolean;
  /** Largest body stored for one resource or linked file, in bytes; a longer one is cut and marked `truncated`. @default 50 MiB */
  maxFileBytes: number;
  /**
   * Most resources admitted plus linked files downloaded in one crawl; past it
   * no new resource is queued and files are recorded without their bodies.
   * @default 10,000
   */
  maxResources: number;
  /**
   * Check links to other sites: every distinct http(s) URL on another site
   * (a host outside the crawl's scope) that a stored page links to is asked
   * for once (`HEAD`, then `GET` when the server refuses `HEAD`; no body
   * stored), its redirects followed to the end (up to
   * `MAX_EXTERNAL_REDIRECTS` (`core/settings.ts`) hops), politely (each host's robots.txt,
   * gap and back-off). Never followed further. Read as false in crawls
   * stored before this setting existed. @default true
   */
  checkExternal: boolean;
  /** Most URLs on other sites checked in one crawl (redirect hops included); past it, links to other sites are not checked. @default 10,000 */
  maxExternal: number;
  /** Most URLs checked on any one other site (redirect hops included). @default 100 */
  maxExternalPerHost: number;
  /**
   * Send the user's cookies (and other credentials) with crawl requests, so
   * the crawl sees the site as the logged-in user does. Off by default: a
   * crawl then never acts as the user. When on, the crawl acts as the user on
   * every URL it fetches, so `SESSION_EXCLUDE_PATTERNS` are always added
   * to the exclude patterns (see `withSessionGuard` in `core/settings.ts`).
   * @default false
   */
  withCookies: boolean;
  /**
   * Let a crawl that starts on a public host reach private addresses: loopback, the local network,
   * link-local and cloud metadata addresses (`core/url/address-class.ts`). Off: such URLs a public site
   * names (resources, linked files, links to check, redirects) are never requested, not even their
   * robots.txt, and are listed as not crawled (`private-address`; see `crawl/network-guard.ts`). A crawl
   * that starts on a private host reaches its own network either way. For a mixed intranet. Read as false
   * in crawls stored before this setting existed. @default false
   */
  allowPrivateAddresses: boolean;
  /**
   * Render pages (run their scripts): see {@link RenderMode}. Read as `off` in crawls stored before this
   * setting existed (`renderModeOf` in `core/settings.ts`): they rendered nothing. @default "off"
   */
  render: RenderMode;
  /**
   * Most time one page's render may take, in ms, from its load to the last read of its DOM (the network
   * quiet or not): a page that polls or scrolls forever ends at it. Used only while `render` is not `off`.
   * @default 15000
   */
  renderTimeoutMs: number;
  /**
   * Custom searches, as the user writes them (`NAME=TEXT` or `NAME=regex:PATTERN`,
   * `core/custom-rules/rule-spec.ts`): each HTML page's matches of each are counted. Read as empty in crawls
   * stored before the setting existed. @default []
   */
  searches: string[];
  /**
   * Custom extractions (`NAME=css:SELECTOR`, `NAME=xpath:EXPR`, `NAME=regex:PATTERN`): the values each finds
   * in each HTML page are kept. Read as empty in crawls stored before the setting existed. @default []
   */
  extractions: string[];
}

/**
 * The kinds of work a crawl does on its one polite scheduler. Every kind is
 * a request to a host like any other (that host's robots.txt first, its gap,
 * its back-off: `host-rules.ts`); what differs is said here, one module per
 * kind: how much of an answer's body to read, what a row of it is, and what
 * it leads to (links followed within the scope and the page budget, and
 * resources fetched on any host within the resource budget).
 *
 * | kind       | module             | body read                      | leads to                                           |
 * | ---------- | ------------------ | ------------------------------ | -------------------------------------------------- |
 * | `page`     | `page-kind.ts`     | HTML; a linked file when asked | its links, its canonical (followed), its resources |
 * | `sitemap`  | `sitemap-kind.ts`  | 2xx                            | the URLs it lists (followed), its children         |
 * | `resource` | `resource-kind.ts` | 2xx                            | a stylesheet's imports, fonts and images           |
 * | `external` | `external-kind.ts` | none (HEAD; GET if refused)    | its redirect's next hop, nothing else              |
 *
 * The fetch step (`fetch-step.ts`) runs one entry of any kind: it asks the
 * kind (`registry.ts`), requests, records, and admits what the kind found;
 * admission (`frontier-admit.ts`) asks it for its budget and counters, the queue
 * (`frontier-queue.ts`) for how its rows are counted. Nothing outside this
 * folder branches on the kind of work: a new kind is a module here and a
 * line in `registry.ts`.
 */
import type {
  CrawlCounts,
  CrawlRecord,
  FrontierEntry,
  HostState,
  NotCrawledReason,
  PageRecord,
  RowKind,
} from '../../model.ts';
import type { CrawlSettings } from '../../settings.ts';
import { MAX_REDIRECT_HOPS } from '../../url/traps.ts';
import type { Scope } from '../../url/scope.ts';
import type { Candidate } from '../candidate.ts';

/** What a row's body led to. */
export interface Found {
  /** URLs to follow: admitted when in scope, within the depth limit, the trap rules and the page budget. */
  follow: Candidate[];
  /** Page resources to fetch: admitted on any host, within the resource budget (see `admitAnyHost`). */
  resources: Candidate[];
  /** Why the page is to be rendered (`core/page-facts/render-rule.ts`); absent or null: it is not. */
  render?: string | null;
}

/** True for 2xx statuses. */
export const isSuccess = (status: number): boolean => status >= 200 && status < 300;

export const NOTHING_FOUND: Found = Object.freeze({ follow: [], resources: [] }) as Found;

export interface WorkKind {
  /** Send HEAD first and GET only when the HEAD says the body is wanted. */
  headFirst(settings: CrawlSettings): boolean;
  /**
   * How many body bytes to read of an answer with this status and
   * `Content-Type` (null when the server sent none); 0 reads none (the body
   * is cancelled unread). Past it, the body is cut and the row marked truncated.
   */
  bodyLimit(crawl: CrawlRecord, status: number, contentType: string | null): number;
  /**
   * Reads a successful answer's body (null when it was not read): fills the
   * row's kind, title, links and resources, and says what they lead to.
   */
  read(crawl: CrawlRecord, entry: FrontierEntry, row: PageRecord, body: Uint8Array | null): Promise<Found>;
  /** Asked without credentials (no cookies, no HTTP authentication), even in a crawl that sends the user's. */
  readonly anonymous: boolean;
  /**
   * Whether a HEAD that got no answer (failed with this `FetchFailure` code) is asked again with GET, in
   * a later claim after the host's gap; false: the failure is the URL's answer.
   */
  getAfterFailedHead(code: string): boolean;
  /** Most redirects in a row followed to a URL of this kind: the target that would make the chain longer is not queued. */
  readonly redirectLimit: number;
  /**
   * Sends the target of a followed redirect of an entry of this kind where it is admitted: onto
   * `followed` (the scope, the depth limit and the page budget decide) or onto `anyHost` (fetched on
   * any host, within its kind's budget). No allocation unless the target changes kind.
   */
  routeRedirect(redirect: Candidate, scope: Scope, followed: Candidate[], anyHost: Candidate[]): void;
  /**
   * Whether a row of this kind whose body was read keeps it when it is recorded (`crawl` as of that
   * transaction): false drops it, the row recorded with its headers only.
   */
  keepsBody(crawl: CrawlRecord, row: PageRecord): boolean;
  /** Whether the crawl's budget for new URLs of this kind is spent (`counts` against `settings`). */
  budgetSpent(crawl: CrawlRecord): boolean;
  /** Whether the host's own budget for new URLs of this kind is spent (false for a kind without one). */
  hostBudgetSpent(settings: CrawlSettings, host: HostState): boolean;
  /**
   * Counts one URL of this kind admitted (`by` 1) or taken out of the crawl again (`by` -1) in the crawl's
   * and the host's admission counters, never below 0. The host's `pending` is the caller's.
   */
  countAdmitted(counts: CrawlCounts, host: HostState, by: 1 | -1): void;
  /**
   * Subtracted from a URL's admission number to give its queue position (`seq`): 0 serves it in the
   * order found; a large bias serves it before the host's pages (see `RESOURCE_SEQ_BIAS`).
   */
  readonly seqBias: number;
  /** The counters of `CrawlCounts` that count finished rows of the row kinds this kind writes (none: `done` only). */
  readonly rowCounters: Readonly<Partial<Record<RowKind, RowCounter>>>;
  /**
   * Why a URL of this kind found by a page is listed as not crawled when the crawl does not do this
   * kind of work at all; null: the crawl always does it.
   */
  offReason(crawl: CrawlRecord): NotCrawledReason | null;
  /**
   * Why a new URL of this kind left out because a budget is spent (the crawl's, or its host's) is listed
   * as not crawled; null: it is not listed.
   */
  overBudgetReason(budget: 'crawl' | 'host'): NotCrawledReason | null;
  /** Why a URL of this kind blocked by its host's robots.txt is also listed as not crawled; null: its blocked row says enough. */
  readonly blockedReason: NotCrawledReason | null;
}

/** A counter of `CrawlCounts` that counts finished rows of one row kind. */
export type RowCounter = 'resources' | 'files' | 'external';

/**
 * The rules of pages and sitemaps, and every kind's defaults (a kind spreads them and says what differs):
 * asked with the crawl's credentials, a failed HEAD is the answer, up to {@link MAX_REDIRECT_HOPS} redirects
 * followed like links (in the scope), the crawl's page budget (`maxPages`, `page-limit`), no budget per
 * host, served in the order found, its body always kept, never listed as not crawled for its kind alone.
 */
export const PAGE_LIKE = {
  anonymous: false,
  getAfterFailedHead: () => false,
  redirectLimit: MAX_REDIRECT_HOPS,
  routeRedirect(redirect: Candidate, _scope: Scope, followed: Candidate[]): void {
    followed.push(redirect);
  },
  keepsBody: () => true,
  budgetSpent: (crawl: CrawlRecord): boolean => crawl.counts.admitted >= crawl.settings.maxPages,
  hostBudgetSpent: () => false,
  countAdmitted(counts: CrawlCounts, _host: HostState, by: 1 | -1): void {
    counts.admitted = Math.max(0, counts.admitted + by);
  },
  seqBias: 0,
  offReason: () => null,
  overBudgetReason: (): NotCrawledReason => 'page-limit',
  blockedReason: null,
} as const satisfies Omit<WorkKind, 'headFirst' | 'bodyLimit' | 'read' | 'rowCounters'>;

/** Whether the crawl archives page resources (crawls stored before the setting existed do not). */
export const archivesResources = (settings: CrawlSettings): boolean => settings.archiveResources === true;

/** The longest one page's render may take, in ms (crawls stored before the setting existed: 15 s). */
export const renderCapMs = (settings: CrawlSettings): number => settings.renderTimeoutMs ?? 15_000;

/** Whether the crawl downloads linked files (crawls stored before the setting existed do not). */
export const downloadsFiles = (settings: CrawlSettings): boolean => settings.downloadFiles === true;

/** The largest resource or file body stored, in bytes (crawls stored before the setting existed: the page cap). */
export const fileByteCap = (settings: CrawlSettings): number => settings.maxFileBytes ?? settings.maxBodyBytes;

/** Whether the crawl's budget of resources and files has room for one more (`maxResources`). */
export function resourceBudgetLeft(crawl: CrawlRecord): boolean {
  const used = (crawl.counts.resourcesAdmitted ?? 0) + (crawl.counts.files ?? 0);
  return used < (crawl.settings.maxResources ?? 0);
}

/** A resource candidate found by `referrer` (at its depth: resources do not deepen the crawl). */
export function resourceCandidate(url: string, origin: string, referrer: FrontierEntry): Candidate {
  return { url, origin, kind: 'resource', depth: referrer.depth, referrer: referrer.url, anchor: null, isLink: false };
}

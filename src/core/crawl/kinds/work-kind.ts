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
 * kind (`registry.ts`), requests, records, and admits what the kind found.
 */
import type { CrawlRecord, FrontierEntry, PageRecord } from '../../model.ts';
import type { CrawlSettings } from '../../settings.ts';
import type { Candidate } from '../frontier.ts';

/** What a row's body led to. */
export interface Found {
  /** URLs to follow: admitted when in scope, within the depth limit, the trap rules and the page budget. */
  follow: Candidate[];
  /** Page resources to fetch: admitted on any host, within the resource budget (see `admitAnyHost`). */
  resources: Candidate[];
}

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
}

/** Whether the crawl archives page resources (crawls stored before the setting existed do not). */
export const archivesResources = (settings: CrawlSettings): boolean => settings.archiveResources === true;

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

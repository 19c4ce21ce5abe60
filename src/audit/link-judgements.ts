/**
 * What the link checks judge of the site's redirects and blocked URLs, kept
 * once for the Issues and the reports: the checks (`link-checks.ts`) turn a
 * judgement into findings, the *Redirects* and *Blocked* reports
 * (`report-views.ts`) show it in their tables. So a report and the Issues
 * never judge one thing twice (issue 28).
 *
 * Memory: one entry per redirecting or blocked row, never one per row of the
 * crawl. Pure: no Dexie, no browser API.
 */
import type { PageRecord } from '../core/model.ts';
import type { PassReader } from './engine.ts';
import { allRedirectChains, type RedirectWalk } from './redirect-chains.ts';
import { isExternalRow, isRedirectStatus, isSiteUrlRow } from './row-health.ts';

/** A 3xx row: of the site (a page, file or sitemap) or of another site (a checked link, `external`). */
export interface RedirectRow {
  status: number;
  /** Where it points; null for a 3xx without `Location`. */
  location: string | null;
  isExternal: boolean;
}

/** A row that is not a redirect but ends one: what the *Redirects* report shows of a chain's end. */
export interface RedirectEndRow {
  url: string;
  /** HTTP status; null when it failed or was blocked. */
  status: number | null;
  /** `code: message` of a network failure; null otherwise. */
  error: string | null;
  isBlocked: boolean;
}

/** `code: message` of a row's network failure; null when the server answered. */
export function errorText(row: Pick<PageRecord, 'error'>): string | null {
  return row.error === null ? null : `${row.error.code}: ${row.error.message}`;
}

/**
 * The crawl's redirects and their chains. Scan 1 keeps the 3xx rows of the
 * site and of other sites (resources are not chains a visitor follows).
 * With `keepEnds`, scan 2 keeps the rows the redirects point to (what the
 * report shows of a chain's end).
 *
 * A chain starts at a redirect of the site and is followed through other
 * sites' redirects: a visitor clicking a link to `/old` that redirects to
 * another site, which redirects again, waits for every hop, and the fix,
 * redirecting `/old` straight to the final URL, is the site's. Another site's
 * redirects alone are no chain of the site (a link to them is not a
 * `link-to-redirect` either). See docs/audit.md.
 */
export class RedirectJudge implements PassReader {
  /** The 3xx rows by URL, in `seq` order. */
  readonly redirects = new Map<string, RedirectRow>();
  /** The rows redirects point to that are not redirects, filled by scan 2 with `keepEnds`. */
  readonly ends = new Map<string, RedirectEndRow>();
  /** Every `location` of {@link redirects}, made when scan 2 starts. */
  private targets: Set<string> | null = null;

  constructor(private readonly keepEnds: boolean) {}

  wants(pass: number): boolean {
    return pass === 1 || (pass === 2 && this.keepEnds && this.redirects.size > 0);
  }

  see(row: PageRecord, pass: number): void {
    if (pass === 1) {
      const isExternal = isExternalRow(row);
      if (isRedirectStatus(row.status) && (isExternal || isSiteUrlRow(row)) && !this.redirects.has(row.url)) {
        this.redirects.set(row.url, { status: row.status, location: row.location, isExternal });
      }
      return;
    }
    this.targets ??= new Set(
      [...this.redirects.values()].flatMap(({ location }) => (location === null ? [] : [location])),
    );
    if (this.redirects.has(row.url) || this.ends.has(row.url) || !this.targets.has(row.url)) return;
    this.ends.set(row.url, {
      url: row.url,
      status: row.status,
      error: errorText(row),
      isBlocked: row.blockedBy !== null,
    });
  }

  /** Every chain of the site (see the class), each redirect of the site in exactly one, in `seq` order of their starts. */
  chains(): RedirectWalk[] {
    return allRedirectChains(this.redirects, (url) => this.redirects.get(url)?.isExternal === false);
  }
}

/** A URL of the site robots.txt kept from being requested. */
export interface BlockedSiteRow {
  url: string;
  /** The rule that matched (e.g. `Disallow: /private`), when known. */
  rule: string | null;
  /** The page whose link (or redirect, or sitemap) led to the URL; null for the start URL. */
  referrer: string | null;
}

/**
 * The site's URLs robots.txt blocked (pages, files and sitemaps), in one
 * scan: a blocked resource is a broken resource, and a link to another site
 * that its robots.txt disallows is not the site's to fix.
 */
export class BlockedJudge implements PassReader {
  /** The blocked rows by URL, in `seq` order. */
  readonly rows = new Map<string, BlockedSiteRow>();

  wants(pass: number): boolean {
    return pass === 1;
  }

  see(row: PageRecord, pass: number): void {
    if (pass !== 1 || row.blockedBy === null || !isSiteUrlRow(row) || this.rows.has(row.url)) return;
    this.rows.set(row.url, { url: row.url, rule: row.blockedRule, referrer: row.referrer });
  }
}

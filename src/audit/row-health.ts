/**
 * What a row's own fields say of its health, shared by the checks, the
 * reports and the exports: broken (as a link or as a resource), a redirect,
 * an HTML page, a link to another site. Whether a URL is indexable is
 * `core/page-facts/indexability.ts`'s.
 *
 * Pure: no Dexie, no browser API.
 */
import { isHtmlType } from '../core/links/decode-html.ts';
import type { PageRecord } from '../core/model.ts';

/** What decides whether a row is broken as a resource. */
export type ResourceHealthFields = Pick<PageRecord, 'status' | 'error' | 'blockedBy'>;

/** Whether a row, used as a page resource, is broken: status 400 or more, a network failure, or blocked by robots.txt. */
export function isBrokenResource(row: ResourceHealthFields): boolean {
  if (row.blockedBy !== null) return true;
  if (row.status !== null) return row.status >= 400;
  return row.error !== null;
}

/** The row answered 400 or more, or failed at the network level (a blocked row is not broken: it was never asked). */
export function isBrokenRow(row: ResourceHealthFields): boolean {
  if (row.status !== null) return row.status >= 400;
  return row.error !== null && row.blockedBy === null;
}

/** A 3xx status: the row is a redirect. */
export function isRedirectStatus(status: number | null): status is number {
  return status !== null && status >= 300 && status < 400;
}

/** A 2xx status. */
export function isSuccessStatus(status: number | null): status is number {
  return status !== null && status >= 200 && status < 300;
}

/** A checked link to another site (a row of kind `external`). */
export function isExternalRow(row: Pick<PageRecord, 'kind'>): boolean {
  return (row.kind as string) === 'external';
}

/** A row of the site itself that is not a page resource: a page, a linked file or a sitemap. */
export function isSiteUrlRow(row: Pick<PageRecord, 'kind'>): boolean {
  return row.kind === 'page' || row.kind === 'file' || row.kind === 'sitemap';
}

/** An HTML page that answered 2xx: what the page checks (titles, headings, facts) look at. */
export function isHtmlPage(row: Pick<PageRecord, 'kind' | 'status' | 'contentType' | 'facts'>): boolean {
  if (row.kind !== 'page' || !isSuccessStatus(row.status)) return false;
  return (row.facts !== undefined && row.facts !== null) || isHtmlType(row.contentType);
}

/** The page's robots directives forbid indexing (`noindex` or `none`). */
export function isNoindex(row: Pick<PageRecord, 'facts'>): boolean {
  const robots = row.facts?.robots ?? [];
  return robots.includes('noindex') || robots.includes('none');
}

/** The canonical the page names (its `<link rel=canonical>`, else its `Link` header's); null when none. */
export function canonicalOf(row: Pick<PageRecord, 'facts'>): string | null {
  return row.facts?.canonical ?? row.facts?.canonicalHeader ?? null;
}

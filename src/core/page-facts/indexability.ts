/**
 * Whether a search engine may index a URL of the crawl, judged from its row
 * alone, and why not. Pure.
 */
import type { PageRecord } from '../model.ts';

/**
 * Why a URL is not indexable, in the order they are checked (the first that
 * applies is given):
 * - `blocked`: robots.txt disallows it (it was never requested, so nothing
 *   else is known of it);
 * - `redirected`: it answered with a redirect (3xx): its target is what gets indexed;
 * - `not-200`: it answered with any other status than 200, or failed (no status);
 * - `noindex`: its `<meta name="robots">` or `X-Robots-Tag` (for every
 *   crawler, or for ours) says `noindex` or `none`;
 * - `canonicalised`: its canonical (`<link rel="canonical">`, else the `Link`
 *   header's) names another URL: that one is meant to be indexed instead.
 */
export type NonIndexableReason = 'blocked' | 'redirected' | 'not-200' | 'noindex' | 'canonicalised';

export type Indexability = { indexable: true } | { indexable: false; reason: NonIndexableReason };

const INDEXABLE: Indexability = Object.freeze({ indexable: true });

/** The fields of a row that decide its indexability. */
export type IndexabilityRow = Pick<PageRecord, 'url' | 'kind' | 'status' | 'blockedBy' | 'facts'>;

/**
 * Whether a URL is indexable, or why not (see {@link NonIndexableReason});
 * null for rows that are not pages or linked files (a page resource, a
 * sitemap, a checked link to another site), which an audit does not judge.
 *
 * A page or file without facts (a file, a page not read as HTML, a row stored
 * before facts were recorded) is judged by its status alone.
 */
export function indexabilityOf(row: IndexabilityRow): Indexability | null {
  if (row.kind !== 'page' && row.kind !== 'file') return null;
  if (row.blockedBy === 'robots') return { indexable: false, reason: 'blocked' };
  if (row.status !== null && row.status >= 300 && row.status < 400) return { indexable: false, reason: 'redirected' };
  if (row.status !== 200) return { indexable: false, reason: 'not-200' };
  const facts = row.facts;
  if (facts === null || facts === undefined) return INDEXABLE;
  if (facts.robots.includes('noindex') || facts.robots.includes('none')) return { indexable: false, reason: 'noindex' };
  const canonical = canonicalOf(facts);
  if (canonical !== null && canonical !== row.url) return { indexable: false, reason: 'canonicalised' };
  return INDEXABLE;
}

/** The canonical a page names: its `<link rel="canonical">`, else its `Link` header's; null when neither. */
export function canonicalOf(
  facts: Pick<NonNullable<PageRecord['facts']>, 'canonical' | 'canonicalHeader'>,
): string | null {
  return facts.canonical ?? facts.canonicalHeader;
}

/** Whether a row's canonical names the row's own URL; null when it names none (or the row has no facts). */
export function isCanonicalSelf(row: Pick<PageRecord, 'url' | 'facts'>): boolean | null {
  if (row.facts === null || row.facts === undefined) return null;
  const canonical = canonicalOf(row.facts);
  return canonical === null ? null : canonical === row.url;
}

/** Short words for an indexability: `indexable`, or the reason (`noindex`, `canonicalised`…); '' when not judged. */
export function indexabilityText(indexability: Indexability | null): string {
  if (indexability === null) return '';
  return indexability.indexable ? 'indexable' : indexability.reason;
}

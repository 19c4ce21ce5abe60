/**
 * A crawl-table row as IndexedDB stores it: the record plus the keys its
 * indexes sort and filter by. Its own module, so that the database schema
 * (`database.ts`) and the results index (`results-chunks.ts`), which both
 * need it, do not import each other.
 */
import { indexabilityOf, type Indexability, type NonIndexableReason } from '../core/page-facts/indexability.ts';
import type { PageRecord, RowKind } from '../core/model.ts';

/** What the indexability filter and column tell apart: indexable, or the reason a URL is not. */
export type IndexabilityValue = 'indexable' | NonIndexableReason;

/**
 * The indexability values in the order of their codes ({@link PageKeys.indexKey}, schema version 7):
 * a value's code is its index here. Indexable first, then the reasons in the order they are checked.
 */
export const INDEXABILITY_VALUES: readonly IndexabilityValue[] = Object.freeze([
  'indexable',
  'blocked',
  'redirected',
  'not-200',
  'noindex',
  'canonicalised',
]);

/** {@link PageKeys.statusKey} of failed rows (no HTTP status, not blocked). */
export const FAILED_STATUS_KEY = -1;
/** {@link PageKeys.statusKey} of rows blocked by robots.txt. */
export const BLOCKED_STATUS_KEY = -2;

/** {@link PageKeys.indexKey} of rows an audit does not judge (resources, sitemaps, links to other sites). */
export const NOT_JUDGED_KEY = -1;

/** The code of an indexability: its value's index in {@link INDEXABILITY_VALUES}; {@link NOT_JUDGED_KEY} for null. */
export function indexabilityCode(indexability: Indexability | null): number {
  if (indexability === null) return NOT_JUDGED_KEY;
  return INDEXABILITY_VALUES.indexOf(indexability.indexable ? 'indexable' : indexability.reason);
}

/** The indexability code of a row ({@link PageKeys.indexKey}). */
export function indexKeyOf(row: Pick<PageRecord, 'url' | 'kind' | 'status' | 'blockedBy' | 'facts'>): number {
  return indexabilityCode(indexabilityOf(row));
}

/** The indexability value of a code; null for {@link NOT_JUDGED_KEY} (or a code not known here). */
export function indexabilityOfKey(code: number): IndexabilityValue | null {
  return INDEXABILITY_VALUES[code] ?? null;
}

/**
 * The kinds of rows, in the order of their codes in the result chunks' `kinds`
 * column (schema version 6): a row's code is its index here.
 */
export const ROW_KINDS: readonly RowKind[] = Object.freeze(['page', 'sitemap', 'resource', 'file', 'external']);

/** The code of a row kind in the result chunks' `kinds` column; a kind not known here counts as a page. */
export function kindCode(kind: RowKind): number {
  const code = ROW_KINDS.indexOf(kind);
  return code < 0 ? 0 : code;
}

/** The row kind of a code of the result chunks' `kinds` column. */
export function kindOfCode(code: number): RowKind {
  return ROW_KINDS[code] ?? 'page';
}

/**
 * Storage-only sort and filter keys of a page row (schema version 2). IndexedDB
 * leaves a row out of an index whose key is null or missing, so every key here
 * is a valid, non-null key; a missing value sorts before every present one.
 * How each is computed from a page is declared with its column in
 * `results-columns.ts` ({@link PageKeys.isDuplicate}: with the filter columns).
 */
export interface PageKeys {
  /** HTTP status; -1 when failed at the network level (or never fetched), -2 when blocked by robots.txt. */
  statusKey: number;
  /** Lower-case media type without parameters (`text/html`); `''` without a content type. */
  mediaKey: string;
  /** `contentLength` in bytes; -1 when unknown. */
  sizeKey: number;
  /** `responseTimeMs` in ms; -1 when never requested. */
  timeKey: number;
  /** Lower-case title; `''` without one. */
  titleKey: string;
  /** 1 when `duplicateOf` is set, else 0 (booleans are not valid keys). */
  isDuplicate: 0 | 1;
  /** Schema version 7: see {@link indexKeyOf}; -1 for rows not judged. */
  indexKey: number;
  /** Schema version 7: `facts.wordCount`; -1 without facts. */
  wordsKey: number;
  /** Schema version 7: `facts.h1Count`; -1 without facts. */
  h1Key: number;
  /** Schema version 7: `facts.internalLinks`; -1 without facts. */
  internalKey: number;
  /** Schema version 7: `facts.outboundLinks`; -1 without facts. */
  outboundKey: number;
  /** Schema version 10: whether and how the page was rendered (`rendered`, `failed: timeout`…: `rendered-label.ts`); `''` when not. */
  renderKey: string;
}

/** A page as stored: the record plus its {@link PageKeys}. */
export interface PageRow extends PageRecord, PageKeys {}

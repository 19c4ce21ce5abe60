/**
 * A crawl-table row as IndexedDB stores it: the record plus the keys its
 * indexes sort and filter by. Its own module, so that the database schema
 * (`database.ts`) and the results index (`results-chunks.ts`), which both
 * need it, do not import each other.
 */
import type { PageRecord } from '../core/model.ts';

/**
 * Storage-only sort and filter keys of a page row (schema version 2). IndexedDB
 * leaves a row out of an index whose key is null or missing, so every key here
 * is a valid, non-null key; a missing value sorts before every present one.
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
}

/** A page as stored: the record plus its {@link PageKeys}. */
export interface PageRow extends PageRecord, PageKeys {}

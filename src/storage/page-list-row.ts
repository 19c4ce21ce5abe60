/**
 * What a row of the results table shows, read from a stored page: its own
 * module, so that the results columns (`results-columns.ts`), which read it,
 * and the queries (`page-queries.ts`), which return it, do not import each other.
 */
import { indexabilityOf, type Indexability } from '../core/page-facts/indexability.ts';
import type { FetchFailure, PageRecord, RowKind } from '../core/model.ts';
import { renderedLabel } from './rendered-label.ts';

/** What a row of the results table shows. */
export interface PageListRow {
  seq: number;
  url: string;
  kind: RowKind;
  status: number | null;
  contentType: string | null;
  contentLength: number | null;
  responseTimeMs: number | null;
  depth: number;
  title: string | null;
  inlinks: number;
  location: string | null;
  blockedBy: 'robots' | null;
  error: FetchFailure | null;
  duplicateOf: string | null;
  /** Null for rows an audit does not judge (not a page or a linked file). */
  indexability: Indexability | null;
  /** The page facts' counts; null without facts. */
  wordCount: number | null;
  h1Count: number | null;
  /** Text of the first `<h1>`; null without one (or without facts). */
  h1: string | null;
  internalLinks: number | null;
  outboundLinks: number | null;
  /** Whether and how the crawl rendered the page (`rendered`, `rendered (capped)`, `failed: timeout`…); `''` when it did not. */
  rendered: string;
}

/** What the results table shows of a full row. */
export function toPageListRow(row: PageRecord): PageListRow {
  return {
    seq: row.seq,
    url: row.url,
    kind: row.kind,
    status: row.status,
    contentType: row.contentType,
    contentLength: row.contentLength,
    responseTimeMs: row.responseTimeMs,
    depth: row.depth,
    title: row.title,
    inlinks: row.inlinks,
    location: row.location,
    blockedBy: row.blockedBy,
    error: row.error,
    duplicateOf: row.duplicateOf,
    indexability: indexabilityOf(row),
    wordCount: row.facts?.wordCount ?? null,
    h1Count: row.facts?.h1Count ?? null,
    h1: row.facts?.h1 ?? null,
    internalLinks: row.facts?.internalLinks ?? null,
    outboundLinks: row.facts?.outboundLinks ?? null,
    rendered: renderedLabel(row.render),
  };
}

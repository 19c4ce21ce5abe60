/**
 * JSON Lines export: one object per crawl-table row, in the order rows were
 * written. Field names and meanings are documented in docs/exports.md.
 *
 * A row's `brokenResourceCount` needs the fate of its resources, which are
 * mostly recorded after it: the writer first reads the rows once for the
 * URLs of the broken ones (`brokenUrlsOfSource`), then writes.
 */
import type { PageRecord } from '../core/model.ts';
import { brokenUrlsOfSource, resourceCountsOf, type BrokenUrls } from './broken-resources.ts';
import type { FormatWriter } from './export-source.ts';

/** The exported shape of one row. */
export interface JsonlRow {
  url: string;
  kind: PageRecord['kind'];
  /** HTTP status, or null when never fetched (blocked, network failure). */
  status: number | null;
  contentType: string | null;
  contentLength: number | null;
  /** Absolute redirect target of a 3xx answer. */
  location: string | null;
  depth: number;
  referrer: string | null;
  /** ISO 8601 time the request started, or null when never requested. */
  fetchedAt: string | null;
  responseTimeMs: number | null;
  methods: PageRecord['methods'];
  title: string | null;
  sha256: string | null;
  duplicateOf: string | null;
  truncated: boolean;
  anchors: string[];
  /** Pages of the crawl with a followed link to this URL. */
  inlinks: number;
  links: string[];
  /** Page resources the row uses (stylesheets, scripts, images, fonts… of a page; imports, fonts and images of a stylesheet). */
  resourceCount: number;
  /** Of those, the ones whose row answered 400 or more, failed, or was blocked by robots.txt. */
  brokenResourceCount: number;
  blockedBy: 'robots' | null;
  blockedRule: string | null;
  /** Message of a network-level failure. */
  error: string | null;
  errorCode: string | null;
}

/**
 * The exported shape of a row.
 * @param broken the URLs of the crawl's broken rows (see `broken-resources.ts`), for `brokenResourceCount`.
 */
export function toJsonlRow(page: PageRecord, broken: BrokenUrls): JsonlRow {
  const { resourceCount, brokenResourceCount } = resourceCountsOf(page, broken);
  return {
    url: page.url,
    kind: page.kind,
    status: page.status,
    contentType: page.contentType,
    contentLength: page.contentLength,
    location: page.location,
    depth: page.depth,
    referrer: page.referrer,
    fetchedAt: page.fetchedAt === null ? null : new Date(page.fetchedAt).toISOString(),
    responseTimeMs: page.responseTimeMs,
    methods: page.methods,
    title: page.title,
    sha256: page.sha256,
    duplicateOf: page.duplicateOf,
    truncated: page.truncated,
    anchors: page.anchors,
    inlinks: page.inlinks,
    links: page.links,
    resourceCount,
    brokenResourceCount,
    blockedBy: page.blockedBy,
    blockedRule: page.blockedRule,
    error: page.error?.message ?? null,
    errorCode: page.error?.code ?? null,
  };
}

/**
 * Rows as JSON Lines text: one line each, every line ending in `\n`.
 * @param broken the broken URLs among the rows' resources (see `broken-resources.ts`).
 */
export function toJsonl(pages: PageRecord[], broken: BrokenUrls): string {
  return pages.map((p) => `${JSON.stringify(toJsonlRow(p, broken))}\n`).join('');
}

/** JSON Lines as a {@link FormatWriter}: UTF-8, one line per row (after a first pass for the broken URLs, when the crawl has resources). */
export const writeJsonl: FormatWriter = async function* (source, context) {
  const encoder = new TextEncoder();
  const broken = await brokenUrlsOfSource(source);
  for await (const row of source.rows()) {
    yield encoder.encode(`${JSON.stringify(toJsonlRow(row, broken))}\n`);
    context.onRow();
  }
};

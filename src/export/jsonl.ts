/**
 * JSON Lines export: one object per crawl-table row, in the order rows were
 * written. Field names and meanings are documented in docs/exports.md.
 *
 * A row's `brokenResourceCount` needs the fate of its resources, which are
 * mostly recorded after it, and its `issues` and redirect columns the
 * other rows: the writer first gathers all three in the Issues checks' scans
 * (`row-facts.ts`: each scan feeds every collector), then reads the rows once
 * more to write them.
 */
import { canonicalOf, indexabilityOf, isCanonicalSelf } from '../core/page-facts/indexability.ts';
import type { CheckId } from '../audit/checks.ts';
import type { PageRecord } from '../core/model.ts';
import { NO_REDIRECTS, type RedirectLookup } from './redirect-chains.ts';
import { resourceCountsOf, type BrokenUrls } from './broken-resources.ts';
import type { FormatWriter } from './export-source.ts';
import { NO_ISSUES, type IssueLookup } from './issues-of-source.ts';
import { renderFieldsOf, type JsonlRender } from './render-fields.ts';
import { rowFactsOfSource } from './row-facts.ts';

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
  /** Of a 3xx row: the URLs its redirects lead through, hop by hop (each its own row), the final one last; null for other rows. */
  redirectChain: string[] | null;
  /** Of a 3xx row: where its redirects end (a row that is not a redirect, a URL not crawled, or where a loop comes back). */
  finalUrl: string | null;
  /** Of a 3xx row: the final URL's status; null when it has none (not crawled, blocked, failed, a loop). */
  finalStatus: number | null;
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
  // The page facts (`core/page-facts/page-facts.ts`): null on rows that are not HTML pages read, and on rows stored before facts were recorded.
  /** The canonical the page names: its `<link rel="canonical">`, else its `Link` header's; null when none. */
  canonical: string | null;
  /** Whether {@link JsonlRow.canonical} is the row's own URL; null when the page names none. */
  canonicalIsSelf: boolean | null;
  /** Robots directives of `<meta name="robots">` and `X-Robots-Tag` for every crawler or for Tabcrawl (`noindex`, `nofollow`…). */
  robots: string[] | null;
  /** Whether a search engine may index the URL (pages and linked files; null for other rows). */
  indexable: boolean | null;
  /** Why not: `blocked`, `redirected`, `not-200`, `noindex` or `canonicalised`; null when indexable or not judged. */
  indexabilityReason: string | null;
  /** `<meta name="description">`; '' when empty. */
  description: string | null;
  /** Text of the first `<h1>`. */
  h1: string | null;
  h1Count: number | null;
  /** `<html lang>` as written. */
  lang: string | null;
  /** `<link rel="alternate" hreflang>` alternates, each `lang url` (`de-at https://example.com/de/`). */
  hreflang: string[] | null;
  /** Words of the visible text. */
  wordCount: number | null;
  /** Distinct links to URLs in the crawl's scope. */
  internalLinks: number | null;
  /** Distinct http(s) links to URLs outside it. */
  outboundLinks: number | null;
  /** `<img>` without an `alt` attribute (distinct sources). */
  imagesWithoutAltCount: number | null;
  /** `http:` resources of an `https:` page (distinct). */
  mixedContentCount: number | null;
  blockedBy: 'robots' | null;
  blockedRule: string | null;
  /** Message of a network-level failure. */
  error: string | null;
  errorCode: string | null;
  /** The outcome of rendering the page (`rendered`, `timeout`…: `render-fields.ts`); null when it was not rendered. */
  rendered: JsonlRender['outcome'] | null;
  /** Per custom search (*Custom searches*, `--search`): how many times the page matched it; null when the row was not searched (not an HTML page read, or no searches). */
  searches: Record<string, number> | null;
  /** Per custom extraction (`--extract`): the values found, in document order; null as `searches` is. */
  extracted: Record<string, string[]> | null;
  /** Ids of the Issues checks that failed on this URL (docs/audit.md), in the registry's order; [] when none. */
  issues: CheckId[];
  /** What rendering the page met (JSON Lines only: no CSV column); null when it was not rendered. */
  render: JsonlRender | null;
}

/**
 * The exported shape of a row.
 * @param broken the URLs of the crawl's broken rows (see `broken-resources.ts`), for `brokenResourceCount`.
 * @param issues the ids of the checks that failed on each URL (see `issues-of-source.ts`); without it, `issues` is [].
 * @param redirects where each redirect row's chain ends (see `redirect-chains.ts`); without it, the chain fields are null.
 */
export function toJsonlRow(
  page: PageRecord,
  broken: BrokenUrls,
  issues: IssueLookup = NO_ISSUES,
  redirects: RedirectLookup = NO_REDIRECTS,
): JsonlRow {
  const { resourceCount, brokenResourceCount } = resourceCountsOf(page, broken);
  const chain = redirects.chainOf(page.url);
  const { rendered, render } = renderFieldsOf(page);
  return {
    url: page.url,
    kind: page.kind,
    status: page.status,
    contentType: page.contentType,
    contentLength: page.contentLength,
    location: page.location,
    redirectChain: chain?.hops ?? null,
    finalUrl: chain?.finalUrl ?? null,
    finalStatus: chain?.finalStatus ?? null,
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
    ...factFields(page),
    blockedBy: page.blockedBy,
    blockedRule: page.blockedRule,
    error: page.error?.message ?? null,
    errorCode: page.error?.code ?? null,
    rendered,
    searches: page.custom?.searches ?? null,
    extracted: page.custom?.extracted ?? null,
    issues: [...(issues.get(page.url) ?? [])],
    render,
  };
}

/** The page-fact fields of a row (see {@link JsonlRow}). */
function factFields(page: PageRecord): Pick<JsonlRow, FactField> {
  const facts = page.facts ?? null;
  const indexability = indexabilityOf(page);
  return {
    canonical: facts === null ? null : canonicalOf(facts),
    canonicalIsSelf: isCanonicalSelf(page),
    robots: facts?.robots ?? null,
    indexable: indexability?.indexable ?? null,
    indexabilityReason: indexability === null || indexability.indexable ? null : indexability.reason,
    description: facts?.description ?? null,
    h1: facts?.h1 ?? null,
    h1Count: facts?.h1Count ?? null,
    lang: facts?.lang ?? null,
    hreflang: facts?.hreflang.map((alternate) => `${alternate.lang} ${alternate.url}`) ?? null,
    wordCount: facts?.wordCount ?? null,
    internalLinks: facts?.internalLinks ?? null,
    outboundLinks: facts?.outboundLinks ?? null,
    imagesWithoutAltCount: facts?.imagesWithoutAlt.length ?? null,
    mixedContentCount: facts?.mixedContent.length ?? null,
  };
}

type FactField =
  | 'canonical'
  | 'canonicalIsSelf'
  | 'robots'
  | 'indexable'
  | 'indexabilityReason'
  | 'description'
  | 'h1'
  | 'h1Count'
  | 'lang'
  | 'hreflang'
  | 'wordCount'
  | 'internalLinks'
  | 'outboundLinks'
  | 'imagesWithoutAltCount'
  | 'mixedContentCount';

/**
 * Rows as JSON Lines text: one line each, every line ending in `\n`.
 * @param broken the broken URLs among the rows' resources (see `broken-resources.ts`).
 * @param issues the checks that failed on each URL.
 */
export function toJsonl(
  pages: PageRecord[],
  broken: BrokenUrls,
  issues: IssueLookup = NO_ISSUES,
  redirects: RedirectLookup = NO_REDIRECTS,
): string {
  return pages.map((p) => `${JSON.stringify(toJsonlRow(p, broken, issues, redirects))}\n`).join('');
}

/** JSON Lines as a {@link FormatWriter}: UTF-8, one line per row (after the scans of `rowFactsOfSource`). */
export const writeJsonl: FormatWriter = async function* (source, context) {
  const encoder = new TextEncoder();
  const { broken, issues, redirects } = await rowFactsOfSource(source);
  for await (const row of source.rows()) {
    yield encoder.encode(`${JSON.stringify(toJsonlRow(row, broken, issues, redirects))}\n`);
    context.onRow();
  }
};

/**
 * The results queries' documented answer in plain JavaScript, and varied rows
 * to ask it about: the reference that the in-memory index (unit tests) and the
 * IndexedDB queries (browser tests) are both checked against.
 *
 * Portable on purpose: no Node and no DOM APIs.
 */
import type { PageRecord, RenderRecord } from '../../src/core/model.ts';
import type { PageFacts } from '../../src/core/page-facts/page-facts.ts';
import { mediaTypeOf } from '../../src/storage/database.ts';
import {
  SORT_COLUMNS,
  type IndexabilityValue,
  type PageFilter,
  type SortColumn,
  type StatusClass,
} from '../../src/storage/page-queries.ts';
import { pageFixture } from './store-contract.ts';

export const COLUMNS: readonly SortColumn[] = SORT_COLUMNS;
const STATUSES = [200, 200, 200, 301, 404, 500, 204, 410, 503, 302];
const TYPES = ['text/html; charset=utf-8', 'TEXT/HTML', 'image/png', 'application/pdf', null, 'text/css'];

/** A varied row: every column has ties, nulls and several values, every kind is there; seq i, URL order unrelated to seq. */
export function variedPage(crawlId: string, i: number): PageRecord {
  const base = pageFixture(crawlId, `https://a.example/${String((i * 37) % 101).padStart(3, '0')}/p${i}`, i);
  const blocked = i % 23 === 0;
  const failed = !blocked && i % 17 === 0;
  const hasAnswer = !blocked && !failed;
  return {
    ...base,
    kind: i % 5 === 1 ? 'resource' : i % 13 === 2 ? 'file' : i % 29 === 4 ? 'sitemap' : 'page',
    depth: i % 4,
    status: hasAnswer ? (STATUSES[i % STATUSES.length] ?? 200) : null,
    contentType: hasAnswer ? (TYPES[i % TYPES.length] ?? null) : null,
    contentLength: hasAnswer && i % 5 !== 0 ? ((i * 131) % 7) * 1000 : null,
    // Half-milliseconds too: a key that is not an integer takes the comparator path of the in-memory sort.
    responseTimeMs: hasAnswer ? ((i * 7) % 13) + (i % 2) * 0.5 : null,
    title: i % 3 === 0 ? null : (['Zebra', 'apple', 'Äpfel', 'banana Split', 'apple'][i % 5] ?? null),
    inlinks: (i * 11) % 6,
    duplicateOf: i % 7 === 3 ? 'https://a.example/000/p1' : null,
    blockedBy: blocked ? 'robots' : null,
    blockedRule: blocked ? 'Disallow: /' : null,
    error: failed ? { code: 'timeout', message: 'timed out' } : null,
    // Facts on most pages and files, none on every 11th (a row stored before facts) nor on other kinds.
    ...(i % 11 === 6 ? {} : { facts: i % 5 === 1 || i % 29 === 4 ? null : variedFacts(base.url, i) }),
    // Rendered (issue 29) on some pages: rendered, capped, or failed in one of two ways; most pages not.
    ...(i % 4 === 3 ? { render: variedRender(i) } : {}),
  };
}

/** A render record: every fourth rendered one capped, every third timed out or crashed. */
function variedRender(i: number): RenderRecord {
  const outcome = i % 3 === 0 ? 'rendered' : i % 3 === 1 ? 'timeout' : 'crashed';
  return {
    outcome,
    message: outcome === 'rendered' ? null : 'it did',
    why: 'always',
    at: 1,
    durationMs: i,
    capped: i % 8 === 7,
    static: null,
    sha256: null,
    truncated: false,
    scriptErrors: [],
    requests: [],
    refused: [],
    navigations: [],
  };
}

/** Page facts with ties and zeros; some say noindex, some name another canonical, some themselves. */
function variedFacts(url: string, i: number): PageFacts {
  return {
    canonical: i % 8 === 0 ? 'https://a.example/elsewhere' : i % 8 === 1 ? url : null,
    canonicalHeader: null,
    robots: i % 9 === 5 ? ['noindex', 'nofollow'] : i % 19 === 7 ? ['none'] : [],
    description: null,
    h1: i % 4 === 0 ? null : `Heading ${i % 6}`,
    h1Count: i % 4 === 0 ? 0 : (i % 3) + 1,
    lang: 'en',
    hreflang: [],
    wordCount: (i * 53) % 400,
    internalLinks: (i * 7) % 25,
    outboundLinks: i % 6,
    otherLinks: [],
    imagesWithoutAlt: [],
    mixedContent: [],
    anchorIds: [],
    fragmentLinks: [],
  };
}

/**
 * A row's indexability as documented, without `indexabilityOf`: pages and linked files only; blocked,
 * redirected (3xx), not 200, noindex (or none), canonical to another URL, in that order; else indexable.
 */
export function referenceIndexability(page: PageRecord): IndexabilityValue | null {
  if (page.kind !== 'page' && page.kind !== 'file') return null;
  if (page.blockedBy !== null) return 'blocked';
  if (page.status !== null && page.status >= 300 && page.status < 400) return 'redirected';
  if (page.status !== 200) return 'not-200';
  const facts = page.facts;
  if (facts === null || facts === undefined) return 'indexable';
  if (facts.robots.includes('noindex') || facts.robots.includes('none')) return 'noindex';
  const canonical = facts.canonical ?? facts.canonicalHeader;
  return canonical !== null && canonical !== page.url ? 'canonicalised' : 'indexable';
}

/** The documented sort order of indexability: rows not judged first, indexable, then the reasons in the order they are checked. */
const INDEXABILITY_ORDER: readonly (IndexabilityValue | null)[] = [
  null,
  'indexable',
  'blocked',
  'redirected',
  'not-200',
  'noindex',
  'canonicalised',
];

/** The status class of a row (every row is in exactly one). */
export function classOf(page: PageRecord): Exclude<StatusClass, 'duplicate'> {
  if (page.blockedBy !== null) return 'blocked';
  if (page.status === null) return 'failed';
  if (page.status < 300) return '2xx';
  if (page.status < 400) return '3xx';
  if (page.status < 500) return '4xx';
  return '5xx';
}

/**
 * The documented order of a column: missing values first (-1, '', blocked -2; no page facts -1), lower-case
 * title and media type; indexability in {@link INDEXABILITY_ORDER}.
 */
export function referenceKey(page: PageRecord, column: SortColumn): number | string {
  switch (column) {
    case 'seq':
      return page.seq;
    case 'url':
      return page.url;
    case 'status':
      return page.blockedBy !== null ? -2 : (page.status ?? -1);
    case 'contentType':
      return mediaTypeOf(page.contentType);
    case 'size':
      return page.contentLength ?? -1;
    case 'responseTime':
      return page.responseTimeMs ?? -1;
    case 'depth':
      return page.depth;
    case 'title':
      return (page.title ?? '').toLowerCase();
    case 'inlinks':
      return page.inlinks;
    case 'indexability':
      return INDEXABILITY_ORDER.indexOf(referenceIndexability(page));
    case 'words':
      return page.facts?.wordCount ?? -1;
    case 'h1Count':
      return page.facts?.h1Count ?? -1;
    case 'internalLinks':
      return page.facts?.internalLinks ?? -1;
    case 'outboundLinks':
      return page.facts?.outboundLinks ?? -1;
    case 'rendered':
      // The words the column shows: '' when not rendered, `failed: <outcome>` when the render failed.
      if (page.render === undefined) return '';
      if (page.render.outcome !== 'rendered') return `failed: ${page.render.outcome}`;
      return page.render.capped ? 'rendered (capped)' : 'rendered';
  }
}

/** The rows `filter` keeps, sorted by `column` (ties by seq; descending is the exact reverse), and how many. */
export function reference(
  pages: PageRecord[],
  filter: PageFilter,
  sort: { column: SortColumn; descending: boolean },
  offset: number,
  limit: number,
): { rows: PageRecord[]; total: number } {
  const { statusClasses = [], kind, mediaType, depth, indexability, search = '' } = filter;
  const needle = search.toLowerCase();
  const kept = pages.filter(
    (page) =>
      (statusClasses.length === 0 ||
        statusClasses.includes(classOf(page)) ||
        (statusClasses.includes('duplicate') && page.duplicateOf !== null)) &&
      (kind === undefined || page.kind === kind) &&
      (mediaType === undefined || mediaTypeOf(page.contentType) === mediaType) &&
      (depth === undefined || page.depth === depth) &&
      (indexability === undefined || referenceIndexability(page) === indexability) &&
      (needle === '' || page.url.toLowerCase().includes(needle) || (page.title ?? '').toLowerCase().includes(needle)),
  );
  const keys = new Map(kept.map((page) => [page, referenceKey(page, sort.column)]));
  kept.sort((a, b) => {
    const ka = keys.get(a) ?? 0;
    const kb = keys.get(b) ?? 0;
    return ka === kb ? a.seq - b.seq : ka < kb ? -1 : 1;
  });
  if (sort.descending) kept.reverse();
  return { rows: kept.slice(offset, offset + limit), total: kept.length };
}

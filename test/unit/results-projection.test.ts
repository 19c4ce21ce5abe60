/**
 * The results index in memory (`ResultsProjection`) and the chunks it reads
 * (`results-chunks.ts`), against a plain reference sort and filter of the same
 * rows: every column, filter, window and update path, with no browser.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PageRecord } from '../../src/core/model.ts';
import { toPageRow } from '../../src/storage/database.ts';
import type { PageFilter, SortColumn } from '../../src/storage/page-queries.ts';
import {
  chunkOf,
  emptyFacetCounts,
  emptyResultsChunk,
  recordRows,
  RESULTS_CHUNK_ROWS,
  type FacetCounts,
  type ResultsChunk,
} from '../../src/storage/results-chunks.ts';
import { ResultsProjection } from '../../src/storage/results-projection.ts';
import { classOf, COLUMNS, reference, variedPage as variedReferencePage } from '../support/results-reference.ts';

const variedPage = (i: number): PageRecord => variedReferencePage('c1', i);

/** The reference's window as the projection answers it: URLs and the total. */
function expected(
  pages: PageRecord[],
  filter: PageFilter,
  column: SortColumn,
  descending: boolean,
  offset: number,
  limit: number,
): { urls: string[]; total: number } {
  const { rows, total } = reference(pages, filter, { column, descending }, offset, limit);
  return { urls: rows.map((page) => page.url), total };
}

/** Chunks and counts of `pages`, as the store writes them; `into` continues earlier ones. */
function chunked(
  pages: PageRecord[],
  into = new Map<number, ResultsChunk>(),
  counts: FacetCounts = emptyFacetCounts('c1'),
): { chunks: Map<number, ResultsChunk>; counts: FacetCounts; written: ResultsChunk[] } {
  const changed = recordRows(
    pages.map(toPageRow),
    (crawlId, chunk) => {
      let found = into.get(chunk);
      if (found === undefined) into.set(chunk, (found = emptyResultsChunk(crawlId, chunk)));
      return found;
    },
    () => counts,
  );
  return { chunks: into, counts, written: changed.chunks.map((chunk) => structuredClone(chunk)) };
}

const FILTERS: PageFilter[] = [
  {},
  { statusClasses: ['2xx'] },
  { statusClasses: ['4xx', '5xx'] },
  { statusClasses: ['failed'] },
  { statusClasses: ['blocked', '3xx'] },
  { statusClasses: ['duplicate'] },
  { statusClasses: ['4xx', 'duplicate'] },
  { mediaType: 'text/html' },
  { mediaType: '' },
  { mediaType: 'video/none' },
  { depth: 2 },
  { search: 'APPLE' },
  { search: '/007/' },
  { search: 'äpfel' },
  { statusClasses: ['2xx'], mediaType: 'text/html', depth: 1 },
  { statusClasses: ['4xx'], search: 'banana' },
  { kind: 'page' },
  { kind: 'resource' },
  { kind: 'file' },
  { kind: 'sitemap' },
  { kind: 'resource', statusClasses: ['4xx', 'failed', 'blocked'] },
  { kind: 'file', mediaType: 'application/pdf', depth: 1 },
  { kind: 'page', search: 'apple', statusClasses: ['duplicate'] },
];

function assertSame(
  projection: ResultsProjection,
  pages: PageRecord[],
  filter: PageFilter,
  column: SortColumn,
  descending: boolean,
  offset: number,
  limit: number,
): void {
  assert.deepEqual(
    projection.window(filter, { column, descending }, offset, limit),
    expected(pages, filter, column, descending, offset, limit),
    JSON.stringify({ filter, column, descending, offset }),
  );
}

const ROWS = 700; // three chunks, the last one partly filled
const pages = Array.from({ length: ROWS }, (_, i) => variedPage(i + 1));

describe('ResultsProjection', () => {
  it('answers every filter by every column, both ways, at the start, the middle and the end', () => {
    const projection = new ResultsProjection(chunked(pages).chunks.values(), 1);
    for (const filter of FILTERS) {
      const { total } = expected(pages, filter, 'seq', false, 0, 0);
      for (const column of COLUMNS) {
        for (const offset of [0, Math.floor(total / 2), Math.max(0, total - 4), total + 5]) {
          assertSame(projection, pages, filter, column, false, offset, 7);
          assertSame(projection, pages, filter, column, true, offset, 7);
        }
      }
    }
  });

  it('gives the same windows whether a filter is sorted alone or taken from a computed order', () => {
    const alone = new ResultsProjection(chunked(pages).chunks.values(), 1);
    const ordered = new ResultsProjection(chunked(pages).chunks.values(), 1);
    for (const column of COLUMNS) ordered.prepare(column);
    for (const filter of FILTERS) {
      for (const column of COLUMNS) {
        assert.deepEqual(
          alone.window(filter, { column, descending: true }, 3, 40),
          ordered.window(filter, { column, descending: true }, 3, 40),
        );
      }
    }
  });

  it('stays exact after updates: keys rewritten in place, rows appended, a slot given to another URL', () => {
    const { chunks, counts } = chunked(pages);
    const projection = new ResultsProjection(
      [...chunks.values()].map((chunk) => structuredClone(chunk)),
      counts.rev,
    );
    for (const column of COLUMNS) projection.prepare(column);
    projection.window({ statusClasses: ['2xx'] }, { column: 'title', descending: false }, 0, 5);

    // A running crawl: inlinks raised, a title and a status changed, new rows appended in a new chunk.
    let now = pages.map((page) =>
      page.seq % 9 === 0
        ? { ...page, inlinks: page.inlinks + 40 }
        : page.seq === 5
          ? { ...page, status: 404, title: 'Now missing' }
          : page,
    );
    const appended = Array.from({ length: 90 }, (_, i) => variedPage(ROWS + 1 + i));
    let step = chunked([...now.filter((page) => page.seq % 9 === 0 || page.seq === 5), ...appended], chunks, counts);
    now = [...now, ...appended];
    projection.update(step.written, step.counts.rev);
    assert.equal(projection.rev, counts.rev);
    for (const filter of FILTERS)
      for (const column of COLUMNS) assertSame(projection, now, filter, column, column === 'inlinks', 0, 12);

    // A slot now holds another URL (not what a crawl does): the orders are recomputed, still exact.
    const replaced = { ...variedPage(10), url: 'https://a.example/zzz/replaced' };
    step = chunked([replaced], chunks, counts);
    now = now.map((page) => (page.seq === 10 ? replaced : page));
    projection.update(step.written, step.counts.rev);
    for (const column of COLUMNS) assertSame(projection, now, {}, column, false, 0, ROWS + 90);
  });

  it('counts facets as the chunks hold them', () => {
    const projection = new ResultsProjection(chunked(pages).chunks.values(), 1);
    const facets = projection.facets();
    for (const statusClass of ['2xx', '3xx', '4xx', '5xx', 'failed', 'blocked'] as const) {
      assert.equal(
        facets.statusClasses[statusClass],
        pages.filter((page) => classOf(page) === statusClass).length,
        statusClass,
      );
    }
    assert.equal(facets.statusClasses.duplicate, pages.filter((page) => page.duplicateOf !== null).length);
    assert.deepEqual(facets.depths, [0, 1, 2, 3]);
    for (const kind of ['page', 'sitemap', 'resource', 'file'] as const) {
      assert.equal(facets.kinds[kind], pages.filter((page) => page.kind === kind).length, kind);
      assert.ok(facets.kinds[kind] > 0, `the rows hold ${kind}s`);
    }
    assert.equal(
      facets.mediaTypes.reduce((sum, entry) => sum + entry.count, 0),
      ROWS,
    );
    assert.ok(facets.mediaTypes.every((entry, i, all) => i === 0 || (all[i - 1]?.count ?? 0) >= entry.count));
  });
});

describe('result chunks', () => {
  it('puts each row in slot seq % 256 of chunk seq / 256 and counts it once, however often it is written', () => {
    const { chunks, counts } = chunked(pages);
    chunked(pages.slice(0, 50), chunks, counts);
    assert.equal(counts.rows, ROWS);
    const chunk = chunks.get(chunkOf(300));
    assert.equal(chunk?.urls[300 - RESULTS_CHUNK_ROWS], variedPage(300).url);
    assert.equal(chunk?.present[0], 1);
    assert.equal(chunks.get(0)?.present[0], 0, 'seq 0 is never written');
  });

  it('writes back nothing and keeps the revision when a rewrite changes no key', () => {
    const { chunks, counts } = chunked(pages);
    const rev = counts.rev;
    const step = chunked(
      pages.slice(0, 10).map((page) => ({ ...page, anchors: ['another anchor'] })),
      chunks,
      counts,
    );
    assert.deepEqual(step.written, []);
    assert.equal(counts.rev, rev);
  });

  it('raises the revision once per write and marks every chunk written with it', () => {
    const { chunks, counts } = chunked(pages);
    const before = counts.rev;
    const step = chunked(
      [
        { ...variedPage(3), inlinks: 77 },
        { ...variedPage(600), inlinks: 78 },
      ],
      chunks,
      counts,
    );
    assert.equal(counts.rev, before + 1);
    assert.deepEqual(
      step.written.map((chunk) => [chunk.chunk, chunk.rev]),
      [
        [0, before + 1],
        [2, before + 1],
      ],
    );
  });

  it('uncounts the old keys of a rewritten row', () => {
    const { chunks, counts } = chunked(pages);
    const page = variedPage(8);
    assert.equal(page.kind, 'page');
    const pagesBefore = counts.kinds['page'] ?? 0;
    const filesBefore = counts.kinds['file'] ?? 0;
    chunked([{ ...page, depth: 9, status: 500, blockedBy: null, kind: 'file' }], chunks, counts);
    assert.equal(counts.depths[9], 1);
    assert.deepEqual([counts.kinds['page'], counts.kinds['file']], [pagesBefore - 1, filesBefore + 1]);
    assert.equal(
      Object.values(counts.kinds).reduce((sum, count) => sum + count, 0),
      ROWS,
    );
    assert.equal(counts.rows, ROWS);
    assert.equal(
      Object.values(counts.depths).reduce((sum, count) => sum + count, 0),
      ROWS,
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unfetchedRow } from '../../src/core/crawl/frontier-queue.ts';
import type { PageRecord } from '../../src/core/model.ts';
import { redirectsByKey, redirectsOfSource, type RedirectLookup } from '../../src/export/redirect-chains.ts';
import { toJsonlRow } from '../../src/export/jsonl.ts';
import { fixtureSource } from '../support/export-fixtures.ts';

const A = 'https://a.example';
const B = 'https://b.example';

function row(
  url: string,
  status: number | null,
  location: string | null = null,
  extra: Partial<PageRecord> = {},
): PageRecord {
  const base = unfetchedRow({
    crawlId: 'c',
    url,
    origin: new URL(url).origin,
    kind: 'page',
    depth: 1,
    referrer: null,
    anchors: [],
    inlinks: 0,
    seq: 0,
    attempts: 0,
    leaseRunId: null,
  });
  return { ...base, status, location, ...extra };
}

/** A site's redirects: a chain across two hosts ending in 404, a loop, one to a URL not crawled, a plain page. */
const ROWS: PageRecord[] = [
  row(`${A}/old`, 301, `${B}/moved`, { kind: 'external' }),
  row(`${B}/moved`, 302, `${B}/final`, { kind: 'external' }),
  row(`${B}/final`, 404, null, { kind: 'external' }),
  row(`${A}/loop-a`, 302, `${A}/loop-b`),
  row(`${A}/loop-b`, 302, `${A}/loop-a`),
  row(`${A}/to-nowhere`, 301, `${A}/never-crawled`),
  row(`${A}/page`, 200),
  row(`${A}/blocked-end`, 301, `${A}/private`),
  row(`${A}/private`, null, null, { blockedBy: 'robots' }),
];

const byKey = async (rows: PageRecord[]): Promise<RedirectLookup> => {
  const byUrl = new Map(rows.map((r) => [r.url, r]));
  return redirectsByKey(rows, async (urls) => urls.map((url) => byUrl.get(url)));
};

describe('redirect chains for the exports', () => {
  for (const [name, build] of [
    ['two passes over the rows', () => redirectsOfSource(fixtureSource(ROWS))],
    ['reads by key', () => byKey(ROWS)],
  ] as const) {
    it(`follows each chain to its end, status and all (${name})`, async () => {
      const lookup = await build();
      assert.deepEqual(lookup.chainOf(`${A}/old`), {
        hops: [`${B}/moved`, `${B}/final`],
        finalUrl: `${B}/final`,
        finalStatus: 404,
        loops: false,
      });
      assert.deepEqual(lookup.chainOf(`${B}/moved`), {
        hops: [`${B}/final`],
        finalUrl: `${B}/final`,
        finalStatus: 404,
        loops: false,
      });
      assert.deepEqual(lookup.chainOf(`${A}/loop-a`), {
        hops: [`${A}/loop-b`, `${A}/loop-a`],
        finalUrl: `${A}/loop-a`,
        finalStatus: null,
        loops: true,
      });
      assert.deepEqual(lookup.chainOf(`${A}/to-nowhere`), {
        hops: [`${A}/never-crawled`],
        finalUrl: `${A}/never-crawled`,
        finalStatus: null,
        loops: false,
      });
      assert.equal(lookup.chainOf(`${A}/blocked-end`)?.finalStatus, null, 'a blocked end has no status');
      assert.equal(lookup.chainOf(`${A}/page`), null, 'not a redirect');
      assert.equal(lookup.chainOf(`${B}/final`), null);
    });
  }

  it('reads the rows only once more for the ends, and not at all more when nothing redirects', async () => {
    const source = fixtureSource(ROWS);
    await redirectsOfSource(source);
    assert.equal(source.passes, 2);
    const plain = fixtureSource([row(`${A}/page`, 200)]);
    assert.equal((await redirectsOfSource(plain)).chainOf(`${A}/page`), null);
    assert.equal(plain.passes, 1);
  });

  it('puts the chain, the final URL and its status on the JSON Lines row of a redirect', async () => {
    const lookup = await byKey(ROWS);
    const first = ROWS[0];
    assert.ok(first);
    const line = toJsonlRow(first, new Set(), undefined, lookup);
    assert.deepEqual(
      [line.redirectChain, line.finalUrl, line.finalStatus],
      [[`${B}/moved`, `${B}/final`], `${B}/final`, 404],
    );
    const plainRow = ROWS[6];
    assert.ok(plainRow);
    const plain = toJsonlRow(plainRow, new Set(), undefined, lookup);
    assert.deepEqual([plain.redirectChain, plain.finalUrl, plain.finalStatus], [null, null, null]);
  });
});

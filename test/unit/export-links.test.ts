/**
 * The links export (`links.csv`, `--out NAME.links.csv`): one line per link a stored row holds, with the
 * anchor, rel, where it was found, whether it was followed and what the target answered; read back with a
 * CSV parser others wrote (csv-parse).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { CrawlRecord, NotCrawledUrl, PageRecord } from '../../src/core/model.ts';
import { extractLinks } from '../../src/core/links/extract-links.ts';
import { formatOfPath } from '../../src/export/format-info.ts';
import { LINKS_CSV_HEADER } from '../../src/export/links-csv.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { exported } from '../support/exported.ts';
import { crawlFixture, pageFixture } from '../support/store-contract.ts';

const SITE = 'https://c1.example';

function row(url: string, seq: number, fields: Partial<PageRecord>): PageRecord {
  return { ...pageFixture('c1', url, seq), links: [], linkTexts: [], resources: [], facts: null, ...fields };
}

/** A small crawl whose rows hold every kind of link the export lists. */
async function storedCrawl(): Promise<MemoryCrawlStore> {
  const crawl: CrawlRecord = {
    ...crawlFixture('c1', Date.UTC(2026, 10, 21, 12)),
    state: 'finished',
  };
  crawl.settings = { ...crawl.settings, startUrl: `${SITE}/`, maxDepth: 3 };
  const home = row(`${SITE}/`, 1, {
    links: [`${SITE}/about`, `${SITE}/private`, 'https://other.example/gone', `${SITE}/deep`, `${SITE}/old`],
    linkTexts: ['About us', '=HYPERLINK("http://evil.example","x")', 'Gone\u001b[31m', '', 'Old'],
    linkElements: ['a', 'a', 'area', 'iframe', 'link'],
    linkRels: ['', 'nofollow', 'sponsored ugc', '', 'next'],
    resources: [`${SITE}/site.css`],
    facts: { canonical: `${SITE}/` } as PageRecord['facts'],
  });
  const about = row(`${SITE}/about`, 2, { status: 404 });
  const blocked = row(`${SITE}/private`, 3, {
    status: null,
    methods: [],
    fetchedAt: null,
    blockedBy: 'robots',
    blockedRule: 'Disallow: /private',
  });
  const external = row('https://other.example/gone', 4, {
    kind: 'external',
    status: null,
    methods: ['HEAD'],
    error: { code: 'dns', message: 'no such host' },
  });
  const css = row(`${SITE}/site.css`, 5, {
    kind: 'resource',
    contentType: 'text/css',
    resources: [`${SITE}/font.woff2`],
  });
  const old = row(`${SITE}/old`, 6, { status: 301, location: `${SITE}/new` });
  // A row stored before link elements were recorded.
  const before = row(`${SITE}/new`, 7, { links: [`${SITE}/`], linkTexts: ['Home'] });
  const left: NotCrawledUrl[] = [
    { crawlId: 'c1', url: `${SITE}/deep`, reason: 'depth', depth: 4, referrer: `${SITE}/` },
  ];
  const store = new MemoryCrawlStore();
  await store.transaction(async (tx) => {
    await tx.putCrawl(crawl);
    await tx.putPages([home, about, blocked, external, css, old, before]);
    await tx.putNotCrawled(left);
  });
  return store;
}

describe('the links export', () => {
  test('lists every link as a row with its anchor, rel, element and what the target answered', async () => {
    const { bytes, result, reports } = await exported(await storedCrawl(), 'c1', 'links.csv');
    const text = bytes.toString('utf8');
    assert.equal(result.fileName, 'c1.example-2026-11-21.links.csv');
    assert.ok(text.startsWith('\uFEFF'), 'a BOM, as the other CSV exports');
    const records = parse(text.slice(1), { columns: true }) as Record<string, string>[];
    assert.deepEqual(Object.keys(records[0] ?? {}), [...LINKS_CSV_HEADER]);
    const line = (source: string, target: string, foundIn: string): Record<string, string> | undefined =>
      records.find((r) => r['source'] === source && r['target'] === target && r['found_in'] === foundIn);
    const home = `${SITE}/`;
    assert.deepEqual(line(home, `${SITE}/about`, 'a'), {
      source: home,
      target: `${SITE}/about`,
      anchor: 'About us',
      rel: '',
      found_in: 'a',
      followed: 'yes',
      target_status: '404',
      target_kind: 'page',
      target_note: '',
    });
    // A formula in an anchor is defused, as in the crawl's CSV; an escape character never reaches a cell raw.
    const blocked = line(home, `${SITE}/private`, 'a');
    assert.equal(blocked?.['anchor'], `'=HYPERLINK("http://evil.example","x")`);
    assert.equal(blocked?.['rel'], 'nofollow');
    assert.equal(blocked?.['followed'], 'no');
    assert.equal(blocked?.['target_note'], 'blocked by robots.txt (Disallow: /private)');
    const external = line(home, 'https://other.example/gone', 'area');
    assert.equal(external?.['anchor'], 'Gone\\x1B[31m');
    assert.equal(external?.['rel'], 'sponsored ugc');
    assert.deepEqual(
      [external?.['followed'], external?.['target_kind'], external?.['target_note']],
      ['yes', 'external', 'dns'],
    );
    const deep = line(home, `${SITE}/deep`, 'iframe');
    assert.deepEqual(
      [deep?.['followed'], deep?.['target_kind'], deep?.['target_note']],
      ['no', 'not-crawled', 'not crawled: deeper than 3'],
    );
    assert.equal(line(home, `${SITE}/old`, 'link')?.['target_status'], '301');
    // Resources, a stylesheet's URLs, a redirect, a canonical, and a row stored before elements were recorded.
    assert.equal(line(home, `${SITE}/site.css`, 'resource')?.['target_kind'], 'resource');
    assert.equal(line(`${SITE}/site.css`, `${SITE}/font.woff2`, 'css')?.['target_kind'], '');
    assert.equal(line(`${SITE}/old`, `${SITE}/new`, 'redirect')?.['target_status'], '200');
    assert.equal(line(home, home, 'canonical')?.['rel'], 'canonical');
    assert.equal(line(`${SITE}/new`, home, 'html')?.['anchor'], 'Home');
    assert.equal(records.length, 10);
    // Progress counts the rows, as the other formats do.
    assert.equal(reports.at(-1)?.rowsDone, 7);
  });

  test('--out NAME.links.csv picks the format by its name', () => {
    assert.equal(formatOfPath('out/site.links.csv'), 'links.csv');
    assert.equal(formatOfPath('out/site.csv'), 'csv');
  });

  test("records each link's element and rel from the first link to its target", () => {
    const html = `<a href="/a" rel="NoFollow  Sponsored">A</a><a href="/a">again</a>
      <map><area href="/b" alt="B"></map><iframe src="/c"></iframe><link rel="next" href="/d">
      <frame src="/e"><a href="/f">F</a>`;
    const found = extractLinks(html, `${SITE}/`, 'utf-8');
    assert.deepEqual(
      found.links.map((l) => [l.url.replace(SITE, ''), l.element, l.rel]),
      [
        ['/a', 'a', 'nofollow sponsored'],
        ['/b', 'area', ''],
        ['/c', 'iframe', ''],
        ['/d', 'link', 'next'],
        ['/e', 'frame', ''],
        ['/f', 'a', ''],
      ],
    );
  });
});

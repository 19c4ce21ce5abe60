import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { PageRecord } from '../../src/core/model.ts';
import { csvLine } from '../../src/export/csv.ts';
import { storeExportSource } from '../../src/export/export-source.ts';
import {
  buildAllReports,
  buildBlocked,
  buildBrokenLinks,
  buildBrokenResources,
  buildDuplicates,
  buildRedirects,
  buildReport,
  reportCount,
  resourceTypeOf,
} from '../../src/audit/reports.ts';
import { REPORT_CSV_HEADERS, reportFileName, reportToCsv } from '../../src/reports/report-csv.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { crawlFixture, pageFixture } from '../support/store-contract.ts';
import { scanOf } from '../support/row-scan.ts';
import { runAudit } from '../../src/audit/audit.ts';

const A = 'https://a.example';

/** A plain 200 row without links or body; `seq` follows the order of the list given to {@link scanOf}. */
function row(path: string, overrides: Partial<PageRecord> = {}): PageRecord {
  return {
    ...pageFixture('c1', `${A}${path}`, 0),
    referrer: `${A}/`,
    sha256: null,
    links: [],
    linkTexts: [],
    anchors: [],
    ...overrides,
  };
}

const redirect = (path: string, to: string | null, status = 301): PageRecord =>
  row(path, { status, location: to === null ? null : to.startsWith('http') ? to : `${A}${to}` });
/** A page resource row (`kind: 'resource'`), found on the home page. */
const resource = (path: string, overrides: Partial<PageRecord> = {}): PageRecord =>
  row(path, { kind: 'resource', title: null, contentType: null, ...overrides });
/** A page using `paths` as its resources. */
const using = (path: string, paths: string[], overrides: Partial<PageRecord> = {}): PageRecord =>
  row(path, { resources: paths.map((p) => (p.startsWith('http') ? p : `${A}${p}`)), ...overrides });
const linking = (path: string, targets: [string, string][]): PageRecord =>
  row(path, { links: targets.map(([target]) => `${A}${target}`), linkTexts: targets.map(([, text]) => text) });

/** The records of a CSV text (BOM stripped), header first. */
function parseCsv(text: string): string[][] {
  assert.ok(text.startsWith('\uFEFF'), 'starts with a BOM');
  return parse(text.slice(1), { relaxColumnCount: false }) as string[][];
}

describe('broken links report', () => {
  it('lists a 404 target with each linking page and the anchor text of its link', async () => {
    const report = await buildBrokenLinks(
      scanOf([
        linking('/', [
          ['/gone', 'Old page'],
          ['/ok', 'Fine'],
        ]),
        linking('/b', [['/gone', '']]),
        row('/gone', { status: 404 }),
        row('/ok'),
      ]),
    );
    assert.deepEqual(report.targets, [
      {
        url: `${A}/gone`,
        status: 404,
        error: null,
        linkingPages: [
          { url: `${A}/`, anchorText: 'Old page' },
          { url: `${A}/b`, anchorText: '' },
        ],
      },
    ]);
  });

  it('counts 5xx answers and network failures as broken, but not redirects, successes or blocked rows', async () => {
    const report = await buildBrokenLinks(
      scanOf([
        row('/500', { status: 500 }),
        row('/timeout', { status: null, error: { code: 'timeout', message: 'no answer in 30 s' } }),
        row('/blocked', { status: null, blockedBy: 'robots', blockedRule: 'Disallow: /blocked' }),
        redirect('/moved', '/ok'),
        row('/ok'),
      ]),
    );
    assert.deepEqual(
      report.targets.map((t) => [t.url, t.status, t.error]),
      [
        [`${A}/500`, 500, null],
        [`${A}/timeout`, null, 'timeout: no answer in 30 s'],
      ],
    );
  });

  it('counts a status of 600 or more (a 999 refusal) as broken, as the Issues check broken-link-internal does', async () => {
    const rows = [linking('/', [['/refused', 'Profile']]), row('/refused', { status: 999 })];
    const report = await buildBrokenLinks(scanOf(rows));
    assert.deepEqual(
      report.targets.map((t) => [t.url, t.status]),
      [[`${A}/refused`, 999]],
    );
    const issues = await runAudit(scanOf(rows));
    assert.deepEqual(
      issues.findings.get('broken-link-internal')?.map((finding) => finding.url),
      [`${A}/refused`],
    );
  });

  it('skips link targets that were never crawled', async () => {
    const report = await buildBrokenLinks(
      scanOf([
        linking('/', [
          ['/never', 'x'],
          ['/gone', 'y'],
        ]),
        row('/gone', { status: 410 }),
      ]),
    );
    assert.deepEqual(
      report.targets.map((t) => t.url),
      [`${A}/gone`],
    );
  });

  it('counts a page linking twice to one broken target once, with the text of its first link', async () => {
    const report = await buildBrokenLinks(
      scanOf([
        linking('/', [
          ['/gone', 'first'],
          ['/gone', 'second'],
        ]),
        row('/gone', { status: 404 }),
      ]),
    );
    assert.deepEqual(report.targets[0]?.linkingPages, [{ url: `${A}/`, anchorText: 'first' }]);
  });

  it('finds linking pages written after the broken row', async () => {
    const report = await buildBrokenLinks(
      scanOf([row('/gone', { status: 404 }), linking('/late', [['/gone', 'late link']])]),
    );
    assert.deepEqual(report.targets[0]?.linkingPages, [{ url: `${A}/late`, anchorText: 'late link' }]);
  });

  it('sorts targets by linking pages, most first, keeping row order on ties', async () => {
    const report = await buildBrokenLinks(
      scanOf([
        row('/one', { status: 404 }),
        row('/three', { status: 404 }),
        row('/none', { status: 404 }),
        row('/also-one', { status: 404 }),
        linking('/p1', [
          ['/three', ''],
          ['/one', ''],
        ]),
        linking('/p2', [
          ['/three', ''],
          ['/also-one', ''],
        ]),
        linking('/p3', [['/three', '']]),
      ]),
    );
    assert.deepEqual(
      report.targets.map((t) => [t.url, t.linkingPages.length]),
      [
        [`${A}/three`, 3],
        [`${A}/one`, 1],
        [`${A}/also-one`, 1],
        [`${A}/none`, 0],
      ],
    );
  });

  it('reads a missing anchor text (a sitemap link) as empty', async () => {
    const sitemap = row('/sitemap.xml', { kind: 'sitemap', links: [`${A}/gone`], linkTexts: [] });
    const report = await buildBrokenLinks(scanOf([sitemap, row('/gone', { status: 404 })]));
    assert.deepEqual(report.targets[0]?.linkingPages, [{ url: `${A}/sitemap.xml`, anchorText: '' }]);
  });
});

describe('redirects report', () => {
  it('reports a single redirect as one hop ending on its target page', async () => {
    const report = await buildRedirects(scanOf([redirect('/old', '/new'), row('/new')]));
    assert.deepEqual(report.chains, [
      {
        hops: [{ url: `${A}/old`, status: 301 }],
        end: { kind: 'page', url: `${A}/new`, status: 200, error: null, isBlocked: false },
        isLong: false,
        isLoop: false,
      },
    ]);
  });

  it('follows a chain into a 404 as one long chain from its start', async () => {
    const report = await buildRedirects(
      scanOf([row('/c', { status: 404 }), redirect('/a', '/b', 301), redirect('/b', '/c', 302)]),
    );
    assert.equal(report.chains.length, 1);
    const [chain] = report.chains;
    assert.deepEqual(chain?.hops, [
      { url: `${A}/a`, status: 301 },
      { url: `${A}/b`, status: 302 },
    ]);
    assert.deepEqual(chain?.end, { kind: 'page', url: `${A}/c`, status: 404, error: null, isBlocked: false });
    assert.equal(chain?.isLong, true);
    assert.equal(chain?.isLoop, false);
  });

  it('ends a chain leaving the crawl as not crawled', async () => {
    const report = await buildRedirects(scanOf([redirect('/out', 'https://elsewhere.example/')]));
    assert.deepEqual(report.chains[0]?.end, { kind: 'not-crawled', url: 'https://elsewhere.example/' });
  });

  it('reports a loop of two redirects once, flagged as a loop', async () => {
    const report = await buildRedirects(scanOf([redirect('/a', '/b'), redirect('/b', '/a')]));
    assert.equal(report.chains.length, 1);
    assert.deepEqual(
      report.chains[0]?.hops.map((h) => h.url),
      [`${A}/a`, `${A}/b`],
    );
    assert.deepEqual(report.chains[0]?.end, { kind: 'loop', url: `${A}/a` });
    assert.equal(report.chains[0]?.isLoop, true);
  });

  it('reports a loop of three redirects once, starting at its earliest row', async () => {
    const report = await buildRedirects(scanOf([redirect('/y', '/z'), redirect('/x', '/y'), redirect('/z', '/x')]));
    assert.equal(report.chains.length, 1);
    assert.deepEqual(
      report.chains[0]?.hops.map((h) => h.url),
      [`${A}/y`, `${A}/z`, `${A}/x`],
    );
    assert.equal(report.chains[0]?.isLoop, true);
    assert.equal(report.chains[0]?.isLong, true);
  });

  it('reports a chain running into a loop from its start, once', async () => {
    const report = await buildRedirects(
      scanOf([redirect('/a', '/b'), redirect('/b', '/c'), redirect('/in', '/a'), redirect('/c', '/b')]),
    );
    assert.equal(report.chains.length, 1);
    assert.deepEqual(
      report.chains[0]?.hops.map((h) => h.url),
      [`${A}/in`, `${A}/a`, `${A}/b`, `${A}/c`],
    );
    assert.deepEqual(report.chains[0]?.end, { kind: 'loop', url: `${A}/b` });
  });

  it('reports a URL redirecting to itself as a loop of one hop', async () => {
    const report = await buildRedirects(scanOf([redirect('/self', '/self')]));
    assert.deepEqual(report.chains, [
      {
        hops: [{ url: `${A}/self`, status: 301 }],
        end: { kind: 'loop', url: `${A}/self` },
        isLong: false,
        isLoop: true,
      },
    ]);
  });

  it('ends a chain at a 3xx without Location', async () => {
    const report = await buildRedirects(scanOf([redirect('/a', '/b'), redirect('/b', null, 302)]));
    assert.deepEqual(report.chains[0]?.end, { kind: 'no-location' });
    assert.equal(report.chains[0]?.hops.length, 2);
  });

  it('ends a chain on a blocked or failed row with no status', async () => {
    const report = await buildRedirects(
      scanOf([
        redirect('/to-blocked', '/private'),
        row('/private', { status: null, blockedBy: 'robots', blockedRule: 'Disallow: /private' }),
        redirect('/to-failed', '/down'),
        row('/down', { status: null, error: { code: 'network', message: 'refused' } }),
      ]),
    );
    assert.deepEqual(
      report.chains.map((c) => c.end),
      [
        { kind: 'page', url: `${A}/private`, status: null, error: null, isBlocked: true },
        { kind: 'page', url: `${A}/down`, status: null, error: 'network: refused', isBlocked: false },
      ],
    );
  });

  it('lists loops first, then the longest chains, then row order', async () => {
    const report = await buildRedirects(
      scanOf([
        redirect('/short', '/ok'),
        redirect('/long1', '/long2'),
        redirect('/long2', '/ok'),
        redirect('/short2', '/ok'),
        redirect('/loop1', '/loop2'),
        redirect('/loop2', '/loop1'),
        row('/ok'),
      ]),
    );
    assert.deepEqual(
      report.chains.map((c) => c.hops[0]?.url),
      [`${A}/loop1`, `${A}/long1`, `${A}/short`, `${A}/short2`],
    );
  });

  it('follows two chains that merge into one target separately', async () => {
    const report = await buildRedirects(
      scanOf([redirect('/a', '/mid'), redirect('/b', '/mid'), redirect('/mid', '/end'), row('/end')]),
    );
    assert.deepEqual(
      report.chains.map((c) => c.hops.map((h) => h.url)),
      [
        [`${A}/a`, `${A}/mid`],
        [`${A}/b`, `${A}/mid`],
      ],
    );
  });
});

describe('blocked report', () => {
  it('lists rows blocked by robots.txt with their rule and referrer, in row order', async () => {
    const report = await buildBlocked(
      scanOf([
        row('/private/a', { status: null, blockedBy: 'robots', blockedRule: 'Disallow: /private', referrer: `${A}/` }),
        row('/open'),
        row('/tmp', { status: null, blockedBy: 'robots', blockedRule: null, referrer: null }),
      ]),
    );
    assert.deepEqual(report.rows, [
      { url: `${A}/private/a`, rule: 'Disallow: /private', referrer: `${A}/` },
      { url: `${A}/tmp`, rule: null, referrer: null },
    ]);
  });
});

describe('duplicates report', () => {
  const hashA = 'aa'.repeat(32);
  const hashB = 'bb'.repeat(32);

  it('groups the first capture with every row that duplicates it, largest groups first', async () => {
    const report = await buildDuplicates(
      scanOf([
        row('/b', { sha256: hashB }),
        row('/a', { sha256: hashA }),
        row('/b2', { sha256: hashB, duplicateOf: `${A}/b` }),
        row('/a2', { sha256: hashA, duplicateOf: `${A}/a` }),
        row('/unique', { sha256: 'cc'.repeat(32) }),
        row('/a3', { sha256: hashA, duplicateOf: `${A}/a`, status: 203 }),
      ]),
    );
    assert.deepEqual(report.groups, [
      {
        sha256: hashA,
        members: [
          { url: `${A}/a`, status: 200, isOriginal: true },
          { url: `${A}/a2`, status: 200, isOriginal: false },
          { url: `${A}/a3`, status: 203, isOriginal: false },
        ],
      },
      {
        sha256: hashB,
        members: [
          { url: `${A}/b`, status: 200, isOriginal: true },
          { url: `${A}/b2`, status: 200, isOriginal: false },
        ],
      },
    ]);
  });

  it('groups only pages that answered 2xx: identical error pages are not duplicate content', async () => {
    const errorPage = 'ee'.repeat(32);
    const report = await buildDuplicates(
      scanOf([
        row('/missing1', { sha256: errorPage, status: 404 }),
        ...[2, 3, 4, 5].map((n) =>
          row(`/missing${n}`, { sha256: errorPage, status: 404, duplicateOf: `${A}/missing1` }),
        ),
        row('/down', { sha256: hashB, status: 503 }),
        // A 200 page whose body an error page served first, and another copy of it: a group of the two 200s.
        row('/ok1', { sha256: hashB, status: 200, duplicateOf: `${A}/down` }),
        row('/ok2', { sha256: hashB, status: 200, duplicateOf: `${A}/down` }),
        row('/alone', { sha256: hashA, status: 200, duplicateOf: `${A}/missing1` }),
      ]),
    );
    assert.deepEqual(report.groups, [
      {
        sha256: hashB,
        members: [
          { url: `${A}/ok1`, status: 200, isOriginal: false },
          { url: `${A}/ok2`, status: 200, isOriginal: false },
        ],
      },
    ]);
  });

  it('reports no group for bodies served once', async () => {
    const report = await buildDuplicates(scanOf([row('/a', { sha256: hashA }), row('/b', { sha256: hashB })]));
    assert.deepEqual(report.groups, []);
  });

  it('still names an original written after its duplicate', async () => {
    const report = await buildDuplicates(
      scanOf([row('/copy', { sha256: hashA, duplicateOf: `${A}/first` }), row('/first', { sha256: hashA })]),
    );
    assert.deepEqual(
      report.groups[0]?.members.map((m) => [m.url, m.isOriginal]),
      [
        [`${A}/first`, true],
        [`${A}/copy`, false],
      ],
    );
  });
});

describe('broken resources report', () => {
  it('lists resources answered 400 or more, failed or blocked, with what each is and every row using it', async () => {
    const report = await buildBrokenResources(
      scanOf([
        using('/', ['/s/site.css', '/img/logo.png', '/js/app.js']),
        using('/b', ['/img/logo.png', 'https://cdn.example/f.woff2']),
        resource('/s/site.css', {
          status: 200,
          contentType: 'text/css',
          resources: [`${A}/s/font.woff2`, `${A}/img/bg`],
        }),
        resource('/img/logo.png', { status: 404, contentType: 'text/html' }),
        resource('/js/app.js', { status: 500, contentType: 'application/javascript' }),
        {
          ...resource('/x'),
          url: 'https://cdn.example/f.woff2',
          status: null,
          error: { code: 'timeout', message: 'no answer in 30 s' },
        },
        resource('/s/font.woff2', { status: null, blockedBy: 'robots', blockedRule: 'Disallow: /s/font' }),
        resource('/img/bg', { status: 410, contentType: 'image/webp' }),
        resource('/fine.png', { status: 200, contentType: 'image/png' }),
        resource('/redirected.png', { status: 301, location: `${A}/img/bg` }),
      ]),
    );
    assert.deepEqual(
      report.resources.map((r) => [r.url, r.type, r.status, r.error, r.isBlocked, r.users.map((u) => [u.url, u.kind])]),
      [
        // Most users first, then row order.
        [
          `${A}/img/logo.png`,
          'image',
          404,
          null,
          false,
          [
            [`${A}/`, 'page'],
            [`${A}/b`, 'page'],
          ],
        ],
        [`${A}/js/app.js`, 'script', 500, null, false, [[`${A}/`, 'page']]],
        ['https://cdn.example/f.woff2', 'font', null, 'timeout: no answer in 30 s', false, [[`${A}/b`, 'page']]],
        [`${A}/s/font.woff2`, 'font', null, null, true, [[`${A}/s/site.css`, 'resource']]],
        // No extension: the content type says what it is.
        [`${A}/img/bg`, 'image', 410, null, false, [[`${A}/s/site.css`, 'resource']]],
      ],
    );
    assert.equal(report.resources[3]?.blockedRule, 'Disallow: /s/font');
  });

  it('lists a broken URL first reached by a link when a row uses it as a resource, and not otherwise', async () => {
    const report = await buildBrokenResources(
      scanOf([
        linking('/', [
          ['/gone.png', 'picture'],
          ['/gone', 'page'],
        ]),
        row('/gone.png', { status: 404 }),
        row('/gone', { status: 404 }),
        using('/later', ['/gone.png']),
      ]),
    );
    assert.deepEqual(
      report.resources.map((r) => [r.url, r.users.map((u) => u.url)]),
      [[`${A}/gone.png`, [`${A}/later`]]],
    );
  });

  it("keeps a broken resource no row lists (a redirect's target), with the row it was reached from", async () => {
    const report = await buildBrokenResources(
      scanOf([
        using('/', ['/a.png']),
        resource('/a.png', { status: 301, location: `${A}/b.png` }),
        resource('/b.png', { status: 404, referrer: `${A}/a.png` }),
      ]),
    );
    assert.deepEqual(
      report.resources.map((r) => [r.url, r.referrer, r.users.length]),
      [[`${A}/b.png`, `${A}/a.png`, 0]],
    );
  });

  it('tells what a resource is from its extension, else its content type', () => {
    const cases: [string, string | null, string][] = [
      ['/a.PNG', 'text/html', 'image'],
      ['/a.svg?v=2', null, 'image'],
      ['/favicon.ico', null, 'image'],
      ['/s/site.css', 'text/html; charset=utf-8', 'stylesheet'],
      ['/app.mjs', null, 'script'],
      ['/f.woff2', null, 'font'],
      ['/f.ttf', null, 'font'],
      ['/img', 'image/avif', 'image'],
      ['/style', 'text/css', 'stylesheet'],
      ['/script', 'text/javascript; charset=utf-8', 'script'],
      ['/font', 'font/woff2', 'font'],
      ['/font2', 'application/font-woff', 'font'],
      ['/missing', 'text/html', 'other'],
      ['/video.mp4', 'video/mp4', 'other'],
      ['/manifest.webmanifest', null, 'other'],
      ['/dir.css/', null, 'other'],
    ];
    for (const [path, contentType, expected] of cases)
      assert.equal(resourceTypeOf(`${A}${path}`, contentType), expected, `${path} ${contentType ?? ''}`);
  });
});

describe('reports about pages, not resources', () => {
  it('broken links: a broken resource only when a page links to it', async () => {
    const report = await buildBrokenLinks(
      scanOf([
        using('/', ['/missing.png', '/linked.png']),
        linking('/b', [['/linked.png', 'full size']]),
        resource('/missing.png', { status: 404 }),
        resource('/linked.png', { status: 404 }),
        row('/gone', { status: 404 }),
      ]),
    );
    assert.deepEqual(
      report.targets.map((t) => [t.url, t.linkingPages.map((p) => p.url)]),
      [
        [`${A}/linked.png`, [`${A}/b`]],
        [`${A}/gone`, []],
      ],
    );
  });

  it('redirects: no chain starts at a resource', async () => {
    const report = await buildRedirects(
      scanOf([
        resource('/a.png', { status: 301, location: `${A}/b.png` }),
        resource('/b.png'),
        redirect('/old', '/new'),
        row('/new'),
      ]),
    );
    assert.deepEqual(
      report.chains.map((c) => c.hops.map((h) => h.url)),
      [[`${A}/old`]],
    );
  });

  it('blocked: pages, files and sitemaps only (a blocked resource is a broken resource)', async () => {
    const rows = [
      resource('/cdn/tracker.js', { status: null, blockedBy: 'robots', blockedRule: 'Disallow: /cdn' }),
      row('/private', { status: null, blockedBy: 'robots', blockedRule: 'Disallow: /private' }),
      row('/private.pdf', { kind: 'file', status: null, blockedBy: 'robots', blockedRule: 'Disallow: /private' }),
    ];
    assert.deepEqual(
      (await buildBlocked(scanOf(rows))).rows.map((r) => r.url),
      [`${A}/private`, `${A}/private.pdf`],
    );
  });

  it("blocked: the site's own URLs, as the Issues count them; a link to another site its robots.txt disallows is not listed", async () => {
    const rows = [
      row('/private', { status: null, blockedBy: 'robots', blockedRule: 'Disallow: /private' }),
      // A checked link to another site: a row of kind `external` (see `isExternalRow`).
      {
        ...row('/x', { status: null, blockedBy: 'robots', blockedRule: 'Disallow: /members' }),
        url: 'https://other.test/members',
        kind: 'external' as PageRecord['kind'],
      },
    ];
    assert.deepEqual(
      (await buildBlocked(scanOf(rows))).rows.map((r) => r.url),
      [`${A}/private`],
    );
  });

  it('duplicates: identical pages only, not identical images or files', async () => {
    const hash = (c: string): string => c.repeat(64);
    const report = await buildDuplicates(
      scanOf([
        resource('/a.png', { sha256: hash('a') }),
        resource('/b.png', { sha256: hash('a'), duplicateOf: `${A}/a.png` }),
        row('/doc.pdf', { kind: 'file', sha256: hash('b') }),
        row('/copy.pdf', { kind: 'file', sha256: hash('b'), duplicateOf: `${A}/doc.pdf` }),
        row('/p', { sha256: hash('c') }),
        row('/p2', { sha256: hash('c'), duplicateOf: `${A}/p` }),
        // A page whose body an image had first: the image is not a member, the page alone is no group.
        row('/weird', { sha256: hash('a'), duplicateOf: `${A}/a.png` }),
      ]),
    );
    assert.deepEqual(
      report.groups.map((g) => g.members.map((m) => m.url)),
      [[`${A}/p`, `${A}/p2`]],
    );
  });
});

describe('building reports', () => {
  const rows = [
    linking('/', [['/gone', 'Gone']]),
    row('/gone', { status: 404 }),
    redirect('/old', '/'),
    row('/private', { status: null, blockedBy: 'robots', blockedRule: 'Disallow: /private' }),
    row('/a', { sha256: 'aa'.repeat(32) }),
    row('/a2', { sha256: 'aa'.repeat(32), duplicateOf: `${A}/a` }),
    using('/styled', ['/missing.png']),
    resource('/missing.png', { status: 404 }),
  ];

  it('builds all five reports in two scans, as the single builders do', async () => {
    const scan = scanOf(rows);
    const all = await buildAllReports(scan);
    assert.equal(scan.scans, 2);
    assert.deepEqual(all['broken-links'], await buildBrokenLinks(scanOf(rows)));
    assert.deepEqual(all['broken-resources'], await buildBrokenResources(scanOf(rows)));
    assert.deepEqual(all.redirects, await buildRedirects(scanOf(rows)));
    assert.deepEqual(all.blocked, await buildBlocked(scanOf(rows)));
    assert.deepEqual(all.duplicates, await buildDuplicates(scanOf(rows)));
    assert.deepEqual(
      [all['broken-links'], all['broken-resources'], all.redirects, all.blocked, all.duplicates].map(reportCount),
      [1, 1, 1, 1, 1],
    );
  });

  it('reads the blocked report in one scan', async () => {
    const scan = scanOf(rows);
    await buildReport('blocked', scan);
    assert.equal(scan.scans, 1);
  });

  it('reads a crawl store page by page', async () => {
    const store = new MemoryCrawlStore();
    const crawl = crawlFixture('c1');
    const numbered = rows.map((r, index) => ({ ...r, seq: index + 1 }));
    await store.transaction(async (tx) => {
      await tx.putCrawl(crawl);
      await tx.putPages(numbered);
    });
    const source = storeExportSource(store, crawl, 2);
    const report = await buildReport('broken-links', () => source.rows());
    assert.deepEqual(
      report.targets.map((t) => [t.url, t.linkingPages.map((p) => p.url)]),
      [[`${A}/gone`, [`${A}/`]]],
    );
  });
});

describe('report CSV', () => {
  it('encodes cells as the crawl CSV does: formulas defused, fields quoted, lists joined', () => {
    assert.equal(
      csvLine(['=1+1', -1, null, true, ['a', 'b'], 'say "hi", then']),
      `'=1+1,-1,,true,a | b,"say ""hi"", then"\r\n`,
    );
  });

  it('writes one broken-links line per target and linking page', async () => {
    const report = await buildBrokenLinks(
      scanOf([
        linking('/', [['/gone', 'Old']]),
        linking('/b', [['/gone', 'Older']]),
        row('/gone', { status: 404 }),
        row('/down', { status: null, error: { code: 'timeout', message: 'slow' } }),
      ]),
    );
    assert.deepEqual(parseCsv(reportToCsv(report)), [
      ['target', 'status', 'error', 'linking page', 'anchor text'],
      [`${A}/gone`, '404', '', `${A}/`, 'Old'],
      [`${A}/gone`, '404', '', `${A}/b`, 'Older'],
      [`${A}/down`, '', 'timeout: slow', '', ''],
    ]);
  });

  it('defuses an anchor text that a spreadsheet would run as a formula', async () => {
    const report = await buildBrokenLinks(
      scanOf([linking('/', [['/gone', '=HYPERLINK("https://evil.example","click")']]), row('/gone', { status: 404 })]),
    );
    const text = reportToCsv(report);
    assert.ok(text.includes(`"'=HYPERLINK(""https://evil.example"",""click"")"`));
    assert.equal(parseCsv(text)[1]?.[4], `'=HYPERLINK("https://evil.example","click")`);
  });

  it('writes one redirects line per chain, hops joined', async () => {
    const report = await buildRedirects(
      scanOf([
        redirect('/a', '/b', 301),
        redirect('/b', '/c', 302),
        row('/c', { status: 404 }),
        redirect('/x', '/x', 307),
      ]),
    );
    assert.deepEqual(parseCsv(reportToCsv(report)), [
      [...REPORT_CSV_HEADERS.redirects],
      [`${A}/x`, '1', `${A}/x`, '307', `${A}/x`, '', 'loop', 'false', 'true'],
      [`${A}/a`, '2', `${A}/a | ${A}/b`, '301 | 302', `${A}/c`, '404', 'page', 'true', 'false'],
    ]);
  });

  it('writes the blocked and duplicates reports one line per row', async () => {
    const rows = [
      row('/p', { status: null, blockedBy: 'robots', blockedRule: 'Disallow: /p', referrer: `${A}/` }),
      row('/a', { sha256: 'aa'.repeat(32) }),
      row('/a2', { sha256: 'aa'.repeat(32), duplicateOf: `${A}/a` }),
    ];
    assert.deepEqual(parseCsv(reportToCsv(await buildBlocked(scanOf(rows)))), [
      ['url', 'rule', 'referrer'],
      [`${A}/p`, 'Disallow: /p', `${A}/`],
    ]);
    assert.deepEqual(parseCsv(reportToCsv(await buildDuplicates(scanOf(rows)))), [
      ['group', 'sha256', 'url', 'status', 'original'],
      ['1', 'aa'.repeat(32), `${A}/a`, '200', 'true'],
      ['1', 'aa'.repeat(32), `${A}/a2`, '200', 'false'],
    ]);
  });

  it('writes one broken-resources line per resource and row using it, with what it is and what is wrong', async () => {
    const report = await buildBrokenResources(
      scanOf([
        using('/', ['/img/logo.png', '/s/x.css']),
        using('/b', ['/img/logo.png']),
        resource('/img/logo.png', { status: 404 }),
        resource('/s/x.css', { status: null, blockedBy: 'robots', blockedRule: 'Disallow: /s/' }),
        resource('/a.js', { status: 301, location: `${A}/b.js` }),
        resource('/b.js', { status: null, error: { code: 'network', message: 'refused' }, referrer: `${A}/a.js` }),
      ]),
    );
    assert.deepEqual(parseCsv(reportToCsv(report)), [
      ['resource', 'type', 'status', 'problem', 'found via', 'used by', 'used by kind'],
      [`${A}/img/logo.png`, 'image', '404', '404', `${A}/`, `${A}/`, 'page'],
      [`${A}/img/logo.png`, 'image', '404', '404', `${A}/`, `${A}/b`, 'page'],
      [`${A}/s/x.css`, 'stylesheet', '', 'blocked by robots.txt (Disallow: /s/)', `${A}/`, `${A}/`, 'page'],
      [`${A}/b.js`, 'script', '', 'network: refused', `${A}/a.js`, '', ''],
    ]);
  });

  it('writes only the header for an empty report', () => {
    assert.equal(reportToCsv({ kind: 'blocked', rows: [] }), '\uFEFFurl,rule,referrer\r\n');
  });

  it('names the file after the host, the crawl date and the report', () => {
    const crawl = {
      createdAt: Date.UTC(2026, 10, 21, 23, 59),
      settings: { startUrl: 'https://www.example.com:8443/start' },
    };
    assert.equal(reportFileName(crawl, 'broken-links'), 'www.example.com_8443-2026-11-21-broken-links.csv');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  COLLECTORS,
  countsBySeverity,
  failedChecks,
  issuesByUrl,
  runAudit,
  severityCountsText,
} from '../../src/audit/audit.ts';
import { CHECKS, CHECK_IDS, checkInfo, isCheckId, type CheckId } from '../../src/audit/checks.ts';
import { RELATED_MAX, runChecks, type RowScan } from '../../src/audit/engine.ts';
import { DEFAULT_THRESHOLDS } from '../../src/audit/thresholds.ts';
import type { PageRecord } from '../../src/core/model.ts';
import {
  OTHER,
  PLANTED,
  SITE,
  auditRows,
  cleanFacts,
  external,
  linking,
  other,
  page,
  redirect,
} from '../support/audit-fixture.ts';
import { scanOf } from '../support/row-scan.ts';

async function urlsOf(rows: PageRecord[], check: CheckId): Promise<string[]> {
  const result = await runAudit(scanOf(rows));
  return (result.findings.get(check) ?? []).map((finding) => finding.url);
}

const at = (path: string): string => `${SITE}${path}`;

describe('the checks registry', () => {
  it('lists the 36 ids (27, and 9 of rendering from issue 29), each once, with a severity, a title and a why', () => {
    assert.equal(CHECK_IDS.length, 36);
    assert.equal(new Set(CHECK_IDS).size, 36);
    assert.deepEqual(
      CHECKS.map((info) => info.id),
      [...CHECK_IDS],
    );
    for (const info of CHECKS) {
      assert.ok(['error', 'warning', 'notice'].includes(info.severity), info.id);
      assert.ok(info.title.length > 0 && info.why.length > 20, info.id);
    }
  });

  it('words the thresholds in force', () => {
    assert.equal(checkInfo('title-too-long').threshold, 'over 60 characters');
    assert.equal(checkInfo('slow-response').threshold, `over ${DEFAULT_THRESHOLDS.slowResponseMs} ms`);
    assert.equal(checkInfo('large-page').threshold, 'HTML over 1024 KiB');
    assert.equal(checkInfo('deep-page').threshold, 'more than 3 clicks from the start');
  });

  it('tells a check id from anything else', () => {
    assert.ok(isCheckId('redirect-loop'));
    assert.ok(!isCheckId('redirect'));
    assert.ok(!isCheckId(3));
  });
});

describe('every check over a site with each issue planted', () => {
  it('finds each check exactly on the URLs it was planted on, and nowhere else', async () => {
    const result = await runAudit(scanOf(auditRows()));
    for (const id of CHECK_IDS) {
      assert.deepEqual(
        (result.findings.get(id) ?? []).map((finding) => finding.url),
        PLANTED[id],
        id,
      );
    }
  });

  it('reads the rows at most three times', async () => {
    const scan = scanOf(auditRows());
    const result = await runAudit(scan);
    assert.equal(scan.scans, 3);
    assert.equal(result.scans, 3);
  });

  it('reads the rows twice when no anchor is missing on a page read after its link', async () => {
    const scan = scanOf([page('/')]);
    await runAudit(scan);
    assert.equal(scan.scans, 2);
  });

  it('counts by severity and lists each URL’s ids in registry order', async () => {
    const result = await runAudit(scanOf(auditRows()));
    const expected = { error: 0, warning: 0, notice: 0 };
    for (const id of CHECK_IDS) expected[checkInfo(id).severity] += PLANTED[id].length;
    assert.deepEqual(countsBySeverity(result), expected);
    assert.equal(severityCountsText({ error: 1, warning: 2, notice: 0 }), '1 error, 2 warnings, 0 notices');
    const byUrl = issuesByUrl(result);
    assert.deepEqual(byUrl.get(at('/dup1')), ['title-duplicate', 'description-duplicate', 'duplicate-content']);
    assert.deepEqual(byUrl.get(at('/old')), ['link-to-redirect', 'sitemap-non-indexable']);
    assert.equal(byUrl.get(at('/a'))?.[0], 'missing-anchor');
    assert.equal(byUrl.get(at('/chain3')), undefined);
    assert.equal(failedChecks(result).length, CHECK_IDS.length);
  });

  it('covers every registry id with some group of checks', async () => {
    assert.equal(COLLECTORS.length, 6);
    const result = await runAudit(scanOf(auditRows()));
    assert.deepEqual([...result.findings.keys()], [...CHECK_IDS]);
  });
});

describe('links and redirects', () => {
  it('puts a broken link on the broken URL, with the pages linking to it', async () => {
    const result = await runAudit(scanOf(auditRows()));
    const [gone] = result.findings.get('broken-link-internal') ?? [];
    assert.deepEqual(gone, {
      check: 'broken-link-internal',
      url: at('/gone'),
      detail: '404',
      related: [at('/'), at('/a')],
      relatedCount: 2,
    });
  });

  it('names the page linking to the start of the redirects that end on a broken URL of another site', async () => {
    const result = await runAudit(scanOf(auditRows()));
    const moved = (result.findings.get('broken-link-external') ?? [])[1];
    assert.equal(moved?.detail, `410, reached by redirect from ${OTHER}/moved`);
    assert.deepEqual(moved?.related, [at('/a')]);
  });

  it('does not call a link to another site blocked by its robots.txt broken, nor one that answered 200', async () => {
    const urls = await urlsOf(auditRows(), 'broken-link-external');
    assert.ok(!urls.includes(`${OTHER}/private`));
    assert.ok(!urls.includes(`${OTHER}/ok`));
  });

  it('counts the links to other sites their robots.txt kept from being checked as not judged, neither broken nor fine (issue 26, item 3)', async () => {
    const result = await runAudit(scanOf(auditRows()));
    assert.equal(result.notJudged.get('broken-link-external'), 1, `${OTHER}/private`);
    assert.equal(
      (await runAudit(scanOf([linking('/', [`${OTHER}/ok`]), external(`${OTHER}/ok`, { status: 200 })]))).notJudged.has(
        'broken-link-external',
      ),
      false,
    );
  });

  it('counts a network failure as broken, with its code', async () => {
    const result = await runAudit(
      scanOf([
        linking('/', ['/t']),
        other('/t', { status: null, error: { code: 'timeout', message: 'no answer in 30 s' } }),
      ]),
    );
    assert.equal(result.findings.get('broken-link-internal')?.[0]?.detail, 'failed (timeout)');
  });

  it('counts a link to a host that does not resolve or refuses connections as broken, saying which', async () => {
    const dead = 'http://dead.invalid';
    const rows = [
      linking('/', [`${dead}/x`, 'http://127.0.0.1:9/y']),
      external(`${dead}/x`, { status: null, error: { code: 'dns', message: 'the host name does not resolve' } }),
      external('http://127.0.0.1:9/y', {
        status: null,
        error: { code: 'refused', message: 'the connection was refused' },
      }),
    ];
    const result = await runAudit(scanOf(rows));
    const details = (result.findings.get('broken-link-external') ?? []).map((f) => [f.url, f.detail]);
    assert.deepEqual(details, [
      [`${dead}/x`, 'failed (DNS failure)'],
      ['http://127.0.0.1:9/y', 'failed (connection refused)'],
    ]);
  });

  it('lists a broken resource once with the rows using it; a broken resource a page also links to is a broken link too', async () => {
    const rows = [
      linking('/', ['/x.png'], { resources: [at('/x.png')] }),
      page('/b', { resources: [at('/x.png')] }),
      other('/x.png', { kind: 'resource', status: 404 }),
    ];
    const result = await runAudit(scanOf(rows));
    assert.deepEqual(result.findings.get('broken-resource')?.[0]?.related, [at('/'), at('/b')]);
    assert.deepEqual(await urlsOf(rows, 'broken-link-internal'), [at('/x.png')]);
  });

  it('does not list a broken page that is used by no row as a broken resource', async () => {
    assert.deepEqual(await urlsOf([linking('/', ['/gone']), other('/gone', { status: 404 })], 'broken-resource'), []);
  });

  it('flags a chain of two hops and not a single redirect', async () => {
    const rows = [
      linking('/', ['/one', '/two']),
      redirect('/one', '/end'),
      redirect('/two', '/mid'),
      redirect('/mid', '/end'),
      page('/end'),
    ];
    const result = await runAudit(scanOf(rows));
    assert.deepEqual(
      result.findings.get('redirect-chain')?.map(({ url, detail }) => [url, detail]),
      [[at('/two'), `2 hops to ${at('/end')}`]],
    );
  });

  it('honours the chain threshold', async () => {
    const rows = [linking('/', ['/one']), redirect('/one', '/end'), page('/end')];
    const result = await runChecks(scanOf(rows), COLLECTORS, { ...DEFAULT_THRESHOLDS, redirectChainHops: 1 });
    assert.deepEqual(
      result.findings.get('redirect-chain')?.map((finding) => finding.url),
      [at('/one')],
    );
  });

  it('flags a loop once, on its way in, and not as a chain; a loop with no way in on its first hop', async () => {
    const rows = [
      linking('/', ['/in']),
      redirect('/in', '/l1'),
      redirect('/l1', '/l2'),
      redirect('/l2', '/l1'),
      redirect('/self', '/self'),
      redirect('/x', '/y'),
      redirect('/y', '/x'),
    ];
    const result = await runAudit(scanOf(rows));
    assert.deepEqual(
      result.findings.get('redirect-loop')?.map((finding) => finding.url),
      [at('/in'), at('/self'), at('/x')],
    );
    assert.equal(result.findings.get('redirect-loop')?.[0]?.detail, `3 hops, then back to ${at('/l1')}`);
    assert.deepEqual(result.findings.get('redirect-chain'), []);
  });

  it('flags only linked redirects as links to redirects, not the middle of a chain', async () => {
    const urls = await urlsOf(auditRows(), 'link-to-redirect');
    assert.ok(!urls.includes(at('/chain2')));
  });

  it('flags a blocked page only when a page links to it; a blocked resource is a broken resource', async () => {
    const rows = [
      linking('/', ['/p/1']),
      other('/p/1', { blockedBy: 'robots', status: null, methods: [] }),
      other('/p/2', { blockedBy: 'robots', status: null, methods: [], referrer: at('/sitemap.xml') }),
    ];
    assert.deepEqual(await urlsOf(rows, 'link-to-blocked'), [at('/p/1')]);
  });
});

describe('missing anchors', () => {
  it('puts the issue on the linking page, with every missing link, whichever comes first', async () => {
    const result = await runAudit(scanOf(auditRows()));
    const [a, c] = result.findings.get('missing-anchor') ?? [];
    assert.deepEqual(a?.related, [at('/a#self-missing'), at('/b#nope')]);
    assert.deepEqual(c?.related, [at('/b#gone2')]);
  });

  it('finds a missing anchor of a page read after the linking page and of one read before', async () => {
    const target = page('/t', { facts: cleanFacts('/t', { anchorIds: ['ok'] }) });
    const linker = page('/l', {
      facts: cleanFacts('/l', {
        fragmentLinks: [
          { url: at('/t'), fragment: 'ko' },
          { url: at('/t'), fragment: 'ok' },
        ],
      }),
    });
    assert.deepEqual(await urlsOf([linker, target], 'missing-anchor'), [at('/l')]);
    assert.deepEqual(await urlsOf([target, linker], 'missing-anchor'), [at('/l')]);
  });

  it('lets #top and an empty fragment land, is case-sensitive, and says nothing of a target that is not a crawled HTML page', async () => {
    const rows = [
      page('/t', { facts: cleanFacts('/t', { anchorIds: ['Intro'] }) }),
      page('/l', {
        facts: cleanFacts('/l', {
          fragmentLinks: [
            { url: at('/t'), fragment: 'top' },
            { url: at('/t'), fragment: '' },
            { url: at('/t'), fragment: 'intro' },
            { url: at('/pdf'), fragment: 'page=2' },
            { url: at('/nowhere'), fragment: 'x' },
          ],
        }),
      }),
      other('/pdf', { kind: 'file', contentType: 'application/pdf' }),
    ];
    const result = await runAudit(scanOf(rows));
    assert.deepEqual(
      result.findings.get('missing-anchor')?.map((f) => f.related),
      [[at('/t#intro')]],
    );
  });
});

describe('titles, descriptions and headings', () => {
  it('measures titles in characters with white space collapsed, at the thresholds', async () => {
    const rows = [
      page('/60', { title: 'é'.repeat(60) }),
      page('/61', { title: ` ${'x'.repeat(30)}  ${'x'.repeat(30)} ` }),
      page('/30', { title: 'y'.repeat(30) }),
      page('/29', { title: 'z'.repeat(29) }),
    ];
    assert.deepEqual(await urlsOf(rows, 'title-too-long'), [at('/61')]);
    assert.deepEqual(await urlsOf(rows, 'title-too-short'), [at('/29')]);
  });

  it('judges only HTML pages that answered 2xx', async () => {
    const rows = [
      other('/404', { status: 404, contentType: 'text/html', title: null }),
      other('/img', { kind: 'resource', contentType: 'image/png', title: null }),
      page('/ok'),
    ];
    assert.deepEqual(await urlsOf(rows, 'title-missing'), []);
  });

  it('names the other pages sharing a title', async () => {
    const title = 'One title shared by three pages here';
    const result = await runAudit(
      scanOf([page('/1', { title }), page('/2', { title: `${title} ` }), page('/3', { title: `  ${title}` })]),
    );
    const findings = result.findings.get('title-duplicate') ?? [];
    assert.equal(findings.length, 3);
    assert.deepEqual(findings[1]?.related, [at('/1'), at('/3')]);
    assert.equal(findings[1]?.relatedCount, 2);
    assert.match(findings[0]?.detail ?? '', /on 3 pages$/);
  });

  it('does not judge descriptions and headings of rows stored before facts were recorded', async () => {
    const rows = [page('/old', { facts: undefined }), page('/older', { facts: null })];
    const result = await runAudit(scanOf(rows));
    for (const check of ['description-missing', 'h1-missing', 'h1-multiple', 'mixed-content'] as const)
      assert.deepEqual(result.findings.get(check), [], check);
  });

  it('calls an empty description missing, and two empty descriptions not duplicates', async () => {
    const rows = [
      page('/1', { facts: cleanFacts('/1', { description: '' }) }),
      page('/2', { facts: cleanFacts('/2', { description: ' ' }) }),
    ];
    const result = await runAudit(scanOf(rows));
    assert.deepEqual(
      result.findings.get('description-missing')?.map((f) => f.detail),
      ['empty meta description', 'empty meta description'],
    );
    assert.deepEqual(result.findings.get('description-duplicate'), []);
  });
});

describe('indexing', () => {
  it('flags a noindex page linked from another page, not one linked only from itself', async () => {
    const rows = [
      linking('/', ['/n']),
      page('/n', { facts: cleanFacts('/n', { robots: ['noindex'] }) }),
      page('/m', { links: [at('/m')], facts: cleanFacts('/m', { robots: ['none'] }) }),
    ];
    const result = await runAudit(scanOf(rows));
    assert.deepEqual(
      result.findings.get('noindex-linked')?.map((f) => [f.url, f.related]),
      [[at('/n'), [at('/')]]],
    );
  });

  it('judges a canonical by its target’s row: 404, blocked, another site; a 200 target is fine', async () => {
    const canon = (path: string, target: string): PageRecord =>
      page(path, { facts: cleanFacts(path, { canonical: target }) });
    const rows = [
      canon('/1', at('/gone')),
      canon('/2', at('/blocked')),
      canon('/3', `${OTHER}/x`),
      canon('/4', at('/fine')),
      canon('/5', at('/not-crawled')),
      canon('/6', at('/6')),
      other('/gone', { status: 404 }),
      other('/blocked', { status: null, blockedBy: 'robots' }),
      page('/fine'),
    ];
    const result = await runAudit(scanOf(rows));
    assert.deepEqual(
      result.findings.get('canonical-to-non-200')?.map((f) => f.detail),
      [
        `canonical ${at('/gone')}: 404`,
        `canonical ${at('/blocked')}: blocked by robots.txt`,
        `canonical ${OTHER}/x: on another site, not crawled`,
      ],
    );
    assert.deepEqual(
      result.findings.get('canonical-elsewhere')?.map((f) => f.url),
      ['/1', '/2', '/3', '/4', '/5'].map(at),
    );
  });

  it('counts a canonical to a URL of the site the crawl never fetched as not judged, neither an issue nor a pass (issue 26, item 4)', async () => {
    const canon = (path: string, target: string): PageRecord =>
      page(path, { facts: cleanFacts(path, { canonical: target }) });
    const rows = [
      canon('/1', at('/never-fetched')),
      canon('/2', at('/never-fetched')),
      canon('/3', at('/fine')),
      canon('/4', `${OTHER}/x`),
      page('/fine'),
    ];
    const result = await runAudit(scanOf(rows));
    assert.deepEqual(
      result.findings.get('canonical-to-non-200')?.map((f) => f.url),
      [at('/4')],
    );
    assert.equal(result.notJudged.get('canonical-to-non-200'), 2);
    assert.equal(
      (await runAudit(scanOf([canon('/3', at('/fine')), page('/fine')]))).notJudged.has('canonical-to-non-200'),
      false,
      'every canonical judged',
    );
  });

  it('says why a URL a sitemap lists is not indexable, in the words of the exports’ indexability column', async () => {
    const listed = ['/ok', '/moved', '/gone', '/timeout', '/blocked', '/noindex', '/canon', '/file.pdf', '/style.css'];
    const rows = [
      linking('/', listed),
      other('/sitemap.xml', { kind: 'sitemap', contentType: 'application/xml', links: listed.map(at) }),
      page('/ok'),
      redirect('/moved', '/ok', 301),
      other('/gone', { status: 404 }),
      other('/timeout', { status: null, error: { code: 'timeout', message: 'no answer in 30 s' } }),
      other('/blocked', { status: null, blockedBy: 'robots' }),
      page('/noindex', { facts: cleanFacts('/noindex', { robots: ['noindex'] }) }),
      page('/canon', { facts: cleanFacts('/canon', { canonical: at('/ok') }) }),
      other('/file.pdf', { kind: 'file', contentType: 'application/pdf' }),
      other('/style.css', { kind: 'resource', status: 404, contentType: 'text/css' }),
    ];
    const result = await runAudit(scanOf(rows));
    assert.deepEqual(
      result.findings.get('sitemap-non-indexable')?.map((f) => [f.url, f.detail]),
      [
        [at('/moved'), 'listed in a sitemap: redirected (301)'],
        [at('/gone'), 'listed in a sitemap: not-200 (404)'],
        [at('/timeout'), 'listed in a sitemap: not-200 (timeout)'],
        [at('/blocked'), 'listed in a sitemap: blocked'],
        [at('/noindex'), 'listed in a sitemap: noindex'],
        [at('/canon'), 'listed in a sitemap: canonicalised'],
      ],
    );
  });

  it('does not call the start URL an orphan, nor a listed URL without a row', async () => {
    const rows = [
      page('/', { referrer: null, depth: 0, inlinks: 0 }),
      other('/sitemap.xml', { kind: 'sitemap', links: [at('/'), at('/never')] }),
    ];
    assert.deepEqual(await urlsOf(rows, 'sitemap-orphan'), []);
  });
});

describe('performance and page content', () => {
  it('flags answers over the response-time threshold, not at it, and leaves resources and other sites out', async () => {
    const rows = [
      page('/1000', { responseTimeMs: 1000 }),
      page('/1001', { responseTimeMs: 1001 }),
      other('/r', { kind: 'resource', responseTimeMs: 5000 }),
      other(`${OTHER}/e`, { kind: 'external' as PageRecord['kind'], responseTimeMs: 5000 }),
    ];
    assert.deepEqual(await urlsOf(rows, 'slow-response'), [at('/1001')]);
  });

  it('flags HTML pages over the size and depth thresholds only', async () => {
    const rows = [
      page('/d3', { depth: 3 }),
      page('/d5', { depth: 5 }),
      other('/deep.pdf', { kind: 'file', depth: 9, contentLength: 9e9 }),
      page('/1m', { contentLength: 1024 * 1024 }),
    ];
    assert.deepEqual(await urlsOf(rows, 'deep-page'), [at('/d5')]);
    assert.deepEqual(await urlsOf(rows, 'large-page'), []);
  });

  it('flags every page of a duplicate group, the original included, and not identical error pages', async () => {
    const body = { sha256: 'e'.repeat(64) };
    const rows = [
      page('/o', body),
      page('/c1', { ...body, duplicateOf: at('/o') }),
      page('/c2', { ...body, duplicateOf: at('/o') }),
      other('/e1', { status: 404, sha256: 'f'.repeat(64) }),
      other('/e2', { status: 404, sha256: 'f'.repeat(64), duplicateOf: at('/e1') }),
      other('/img2', { kind: 'resource', sha256: 'a'.repeat(64), duplicateOf: at('/img1') }),
    ];
    const result = await runAudit(scanOf(rows));
    assert.deepEqual(
      result.findings.get('duplicate-content')?.map((f) => [f.url, f.relatedCount]),
      [
        [at('/o'), 2],
        [at('/c1'), 2],
        [at('/c2'), 2],
      ],
    );
  });

  it('leaves out of the duplicate checks a page whose canonical names another page of its group (issue 26, item 4)', async () => {
    const body = { sha256: 'd'.repeat(64) };
    const shared = {
      title: 'One title for the original and its print view',
      facts: cleanFacts('/same', { description: 'One description.', canonical: at('/original') }),
    };
    const rows = [
      page('/original', { ...body, ...shared }),
      page('/print', { ...body, ...shared, duplicateOf: at('/original') }),
      // Three pages with one title: the one naming another of them is left out, the two others are duplicates.
      page('/t1', { title: 'A title three pages share, one canonicalised' }),
      page('/t2', {
        title: 'A title three pages share, one canonicalised',
        facts: cleanFacts('/t2', { canonical: at('/t1') }),
      }),
      page('/t3', { title: 'A title three pages share, one canonicalised' }),
      // A canonical to a page outside the group does not take a page out of it.
      page('/u1', { title: 'A title two pages share, neither canonicalised' }),
      page('/u2', {
        title: 'A title two pages share, neither canonicalised',
        facts: cleanFacts('/u2', { canonical: at('/elsewhere') }),
      }),
    ];
    const result = await runAudit(scanOf(rows));
    const urls = (check: CheckId): string[] => (result.findings.get(check) ?? []).map((f) => f.url);
    assert.deepEqual(urls('duplicate-content'), []);
    assert.deepEqual(urls('description-duplicate'), []);
    assert.deepEqual(urls('title-duplicate'), ['/t1', '/t3', '/u1', '/u2'].map(at));
    assert.deepEqual(result.findings.get('title-duplicate')?.[0]?.related, [at('/t3')]);
    assert.match(result.findings.get('title-duplicate')?.[0]?.detail ?? '', /on 2 pages$/);
  });

  it('keeps at most RELATED_MAX related URLs and counts them all', async () => {
    const many = Array.from({ length: RELATED_MAX + 20 }, (_, i) => linking(`/p${i}`, ['/gone']));
    const result = await runAudit(scanOf([...many, other('/gone', { status: 404 })]));
    const [gone] = result.findings.get('broken-link-internal') ?? [];
    assert.equal(gone?.related.length, RELATED_MAX);
    assert.equal(gone?.relatedCount, RELATED_MAX + 20);
  });
});

describe('a large crawl', () => {
  it('audits 100,000 rows read one at a time, in three scans', async () => {
    const rows = function* (): Generator<PageRecord> {
      for (let i = 1; i <= 100_000; i += 1) {
        const isBroken = i % 1000 === 0;
        yield isBroken
          ? other(`/p${i}`, { seq: i, status: 404 })
          : page(`/p${i}`, {
              seq: i,
              links: [at(`/p${i + 1}`), at('/')],
              linkTexts: ['', ''],
              facts: cleanFacts(`/p${i}`, { fragmentLinks: [{ url: at(`/p${i + 1}`), fragment: 'x' }] }),
            });
      }
    };
    let scans = 0;
    const scan: RowScan = async function* () {
      scans += 1;
      yield* rows();
    };
    const result = await runAudit(scan);
    assert.equal(scans, 3);
    assert.equal(result.findings.get('broken-link-internal')?.length, 100);
    // Each page before a broken one links to an anchor it does not have: 99,900 pages ask for `#x` of the next.
    assert.equal(result.findings.get('missing-anchor')?.length, 100_000 - 100 - 100);
  });
});

/**
 * The audit, as an auditor uses it: a site with every issue planted a known
 * number of times (`test/support/audit-site.ts`) and three other sites it
 * links to is crawled by the built extension with the defaults (links to
 * other sites checked); the results page's Issues view must show exactly the
 * planted counts, as must the background's `crawl/issues` answer; the
 * servers' logs show robots.txt first and once on every host, nothing
 * disallowed, no gap under the delay, each URL once per method; linkinator,
 * run on the same site, finds no broken link Tabcrawl misses but those
 * robots.txt kept it from asking for.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { after, before, describe, it } from 'node:test';
import type { ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import type { RequestLogEntry } from '../../src/shells/cli/local-site.ts';
import type { JsonlRow } from '../../src/export/jsonl.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import { RESULTS_PAGE_PATH } from '../../src/messaging/routes.ts';
import { exportThroughPage } from '../../src/shells/cli/export-through-page.ts';
import { CHECKS } from '../../src/audit/checks.ts';
import {
  AUDIT_CHROMIUM_ARGS,
  HEADLESS_CRAWL_DELAY_S,
  PLANTED,
  startAuditSites,
  type AuditSites,
} from '../support/audit-site.ts';
import { compareWithLinkinator } from '../support/linkinator-compare.ts';
import { requestCounts, serverGaps } from '../support/server-log.ts';
import { crawlToEnd, exportRows, launch } from './helpers.ts';
import { screenshot } from './screenshots.ts';

const DELAY_MS = 100;

describe('an audit finds every planted issue, politely', () => {
  let sites: AuditSites;
  let session: ExtensionSession;
  let crawl: CrawlSummary;
  let rows: JsonlRow[];
  const logs = new Map<string, RequestLogEntry[]>();

  before(async () => {
    sites = await startAuditSites();
    session = await launch([...AUDIT_CHROMIUM_ARGS]);
    crawl = await crawlToEnd(session, { startUrl: `${sites.site.origin}/`, delayMs: DELAY_MS, timeoutMs: 10_000 });
    for (const server of [...sites.all, sites.robotsDown]) logs.set(server.origin, [...server.requests]);
    rows = await exportRows(session, crawl.id);
  });

  after(async () => {
    await session?.close();
    await sites?.close();
  });

  it('lists every check in the Issues view with exactly the planted count', async () => {
    assert.equal(crawl.state, 'finished', crawl.message ?? '');
    const page = await session.openPage(`${RESULTS_PAGE_PATH}?crawl=${crawl.id}`);
    await page.getByTestId('tab-issues').click();
    await page.locator('[data-testid="issues"]:not([data-state="building"])').waitFor();
    const state = await page.getByTestId('issues').getAttribute('data-state');
    assert.equal(state, 'ready', await page.getByTestId('issues').innerText());
    const shown: Record<string, number> = {};
    for (const check of await page.getByTestId('issue-check').all()) {
      shown[(await check.getAttribute('data-check')) ?? '?'] = Number(await check.getAttribute('data-count'));
    }
    assert.deepEqual(
      Object.keys(PLANTED).sort(),
      CHECKS.map((c) => c.id).sort(),
      'the site plants (or says why not) every check',
    );
    const shownAll = Object.fromEntries(CHECKS.map((c) => [c.id, shown[c.id] ?? 0]));
    assert.deepEqual(shownAll, { ...PLANTED });
    await page.locator('[data-check="broken-link-external"] [data-testid="issue-toggle"]').click();
    await screenshot(page, 'results-issues', { isReadmeImage: true });
    await page.close();
  });

  it('answers crawl/issues with the same counts, by severity too', async () => {
    const { checks, bySeverity } = await session.request('crawl/issues', { crawlId: crawl.id });
    const counts = Object.fromEntries(checks.map((c) => [c.check, c.count]));
    for (const [id, count] of Object.entries(PLANTED)) assert.equal(counts[id] ?? 0, count, id);
    const severityOf = new Map(CHECKS.map((c) => [c.id, c.severity]));
    const expected = { error: 0, warning: 0, notice: 0 };
    for (const [id, count] of Object.entries(PLANTED))
      expected[severityOf.get(id as (typeof CHECKS)[number]['id']) ?? 'notice'] += count;
    assert.deepEqual(bySeverity, expected);
  });

  it('puts the ids on the rows that have the problem', () => {
    const issuesOf = (path: string): string[] =>
      rows.find((r) => r.url === `${sites.site.origin}${path}`)?.issues ?? [];
    assert.ok(issuesOf('/missing').includes('broken-link-internal'));
    assert.ok(issuesOf('/anchors').includes('missing-anchor'));
    assert.ok(issuesOf('/chain1').includes('redirect-chain'));
    assert.deepEqual(issuesOf('/about'), [], 'a good page has none');
    assert.ok(rows.find((r) => r.url === `${sites.moving.origin}/end`)?.issues.includes('broken-link-external'));
  });

  it('follows a page linked only by <link rel="search">, and not an OpenSearch description (issue 26, item 7)', () => {
    const search = rows.find((r) => r.url === `${sites.site.origin}/search-page`);
    assert.equal(search?.status, 200, 'the search page is crawled');
    assert.equal(search?.referrer, `${sites.site.origin}/with-search-link`);
    assert.equal(
      logs.get(sites.site.origin)?.some((r) => r.url === '/opensearch.xml'),
      false,
      'an OpenSearch description is not a page',
    );
  });

  it('fetches a canonical target no link leads to, and judges it (issue 26, item 4)', () => {
    const gone = rows.find((r) => r.url === `${sites.site.origin}/canon-gone`);
    assert.equal(gone?.status, 404);
    assert.ok(rows.find((r) => r.url === `${sites.site.origin}/canon-to-404`)?.issues.includes('canonical-to-non-200'));
    const print = rows.find((r) => r.url === `${sites.site.origin}/canon-print`)?.issues ?? [];
    for (const id of ['duplicate-content', 'title-duplicate', 'description-duplicate'] as const)
      assert.ok(!print.includes(id), `${id} on a copy whose canonical names its original`);
  });

  it('counts the link robots.txt kept from being checked beside Broken links to other sites, and lists it in Not crawled with why (issue 26, item 3)', async () => {
    const page = await session.openPage(`${RESULTS_PAGE_PATH}?crawl=${crawl.id}`);
    await page.getByTestId('tab-issues').click();
    const external = page.locator('[data-check="broken-link-external"]');
    await external.getByTestId('issue-not-judged').waitFor();
    assert.ok(Number(await external.getAttribute('data-not-judged')) >= 1, await external.innerText());
    assert.match(await external.getByTestId('issue-not-judged-why').innerText(), /kept out by their robots\.txt/);
    await page.getByTestId('tab-not-crawled').click();
    const row = page.locator(`[data-testid="not-crawled-row"][data-url="${sites.guarded.origin}/private/report"]`);
    await row.waitFor({ timeout: 10_000 });
    assert.match(await row.innerText(), /on other sites whose robots\.txt refused the check/);
    await page.close();
  });

  it('asks every host for robots.txt first and once, each URL once per method, nothing disallowed, no gap under the delay or the Crawl-delay', () => {
    for (const [origin, log] of logs) {
      if (origin === sites.robotsDown.origin) continue; // its robots.txt is retried: see the next test
      assert.equal(log[0]?.url, '/robots.txt', `${origin}: robots.txt first`);
      assert.equal(log.filter((r) => r.url === '/robots.txt').length, 1, `${origin}: robots.txt once`);
      for (const [request, count] of requestCounts(log.map((r) => ({ ...r, url: `${r.method} ${r.url}` }))))
        assert.equal(count, 1, `${origin}: ${request} ×${count}`);
      // A GET after a refused HEAD of the same URL waits for the host's gap like any request (politeness.md).
      const least = origin === sites.headless.origin ? HEADLESS_CRAWL_DELAY_S * 1000 : DELAY_MS;
      for (const [i, gap] of serverGaps(log).entries())
        assert.ok(
          gap >= least,
          `${origin}: ${log[i + 1]?.method} ${log[i + 1]?.url} after a gap of ${gap.toFixed(1)} ms, under ${least} ms`,
        );
    }
    assert.equal(
      logs.get(sites.site.origin)?.some((r) => r.url.startsWith('/blocked/')),
      false,
    );
    assert.equal(
      logs.get(sites.guarded.origin)?.some((r) => r.url.startsWith('/private/')),
      false,
    );
  });

  // Issue 26, item 2.
  it('reports links to a host that does not resolve or refuses connections as broken, with the reason', async () => {
    const rowOf = (url: string): JsonlRow | undefined => rows.find((r) => r.url === url);
    for (const [url, code] of [
      [`${sites.unresolvedOrigin}/gone`, 'dns'],
      [`${sites.refusingOrigin}/closed`, 'refused'],
    ] as const) {
      assert.equal(rowOf(url)?.blockedBy, null, `${url}: not a polite refusal`);
      assert.equal(rowOf(url)?.errorCode, code, url);
      assert.ok(rowOf(url)?.issues.includes('broken-link-external'), url);
    }
    const page = await session.openPage(`${RESULTS_PAGE_PATH}?crawl=${crawl.id}`);
    await page.getByTestId('tab-issues').click();
    await page.locator('[data-testid="issues"][data-state="ready"]').waitFor();
    const check = page.locator('[data-check="broken-link-external"]');
    await check.getByTestId('issue-toggle').click();
    const details = await check.locator('[data-testid="issue-url-row"] td:nth-child(2)').allInnerTexts();
    await page.close();
    for (const reason of ['failed (DNS failure)', 'failed (connection refused)'])
      assert.ok(details.includes(reason), `${reason} in ${details.join(', ')}`);
  });

  // Issue 26, item 2: RFC 9309 §2.3.1.4.
  it('leaves the links to a host whose robots.txt answers 503 unchecked, not broken, saying why, and asks that host for nothing else', () => {
    const link = rows.find((r) => r.url === `${sites.robotsDown.origin}/page`);
    assert.equal(link?.blockedBy, 'robots');
    assert.equal(link?.errorCode, null);
    assert.match(link?.blockedRule ?? '', /robots\.txt unavailable \(HTTP 503\)/);
    assert.equal(link?.issues.includes('broken-link-external'), false);
    const log = logs.get(sites.robotsDown.origin) ?? [];
    assert.deepEqual(
      log.map((r) => r.url),
      ['/robots.txt', '/robots.txt', '/robots.txt'],
      'robots.txt, retried twice; nothing else',
    );
    for (const gap of serverGaps(log)) assert.ok(gap >= 5000, `robots.txt retried after ${gap.toFixed(0)} ms`);
  });

  it('finds every broken link linkinator finds, but those robots.txt kept it from asking for', async () => {
    const compared = await compareWithLinkinator(`${sites.site.origin}/`, rows);
    const unexplained = [...compared.onlyLinkinator].filter(([, why]) => why === null).map(([url]) => url);
    assert.deepEqual(
      unexplained,
      [],
      `linkinator alone: ${[...compared.onlyLinkinator].map(([u, why]) => `${u} (${why ?? '?'})`).join(', ')}`,
    );
    console.log(
      `# linkinator found ${compared.linkinator.size} broken, Tabcrawl ${compared.tabcrawl.size}; linkinator alone: ${[...compared.onlyLinkinator].map(([u, why]) => `${u}: ${why ?? '?'}`).join('; ') || 'none'}; Tabcrawl alone: ${compared.onlyTabcrawl.join(', ') || 'none'}`,
    );
  });

  it("exports every link as a row with its anchor and the target's status, read back by a CSV parser (issue 30)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-links-'));
    try {
      const file = join(dir, 'audit.links.csv');
      await exportThroughPage(session, crawl.id, 'links.csv', file);
      const text = readFileSync(file, 'utf8');
      const lines = parse(text.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
      const byUrl = new Map(rows.map((row) => [row.url, row]));
      // One line per link a row holds: each row's links, once each, in order, with a link element (or a sitemap).
      for (const row of rows) {
        const own = lines.filter(
          (l) => l['source'] === row.url && /^(a|area|link|iframe|frame|sitemap)$/.test(l['found_in'] ?? ''),
        );
        assert.deepEqual(
          own.map((l) => l['target']),
          row.links,
          row.url,
        );
      }
      // What each target answered is its row's status; a line whose target has no row says so.
      for (const line of lines) {
        const target = byUrl.get(line['target'] ?? '');
        if (target === undefined) continue;
        assert.equal(line['target_status'], target.status === null ? '' : String(target.status), line['target']);
        assert.equal(line['target_kind'], target.kind, line['target']);
      }
      const origin = sites.site.origin;
      const line = (source: string, target: string): Record<string, string> | undefined =>
        lines.find((l) => l['source'] === source && l['target'] === target);
      assert.deepEqual(
        [line(`${origin}/about`, `${origin}/`)?.['anchor'], line(`${origin}/about`, `${origin}/`)?.['found_in']],
        ['Home', 'a'],
      );
      assert.equal(line(`${origin}/d1`, `${origin}/d2`)?.['anchor'], 'deeper');
      const dead = lines.find((l) => l['source'] === `${origin}/unreachable` && l['anchor'] === 'dead');
      assert.deepEqual([dead?.['followed'], dead?.['target_kind'], dead?.['target_note']], ['no', 'external', 'dns']);
      assert.equal(line(`${origin}/old`, `${origin}/about`)?.['found_in'], 'redirect');
      assert.equal(line(`${origin}/`, `${origin}/img/missing.png`)?.['target_status'], '404');
      const blocked = lines.find((l) => l['target']?.includes('/blocked/') === true && l['followed'] === 'no');
      assert.match(blocked?.['target_note'] ?? '', /^blocked by robots\.txt/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

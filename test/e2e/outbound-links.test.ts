/**
 * Links to other sites, checked by the built extension against three other
 * local hosts: one whose robots.txt disallows some of the linked URLs, one
 * that refuses HEAD with 405 (and asks for a Crawl-delay), one with a
 * redirect chain ending in 404. The servers' logs judge politeness
 * (robots.txt first and once on every host, nothing disallowed, no gap under
 * the delay or the Crawl-delay, a GET after a refused HEAD included, each URL
 * asked for once per method), the rows what was found; and linkinator, run on the same site
 * afterwards, must find no broken link that Tabcrawl misses, but the ones
 * Tabcrawl was not allowed to ask for.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startLocalSite, type LocalSite, type RequestLogEntry } from '../../src/shells/cli/local-site.ts';
import type { JsonlRow } from '../../src/export/jsonl.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import { compareWithLinkinator } from '../support/linkinator-compare.ts';
import { requestCounts, serverGaps } from '../support/server-log.ts';
import { crawlToEnd, exportRows, launch } from './helpers.ts';

const DELAY_MS = 150;
/** The Crawl-delay of the host that refuses HEAD, in seconds: its GETs wait for it too. */
const HEADLESS_CRAWL_DELAY_S = 1;
const html = (body: string): { headers: Record<string, string>; body: string } => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><meta charset="utf-8"><title>${body.slice(0, 30)}</title></head><body>${body}</body></html>`,
});
const text = (body: string) => ({ headers: { 'content-type': 'text/plain' }, body });

/** Answers 405 to HEAD and the page to GET, as some servers do. */
function refusesHead(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'HEAD') {
    res.writeHead(405, { allow: 'GET' }).end();
    return;
  }
  const body = '<!doctype html><title>fine</title><p>only GET here</p>';
  res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(Buffer.byteLength(body)) }).end(body);
}

describe('links to other sites are checked politely', () => {
  let site: LocalSite;
  let guarded: LocalSite;
  let headless: LocalSite;
  let moving: LocalSite;
  let crawl: CrawlSummary;
  let rows: JsonlRow[];
  /** Each server's log at the end of the crawl, before linkinator asked them too. */
  const logs = new Map<string, RequestLogEntry[]>();
  const row = (url: string): JsonlRow | undefined => rows.find((r) => r.url === url);

  before(async () => {
    guarded = await startLocalSite({
      '/robots.txt': text('User-agent: *\nDisallow: /private/\n'),
      '/docs': html('docs'),
      '/private/report': { status: 404, ...text('would be a 404, if anyone asked') },
    });
    headless = await startLocalSite([
      ['/robots.txt', text(`User-agent: *\nCrawl-delay: ${HEADLESS_CRAWL_DELAY_S}\n`)],
      ['/fine', refusesHead],
      ['/gone', { status: 404, ...text('gone') }],
    ]);
    moving = await startLocalSite({
      '/robots.txt': text('User-agent: *\nAllow: /\n'),
      '/start': { status: 301, headers: { location: '/middle' } },
      '/middle': { status: 302, headers: { location: '/end' } },
    });
    const g = guarded.origin;
    const h = headless.origin;
    const m = moving.origin;
    site = await startLocalSite({
      '/robots.txt': text('User-agent: *\nAllow: /\n'),
      '/': html(
        `<a href="/about">About</a> <a href="/missing">Missing</a> <a href="${g}/docs">Docs</a> <a href="${g}/private/report">Report</a>` +
          ` <a href="${h}/fine">Fine</a> <a href="${h}/gone">Gone</a> <a href="${m}/start">Moved</a> <a href="mailto:team@example.com">Mail</a>`,
      ),
      '/about': html(
        `<a href="/">Home</a> <a rel="nofollow" href="${g}/docs">Docs again</a> <a href="${h}/gone">Gone again</a>`,
      ),
    });
    const session = await launch();
    try {
      crawl = await crawlToEnd(session, {
        startUrl: `${site.origin}/`,
        delayMs: DELAY_MS,
        timeoutMs: 5000,
        extraOrigins: [],
      });
      for (const server of [site, guarded, headless, moving]) logs.set(server.origin, [...server.requests]);
      rows = await exportRows(session, crawl.id);
    } finally {
      await session.close();
    }
  });

  after(async () => {
    await Promise.all([site, guarded, headless, moving].map((server) => server?.close()));
  });

  it('records each link to another site as a checked row, with its status', () => {
    assert.equal(crawl.state, 'finished', crawl.message ?? '');
    assert.equal(row(`${guarded.origin}/docs`)?.kind, 'external');
    assert.equal(row(`${guarded.origin}/docs`)?.status, 200);
    assert.deepEqual(row(`${guarded.origin}/docs`)?.methods, ['HEAD']);
    assert.equal(row(`${guarded.origin}/docs`)?.inlinks, 2, 'a nofollow link is checked too');
    assert.equal(row(`${headless.origin}/gone`)?.status, 404);
    assert.equal(crawl.counts.external, 7, 'docs, report, fine, gone, and the three hops of the moved link');
    assert.equal(
      rows.some((r) => r.url.startsWith('mailto:')),
      false,
      'mailto: is listed, not checked',
    );
  });

  it("never asks for what another site's robots.txt disallows, and says so", () => {
    const report = row(`${guarded.origin}/private/report`);
    assert.equal(report?.blockedBy, 'robots');
    assert.equal(report?.status, null);
    assert.equal(
      logs.get(guarded.origin)?.some((r) => r.url.startsWith('/private/')),
      false,
    );
  });

  it('asks with GET when HEAD is refused, and keeps no body', () => {
    const fine = row(`${headless.origin}/fine`);
    assert.deepEqual(fine?.methods, ['HEAD', 'GET']);
    assert.equal(fine?.status, 200);
    assert.equal(fine?.sha256, null);
  });

  it('follows a redirect chain to its end, hop by hop', () => {
    assert.equal(row(`${moving.origin}/start`)?.status, 301);
    assert.equal(row(`${moving.origin}/start`)?.location, `${moving.origin}/middle`);
    assert.equal(row(`${moving.origin}/middle`)?.status, 302);
    assert.equal(row(`${moving.origin}/end`)?.status, 404, 'the final status is known');
  });

  it('asks every host for robots.txt first and once, each URL once per method, and keeps its gap between any two requests', () => {
    for (const [origin, log] of logs) {
      assert.equal(log[0]?.url, '/robots.txt', `${origin}: robots.txt first`);
      assert.equal(log.filter((r) => r.url === '/robots.txt').length, 1, `${origin}: robots.txt once`);
      const byMethod = requestCounts(log.map((r) => ({ ...r, url: `${r.method} ${r.url}` })));
      for (const [request, count] of byMethod) assert.equal(count, 1, `${origin}: ${request} asked for ${count} times`);
      // A GET after a refused HEAD of the same URL waits for the host's gap like any request (politeness.md).
      const least = origin === headless.origin ? HEADLESS_CRAWL_DELAY_S * 1000 : DELAY_MS;
      for (const [i, gap] of serverGaps(log).entries())
        assert.ok(
          gap >= least,
          `${origin}: ${log[i + 1]?.method} ${log[i + 1]?.url} after a gap of ${gap.toFixed(1)} ms, under ${least} ms`,
        );
      for (const request of log)
        assert.match(request.userAgent ?? '', /tabcrawl/, `${origin}: ${request.url} names Tabcrawl`);
    }
  });

  it('finds every broken link linkinator finds, but those robots.txt kept it from asking for', async () => {
    const compared = await compareWithLinkinator(`${site.origin}/`, rows);
    const unexplained = [...compared.onlyLinkinator].filter(([, why]) => why === null).map(([url]) => url);
    assert.deepEqual(
      unexplained,
      [],
      `linkinator alone: ${[...compared.onlyLinkinator.keys()].join(', ')}; Tabcrawl alone: ${compared.onlyTabcrawl.join(', ')}`,
    );
    assert.match(
      compared.onlyLinkinator.get(`${guarded.origin}/private/report`) ?? '',
      /robots\.txt/,
      'linkinator asks for what robots.txt disallows',
    );
    for (const url of [`${site.origin}/missing`, `${headless.origin}/gone`, `${moving.origin}/end`])
      assert.ok(compared.tabcrawl.has(url), url);
  });
});

import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import { startLocalSite, type LocalSite } from '../../src/shells/cli/local-site.ts';
import type { JsonlRow } from '../../src/export/jsonl.ts';
import { crawlToEnd, exportRows, launch } from './helpers.ts';
import { serverGaps } from '../support/server-log.ts';

/** A page whose links are computed when it is asked for (each site knows the other's origin only once both listen). */
function page(links: () => string[]) {
  return (_req: IncomingMessage, res: ServerResponse): void => {
    const body = `<!doctype html><title>t</title>${links()
      .map((href) => `<a href="${href}">${href}</a>`)
      .join(' ')}`;
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) })
      .end(body);
  };
}

const ROBOTS_HEADERS = { 'content-type': 'text/plain' };

describe('a crawl with an extra site (extraOrigins) crawls two local sites linked to each other', () => {
  let session: ExtensionSession;
  let a: LocalSite;
  let b: LocalSite;
  let rows: JsonlRow[];
  let aOrigin = '';
  let bOrigin = '';
  const DELAY_MS = 150;

  before(async () => {
    a = await startLocalSite({
      '/robots.txt': { headers: ROBOTS_HEADERS, body: 'User-agent: *\nAllow: /\n' },
      '/': page(() => ['/a1', '/a2', `${bOrigin}/`]),
      '/a1': page(() => ['/a2', `${bOrigin}/b1`]),
      '/a2': page(() => ['/', `${bOrigin}/b2`]),
    });
    b = await startLocalSite({
      '/robots.txt': { headers: ROBOTS_HEADERS, body: 'User-agent: *\nDisallow: /private/\n' },
      '/': page(() => ['/b1', '/b2', '/private/x', `${aOrigin}/a1`]),
      '/b1': page(() => [`${aOrigin}/a2`, '/b2']),
      '/b2': page(() => ['/', `${aOrigin}/`]),
    });
    aOrigin = a.origin;
    bOrigin = b.origin;
    session = await launch();
    const crawl = await crawlToEnd(session, { startUrl: `${a.origin}/`, delayMs: DELAY_MS, extraOrigins: [b.origin] });
    assert.equal(crawl.state, 'finished', crawl.message ?? '');
    assert.deepEqual(crawl.settings.extraOrigins, [b.origin]);
    rows = await exportRows(session, crawl.id);
  });

  after(async () => {
    await session?.close();
    await a?.close();
    await b?.close();
  });

  it('records every page of both sites once, and what robots.txt of the extra site blocks', () => {
    const urls = rows.map((row) => row.url).sort();
    assert.deepEqual(
      urls,
      [
        `${a.origin}/`,
        `${a.origin}/a1`,
        `${a.origin}/a2`,
        `${b.origin}/`,
        `${b.origin}/b1`,
        `${b.origin}/b2`,
        `${b.origin}/private/x`,
      ].sort(),
    );
    const blocked = rows.find((row) => row.url === `${b.origin}/private/x`);
    assert.equal(blocked?.blockedBy, 'robots');
    assert.equal(
      b.requests.some((r) => r.url.startsWith('/private/')),
      false,
    );
    for (const row of rows.filter((r) => r.blockedBy === null)) assert.equal(row.status, 200, row.url);
  });

  it("requests each site's robots.txt first, and once", () => {
    for (const site of [a, b]) {
      assert.equal(site.requests[0]?.url, '/robots.txt', site.origin);
      assert.equal(site.requests.filter((r) => r.url === '/robots.txt').length, 1, site.origin);
    }
  });

  it('keeps at least the delay between two requests to each site, each site on its own clock', () => {
    for (const site of [a, b]) {
      const gaps = serverGaps(site.requests);
      assert.ok(gaps.length >= 3, `${site.origin}: ${gaps.length} gaps`);
      for (const gap of gaps)
        assert.ok(gap >= DELAY_MS, `${site.origin}: a gap of ${gap.toFixed(1)} ms is shorter than ${DELAY_MS} ms`);
    }
  });

  it('does not crawl a site that was not named: its linked URLs are only checked, with HEAD', async () => {
    const c = await startLocalSite({ '/robots.txt': { body: '' }, '/': page(() => []) });
    try {
      aOrigin = c.origin; // b's pages now link to c instead of a
      const crawl = await crawlToEnd(session, { startUrl: `${b.origin}/b1`, delayMs: 0, maxPages: 20 });
      assert.equal(crawl.state, 'finished', crawl.message ?? '');
      assert.equal(c.requests[0]?.url, '/robots.txt', 'robots.txt first, as on any host');
      assert.deepEqual(
        c.requests
          .slice(1)
          .map((r) => `${r.method} ${r.url}`)
          .sort(),
        ['HEAD /', 'HEAD /a1', 'HEAD /a2'],
        'each linked URL checked once, no page read',
      );
    } finally {
      aOrigin = a.origin;
      await c.close();
    }
  });
});

describe("a site whose robots.txt redirects to the other crawled site's (as http://example.com's may to https://www.example.com's)", () => {
  let session: ExtensionSession;
  let a: LocalSite;
  let b: LocalSite;
  let rows: JsonlRow[];
  let aOrigin = '';
  let bOrigin = '';
  const DELAY_MS = 300;

  before(async () => {
    // B is the start site and links to A; A's robots.txt redirects to B's, whose rules then apply to A too.
    a = await startLocalSite({
      '/robots.txt': (_req: IncomingMessage, res: ServerResponse) =>
        void res.writeHead(301, { location: `${bOrigin}/robots.txt` }).end(),
      '/': page(() => ['/a1', '/private/a']),
      '/a1': page(() => [`${bOrigin}/b2`]),
    });
    b = await startLocalSite({
      '/robots.txt': { headers: ROBOTS_HEADERS, body: 'User-agent: *\nDisallow: /private/\n' },
      '/': page(() => [`${aOrigin}/`, '/b1', '/b2', '/b3']),
      '/b1': page(() => []),
      '/b2': page(() => []),
      '/b3': page(() => []),
    });
    aOrigin = a.origin;
    bOrigin = b.origin;
    session = await launch();
    const crawl = await crawlToEnd(session, { startUrl: `${b.origin}/`, delayMs: DELAY_MS, extraOrigins: [a.origin] });
    assert.equal(crawl.state, 'finished', crawl.message ?? '');
    rows = await exportRows(session, crawl.id);
  });

  after(async () => {
    await session?.close();
    await a?.close();
    await b?.close();
  });

  it('obeys the rules it redirects to on the first site, and reads each robots.txt once', () => {
    assert.equal(
      a.requests.some((r) => r.url.startsWith('/private/')),
      false,
    );
    assert.equal(rows.find((row) => row.url === `${a.origin}/private/a`)?.blockedBy, 'robots');
    assert.equal(rows.find((row) => row.url === `${a.origin}/a1`)?.status, 200);
    for (const site of [a, b]) {
      assert.equal(site.requests[0]?.url, '/robots.txt', site.origin);
      assert.equal(site.requests.filter((r) => r.url === '/robots.txt').length, 1, site.origin);
    }
  });

  it('never sends two requests to the site redirected to closer than the delay', () => {
    for (const site of [a, b]) {
      const gaps = serverGaps(site.requests);
      assert.ok(gaps.length >= 2, `${site.origin}: ${gaps.length} gaps`);
      for (const gap of gaps)
        assert.ok(gap >= DELAY_MS, `${site.origin}: a gap of ${gap.toFixed(1)} ms is shorter than ${DELAY_MS} ms`);
    }
  });
});

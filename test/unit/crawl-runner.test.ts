import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCrawl, stopCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { CrawlRunner } from '../../src/core/crawl/crawl-runner.ts';
import { crawl, row, settingsFor, world } from '../support/crawl-world.ts';
import { page, type LoggedRequest } from '../support/fake-site.ts';

const A = 'http://a.test';

/** Gaps, in ms, between the end of each request to an origin and the start of the next one. */
function gaps(requests: LoggedRequest[], origin: string): number[] {
  const ofHost = requests.filter((r) => new URL(r.url).origin === origin);
  return ofHost.slice(1).map((r, i) => r.startedAt - (ofHost[i]?.endedAt ?? 0));
}

describe('crawl runner: robots.txt', () => {
  it('fetches robots.txt before any other request to a host, and once', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow:' });
    w.site.route(`${A}/`, page(['/a', '/b']));
    w.site.route(`${A}/a`, page(['/b', '/']));
    w.site.route(`${A}/b`, page(['/a']));
    const { final } = await crawl(w, { startUrl: `${A}/`, delayMs: 100 });
    assert.equal(final?.state, 'finished');
    assert.equal(w.site.requests[0]?.url, `${A}/robots.txt`);
    assert.equal(w.site.requestsFor(`${A}/robots.txt`).length, 1);
    assert.deepEqual(w.site.requests.map((r) => r.url).sort(), [`${A}/`, `${A}/a`, `${A}/b`, `${A}/robots.txt`].sort());
  });

  it('never requests a disallowed URL and records it as blocked with the rule', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, { body: 'User-agent: *\nDisallow: /private/\n' });
    w.site.route(`${A}/`, page(['/private/x', '/ok']));
    w.site.route(`${A}/ok`, page([]));
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(w.site.requestsFor(`${A}/private/x`).length, 0);
    const blocked = row(byUrl, `${A}/private/x`);
    assert.equal(blocked.blockedBy, 'robots');
    assert.equal(blocked.blockedRule, 'Disallow: /private/');
    assert.equal(blocked.status, null);
    assert.equal(final?.counts.blocked, 1);
  });

  it('uses the group of its own product token over the * group', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, { body: 'User-agent: *\nDisallow: /\n\nUser-agent: tabcrawl\nDisallow: /no\n' });
    w.site.route(`${A}/`, page(['/no', '/yes']));
    w.site.route(`${A}/yes`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${A}/`).status, 200);
    assert.equal(row(byUrl, `${A}/yes`).status, 200);
    assert.equal(row(byUrl, `${A}/no`).blockedBy, 'robots');
  });

  it('treats a 404 robots.txt as allow all', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/x']));
    w.site.route(`${A}/x`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${A}/x`).status, 200);
  });

  it('waits and retries a 503 robots.txt, then crawls when it comes back', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, (attempt) =>
      attempt === 0 ? { status: 503 } : { body: 'User-agent: *\nDisallow: /no' },
    );
    w.site.route(`${A}/`, page(['/no']));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    const robots = w.site.requestsFor(`${A}/robots.txt`);
    assert.equal(robots.length, 2);
    const first = robots[0];
    const second = robots[1];
    assert.ok(first && second);
    assert.ok(second.startedAt - first.endedAt >= 5000, 'retried no sooner than the robots retry delay');
    const start = w.site.requestsFor(`${A}/`)[0];
    assert.ok(start && start.startedAt > second.endedAt, 'no page requested while robots.txt was unavailable');
    assert.equal(row(byUrl, `${A}/no`).blockedBy, 'robots');
  });

  it('records every URL of a host as blocked when its robots.txt stays unavailable', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, { status: 500 });
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(w.site.requestsFor(`${A}/`).length, 0);
    assert.equal(w.site.requestsFor(`${A}/robots.txt`).length, 3);
    assert.equal(row(byUrl, `${A}/`).blockedBy, 'robots');
    assert.match(row(byUrl, `${A}/`).blockedRule ?? '', /unavailable/);
    assert.equal(final?.state, 'finished');
  });

  it('follows robots.txt redirects and applies the target rules', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, { status: 301, headers: { location: '/real-robots.txt' } });
    w.site.route(`${A}/real-robots.txt`, { body: 'User-agent: *\nDisallow: /no' });
    w.site.route(`${A}/`, page(['/no']));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${A}/no`).blockedBy, 'robots');
    assert.equal(w.site.requestsFor(`${A}/real-robots.txt`).length, 1);
  });

  it('gives up on robots.txt after five redirects and allows all', async () => {
    const w = world();
    for (let i = 0; i < 7; i += 1) w.site.route(`${A}/r${i}`, { status: 302, headers: { location: `/r${i + 1}` } });
    w.site.route(`${A}/robots.txt`, { status: 302, headers: { location: '/r0' } });
    w.site.route(`${A}/`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${A}/`).status, 200);
    assert.equal(w.site.requests.filter((r) => r.url.includes('/r')).length, 6, 'robots.txt plus five hops');
  });

  it('queues the pages of a sitemap that robots.txt lists', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, { body: `User-agent: *\nAllow: /\nSitemap: ${A}/sitemap.xml` });
    w.site.route(`${A}/sitemap.xml`, {
      headers: { 'content-type': 'application/xml' },
      body: `<urlset><url><loc>${A}/hidden</loc></url></urlset>`,
    });
    w.site.route(`${A}/`, page([]));
    w.site.route(`${A}/hidden`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${A}/hidden`).status, 200);
    assert.equal(row(byUrl, `${A}/hidden`).referrer, `${A}/sitemap.xml`);
  });
});

describe('crawl runner: spacing', () => {
  it('waits the configured delay between the end of one response and the next request', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/1', '/2', '/3']));
    for (const p of ['/1', '/2', '/3']) w.site.route(`${A}${p}`, { ...page([]), responseMs: 50 });
    await crawl(w, { startUrl: `${A}/`, delayMs: 1000 });
    const seen = gaps(w.site.requests, A);
    assert.equal(seen.length, 4);
    for (const gap of seen) assert.ok(gap >= 1000, `gap ${gap} ms is shorter than the 1000 ms delay`);
    assert.ok(
      seen.every((g) => g < 1100),
      'and does not wait much longer than needed',
    );
  });

  it('waits Crawl-delay when it is longer than the delay, fractions included', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, { body: 'User-agent: *\nCrawl-delay: 2.5' });
    w.site.route(`${A}/`, page(['/1']));
    w.site.route(`${A}/1`, page([]));
    await crawl(w, { startUrl: `${A}/`, delayMs: 100 });
    for (const gap of gaps(w.site.requests, A).slice(1)) assert.ok(gap >= 2500, `gap ${gap} < 2500`);
  });

  it('caps an absurd Crawl-delay at 60 s', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, { body: 'User-agent: *\nCrawl-delay: 86400' });
    w.site.route(`${A}/`, page(['/1']));
    w.site.route(`${A}/1`, page([]));
    await crawl(w, { startUrl: `${A}/`, delayMs: 100 });
    const last = gaps(w.site.requests, A).at(-1);
    assert.ok(last !== undefined && last >= 60_000 && last < 61_000);
  });

  it('adds the square of a slow response time in seconds to the gap', async () => {
    const w = world();
    w.site.route(`${A}/`, { ...page(['/1']), responseMs: 3000 });
    w.site.route(`${A}/1`, page([]));
    await crawl(w, { startUrl: `${A}/`, delayMs: 100 });
    const [, afterSlow] = gaps(w.site.requests, A);
    assert.ok(afterSlow !== undefined && afterSlow >= 9000, `gap after a 3 s response is ${afterSlow}, want ≥ 9000`);
  });

  it('keeps at most one request in flight per host and crawls several hosts at once', async () => {
    const w2 = world();
    for (const r of [
      [`${A}/`, page([...Array.from({ length: 5 }, (_, i) => `/a${i}`), 'http://b.a.test/'])],
      [`http://b.a.test/`, page(Array.from({ length: 5 }, (_, i) => `/b${i}`))],
    ] as const)
      w2.site.route(r[0], r[1]);
    for (let i = 0; i < 5; i += 1) {
      w2.site.route(`${A}/a${i}`, { ...page([]), responseMs: 200 });
      w2.site.route(`http://b.a.test/b${i}`, { ...page([]), responseMs: 200 });
    }
    await crawl(w2, { startUrl: `${A}/`, delayMs: 500, includeSubdomains: true });
    for (const origin of [A, 'http://b.a.test']) {
      for (const gap of gaps(w2.site.requests, origin))
        assert.ok(gap >= 500, `${origin}: overlapping or close requests (gap ${gap})`);
    }
    const aTimes = w2.site.requests.filter((r) => r.url.startsWith(`${A}/a`));
    const bTimes = w2.site.requests.filter((r) => r.url.startsWith('http://b.a.test/b'));
    const overlap = aTimes.some((a) => bTimes.some((b) => b.startedAt < a.endedAt && a.startedAt < b.endedAt));
    assert.ok(overlap, 'the two hosts were crawled concurrently');
  });

  it('backs off a host after 429 with Retry-After and retries the URL', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/busy']));
    w.site.route(`${A}/busy`, (attempt) =>
      attempt === 0 ? { status: 429, headers: { 'retry-after': '30' } } : page([]),
    );
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 100 });
    const tries = w.site.requestsFor(`${A}/busy`);
    assert.equal(tries.length, 2);
    const [first, second] = tries;
    assert.ok(first && second && second.startedAt - first.endedAt >= 30_000);
    assert.equal(row(byUrl, `${A}/busy`).status, 200);
  });

  it('records a 503 as final after the retries run out', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/down']));
    w.site.route(`${A}/down`, { status: 503 });
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 100, maxRetries: 2 });
    assert.equal(w.site.requestsFor(`${A}/down`).length, 3);
    assert.equal(row(byUrl, `${A}/down`).status, 503);
  });
});

describe('crawl runner: pages, links and redirects', () => {
  it('records a redirect with its absolute location and crawls the target once', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/old', '/loop1']));
    w.site.route(`${A}/old`, { status: 301, headers: { location: '/new' } });
    w.site.route(`${A}/new`, page(['/old']));
    w.site.route(`${A}/loop1`, { status: 302, headers: { location: '/loop2' } });
    w.site.route(`${A}/loop2`, { status: 307, headers: { location: '/loop1' } });
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${A}/old`).status, 301);
    assert.equal(row(byUrl, `${A}/old`).location, `${A}/new`);
    assert.equal(row(byUrl, `${A}/new`).referrer, `${A}/old`);
    assert.equal(row(byUrl, `${A}/loop2`).location, `${A}/loop1`);
    assert.equal(w.site.requestsFor(`${A}/loop1`).length, 1);
    assert.equal(final?.state, 'finished');
  });

  it('records network errors on the row and carries on', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/broken', '/fine']));
    w.site.route(`${A}/broken`, { networkError: 'timeout' });
    w.site.route(`${A}/fine`, page([]));
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${A}/broken`).error?.code, 'timeout');
    assert.equal(row(byUrl, `${A}/broken`).status, null);
    assert.equal(row(byUrl, `${A}/fine`).status, 200);
    assert.equal(final?.counts.errors, 1);
    assert.equal(final?.state, 'finished');
  });

  it('fails the crawl when the start URL cannot be fetched', async () => {
    const w = world();
    w.site.route(`${A}/`, { networkError: 'network' });
    const { final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(final?.state, 'failed');
    assert.match(final?.message ?? '', /start URL/);
  });

  it('stores the HTML body and records its hash, anchors and title', async () => {
    const w = world();
    const html = '<title>Home</title><a href="/x">Go to X</a><a href="/y">Y</a>';
    w.site.route(`${A}/`, { headers: { 'content-type': 'text/html' }, body: html });
    w.site.route(`${A}/y`, {
      headers: { 'content-type': 'text/html' },
      body: '<a href="/x">X again</a><a href="/x">X, third time</a>',
    });
    w.site.route(`${A}/x`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    const home = row(byUrl, `${A}/`);
    assert.equal(home.title, 'Home');
    assert.deepEqual(home.links, [`${A}/x`, `${A}/y`]);
    assert.match(home.sha256 ?? '', /^[0-9a-f]{64}$/);
    const body = await w.store.getBody('c1', home.sha256 ?? '');
    assert.equal(new TextDecoder().decode(body?.bytes), html);
    assert.deepEqual(row(byUrl, `${A}/x`).anchors, ['Go to X', 'X again', 'X, third time']);
  });

  it('does not download linked files when told not to, but records their headers as a file row', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/file.pdf']));
    w.site.route(`${A}/file.pdf`, {
      headers: { 'content-type': 'application/pdf', 'content-length': '5' },
      body: '%PDF-',
    });
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, downloadFiles: false });
    const pdf = row(byUrl, `${A}/file.pdf`);
    assert.equal(pdf.contentType, 'application/pdf');
    assert.equal(pdf.contentLength, 5);
    assert.equal(pdf.sha256, null);
    assert.equal(pdf.kind, 'file');
    assert.equal(final?.counts.files, 1);
  });

  it('downloads a linked file by default: its body stored byte for byte, a file row, nothing followed from it', async () => {
    const w = world();
    const bytes = new Uint8Array([
      0x25, 0x50, 0x44, 0x46, 0x2d, 0x00, 0xff, 0x0a, 0x3c, 0x61, 0x20, 0x68, 0x72, 0x65, 0x66, 0x3d, 0x22, 0x2f, 0x78,
      0x22, 0x3e,
    ]);
    w.site.route(`${A}/`, page(['/file.pdf']));
    w.site.route(`${A}/file.pdf`, { headers: { 'content-type': 'application/pdf' }, body: bytes });
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    const pdf = row(byUrl, `${A}/file.pdf`);
    assert.equal(pdf.kind, 'file');
    assert.deepEqual(pdf.links, []);
    assert.deepEqual([...((await w.store.getBody('c1', pdf.sha256 ?? ''))?.bytes ?? [])], [...bytes]);
    assert.equal(byUrl.has(`${A}/x`), false, "a file's bytes are not read for links");
    assert.equal(final?.counts.files, 1);
  });

  it('cuts a linked file at maxFileBytes (not the page cap) and marks it truncated', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/big.zip']));
    w.site.route(`${A}/big.zip`, {
      headers: { 'content-type': 'application/zip' },
      body: new Uint8Array(5000).fill(7),
    });
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, maxBodyBytes: 1024, maxFileBytes: 2048 });
    const zip = row(byUrl, `${A}/big.zip`);
    assert.equal(zip.truncated, true);
    assert.equal((await w.store.getBody('c1', zip.sha256 ?? ''))?.bytes.byteLength, 2048);
  });

  it('marks a byte-identical page as a duplicate, stores its body once, and follows its links from its own URL', async () => {
    const w = world();
    const same = page(['only-relative']);
    w.site.route(`${A}/`, page(['/a/one', '/b/two']));
    w.site.route(`${A}/a/one`, same);
    w.site.route(`${A}/b/two`, same);
    w.site.route(`${A}/a/only-relative`, page([]));
    w.site.route(`${A}/b/only-relative`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${A}/b/two`).duplicateOf, `${A}/a/one`);
    assert.equal(row(byUrl, `${A}/a/only-relative`).referrer, `${A}/a/one`);
    assert.equal(
      row(byUrl, `${A}/b/only-relative`).referrer,
      `${A}/b/two`,
      'the copy at /b/ leads to /b/only-relative',
    );
    assert.equal(
      await w.store.getBody('c1', row(byUrl, `${A}/b/two`).sha256 ?? '').then((body) => body?.url),
      `${A}/a/one`,
      'one body, first URL',
    );
  });

  it('honours meta robots nofollow and rel=nofollow unless told to follow', async () => {
    const w = world();
    w.site.route(`${A}/`, {
      headers: { 'content-type': 'text/html' },
      body: '<a href="/meta">m</a><a rel="nofollow" href="/relno">r</a>',
    });
    w.site.route(`${A}/meta`, {
      headers: { 'content-type': 'text/html' },
      body: '<meta name="robots" content="nofollow"><a href="/behind-meta">b</a>',
    });
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(byUrl.has(`${A}/relno`), false);
    assert.equal(byUrl.has(`${A}/behind-meta`), false);
    assert.deepEqual(row(byUrl, `${A}/meta`).links, [`${A}/behind-meta`]);

    const w2 = world();
    w2.site.route(`${A}/`, { headers: { 'content-type': 'text/html' }, body: '<a rel="nofollow" href="/relno">r</a>' });
    const followed = await crawl(w2, { startUrl: `${A}/`, delayMs: 10, followNofollow: true });
    assert.equal(followed.byUrl.has(`${A}/relno`), true);
  });

  it('stays within the start origin, the depth limit and the page limit', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/d1', 'http://elsewhere.test/', 'https://a.test/other-scheme']));
    w.site.route(`${A}/d1`, page(['/d2']));
    w.site.route(`${A}/d2`, page(['/d3']));
    // Links to other sites are checked, not followed (crawl-runner-external.test.ts): left out here.
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, maxDepth: 1, checkExternal: false });
    assert.deepEqual([...byUrl.keys()].sort(), [`${A}/`, `${A}/d1`]);

    const w2 = world();
    w2.site.route(`${A}/`, page(Array.from({ length: 20 }, (_, i) => `/p${i}`)));
    const limited = await crawl(w2, { startUrl: `${A}/`, delayMs: 10, maxPages: 5 });
    assert.equal(limited.rows.length, 5);
    assert.equal(limited.final?.counts.admitted, 5);
  });

  it('skips URLs that match an exclude pattern', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/cgi-bin/run', '/keep']));
    w.site.route(`${A}/keep`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, excludePatterns: ['http*://*/cgi-bin/*'] });
    assert.equal(byUrl.has(`${A}/cgi-bin/run`), false);
    assert.equal(w.site.requestsFor(`${A}/cgi-bin/run`).length, 0);
  });

  it('sends HEAD first and GET only for what it stores when headBeforeGet is on', async () => {
    const routed = (): ReturnType<typeof world> => {
      const w = world();
      w.site.route(`${A}/`, page(['/doc.pdf']));
      w.site.route(`${A}/doc.pdf`, { headers: { 'content-type': 'application/pdf' }, body: 'x' });
      return w;
    };
    const files = await crawl(routed(), { startUrl: `${A}/`, delayMs: 10, headBeforeGet: true });
    assert.deepEqual(
      row(files.byUrl, `${A}/doc.pdf`).methods,
      ['HEAD', 'GET'],
      'a linked file is downloaded: HEAD, then GET',
    );
    const w = routed();
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, headBeforeGet: true, downloadFiles: false });
    assert.deepEqual(row(byUrl, `${A}/`).methods, ['HEAD', 'GET']);
    assert.deepEqual(row(byUrl, `${A}/doc.pdf`).methods, ['HEAD']);
    assert.deepEqual(
      w.site.requestsFor(`${A}/doc.pdf`).map((r) => r.method),
      ['HEAD'],
    );
  });

  it("waits for the host's gap between a HEAD and the GET that follows it when headBeforeGet is on", async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nCrawl-delay: 1\n',
    });
    w.site.route(`${A}/`, page(['/a', '/b']));
    w.site.route(`${A}/a`, page([]));
    w.site.route(`${A}/b`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, headBeforeGet: true, checkExternal: false });
    assert.deepEqual(row(byUrl, `${A}/a`).methods, ['HEAD', 'GET']);
    assert.equal(w.site.requests.length, 1 + 3 * 2, 'robots.txt, then HEAD and GET of three pages');
    for (let i = 1; i < w.site.requests.length; i++) {
      const gap = (w.site.requests[i]?.startedAt ?? 0) - (w.site.requests[i - 1]?.endedAt ?? 0);
      assert.ok(
        gap >= 1000,
        `${w.site.requests[i]?.method} ${w.site.requests[i]?.url}: a gap of ${gap} ms under the Crawl-delay`,
      );
    }
  });

  it("requests a link with the query a browser would: encoded in the page's legacy encoding", async () => {
    const w = world();
    // ASCII bytes with a character reference: é, whatever the encoding.
    w.site.route(`${A}/`, {
      headers: { 'content-type': 'text/html; charset=windows-1252' },
      body: '<!doctype html><a href="/s?q=caf&#233;">search</a>',
    });
    w.site.route(`${A}/s?q=caf%E9`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 0 });
    assert.equal(row(byUrl, `${A}/s?q=caf%E9`).status, 200);
    assert.equal(w.site.requestsFor(`${A}/s?q=caf%C3%A9`).length, 0, 'not the UTF-8 form');
  });
});

describe('crawl runner: stopping and resuming', () => {
  it('stops when the crawl is stopped and keeps what it stored', async () => {
    const w = world();
    w.site.route(`${A}/`, page(Array.from({ length: 10 }, (_, i) => `/p${i}`)));
    const settings = settingsFor({ startUrl: `${A}/`, delayMs: 1000 });
    const record = await createCrawl(w.store, settings, { id: 'c1', now: w.clock.now() });
    const controller = new AbortController();
    const runner = new CrawlRunner({ store: w.store, fetcher: w.site, clock: w.clock, runId: 'r1', random: () => 0 });
    const running = runner.run(record.id, controller.signal);
    const stopper = (async () => {
      // Stop once two rows are stored (a condition, not a time: real async work may be in flight).
      while ((await w.store.pagesAfter(record.id, 0, 10)).length < 2) await w.clock.sleep(100);
      await stopCrawl(w.store, record.id, w.clock.now());
      controller.abort();
    })();
    await w.clock.run(Promise.all([running, stopper]));
    const final = await w.store.getCrawl(record.id);
    assert.equal(final?.state, 'stopped');
    const rows = await w.store.pagesAfter(record.id, 0, 100);
    assert.ok(rows.length >= 2 && rows.length < 11, `rows: ${rows.length}`);
  });

  it('resumes a crawl whose worker died mid-request: no URL lost, one repeat, spacing kept', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/1', '/2', '/3']));
    for (const p of ['/1', '/2', '/3']) w.site.route(`${A}${p}`, page([]));
    w.site.hang.add(`${A}/2`);
    const settings = settingsFor({ startUrl: `${A}/`, delayMs: 1000 });
    const record = await createCrawl(w.store, settings, { id: 'c1', now: w.clock.now() });
    const first = new CrawlRunner({ store: w.store, fetcher: w.site, clock: w.clock, runId: 'dead', random: () => 0 });
    void first.run(record.id, new AbortController().signal); // never finishes: its request to /2 hangs forever
    // Let it run until it hangs on /2, then "restart the worker" a little later.
    await w.clock.run(
      (async () => {
        while (w.site.requestsFor(`${A}/2`).length === 0) await w.clock.sleep(100);
        await w.clock.sleep(5000);
      })(),
    );
    assert.equal(w.site.requestsFor(`${A}/2`).length, 1);
    w.site.hang.delete(`${A}/2`);
    const restartedAt = w.clock.now();
    const second = new CrawlRunner({
      store: w.store,
      fetcher: w.site,
      clock: w.clock,
      runId: 'alive',
      random: () => 0,
    });
    const final = await w.clock.run(second.run(record.id, new AbortController().signal));
    assert.equal(final?.state, 'finished');
    const rows = await w.store.pagesAfter(record.id, 0, 100);
    assert.deepEqual(rows.map((r) => r.url).sort(), [`${A}/`, `${A}/1`, `${A}/2`, `${A}/3`]);
    assert.equal(w.site.requestsFor(`${A}/2`).length, 2, 'the interrupted request is repeated once');
    const afterRestart = w.site.requests.filter((r) => r.startedAt >= restartedAt);
    assert.ok(
      (afterRestart[0]?.startedAt ?? 0) >= restartedAt + 1000,
      'the first request after the restart waits the delay',
    );
  });
});

describe('crawl runner: the start URL', () => {
  it('fails the crawl at once when the site cannot be reached at all', async () => {
    for (const networkError of ['network', 'dns', 'refused'] as const) {
      const w = world();
      w.site.route(`${A}/robots.txt`, { networkError });
      const { final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
      assert.equal(final?.state, 'failed', networkError);
      assert.match(final?.message ?? '', /could not reach http:\/\/a\.test/);
      assert.equal(w.site.requests.length, 1, 'one request, no retries of an unreachable site');
    }
  });

  it('finishes with a message when robots.txt disallows the start URL', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, { body: 'User-agent: *\nDisallow: /' });
    const { final, byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(final?.state, 'finished');
    assert.equal(row(byUrl, `${A}/`).blockedBy, 'robots');
    assert.match(final?.message ?? '', /robots\.txt does not let us fetch the start URL \(Disallow: \/\)/);
  });
});

describe('crawl runner: inlinks', () => {
  it('counts each linking page once, and not redirects or sitemaps', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/x', '/x', '/y', '/moved']));
    w.site.route(`${A}/y`, page(['/x', '/']));
    w.site.route(`${A}/x`, page([]));
    w.site.route(`${A}/moved`, { status: 301, headers: { location: '/x' } });
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${A}/x`).inlinks, 2, 'from / and /y; the redirect does not count');
    assert.equal(row(byUrl, `${A}/`).inlinks, 1, 'from /y');
    assert.equal(row(byUrl, `${A}/y`).inlinks, 1);
    assert.deepEqual(row(byUrl, `${A}/`).links, [`${A}/x`, `${A}/y`, `${A}/moved`]);
    assert.deepEqual(row(byUrl, `${A}/`).linkTexts, ['/x', '/y', '/moved']);
  });
});

describe('crawl runner: canonical targets (issue 26, item 4)', () => {
  it('fetches a canonical target in scope as a page that no link leads to, without counting an inlink', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/copy', '/header']));
    w.site.route(`${A}/copy`, page([], '<link rel="canonical" href="/gone">'));
    w.site.route(`${A}/header`, {
      headers: { 'content-type': 'text/html', link: '</from-header>; rel="canonical"' },
      body: '<title>t</title>',
    });
    w.site.route(`${A}/from-header`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    const gone = row(byUrl, `${A}/gone`);
    assert.equal(gone.status, 404);
    assert.equal(gone.referrer, `${A}/copy`);
    assert.equal(gone.depth, 2);
    assert.equal(gone.inlinks, 0, 'a canonical is not a link');
    assert.equal(row(byUrl, `${A}/from-header`).status, 200, 'the Link header canonical too');
  });

  it('leaves a canonical on another site, or deeper than the depth limit, unfetched; a self canonical is the page itself', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/a', '/self'], '<link rel="canonical" href="http://b.test/x">'));
    w.site.route(`${A}/a`, page([], '<link rel="canonical" href="/deep">'));
    w.site.route(`${A}/self`, page([], '<link rel="canonical" href="/self">'));
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, maxDepth: 1, checkExternal: false });
    assert.deepEqual([...byUrl.keys()].sort(), [`${A}/`, `${A}/a`, `${A}/self`]);
    assert.equal(
      w.site.requests.some((r) => r.url.startsWith('http://b.test/')),
      false,
    );
    assert.equal(final?.counts.notCrawled?.depth, 1, '/deep, left out by the depth limit');
  });
});

describe('crawl runner: size on disk', () => {
  it('counts the bytes of each distinct stored body once in bytesStored', async () => {
    const w = world();
    const home = page(['/one', '/two', '/file.pdf']);
    const same = page(['/'], '<p>the same page under two URLs</p>');
    w.site.route(`${A}/`, home);
    w.site.route(`${A}/one`, same);
    w.site.route(`${A}/two`, same);
    w.site.route(`${A}/file.pdf`, { headers: { 'content-type': 'application/pdf' }, body: '%PDF-' });
    const { final, byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, downloadFiles: false });
    assert.equal(row(byUrl, `${A}/two`).duplicateOf, `${A}/one`);
    const hashes = new Set([...byUrl.values()].map((r) => r.sha256).filter((h) => h !== null));
    assert.equal(hashes.size, 2, 'the home page and the one copy');
    let storedBytes = 0;
    for (const hash of hashes) storedBytes += (await w.store.getBody('c1', hash))?.bytes.byteLength ?? 0;
    const size = (body: string | Uint8Array | undefined): number =>
      (typeof body === 'string' ? new TextEncoder().encode(body) : (body ?? new Uint8Array())).byteLength;
    assert.equal(storedBytes, size(home.body) + size(same.body));
    assert.equal(final?.counts.bytesStored, storedBytes);
  });
});

/**
 * The crawl core against hostile and broken sites (issue 5): each case on a
 * fake web and a virtual clock, so a 10-minute back-off takes no time. What
 * only Chromium's fetch can show (streamed bodies, real timeouts, gzip,
 * redirects as the browser reports them) is in test/e2e/hostile.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { CrawlRunner } from '../../src/core/crawl/crawl-runner.ts';
import { MAX_LINKS_PER_PAGE } from '../../src/core/crawl/kinds/page-kind.ts';
import { MAX_BACKOFF_MS } from '../../src/core/politeness/retry-after.ts';
import { ROBOTS_MAX_BYTES } from '../../src/core/robots/robots-policy.ts';
import { MAX_REDIRECT_HOPS, queryVariantsCap } from '../../src/core/url/traps.ts';
import { crawl, row, settingsFor, world, type World } from '../support/crawl-world.ts';
import { page } from '../support/fake-site.ts';

const A = 'http://a.test';

/** The site's robots.txt was its first request, and no request matched `disallowed`. */
function assertPolite(w: World, disallowed: RegExp): void {
  assert.equal(w.site.requests[0]?.url, `${A}/robots.txt`, 'robots.txt first');
  const bad = w.site.requests.filter((r) => !r.url.endsWith('/robots.txt') && disallowed.test(new URL(r.url).pathname));
  assert.deepEqual(bad, [], 'no request to a disallowed URL');
}

const text = (body: string | Uint8Array, type = 'text/plain') => ({ headers: { 'content-type': type }, body });

describe('hostile robots.txt', () => {
  it('drops the line cut by the 512 KiB read limit, so a cut Allow cannot widen what is allowed', async () => {
    const w = world();
    const head = 'User-agent: *\nDisallow: /\n';
    const filler = `#${'x'.repeat(ROBOTS_MAX_BYTES - head.length - 'Allow: /'.length - 2)}\n`;
    const body = `${head}${filler}Allow: /private/open\n${'# more\n'.repeat(1000)}`;
    assert.equal(
      new TextEncoder().encode(`${head}${filler}Allow: /`).length,
      ROBOTS_MAX_BYTES,
      'the limit falls right after "Allow: /"',
    );
    w.site.route(`${A}/robots.txt`, text(body));
    w.site.route(`${A}/`, page([]));
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(final?.state, 'finished');
    assert.equal(row(byUrl, `${A}/`).blockedBy, 'robots');
    assert.equal(row(byUrl, `${A}/`).blockedRule, 'Disallow: /');
    assertPolite(w, /^\//u);
  });

  it('reads a binary robots.txt as no rules: everything allowed, robots.txt still first', async () => {
    const w = world();
    w.site.route(
      `${A}/robots.txt`,
      text(
        Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7919 + 3) % 256),
        'application/octet-stream',
      ),
    );
    w.site.route(`${A}/`, page(['/a']));
    w.site.route(`${A}/a`, page([]));
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(final?.state, 'finished');
    assert.equal(row(byUrl, `${A}/a`).status, 200);
    assertPolite(w, /^$/u);
  });

  it('reads an HTML page served as robots.txt as no rules', async () => {
    const w = world();
    w.site.route(
      `${A}/robots.txt`,
      text('<!doctype html><title>Oops</title><p>User-agent: *<br>Disallow: /</p>', 'text/html'),
    );
    w.site.route(`${A}/`, page(['/a']));
    w.site.route(`${A}/a`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${A}/a`).status, 200);
  });

  it('obeys a robots.txt reached in exactly five redirects', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, { status: 301, headers: { location: '/r1' } });
    for (let i = 1; i < 5; i += 1) w.site.route(`${A}/r${i}`, { status: 302, headers: { location: `/r${i + 1}` } });
    w.site.route(`${A}/r5`, text('User-agent: *\nDisallow: /secret'));
    w.site.route(`${A}/`, page(['/secret', '/open']));
    w.site.route(`${A}/open`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${A}/secret`).blockedBy, 'robots');
    assert.deepEqual(
      w.site.requests.slice(0, 6).map((r) => new URL(r.url).pathname),
      ['/robots.txt', '/r1', '/r2', '/r3', '/r4', '/r5'],
    );
    assertPolite(w, /^\/secret/u);
  });

  it('treats a robots.txt redirect to a non-http Location as unavailable (allow all), and requests nothing there', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, { status: 302, headers: { location: 'javascript:alert(1)' } });
    w.site.route(`${A}/`, page([]));
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(final?.state, 'finished');
    assert.equal(row(byUrl, `${A}/`).status, 200);
    assert.deepEqual(
      w.site.requests.map((r) => r.url),
      [`${A}/robots.txt`, `${A}/`],
    );
  });

  it('retries a 503 robots.txt no sooner than its Retry-After, and requests no page meanwhile', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, (attempt) =>
      attempt === 0 ? { status: 503, headers: { 'retry-after': '120' } } : text('User-agent: *\nDisallow: /no'),
    );
    w.site.route(`${A}/`, page(['/no']));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    const [first, second] = w.site.requestsFor(`${A}/robots.txt`);
    assert.ok(first && second);
    assert.ok(second.startedAt - first.endedAt >= 120_000, `retried after ${second.startedAt - first.endedAt} ms`);
    assert.equal(w.site.requests[2]?.url, `${A}/`);
    assert.equal(row(byUrl, `${A}/no`).blockedBy, 'robots');
  });

  it('caps an absurd Retry-After of a 503 robots.txt at the longest back-off', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, (attempt) =>
      attempt === 0 ? { status: 503, headers: { 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' } } : text(''),
    );
    w.site.route(`${A}/`, page([]));
    const { final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    const [first, second] = w.site.requestsFor(`${A}/robots.txt`);
    assert.ok(first && second);
    assert.equal(second.startedAt - first.endedAt, MAX_BACKOFF_MS);
    assert.equal(final?.state, 'finished');
  });

  it('does not fail the crawl when the first robots.txt times out: it is retried like a 5xx', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, (attempt) =>
      attempt === 0 ? { networkError: 'timeout', responseMs: 30_000 } : text('User-agent: *\nDisallow: /no'),
    );
    w.site.route(`${A}/`, page(['/no']));
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(final?.state, 'finished', final?.message ?? '');
    assert.equal(w.site.requestsFor(`${A}/robots.txt`).length, 2);
    assert.equal(row(byUrl, `${A}/`).status, 200);
    assert.equal(row(byUrl, `${A}/no`).blockedBy, 'robots');
    assertPolite(w, /^\/no/u);
  });

  it('waits for a slow robots.txt before any page, and then its square in seconds', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, { ...text('User-agent: *\nAllow: /'), responseMs: 3000 });
    w.site.route(`${A}/`, page([]));
    await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    const [robots, start] = w.site.requests;
    assert.ok(robots && start);
    assert.ok(start.startedAt - robots.endedAt >= 9000, 'a 3 s answer adds a 9 s gap');
  });

  it('fails the crawl as unreachable when the start host never answers robots.txt, retries included', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, { networkError: 'timeout', responseMs: 30_000 });
    const { final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(final?.state, 'failed');
    assert.match(final?.message ?? '', /could not reach http:\/\/a\.test/);
    assert.equal(w.site.requestsFor(`${A}/robots.txt`).length, 3);
    assert.equal(w.site.requestsFor(`${A}/`).length, 0);
  });

  it('records every URL of another host as blocked when its robots.txt never answers, and finishes', async () => {
    const w = world();
    const B = 'http://b.a.test';
    w.site.route(`${A}/`, page([`${B}/x`, `${B}/y`]));
    w.site.route(`${B}/robots.txt`, { networkError: 'timeout', responseMs: 30_000 });
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, includeSubdomains: true });
    assert.equal(final?.state, 'finished');
    assert.equal(w.site.requestsFor(`${B}/robots.txt`).length, 3);
    assert.equal(row(byUrl, `${B}/x`).blockedBy, 'robots');
    assert.equal(row(byUrl, `${B}/y`).blockedBy, 'robots');
    assert.equal(w.site.requests.filter((r) => r.url.startsWith(B) && !r.url.endsWith('/robots.txt')).length, 0);
  });
});

describe('hostile pages', () => {
  it('follows only the first 10,000 of 100,000 links and still finishes', async () => {
    const w = world();
    // The first 10,000 links leave the site; only links after them would stay in scope.
    const hrefs = Array.from({ length: 100_000 }, (_, i) =>
      i < MAX_LINKS_PER_PAGE ? `http://elsewhere.test/${i}` : `/n/${i}`,
    );
    w.site.route(`${A}/`, page(hrefs));
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, checkExternal: false });
    assert.equal(final?.state, 'finished');
    assert.equal(row(byUrl, `${A}/`).links.length, MAX_LINKS_PER_PAGE);
    assert.deepEqual([...byUrl.keys()], [`${A}/`]);
    assert.equal(
      w.site.requests.some((r) => r.url.includes('/n/')),
      false,
    );
  });

  it('reads the links of a page served without a Content-Type', async () => {
    const w = world();
    w.site.route(`${A}/`, { body: '<title>untyped</title><a href="/found">x</a>' });
    w.site.route(`${A}/found`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${A}/`).title, 'untyped');
    assert.equal(row(byUrl, `${A}/found`).status, 200);
    assert.match(row(byUrl, `${A}/`).sha256 ?? '', /^[0-9a-f]{64}$/);
  });

  it('reads no links from a binary body served without a Content-Type', async () => {
    const w = world();
    const binary = new Uint8Array([
      0x89,
      0x50,
      0x4e,
      0x47,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      0,
      0,
      ...new TextEncoder().encode('<a href="/in-binary">x</a>'),
    ]);
    w.site.route(`${A}/`, { body: binary });
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.deepEqual(row(byUrl, `${A}/`).links, []);
    assert.equal(w.site.requestsFor(`${A}/in-binary`).length, 0);
  });

  it('marks a body cut at maxBodyBytes as truncated, with the declared length', async () => {
    const w = world();
    w.site.route(`${A}/`, {
      headers: { 'content-type': 'text/html', 'content-length': String(2 ** 30) },
      body: `<a href="/a">a</a>${'x'.repeat(5000)}`,
    });
    w.site.route(`${A}/a`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, maxBodyBytes: 1024 });
    const home = row(byUrl, `${A}/`);
    assert.equal(home.truncated, true);
    assert.equal(home.contentLength, 2 ** 30);
    assert.equal((await w.store.getBody('c1', home.sha256 ?? ''))?.bytes.byteLength, 1024);
    assert.equal(row(byUrl, `${A}/a`).status, 200, 'links in the part read are followed');
  });

  it('does not follow links of 8,000 characters, javascript:, data: or invalid ones, and keeps odd but valid ones', async () => {
    const w = world();
    const long = `/long/${'x'.repeat(8000)}`;
    w.site.route(
      `${A}/`,
      page([
        long,
        'javascript:alert(1)',
        'data:text/html,hi',
        'http://exa mple.com/',
        '/bad%zz%',
        'http://BÜCHER.example/',
      ]),
    );
    w.site.route(`${A}/bad%zz%`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, checkExternal: false });
    assert.deepEqual(row(byUrl, `${A}/`).links, [`${A}/bad%zz%`, 'http://xn--bcher-kva.example/']);
    assert.equal(row(byUrl, `${A}/bad%zz%`).status, 200);
    assert.deepEqual([...byUrl.keys()].sort(), [`${A}/`, `${A}/bad%zz%`]);
    assert.deepEqual(w.site.requests.map((r) => r.url).sort(), [`${A}/`, `${A}/bad%zz%`, `${A}/robots.txt`]);
  });
});

describe('redirects', () => {
  it(`follows a chain of redirects for ${MAX_REDIRECT_HOPS} hops and no further`, async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/c/0']));
    for (let i = 0; i < 40; i += 1) w.site.route(`${A}/c/${i}`, { status: 302, headers: { location: `/c/${i + 1}` } });
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(final?.state, 'finished');
    const chain = [...byUrl.keys()].filter((u) => u.includes('/c/'));
    assert.equal(chain.length, MAX_REDIRECT_HOPS + 1, '/c/0 and the 20 targets of its redirects');
    assert.equal(
      row(byUrl, `${A}/c/${MAX_REDIRECT_HOPS}`).location,
      `${A}/c/${MAX_REDIRECT_HOPS + 1}`,
      'the last hop still records where it points',
    );
    assert.equal(w.site.requestsFor(`${A}/c/${MAX_REDIRECT_HOPS + 1}`).length, 0);
  });

  it('counts a chain from where a link entered it', async () => {
    const w = world();
    // /c/5 is linked directly: its chain starts there, so the chain runs 20 hops past it.
    w.site.route(`${A}/`, page(['/c/5', '/c/0']));
    for (let i = 0; i < 40; i += 1) w.site.route(`${A}/c/${i}`, { status: 302, headers: { location: `/c/${i + 1}` } });
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.ok(byUrl.has(`${A}/c/25`));
    assert.ok(!byUrl.has(`${A}/c/26`));
  });

  it('queues a redirect target without its fragment or session id, and ignores one that is not http(s)', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/frag', '/js']));
    w.site.route(`${A}/frag`, { status: 301, headers: { location: '/target;jsessionid=ABC#part' } });
    w.site.route(`${A}/js`, { status: 302, headers: { location: 'javascript:alert(1)' } });
    w.site.route(`${A}/target`, page([]));
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(final?.state, 'finished');
    assert.equal(
      row(byUrl, `${A}/frag`).location,
      `${A}/target;jsessionid=ABC#part`,
      'the row keeps the Location as served',
    );
    assert.equal(row(byUrl, `${A}/target`).status, 200);
    assert.equal(row(byUrl, `${A}/js`).status, 302);
    assert.equal(byUrl.size, 4);
  });
});

describe('Retry-After', () => {
  it('waits a Retry-After given as an HTTP-date, in any of its forms', async () => {
    for (const form of ['imf', 'rfc850', 'asctime'] as const) {
      const w = world();
      const at = new Date(w.clock.now() + 45_000);
      const date =
        form === 'imf'
          ? at.toUTCString()
          : form === 'rfc850'
            ? `Thursday, 01-Jan-26 00:00:45 GMT`
            : `Thu Jan  1 00:00:45 2026`;
      w.site.route(`${A}/`, page(['/busy']));
      w.site.route(`${A}/busy`, (attempt) =>
        attempt === 0 ? { status: 503, headers: { 'retry-after': date } } : page([]),
      );
      const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
      const [first, second] = w.site.requestsFor(`${A}/busy`);
      assert.ok(first && second, form);
      assert.ok(
        second.startedAt >= at.getTime(),
        `${form}: retried at ${second.startedAt - at.getTime()} ms from the date`,
      );
      assert.equal(row(byUrl, `${A}/busy`).status, 200);
    }
  });

  it('records an answer with an absurd Retry-After as final, and backs the host off 10 minutes', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/gone', '/next']));
    w.site.route(`${A}/gone`, { status: 503, headers: { 'retry-after': '99999999999999' } });
    w.site.route(`${A}/next`, page([]));
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(final?.state, 'finished');
    assert.equal(w.site.requestsFor(`${A}/gone`).length, 1, 'not retried');
    assert.equal(row(byUrl, `${A}/gone`).status, 503);
    const [gone] = w.site.requestsFor(`${A}/gone`);
    const [next] = w.site.requestsFor(`${A}/next`);
    assert.ok(gone && next);
    assert.equal(next.startedAt - gone.endedAt, MAX_BACKOFF_MS);
  });

  it('treats garbage and negative Retry-After as absent: the default back-off', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/busy']));
    w.site.route(`${A}/busy`, (attempt) =>
      attempt < 2 ? { status: 429, headers: { 'retry-after': attempt === 0 ? '-30' : 'soon 5' } } : page([]),
    );
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    const tries = w.site.requestsFor(`${A}/busy`);
    assert.equal(tries.length, 3);
    const waits = tries.slice(1).map((t, i) => t.startedAt - (tries[i]?.endedAt ?? 0));
    assert.deepEqual(waits, [5000, 10_000]);
    assert.equal(row(byUrl, `${A}/busy`).status, 200);
  });

  it('retries a Retry-After of 0 after the host gap', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/busy']));
    w.site.route(`${A}/busy`, (attempt) =>
      attempt === 0 ? { status: 429, headers: { 'retry-after': '0' } } : page([]),
    );
    await crawl(w, { startUrl: `${A}/`, delayMs: 700 });
    const [first, second] = w.site.requestsFor(`${A}/busy`);
    assert.ok(first && second && second.startedAt - first.endedAt >= 700);
  });
});

describe('crawler traps', () => {
  /** A calendar at /cal?m=N: each month links the next and previous month and 30 day pages. */
  function calendar(w: World): void {
    for (let m = -200; m <= 200; m += 1) {
      const days = Array.from({ length: 30 }, (_, d) => `/cal?d=${m * 30 + d}`);
      w.site.route(`${A}/cal?m=${m}`, page([`/cal?m=${m - 1}`, `/cal?m=${m + 1}`, ...days]));
    }
  }

  it('gives an endless query calendar its share of the page limit, and crawls the rest of the site', async () => {
    const w = world();
    calendar(w);
    w.site.route(`${A}/`, page(['/cal?m=0', '/real/0']));
    for (let i = 0; i < 30; i += 1) w.site.route(`${A}/real/${i}`, page([`/real/${i + 1}`]));
    const maxPages = 300;
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 0, maxPages, maxDepth: 100 });
    assert.equal(final?.state, 'finished');
    const cal = [...byUrl.keys()].filter((u) => u.includes('/cal?'));
    assert.equal(cal.length, queryVariantsCap(maxPages));
    assert.ok(byUrl.has(`${A}/real/30`), 'the real pages behind the calendar are all crawled');
    assert.ok(byUrl.size < maxPages, `${byUrl.size} rows: the calendar did not take the whole budget`);
  });

  it('ends a calendar laid out in paths by the depth limit', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/pcal/0/']));
    for (let m = 0; m < 500; m += 1) w.site.route(`${A}/pcal/${m}/`, page([`/pcal/${m + 1}/`]));
    const { byUrl, final, rows } = await crawl(w, { startUrl: `${A}/`, delayMs: 0, maxDepth: 10 });
    assert.equal(final?.state, 'finished');
    assert.equal(byUrl.size, 11);
    assert.ok(rows.every((r) => r.depth <= 10));
  });

  it('ends any endless site by the page limit', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/pcal/0/']));
    for (let m = 0; m < 500; m += 1) w.site.route(`${A}/pcal/${m}/`, page([`/pcal/${m + 1}/`]));
    const { final, rows } = await crawl(w, { startUrl: `${A}/`, delayMs: 0, maxDepth: 1000, maxPages: 25 });
    assert.equal(final?.state, 'finished');
    assert.equal(rows.length, 25);
    assert.equal(w.site.requests.length, 26, 'robots.txt and 25 pages');
  });

  it('never requests a session id: every link to a page is one URL', async () => {
    const w = world();
    let id = 0;
    const fresh = (): string => `S${(id += 1)}X${'0'.repeat(20)}`;
    const linker = () =>
      page([`/s/a;jsessionid=${fresh()}`, `/s/b?PHPSESSID=${fresh()}&tab=1`, `/s/c?sid=${fresh().toLowerCase()}9`]);
    for (const path of ['/', '/s/a', '/s/b?tab=1', '/s/c']) w.site.route(`${A}${path}`, linker);
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 0 });
    assert.deepEqual([...byUrl.keys()].sort(), [`${A}/`, `${A}/s/a`, `${A}/s/b?tab=1`, `${A}/s/c`]);
    assert.equal(
      w.site.requests.some((r) => /jsessionid|phpsessid|sid=/i.test(r.url)),
      false,
    );
  });

  it('stops a path that repeats itself on the third repetition', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/loop/']));
    // Distinct bodies: a byte-identical page would be a duplicate, whose links are not read again.
    for (const path of ['/loop/', '/loop/again/', '/loop/again/again/'])
      w.site.route(`${A}${path}`, page(['again/', 'x/y/x/y/'], `<h1>${path}</h1>`));
    w.site.route(`${A}/loop/x/y/x/y/`, page(['x/y/']));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 0 });
    const paths = [...byUrl.keys()].map((u) => new URL(u).pathname);
    assert.ok(paths.includes('/loop/again/again/'), paths.join(' '));
    assert.ok(paths.includes('/loop/x/y/x/y/'), paths.join(' '));
    assert.ok(!paths.some((p) => p.includes('again/again/again')), paths.join(' '));
    assert.ok(!paths.some((p) => p.includes('x/y/x/y/x/y')), paths.join(' '));
  });

  it('keeps counting query variants across a worker restart', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/cal?m=0']));
    for (let m = 0; m < 200; m += 1) w.site.route(`${A}/cal?m=${m}`, page([`/cal?m=${m + 1}`]));
    w.site.hang.add(`${A}/cal?m=20`);
    const maxPages = 100;
    const record = await createCrawl(w.store, settingsFor({ startUrl: `${A}/`, delayMs: 0, maxPages, maxDepth: 500 }), {
      id: 'c1',
      now: w.clock.now(),
    });
    const first = new CrawlRunner({ store: w.store, fetcher: w.site, clock: w.clock, runId: 'dead', random: () => 0 });
    void first.run(record.id, new AbortController().signal); // hangs forever on /cal?m=20
    await w.clock.run(
      (async () => {
        while (w.site.requestsFor(`${A}/cal?m=20`).length === 0) await w.clock.sleep(100);
      })(),
    );
    w.site.hang.delete(`${A}/cal?m=20`);
    const second = new CrawlRunner({
      store: w.store,
      fetcher: w.site,
      clock: w.clock,
      runId: 'alive',
      random: () => 0,
    });
    const final = await w.clock.run(second.run(record.id, new AbortController().signal));
    assert.equal(final?.state, 'finished');
    const rows = await w.store.pagesAfter(record.id, 0, 1000);
    assert.equal(rows.filter((r) => r.url.includes('/cal?')).length, queryVariantsCap(maxPages));
  });
});

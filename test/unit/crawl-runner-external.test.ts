/**
 * Links to other sites, checked (`external` rows): HEAD first, GET when the
 * server refuses HEAD, redirects followed hop by hop, every other host
 * crawled politely (its robots.txt first and once, its own gap), the
 * budgets, and the crawl of the site itself never waiting for them. On the
 * virtual clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crawl, row, world } from '../support/crawl-world.ts';
import { page } from '../support/fake-site.ts';

const A = 'http://a.test';
const X = 'http://x.test';
const Y = 'http://y.test';
const Z = 'http://z.test';

const robots = (body: string) => ({ headers: { 'content-type': 'text/plain' }, body });

describe('crawl runner: links to other sites', () => {
  it('checks each distinct link to another site once with HEAD, and follows nothing from it', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/p', `${X}/ok`, `${X}/gone`]));
    w.site.route(`${A}/p`, page([`${X}/ok`, '/']));
    w.site.route(`${X}/ok`, page([`${X}/deeper`]));
    w.site.route(`${X}/gone`, { status: 404 });
    const { final, byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(final?.state, 'finished');
    assert.deepEqual(
      w.site.requestsFor(`${X}/ok`).map((r) => r.method),
      ['HEAD'],
      'asked once, though two pages link to it',
    );
    assert.equal(row(byUrl, `${X}/ok`).kind, 'external');
    assert.equal(row(byUrl, `${X}/ok`).status, 200);
    assert.equal(row(byUrl, `${X}/ok`).sha256, null, 'no body stored');
    assert.equal(row(byUrl, `${X}/ok`).inlinks, 2);
    assert.equal(row(byUrl, `${X}/gone`).status, 404);
    assert.equal(w.site.requestsFor(`${X}/deeper`).length, 0, 'nothing followed from another site');
    assert.equal(final?.counts.external, 2);
    assert.equal(final?.counts.externalAdmitted, 2);
    assert.equal(final?.counts.admitted, 2, 'outside the page budget');
  });

  it('asks each other host for its robots.txt first and once, and records what it disallows without asking', async () => {
    const w = world();
    w.site.route(`${A}/`, page([`${X}/a`, `${X}/private/b`, `${X}/c`]));
    w.site.route(`${X}/robots.txt`, robots('User-agent: *\nDisallow: /private/\n'));
    w.site.route(`${X}/a`, { status: 200 });
    w.site.route(`${X}/c`, { status: 200 });
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    const xRequests = w.site.requests.filter((r) => r.url.startsWith(X));
    assert.equal(xRequests[0]?.url, `${X}/robots.txt`);
    assert.equal(xRequests.filter((r) => r.url === `${X}/robots.txt`).length, 1);
    assert.equal(w.site.requestsFor(`${X}/private/b`).length, 0);
    assert.equal(row(byUrl, `${X}/private/b`).kind, 'external');
    assert.equal(row(byUrl, `${X}/private/b`).blockedBy, 'robots');
    assert.equal(row(byUrl, `${X}/private/b`).blockedRule, 'Disallow: /private/');
  });

  it("keeps each other host's own gap: the delay, its Crawl-delay, from the end of each response", async () => {
    const w = world();
    const links = Array.from({ length: 6 }, (_, i) => `${X}/${i}`);
    w.site.route(`${A}/`, page([...links, ...links.map((l) => l.replace(X, Y))]));
    w.site.route(`${Y}/robots.txt`, robots('User-agent: *\nCrawl-delay: 2\n'));
    await crawl(w, { startUrl: `${A}/`, delayMs: 500 });
    for (const [origin, gapMs] of [
      [X, 500],
      [Y, 2000],
    ] as const) {
      const requests = w.site.requests.filter((r) => r.url.startsWith(origin));
      assert.equal(requests.length, 7, `${origin}: robots.txt and 6 links`);
      for (let i = 1; i < requests.length; i++) {
        const gap = (requests[i]?.startedAt ?? 0) - (requests[i - 1]?.endedAt ?? 0);
        assert.ok(gap >= gapMs, `${origin}: a gap of ${gap} ms under ${gapMs} ms`);
      }
    }
  });

  it('asks again with GET when the server refuses HEAD (405, 501) or does not answer it, and reads no body', async () => {
    const w = world();
    w.site.route(`${A}/`, page([`${X}/405`, `${X}/501`, `${X}/reset`, `${X}/404`]));
    const headThenGet = (headAnswer: { status?: number; networkError?: 'network' }) => (attempt: number) =>
      attempt === 0 ? headAnswer : { status: 200, headers: { 'content-type': 'text/html' }, body: '<p>big</p>' };
    w.site.route(`${X}/405`, headThenGet({ status: 405 }));
    w.site.route(`${X}/501`, headThenGet({ status: 501 }));
    w.site.route(`${X}/reset`, headThenGet({ networkError: 'network' }));
    w.site.route(`${X}/404`, { status: 404 });
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    for (const path of ['/405', '/501', '/reset']) {
      assert.deepEqual(row(byUrl, `${X}${path}`).methods, ['HEAD', 'GET'], path);
      assert.equal(row(byUrl, `${X}${path}`).status, 200, path);
      assert.equal(row(byUrl, `${X}${path}`).sha256, null, `${path}: the GET's body is not stored`);
    }
    assert.deepEqual(row(byUrl, `${X}/404`).methods, ['HEAD'], 'a 404 to HEAD is the answer');
  });

  it("waits for the host's gap before the GET that follows a refused HEAD, as before any request", async () => {
    const w = world();
    const paths = ['/405', '/501', '/reset', '/ok'];
    w.site.route(`${A}/`, page(paths.map((p) => `${X}${p}`)));
    w.site.route(`${X}/robots.txt`, robots('User-agent: *\nCrawl-delay: 2\n'));
    const headThenGet = (headAnswer: { status?: number; networkError?: 'network' }) => (attempt: number) =>
      attempt === 0 ? headAnswer : { status: 200 };
    w.site.route(`${X}/405`, headThenGet({ status: 405 }));
    w.site.route(`${X}/501`, headThenGet({ status: 501 }));
    w.site.route(`${X}/reset`, headThenGet({ networkError: 'network' }));
    w.site.route(`${X}/ok`, { status: 200 });
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    const requests = w.site.requests.filter((r) => r.url.startsWith(X));
    assert.equal(requests.length, 1 + 3 * 2 + 1, 'robots.txt, HEAD and GET of three URLs, HEAD of one');
    for (let i = 1; i < requests.length; i++) {
      const gap = (requests[i]?.startedAt ?? 0) - (requests[i - 1]?.endedAt ?? 0);
      assert.ok(gap >= 2000, `${requests[i]?.method} ${requests[i]?.url}: a gap of ${gap} ms under the Crawl-delay`);
    }
    for (const path of ['/405', '/501', '/reset']) {
      assert.deepEqual(
        w.site.requestsFor(`${X}${path}`).map((r) => r.method),
        ['HEAD', 'GET'],
        path,
      );
      assert.deepEqual(row(byUrl, `${X}${path}`).methods, ['HEAD', 'GET'], path);
      assert.equal(row(byUrl, `${X}${path}`).status, 200, path);
    }
  });

  it('records the links to a host that does not resolve or refuses connections as failed, with the reason, asking it nothing more', async () => {
    const w = world();
    w.site.route(`${A}/`, page([`${X}/a`, `${X}/b`, `${Y}/c`, `${Z}/d`]));
    w.site.route(`${X}/robots.txt`, { networkError: 'dns' });
    w.site.route(`${Y}/robots.txt`, { networkError: 'refused' });
    w.site.route(`${Z}/robots.txt`, { status: 503 });
    const { final, byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(final?.state, 'finished');
    for (const [url, code] of [
      [`${X}/a`, 'dns'],
      [`${X}/b`, 'dns'],
      [`${Y}/c`, 'refused'],
    ] as const) {
      assert.equal(row(byUrl, url).blockedBy, null, `${url}: not a polite refusal`);
      assert.equal(row(byUrl, url).error?.code, code, url);
      assert.equal(row(byUrl, url).kind, 'external');
    }
    assert.deepEqual(
      w.site.requests.filter((r) => r.url.startsWith(X) || r.url.startsWith(Y)).map((r) => r.url),
      [`${X}/robots.txt`, `${Y}/robots.txt`].sort(),
      'robots.txt once each, not retried; nothing else asked',
    );
    // A robots.txt answering 5xx still means "crawl nothing" (RFC 9309 §2.3.1.4): blocked, not broken.
    assert.equal(row(byUrl, `${Z}/d`).blockedBy, 'robots');
    assert.equal(row(byUrl, `${Z}/d`).error, null);
    assert.match(row(byUrl, `${Z}/d`).blockedRule ?? '', /robots\.txt unavailable \(HTTP 503\)/);
  });

  it('follows a redirect chain hop by hop, each hop on its own host, to its end, and stops after 5 hops', async () => {
    const w = world();
    w.site.route(`${A}/`, page([`${X}/moved`, `${X}/loop/0`]));
    w.site.route(`${X}/moved`, { status: 301, headers: { location: `${Y}/step` } });
    w.site.route(`${Y}/step`, { status: 302, headers: { location: `${Z}/end` } });
    w.site.route(`${Z}/end`, { status: 404 });
    for (let i = 0; i < 10; i++)
      w.site.route(`${X}/loop/${i}`, { status: 302, headers: { location: `${X}/loop/${i + 1}` } });
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${X}/moved`).location, `${Y}/step`);
    assert.equal(row(byUrl, `${Y}/step`).kind, 'external');
    assert.equal(row(byUrl, `${Z}/end`).status, 404, 'the final status is known');
    assert.equal(
      w.site.requests[w.site.requests.findIndex((r) => r.url.startsWith(Z))]?.url,
      `${Z}/robots.txt`,
      "the last hop's host: robots.txt first",
    );
    // /loop/0 is the link; 5 hops follow it.
    assert.deepEqual(
      Array.from({ length: 10 }, (_, i) => w.site.requestsFor(`${X}/loop/${i}`).length),
      [1, 1, 1, 1, 1, 1, 0, 0, 0, 0],
    );
  });

  it('treats a hop back into the crawl as a page of the crawl', async () => {
    const w = world();
    w.site.route(`${A}/`, page([`${X}/back`]));
    w.site.route(`${X}/back`, { status: 301, headers: { location: `${A}/landing` } });
    w.site.route(`${A}/landing`, page(['/after']));
    w.site.route(`${A}/after`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${A}/landing`).kind, 'page');
    assert.equal(row(byUrl, `${A}/after`).status, 200, "the page's links are followed");
  });

  it('checks nofollow links too, but not links the scope leaves out on the site itself', async () => {
    const w = world();
    w.site.route(
      `${A}/`,
      page(['/logout', `${A}/docs/x`], `<a rel="nofollow" href="${X}/sponsor">s</a><a href="mailto:me@a.test">m</a>`),
    );
    const { byUrl } = await crawl(w, {
      startUrl: `${A}/`,
      delayMs: 10,
      excludePatterns: ['*/logout'],
      pathPrefix: '/',
    });
    assert.equal(row(byUrl, `${X}/sponsor`).kind, 'external');
    assert.equal(byUrl.has(`${A}/logout`), false, 'excluded by the user: not checked');
    assert.equal(
      w.site.requests.some((r) => r.url.startsWith('mailto:')),
      false,
    );
  });

  it('stops checking at the crawl budget and at the per-host budget, redirect hops included', async () => {
    const w = world();
    w.site.route(
      `${A}/`,
      page([...Array.from({ length: 8 }, (_, i) => `${X}/${i}`), ...Array.from({ length: 8 }, (_, i) => `${Y}/${i}`)]),
    );
    const { final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, maxExternal: 10, maxExternalPerHost: 3 });
    const asked = (origin: string): number =>
      w.site.requests.filter((r) => r.url.startsWith(origin) && !r.url.endsWith('/robots.txt')).length;
    assert.equal(asked(X), 3);
    assert.equal(asked(Y), 3);
    assert.equal(final?.counts.externalAdmitted, 6);

    const w2 = world();
    w2.site.route(`${A}/`, page(Array.from({ length: 5 }, (_, i) => `http://h${i}.test/`)));
    const second = await crawl(w2, { startUrl: `${A}/`, delayMs: 10, maxExternal: 2 });
    assert.equal(second.final?.counts.externalAdmitted, 2);
    assert.equal(second.rows.filter((r) => r.kind === 'external').length, 2);
  });

  it('never slows the crawl of the site: other hosts have their own pool of hosts at once', async () => {
    const pages = Array.from({ length: 10 }, (_, i) => `/p${i}`);
    const slowHosts = Array.from({ length: 8 }, (_, i) => `http://slow${i}.test/`);
    const build = () => {
      const w = world();
      w.site.route(`${A}/`, page([...pages, ...slowHosts]));
      for (const p of pages) w.site.route(`${A}${p}`, page([]));
      for (const h of slowHosts) w.site.route(h, { status: 200, responseMs: 20_000 });
      return w;
    };
    const lastPageAt = (w: ReturnType<typeof build>): number =>
      Math.max(...w.site.requests.filter((r) => r.url.startsWith(A)).map((r) => r.endedAt));
    const off = build();
    await crawl(off, { startUrl: `${A}/`, delayMs: 100, hostConcurrency: 1, checkExternal: false });
    const on = build();
    await crawl(on, { startUrl: `${A}/`, delayMs: 100, hostConcurrency: 1 });
    assert.equal(
      on.site.requests.filter((r) => r.url.startsWith('http://slow')).length,
      16,
      'every slow host checked (robots.txt and the link)',
    );
    assert.equal(lastPageAt(on), lastPageAt(off), "the site's last page came as early as without the checks");
  });

  it("checks links anonymously, even in a crawl that sends the user's cookies", async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/p', `${X}/a`]));
    w.site.route(`${A}/p`, page([]));
    await crawl(w, { startUrl: `${A}/`, delayMs: 10, withCookies: true });
    assert.ok(
      w.site.requests
        .filter((r) => r.url.startsWith(X))
        .every((r) => r.withoutCredentials || r.url.endsWith('/robots.txt')),
    );
    assert.equal(w.site.requestsFor(`${X}/a`)[0]?.withoutCredentials, true);
    assert.equal(w.site.requestsFor(`${A}/p`)[0]?.withoutCredentials, false, "the site's own pages carry the session");
  });

  it('records the URLs of another site Chrome keeps Tabcrawl from as failed (no-access), and goes on', async () => {
    const w = world();
    w.site.route(`${A}/`, page(['/p', `${X}/a`], `<img src="${X}/logo.png">`));
    w.site.route(`${A}/p`, page([]));
    for (const path of ['/robots.txt', '/a', '/logo.png']) w.site.route(`${X}${path}`, { networkError: 'no-access' });
    const { final, byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(final?.state, 'finished', final?.message ?? '');
    assert.equal(row(byUrl, `${A}/p`).status, 200);
    for (const url of [`${X}/a`, `${X}/logo.png`]) {
      assert.equal(row(byUrl, url).error?.code, 'no-access', url);
      assert.equal(row(byUrl, url).status, null);
    }
  });

  it('checks nothing in a crawl with the setting off, or one stored before it existed', async () => {
    const w = world();
    w.site.route(`${A}/`, page([`${X}/a`]));
    const { final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, checkExternal: false });
    assert.equal(
      w.site.requests.some((r) => r.url.startsWith(X)),
      false,
    );
    assert.equal(final?.counts.external, 0);
  });
});

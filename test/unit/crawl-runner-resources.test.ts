/**
 * Page resources on the virtual clock: what a page needs to display is
 * fetched once per crawl, on any host, as politely as pages (robots.txt first
 * and once, nothing disallowed requested, the gap kept), never followed, and
 * outside the page budget.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crawl, row, world } from '../support/crawl-world.ts';
import { page, type LoggedRequest } from '../support/fake-site.ts';

const A = 'https://a.example';
const CDN = 'https://cdn.example';
const css = (body: string) => ({ headers: { 'content-type': 'text/css' }, body });
const png = { headers: { 'content-type': 'image/png' }, body: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) };

/** A site whose home page uses every kind of resource, some on a CDN whose robots.txt disallows /private/. */
function resourceWorld() {
  const w = world();
  const head = [
    '<link rel="stylesheet" href="/a.css">',
    '<link rel="icon" href="/favicon.ico">',
    `<link rel="stylesheet" href="${CDN}/lib.css">`,
    '<script src="/app.js"></script>',
    '<style>h1 { background: url(/inline-bg.png) }</style>',
  ].join('');
  const body = [
    '<img src="/logo.png" srcset="/logo-2x.png 2x, /logo.png 1x">',
    '<picture><source srcset="/hero.webp"><img src="/hero.png"></picture>',
    '<div style="background-image: url(\'/styled.png\')"></div>',
    `<img src="${CDN}/private/secret.png"><img src="${CDN}/ok.png">`,
    '<img src="/missing.png">',
  ].join('');
  w.site.route(`${A}/`, page(['/two'], `${head}${body}`));
  w.site.route(`${A}/two`, page(['/'], '<link rel="stylesheet" href="/a.css"><img src="/logo.png">'));
  w.site.route(`${A}/a.css`, css('@import "b.css"; body { color: red }'));
  w.site.route(
    `${A}/b.css`,
    css('@font-face { font-family: X; src: url(fonts/x.woff2) format("woff2") } div { background: url("/bg.png") }'),
  );
  for (const path of [
    '/favicon.ico',
    '/logo.png',
    '/logo-2x.png',
    '/hero.webp',
    '/hero.png',
    '/styled.png',
    '/inline-bg.png',
    '/bg.png',
    '/fonts/x.woff2',
  ])
    w.site.route(`${A}${path}`, png);
  w.site.route(`${A}/app.js`, { headers: { 'content-type': 'text/javascript' }, body: 'document.body.append("hi")' });
  w.site.route(`${CDN}/robots.txt`, {
    headers: { 'content-type': 'text/plain' },
    body: 'User-agent: *\nDisallow: /private/\n',
  });
  w.site.route(`${CDN}/lib.css`, css('p { background: url(ok.png) }'));
  w.site.route(`${CDN}/ok.png`, png);
  return w;
}

const paths = (requests: LoggedRequest[], origin: string): string[] =>
  requests.filter((r) => r.url.startsWith(origin)).map((r) => r.url.slice(origin.length));

describe('crawl runner: page resources', () => {
  it('fetches every resource of every page once, on any host, and records each as a resource row', async () => {
    const w = resourceWorld();
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 100 });
    const expected = [
      '/a.css',
      '/b.css',
      '/favicon.ico',
      '/app.js',
      '/inline-bg.png',
      '/logo.png',
      '/logo-2x.png',
      '/hero.webp',
      '/hero.png',
      '/styled.png',
      '/missing.png',
      '/bg.png',
      '/fonts/x.woff2',
    ];
    for (const path of expected) {
      assert.equal(row(byUrl, `${A}${path}`).kind, 'resource', path);
      assert.equal(w.site.requestsFor(`${A}${path}`).length, 1, `${path} requested once`);
    }
    assert.equal(row(byUrl, `${CDN}/lib.css`).kind, 'resource');
    assert.equal(row(byUrl, `${CDN}/ok.png`).kind, 'resource');
    assert.equal(w.site.requestsFor(`${CDN}/ok.png`).length, 1, 'used by a page and a stylesheet: requested once');
    assert.equal(row(byUrl, `${A}/missing.png`).status, 404);
    assert.equal(row(byUrl, `${A}/two`).kind, 'page');
    assert.equal(final?.counts.resources, expected.length + 3);
    assert.equal(final?.counts.resourcesAdmitted, expected.length + 3);
    assert.equal(final?.counts.admitted, 2, 'resources do not count as pages');
  });

  it('reads robots.txt first and once on a resource host, and never requests what it disallows', async () => {
    const w = resourceWorld();
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 100 });
    const cdn = paths(w.site.requests, CDN);
    assert.equal(cdn[0], '/robots.txt');
    assert.equal(cdn.filter((p) => p === '/robots.txt').length, 1);
    assert.equal(w.site.requestsFor(`${CDN}/private/secret.png`).length, 0);
    const secret = row(byUrl, `${CDN}/private/secret.png`);
    assert.equal(secret.blockedBy, 'robots');
    assert.equal(secret.kind, 'resource');
    assert.equal(paths(w.site.requests, A)[0], '/robots.txt');
  });

  it('keeps the delay between any two requests to one host, resources included', async () => {
    const w = resourceWorld();
    await crawl(w, { startUrl: `${A}/`, delayMs: 100 });
    for (const origin of [A, CDN]) {
      const mine = w.site.requests.filter((r) => r.url.startsWith(origin)).sort((a, b) => a.startedAt - b.startedAt);
      for (let i = 1; i < mine.length; i += 1) {
        const gap = (mine[i]?.startedAt ?? 0) - (mine[i - 1]?.endedAt ?? 0);
        assert.ok(gap >= 100, `${origin}: ${mine[i]?.url} ${gap} ms after ${mine[i - 1]?.url}`);
      }
    }
  });

  it('lists what each page and stylesheet uses on its row', async () => {
    const w = resourceWorld();
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    const home = row(byUrl, `${A}/`).resources;
    assert.ok(
      home.includes(`${A}/a.css`) &&
        home.includes(`${A}/logo-2x.png`) &&
        home.includes(`${CDN}/private/secret.png`) &&
        home.includes(`${A}/inline-bg.png`) &&
        home.includes(`${A}/styled.png`),
    );
    assert.deepEqual(row(byUrl, `${A}/a.css`).resources, [`${A}/b.css`]);
    assert.deepEqual(row(byUrl, `${A}/b.css`).resources, [`${A}/fonts/x.woff2`, `${A}/bg.png`]);
    assert.deepEqual(row(byUrl, `${A}/logo.png`).resources, []);
  });

  it("fetches a page's resources on its host before the next page: a crawl cut at its page limit has whole pages", async () => {
    const w = resourceWorld();
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    const order = paths(w.site.requests, A);
    assert.ok(
      order.indexOf('/two') > order.indexOf('/hero.png'),
      `the second page after the first's resources: ${order.join(' ')}`,
    );
    const limited = resourceWorld();
    const cut = await crawl(limited, { startUrl: `${A}/`, delayMs: 10, maxPages: 1 });
    assert.equal(cut.byUrl.has(`${A}/two`), false);
    assert.equal(row(cut.byUrl, `${A}/b.css`).status, 200, 'the one page has all its resources');
    assert.equal(byUrl.size, cut.byUrl.size + 1);
  });

  it('follows no link of a resource, whatever it is', async () => {
    const w = world();
    w.site.route(`${A}/`, page([], '<img src="/looks-like-a-page">'));
    w.site.route(`${A}/looks-like-a-page`, page(['/never']));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${A}/looks-like-a-page`).kind, 'resource');
    assert.equal(byUrl.has(`${A}/never`), false);
  });

  it("follows a resource's redirect as a resource, to any host; the scope is for pages", async () => {
    const w = world();
    w.site.route(`${A}/`, page([], '<img src="/moved.png">'));
    w.site.route(`${A}/moved.png`, { status: 301, headers: { location: `${CDN}/moved.png` } });
    w.site.route(`${CDN}/moved.png`, png);
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${CDN}/moved.png`).kind, 'resource');
    assert.equal(row(byUrl, `${CDN}/moved.png`).status, 200);
  });

  it('treats frames as pages: their links are followed', async () => {
    const w = world();
    w.site.route(`${A}/`, page([], '<iframe src="/frame"></iframe>'));
    w.site.route(`${A}/frame`, page(['/from-frame']));
    w.site.route(`${A}/from-frame`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${A}/frame`).kind, 'page');
    assert.equal(row(byUrl, `${A}/from-frame`).kind, 'page');
  });

  it('fetches no resource when archiveResources is off (a crawl as before)', async () => {
    const w = resourceWorld();
    const { byUrl, final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, archiveResources: false });
    assert.deepEqual([...byUrl.keys()].sort(), [`${A}/`, `${A}/two`]);
    assert.equal(paths(w.site.requests, CDN).length, 0, 'no request to the CDN, not even robots.txt');
    assert.deepEqual(row(byUrl, `${A}/`).resources, []);
    assert.equal(final?.counts.resources, 0);
  });

  it('stops admitting resources at maxResources, and counts downloaded files against it too', async () => {
    const w = resourceWorld();
    const { final } = await crawl(w, { startUrl: `${A}/`, delayMs: 10, maxResources: 4 });
    assert.equal(final?.counts.resourcesAdmitted, 4);
    assert.equal(final?.counts.resources, 4);
    const files = world();
    files.site.route(`${A}/`, page(['/a.pdf', '/b.pdf'], '<img src="/x.png">'));
    files.site.route(`${A}/x.png`, png);
    for (const name of ['a', 'b'])
      files.site.route(`${A}/${name}.pdf`, { headers: { 'content-type': 'application/pdf' }, body: `%PDF-${name}` });
    const { byUrl } = await crawl(files, { startUrl: `${A}/`, delayMs: 10, maxResources: 2 });
    const stored = [`${A}/x.png`, `${A}/a.pdf`, `${A}/b.pdf`].filter((url) => row(byUrl, url).sha256 !== null);
    assert.equal(stored.length, 2, `one resource and one file stored: ${stored.join(', ')}`);
    assert.equal(row(byUrl, `${A}/b.pdf`).kind, 'file', 'a file past the budget is still a file row, headers only');
  });

  it('stores identical resource bodies once', async () => {
    const w = world();
    w.site.route(`${A}/`, page([], '<img src="/one.png"><img src="/two.png">'));
    w.site.route(`${A}/one.png`, png);
    w.site.route(`${A}/two.png`, png);
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    assert.equal(row(byUrl, `${A}/two.png`).duplicateOf, `${A}/one.png`);
  });
});

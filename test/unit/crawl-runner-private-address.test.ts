/**
 * A crawl cannot be aimed at the user's network (issue 27, item 8): a crawl that starts on a public
 * host never asks a private, loopback, link-local or metadata address for anything (a page resource, a
 * linked file, a link to check, a redirect, robots.txt), and lists those URLs as not crawled
 * (`private-address`); a crawl that starts on the user's own network, or with the setting on, may.
 * On a fake site with a virtual clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { crawl, world } from '../support/crawl-world.ts';
import { page } from '../support/fake-site.ts';

const P = 'http://public.test';

/** Every URL recorded as not crawled, as `url reason` lines. */
async function listed(store: MemoryCrawlStore): Promise<string[]> {
  return (await store.notCrawledAfter('c1', null, 100_000)).map((u) => `${u.url} ${u.reason}`);
}

/** A public page naming the user's network every way a page can. */
const NAMING_THE_NETWORK = [
  '<img src="http://127.0.0.1/cgi-bin/reboot.cgi">',
  '<link rel="stylesheet" href="http://192.168.1.1/style.css">',
  '<img src="http://169.254.169.254/latest/meta-data/">',
  '<script src="http://[::1]:8080/app.js"></script>',
].join('');
const LINKS_TO_THE_NETWORK = [
  'http://10.0.0.1/admin',
  'http://localhost:3000/',
  'http://2130706433/decimal',
  'http://router/',
  'http://nas.local/files/report.pdf',
];

describe("a crawl cannot be aimed at the user's network", () => {
  it('never requests a private, loopback, link-local or metadata address a public page names, not even its robots.txt, and lists each as not crawled', async () => {
    const w = world();
    w.site.route(`${P}/`, page(['/two', ...LINKS_TO_THE_NETWORK], NAMING_THE_NETWORK));
    w.site.route(`${P}/two`, page(['/', 'http://10.0.0.1/admin']));
    const { final, byUrl } = await crawl(w, { startUrl: `${P}/`, delayMs: 10 });
    assert.deepEqual(
      w.site.requests.map((r) => r.url).filter((url) => !url.startsWith(P)),
      [],
      "nothing asked of the user's network",
    );
    assert.ok(byUrl.has(`${P}/two`), 'the public site is crawled');
    const expected = [
      'http://10.0.0.1/admin',
      'http://127.0.0.1/cgi-bin/reboot.cgi',
      'http://127.0.0.1/decimal',
      'http://169.254.169.254/latest/meta-data/',
      'http://192.168.1.1/style.css',
      'http://[::1]:8080/app.js',
      'http://localhost:3000/',
      'http://nas.local/files/report.pdf',
      'http://router/',
    ];
    assert.deepEqual((await listed(w.store)).sort(), expected.map((url) => `${url} private-address`).sort());
    assert.deepEqual(final?.counts.notCrawled, { 'private-address': expected.length });
    assert.equal(final?.state, 'finished');
  });

  it("never follows a redirect into the user's network, of a checked link or of a page resource", async () => {
    const SHORT = 'http://short.test';
    const w = world();
    w.site.route(`${P}/`, page([`${SHORT}/x`], '<img src="/img">'));
    w.site.route(`${SHORT}/x`, { status: 302, headers: { location: 'http://192.168.0.1/setup' } });
    w.site.route(`${P}/img`, { status: 302, headers: { location: 'http://127.0.0.1/pixel.gif' } });
    const { final, byUrl } = await crawl(w, { startUrl: `${P}/`, delayMs: 10 });
    assert.equal(byUrl.get(`${SHORT}/x`)?.status, 302, 'the link is checked up to the hop');
    assert.deepEqual(
      w.site.requests.filter((r) => !r.url.startsWith(P) && !r.url.startsWith(SHORT)),
      [],
    );
    assert.deepEqual((await listed(w.store)).sort(), [
      'http://127.0.0.1/pixel.gif private-address',
      'http://192.168.0.1/setup private-address',
    ]);
    assert.deepEqual(final?.counts.notCrawled, { 'private-address': 2 });
  });

  it("does not follow another site's robots.txt when it redirects to the user's network (no robots.txt: allowed)", async () => {
    const CDN = 'http://cdn.test';
    const w = world();
    w.site.route(`${P}/`, page([], `<img src="${CDN}/logo.png">`));
    w.site.route(`${CDN}/robots.txt`, { status: 301, headers: { location: 'http://127.0.0.1/robots.txt' } });
    w.site.route(`${CDN}/logo.png`, { headers: { 'content-type': 'image/png' }, body: 'png' });
    const { byUrl } = await crawl(w, { startUrl: `${P}/`, delayMs: 10 });
    assert.deepEqual(
      w.site.requests.filter((r) => r.url.startsWith('http://127.0.0.1')),
      [],
    );
    assert.equal(byUrl.get(`${CDN}/logo.png`)?.status, 200);
  });

  it('stops at a host whose name reads public but whose robots.txt came from a private address: one request, no more', async () => {
    const SNEAKY = 'http://sneaky.test';
    const w = world();
    w.site.route(`${P}/`, page([`${SNEAKY}/admin`, `${SNEAKY}/other`], `<img src="${SNEAKY}/pixel.png">`));
    w.site.route(`${SNEAKY}/robots.txt`, { status: 404, ipAddress: '10.1.2.3' });
    const { final, byUrl } = await crawl(w, { startUrl: `${P}/`, delayMs: 10 });
    assert.deepEqual(
      w.site.requests.filter((r) => r.url.startsWith(SNEAKY)).map((r) => r.url),
      [`${SNEAKY}/robots.txt`],
    );
    assert.equal(byUrl.has(`${SNEAKY}/admin`), false);
    assert.deepEqual((await listed(w.store)).sort(), [
      `${SNEAKY}/admin private-address`,
      `${SNEAKY}/other private-address`,
      `${SNEAKY}/pixel.png private-address`,
    ]);
    assert.deepEqual(final?.counts.notCrawled, { 'private-address': 3 });
    assert.equal(final?.state, 'finished');
  });

  it("keeps crawling the user's own site when its public name answers from a private address (an intranet), and stops at other such hosts", async () => {
    const WIKI = 'http://wiki.test';
    const inside = { ipAddress: '10.0.0.5' };
    const w = world();
    w.site.route(`${WIKI}/robots.txt`, { status: 404, ...inside });
    w.site.route(`${WIKI}/`, {
      ...page(['/a', 'http://docs.wiki.test/', 'http://jira.test/x'], '<img src="https://wiki.test/logo.png">'),
      ...inside,
    });
    w.site.route(`${WIKI}/a`, { ...page(['/']), ...inside });
    w.site.route('https://wiki.test/robots.txt', { status: 404, ...inside });
    w.site.route('https://wiki.test/logo.png', { headers: { 'content-type': 'image/png' }, body: 'png', ...inside });
    w.site.route('http://docs.wiki.test/robots.txt', { status: 404, ...inside });
    w.site.route('http://docs.wiki.test/', { ...page(['/']), ...inside });
    w.site.route('http://jira.test/robots.txt', { status: 404, ipAddress: '10.0.0.9' });
    const { byUrl } = await crawl(w, { startUrl: `${WIKI}/`, delayMs: 10, includeSubdomains: true });
    assert.equal(byUrl.get(`${WIKI}/a`)?.status, 200);
    assert.equal(byUrl.get('https://wiki.test/logo.png')?.status, 200, 'its own host over https');
    assert.equal(byUrl.get('http://docs.wiki.test/')?.status, 200, 'a subdomain the scope takes in');
    assert.deepEqual(
      w.site.requests.filter((r) => r.url.startsWith('http://jira.test')).map((r) => r.url),
      ['http://jira.test/robots.txt'],
    );
    assert.deepEqual(await listed(w.store), ['http://jira.test/x private-address']);
  });

  it("behind a proxy on the user's network (every answer from its address), checks other sites as usual, and still stops at a host answering from another private address", async () => {
    const PROXY = { ipAddress: '10.0.0.3' };
    const w = world();
    w.site.route(`${P}/robots.txt`, { status: 404, ...PROXY });
    w.site.route(`${P}/`, { ...page(['http://cdn.test/doc.html', 'http://sneaky.test/admin']), ...PROXY });
    w.site.route('http://cdn.test/robots.txt', { status: 404, ...PROXY });
    w.site.route('http://cdn.test/doc.html', { ...page([]), ...PROXY });
    w.site.route('http://sneaky.test/robots.txt', { status: 404, ipAddress: '192.168.1.1' });
    const { final, byUrl } = await crawl(w, { startUrl: `${P}/`, delayMs: 10 });
    assert.equal(
      byUrl.get('http://cdn.test/doc.html')?.status,
      200,
      "answered from the proxy's address, as the crawl's own site did",
    );
    assert.deepEqual(
      w.site.requests.filter((r) => r.url.startsWith('http://sneaky.test')).map((r) => r.url),
      ['http://sneaky.test/robots.txt'],
    );
    assert.deepEqual(await listed(w.store), ['http://sneaky.test/admin private-address']);
    assert.deepEqual(final?.ownSiteAddresses, ['10.0.0.3']);
  });

  it('lets a crawl that starts on a loopback host reach its own network, as a local build needs', async () => {
    const L = 'http://127.0.0.1:8080';
    const w = world();
    w.site.route(`${L}/`, page(['/a', 'http://192.168.1.1/x'], '<img src="http://localhost:9000/logo.png">'));
    const { final, byUrl } = await crawl(w, { startUrl: `${L}/`, delayMs: 10 });
    assert.ok(byUrl.has(`${L}/a`));
    assert.ok(byUrl.has('http://192.168.1.1/x'), 'a link to the local network is checked');
    assert.ok(byUrl.has('http://localhost:9000/logo.png'), 'a resource on this machine is archived');
    assert.deepEqual(final?.counts.notCrawled ?? {}, {});
  });

  it("requests the user's network from a public site when the setting allows private addresses", async () => {
    const w = world();
    w.site.route(`${P}/`, page(['http://10.0.0.1/admin'], '<img src="http://127.0.0.1/logo.png">'));
    const { byUrl } = await crawl(w, { startUrl: `${P}/`, delayMs: 10, allowPrivateAddresses: true });
    assert.ok(w.site.requestsFor('http://127.0.0.1/robots.txt').length === 1);
    assert.ok(byUrl.has('http://127.0.0.1/logo.png'));
    assert.ok(byUrl.has('http://10.0.0.1/admin'));
  });

  it("crawls a private site the user named as one of the crawl's sites, and nothing else of the network", async () => {
    const INTRANET = 'http://10.0.0.7';
    const w = world();
    w.site.route(`${P}/`, page([`${INTRANET}/wiki`, 'http://10.0.0.8/other']));
    w.site.route(`${INTRANET}/wiki`, page([]));
    const { byUrl } = await crawl(w, { startUrl: `${P}/`, delayMs: 10, extraOrigins: [INTRANET] });
    assert.equal(byUrl.get(`${INTRANET}/wiki`)?.status, 200);
    assert.deepEqual(await listed(w.store), ['http://10.0.0.8/other private-address']);
  });
});

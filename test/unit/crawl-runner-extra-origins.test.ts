import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { CrawlRunner } from '../../src/core/crawl/crawl-runner.ts';
import { validateSettings, type CrawlSettings } from '../../src/core/settings.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { FakeSite, page, type LoggedRequest } from '../support/fake-site.ts';
import { VirtualClock } from '../support/virtual-clock.ts';

const A = 'http://a.test';
const B = 'http://a.test:8081';
const C = 'https://c.test';
const NOT_NAMED = 'http://other.test';

/** Crawls to the end on a virtual clock; returns the fake web's log and the rows' URLs. */
async function crawl(site: (web: FakeSite) => void, partial: Partial<CrawlSettings> & { startUrl: string }) {
  const clock = new VirtualClock();
  const web = new FakeSite(clock);
  site(web);
  const store = new MemoryCrawlStore();
  const checked = validateSettings(partial);
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  const record = await createCrawl(store, checked.settings, { id: 'c1', now: clock.now() });
  const runner = new CrawlRunner({ store, fetcher: web, clock, runId: 'run-1', random: () => 0 });
  const final = await clock.run(runner.run(record.id, new AbortController().signal));
  const rows = await store.pagesAfter(record.id, 0, 100_000);
  return { final, web, urls: rows.map((r) => r.url).sort(), rows };
}

function ofOrigin(requests: readonly LoggedRequest[], origin: string): LoggedRequest[] {
  return requests.filter((r) => new URL(r.url).origin === origin);
}

function gaps(requests: readonly LoggedRequest[]): number[] {
  return requests.slice(1).map((r, i) => r.startedAt - (requests[i]?.endedAt ?? 0));
}

/** Three sites linked to each other, and one that no setting names. */
function threeSites(web: FakeSite): void {
  web.route(`${A}/robots.txt`, { body: 'User-agent: *\nAllow: /\n' });
  web.route(`${A}/docs/`, page(['/docs/1', '/blog/', `${B}/`, `${C}/`, `${NOT_NAMED}/`]));
  web.route(`${A}/docs/1`, page([`${B}/deep/x`]));
  web.route(`${B}/robots.txt`, { body: 'User-agent: *\nCrawl-delay: 2\nDisallow: /private/\n' });
  web.route(`${B}/`, page(['/deep/x', '/private/y', '/z', `${A}/docs/1`]));
  web.route(`${B}/deep/x`, page(['/z']));
  web.route(`${B}/z`, page([]));
  web.route(`${C}/robots.txt`, { status: 404 });
  web.route(`${C}/`, page(['/c1']));
  web.route(`${C}/c1`, page([]));
}

describe('crawl runner: extra sites (extraOrigins)', () => {
  it('crawls every named site whole and no other, the path prefix applying to the start site only', async () => {
    const { final, urls, web } = await crawl(threeSites, {
      startUrl: `${A}/docs/`,
      pathPrefix: '/docs/',
      delayMs: 100,
      extraOrigins: [B, C],
      checkExternal: false,
    });
    assert.equal(final?.state, 'finished');
    assert.deepEqual(
      urls,
      [`${A}/docs/`, `${A}/docs/1`, `${B}/`, `${B}/deep/x`, `${B}/private/y`, `${B}/z`, `${C}/`, `${C}/c1`].sort(),
    );
    assert.equal(
      web.requests.some((r) => r.url.startsWith(NOT_NAMED) || r.url === `${A}/blog/`),
      false,
    );
  });

  it("reads each site's robots.txt before anything else of it, once, and obeys it", async () => {
    const { web, rows } = await crawl(threeSites, { startUrl: `${A}/docs/`, delayMs: 100, extraOrigins: [B, C] });
    for (const origin of [A, B, C]) {
      const requests = ofOrigin(web.requests, origin);
      assert.equal(requests[0]?.url, `${origin}/robots.txt`, origin);
      assert.equal(requests.filter((r) => r.url === `${origin}/robots.txt`).length, 1, origin);
    }
    assert.equal(web.requestsFor(`${B}/private/y`).length, 0);
    assert.equal(rows.find((r) => r.url === `${B}/private/y`)?.blockedBy, 'robots');
  });

  it("spaces each site's requests by its own gap: the delay, or its own Crawl-delay", async () => {
    const { web } = await crawl(threeSites, { startUrl: `${A}/docs/`, delayMs: 100, extraOrigins: [B, C] });
    for (const gap of gaps(ofOrigin(web.requests, A))) assert.ok(gap >= 100, `${A}: gap ${gap}`);
    for (const gap of gaps(ofOrigin(web.requests, C))) assert.ok(gap >= 100, `${C}: gap ${gap}`);
    const bGaps = gaps(ofOrigin(web.requests, B));
    assert.ok(bGaps.length >= 3);
    for (const gap of bGaps) assert.ok(gap >= 2000, `${B}: gap ${gap} under its Crawl-delay`);
  });
});

describe('crawl runner: a robots.txt that redirects to another crawled site', () => {
  /**
   * B is the start site and links to A; A's robots.txt redirects to B's (as http://example.com's may to
   * https://www.example.com's). The hop is a request to B, made while B is being crawled.
   */
  function redirectedRobots(web: FakeSite): void {
    web.route(`${B}/robots.txt`, { body: 'User-agent: *\nDisallow: /private/\n', responseMs: 5 });
    web.route(`${B}/`, page([`${A}/`, '/b1', '/b2', '/private/p']));
    web.route(`${B}/b1`, page([]));
    web.route(`${B}/b2`, page([]));
    web.route(`${A}/robots.txt`, { status: 301, headers: { location: `${B}/robots.txt` }, responseMs: 5 });
    web.route(`${A}/`, page(['/a1', '/private/q']));
    web.route(`${A}/a1`, page([]));
  }

  it("requests the hop within the other site's spacing: never two requests to it closer than the delay", async () => {
    const { web, final } = await crawl(redirectedRobots, { startUrl: `${B}/`, delayMs: 1000, extraOrigins: [A] });
    assert.equal(final?.state, 'finished');
    const bRequests = ofOrigin(web.requests, B);
    assert.ok(bRequests.length >= 4, bRequests.map((r) => r.url).join(', '));
    for (const gap of gaps(bRequests))
      assert.ok(
        gap >= 1000,
        `${B}: gap ${gap} ms between ${bRequests.map((r) => `${r.url}@${r.startedAt}`).join(', ')}`,
      );
    for (const gap of gaps(ofOrigin(web.requests, A))) assert.ok(gap >= 1000, `${A}: gap ${gap}`);
  });

  it('applies the rules it redirects to to the first site; the other site read its own robots.txt once, first', async () => {
    const { web, rows } = await crawl(redirectedRobots, { startUrl: `${B}/`, delayMs: 1000, extraOrigins: [A] });
    const bRequests = ofOrigin(web.requests, B);
    assert.equal(bRequests[0]?.url, `${B}/robots.txt`);
    assert.equal(
      bRequests.filter((r) => r.url === `${B}/robots.txt`).length,
      1,
      'read once: A takes the answer B already has',
    );
    assert.equal(web.requestsFor(`${A}/private/q`).length, 0);
    assert.equal(rows.find((r) => r.url === `${A}/private/q`)?.blockedBy, 'robots');
    assert.equal(rows.find((r) => r.url === `${A}/a1`)?.status, 200);
    assert.equal(web.requestsFor(`${B}/private/p`).length, 0);
  });

  it("the other way round: the hop reads the other site's robots.txt for both, once, and both keep their spacing", async () => {
    const startAtA = (web: FakeSite): void => {
      redirectedRobots(web);
      web.route(`${A}/`, page(['/a1', '/private/q', `${B}/`]));
    };
    const { web, rows, final } = await crawl(startAtA, { startUrl: `${A}/`, delayMs: 1000, extraOrigins: [B] });
    assert.equal(final?.state, 'finished');
    const bRequests = ofOrigin(web.requests, B);
    assert.equal(bRequests[0]?.url, `${B}/robots.txt`);
    assert.equal(
      bRequests.filter((r) => r.url === `${B}/robots.txt`).length,
      1,
      bRequests.map((r) => r.url).join(', '),
    );
    for (const origin of [A, B])
      for (const gap of gaps(ofOrigin(web.requests, origin))) assert.ok(gap >= 1000, `${origin}: gap ${gap}`);
    for (const path of [`${A}/private/q`, `${B}/private/p`])
      assert.equal(rows.find((r) => r.url === path)?.blockedBy, 'robots', path);
    assert.equal(rows.find((r) => r.url === `${B}/b1`)?.status, 200);
  });
});

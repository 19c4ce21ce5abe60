/**
 * Rendered pages on the virtual clock: a page rendered runs its "script" (the fake renderer), and every
 * request the script makes is a request of the crawl: robots.txt first and once on each host, nothing
 * disallowed ever requested, the gap kept counting the crawl's own requests and the page's together, and
 * what the crawl already fetched served from the store. The rendered page's title and links become the
 * row's, the static HTML's are kept, and the links only rendering found are followed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { CrawlRunner } from '../../src/core/crawl/crawl-runner.ts';
import type { Renderer } from '../../src/core/crawl/ports.ts';
import type { CrawlSettings } from '../../src/core/settings.ts';
import { MAX_RENDER_STOPS } from '../../src/core/model.ts';
import { row, settingsFor, world, type World } from '../support/crawl-world.ts';
import { page, type LoggedRequest } from '../support/fake-site.ts';
import { ScriptedRenderer, type PageScript } from '../support/fake-renderer.ts';

const A = 'https://shop.example';
const B = 'https://api.example';
const html = (body: string) => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body });
const json = (value: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
const text = (body: string) => ({ headers: { 'content-type': 'text/plain' }, body });
const SHELL = '<!doctype html><title>Loading</title><div id="app"></div><script src="/app.js"></script>';

/** The shop: shell pages whose script fetches JSON on both hosts and writes the links and title. */
function shopWorld() {
  const w = world();
  w.site.route(`${A}/robots.txt`, text('User-agent: *\nDisallow: /private\n'));
  w.site.route(`${B}/robots.txt`, text('User-agent: *\nDisallow: /secret\n'));
  for (const path of ['/', '/p1', '/p2']) w.site.route(`${A}${path}`, html(SHELL));
  w.site.route(`${A}/about`, page(['/'], '<p>' + 'word '.repeat(400) + '</p>'));
  w.site.route(`${A}/app.js`, { headers: { 'content-type': 'text/javascript' }, body: 'render()' });
  w.site.route(`${A}/api/catalog.json`, json({ links: ['/p1', '/p2', '/about'] }));
  w.site.route(`${B}/api/product.json`, json({ name: 'Teapot' }));
  const shellScript: PageScript = async (p) => {
    await p.ask('/app.js', { type: 'script' });
    const catalog = JSON.parse(p.text(await p.ask('/api/catalog.json'))) as { links: string[] };
    const product = JSON.parse(p.text(await p.ask(`${B}/api/product.json`))) as { name: string };
    await p.ask('/private/track', { type: 'image' });
    await p.ask(`${B}/secret/pixel`, { type: 'image' });
    await p.ask('/beacon', { method: 'POST', type: 'beacon' });
    const links = catalog.links.map((href) => `<a href="${href}">${href}</a>`).join('');
    p.html = `<!doctype html><title>${product.name} shop</title><h1>${product.name}</h1>${links}`;
  };
  const scripts = new Map<string, PageScript>([
    [`${A}/`, shellScript],
    [`${A}/p1`, shellScript],
    [`${A}/p2`, shellScript],
  ]);
  return { w, renderer: new ScriptedRenderer(w.clock, scripts) };
}

async function crawlWith(
  w: World,
  renderer: Renderer | null,
  partial: Partial<CrawlSettings> & { startUrl: string },
  render: 'off' | 'auto' | 'always',
  signal = new AbortController().signal,
  runId = 'run-1',
) {
  const existing = await w.store.getCrawl('c1');
  if (existing === undefined) {
    const settings = { ...settingsFor(partial), render, renderTimeoutMs: 15_000 };
    await createCrawl(w.store, settings, { id: 'c1', now: w.clock.now() });
  }
  const runner = new CrawlRunner({ store: w.store, fetcher: w.site, clock: w.clock, runId, random: () => 0, renderer });
  const final = await w.clock.run(runner.run('c1', signal));
  const rows = await w.store.pagesAfter('c1', 0, 100_000);
  return { final, rows, byUrl: new Map(rows.map((r) => [r.url, r])) };
}

/** Requests per host, in order. */
function byHost(requests: readonly LoggedRequest[]): Map<string, LoggedRequest[]> {
  const hosts = new Map<string, LoggedRequest[]>();
  for (const r of requests) {
    const origin = new URL(r.url).origin;
    hosts.set(origin, [...(hosts.get(origin) ?? []), r]);
  }
  return hosts;
}

describe('a rendered crawl', () => {
  it('finds the links, title and requests only the scripts make, and records the static HTML beside them', async () => {
    const { w, renderer } = shopWorld();
    const { final, byUrl } = await crawlWith(w, renderer, { startUrl: `${A}/`, delayMs: 1000 }, 'always');
    assert.equal(final?.state, 'finished');
    const home = row(byUrl, `${A}/`);
    assert.equal(home.title, 'Teapot shop');
    assert.equal(home.render?.outcome, 'rendered');
    assert.equal(home.render?.why, 'always');
    assert.equal(home.render?.static?.title, 'Loading');
    assert.deepEqual(home.render?.static?.links, []);
    assert.deepEqual(home.links, [`${A}/p1`, `${A}/p2`, `${A}/about`]);
    // Found only by rendering, and followed.
    for (const path of ['/p1', '/p2', '/about']) assert.equal(row(byUrl, `${A}${path}`).status, 200);
    // What the page used is stored as its resources: the JSON on both hosts, the script.
    for (const url of [`${A}/api/catalog.json`, `${B}/api/product.json`, `${A}/app.js`]) {
      assert.equal(row(byUrl, url).status, 200, url);
      assert.ok(home.resources.includes(url), url);
    }
    assert.deepEqual(
      home.render?.refused.map((r) => [r.url, r.because]),
      [
        [`${A}/private/track`, 'robots'],
        [`${B}/secret/pixel`, 'robots'],
        [`${A}/beacon`, 'method'],
      ],
    );
    assert.ok(home.render?.sha256, 'the rendered DOM is stored');
    assert.equal(final?.counts.rendered, final?.counts.renders);
  });

  it('never requests a URL robots.txt disallows, asks robots.txt first on each host, and keeps every gap', async () => {
    const { w, renderer } = shopWorld();
    await crawlWith(w, renderer, { startUrl: `${A}/`, delayMs: 1000 }, 'always');
    const urls = w.site.requests.map((r) => r.url);
    assert.ok(!urls.some((u) => u.includes('/private') || u.includes('/secret')), urls.join('\n'));
    assert.ok(!urls.includes(`${A}/beacon`), 'a POST never leaves the page');
    for (const [origin, requests] of byHost(w.site.requests)) {
      assert.equal(requests[0]?.url, `${origin}/robots.txt`, `robots.txt first on ${origin}`);
      assert.equal(requests.filter((r) => r.url === `${origin}/robots.txt`).length, 1, `robots.txt once on ${origin}`);
      for (let i = 1; i < requests.length; i += 1) {
        const gap = (requests[i]?.startedAt ?? 0) - (requests[i - 1]?.endedAt ?? 0);
        assert.ok(gap >= 1000, `${origin}: ${requests[i]?.url} ${gap} ms after the previous request`);
      }
    }
  });

  it('serves what the crawl already fetched from the store: each URL is requested once', async () => {
    const { w, renderer } = shopWorld();
    await crawlWith(w, renderer, { startUrl: `${A}/`, delayMs: 0 }, 'always');
    const counts = new Map<string, number>();
    for (const r of w.site.requests) counts.set(r.url, (counts.get(r.url) ?? 0) + 1);
    for (const [url, n] of counts) assert.equal(n, 1, `${url} requested ${n} times`);
    assert.deepEqual(renderer.rendered.sort(), [`${A}/`, `${A}/about`, `${A}/p1`, `${A}/p2`]);
  });

  it('renders under auto only the shells, not a static page of words and links', async () => {
    const { w, renderer } = shopWorld();
    const { byUrl } = await crawlWith(w, renderer, { startUrl: `${A}/`, delayMs: 0 }, 'auto');
    assert.match(row(byUrl, `${A}/`).render?.why ?? '', /^auto: an empty #app/);
    assert.equal(row(byUrl, `${A}/about`).render, undefined);
    assert.ok(!renderer.rendered.includes(`${A}/about`));
  });

  it('does what it always did with rendering off: the shell alone, nothing rendered', async () => {
    const { w, renderer } = shopWorld();
    const { byUrl, final } = await crawlWith(w, renderer, { startUrl: `${A}/`, delayMs: 0 }, 'off');
    assert.deepEqual([...byUrl.keys()], [`${A}/`, `${A}/app.js`]);
    assert.equal(row(byUrl, `${A}/`).render, undefined);
    assert.deepEqual(renderer.rendered, []);
    assert.equal(final?.counts.renders, undefined);
  });

  it('records a page as not rendered when the browser cannot render, and the crawl still finishes', async () => {
    const { w } = shopWorld();
    const { final, byUrl } = await crawlWith(w, null, { startUrl: `${A}/`, delayMs: 0 }, 'always');
    assert.equal(final?.state, 'finished');
    const home = row(byUrl, `${A}/`);
    assert.equal(home.render?.outcome, 'unavailable');
    assert.equal(home.title, 'Loading', 'the static facts stay');
  });

  it('renders a page again after a stop mid-render, without requesting its document again', async () => {
    const { w, renderer } = shopWorld();
    renderer.hang.add(`${A}/`);
    const stop = new AbortController();
    const first = crawlWith(w, renderer, { startUrl: `${A}/`, delayMs: 0 }, 'always', stop.signal);
    await w.clock.run(
      (async () => {
        while (!renderer.rendered.includes(`${A}/`)) await w.clock.sleep(50);
      })(),
    );
    stop.abort();
    await first;
    renderer.hang.delete(`${A}/`);
    const { final, byUrl } = await crawlWith(
      w,
      renderer,
      { startUrl: `${A}/`, delayMs: 0 },
      'always',
      undefined,
      'run-2',
    );
    assert.equal(final?.state, 'finished');
    assert.equal(row(byUrl, `${A}/`).title, 'Teapot shop');
    assert.equal(renderer.rendered.filter((u) => u === `${A}/`).length, 2);
    assert.equal(w.site.requestsFor(`${A}/`).length, 1);
  });

  it('renders a page again when the renderer stops by itself (Firefox suspending its event page), not recording the stop', async () => {
    const { w, renderer } = shopWorld();
    // The first render of the home page ends `stopped` without the crawl stopping, as Firefox's renderer does
    // when the event page is being suspended and the suspension is then cancelled (render-suspension.ts).
    let stopsLeft = 1;
    const stoppedOnce: Renderer = {
      render: (job) => {
        if (job.url === `${A}/` && stopsLeft > 0) {
          stopsLeft -= 1;
          return Promise.resolve({ ok: false, code: 'stopped', message: 'Firefox suspended the event page' });
        }
        return renderer.render(job);
      },
    };
    const { final, byUrl } = await crawlWith(w, stoppedOnce, { startUrl: `${A}/`, delayMs: 0 }, 'always');
    assert.equal(final?.state, 'finished');
    const home = row(byUrl, `${A}/`);
    assert.equal(home.render?.outcome, 'rendered');
    assert.equal(home.title, 'Teapot shop');
    assert.equal(final?.counts.rendered, final?.counts.renders, 'every queued render recorded once');
  });

  it('gives a page up when the renderer stops by itself every time, after the attempts allowed', async () => {
    const { w } = shopWorld();
    let calls = 0;
    const alwaysStopped: Renderer = {
      render: () => {
        calls += 1;
        return Promise.resolve({ ok: false, code: 'stopped', message: 'Firefox suspended the event page' });
      },
    };
    const { final, byUrl } = await crawlWith(w, alwaysStopped, { startUrl: `${A}/`, delayMs: 0 }, 'always');
    assert.equal(final?.state, 'finished');
    assert.equal(row(byUrl, `${A}/`).render?.outcome, 'failed');
    assert.equal(row(byUrl, `${A}/`).render?.message, `the browser stopped its render ${MAX_RENDER_STOPS} times`);
    // The shell's links come only from its render: the home page is the one page, tried as often as allowed.
    // A stop is not a cut-short attempt (a suspension Firefox cancels stops the render, the page living on).
    assert.equal(calls, MAX_RENDER_STOPS, 'rendered as often as allowed, no more');
  });

  it('bounds a page that polls forever by the render cap, and the crawl goes on', async () => {
    const w = world();
    w.site.route(`${A}/`, html(SHELL));
    w.site.route(`${A}/api/poll`, json({ n: 1 }));
    let polls = 0;
    const renderer = new ScriptedRenderer(
      w.clock,
      new Map<string, PageScript>([
        [
          `${A}/`,
          async (p) => {
            for (;;) {
              await p.ask('/api/poll');
              polls += 1;
              await p.sleep(200);
            }
          },
        ],
      ]),
    );
    const started = w.clock.now();
    const { final, byUrl } = await crawlWith(w, renderer, { startUrl: `${A}/`, delayMs: 0 }, 'always');
    assert.equal(final?.state, 'finished');
    assert.equal(row(byUrl, `${A}/`).render?.capped, true);
    assert.ok(w.clock.now() - started < 30_000, 'the crawl ended soon after the cap');
    // Fetched once: every later poll is answered from the store.
    assert.equal(w.site.requestsFor(`${A}/api/poll`).length, 1);
    assert.ok(polls > 10);
  });

  it("refuses a URL robots.txt disallows at once when its host's robots.txt is read, not on the host's next turn", async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, text('User-agent: *\nDisallow: /private\n'));
    w.site.route(`${A}/`, html(SHELL));
    const waited: number[] = [];
    const renderer = new ScriptedRenderer(
      w.clock,
      new Map<string, PageScript>([
        [
          `${A}/`,
          async (p) => {
            const asked = w.clock.now();
            const served = await p.ask('/private/track', { type: 'image' });
            waited.push(w.clock.now() - asked);
            assert.deepEqual(served, { kind: 'refused', because: 'robots' });
          },
        ],
      ]),
    );
    const { byUrl } = await crawlWith(w, renderer, { startUrl: `${A}/`, delayMs: 10_000 }, 'always');
    // A gap of 10 s: a refusal that waited for the host's turn would have waited seconds.
    assert.equal(waited.length, 1);
    assert.ok((waited[0] ?? Infinity) < 1000, `waited ${waited[0]} ms`);
    assert.equal(w.site.requestsFor(`${A}/private/track`).length, 0);
    const blocked = row(byUrl, `${A}/private/track`);
    assert.equal(blocked.blockedBy, 'robots', 'still recorded blocked');
  });
});

/**
 * Rendered pages with a renderer that answers through the network (Firefox's kind: it holds and cancels the
 * tab's requests but cannot hand it bytes), on the virtual clock: the tab's own request is the crawl's. A URL
 * the crawl fetches while the page waits is one request, shared by the crawl and the page; a URL the crawl
 * already held (the page's document) is asked again, on its host's turn. Every request counts on its host's
 * clock: robots.txt first and once, nothing disallowed, no gap under the delay.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { CrawlRunner } from '../../src/core/crawl/crawl-runner.ts';
import type { Renderer, RenderJob, RenderOutcome } from '../../src/core/crawl/ports.ts';
import type { CrawlSettings } from '../../src/core/settings.ts';
import { row, settingsFor, world } from '../support/crawl-world.ts';
import type { PageScript } from '../support/fake-renderer.ts';
import { NetworkScriptedRenderer } from '../support/fake-network-renderer.ts';
import type { LoggedRequest } from '../support/fake-site.ts';

const A = 'https://shop.example';
const B = 'https://api.example';
const html = (body: string) => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body });
const json = (value: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
const text = (body: string) => ({ headers: { 'content-type': 'text/plain' }, body });
const SHELL = '<!doctype html><title>Loading</title><div id="app"></div><script src="/app.js"></script>';

function shop(w = world()) {
  w.site.route(`${A}/robots.txt`, text('User-agent: *\nDisallow: /private\n'));
  w.site.route(`${B}/robots.txt`, text('User-agent: *\nDisallow: /secret\n'));
  for (const path of ['/', '/p1']) w.site.route(`${A}${path}`, html(SHELL));
  w.site.route(`${A}/app.js`, { headers: { 'content-type': 'text/javascript' }, body: 'render()' });
  w.site.route(`${A}/api/catalog.json`, json({ links: ['/p1'] }));
  w.site.route(`${B}/api/product.json`, json({ name: 'Teapot' }));
  const script: PageScript = async (p) => {
    await p.ask('/app.js', { type: 'script' });
    const catalog = JSON.parse(p.text(await p.ask('/api/catalog.json'))) as { links: string[] };
    const product = JSON.parse(p.text(await p.ask(`${B}/api/product.json`))) as { name: string };
    await p.ask('/private/track', { type: 'image' });
    await p.ask(`${B}/secret/pixel`, { type: 'image' });
    const links = catalog.links.map((href) => `<a href="${href}">${href}</a>`).join('');
    p.html = `<!doctype html><title>${product.name} shop</title>${links}`;
  };
  const renderer = new NetworkScriptedRenderer(
    w.clock,
    w.site,
    new Map([
      [`${A}/`, script],
      [`${A}/p1`, script],
    ]),
  );
  return { w, renderer };
}

async function crawlShop(delayMs: number) {
  const { w, renderer } = shop();
  const settings: CrawlSettings = { ...settingsFor({ startUrl: `${A}/`, delayMs }), render: 'always' };
  await createCrawl(w.store, settings, { id: 'c1', now: w.clock.now() });
  const runner = new CrawlRunner({
    store: w.store,
    fetcher: renderer.fetcher,
    clock: w.clock,
    runId: 'run-1',
    random: () => 0,
    renderer,
  });
  const final = await w.clock.run(runner.run('c1', new AbortController().signal));
  const rows = await w.store.pagesAfter('c1', 0, 100_000);
  const hosts = await w.store.listHosts('c1');
  return { w, renderer, final, hosts, byUrl: new Map(rows.map((r) => [r.url, r])) };
}

function byHost(requests: readonly LoggedRequest[]): Map<string, LoggedRequest[]> {
  const hosts = new Map<string, LoggedRequest[]>();
  for (const r of requests) hosts.set(new URL(r.url).origin, [...(hosts.get(new URL(r.url).origin) ?? []), r]);
  return hosts;
}

describe('a rendered crawl with a renderer that answers through the network', () => {
  it('reads the rendered page and stores what its scripts fetched, through the tabs own requests', async () => {
    const { w, final, byUrl } = await crawlShop(1000);
    assert.equal(final?.state, 'finished');
    const home = row(byUrl, `${A}/`);
    assert.equal(home.title, 'Teapot shop');
    assert.equal(home.render?.outcome, 'rendered');
    assert.equal(row(byUrl, `${A}/p1`).status, 200, 'the link only rendering found is followed');
    for (const url of [`${A}/api/catalog.json`, `${B}/api/product.json`]) {
      assert.equal(row(byUrl, url).status, 200, url);
      assert.ok(home.resources.includes(url), url);
      // One request per page that used it (two pages), each the tab's: the first also the crawl's fetch.
      assert.equal(w.site.requestsFor(url).length, 2, url);
    }
  });

  it('asks a URL the crawl held again only on its host turn, and ends every turn it gave', async () => {
    const { w, renderer, hosts } = await crawlShop(1000);
    // The document: the crawl's fetch, then the tab's (each page once).
    assert.equal(w.site.requestsFor(`${A}/`).length, 2);
    assert.equal(w.site.requestsFor(`${A}/p1`).length, 2);
    assert.ok(renderer.goes >= 2);
    assert.equal(renderer.ended, renderer.goes);
    for (const host of hosts) assert.equal(host.inFlight, null, `${host.origin} left in flight`);
  });

  for (const delayMs of [1000, 0]) {
    it(`keeps robots.txt first and once, never a disallowed URL, and every gap of ${delayMs} ms, the tab's requests counted`, async () => {
      const { w } = await crawlShop(delayMs);
      const urls = w.site.requests.map((r) => r.url);
      assert.ok(!urls.some((u) => u.includes('/private') || u.includes('/secret')), urls.join('\n'));
      for (const [origin, requests] of byHost(w.site.requests)) {
        assert.equal(requests[0]?.url, `${origin}/robots.txt`, `robots.txt first on ${origin}`);
        assert.equal(requests.filter((r) => r.url === `${origin}/robots.txt`).length, 1);
        for (let i = 1; i < requests.length; i += 1) {
          const previous = requests[i - 1];
          const current = requests[i];
          assert.ok(previous !== undefined && current !== undefined);
          assert.ok(
            current.startedAt >= previous.endedAt,
            `${origin}: ${current.url} began before ${previous.url} ended`,
          );
          assert.ok(current.startedAt - previous.endedAt >= delayMs, `${origin}: ${current.url} too soon`);
        }
      }
    });
  }

  it('ends a turn the renderer never ended when the crawl stops, and the next run finishes', async () => {
    const { w } = shop();
    let turns = 0;
    const stuck: Renderer = {
      answers: 'network',
      render: async (job): Promise<RenderOutcome> => {
        const served = await job.serve({ url: job.url, method: 'GET', type: 'document', navigation: false });
        if (served.kind === 'go') turns += 1;
        // The tab's request never ends: only the stop ends the render.
        await new Promise((resolve) => job.signal.addEventListener('abort', resolve));
        return { ok: false, code: 'stopped', message: 'stopped' };
      },
    };
    const settings: CrawlSettings = { ...settingsFor({ startUrl: `${A}/`, delayMs: 1000 }), render: 'always' };
    await createCrawl(w.store, settings, { id: 'c1', now: w.clock.now() });
    const stop = new AbortController();
    const runner = new CrawlRunner({ store: w.store, fetcher: w.site, clock: w.clock, runId: 'r1', renderer: stuck });
    const running = w.clock.run(
      (async () => {
        const run = runner.run('c1', stop.signal);
        while (turns === 0) await w.clock.sleep(100);
        stop.abort();
        return run;
      })(),
    );
    await running;
    for (const host of await w.store.listHosts('c1'))
      assert.equal(host.inFlight, null, `${host.origin} left in flight`);
    const { renderer } = shop(w);
    const again = new CrawlRunner({ store: w.store, fetcher: w.site, clock: w.clock, runId: 'r2', renderer });
    const final = await w.clock.run(again.run('c1', new AbortController().signal));
    assert.equal(final?.state, 'finished');
  });

  it("hands a host with a long queue over to a rendered page's document: one gap's wait, not the queue's", async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, text(''));
    const pages = Array.from({ length: 20 }, (_, i) => `/p${i}`);
    w.site.route(`${A}/`, html(`<title>Home</title>${pages.map((p) => `<a href="${p}">${p}</a>`).join('')}`));
    for (const path of pages) w.site.route(`${A}${path}`, html(`<title>${path}</title>`));
    const network = new NetworkScriptedRenderer(w.clock, w.site, new Map());
    /** How long (ms) each page's render waited for its document's answer. */
    const waits = new Map<string, number>();
    const renderer: Renderer = {
      answers: 'network',
      render: (job: RenderJob) => {
        const began = w.clock.now();
        const serve: RenderJob['serve'] = async (request) => {
          const served = await job.serve(request);
          if (request.url === job.url) waits.set(job.url, w.clock.now() - began);
          return served;
        };
        return network.render({ ...job, serve });
      },
    };
    const delayMs = 1000;
    const settings: CrawlSettings = { ...settingsFor({ startUrl: `${A}/`, delayMs }), render: 'always' };
    await createCrawl(w.store, settings, { id: 'c1', now: w.clock.now() });
    const runner = new CrawlRunner({ store: w.store, fetcher: network.fetcher, clock: w.clock, runId: 'r1', renderer });
    const final = await w.clock.run(runner.run('c1', new AbortController().signal));
    assert.equal(final?.state, 'finished');
    const rows = new Map((await w.store.pagesAfter('c1', 0, 1000)).map((r) => [r.url, r]));
    for (const url of [`${A}/`, ...pages.map((p) => `${A}${p}`)]) {
      assert.equal(row(rows, url).render?.outcome, 'rendered', url);
      // Before the fix, the home page's document waited for all 20 pages (20 s) and its render timed out.
      assert.ok((waits.get(url) ?? Infinity) <= 2 * delayMs, `${url} waited ${waits.get(url)} ms`);
    }
    const requests = w.site.requests;
    for (let i = 1; i < requests.length; i += 1) {
      const [previous, current] = [requests[i - 1], requests[i]];
      assert.ok(previous !== undefined && current !== undefined);
      assert.ok(current.startedAt - previous.endedAt >= delayMs, `${current.url} too soon after ${previous.url}`);
    }
  });

  const cases = [
    { how: 'cut', serverMs: null, says: 'as no response time: the host waits its delay, not an adaptive 60 s' },
    { how: 'answered', serverMs: null, says: 'as a response time: the host waits its adaptive gap' },
    {
      how: 'answered',
      serverMs: 20,
      says: "by the server's own 20 ms when the renderer saw it: the host waits its delay",
    },
  ] as const;
  for (const { how, serverMs, says } of cases) {
    it(`counts a turn ended ${how} after 10 s ${says}`, async () => {
      const w = world();
      w.site.route(`${A}/robots.txt`, text(''));
      w.site.route(`${A}/`, html('<title>Home</title><a href="/p1">p1</a>'));
      w.site.route(`${A}/p1`, html('<title>p1</title>'));
      let endedAt = 0;
      const renderer: Renderer = {
        answers: 'network',
        render: async (job): Promise<RenderOutcome> => {
          const served = await job.serve({ url: job.url, method: 'GET', type: 'document', navigation: false });
          if (served.kind === 'go' && job.url === `${A}/`) {
            // A request under way for 10 s (a long poll), then ended: by the render's end, or by its response.
            await w.clock.sleep(10_000);
            endedAt = w.clock.now();
            await served.ended(how, serverMs);
          } else if (served.kind === 'go') await served.ended();
          return { ok: false, code: 'failed', message: 'not read' };
        },
      };
      const delayMs = 1000;
      const settings: CrawlSettings = { ...settingsFor({ startUrl: `${A}/`, delayMs }), render: 'always' };
      await createCrawl(w.store, settings, { id: 'c1', now: w.clock.now() });
      const runner = new CrawlRunner({ store: w.store, fetcher: w.site, clock: w.clock, runId: 'r1', renderer });
      await w.clock.run(runner.run('c1', new AbortController().signal));
      const after = w.site.requests.filter((r) => r.startedAt >= endedAt && endedAt > 0);
      assert.ok(after.length > 0, 'a request after the turn');
      const wait = (after[0]?.startedAt ?? 0) - endedAt;
      if (how === 'cut' || serverMs !== null) assert.ok(wait >= delayMs && wait < 2 * delayMs, `waited ${wait} ms`);
      else assert.ok(wait >= 60_000, `waited ${wait} ms: 10 s answers give the capped adaptive gap`);
    });
  }
});

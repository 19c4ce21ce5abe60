import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import robotsParser from 'robots-parser';
import { startRenderedSite, type RenderedSite } from '../support/rendered-site.ts';
import {
  generateRenderedBench,
  renderedBenchData,
  renderedBenchKind,
  renderedBenchPath,
} from '../support/rendered-bench-site.ts';

async function get(url: string): Promise<{ status: number; type: string; headers: Headers; text: string }> {
  const response = await fetch(url);
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type') ?? '', headers: response.headers, text };
}

const hrefs = (html: string): string[] => [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1] ?? '');

describe('the client-rendered shop', () => {
  let site: RenderedSite;
  before(async () => {
    site = await startRenderedSite();
  });
  after(() => site.close());

  it('has 17 shells and one static page, every page reachable from / once rendered', () => {
    assert.equal(site.pages.length, 18);
    assert.equal(site.pages[0]?.url, site.startUrl);
    assert.deepEqual(
      site.pages.filter((page) => !page.isShell).map((page) => page.path),
      ['/about'],
    );
    const seen = new Set([site.startUrl]);
    const queue = [site.startUrl];
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      for (const link of site.page(url)?.links ?? []) if (!seen.has(link) && seen.add(link)) queue.push(link);
    }
    assert.deepEqual([...seen].sort(), site.pages.map((page) => page.url).sort());
  });

  it('serves shells titled Loading with an empty mount point, the script, a noscript notice and no links but /about on /', async () => {
    for (const page of site.pages.filter((p) => p.isShell)) {
      const { status, text } = await get(page.url);
      assert.equal(status, 200, page.path);
      assert.match(text, /<title>Loading<\/title>/, page.path);
      assert.match(text, /<div id="app" data-page="[^"]*"><\/div>/, page.path);
      assert.match(text, /<script src="\/app\.js" defer><\/script>/, page.path);
      assert.match(text, /<noscript>/, page.path);
      assert.deepEqual(
        hrefs(text).map((href) => new URL(href, page.url).href),
        page.staticLinks,
        page.path,
      );
    }
  });

  it('serves /about as plain HTML with the title, description, links and text the tests expect', async () => {
    const about = site.page(`${site.shop.origin}/about`);
    assert.ok(about !== undefined);
    const { text } = await get(about.url);
    assert.ok(text.includes(`<title>${about.title}</title>`));
    assert.ok(text.includes(`content="${about.description}"`));
    assert.ok(text.includes(about.text));
    assert.ok(!text.includes('<script'));
    assert.deepEqual(
      hrefs(text).map((href) => new URL(href, about.url).href),
      about.links,
    );
  });

  it('gives the script what it writes: the catalog for the expected links, the product JSON (with CORS) for the title', async () => {
    const catalog = JSON.parse((await get(`${site.shop.origin}/api/catalog.json`)).text) as {
      pages: Record<string, { title: string; links: { href: string }[]; product: number | null }>;
    };
    for (const page of site.pages.filter((p) => p.isShell)) {
      const view = catalog.pages[page.path];
      assert.ok(view !== undefined, page.path);
      const written = view.links.map((link) => new URL(link.href, page.url).href);
      assert.deepEqual([...written, ...page.staticLinks], page.links, page.path);
      if (view.product === null) {
        assert.equal(view.title, page.title, page.path);
        continue;
      }
      const product = await get(`${site.api.origin}/api/product-${view.product}.json`);
      assert.equal(product.headers.get('access-control-allow-origin'), '*');
      const data = JSON.parse(product.text) as { name: string; description: string; text: string };
      assert.equal(`${data.name} · Rendered Shop`, page.title);
      assert.deepEqual([data.description, data.name, data.text], [page.description, page.h1, page.text]);
    }
  });

  it('serves the script naming the API host, the stylesheet, the disallowed URLs and the poll it asks for', async () => {
    const app = await get(`${site.shop.origin}/app.js`);
    assert.match(app.type, /javascript/);
    for (const needle of [site.api.origin, '/style.css', '/private/track', '/secret/pixel', '/api/poll', '200'])
      assert.ok(app.text.includes(needle), needle);
    assert.match((await get(`${site.shop.origin}/style.css`)).type, /text\/css/);
  });

  it('disallows in robots.txt exactly the URLs the script asks for on each host, and nothing a page uses', async () => {
    const robots = {
      shop: robotsParser(`${site.shop.origin}/robots.txt`, (await get(`${site.shop.origin}/robots.txt`)).text),
      api: robotsParser(`${site.api.origin}/robots.txt`, (await get(`${site.api.origin}/robots.txt`)).text),
    };
    for (const url of site.disallowed.shop) assert.equal(robots.shop.isAllowed(url, 'Tabcrawl'), false, url);
    for (const url of site.disallowed.api) assert.equal(robots.api.isAllowed(url, 'Tabcrawl'), false, url);
    assert.equal(robots.shop.isAllowed(`${site.shop.origin}/api/private/orders`, 'Tabcrawl'), false);
    for (const url of [...site.pages.map((p) => p.url), ...site.pages.flatMap((p) => p.uses), site.pollUrl]) {
      const host = url.startsWith(site.shop.origin) ? robots.shop : robots.api;
      assert.equal(host.isAllowed(url, 'Tabcrawl'), true, url);
    }
  });

  it('serves every used URL, images as real PNGs, and the bytes it lists in bodies', async () => {
    for (const url of new Set(site.pages.flatMap((p) => p.uses))) {
      const response = await fetch(url);
      assert.equal(response.status, 200, url);
      const bytes = Buffer.from(await response.arrayBuffer());
      assert.deepEqual(bytes, site.bodies.get(url), url);
      if (url.endsWith('.png')) assert.ok(PNG.sync.read(bytes).width > 0, url);
    }
  });

  it('answers the poll with a new tick each time, not to be cached, and logs the disallowed requests made', async () => {
    const first = await get(site.pollUrl);
    const second = await get(site.pollUrl);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    const tick = (text: string): number => (JSON.parse(text) as { tick: number }).tick;
    assert.equal(tick(second.text), tick(first.text) + 1);
    const before = site.disallowedRequests().length;
    await get(site.disallowed.api[0] ?? '');
    assert.equal(site.disallowedRequests().length, before + 1);
    assert.ok(site.logs.api.every((r) => r.endedAt === null || r.endedAt >= r.startedAt));
  });
});

describe('the rendered bench site', () => {
  it('serves n shells whose JSON links reach every page, and a robots.txt that disallows what each script asks for', async () => {
    const bench = await generateRenderedBench(30);
    try {
      const seen = new Set([0]);
      const queue = [0];
      for (let k = queue.shift(); k !== undefined; k = queue.shift()) {
        const data = renderedBenchData(k, 30);
        assert.equal(data.links.length, 12);
        for (const path of data.links) {
          const n = path === '/' ? 0 : Number(path.split('/').pop());
          if (seen.has(n)) continue;
          seen.add(n);
          queue.push(n);
        }
      }
      assert.equal(seen.size, 30);
      const shell = await get(`${bench.site.origin}${renderedBenchPath(29)}`);
      assert.match(shell.text, /<div id="app" data-page="29"><\/div>/);
      assert.deepEqual(hrefs(shell.text), []);
      assert.equal((await get(`${bench.site.origin}/page/30`)).status, 404);
      const data = await get(`${bench.site.origin}/data/29.json`);
      assert.deepEqual(JSON.parse(data.text), renderedBenchData(29, 30));
      const app = await get(`${bench.site.origin}/app.js`);
      assert.ok(app.text.includes("'/track?page='"));
      const robots = robotsParser(
        `${bench.site.origin}/robots.txt`,
        (await get(`${bench.site.origin}/robots.txt`)).text,
      );
      assert.equal(robots.isAllowed(`${bench.site.origin}/track?page=3`, 'Tabcrawl'), false);
      assert.equal(robots.isAllowed(`${bench.site.origin}/data/3.json`, 'Tabcrawl'), true);
      assert.equal(bench.pagesServed(), 1);
      assert.deepEqual(bench.disallowedRequests(), []);
      assert.deepEqual(
        ['/', '/page/3', '/app.js', '/data/3.json', '/track?page=3', '/robots.txt', '/x'].map(renderedBenchKind),
        ['page', 'page', 'script', 'data', 'disallowed', 'robots', 'other'],
      );
    } finally {
      await bench.close();
    }
  });
});

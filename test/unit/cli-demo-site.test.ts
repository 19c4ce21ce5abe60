import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startDemoSite, type DemoSite } from '../../src/shells/cli/demo-site.ts';

let site: DemoSite;
before(async () => {
  site = await startDemoSite();
});
after(async () => {
  await site.close();
});

const get = (path: string) => fetch(`${site.origin}${path}`, { redirect: 'manual' });

function linksOf(html: string): string[] {
  return [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1] ?? '');
}

/** Every page reachable by links from the home page, by path, with its status. */
async function walk(): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  const queue = ['/'];
  for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
    if (seen.has(path)) continue;
    const res = await get(path);
    seen.set(path, res.status);
    const type = res.headers.get('content-type') ?? '';
    const body = await res.text();
    if (type.startsWith('text/html')) queue.push(...linksOf(body).filter((l) => !seen.has(l)));
  }
  return seen;
}

describe('startDemoSite', () => {
  test('starts at the home page of its own origin', () => {
    assert.equal(site.startUrl, `${site.origin}/`);
  });

  test('serves about fifteen linked HTML pages', async () => {
    const pages = await walk();
    const ok = [...pages].filter(([, status]) => status === 200);
    assert.ok(ok.length >= 14, `only ${ok.length} pages`);
  });

  test('has a robots.txt with a blocked folder, a crawl delay and a sitemap', async () => {
    const robots = await (await get('/robots.txt')).text();
    assert.match(robots, /^User-agent: \*$/m);
    assert.match(robots, /^Disallow: \/private\/$/m);
    assert.match(robots, /^Crawl-delay: 0\.2$/m);
    assert.ok(robots.includes(`Sitemap: ${site.origin}/sitemap.xml`));
  });

  test('lists in its sitemap a page that no page links to', async () => {
    const sitemap = await (await get('/sitemap.xml')).text();
    assert.ok(sitemap.includes(`<loc>${site.origin}/seasonal</loc>`));
    const linked = await walk();
    assert.equal(linked.has('/seasonal'), false);
    assert.equal((await get('/seasonal')).status, 200);
  });

  test('redirects /old-about to /about with a 301', async () => {
    const res = await get('/old-about');
    assert.equal(res.status, 301);
    assert.equal(res.headers.get('location'), '/about');
  });

  test('links to a missing page, a blocked page and a PDF', async () => {
    const pages = await walk();
    assert.equal(pages.get('/blog/lost-post'), 404);
    assert.ok(pages.has('/private/secret'));
    const pdf = await get('/menu.pdf');
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    assert.match(Buffer.from(await pdf.arrayBuffer()).toString('latin1'), /^%PDF-/);
  });

  test('serves a page in windows-1252 declared only by its meta tag', async () => {
    const res = await get('/docs/legacy');
    assert.equal(res.headers.get('content-type'), 'text/html');
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.ok(bytes.includes(Buffer.from('<meta charset="windows-1252">')));
    // " – 2,50 €" in windows-1252 (Node 20's TextDecoder decodes windows-1252 as Latin-1, so compare bytes).
    assert.ok(bytes.includes(Buffer.from([0x20, 0x96, 0x20, 0x32, 0x2c, 0x35, 0x30, 0x20, 0x80])));
    assert.ok(bytes.includes(Buffer.from('caf\xe9', 'latin1')), 'é is byte 0xe9');
    assert.equal(bytes.includes(Buffer.from('€', 'utf8')), false, 'no UTF-8 left in the page');
  });

  test('styles every page with a stylesheet that imports another and loads an image, and misses one image', async () => {
    const home = await (await get('/')).text();
    assert.ok(home.includes('<link rel="stylesheet" href="/assets/site.css">'));
    assert.ok(home.includes('<img src="/assets/logo.svg"'));
    const css = await (await get('/assets/site.css')).text();
    assert.match(css, /@import "type\.css"/);
    assert.match(css, /url\(crust\.svg\)/);
    for (const path of ['/assets/type.css', '/assets/crust.svg', '/assets/logo.svg'])
      assert.equal((await get(path)).status, 200, path);
    assert.ok((await (await get('/blog/first-loaf')).text()).includes('/assets/first-loaf.jpg'));
    assert.equal((await get('/assets/first-loaf.jpg')).status, 404);
  });
});

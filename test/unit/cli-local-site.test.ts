import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, describe, test } from 'node:test';
import { startLocalSite, type LocalSite } from '../../src/shells/cli/local-site.ts';

const sites: LocalSite[] = [];
after(async () => {
  await Promise.all(sites.map((site) => site.close()));
});

async function start(...args: Parameters<typeof startLocalSite>): Promise<LocalSite> {
  const site = await startLocalSite(...args);
  sites.push(site);
  return site;
}

describe('startLocalSite', () => {
  test('serves a static route with its status, headers and body', async () => {
    const site = await start({
      '/a': { status: 201, headers: { 'content-type': 'text/plain', 'x-test': 'yes' }, body: 'hello' },
    });
    const res = await fetch(`${site.origin}/a`);
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('x-test'), 'yes');
    assert.equal(res.headers.get('content-length'), '5');
    assert.equal(await res.text(), 'hello');
  });

  test('serves bytes as given', async () => {
    const site = await start({
      '/b': { headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array([0, 0xe9, 0xff]) },
    });
    const res = await fetch(`${site.origin}/b`);
    assert.deepEqual(new Uint8Array(await res.arrayBuffer()), new Uint8Array([0, 0xe9, 0xff]));
  });

  test('matches the exact path and query', async () => {
    const site = await start({ '/q?x=1': { body: 'one' } });
    assert.equal((await fetch(`${site.origin}/q?x=1`)).status, 200);
    assert.equal((await fetch(`${site.origin}/q?x=2`)).status, 404);
    assert.equal((await fetch(`${site.origin}/q`)).status, 404);
  });

  test('answers unknown paths with 404', async () => {
    const site = await start({ '/': { body: 'home' } });
    const res = await fetch(`${site.origin}/nope`);
    assert.equal(res.status, 404);
    await res.arrayBuffer();
  });

  test('runs a handler route', async () => {
    const site = await start({
      '/h': (req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`you asked for ${req.url ?? ''}`);
      },
    });
    assert.equal(await (await fetch(`${site.origin}/h`)).text(), 'you asked for /h');
  });

  test('matches function matchers in order', async () => {
    const site = await start([
      [(path: string) => path.startsWith('/blog/'), { body: 'blog' }],
      [() => true, { body: 'anything' }],
    ]);
    assert.equal(await (await fetch(`${site.origin}/blog/x`)).text(), 'blog');
    assert.equal(await (await fetch(`${site.origin}/other?y`)).text(), 'anything');
  });

  test('gives routes built from a function the site origin', async () => {
    const site = await start((origin) => ({ '/robots.txt': { body: `Sitemap: ${origin}/sitemap.xml` } }));
    assert.equal(await (await fetch(`${site.origin}/robots.txt`)).text(), `Sitemap: ${site.origin}/sitemap.xml`);
  });

  test('answers 500 when a handler throws', async () => {
    const site = await start({
      '/boom': () => {
        throw new Error('boom');
      },
    });
    const res = await fetch(`${site.origin}/boom`);
    assert.equal(res.status, 500);
    await res.arrayBuffer();
  });

  test('sends no body to HEAD', async () => {
    const site = await start({ '/a': { body: 'hello' } });
    const res = await fetch(`${site.origin}/a`, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '');
  });

  test('logs each request with method, path, user agent and times', async () => {
    const site = await start({ '/slow?x=1': { body: 'ok', delayMs: 60 } });
    const before = performance.timeOrigin + performance.now();
    const res = await fetch(`${site.origin}/slow?x=1`, { headers: { 'user-agent': 'tabcrawl-test/1.0' } });
    await res.text();
    const afterDone = performance.timeOrigin + performance.now();
    assert.equal(site.requests.length, 1);
    const [entry] = site.requests;
    assert.ok(entry);
    assert.equal(entry.method, 'GET');
    assert.equal(entry.url, '/slow?x=1');
    assert.equal(entry.userAgent, 'tabcrawl-test/1.0');
    assert.ok(entry.startedAt >= before && entry.startedAt <= afterDone);
    assert.ok(
      entry.endedAt !== null && entry.endedAt - entry.startedAt >= 50,
      `endedAt ${entry.endedAt} startedAt ${entry.startedAt}`,
    );
    assert.ok(entry.endedAt !== null && entry.endedAt <= afterDone);
  });

  test('logs a missing user agent as null and unknown paths too', async () => {
    const site = await start({});
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${site.origin}/x`, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
    assert.deepEqual(
      site.requests.map((r) => [r.method, r.url, r.userAgent]),
      [['GET', '/x', null]],
    );
  });

  test('runs several sites at once on different ports', async () => {
    const a = await start({ '/': { body: 'a' } });
    const b = await start({ '/': { body: 'b' } });
    assert.notEqual(a.origin, b.origin);
    assert.match(a.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    const [ta, tb] = await Promise.all([
      fetch(`${a.origin}/`).then((r) => r.text()),
      fetch(`${b.origin}/`).then((r) => r.text()),
    ]);
    assert.equal(ta, 'a');
    assert.equal(tb, 'b');
    assert.equal(a.requests.length, 1);
    assert.equal(b.requests.length, 1);
  });

  test('close stops listening even with keep-alive connections open', async () => {
    const site = await startLocalSite({ '/': { body: 'x' } });
    await (await fetch(`${site.origin}/`)).text(); // leaves a keep-alive socket in fetch's pool
    await site.close();
    await site.close();
    await assert.rejects(fetch(`${site.origin}/`));
  });
});

/**
 * A crawl cannot be aimed at the user's network (issue 27, item 8), in the built extension: a page on a
 * public-looking host (`public.example`, which Chromium's host resolver maps to 127.0.0.1) names a
 * loopback address and a name that resolves to one; the server behind them logs every request. From the
 * public start, the loopback URLs are never asked for (not even robots.txt), the name that resolves to
 * another loopback address (127.0.0.2) gets its robots.txt asked and nothing more, and all are listed as
 * not crawled; a name answering from the start site's own address (as every host behind the user's proxy
 * does) is checked as usual; from a loopback start, the same page's loopback URLs are asked for.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import { startLocalSite, type LocalSite } from '../../src/shells/cli/local-site.ts';
import { RESULTS_PAGE_PATH } from '../../src/messaging/routes.ts';
import { crawlToEnd, exportRows, launch } from './helpers.ts';

const html = (body: string) => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`,
});

describe("a crawl cannot be aimed at the user's network", () => {
  /** The user's network: a server on loopback that must not be asked from a public crawl. */
  let secret: LocalSite;
  /** What `sneaky.example` resolves to (127.0.0.2: loopback under a public-looking name, not the start's address). */
  let sneaky: LocalSite;
  /** What `cdn.example` resolves to: the start site's own address, as a proxy's is for every host behind it. */
  let cdn: LocalSite;
  let site: LocalSite;
  let session: ExtensionSession;

  before(async () => {
    secret = await startLocalSite({
      '/secret': html('the router'),
      '/secret.png': { headers: { 'content-type': 'image/png' }, body: 'png' },
    });
    sneaky = await startLocalSite({ '/admin': html('admin') }, { host: '127.0.0.2' });
    cdn = await startLocalSite({ '/doc': html('doc') });
    const sneakyPort = new URL(sneaky.origin).port;
    site = await startLocalSite({
      '/': html(
        `<img src="${secret.origin}/secret.png"><a href="${secret.origin}/secret">router</a><a href="http://sneaky.example:${sneakyPort}/admin">admin</a><a href="http://cdn.example:${new URL(cdn.origin).port}/doc">doc</a><a href="/two">two</a>`,
      ),
      '/two': html('<a href="/">home</a>'),
    });
    session = await launch([
      '--host-resolver-rules=MAP public.example 127.0.0.1, MAP sneaky.example 127.0.0.2, MAP cdn.example 127.0.0.1',
    ]);
  });

  after(async () => {
    await session?.close();
    await Promise.all([secret?.close(), sneaky?.close(), cdn?.close(), site?.close()]);
  });

  it('never asks a loopback address a public page names, asks a name that resolves to one its robots.txt only, and lists them as not crawled', async () => {
    const start = `http://public.example:${new URL(site.origin).port}/`;
    const crawl = await crawlToEnd(session, { startUrl: start, delayMs: 50 });
    assert.equal(crawl.state, 'finished', crawl.message ?? '');
    assert.deepEqual(secret.requests, [], 'nothing asked of the loopback server');
    assert.deepEqual(
      sneaky.requests.map((r) => r.url),
      ['/robots.txt'],
      'the public-looking name: its robots.txt, then nothing',
    );
    assert.equal(cdn.requests[0]?.url, '/robots.txt', "the start site's own address (a proxy's): robots.txt first");
    assert.ok(
      cdn.requests.some((r) => r.url === '/doc'),
      'and the link checked as usual',
    );
    const rows = await exportRows(session, crawl.id);
    assert.ok(
      rows.some((r) => r.url === `${start}two`),
      'the public site is crawled',
    );
    assert.deepEqual(crawl.counts.notCrawled, { 'private-address': 3 });

    const page = await session.openPage(`${RESULTS_PAGE_PATH}?crawl=${crawl.id}`);
    await page.getByTestId('tab-not-crawled').click();
    const row = page.locator(`[data-testid="not-crawled-row"][data-url="${secret.origin}/secret"]`);
    await row.waitFor({ timeout: 10_000 });
    assert.match(await row.innerText(), /not checked: private address/);
    await page.close();
  });

  it('asks the loopback addresses the same page names when the crawl starts on loopback', async () => {
    const crawl = await crawlToEnd(session, { startUrl: `${site.origin}/`, delayMs: 50 });
    assert.equal(crawl.state, 'finished', crawl.message ?? '');
    const asked = secret.requests.map((r) => r.url);
    assert.ok(asked.includes('/secret.png'), asked.join(', '));
    assert.ok(asked.includes('/secret'), asked.join(', '));
    assert.equal(crawl.counts.notCrawled?.['private-address'], undefined);
  });
});

/**
 * A crawl cannot be aimed at the user's network (issue 27, item 8), in the Firefox build: as
 * `private-address.test.ts` in Chromium. Firefox's `network.dns.localDomains` resolves `public.example`
 * to loopback (127.0.0.1) and `network.dns.forceResolve` every other name to 127.0.0.2 (checked here:
 * the local domains win), so `sneaky.example` answers from a private address that is not the start
 * site's. The loopback server is never asked; the name that resolves to 127.0.0.2 is asked its
 * robots.txt only (Firefox's `webRequest` reports the address it answered from).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FirefoxSession } from '../../src/shells/cli/firefox-driver.ts';
import { startLocalSite, type LocalSite } from '../../src/shells/cli/local-site.ts';
import { launchFirefox } from './firefox-helpers.ts';
import { crawlToEnd } from './helpers.ts';

const html = (body: string) => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`,
});

describe("a crawl cannot be aimed at the user's network, in Firefox", () => {
  let secret: LocalSite;
  let sneaky: LocalSite;
  let site: LocalSite;
  let session: FirefoxSession;

  before(async () => {
    secret = await startLocalSite({
      '/secret': html('the router'),
      '/secret.png': { headers: { 'content-type': 'image/png' }, body: 'png' },
    });
    sneaky = await startLocalSite({ '/admin': html('admin') }, { host: '127.0.0.2' });
    site = await startLocalSite({
      '/': html(
        `<img src="${secret.origin}/secret.png"><a href="${secret.origin}/secret">router</a><a href="http://sneaky.example:${new URL(sneaky.origin).port}/admin">admin</a><a href="/two">two</a>`,
      ),
      '/two': html('<a href="/">home</a>'),
    });
    session = await launchFirefox({
      'network.dns.localDomains': 'public.example',
      'network.dns.forceResolve': '127.0.0.2',
    });
  });

  after(async () => {
    await session?.close();
    await Promise.all([secret?.close(), sneaky?.close(), site?.close()]);
  });

  it('never asks a loopback address a public page names, and asks a name that resolves to one its robots.txt only', async () => {
    const crawl = await crawlToEnd(session, {
      startUrl: `http://public.example:${new URL(site.origin).port}/`,
      delayMs: 50,
    });
    assert.equal(crawl.state, 'finished', crawl.message ?? '');
    assert.deepEqual(secret.requests, [], 'nothing asked of the loopback server');
    assert.deepEqual(
      sneaky.requests.map((r) => r.url),
      ['/robots.txt'],
    );
    assert.deepEqual(crawl.counts.notCrawled, { 'private-address': 3 });
  });
});

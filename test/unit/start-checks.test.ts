/**
 * What the background checks before it starts or resumes a crawl (bad input,
 * host access, a second crawl of a site), and which fetcher a crawl gets
 * (cookies only when asked for), through the message handlers as the popup
 * and the CLI reach them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CrawlManager } from '../../src/shells/background/crawl-manager.ts';
import { createHandlers, dispatch } from '../../src/shells/background/message-handlers.ts';
import type { CrawlSettings } from '../../src/core/settings.ts';
import type { MessageOf, RequestType } from '../../src/messaging/protocol.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { FakeSite, page } from '../support/fake-site.ts';
import { VirtualClock } from '../support/virtual-clock.ts';

const A = 'http://a.test';

interface Options {
  /** The answer of `hasHostAccess`; records the patterns asked. */
  access?: boolean;
  /** Give the manager a session fetcher. @default true */
  withSessionFetcher?: boolean;
}

function background(options: Options = {}) {
  const clock = new VirtualClock();
  const site = new FakeSite(clock);
  const sessionSite = new FakeSite(clock);
  const store = new MemoryCrawlStore();
  const asked: string[][] = [];
  let access = options.access ?? true;
  let ids = 0;
  const manager = new CrawlManager({
    store,
    fetcher: site,
    ...(options.withSessionFetcher === false ? {} : { sessionFetcher: sessionSite }),
    hasHostAccess: (patterns) => {
      asked.push(patterns);
      return Promise.resolve(access);
    },
    clock,
    runId: 'run',
    newId: () => `crawl-${++ids}`,
    onActiveChange: () => undefined,
  });
  const handlers = createHandlers(store, manager, clock);
  const send = <K extends RequestType>(message: MessageOf<K>) => dispatch(handlers, message);
  const start = (settings: Partial<CrawlSettings> & { startUrl: string }) =>
    send({ type: 'crawl/start', payload: { settings } });
  const settle = async (crawlId: string) =>
    clock.run(
      (async () => {
        while ((await store.getCrawl(crawlId))?.state === 'running') await clock.sleep(100);
      })(),
    );
  return {
    clock,
    site,
    sessionSite,
    store,
    send,
    start,
    settle,
    asked,
    setAccess: (value: boolean) => (access = value),
  };
}

describe('start checks', () => {
  it('refuses every kind of bad start URL with a message on the start URL, storing nothing', async () => {
    const bg = background();
    for (const startUrl of [
      'chrome://extensions/',
      'file:///etc/passwd',
      'about:blank',
      'https://chromewebstore.google.com/',
      'https://chrome.google.com/webstore',
      'example.com',
      'http://',
      '',
    ]) {
      const reply = await bg.start({ startUrl });
      assert.equal(reply.ok ? null : reply.error.code, 'invalid-settings', startUrl);
      assert.equal(reply.ok ? null : reply.error.fields?.[0]?.field, 'startUrl', startUrl);
    }
    assert.equal((await bg.store.listCrawls()).length, 0);
    assert.equal(bg.site.requests.length, 0);
  });

  it('refuses a crawl of a site Chrome gives Tabcrawl no access to, naming the site and storing nothing', async () => {
    const bg = background({ access: false });
    const reply = await bg.start({ startUrl: `${A}/`, includeSubdomains: true });
    assert.equal(reply.ok ? null : reply.error.code, 'permission-needed');
    assert.match(reply.ok ? '' : reply.error.message, /no access to http:\/\/a\.test/);
    assert.deepEqual(bg.asked, [['http://a.test/*', 'http://*.a.test/*', 'https://a.test/*', 'https://*.a.test/*']]);
    assert.equal((await bg.store.listCrawls()).length, 0);
    assert.equal(bg.site.requests.length, 0);
  });

  it('refuses to resume a crawl once access to its site is withdrawn, leaving it paused', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page(['/1', '/2']));
    const started = await bg.start({ startUrl: `${A}/`, delayMs: 5000 });
    assert.ok(started.ok);
    if (!started.ok) return;
    const crawlId = started.value.crawl.id;
    await bg.send({ type: 'crawl/pause', payload: { crawlId } });
    bg.setAccess(false);
    const resumed = await bg.send({ type: 'crawl/resume', payload: { crawlId } });
    assert.equal(resumed.ok ? null : resumed.error.code, 'permission-needed');
    assert.equal((await bg.store.getCrawl(crawlId))?.state, 'paused');
    await bg.send({ type: 'crawl/stop', payload: { crawlId } });
    await bg.settle(crawlId);
  });

  it('starts only one of two crawls of one site requested at the same moment', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page([]));
    const replies = await Promise.all([bg.start({ startUrl: `${A}/` }), bg.start({ startUrl: `${A}/other` })]);
    assert.deepEqual(replies.map((r) => (r.ok ? 'started' : r.error.code)).sort(), ['already-running', 'started']);
    assert.equal((await bg.store.listCrawls()).length, 1);
    const [crawl] = await bg.store.listCrawls();
    if (crawl) await bg.settle(crawl.id);
  });

  it('tells which crawl is in the way of a second crawl of a site', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page([]));
    const first = await bg.start({ startUrl: `${A}/` });
    const second = await bg.start({ startUrl: `${A}/docs/` });
    assert.equal(
      second.ok ? null : second.error.message,
      'http://a.test is already being crawled; stop that crawl first',
    );
    assert.equal(second.ok ? null : second.error.crawlId, first.ok ? first.value.crawl.id : 'none');
    assert.equal((await bg.store.listCrawls()).length, 1);
    if (first.ok) await bg.settle(first.value.crawl.id);
  });

  it('refuses a crawl that may request a site another running crawl may: an extra site, a subdomain', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page([]));
    const first = await bg.start({ startUrl: `${A}/`, extraOrigins: ['http://b.test'] });
    const second = await bg.start({ startUrl: 'http://b.test/' });
    assert.equal(second.ok ? null : second.error.code, 'already-running');
    assert.equal(
      second.ok ? null : second.error.message,
      'http://b.test is already being crawled (by the crawl of http://a.test/); stop that crawl first',
    );
    assert.equal(
      second.ok ? null : second.error.crawlId,
      first.ok ? first.value.crawl.id : 'none',
      'the refusal names the crawl in the way, for the popup to follow or stop',
    );
    const third = await bg.start({ startUrl: 'http://www.a.test/', includeSubdomains: true });
    assert.equal(
      third.ok ? null : third.error.message,
      'http://a.test is already being crawled (by the crawl of http://a.test/); stop that crawl first',
    );
    const apart = await bg.start({ startUrl: 'http://c.test/' });
    assert.equal(apart.ok, true, 'a crawl of a site no running crawl may request starts');
    assert.equal((await bg.store.listCrawls()).length, 2);
    for (const started of [first, apart]) if (started.ok) await bg.settle(started.value.crawl.id);
  });

  it('crawls without cookies through the cookie-free fetcher, and with cookies only through the session fetcher', async () => {
    const bg = background();
    for (const site of [bg.site, bg.sessionSite]) site.route(`${A}/`, page(['/a']));
    const plain = await bg.start({ startUrl: `${A}/` });
    assert.ok(plain.ok);
    if (plain.ok) await bg.settle(plain.value.crawl.id);
    assert.ok(bg.site.requests.length > 0);
    assert.equal(bg.sessionSite.requests.length, 0);

    const before = bg.site.requests.length;
    const session = await bg.start({ startUrl: `${A}/`, withCookies: true });
    assert.ok(session.ok);
    if (session.ok) await bg.settle(session.value.crawl.id);
    assert.equal(bg.site.requests.length, before);
    assert.ok(bg.sessionSite.requests.length > 0);
  });

  it('never requests a logout or delete link in a crawl with cookies, and records the guard with the crawl', async () => {
    const bg = background();
    bg.sessionSite.route(
      `${A}/`,
      page(['/account', '/logout', '/items/1/delete', '/SignOut', '/newsletter/unsubscribe']),
    );
    bg.sessionSite.route(`${A}/account`, page(['/']));
    const started = await bg.start({ startUrl: `${A}/`, withCookies: true });
    assert.ok(started.ok);
    if (!started.ok) return;
    await bg.settle(started.value.crawl.id);
    const requested = bg.sessionSite.requests.map((r) => new URL(r.url).pathname).sort();
    assert.deepEqual(requested, ['/', '/account', '/robots.txt']);
    assert.ok(started.value.crawl.settings.excludePatterns.includes('*logout*'));
  });

  it('refuses a crawl with cookies when the worker cannot send them, rather than crawl without', async () => {
    const bg = background({ withSessionFetcher: false });
    const reply = await bg.start({ startUrl: `${A}/`, withCookies: true });
    assert.equal(reply.ok ? null : reply.error.fields?.[0]?.field, 'withCookies');
    assert.equal((await bg.store.listCrawls()).length, 0);
  });

  it('refuses a crawl that renders every page where the browser cannot render, saying why, and stores nothing', async () => {
    const bg = background();
    const reply = await bg.start({ startUrl: `${A}/`, render: 'always' });
    assert.equal(reply.ok ? null : reply.error.fields?.[0]?.field, 'render');
    assert.match(reply.ok ? '' : reply.error.message, /no way to render pages.*Render pages auto or off/);
    assert.equal((await bg.store.listCrawls()).length, 0);
  });

  it('crawls with auto (the default) and off where the browser cannot render: each page read as fetched', async () => {
    const bg = background();
    for (const render of ['auto', 'off', undefined] as const) {
      const reply = await bg.start({ startUrl: `${A}/`, ...(render === undefined ? {} : { render }) });
      assert.ok(reply.ok, render);
      if (reply.ok) {
        assert.equal(reply.value.crawl.settings.render, render ?? 'auto');
        await bg.settle(reply.value.crawl.id);
      }
    }
  });
});

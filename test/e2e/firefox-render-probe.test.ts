/**
 * What Firefox ESR lets an add-on do with the requests of a page it renders (issue 29): the facts
 * behind docs/rendering-firefox.md, checked from the local servers' logs. A probe add-on
 * (`firefox-render-probe-addon.ts`) renders the pages of `firefox-render-probe-site.ts` (two
 * ports, two hosts) in a background tab, holding every request of the tab in a blocking
 * `webRequest.onBeforeRequest` listener and answering it as each test's plan says.
 *
 * The issue's guarantees need a request to be answered with the crawl's bytes at its own URL,
 * without reaching the server. These tests show what Firefox offers instead: holding and cancelling
 * work; answering from bytes exists only as a redirect to a `data:` URL, which a document cannot
 * take and which changes what the page sees; replacing a body (`filterResponseData`) needs the
 * request to reach the server. If one of them starts failing, Firefox changed: read the doc again.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { findFirefox } from '../../src/shells/cli/firefox.ts';
import { launchFirefoxExtension, type FirefoxSession } from '../../src/shells/cli/firefox-driver.ts';
import { startLocalSite, type LocalSite } from '../../src/shells/cli/local-site.ts';
import { writeProbeAddon, type ProbePlan, type ProbeResult } from './firefox-render-probe-addon.ts';
import { HOST_B, PNG, hostA } from './firefox-render-probe-site.ts';

const PLAN: ProbePlan = { doc: 'pass', sub: 'pass', refuse: ['/refused.json'], holdMs: 0, capMs: 8000 };

describe("what Firefox lets an add-on do with a rendered page's requests", () => {
  let a: LocalSite;
  let b: LocalSite;
  let addonDir: string;
  let session: FirefoxSession;

  before(async () => {
    b = await startLocalSite(HOST_B);
    a = await startLocalSite(hostA(b.origin));
    addonDir = writeProbeAddon();
    session = await launchFirefoxExtension({ distDir: addonDir, firefoxPath: findFirefox(process.env) });
  });

  after(async () => {
    await session?.close();
    await Promise.all([a?.close(), b?.close()]);
    if (addonDir !== undefined) rmSync(addonDir, { recursive: true, force: true });
  });

  /** Renders `path` of host A with `plan`, after clearing both servers' logs. */
  async function render(path: string, plan: Partial<ProbePlan>): Promise<ProbeResult> {
    a.requests.length = 0;
    b.requests.length = 0;
    const args = `${JSON.stringify(a.origin + path)}, ${JSON.stringify({ ...PLAN, ...plan })}`;
    return (await session.driverPage.evaluate(
      `browser.runtime.getBackgroundPage().then((page) => page.probeRender(${args}))`,
    )) as ProbeResult;
  }

  const serverPaths = (site: LocalSite): string[] => site.requests.map((r) => r.url);
  const count = (site: LocalSite, path: string): number => serverPaths(site).filter((p) => p === path).length;

  it('holds each request of the tab until the listener answers, and a cancelled one never reaches the server', async () => {
    const holdMs = 400;
    const result = await render('/shell.html', { holdMs, userAgent: 'TabcrawlRenderProbe/1' });
    assert.equal(result.tabUrl, `${a.origin}/shell.html`);
    for (const request of [...a.requests, ...b.requests]) {
      const seen = result.seen.find((s) => s.url.endsWith(request.url));
      assert.ok(seen !== undefined, `${request.url} was seen by the listener`);
      // Same machine clock; 5 ms for the rounding of Date.now().
      assert.ok(request.startedAt >= seen.at + holdMs - 5, `${request.url} reached the server after the hold`);
      assert.equal(request.userAgent, 'TabcrawlRenderProbe/1', 'onBeforeSendHeaders set the User-Agent');
    }
    assert.equal(count(a, '/refused.json'), 0);
    assert.match(String(result.out?.['refused']), /^error: TypeError: NetworkError/);
    // Let through, the page works as on the web: the baseline the other answers are measured against.
    assert.deepEqual(result.out?.['crossFetch'], { url: `${b.origin}/cross.json`, body: '{"b":2}' });
    assert.equal(result.out?.['module'], 42);
    assert.equal(result.out?.['cssRules'], 2);
    assert.ok(serverPaths(a).includes('/bg.png'), 'the stylesheet asked for its relative url(bg.png)');
    assert.deepEqual(result.scriptErrors.toSorted(), [
      `Error: thrown by the page @ ${a.origin}/app.js`,
      'rejection: Error: rejected by the page',
    ]);
    const types = new Set(result.seen.map((s) => s.type));
    for (const type of ['main_frame', 'stylesheet', 'script', 'image', 'xmlhttprequest'])
      assert.ok(types.has(type), type);
  });

  it('cannot answer a document from bytes: a main frame redirected to a data: URL leaves the tab on about:blank', async () => {
    const result = await render('/shell.html', { doc: 'data', sub: 'data', capMs: 3000 });
    assert.equal(result.tabUrl, 'about:blank');
    assert.equal(result.out, null);
    assert.deepEqual(serverPaths(a), ['/shell.html'], "only the add-on's own fetch of the page");
  });

  it('answers subresources from bytes through data: URLs, but the page sees data: URLs, cross-host reads fail and relative URLs inside them are never asked', async () => {
    const result = await render('/shell.html', { sub: 'data' });
    const out = result.out ?? {};
    // What works: scripts run, styles apply, images decode, same-host fetch and XHR read the bytes.
    assert.equal(out['color'], 'rgb(1, 2, 3)');
    assert.equal(out['img'], 1);
    assert.equal(out['addedImg'], 1);
    assert.equal(out['addedCss'], 'rgb(4, 5, 6)');
    assert.equal((out['fetch'] as { body: string }).body, '{"a":1}');
    assert.equal((out['xhr'] as { body: string }).body, '{"x":1}');
    // What the page sees differently.
    assert.match((out['fetch'] as { url: string }).url, /^data:application\/json;base64,/);
    assert.match((out['xhr'] as { url: string }).url, /^data:/);
    assert.match(String(out['crossFetch']), /^error: TypeError: NetworkError/);
    assert.match(String(out['cssRules']), /SecurityError/);
    assert.match(String(out['module']), /^error: TypeError/);
    // The page's error names the script's own URL; its unhandled rejection is not reported at all.
    assert.deepEqual(result.scriptErrors, [`Error: thrown by the page @ ${a.origin}/app.js`]);
    assert.ok(
      !result.seen.some((s) => /\/(bg\.png|module\.js)$/.test(s.url)),
      'relative URLs in data: bodies are never asked',
    );
    // Nothing reached a server but the add-on's own fetches (and the document, let through).
    const fetchedByAddon = result.seen.filter((s) => s.action === 'data' || s.action === 'pass').length;
    assert.equal(a.requests.length + b.requests.length, fetchedByAddon);
  });

  it('does not load a request redirected to a blob: URL of the add-on', async () => {
    const result = await render('/shell.html', { sub: 'blob', capMs: 3000 });
    assert.equal(result.out, null, 'app.js never ran');
    assert.ok(result.errors.some((e) => e.url.endsWith('/app.js') && e.error === 'NS_ERROR_DOM_BAD_URI'));
  });

  it("sends the page's own request to the server when filterResponseData replaces its body", async () => {
    // The tab's requests carry their own User-Agent: the page reads the add-on's bytes, not its own answer.
    const result = await render('/shell.html', { doc: 'filter', sub: 'filter', userAgent: 'TabcrawlTab/1' });
    const agents = a.requests.filter((r) => r.url === '/who.json').map((r) => r.userAgent);
    assert.equal(agents.length, 2);
    assert.ok(agents.includes('TabcrawlTab/1'), "the tab's own request reached the server");
    assert.notEqual((result.out?.['who'] as { ua: string }).ua, 'TabcrawlTab/1');
    assert.deepEqual(result.out?.['fetch'], { url: `${a.origin}/data.json`, body: '{"a":1}' });
    assert.equal(count(a, '/shell.html'), 2, "the add-on's fetch, then the tab's");
    assert.equal(count(a, '/data.json'), 2);
    assert.equal(count(b, '/cross.json'), 2);
  });

  it("copies the bytes of each request it lets through, so the tab's own request can be the crawl's only one", async () => {
    const result = await render('/shell.html', { doc: 'capture', sub: 'capture' });
    const dataJson = result.seen.find((s) => s.url.endsWith('/data.json'));
    assert.deepEqual([dataJson?.status, dataJson?.captured], [200, '{"a":1}']);
    const cross = result.seen.find((s) => s.url.endsWith('/cross.json'));
    assert.deepEqual([cross?.status, cross?.captured], [200, '{"b":2}']);
    assert.equal(result.seen.find((s) => s.url.endsWith('/img.png'))?.captured, String(PNG.length));
    assert.match(String(result.seen.find((s) => s.type === 'main_frame')?.captured), /<title>shell<\/title>/);
    // The page works as on the web; each request reaching a server is one the listener let through, once.
    // (Fewer may reach it: the browser's cache answers some, e.g. a favicon an earlier render fetched.)
    assert.deepEqual(result.out?.['crossFetch'], { url: `${b.origin}/cross.json`, body: '{"b":2}' });
    assert.equal(result.out?.['module'], 42);
    const letThrough = result.seen.filter((s) => s.action === 'capture').map((s) => s.url);
    for (const [site, paths] of [a, b].map((s) => [s, serverPaths(s)] as const)) {
      assert.equal(new Set(paths).size, paths.length, 'no URL twice');
      for (const path of paths) assert.ok(letThrough.includes(site.origin + path), path);
    }
  });

  it("lets a request through to the server when the listener's promise rejects", async () => {
    const result = await render('/shell.html', { sub: 'reject' });
    assert.equal(count(a, '/data.json'), 1);
    assert.deepEqual(result.out?.['fetch'], { url: `${a.origin}/data.json`, body: '{"a":1}' });
  });

  it('does not load a worker answered with a data: URL, holds the page navigating itself, and sees a window the page opens and its service worker outside the tab', async () => {
    const result = await render('/outside.html', { sub: 'data', refuse: ['/socket', '/elsewhere.html'] });
    const tabId = result.seen.find((s) => s.type === 'main_frame')?.tabId;
    assert.match(String(result.out?.['worker']), /^error/);
    assert.ok(result.errors.some((e) => e.url.endsWith('/worker.js') && e.error === 'NS_ERROR_DOM_BAD_URI'));
    const beacon = result.seen.find((s) => s.url.endsWith('/beacon'));
    assert.deepEqual([beacon?.type, beacon?.method], ['beacon', 'POST']);
    const socket = result.seen.find((s) => s.url.endsWith('/socket'));
    assert.deepEqual([socket?.type, socket?.action], ['websocket', 'cancel']);
    assert.equal(count(a, '/socket'), 0);
    const away = result.seen.find((s) => s.url.endsWith('/elsewhere.html'));
    assert.deepEqual([away?.type, away?.tabId, away?.action], ['main_frame', tabId, 'cancel']);
    assert.equal(count(a, '/elsewhere.html'), 0);
    assert.equal(result.tabUrl, `${a.origin}/outside.html`, 'the tab stayed on the page');
    const opened = result.seen.find((s) => s.url.endsWith('/opened.html'));
    assert.ok(opened !== undefined && opened.action === 'outside' && opened.tabId > 0 && opened.tabId !== tabId);
    const worker = result.seen.find((s) => s.url.endsWith('/sw.js'));
    assert.ok(worker !== undefined && worker.action === 'outside' && worker.tabId === -1);
    assert.ok(serverPaths(a).includes('/opened.html') && serverPaths(a).includes('/sw.js'), 'both reached the server');
  });
});

/**
 * The Firefox renderer's pure decisions (`firefox-request-rules.ts`) and the hand-over of a render tab's
 * held request to the crawl's fetch (`tab-request-fetcher.ts`), with a fake held request and fetcher.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FetchOutcome, FetchRequest, Fetcher } from '../../src/core/crawl/ports.ts';
import {
  isTabIconRequest,
  joinChunks,
  outcomeOfCopy,
  outsideRequestAction,
  pageRequestTypeOf,
  requestHeadersForTab,
  responseHeadersForTab,
  storedHeadersOf,
  withoutFragment,
  type CopiedResponse,
} from '../../src/shells/background/adapters/firefox-request-rules.ts';
import { DOCUMENT_POLICY, WORKER_POLICY } from '../../src/shells/background/adapters/page-guards.ts';
import { HeldRequests, withTabRequests } from '../../src/shells/background/adapters/tab-request-fetcher.ts';

describe('Firefox request rules', () => {
  it("names Firefox's request types as the port does", () => {
    assert.equal(pageRequestTypeOf('main_frame'), 'document');
    assert.equal(pageRequestTypeOf('sub_frame'), 'document');
    assert.equal(pageRequestTypeOf('xmlhttprequest'), 'fetch');
    assert.equal(pageRequestTypeOf('imageset'), 'image');
    assert.equal(pageRequestTypeOf('ping'), 'beacon');
    assert.equal(pageRequestTypeOf('beacon'), 'beacon');
    assert.equal(pageRequestTypeOf('websocket'), 'websocket');
    assert.equal(pageRequestTypeOf('web_manifest'), 'manifest');
    for (const other of ['object', 'speculative', 'other', 'toString', '__proto__']) {
      assert.equal(pageRequestTypeOf(other), 'other', other);
    }
  });

  it("tells the browser's request for the tab's icon", () => {
    assert.equal(isTabIconRequest('image', 'http://a.test/favicon.ico'), true);
    assert.equal(isTabIconRequest('image', 'http://a.test/favicon.ico?v=2'), true);
    assert.equal(isTabIconRequest('image', 'http://a.test/img/favicon.ico'), false);
    assert.equal(isTabIconRequest('xmlhttprequest', 'http://a.test/favicon.ico'), false);
    assert.equal(isTabIconRequest('image', 'not a url'), false);
  });

  it('drops the fragment only', () => {
    assert.equal(withoutFragment('http://a.test/p?q=1#top'), 'http://a.test/p?q=1');
    assert.equal(withoutFragment('http://a.test/p'), 'http://a.test/p');
  });

  it("cancels a service worker's request of the rendered origin and every request of an opened tab, nothing else", () => {
    const origin = 'http://127.0.0.1:8000';
    const none = new Set<number>();
    const sw = { tabId: -1, type: 'script', originUrl: `${origin}/page.html`, documentUrl: undefined };
    assert.equal(outsideRequestAction(sw, origin, none), 'cancel');
    assert.equal(
      outsideRequestAction({ tabId: -1, type: 'xmlhttprequest', documentUrl: origin }, origin, none),
      'cancel',
    );
    // The crawl's own fetches come from the add-on's page; another port is another origin.
    const own = {
      tabId: -1,
      type: 'xmlhttprequest',
      originUrl: 'moz-extension://uuid/_generated_background_page.html',
    };
    assert.equal(outsideRequestAction(own, origin, none), 'ignore');
    assert.equal(
      outsideRequestAction({ tabId: -1, type: 'script', originUrl: `${origin}0/x` }, origin, none),
      'ignore',
    );
    // The user's own tab on the same site is left alone; a tab the render opened is not.
    const user = { tabId: 7, type: 'main_frame', originUrl: `${origin}/page.html` };
    assert.equal(outsideRequestAction(user, origin, none), 'ignore');
    assert.equal(outsideRequestAction(user, origin, new Set([7])), 'cancel');
  });

  it("sends the crawl's User-Agent and no cookie or authorization", () => {
    const sent = requestHeadersForTab(
      [
        { name: 'Accept', value: '*/*' },
        { name: 'User-Agent', value: 'Firefox' },
        { name: 'Cookie', value: 'session=1' },
        { name: 'authorization', value: 'Basic x' },
      ],
      'tabcrawl/1',
    );
    assert.deepEqual(sent, [
      { name: 'Accept', value: '*/*' },
      { name: 'User-Agent', value: 'tabcrawl/1' },
    ]);
  });

  it('gives the tab no Set-Cookie, and the guard policy on documents and scripts', () => {
    const served = [
      { name: 'Content-Type', value: 'text/html' },
      { name: 'Set-Cookie', value: 'a=1' },
      { name: 'Strict-Transport-Security', value: 'max-age=1' },
    ];
    assert.deepEqual(responseHeadersForTab(served, 'main_frame'), [
      { name: 'Content-Type', value: 'text/html' },
      { name: 'Content-Security-Policy', value: DOCUMENT_POLICY },
    ]);
    assert.equal(responseHeadersForTab(served, 'sub_frame').at(-1)?.value, DOCUMENT_POLICY);
    assert.equal(responseHeadersForTab(served, 'script').at(-1)?.value, WORKER_POLICY);
    assert.deepEqual(responseHeadersForTab(served, 'image'), [{ name: 'Content-Type', value: 'text/html' }]);
    assert.match(DOCUMENT_POLICY, /^sandbox allow-scripts allow-same-origin allow-forms;/);
  });

  it('stores header names lower-cased, in order, a missing value as empty', () => {
    assert.deepEqual(storedHeadersOf([{ name: 'Content-Type', value: 'a' }, { name: 'X-Empty' }]), [
      ['content-type', 'a'],
      ['x-empty', ''],
    ]);
  });

  it('joins copied chunks up to a limit, telling a cut', () => {
    const chunks = [new Uint8Array([1, 2, 3]), new Uint8Array([4, 5])];
    assert.deepEqual(joinChunks(chunks, 10), { bytes: new Uint8Array([1, 2, 3, 4, 5]), truncated: false });
    assert.deepEqual(joinChunks(chunks, 4), { bytes: new Uint8Array([1, 2, 3, 4]), truncated: true });
    assert.deepEqual(joinChunks(chunks, 0), { bytes: new Uint8Array(0), truncated: true });
  });

  it('reports a copied 3xx with its Location resolved and no body, and a page with its body', () => {
    const copy: CopiedResponse = {
      status: 301,
      headers: [['location', '../b?x=1']],
      statusLine: 'HTTP/1.1 301 Moved Permanently',
      requestHeaders: [['user-agent', 'tabcrawl/1']],
      ipAddress: '127.0.0.1',
      serverMs: 4,
      body: new Uint8Array([1]),
      truncated: true,
      startedAt: 10,
      endedAt: 20,
    };
    const redirect = outcomeOfCopy(copy, 'http://a.test/dir/page');
    assert.ok(redirect.ok);
    assert.equal(redirect.location, 'http://a.test/b?x=1');
    assert.equal(redirect.body, null);
    assert.equal(redirect.truncated, false);
    assert.deepEqual(redirect.wire, {
      statusLine: 'HTTP/1.1 301 Moved Permanently',
      requestHeaders: [['user-agent', 'tabcrawl/1']],
      ipAddress: '127.0.0.1',
      serverMs: 4,
    });
    const page = outcomeOfCopy({ ...copy, status: 200, headers: [['location', 'x']] }, 'http://a.test/');
    assert.ok(page.ok);
    assert.equal(page.location, null);
    assert.deepEqual(page.body, new Uint8Array([1]));
    assert.equal(page.truncated, true);
    const bad = outcomeOfCopy({ ...copy, headers: [['location', 'http://[']] }, 'http://a.test/');
    assert.ok(bad.ok);
    assert.equal(bad.location, null);
  });
});

describe('a held request as the crawl fetch', () => {
  const outcome = (status: number): FetchOutcome => ({
    ok: true,
    status,
    headers: [],
    location: null,
    body: null,
    truncated: false,
    wire: null,
    startedAt: 0,
    endedAt: 1,
  });
  const request = (url: string, method: 'GET' | 'HEAD' = 'GET'): FetchRequest => ({
    url,
    method,
    timeoutMs: 1000,
    bodyLimit: () => 100,
  });
  const counting = (): Fetcher & { urls: string[] } => {
    const urls: string[] = [];
    return {
      urls,
      fetch: async (r) => {
        urls.push(r.url);
        return outcome(299);
      },
    };
  };

  it('releases the oldest request held for the URL (matched as the crawl normalizes it) instead of fetching, once', async () => {
    const held = new HeldRequests();
    const released: string[] = [];
    held.offer('HTTP://A.test:80/x.json', { release: async () => (released.push('first'), outcome(200)) });
    held.offer('http://a.test/x.json', { release: async () => (released.push('second'), outcome(201)) });
    const inner = counting();
    const fetcher = withTabRequests(inner, held);
    const first = await fetcher.fetch(request('http://a.test/x.json'));
    assert.ok(first.ok && first.status === 200);
    assert.deepEqual(released, ['first']);
    assert.equal(held.size, 1);
    assert.deepEqual(inner.urls, []);
  });

  it('fetches itself when nothing is held, for a HEAD, or when the held request can no longer go', async () => {
    const held = new HeldRequests();
    const inner = counting();
    const fetcher = withTabRequests(inner, held);
    await fetcher.fetch(request('http://a.test/none'));
    held.offer('http://a.test/head', { release: async () => outcome(200) });
    await fetcher.fetch(request('http://a.test/head', 'HEAD'));
    assert.equal(held.size, 1, 'a HEAD takes no held request');
    held.offer('http://a.test/gone', { release: async () => null });
    const gone = await fetcher.fetch(request('http://a.test/gone'));
    assert.ok(gone.ok && gone.status === 299);
    assert.deepEqual(inner.urls, ['http://a.test/none', 'http://a.test/head', 'http://a.test/gone']);
  });

  it('withdraws an offer, twice without harm', () => {
    const held = new HeldRequests();
    const withdraw = held.offer('http://a.test/x', { release: async () => outcome(200) });
    withdraw();
    withdraw();
    assert.equal(held.size, 0);
    assert.equal(held.take('http://a.test/x'), undefined);
  });
});

/**
 * The few places where Chrome's and Firefox's extension APIs differ, as the
 * background's adapters read them (src/shells/background/adapters/browser-differences.ts),
 * and the CLI's search for a Firefox.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  WEB_REQUEST_DIFFERENCES,
  browserKindOf,
  unreachableKindOf,
} from '../../src/shells/background/adapters/browser-differences.ts';
import { failureOf } from '../../src/shells/background/adapters/fetch-failure.ts';
import { FIREFOX_CANDIDATES, FirefoxNotFoundError, findFirefox } from '../../src/shells/cli/firefox.ts';
import { SINK_WAIT_PARAM, withSinkWait } from '../../src/export/page-sink.ts';

describe('browser differences', () => {
  it('tells the browser from the scheme of its own pages', () => {
    assert.equal(browserKindOf('moz-extension://0f3c1d2e-aaaa-bbbb-cccc-123456789abc/'), 'firefox');
    assert.equal(browserKindOf('chrome-extension://abcdefghijklmnopabcdefghijklmnop/'), 'chrome');
  });

  it('asks for extraHeaders in Chrome only (Firefox rejects the value and drops the listener)', () => {
    assert.deepEqual(WEB_REQUEST_DIFFERENCES.chrome.extraHeaders, ['extraHeaders']);
    assert.deepEqual(WEB_REQUEST_DIFFERENCES.firefox.extraHeaders, []);
  });

  it("claims a request as Tabcrawl's by the field each browser fills", () => {
    const chromeOrigin = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
    const { isFrom: fromChrome } = WEB_REQUEST_DIFFERENCES.chrome;
    assert.equal(fromChrome({ tabId: -1, initiator: chromeOrigin }, chromeOrigin), true);
    assert.equal(
      fromChrome({ tabId: -1, initiator: 'chrome-extension://otherextensionidotherextensionid' }, chromeOrigin),
      false,
    );
    assert.equal(fromChrome({ tabId: -1 }, chromeOrigin), false);

    const firefoxOrigin = 'moz-extension://0f3c1d2e-aaaa-bbbb-cccc-123456789abc';
    const { isFrom: fromFirefox } = WEB_REQUEST_DIFFERENCES.firefox;
    assert.equal(
      fromFirefox({ tabId: -1, originUrl: `${firefoxOrigin}/_generated_background_page.html` }, firefoxOrigin),
      true,
    );
    assert.equal(
      fromFirefox(
        {
          tabId: -1,
          originUrl: 'moz-extension://0f3c1d2e-aaaa-bbbb-cccc-123456789abd/_generated_background_page.html',
        },
        firefoxOrigin,
      ),
      false,
    );
    assert.equal(
      fromFirefox({ tabId: -1, originUrl: `${firefoxOrigin}x/page.html` }, firefoxOrigin),
      false,
      'a longer host is another add-on',
    );
    assert.equal(fromFirefox({ tabId: -1 }, firefoxOrigin), false);
  });
});

describe('a failed request, as each browser names it', () => {
  it("tells a host name that does not resolve and a refused connection from other failures, by each browser's names", () => {
    // As webRequest.onErrorOccurred reported them for a .invalid host and a closed port on this machine (Chromium 156, Firefox ESR).
    const cases: [error: string | null, kind: 'dns' | 'refused' | null][] = [
      ['net::ERR_NAME_NOT_RESOLVED', 'dns'],
      ['net::ERR_NAME_RESOLUTION_FAILED', 'dns'],
      ['net::ERR_CONNECTION_REFUSED', 'refused'],
      ['net::ERR_UNSAFE_PORT', 'refused'],
      ['NS_ERROR_PORT_ACCESS_NOT_ALLOWED', 'refused'],
      ['NS_ERROR_UNKNOWN_HOST', 'dns'],
      ['NS_ERROR_CONNECTION_REFUSED', 'refused'],
      ['net::ERR_CONNECTION_RESET', null],
      ['net::ERR_CERT_AUTHORITY_INVALID', null],
      ['NS_ERROR_NET_RESET', null],
      ['toString', null],
      [null, null],
    ];
    for (const [error, kind] of cases) assert.equal(unreachableKindOf(error), kind, String(error));
  });

  it("records a failed fetch with the code the browser's error name gives, and the name in its message", () => {
    const failed = new TypeError('Failed to fetch');
    assert.equal(failureOf(failed, undefined, 'net::ERR_NAME_NOT_RESOLVED').code, 'dns');
    assert.equal(failureOf(failed, undefined, 'NS_ERROR_CONNECTION_REFUSED').code, 'refused');
    assert.deepEqual(failureOf(failed, undefined, 'net::ERR_CONNECTION_RESET'), {
      code: 'network',
      message: 'network error (net::ERR_CONNECTION_RESET)',
    });
    assert.deepEqual(
      failureOf(new TypeError('NetworkError when attempting to fetch resource.'), undefined, 'NS_ERROR_NET_RESET'),
      { code: 'network', message: 'network error (NS_ERROR_NET_RESET)' },
    );
    assert.equal(failureOf(failed, undefined).code, 'network');
    // A bad port of the Fetch standard: Chromium names it (net::ERR_UNSAFE_PORT), Firefox reports no name at all.
    assert.deepEqual(failureOf(failed, undefined, null, 'http://127.0.0.1:1/x'), {
      code: 'refused',
      message: 'the browser never connects to port 1 (a bad port of the Fetch standard)',
    });
    assert.equal(failureOf(failed, undefined, 'net::ERR_UNSAFE_PORT', 'http://example.org:6667/').code, 'refused');
    assert.equal(failureOf(failed, undefined, null, 'http://127.0.0.1:8080/').code, 'network');
    assert.equal(failureOf(failed, undefined, null, 'http://example.org/').code, 'network');
    assert.match(
      failureOf(failed, undefined, 'net::ERR_NAME_NOT_RESOLVED').message,
      /does not resolve \(net::ERR_NAME_NOT_RESOLVED\)/,
    );
  });
});

describe('findFirefox', () => {
  it('takes FIREFOX_PATH when it names a file', () => {
    assert.equal(
      findFirefox({ FIREFOX_PATH: '/opt/ff/firefox' }, (path) => path === '/opt/ff/firefox'),
      '/opt/ff/firefox',
    );
  });
  it('says so when FIREFOX_PATH names nothing, without falling back', () => {
    assert.throws(
      () => findFirefox({ FIREFOX_PATH: '/nowhere/firefox' }, () => false),
      (error: unknown) =>
        error instanceof FirefoxNotFoundError && /FIREFOX_PATH is set to \/nowhere\/firefox/.test(error.message),
    );
  });
  it("tries Debian's firefox-esr first, then the other usual places", () => {
    assert.equal(FIREFOX_CANDIDATES[0], '/usr/bin/firefox-esr');
    assert.equal(
      findFirefox({}, (path) => path === '/usr/bin/firefox'),
      '/usr/bin/firefox',
    );
  });
  it('says how to install one when there is none', () => {
    assert.throws(() => findFirefox({}, () => false), /apt-get install firefox-esr/);
  });
});

describe('the export page told to wait for its sink', () => {
  it('adds the parameter to an address with or without a query', () => {
    assert.equal(
      withSinkWait('src/shells/export/index.html?crawl=a&format=wacz'),
      `src/shells/export/index.html?crawl=a&format=wacz&${SINK_WAIT_PARAM}=wait`,
    );
    assert.equal(withSinkWait('page.html'), `page.html?${SINK_WAIT_PARAM}=wait`);
  });
});

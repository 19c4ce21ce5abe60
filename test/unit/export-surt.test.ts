import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getSurt } from 'warcio';
import { surt, surtForMethod } from '../../src/export/surt.ts';

/** [what it shows, URL, SURT key]. */
const CASES: [string, string, string][] = [
  ['reverses the host labels and keeps the path', 'https://example.com/a/b', 'com,example)/a/b'],
  ['drops the scheme (http and https share keys)', 'http://example.com/a/b', 'com,example)/a/b'],
  ['keeps the root path', 'https://example.com/', 'com,example)/'],
  ['drops a leading www', 'https://www.example.com/', 'com,example)/'],
  ['drops a leading numbered www', 'http://www2.example.com/x', 'com,example)/x'],
  ['keeps a www that is not the first label', 'https://cdn.www.example.com/', 'com,example,www,cdn)/'],
  ['keeps a label that only starts with www', 'https://wwwx.example.com/', 'com,example,wwwx)/'],
  ['lower-cases host, path and query', 'https://Example.COM/Docs/Page.HTML?Q=A', 'com,example)/docs/page.html?q=a'],
  ['keeps a non-default port after the host', 'https://example.com:8443/x', 'com,example:8443)/x'],
  ['drops a default https port', 'https://example.com:443/x', 'com,example)/x'],
  ['drops a default http port', 'http://example.com:80/x', 'com,example)/x'],
  ['sorts query arguments', 'https://example.com/s?b=2&a=1&c=0', 'com,example)/s?a=1&b=2&c=0'],
  ['sorts arguments by code unit, after lower-casing', 'https://example.com/s?b=&a&A=1', 'com,example)/s?a&a=1&b='],
  ['drops an empty query', 'https://example.com/s?', 'com,example)/s'],
  ['drops the fragment', 'https://example.com/s?a=1#top', 'com,example)/s?a=1'],
  ['keeps percent-encoding, lower-cased', 'https://example.com/caf%C3%A9', 'com,example)/caf%c3%a9'],
  ['encodes what the URL parser encodes', 'https://example.com/a b', 'com,example)/a%20b'],
  ['reverses an IPv4 address like any host (as warcio.js does)', 'http://127.0.0.1:8080/x', '1,0,0,127:8080)/x'],
  ['keeps an IPv6 address whole', 'http://[::1]:8080/x', '[::1]:8080)/x'],
  ['uses the punycode of an international host', 'https://bücher.example/', 'example,xn--bcher-kva)/'],
  ['adds the root path to a bare origin', 'https://www.example.com', 'com,example)/'],
  ['leaves other schemes alone', 'ftp://example.com/x', 'ftp://example.com/x'],
  ['leaves non-URLs alone', 'urn:uuid:1234', 'urn:uuid:1234'],
  ['leaves an unparsable http URL alone', 'http://', 'http://'],
];

describe('surt', () => {
  for (const [behaviour, url, key] of CASES) {
    test(`${behaviour}: ${url}`, () => {
      assert.equal(surt(url), key);
    });
  }

  test('agrees with warcio.js getSurt (what ReplayWeb.page looks up with) on URLs as the crawl stores them', () => {
    for (const [, url] of CASES) {
      let normalized = url;
      try {
        normalized = new URL(url).href;
      } catch {
        // Not a URL: both leave it alone.
      }
      assert.equal(surt(normalized), getSurt(normalized), normalized);
    }
  });

  test('ignores case where warcio.js does not: an upper-case WWW is dropped too', () => {
    assert.equal(surt('HTTP://WWW.Example.com/'), 'com,example)/');
  });
});

describe('surtForMethod', () => {
  const METHOD_CASES: [string, string, string, string][] = [
    ['a GET capture has the plain key', 'https://example.com/a?b=1', 'GET', 'com,example)/a?b=1'],
    [
      'a HEAD capture adds __wb_method=head',
      'https://example.com/file.zip',
      'HEAD',
      'com,example)/file.zip?__wb_method=head',
    ],
    [
      'the method argument is sorted with the others',
      'https://example.com/a?z=1&b=2',
      'HEAD',
      'com,example)/a?__wb_method=head&b=2&z=1',
    ],
    ['an empty query gets no empty argument', 'https://example.com/a?', 'HEAD', 'com,example)/a?__wb_method=head'],
    [
      'the fragment is dropped before the argument is added',
      'https://example.com/a#x',
      'HEAD',
      'com,example)/a?__wb_method=head',
    ],
  ];
  for (const [behaviour, url, method, key] of METHOD_CASES) {
    test(`${behaviour}: ${method} ${url}`, () => {
      assert.equal(surtForMethod(url, method), key);
    });
  }
});

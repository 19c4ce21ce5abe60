/**
 * `encodeQueryFor` and its use by `extractLinks`: a link's query on a page in
 * a legacy encoding is encoded in that encoding, as a browser does. (Every
 * encoding is checked against Chromium itself in
 * `test/browser/query-encoding.test.ts`; these run in Node.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractLinks } from '../../src/core/links/extract-links.ts';
import { encodeQueryFor } from '../../src/core/links/query-encoding.ts';

describe('encodeQueryFor', () => {
  it('encodes the non-ASCII characters of the query in the page encoding, and only those', () => {
    assert.equal(encodeQueryFor('/s?q=café&e=€ x#fragé', 'windows-1252'), '/s?q=caf%E9&e=%80 x#fragé');
    assert.equal(encodeQueryFor('/s?q=Привет', 'windows-1251'), '/s?q=%CF%F0%E8%E2%E5%F2');
    assert.equal(
      encodeQueryFor('/café/?q=a%C3%A9', 'windows-1252'),
      '/café/?q=a%C3%A9',
      'the path, and what is already encoded, untouched',
    );
  });

  it('writes a character the encoding cannot represent as a numeric reference, as the URL standard does', () => {
    assert.equal(encodeQueryFor('/s?q=日本', 'windows-1252'), '/s?q=%26%2326085%3B%26%2326412%3B');
  });

  it('leaves UTF-8 and UTF-16 pages, hrefs without a query or with an ASCII one, and unknown encodings as they are', () => {
    for (const encoding of ['utf-8', 'utf-16le', 'UTF-8', 'iso-2022-jp', 'no-such-encoding'])
      assert.equal(encodeQueryFor('/s?q=é', encoding), '/s?q=é', encoding);
    assert.equal(encodeQueryFor('/é', 'windows-1252'), '/é');
    assert.equal(encodeQueryFor('/s?q=plain#é', 'windows-1252'), '/s?q=plain#é');
  });
});

describe('extractLinks on a page in a legacy encoding', () => {
  it('resolves links and the base with their queries in the page encoding', () => {
    const html = '<a href="/search?q=café">a</a><a href="?q=naïve">b</a><a href="/café/?x=1">c</a>';
    const urls = extractLinks(html, 'http://a.test/dir/page', 'windows-1252').links.map((link) => link.url);
    assert.deepEqual(urls, [
      'http://a.test/search?q=caf%E9',
      'http://a.test/dir/page?q=na%EFve',
      'http://a.test/caf%C3%A9/?x=1',
    ]);
    const utf8 = extractLinks(html, 'http://a.test/dir/page').links.map((link) => link.url);
    assert.deepEqual(utf8, [
      'http://a.test/search?q=caf%C3%A9',
      'http://a.test/dir/page?q=na%C3%AFve',
      'http://a.test/caf%C3%A9/?x=1',
    ]);
    const based = extractLinks('<base href="/b/?q=é"><a href="">x</a>', 'http://a.test/', 'windows-1252');
    assert.equal(based.baseUrl, 'http://a.test/b/?q=%E9');
  });
});

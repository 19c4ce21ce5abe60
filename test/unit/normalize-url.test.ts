import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normalizeUrl, originOf } from '../../src/core/url/normalize-url.ts';

describe('normalizeUrl', () => {
  const cases: { name: string; href: string; base?: string; expected: string | null }[] = [
    { name: 'keeps an already normal URL', href: 'https://example.com/a?b=1', expected: 'https://example.com/a?b=1' },
    {
      name: 'lower-cases scheme and host',
      href: 'HTTP://WWW.Example.COM/Path',
      expected: 'http://www.example.com/Path',
    },
    { name: 'drops the default http port', href: 'http://example.com:80/a', expected: 'http://example.com/a' },
    { name: 'drops the default https port', href: 'https://example.com:443/a', expected: 'https://example.com/a' },
    { name: 'keeps a non-default port', href: 'https://example.com:8443/a', expected: 'https://example.com:8443/a' },
    { name: 'keeps port 443 on http', href: 'http://example.com:443/', expected: 'http://example.com:443/' },
    { name: 'drops the fragment', href: 'https://example.com/a#section', expected: 'https://example.com/a' },
    { name: 'drops an empty fragment', href: 'https://example.com/a#', expected: 'https://example.com/a' },
    { name: 'gives an empty path "/"', href: 'https://example.com', expected: 'https://example.com/' },
    {
      name: 'gives an empty path "/" before a query',
      href: 'https://example.com?q=1',
      expected: 'https://example.com/?q=1',
    },
    { name: 'resolves dot segments', href: 'https://example.com/a/./b/../c', expected: 'https://example.com/a/c' },
    {
      name: 'resolves ../ against the base',
      href: '../x',
      base: 'https://example.com/a/b/page',
      expected: 'https://example.com/a/x',
    },
    {
      name: 'does not climb above the root',
      href: '../../../x',
      base: 'https://example.com/a/',
      expected: 'https://example.com/x',
    },
    {
      name: 'resolves a root-relative path',
      href: '/x?y=1',
      base: 'https://example.com/a/b',
      expected: 'https://example.com/x?y=1',
    },
    {
      name: 'resolves a scheme-relative URL',
      href: '//cdn.example.org/x',
      base: 'https://example.com/',
      expected: 'https://cdn.example.org/x',
    },
    {
      name: 'resolves a query-only URL',
      href: '?page=2',
      base: 'https://example.com/list?page=1',
      expected: 'https://example.com/list?page=2',
    },
    {
      name: 'resolves a fragment-only URL to the page itself',
      href: '#top',
      base: 'https://example.com/a#b',
      expected: 'https://example.com/a',
    },
    {
      name: 'resolves an empty href to the page itself',
      href: '',
      base: 'https://example.com/a',
      expected: 'https://example.com/a',
    },
    {
      name: 'ignores an absolute URL base',
      href: 'http://other.org/x',
      base: 'https://example.com/',
      expected: 'http://other.org/x',
    },
    {
      name: 'trims surrounding ASCII whitespace',
      href: ' \t\n /x \r\n\f',
      base: 'https://example.com/',
      expected: 'https://example.com/x',
    },
    {
      name: 'converts an IDN host to punycode',
      href: 'https://münchen.de/straße',
      expected: 'https://xn--mnchen-3ya.de/stra%C3%9Fe',
    },
    {
      name: 'keeps the order of query parameters',
      href: 'https://example.com/?b=2&a=1&b=0',
      expected: 'https://example.com/?b=2&a=1&b=0',
    },
    {
      name: 'keeps percent-encoding as written',
      href: 'https://example.com/%7euser/%41?q=%2F',
      expected: 'https://example.com/%7euser/%41?q=%2F',
    },
    { name: 'encodes a space in the path', href: 'https://example.com/a b', expected: 'https://example.com/a%20b' },
    { name: 'keeps an empty query', href: 'https://example.com/a?', expected: 'https://example.com/a?' },
    {
      name: 'keeps invalid percent-encoding as written',
      href: '/bad%zz%/%E9?q=%%41%',
      base: 'https://example.com/',
      expected: 'https://example.com/bad%zz%/%E9?q=%%41%',
    },
    {
      name: 'converts an upper-case IDN host to lower-case punycode',
      href: 'http://BÜCHER.example/x',
      expected: 'http://xn--bcher-kva.example/x',
    },
    { name: 'rejects an IDN host that is not valid', href: 'http://xn--a.example/', expected: null },
    {
      name: 'keeps a URL of 8,000 characters (the trap rules decide whether to follow it)',
      href: `https://example.com/${'a'.repeat(8000)}`,
      expected: `https://example.com/${'a'.repeat(8000)}`,
    },
    {
      name: 'rejects javascript: with a tab inside the scheme',
      href: 'java\tscript:alert(1)',
      base: 'https://example.com/',
      expected: null,
    },
    { name: 'rejects javascript:', href: 'javascript:alert(1)', base: 'https://example.com/', expected: null },
    {
      name: 'rejects javascript: with odd case and spaces',
      href: '  JavaScript:void(0)',
      base: 'https://example.com/',
      expected: null,
    },
    { name: 'rejects mailto:', href: 'mailto:someone@example.com', base: 'https://example.com/', expected: null },
    { name: 'rejects data:', href: 'data:text/html,<p>hi</p>', base: 'https://example.com/', expected: null },
    { name: 'rejects ftp:', href: 'ftp://example.com/file', expected: null },
    { name: 'rejects tel:', href: 'tel:+123', base: 'https://example.com/', expected: null },
    { name: 'rejects a relative URL without base', href: '/x', expected: null },
    { name: 'rejects an invalid URL', href: 'http://', expected: null },
    { name: 'rejects a bad host', href: 'https://exa mple.com/', expected: null },
    { name: 'rejects a URL resolved against an invalid base', href: 'x', base: 'not a url', expected: null },
  ];
  for (const { name, href, base, expected } of cases) {
    test(name, () => {
      assert.equal(normalizeUrl(href, base), expected);
    });
  }
});

describe('originOf', () => {
  const cases: [string, string][] = [
    ['https://Example.com:8443/a?b#c', 'https://example.com:8443'],
    ['http://example.com:80/', 'http://example.com'],
    ['https://sub.example.com/x', 'https://sub.example.com'],
  ];
  for (const [url, expected] of cases) {
    test(`gives ${expected} for ${url}`, () => {
      assert.equal(originOf(url), expected);
    });
  }

  test('throws a TypeError for a string that is not a URL', () => {
    assert.throws(() => originOf('nope'), TypeError);
  });
});

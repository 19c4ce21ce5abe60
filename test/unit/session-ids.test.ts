import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normalizeUrl } from '../../src/core/url/normalize-url.ts';
import { isSessionParameter, stripSessionIds } from '../../src/core/url/session-ids.ts';

describe('session ids in URLs', () => {
  const cases: [name: string, href: string, expected: string][] = [
    [
      'removes a Java ;jsessionid path parameter',
      'http://a.test/shop;jsessionid=0A1B2C3D4E5F?item=2',
      'http://a.test/shop?item=2',
    ],
    [
      'removes ;JSESSIONID in any case, in the middle of a path',
      'http://a.test/a;JSESSIONID=xyz/b',
      'http://a.test/a/b',
    ],
    [
      'removes PHPSESSID and keeps the other parameters in order',
      'http://a.test/p?b=2&PHPSESSID=abc123&a=1',
      'http://a.test/p?b=2&a=1',
    ],
    ['removes the whole query when only a session id was in it', 'http://a.test/p?phpsessid=abc', 'http://a.test/p'],
    [
      'removes ASPSESSIONID with its random suffix',
      'http://a.test/?ASPSESSIONIDQQGGGNCG=LKJHGFDSAPOIUY',
      'http://a.test/',
    ],
    [
      'removes sessionid, session_id and sessid',
      'http://a.test/?sessionid=1&session_id=2&sessid=3&keep=4',
      'http://a.test/?keep=4',
    ],
    ['removes ColdFusion cfid and cftoken', 'http://a.test/?cfid=123&cftoken=456&x=1', 'http://a.test/?x=1'],
    ['removes a sid that looks generated', 'http://a.test/?sid=9f86d081884c7d659a2feaa0c55ad015', 'http://a.test/'],
    ['keeps a short sid, which may be an id of content', 'http://a.test/story?sid=42', 'http://a.test/story?sid=42'],
    [
      'keeps a long sid of letters only',
      'http://a.test/?sid=introductiontocrawling',
      'http://a.test/?sid=introductiontocrawling',
    ],
    [
      'keeps parameters that merely contain a session name',
      'http://a.test/?mysessionid=1&jsessionid_hint=2',
      'http://a.test/?mysessionid=1&jsessionid_hint=2',
    ],
    [
      'keeps encoding and empty pieces as they were',
      'http://a.test/?q=%2F&&PHPSESSID=x&r=a+b',
      'http://a.test/?q=%2F&&r=a+b',
    ],
  ];
  for (const [name, href, expected] of cases) {
    test(name, () => {
      assert.equal(normalizeUrl(href), expected);
    });
  }

  test('says whether it removed anything', () => {
    const url = new URL('http://a.test/x?a=1');
    assert.equal(stripSessionIds(url), false);
    assert.equal(url.href, 'http://a.test/x?a=1');
    const withId = new URL('http://a.test/x;jsessionid=1');
    assert.equal(stripSessionIds(withId), true);
    assert.equal(withId.href, 'http://a.test/x');
  });

  test('recognizes a session parameter by its name, and sid by its value', () => {
    assert.equal(isSessionParameter('JSESSIONID=abc'), true);
    assert.equal(isSessionParameter('phpsessid'), true);
    assert.equal(isSessionParameter('sid=abcdef0123456789'), true);
    assert.equal(isSessionParameter('sid=abcdefabcdefabcdef'), false);
    assert.equal(isSessionParameter('page=2'), false);
  });

  test('gives every page of a cookieless site one URL, whatever id it was linked with', () => {
    const seen = new Set(
      ['A1B2C3', 'D4E5F6', 'Z9Y8X7'].map((id) =>
        normalizeUrl(`/catalog;jsessionid=${id}?page=2&PHPSESSID=${id}`, 'http://a.test/'),
      ),
    );
    assert.deepEqual([...seen], ['http://a.test/catalog?page=2']);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  hasRepeatedRun,
  MAX_PATH_SEGMENTS,
  MAX_URL_LENGTH,
  MIN_QUERY_VARIANTS_PER_PATH,
  pathSegments,
  QueryVariantCounter,
  queryVariantKey,
  queryVariantsCap,
  urlTrapReason,
} from '../../src/core/url/traps.ts';

const A = 'http://a.test';

describe('urlTrapReason', () => {
  const cases: [name: string, url: string, expected: ReturnType<typeof urlTrapReason>][] = [
    ['passes an ordinary URL', `${A}/docs/guide/intro?lang=en`, null],
    ['passes the root', `${A}/`, null],
    ['passes a segment twice in a row', `${A}/docs/docs/x`, null],
    ['passes a date with a repeated number', `${A}/2024/10/10/post`, null],
    ['passes a run of two segments twice in a row', `${A}/x/y/x/y/z`, null],
    ['passes a segment three times, not in a row', `${A}/api/v1/users/1/posts/1/comments/1`, null],
    ['stops a segment three times in a row', `${A}/a/a/a`, 'repeated-segments'],
    ['stops a segment three times in a row after a trailing slash', `${A}/x/again/again/again/`, 'repeated-segments'],
    ['stops a run of two segments three times in a row', `${A}/x/a/b/a/b/a/b/y`, 'repeated-segments'],
    ['stops a run of three segments three times in a row', `${A}/p/q/r/p/q/r/p/q/r`, 'repeated-segments'],
    ['stops empty segments three times in a row', `${A}/a////b`, 'repeated-segments'],
    ['ignores the query when looking for repeated segments', `${A}/a?x=a/a/a`, null],
    [
      'passes a path of exactly the most segments',
      `${A}/${Array.from({ length: MAX_PATH_SEGMENTS }, (_, i) => `s${i}`).join('/')}`,
      null,
    ],
    [
      'stops a path of one segment more',
      `${A}/${Array.from({ length: MAX_PATH_SEGMENTS + 1 }, (_, i) => `s${i}`).join('/')}`,
      'deep-path',
    ],
    ['passes a URL of exactly the longest length', `${A}/${'x'.repeat(MAX_URL_LENGTH - A.length - 1)}`, null],
    ['stops a URL one character longer', `${A}/${'x'.repeat(MAX_URL_LENGTH - A.length)}`, 'long-url'],
    ['stops a URL of 8,000 characters', `${A}/?q=${'y'.repeat(8000)}`, 'long-url'],
    ['leaves a string that is not a URL to the scope', 'not a url', null],
  ];
  for (const [name, url, expected] of cases) {
    test(name, () => {
      assert.equal(urlTrapReason(url), expected);
    });
  }
});

describe('pathSegments and hasRepeatedRun', () => {
  test('splits a path into its segments without the empty one of a trailing slash', () => {
    assert.deepEqual(pathSegments('/'), []);
    assert.deepEqual(pathSegments('/a/b'), ['a', 'b']);
    assert.deepEqual(pathSegments('/a//b/'), ['a', '', 'b']);
  });

  test('finds runs of any length repeated the given number of times in a row', () => {
    assert.equal(hasRepeatedRun([], 3), false);
    assert.equal(hasRepeatedRun(['a', 'a'], 3), false);
    assert.equal(hasRepeatedRun(['a', 'a'], 2), true);
    assert.equal(hasRepeatedRun(['x', 'a', 'b', 'a', 'b', 'a', 'b'], 3), true);
    assert.equal(hasRepeatedRun(['a', 'b', 'a', 'c', 'a'], 3), false);
    assert.equal(
      hasRepeatedRun(['a', 'b', 'c', 'a', 'b', 'c', 'a', 'b'], 3),
      false,
      'two and a half times is not three',
    );
  });

  test('agrees with a brute-force check on every path of up to 7 segments over 2 names', () => {
    const brute = (segments: string[], times: number): boolean => {
      const text = segments.map((s) => `${s}/`).join('');
      return new RegExp(`((?:[^/]*/)+)\\1{${times - 1}}`).test(text);
    };
    for (let length = 0; length <= 7; length += 1) {
      for (let bits = 0; bits < 2 ** length; bits += 1) {
        const segments = Array.from({ length }, (_, i) => ((bits >> i) & 1 ? 'b' : 'a'));
        assert.equal(hasRepeatedRun(segments, 3), brute(segments, 3), segments.join('/'));
      }
    }
  });
});

describe('query variants', () => {
  test('are counted under scheme, host, port and path, only when there is a query', () => {
    assert.equal(queryVariantKey(`${A}/cal?m=5`), `${A}/cal`);
    assert.equal(queryVariantKey(`${A}/cal?`), null, 'an empty query is no variant');
    assert.equal(queryVariantKey(`${A}/cal`), null);
    assert.equal(queryVariantKey('nope'), null);
  });

  test('get at least 50 per path, else a tenth of the page limit', () => {
    assert.equal(queryVariantsCap(1), MIN_QUERY_VARIANTS_PER_PATH);
    assert.equal(queryVariantsCap(500), 50);
    assert.equal(queryVariantsCap(501), 51);
    assert.equal(queryVariantsCap(100_000), 10_000);
  });

  test('are admitted up to the cap per path, other paths and query-less URLs unaffected', () => {
    const counter = new QueryVariantCounter(3);
    const admitted = Array.from({ length: 5 }, (_, i) => counter.admit(`${A}/cal?m=${i}`));
    assert.deepEqual(admitted, [true, true, true, false, false]);
    assert.equal(counter.countFor(`${A}/cal?x`), 3);
    assert.equal(counter.admit(`${A}/other?m=1`), true);
    assert.equal(counter.admit(`${A}/cal`), true);
    assert.equal(counter.admit('http://b.test/cal?m=9'), true, 'another host is another path');
  });

  test('count the URLs a crawl already holds when rebuilt', () => {
    const counter = new QueryVariantCounter(2);
    counter.add(`${A}/cal?m=1`);
    counter.add(`${A}/cal`);
    assert.equal(counter.admit(`${A}/cal?m=2`), true);
    assert.equal(counter.admit(`${A}/cal?m=3`), false);
  });
});

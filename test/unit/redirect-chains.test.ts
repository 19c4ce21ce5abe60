import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  allRedirectChains,
  walkRedirects,
  walkRedirectsAsync,
  type RedirectStep,
} from '../../src/audit/redirect-chains.ts';

const redirects = (pairs: [string, string | null][]): Map<string, RedirectStep> =>
  new Map(pairs.map(([url, location]) => [url, { location }]));

describe('walkRedirects', () => {
  it('follows the hops to the first URL that is not a redirect', () => {
    const map = redirects([
      ['a', 'b'],
      ['b', 'c'],
    ]);
    assert.deepEqual(
      walkRedirects('a', (url) => map.get(url)),
      { hops: ['a', 'b'], end: { kind: 'exit', url: 'c' } },
    );
  });

  it('has no hop when the start is not a redirect', () => {
    assert.deepEqual(
      walkRedirects('a', () => undefined),
      { hops: [], end: { kind: 'exit', url: 'a' } },
    );
  });

  it('stops at a 3xx without a Location', () => {
    const map = redirects([
      ['a', 'b'],
      ['b', null],
    ]);
    assert.deepEqual(
      walkRedirects('a', (url) => map.get(url)),
      { hops: ['a', 'b'], end: { kind: 'no-location' } },
    );
  });

  it('ends on the hop a loop comes back to', () => {
    const map = redirects([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'b'],
    ]);
    assert.deepEqual(
      walkRedirects('a', (url) => map.get(url)),
      { hops: ['a', 'b', 'c'], end: { kind: 'loop', url: 'b' } },
    );
  });

  it('counts a URL the caller marks as on the chain as a loop', () => {
    const map = redirects([['a', 'z']]);
    assert.deepEqual(
      walkRedirects('a', (url) => map.get(url), { alreadyOn: ['z'] }),
      { hops: ['a'], end: { kind: 'loop', url: 'z' } },
    );
  });

  it('cuts the chain at a redirect past the most follows, but not at a final page there', () => {
    const map = redirects([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
    ]);
    assert.deepEqual(
      walkRedirects('a', (url) => map.get(url), { maxFollows: 2 }),
      { hops: ['a', 'b'], end: { kind: 'limit', url: 'c' } },
    );
    assert.deepEqual(
      walkRedirects('a', (url) => map.get(url), { maxFollows: 3 }),
      { hops: ['a', 'b', 'c'], end: { kind: 'exit', url: 'd' } },
    );
  });

  it('walks the same way when the redirects are read asynchronously', async () => {
    const map = redirects([
      ['a', 'b'],
      ['b', 'a'],
    ]);
    const asked: string[] = [];
    const walk = await walkRedirectsAsync('a', async (url) => {
      asked.push(url);
      return map.get(url);
    });
    assert.deepEqual(walk, { hops: ['a', 'b'], end: { kind: 'loop', url: 'a' } });
    assert.deepEqual(asked, ['a', 'b']);
  });
});

describe('allRedirectChains', () => {
  it('starts chains at redirects nothing points to, then at loops with no way in, each redirect once', () => {
    const map = redirects([
      ['x', 'y'],
      ['a', 'b'],
      ['y', 'x'],
      ['b', 'page'],
    ]);
    assert.deepEqual(allRedirectChains(map), [
      { hops: ['a', 'b'], end: { kind: 'exit', url: 'page' } },
      { hops: ['x', 'y'], end: { kind: 'loop', url: 'x' } },
    ]);
  });
});

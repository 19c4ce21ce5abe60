import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type IndexabilityRow,
  indexabilityOf,
  indexabilityText,
  isCanonicalSelf,
} from '../../src/core/page-facts/indexability.ts';
import { factsOf } from '../support/page-facts-fixture.ts';

const URL_A = 'https://example.com/a';

function row(overrides: Partial<IndexabilityRow> = {}): IndexabilityRow {
  return { url: URL_A, kind: 'page', status: 200, blockedBy: null, facts: factsOf(), ...overrides };
}

describe('indexabilityOf', () => {
  test('a 200 page without directives is indexable', () => {
    assert.deepEqual(indexabilityOf(row()), { indexable: true });
  });
  test('a page whose canonical is itself is indexable', () => {
    assert.deepEqual(indexabilityOf(row({ facts: factsOf({ canonical: URL_A }) })), { indexable: true });
  });
  const cases: [name: string, overrides: Partial<IndexabilityRow>, reason: string][] = [
    ['blocked by robots.txt', { status: null, blockedBy: 'robots', facts: null }, 'blocked'],
    ['a redirect', { status: 301, facts: null }, 'redirected'],
    ['a 404', { status: 404, facts: null }, 'not-200'],
    ['a 204', { status: 204 }, 'not-200'],
    ['a network failure', { status: null, facts: null }, 'not-200'],
    ['meta or header noindex', { facts: factsOf({ robots: ['nofollow', 'noindex'] }) }, 'noindex'],
    ['robots none', { facts: factsOf({ robots: ['none'] }) }, 'noindex'],
    ['a canonical elsewhere', { facts: factsOf({ canonical: 'https://example.com/b' }) }, 'canonicalised'],
    [
      'a Link header canonical elsewhere',
      { facts: factsOf({ canonicalHeader: 'https://example.com/b' }) },
      'canonicalised',
    ],
    [
      'noindex before canonicalised',
      { facts: factsOf({ robots: ['noindex'], canonical: 'https://example.com/b' }) },
      'noindex',
    ],
  ];
  for (const [name, overrides, reason] of cases) {
    test(`${name}: not indexable (${reason})`, () => {
      assert.deepEqual(indexabilityOf(row(overrides)), { indexable: false, reason });
    });
  }
  test('the markup canonical wins over the header one', () => {
    assert.deepEqual(
      indexabilityOf(row({ facts: factsOf({ canonical: URL_A, canonicalHeader: 'https://example.com/b' }) })),
      { indexable: true },
    );
  });
  test('a file or a row stored before facts is judged by its status', () => {
    assert.deepEqual(indexabilityOf(row({ kind: 'file', facts: null })), { indexable: true });
    assert.deepEqual(indexabilityOf(row({ facts: undefined })), { indexable: true });
  });
  test('resources and sitemaps are not judged', () => {
    assert.equal(indexabilityOf(row({ kind: 'resource' })), null);
    assert.equal(indexabilityOf(row({ kind: 'sitemap' })), null);
  });
  test('reads as words', () => {
    assert.equal(indexabilityText(indexabilityOf(row())), 'indexable');
    assert.equal(indexabilityText(indexabilityOf(row({ status: 500 }))), 'not-200');
    assert.equal(indexabilityText(null), '');
  });
});

describe('isCanonicalSelf', () => {
  test('true, false or null (none)', () => {
    assert.equal(isCanonicalSelf({ url: URL_A, facts: factsOf({ canonical: URL_A }) }), true);
    assert.equal(isCanonicalSelf({ url: URL_A, facts: factsOf({ canonicalHeader: 'https://example.com/b' }) }), false);
    assert.equal(isCanonicalSelf({ url: URL_A, facts: factsOf() }), null);
    assert.equal(isCanonicalSelf({ url: URL_A, facts: null }), null);
  });
});

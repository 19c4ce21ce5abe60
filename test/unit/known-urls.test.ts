import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KnownUrls } from '../../src/core/crawl/known-urls.ts';

describe('known URLs cache', () => {
  it('remembers what it was told, and nothing else', () => {
    const known = new KnownUrls(8);
    known.add('http://a.test/1');
    assert.equal(known.has('http://a.test/1'), true);
    assert.equal(known.has('http://a.test/2'), false);
  });
  it('stays within its capacity, forgetting the least recently used first', () => {
    const known = new KnownUrls(8);
    for (let i = 0; i < 8; i += 1) known.add(`u${i}`);
    assert.equal(known.has('u0'), true); // u0 is now the most recently used; u1 the least
    known.add('u8');
    assert.ok(known.size <= 8);
    assert.equal(known.has('u1'), false, 'the least recently used is forgotten');
    assert.equal(known.has('u0'), true, 'a recent hit is kept');
    assert.equal(known.has('u8'), true);
    for (let i = 0; i < 1000; i += 1) known.add(`v${i}`);
    assert.ok(known.size <= 8);
  });
});

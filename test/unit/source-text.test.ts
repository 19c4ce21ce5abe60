/** What the URL detail's Source shows of a stored body (`src/results/source-text.ts`). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { markMatches, sourceText } from '../../src/results/source-text.ts';

const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('sourceText', () => {
  it('decodes HTML, CSS, scripts and JSON as the crawl did, by their charset', () => {
    const html = sourceText(bytesOf('<p>café</p>'), 'text/html; charset=utf-8');
    assert.deepEqual(html, { kind: 'text', text: '<p>café</p>', charset: 'utf-8', totalChars: 11, cut: false });
    const latin = sourceText(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'text/css; charset=iso-8859-1');
    assert.equal(latin.kind === 'text' && latin.text, 'café');
    for (const type of ['application/javascript', 'application/json', 'application/ld+json', 'image/svg+xml']) {
      assert.equal(sourceText(bytesOf('{"a":1}'), type).kind, 'text', type);
    }
  });

  it('does not show images, fonts or binary bytes without a type as text', () => {
    assert.deepEqual(sourceText(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'image/png'), {
      kind: 'binary',
      mediaType: 'image/png',
      bytes: 4,
    });
    assert.equal(sourceText(bytesOf('wOFF'), 'font/woff').kind, 'binary');
    assert.equal(sourceText(new Uint8Array([0, 1, 2]), null).kind, 'binary');
    assert.equal(sourceText(bytesOf('plain words'), null).kind, 'text');
  });

  it('cuts a long body at the limit and says how long it was', () => {
    const shown = sourceText(bytesOf('x'.repeat(50)), 'text/plain', 20);
    assert.deepEqual(shown, { kind: 'text', text: 'x'.repeat(20), charset: 'utf-8', totalChars: 50, cut: true });
  });
});

describe('markMatches', () => {
  it('marks every match, case-insensitively, keeping the text as written', () => {
    const { pieces, count } = markMatches('Sold out. SOLD OUT! sold', 'sold out');
    assert.equal(count, 2);
    assert.deepEqual(pieces, [
      { text: 'Sold out', marked: true },
      { text: '. ', marked: false },
      { text: 'SOLD OUT', marked: true },
      { text: '! sold', marked: false },
    ]);
    assert.equal(pieces.map((p) => p.text).join(''), 'Sold out. SOLD OUT! sold');
  });

  it('marks nothing for an empty query or no match', () => {
    assert.deepEqual(markMatches('abc', ''), { pieces: [{ text: 'abc', marked: false }], count: 0 });
    assert.deepEqual(markMatches('abc', 'z'), { pieces: [{ text: 'abc', marked: false }], count: 0 });
  });

  it('counts every match but marks at most the limit, the text whole', () => {
    const { pieces, count } = markMatches('a-a-a-a', 'a', 2);
    assert.equal(count, 4);
    assert.equal(pieces.filter((p) => p.marked).length, 2);
    assert.equal(pieces.map((p) => p.text).join(''), 'a-a-a-a');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cssUrls, MAX_CSS_REFS } from '../../src/core/links/css-urls.ts';

describe('cssUrls', () => {
  const cases: [string, string, { imports: string[]; urls: string[] }][] = [
    ['@import with a string', '@import "a.css"; @import \'b.css\' screen;', { imports: ['a.css', 'b.css'], urls: [] }],
    [
      '@import url()',
      '@import url(a.css); @import url("b.css") print; @IMPORT url( c.css );',
      { imports: ['a.css', 'b.css', 'c.css'], urls: [] },
    ],
    [
      'url() unquoted, quoted, spaced',
      'a{background:url(x.png)} b{background:url( "y.png" )} c{background:url(  z.png  )}',
      { imports: [], urls: ['x.png', 'y.png', 'z.png'] },
    ],
    [
      'font-face sources',
      '@font-face{font-family:F;src:url(f.woff2) format("woff2"),url(\'f.woff\') format("woff")}',
      { imports: [], urls: ['f.woff2', 'f.woff'] },
    ],
    [
      'comments hide urls',
      '/* url(no.png) @import "no.css"; */ a{background:url(yes.png)}',
      { imports: [], urls: ['yes.png'] },
    ],
    [
      'strings hide urls',
      'a::before{content:"url(no.png)"} b{background:url(yes.png)}',
      { imports: [], urls: ['yes.png'] },
    ],
    [
      'escapes decoded',
      'a{background:url(sp\\ ace.png)} b{background:url("q\\"uote.png")} c{background:url(\\31 .png)}',
      { imports: [], urls: ['sp ace.png', 'q"uote.png', '1.png'] },
    ],
    [
      'data:, empty and fragment urls dropped',
      'a{background:url(data:image/png;base64,AAA)} b{mask:url(#m)} c{background:url()} d{background:url("")}',
      { imports: [], urls: [] },
    ],
    [
      'image-set strings and urls',
      'a{background-image:image-set("a.png" 1x, url(b.png) 2x)} b{background:-webkit-image-set(\'c.png\' 1x)} c{content:"not-an-image"}',
      { imports: [], urls: ['a.png', 'b.png', 'c.png'] },
    ],
    [
      'a bad url is skipped to its end',
      'a{background:url(x y.png)} b{background:url(ok.png)}',
      { imports: [], urls: ['ok.png'] },
    ],
    ['unterminated things do not throw', 'a{background:url(x.png', { imports: [], urls: ['x.png'] }],
    ['unterminated comment', 'a{} /* url(x.png)', { imports: [], urls: [] }],
    ['uppercase URL(', 'a{background:URL(up.png)}', { imports: [], urls: ['up.png'] }],
    ['a property named like url is not a url', 'a{--url: 1; my-url(x)}', { imports: [], urls: [] }],
  ];
  for (const [name, css, expected] of cases) {
    it(name, () => assert.deepEqual(cssUrls(css), expected));
  }

  it(`reads at most ${MAX_CSS_REFS} references`, () => {
    const css = Array.from({ length: MAX_CSS_REFS + 10 }, (_, i) => `.c${i}{background:url(i${i}.png)}`).join('');
    assert.equal(cssUrls(css).urls.length, MAX_CSS_REFS);
  });

  it('never throws on garbage', () => {
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = [
      'url(',
      '@import',
      '"',
      "'",
      '\\',
      ')',
      '(',
      '/*',
      '*/',
      ';',
      '{',
      '}',
      'a',
      ' ',
      '\n',
      'image-set(',
      'é',
    ];
    for (let n = 0; n < 500; n += 1) {
      const css = Array.from({ length: 40 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      assert.doesNotThrow(() => cssUrls(css), css);
    }
  });
});

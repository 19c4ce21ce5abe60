import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractLinks } from '../../src/core/links/extract-links.ts';
import { resourceRefsOf, srcsetUrls } from '../../src/core/links/resource-refs.ts';

const P = 'https://a.example/dir/page.html';

describe('srcsetUrls', () => {
  const cases: [string, string[]][] = [
    ['a.png 1x, b.png 2x', ['a.png', 'b.png']],
    ['a.png', ['a.png']],
    ['  a.png 100w,b.png   200w , c.png', ['a.png', 'b.png', 'c.png']],
    ['a,b.png 1x, c.png 2x', ['a,b.png', 'c.png']],
    // A URL runs to the next space: commas inside it are its own (HTML's srcset parser).
    ['a.png,b.png', ['a.png,b.png']],
    ['a.png 1x (weird, descriptor), b.png 2x', ['a.png', 'b.png']],
    ['', []],
    [' , , ', []],
  ];
  for (const [srcset, expected] of cases)
    it(JSON.stringify(srcset), () => assert.deepEqual(srcsetUrls(srcset), expected));
});

describe('resourceRefsOf', () => {
  const cases: [string, string, Record<string, string>, boolean, string[]][] = [
    ['stylesheet', 'link', { rel: 'stylesheet', href: 's.css' }, false, ['s.css']],
    [
      'alternate stylesheet',
      'link',
      { rel: 'Alternate StyleSheet', href: 'alt.css', media: 'print' },
      false,
      ['alt.css'],
    ],
    ['icon kinds', 'link', { rel: 'shortcut icon', href: 'f.ico' }, false, ['f.ico']],
    ['apple-touch-icon', 'link', { rel: 'apple-touch-icon', href: 't.png' }, false, ['t.png']],
    ['manifest', 'link', { rel: 'manifest', href: 'm.json' }, false, ['m.json']],
    ['mask-icon', 'link', { rel: 'mask-icon', href: 'm.svg' }, false, ['m.svg']],
    ['modulepreload', 'link', { rel: 'modulepreload', href: 'mod.js' }, false, ['mod.js']],
    [
      'preload with imagesrcset',
      'link',
      { rel: 'preload', as: 'image', href: 'p.png', imagesrcset: 'p1.png 1x, p2.png 2x' },
      false,
      ['p.png', 'p1.png', 'p2.png'],
    ],
    ['a plain link is not a resource', 'link', { rel: 'alternate', href: 'feed.xml' }, false, []],
    ['canonical is not a resource', 'link', { rel: 'canonical', href: '/' }, false, []],
    ['script', 'script', { src: 'app.js', type: 'module' }, false, ['app.js']],
    ['inline script', 'script', {}, false, []],
    ['img with srcset', 'img', { src: 'a.png', srcset: 'b.png 2x' }, false, ['a.png', 'b.png']],
    ['picture source', 'source', { srcset: 'w.webp 1x, w2.webp 2x' }, false, ['w.webp', 'w2.webp']],
    ['media source', 'source', { src: 'v.mp4' }, false, ['v.mp4']],
    ['input image', 'input', { type: 'IMAGE', src: 'go.png' }, false, ['go.png']],
    ['input text', 'input', { type: 'text', src: 'no.png' }, false, []],
    ['video', 'video', { src: 'v.webm', poster: 'poster.jpg' }, false, ['v.webm', 'poster.jpg']],
    ['audio', 'audio', { src: 'a.mp3' }, false, ['a.mp3']],
    ['track', 'track', { src: 'subs.vtt' }, false, ['subs.vtt']],
    ['embed', 'embed', { src: 'movie.swf' }, false, ['movie.swf']],
    ['object', 'object', { data: 'doc.svg' }, false, ['doc.svg']],
    ['svg image href', 'image', { href: 'i.png' }, true, ['i.png']],
    ['svg image xlink:href', 'image', { 'xlink:href': 'x.png' }, true, ['x.png']],
    ['svg use to a file', 'use', { href: 'sprite.svg#icon' }, true, ['sprite.svg#icon']],
    ['svg use in the page', 'use', { href: '#icon' }, true, []],
    ['image outside svg', 'image', { href: 'i.png' }, false, []],
    ['body background', 'body', { background: 'bg.gif' }, false, ['bg.gif']],
    ['style attribute', 'div', { style: "background: url('s.png'), url(t.png)" }, false, ['s.png', 't.png']],
    ['empty src', 'img', { src: '  ' }, false, []],
  ];
  for (const [name, tag, attributes, inSvg, expected] of cases)
    it(name, () => assert.deepEqual(resourceRefsOf(tag, attributes, inSvg), expected));
});

describe('extractLinks: resources and frames', () => {
  it('resolves resources against the base URL, each once, http(s) only', () => {
    const html = `<base href="/base/"><link rel=stylesheet href="s.css"><img src="i.png"><img src="i.png"><img src="data:image/png;base64,AA"><script src="javascript:void(0)"></script><img src="https://cdn.example/x.png#frag">`;
    assert.deepEqual(extractLinks(html, P).resources, [
      'https://a.example/base/s.css',
      'https://a.example/base/i.png',
      'https://cdn.example/x.png',
    ]);
  });

  it('reads the url()s and @imports of <style> blocks, not of text that only looks like them', () => {
    const html =
      '<style>@import "imp.css"; h1 { background: url(h1.png) }</style><p>url(not.png)</p><svg><style>.a{fill:url(#g)}</style></svg>';
    assert.deepEqual(extractLinks(html, P).resources, [
      'https://a.example/dir/imp.css',
      'https://a.example/dir/h1.png',
    ]);
  });

  it('reads inline svg <image> and <use>, and an <image> tag in HTML as the <img> browsers make of it', () => {
    const html =
      '<svg><image href="in-svg.png"/><use xlink:href="sprite.svg#a"/></svg><image src="html-image.png"><p><image href="not-svg.png">';
    assert.deepEqual(extractLinks(html, P).resources, [
      'https://a.example/dir/in-svg.png',
      'https://a.example/dir/sprite.svg',
      'https://a.example/dir/html-image.png',
    ]);
  });

  it('lists iframes and frames as links (pages), not resources', () => {
    const found = extractLinks(
      '<iframe src="/frame" title="Map"></iframe><frameset><frame src="f2.html"></frameset>',
      P,
    );
    assert.deepEqual(
      found.links.map((l) => [l.url, l.text]),
      [
        ['https://a.example/frame', 'Map'],
        ['https://a.example/dir/f2.html', ''],
      ],
    );
    assert.deepEqual(found.resources, []);
  });

  it('does not take a stylesheet for anchor text', () => {
    const found = extractLinks('<a href="/x"><style>a{background:url(b.png)}</style>Go</a>', P);
    assert.equal(found.links[0]?.text, 'Go');
    assert.deepEqual(found.resources, ['https://a.example/dir/b.png']);
  });
});

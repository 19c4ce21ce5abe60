import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type ExtractedLink,
  extractLinks,
  MAX_ANCHOR_TEXT,
  MAX_TEXTS_PER_LINK,
} from '../../src/core/links/extract-links.ts';
import { MAX_URL_LENGTH } from '../../src/core/url/traps.ts';

const PAGE = 'https://example.com/dir/page.html';

/** URLs of the links of `html` on {@link PAGE}. */
function urls(html: string, pageUrl = PAGE): string[] {
  return extractLinks(html, pageUrl).links.map((link) => link.url);
}

/** The one link of `html`. */
function only(html: string): ExtractedLink {
  const { links } = extractLinks(html, PAGE);
  assert.equal(links.length, 1, `expected one link in ${html}`);
  const [link] = links;
  assert.ok(link);
  return link;
}

describe('extractLinks: hrefs', () => {
  const cases: [name: string, html: string, expected: string[]][] = [
    ['reads a double-quoted href', '<a href="/a">x</a>', ['https://example.com/a']],
    ['reads a single-quoted href', "<a href='/a'>x</a>", ['https://example.com/a']],
    ['reads an unquoted href', '<a href=/a?b=1>x</a>', ['https://example.com/a?b=1']],
    ['reads upper-case tags and attributes', '<A HREF="/A">x</A>', ['https://example.com/A']],
    ['reads mixed-case tags', '<aReA HrEf="/map">', ['https://example.com/map']],
    ['reads area links', '<map><area shape="rect" href="/region"></map>', ['https://example.com/region']],
    ['resolves a relative href against the page', '<a href="other.html">x</a>', ['https://example.com/dir/other.html']],
    ['resolves ../', '<a href="../up/./x">x</a>', ['https://example.com/up/x']],
    ['resolves a scheme-relative href', '<a href="//cdn.example.org/x">x</a>', ['https://cdn.example.org/x']],
    ['drops the fragment', '<a href="/a#part">x</a>', ['https://example.com/a']],
    ['turns a fragment-only link into the page itself', '<a href="#top">x</a>', [PAGE]],
    [
      'drops default ports',
      '<a href="http://example.com:80/x">x</a><a href="https://example.com:443/y">y</a>',
      ['http://example.com/x', 'https://example.com/y'],
    ],
    ['keeps other ports', '<a href="https://example.com:8443/x">x</a>', ['https://example.com:8443/x']],
    ['lower-cases the host', '<a href="https://EXAMPLE.org/Path">x</a>', ['https://example.org/Path']],
    ['converts an IDN host to punycode', '<a href="https://bücher.example/">x</a>', ['https://xn--bcher-kva.example/']],
    ['trims whitespace around an href', '<a href="  \n\t/spaced \n ">x</a>', ['https://example.com/spaced']],
    ['decodes entities in an href', '<a href="/q?a=1&amp;b=2&#38;c=3">x</a>', ['https://example.com/q?a=1&b=2&c=3']],
    [
      'keeps an &name= query parameter that looks like an entity',
      '<a href="/q?x=1&copy=2">x</a>',
      ['https://example.com/q?x=1&copy=2'],
    ],
    ['drops javascript: links', '<a href="javascript:void(0)">x</a><a href=" JAVASCRIPT:alert(1)">y</a>', []],
    ['drops mailto: and tel: links', '<a href="mailto:me@example.com">x</a><a href="tel:+1">y</a>', []],
    ['drops data: links', '<a href="data:text/html,hi">x</a>', []],
    ['drops ftp: links', '<a href="ftp://example.com/file">x</a>', []],
    ['drops invalid URLs', '<a href="http://exa mple.com/">x</a><a href="https://">y</a>', []],
    ['ignores an anchor without href', '<a name="top">x</a><a id="y">y</a>', []],
    [
      'ignores other elements with href',
      '<link href="/style.css" rel="stylesheet"><img src="/i.png"><script src="/s.js"></script>',
      [],
    ],
    [
      'ignores a tag inside a comment',
      '<!-- <a href="/hidden">x</a> --><a href="/shown">y</a>',
      ['https://example.com/shown'],
    ],
    ['ignores a tag inside a script', '<script>document.write("<a href=\'/hidden\'>x</a>")</script>', []],
    [
      'keeps document order',
      '<a href="/c">c</a><area href="/a"><a href="/b">b</a>',
      ['https://example.com/c', 'https://example.com/a', 'https://example.com/b'],
    ],
    ['resolves an empty href to the page', '<a href="">self</a>', [PAGE]],
  ];
  for (const [name, html, expected] of cases) {
    test(name, () => {
      assert.deepEqual(urls(html), expected);
    });
  }
});

describe('extractLinks: base href', () => {
  test('resolves links against an absolute base', () => {
    const result = extractLinks('<head><base href="https://cdn.example.net/root/"></head><a href="x">x</a>', PAGE);
    assert.deepEqual(
      result.links.map((link) => link.url),
      ['https://cdn.example.net/root/x'],
    );
    assert.equal(result.baseUrl, 'https://cdn.example.net/root/');
  });

  test('resolves a relative base against the page URL', () => {
    const result = extractLinks('<base href="../sub/"><a href="x">x</a><a href="/abs">y</a>', PAGE);
    assert.deepEqual(
      result.links.map((link) => link.url),
      ['https://example.com/sub/x', 'https://example.com/abs'],
    );
    assert.equal(result.baseUrl, 'https://example.com/sub/');
  });

  test('applies the base to links before it too', () => {
    assert.deepEqual(urls('<a href="x">x</a><base href="/b/">'), ['https://example.com/b/x']);
  });

  test('uses only the first base with an href', () => {
    assert.deepEqual(urls('<base target="_blank"><base href="/first/"><base href="/second/"><a href="x">x</a>'), [
      'https://example.com/first/x',
    ]);
  });

  test('ignores a base that is not http(s)', () => {
    const result = extractLinks('<base href="javascript:void(0)"><a href="x">x</a>', PAGE);
    assert.deepEqual(
      result.links.map((link) => link.url),
      ['https://example.com/dir/x'],
    );
    assert.equal(result.baseUrl, PAGE);
  });

  test('gives the page URL as base without a base element', () => {
    assert.equal(extractLinks('<a href="x">x</a>', PAGE).baseUrl, PAGE);
  });
});

describe('extractLinks: document <link>s (issue 26, item 7)', () => {
  const cases: [name: string, html: string, expected: string[]][] = [
    [
      'follows a search page linked only by <link rel="search">',
      '<link rel="search" title="Search" href="/search/">',
      ['https://example.com/search/'],
    ],
    [
      'follows rel="search" with an HTML type',
      '<link rel="search" type="text/html" href="/search/">',
      ['https://example.com/search/'],
    ],
    [
      'leaves an OpenSearch description alone',
      '<link rel="search" type="application/opensearchdescription+xml" href="/opensearch.xml">',
      [],
    ],
    [
      'follows an alternate language version',
      '<link rel="alternate" hreflang="de" href="/de/page.html">',
      ['https://example.com/de/page.html'],
    ],
    ['leaves a feed alone', '<link rel="alternate" type="application/rss+xml" href="/feed.xml">', []],
    ['leaves an alternate stylesheet to the resources', '<link rel="alternate stylesheet" href="/dark.css">', []],
    [
      'follows next, prev, previous, help and license',
      '<link rel="next" href="p3.html"><link rel="prev" href="p1.html"><link rel="previous" href="p0.html"><link rel="help" href="/help"><link rel="license" href="/license">',
      [
        'https://example.com/dir/p3.html',
        'https://example.com/dir/p1.html',
        'https://example.com/dir/p0.html',
        'https://example.com/help',
        'https://example.com/license',
      ],
    ],
    ['reads rel tokens in any case, among others', '<LINK REL="Next Prefetch" HREF="/n">', ['https://example.com/n']],
    [
      'resolves against <base href>',
      '<base href="https://example.com/docs/"><link rel="next" href="two.html">',
      ['https://example.com/docs/two.html'],
    ],
    [
      "follows only targets on the page's own origin",
      '<link rel="next" href="https://other.example/n"><link rel="license" href="http://example.com/license"><link rel="help" href="https://example.com:8443/help">',
      [],
    ],
    [
      'leaves other rels alone',
      '<link rel="canonical" href="/c"><link rel="author" href="/me"><link rel="dns-prefetch" href="//cdn.example.com"><link rel="stylesheet" href="/s.css">',
      [],
    ],
    ['ignores a document <link> without href', '<link rel="next"><link rel="next" href="  ">', []],
  ];
  for (const [name, html, expected] of cases) {
    test(name, () => {
      assert.deepEqual(urls(html), expected);
    });
  }

  test('takes the title as the link\'s text, and rel="nofollow" as a nofollow link', () => {
    const link = only('<link rel="search nofollow" title="Search the docs" href="/search/">');
    assert.deepEqual({ text: link.text, nofollow: link.nofollow }, { text: 'Search the docs', nofollow: true });
  });

  test('merges a document <link> with an <a> to the same URL', () => {
    assert.deepEqual(urls('<link rel="next" href="/n"><a href="/n">next</a>'), ['https://example.com/n']);
  });
});

describe('extractLinks: nofollow', () => {
  const relCases: [rel: string, nofollow: boolean][] = [
    ['nofollow', true],
    ['nofollow noopener', true],
    ['noopener  NOFOLLOW\tnoreferrer', true],
    ['NoFollow', true],
    ['noopener', false],
    ['nofollowing', false],
    ['no-follow', false],
    ['', false],
  ];
  for (const [rel, nofollow] of relCases) {
    test(`reads rel="${rel}" as nofollow ${nofollow}`, () => {
      assert.equal(only(`<a href="/x" rel="${rel}">x</a>`).nofollow, nofollow);
    });
  }

  test('reads rel without quotes and on area', () => {
    assert.equal(only('<a href=/x rel=nofollow>x</a>').nofollow, true);
    assert.equal(only('<area href="/x" rel="nofollow">').nofollow, true);
  });

  test('reads no rel as followable', () => {
    assert.equal(only('<a href="/x">x</a>').nofollow, false);
  });

  const metaCases: [html: string, metaNofollow: boolean][] = [
    ['<meta name="robots" content="nofollow">', true],
    ['<meta name="robots" content="noindex, nofollow">', true],
    ['<meta name="robots" content="noindex,nofollow">', true],
    ['<meta name="robots" content="none">', true],
    ['<meta name="robots" content="NOFOLLOW">', true],
    ['<META NAME="ROBOTS" CONTENT="NoIndex, NoFollow">', true],
    ["<meta name=' Robots ' content='nofollow'>", true],
    ['<meta name="robots" content="noindex">', false],
    ['<meta name="robots" content="index, follow">', false],
    ['<meta name="robots" content="nofollowing">', false],
    ['<meta name="googlebot" content="nofollow">', false],
    ['<meta name="description" content="nofollow none">', false],
    ['<meta content="nofollow">', false],
    ['', false],
  ];
  for (const [html, metaNofollow] of metaCases) {
    test(`reads ${html || 'no meta'} as metaNofollow ${metaNofollow}`, () => {
      assert.equal(
        extractLinks(`<html><head>${html}</head><body><a href="/x">x</a></body></html>`, PAGE).metaNofollow,
        metaNofollow,
      );
    });
  }

  test('does not mark links nofollow because of the meta robots', () => {
    assert.equal(
      extractLinks('<meta name="robots" content="nofollow"><a href="/x">x</a>', PAGE).links[0]?.nofollow,
      false,
    );
  });
});

describe('extractLinks: anchor text', () => {
  const cases: [name: string, html: string, text: string][] = [
    ['takes the text inside the anchor', '<a href="/x">Hello</a>', 'Hello'],
    [
      'includes the text of nested elements',
      '<a href="/x"><span>Hello</span> <b>big <i>wide</i></b> world</a>',
      'Hello big wide world',
    ],
    ['collapses and trims whitespace', '<a href="/x">\n   Hello \t\n  world  </a>', 'Hello world'],
    ['collapses non-breaking spaces', '<a href="/x">a&nbsp;&nbsp;b</a>', 'a b'],
    ['decodes entities', '<a href="/x">Tom &amp; Jerry&#39;s &lt;show&gt;</a>', "Tom & Jerry's <show>"],
    [
      'uses the alt of an image-only link',
      '<a href="/x"><img src="logo.png" alt="  Company   logo "></a>',
      'Company logo',
    ],
    ['prefers the text to the image alt', '<a href="/x"><img alt="icon"> Home</a>', 'Home'],
    [
      'uses the title of an anchor without text or alt',
      '<a href="/x" title="Next page"><img src="arrow.png"></a>',
      'Next page',
    ],
    ['reads the alt of an area', '<area href="/x" alt="North region">', 'North region'],
    ['reads the title of an area without alt', '<area href="/x" title="South">', 'South'],
    ['gives an empty text when there is none', '<a href="/x"><img src="i.png"></a>', ''],
    ['ignores comments inside the anchor', '<a href="/x">a<!-- hidden -->b</a>', 'ab'],
    ['ignores script text inside the anchor', '<a href="/x">a<script>var s = 1;</script>b</a>', 'ab'],
    ['reads the text of an anchor left open at the end', '<p><a href="/x">unterminated text', 'unterminated text'],
  ];
  for (const [name, html, text] of cases) {
    test(name, () => {
      assert.equal(only(html).text, text);
    });
  }

  test('caps the text at 200 characters', () => {
    const text = only(`<a href="/x">${'word '.repeat(1000)}</a>`).text;
    assert.equal(text.length <= 200, true);
    assert.equal(text.length >= 195, true);
    assert.ok(text.startsWith('word word'));
  });

  test('does not split a surrogate pair when capping', () => {
    const text = only(`<a href="/x">${'a'.repeat(199)}😀😀</a>`).text;
    assert.equal(text, 'a'.repeat(199));
  });

  test('caps the text of a huge anchor spread over many elements', () => {
    const text = only(`<a href="/x">${'<span>  ab  </span>\n'.repeat(20_000)}</a>`).text;
    assert.equal(text, 'ab '.repeat(67).slice(0, 200).trimEnd());
  });

  test('closes an anchor when the next one opens', () => {
    const { links } = extractLinks('<a href="/1">one<a href="/2">two</a>three', PAGE);
    assert.deepEqual(links, [
      { url: 'https://example.com/1', text: 'one', texts: ['one'], nofollow: false, element: 'a', rel: '' },
      { url: 'https://example.com/2', text: 'two', texts: ['two'], nofollow: false, element: 'a', rel: '' },
    ]);
  });
});

describe('extractLinks: duplicates', () => {
  test('keeps one link per URL at its first position', () => {
    assert.deepEqual(
      urls('<a href="/a">1</a><a href="/b">2</a><a href="/a#x">3</a><a href="https://example.com/a">4</a>'),
      ['https://example.com/a', 'https://example.com/b'],
    );
  });

  test('makes a link followable when any occurrence is', () => {
    assert.equal(only('<a href="/a" rel="nofollow">1</a><a href="/a">2</a>').nofollow, false);
    assert.equal(only('<a href="/a">1</a><a href="/a" rel="nofollow">2</a>').nofollow, false);
  });

  test('keeps a link nofollow when every occurrence is', () => {
    assert.equal(only('<a href="/a" rel="nofollow">1</a><a href="/a" rel="nofollow">2</a>').nofollow, true);
  });

  test('keeps the first non-empty text', () => {
    assert.equal(
      only('<a href="/a"><img src="i.png"></a><a href="/a">Second</a><a href="/a">Third</a>').text,
      'Second',
    );
  });

  test('keeps every distinct text of a link, in order', () => {
    const link = only(
      '<a href="genindex.html">index</a><a href="genindex.html"></a><a href="genindex.html">General Index</a><a href="genindex.html">index</a>',
    );
    assert.equal(link.text, 'index');
    assert.deepEqual(link.texts, ['index', 'General Index']);
  });

  test('keeps at most 50 texts per link, each at most 200 characters', () => {
    const html = Array.from({ length: 60 }, (_, i) => `<a href="/a">${i} ${'t'.repeat(300)}</a>`).join('');
    const { texts } = only(html);
    assert.equal(texts.length, MAX_TEXTS_PER_LINK);
    assert.ok(texts.every((text) => text.length <= MAX_ANCHOR_TEXT));
  });
});

describe('extractLinks: title', () => {
  const cases: [name: string, html: string, title: string | null][] = [
    ['reads the title', '<html><head><title>My page</title></head></html>', 'My page'],
    ['reads an upper-case title', '<TITLE>Upper</TITLE>', 'Upper'],
    ['decodes entities in the title', '<title>Tom &amp; Jerry &ndash; &lt;b&gt;</title>', 'Tom & Jerry – <b>'],
    ['collapses whitespace in the title', '<title>\n  A \t  title\n</title>', 'A title'],
    ['keeps the first title', '<title>First</title><title>Second</title>', 'First'],
    ['ignores the title of an inline SVG', '<body><svg><title>Icon</title></svg></body>', null],
    ['ignores an SVG title before the page title', '<svg><title>Icon</title></svg><title>Page</title>', 'Page'],
    ['gives null without a title', '<p>no title</p>', null],
    ['gives an empty string for an empty title', '<title></title>', ''],
    ['reads an unterminated title', '<title>Cut off', 'Cut off'],
    ['does not take tags in the title as markup', '<title>a <a href="/x">b</a></title>', 'a <a href="/x">b</a>'],
  ];
  for (const [name, html, title] of cases) {
    test(name, () => {
      assert.equal(extractLinks(html, PAGE).title, title);
    });
  }

  test('caps the title at 500 characters', () => {
    const title = extractLinks(`<title>${'x'.repeat(2000)}</title>`, PAGE).title;
    assert.equal(title, 'x'.repeat(500));
  });
});

describe('extractLinks: broken markup', () => {
  const garbage = [
    '',
    '<',
    '<a',
    '<a href',
    '<a href=',
    '<a href="/x',
    "<a href='/x>text",
    '</a></a></div>',
    '<<<>>><a href="/ok">ok</a><<<',
    '<a href="/x"><a href="/y"></b></i></a>',
    '<!--',
    '<![CDATA[',
    '<title>',
    '<script>',
    '\u0000\uFFFD<a\u0000href="/x">',
    'x'.repeat(10_000),
  ];
  for (const html of garbage) {
    test(`does not throw on ${JSON.stringify(html.slice(0, 40))}`, () => {
      assert.doesNotThrow(() => extractLinks(html, PAGE));
    });
  }

  test('still finds links around stray markup', () => {
    assert.deepEqual(urls('<<<>>><a href="/ok">ok</a><<<'), ['https://example.com/ok']);
  });

  test('keeps absolute links when the page URL is not a URL', () => {
    assert.deepEqual(urls('<a href="relative">x</a><a href="https://example.com/abs">y</a>', 'not a url'), [
      'https://example.com/abs',
    ]);
  });
});

describe('extractLinks: unterminated markup', () => {
  test('reads links after an unclosed tag, comment-like text and an unclosed element', () => {
    const html =
      '<div class="x"<p>text <b>bold <a href="/one">one</a><span <a href="/two">two</a> <i>never closed <a href="/three">three';
    assert.deepEqual(urls(html), ['https://example.com/one', 'https://example.com/three']);
  });

  test('keeps the page title and the links after it when <title> is never closed', () => {
    const result = extractLinks('<title>Unclosed title <a href="/in-title">x</a>', PAGE);
    assert.equal(
      result.title,
      'Unclosed title <a href="/in-title">x</a>',
      'the title swallows the rest, as a browser does',
    );
    assert.deepEqual(result.links, []);
  });

  test('takes an unclosed <a> to the end of the document as one link', () => {
    const link = only(`<a href="/last">${'text '.repeat(1000)}`);
    assert.equal(link.url, 'https://example.com/last');
    assert.ok(link.text.length <= 200);
  });

  test('finds no links inside an unclosed script or comment, and does not throw', () => {
    assert.deepEqual(urls('<a href="/before">b</a><script>var a = "<a href=\'/in-script\'>";'), [
      'https://example.com/before',
    ]);
    assert.deepEqual(urls('<a href="/before">b</a><!-- <a href="/in-comment">'), ['https://example.com/before']);
  });

  test('drops the megabyte href of an unclosed quote and keeps reading', () => {
    const html = `<a href="/quote-never-closed>${'x'.repeat(1_000_000)}</a><a href='/fine'>fine</a>`;
    assert.deepEqual(urls(html), []);
    assert.deepEqual(urls(`${html}"><a href="/after">after</a>`), ['https://example.com/after']);
  });
});

describe('extractLinks: odd URLs', () => {
  test(`keeps a link of ${MAX_URL_LENGTH} characters and drops a longer one`, () => {
    const longest = `https://example.com/${'a'.repeat(MAX_URL_LENGTH - 'https://example.com/'.length)}`;
    assert.equal(longest.length, MAX_URL_LENGTH);
    assert.deepEqual(
      urls(`<a href="${longest}">x</a><a href="${longest}b">y</a><a href="/${'c'.repeat(8000)}">z</a>`),
      [longest],
    );
  });

  test('keeps invalid percent-encoding as written', () => {
    assert.deepEqual(urls('<a href="/bad%zz%">x</a><a href="/lone%">y</a><a href="/%E9t%C3%A9">z</a>'), [
      'https://example.com/bad%zz%',
      'https://example.com/lone%',
      'https://example.com/%E9t%C3%A9',
    ]);
  });

  test('drops every spelling of javascript: and data: links', () => {
    const hrefs = [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      ' javascript:x',
      'java\tscript:x',
      'java&#x09;script:x',
      'data:text/html,<a href=/x>',
      'DATA:,x',
      'vbscript:x',
    ];
    assert.deepEqual(urls(hrefs.map((h) => `<a href="${h}">x</a>`).join('')), []);
  });

  test('converts IDN hosts to punycode, whatever their case', () => {
    assert.deepEqual(
      urls('<a href="http://BÜCHER.example/ä">x</a><a href="http://xn--bcher-kva.example/%C3%A4">y</a>'),
      ['http://xn--bcher-kva.example/%C3%A4'],
    );
  });

  test('removes session ids from links', () => {
    assert.deepEqual(urls('<a href="/shop;jsessionid=ABC123?PHPSESSID=f00&page=2">x</a>'), [
      'https://example.com/shop?page=2',
    ]);
  });
});

describe('extractLinks: large page', () => {
  test('reads all 100,000 links of a page', () => {
    const html = `<title>Many</title>${Array.from({ length: 100_000 }, (_, i) => `<a href=/n/${i}>${i}</a>`).join('\n')}`;
    const result = extractLinks(html, 'https://example.com/');
    assert.equal(result.links.length, 100_000);
    assert.equal(result.links[99_999]?.url, 'https://example.com/n/99999');
  });

  test('reads every link of a 100 KB page with 900 links', () => {
    const rows: string[] = [];
    for (let i = 0; i < 900; i++) {
      rows.push(
        `<li><a href="/item/${i}?ref=list&amp;page=${i % 7}" class="item">Item <b>${i}</b></a> <span>${'filler '.repeat(10)}</span></li>`,
      );
    }
    const html = `<!doctype html><html><head><title>Big</title></head><body><ul>${rows.join('\n')}</ul></body></html>`;
    assert.ok(html.length >= 100_000, `page is ${html.length} chars`);

    const result = extractLinks(html, 'https://example.com/list');
    assert.equal(result.title, 'Big');
    assert.equal(result.links.length, 900);
    assert.deepEqual(result.links[0], {
      url: 'https://example.com/item/0?ref=list&page=0',
      text: 'Item 0',
      texts: ['Item 0'],
      nofollow: false,
      element: 'a',
      rel: '',
    });
    assert.deepEqual(result.links[899], {
      url: 'https://example.com/item/899?ref=list&page=3',
      text: 'Item 899',
      texts: ['Item 899'],
      nofollow: false,
      element: 'a',
      rel: '',
    });
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  MAX_ANCHOR_IDS,
  MAX_H1,
  type MarkupFacts,
  xRobotsDirectives,
} from '../../src/core/page-facts/page-facts-reader.ts';
import { linkHeaderCanonical, pageFactsOf } from '../../src/core/page-facts/response-facts.ts';
import { extractLinks } from '../../src/core/links/extract-links.ts';
import { createScope } from '../../src/core/url/scope.ts';
import { indexabilityOf } from '../../src/core/page-facts/indexability.ts';
import { crawl, row, world } from '../support/crawl-world.ts';

const PAGE = 'https://example.com/dir/page.html';

/** The markup facts of `html` on `pageUrl`. */
function facts(html: string, pageUrl = PAGE, productToken = 'tabcrawl'): MarkupFacts {
  return extractLinks(html, pageUrl, 'utf-8', { productToken }).facts;
}

describe('page facts: canonical', () => {
  test('reads a canonical in the head, resolved and normalized', () => {
    assert.equal(facts('<head><link rel="canonical" href="/dir/page.html#top"></head>').canonical, PAGE);
  });
  test('reads upper-case tags and unquoted attributes', () => {
    assert.equal(facts('<HEAD><LINK REL=Canonical HREF=/c></HEAD>').canonical, 'https://example.com/c');
  });
  test('keeps the first of several canonicals', () => {
    assert.equal(
      facts('<link rel="canonical" href="/one"><link rel="canonical" href="/two">').canonical,
      'https://example.com/one',
    );
  });
  test('ignores a canonical in the body, as search engines do', () => {
    assert.equal(
      facts('<head><title>t</title></head><body><link rel="canonical" href="/body"></body>').canonical,
      null,
    );
  });
  test('ignores a canonical after body content even without a body tag', () => {
    assert.equal(facts('<title>t</title><p>Hello</p><link rel="canonical" href="/late">').canonical, null);
  });
  test('resolves a relative canonical against <base href>', () => {
    assert.equal(
      facts('<head><base href="https://cdn.example.com/docs/"><link rel="canonical" href="intro.html"></head>')
        .canonical,
      'https://cdn.example.com/docs/intro.html',
    );
  });
  test('reads rel="canonical" among other tokens', () => {
    assert.equal(facts('<link rel="nofollow canonical" href="/c">').canonical, 'https://example.com/c');
  });
  test('a canonical that is not an http(s) URL is none', () => {
    assert.equal(facts('<link rel="canonical" href="javascript:void(0)">').canonical, null);
  });
  test('no canonical: null', () => {
    assert.equal(facts('<title>x</title>').canonical, null);
  });
  test('reads the Link header canonical, relative to the page', () => {
    assert.equal(linkHeaderCanonical(['</a.pdf>; rel="canonical"'], PAGE), 'https://example.com/a.pdf');
    assert.equal(
      linkHeaderCanonical(
        ['<https://example.com/x>; rel=preload; as=style, <https://example.com/c>; REL="Canonical"'],
        PAGE,
      ),
      'https://example.com/c',
    );
    assert.equal(linkHeaderCanonical(['<https://example.com/x>; rel="alternate"; hreflang="de"'], PAGE), null);
    assert.equal(linkHeaderCanonical(['garbage <<; rel=', ''], PAGE), null);
  });
});

describe('page facts: robots directives', () => {
  test('reads meta robots, lower-cased, distinct, in order', () => {
    assert.deepEqual(facts('<meta name="ROBOTS" content="NoIndex, nofollow,noindex">').robots, ['noindex', 'nofollow']);
  });
  test('counts robots and the product token, not other crawlers', () => {
    const html =
      '<meta name="googlebot" content="noindex"><meta name="robots" content="noarchive"><meta name="TabCrawl" content="nofollow">';
    assert.deepEqual(facts(html).robots, ['noarchive', 'nofollow']);
  });
  test('keeps valued directives without spaces around the colon', () => {
    assert.deepEqual(facts('<meta name="robots" content="max-snippet: 20, max-image-preview:large">').robots, [
      'max-snippet:20',
      'max-image-preview:large',
    ]);
  });
  test('X-Robots-Tag without user agent applies to every crawler', () => {
    assert.deepEqual(xRobotsDirectives(['noindex, nofollow'], 'tabcrawl'), ['noindex', 'nofollow']);
  });
  test('X-Robots-Tag for googlebot is ignored', () => {
    assert.deepEqual(xRobotsDirectives(['googlebot: noindex'], 'tabcrawl'), []);
  });
  test('X-Robots-Tag for the product token applies, any case', () => {
    assert.deepEqual(xRobotsDirectives(['TabCrawl: noindex', 'googlebot: nofollow'], 'tabcrawl'), ['noindex']);
  });
  test('a user-agent prefix covers the directives after it in the same header', () => {
    assert.deepEqual(xRobotsDirectives(['noarchive, googlebot: noindex, nofollow, tabcrawl: nosnippet'], 'tabcrawl'), [
      'noarchive',
      'nosnippet',
    ]);
  });
  test('unavailable_after and max-snippet are directives, not user agents', () => {
    assert.deepEqual(xRobotsDirectives(['unavailable_after: 2030-01-01', 'max-snippet: 0'], 'tabcrawl'), [
      'unavailable_after:2030-01-01',
      'max-snippet:0',
    ]);
  });
  test('meta and header directives are merged, distinct', () => {
    const markup = facts('<meta name="robots" content="noindex">');
    const merged = pageFactsOf(markup, {
      pageUrl: PAGE,
      headers: [
        ['x-robots-tag', 'noindex, noarchive'],
        ['x-robots-tag', 'googlebot: nofollow'],
      ],
      links: [],
      scope: createScope({ startUrl: PAGE, includeSubdomains: false, pathPrefix: '', excludePatterns: [] }),
      productToken: 'tabcrawl',
    });
    assert.deepEqual(merged.robots, ['noindex', 'noarchive']);
  });
});

describe('page facts: description, headings, language, alternates', () => {
  test('reads the first meta description, whitespace collapsed', () => {
    assert.equal(
      facts('<meta name=Description content="  A \n page &amp; more "><meta name="description" content="second">')
        .description,
      'A page & more',
    );
  });
  test('an empty description is empty, a missing one null', () => {
    assert.equal(facts('<meta name="description" content="">').description, '');
    assert.equal(facts('<meta name="keywords" content="x">').description, null);
  });
  test('reads the first h1 with nested markup, and counts every h1', () => {
    const found = facts(
      '<h1>Hello <em>big</em>\n<a href="/w">world</a><script>x()</script></h1><H1>Second</H1><h1></h1>',
    );
    assert.equal(found.h1, 'Hello big world');
    assert.equal(found.h1Count, 3);
  });
  test('an unclosed h1 still counts', () => {
    const found = facts('<h1>Left open');
    assert.equal(found.h1, 'Left open');
    assert.equal(found.h1Count, 1);
  });
  test('no h1: null and 0', () => {
    const found = facts('<h2>Sub</h2>');
    assert.equal(found.h1, null);
    assert.equal(found.h1Count, 0);
  });
  test('caps a huge h1', () => {
    assert.equal(facts(`<h1>${'word '.repeat(10_000)}</h1>`).h1?.length, MAX_H1 - 1);
  });
  test('reads <html lang> as written', () => {
    assert.equal(facts('<!doctype html><HTML LANG=" de-AT "><p>x</p>').lang, 'de-AT');
    assert.equal(facts('<html><p>x</p>').lang, null);
  });
  test('reads hreflang alternates in order, distinct, lower-cased, resolved', () => {
    const html =
      '<link rel="alternate" hreflang="en" href="/en/"><link rel=alternate hreflang=DE-at href="https://example.com/de/">' +
      '<link rel="alternate" hreflang="en" href="/en/"><link rel="alternate" href="/feed.xml" type="application/rss+xml">' +
      '<link rel="alternate" hreflang="x-default" href="/">';
    assert.deepEqual(facts(html).hreflang, [
      { lang: 'en', url: 'https://example.com/en/' },
      { lang: 'de-at', url: 'https://example.com/de/' },
      { lang: 'x-default', url: 'https://example.com/' },
    ]);
  });
  test('an SVG title is neither the page title nor counted text', () => {
    const found = extractLinks(
      '<body><svg><title>Icon name</title><desc>A drawing</desc><text>Label</text></svg><p>Body</p></body>',
      PAGE,
    );
    assert.equal(found.title, null);
    assert.equal(found.facts.wordCount, 2);
  });
});

describe('page facts: word count', () => {
  const cases: [name: string, html: string, words: number][] = [
    ['counts words of the body', '<body><p>One two three</p></body>', 3],
    [
      'ignores script, style, template and noscript',
      '<body><script>var a = 1</script><style>p { x: y }</style><template><p>t t</p></template><noscript>n n</noscript><p>Only</p></body>',
      1,
    ],
    [
      'ignores the head and the title',
      '<head><title>A title here</title><meta name="x" content="y"></head><body>word</body>',
      1,
    ],
    ['inline elements do not split a word', '<p>foo<b>bar</b>baz</p>', 1],
    ['block elements do', '<p>foo</p><p>bar</p><div>baz</div>', 3],
    ['decodes entities', '<p>a&nbsp;b&amp;c</p>', 2],
    ['counts text after an unclosed head', '<head><title>t</title><p>visible text</p>', 2],
    ['garbage markup counts what a browser shows ("a <>")', '<p>a <<b>> </p c>', 2],
  ];
  for (const [name, html, words] of cases) test(name, () => assert.equal(facts(html).wordCount, words));
});

describe('page facts: images, mixed content, other links', () => {
  test('lists images with no alt attribute; alt="" is a decorative image, fine', () => {
    const found = facts('<img src="/a.png"><img src="/b.png" alt=""><img src="/c.png" alt="C"><IMG SRC=/a.png><img>');
    assert.deepEqual(found.imagesWithoutAlt, ['https://example.com/a.png']);
  });
  test('lists http resources of an https page as mixed content', () => {
    const html =
      '<link rel="stylesheet" href="http://cdn.example.org/s.css"><img src="https://example.com/ok.png" alt=""><script src="http://example.com/app.js"></script><a href="http://example.org/">plain link</a>';
    assert.deepEqual(facts(html).mixedContent, ['http://cdn.example.org/s.css', 'http://example.com/app.js']);
  });
  test('an http page has no mixed content', () => {
    assert.deepEqual(facts('<img src="http://example.com/a.png" alt="">', 'http://example.com/').mixedContent, []);
  });
  test('lists links that are not http(s) as written, not javascript:', () => {
    const html =
      '<a href="mailto:me@example.com">m</a><a href=" tel:+123 ">t</a><a href="javascript:void(0)">j</a><a href="mailto:me@example.com">again</a><a href="/x">x</a>';
    assert.deepEqual(facts(html).otherLinks, ['mailto:me@example.com', 'tel:+123']);
  });
});

describe('page facts: anchors and fragment links', () => {
  test('collects ids of any element and names of <a>, distinct', () => {
    const found = facts(
      '<h2 id="install">I</h2><a name="old-style"></a><div ID=install></div><input name="q"><section id="">',
    );
    assert.deepEqual(found.anchorIds, ['install', 'old-style']);
  });
  test('caps the ids', () => {
    const html = Array.from({ length: MAX_ANCHOR_IDS + 10 }, (_, i) => `<p id="p${i}"></p>`).join('');
    assert.equal(facts(html).anchorIds.length, MAX_ANCHOR_IDS);
  });
  test('lists fragment links percent-decoded, resolved, distinct', () => {
    const html =
      '<a href="#caf%C3%A9">c</a><a href="/guide#install">i</a><a href="/guide#install">again</a><a href="other.html#a%20b">o</a>';
    assert.deepEqual(facts(html).fragmentLinks, [
      { url: PAGE, fragment: 'café' },
      { url: 'https://example.com/guide', fragment: 'install' },
      { url: 'https://example.com/dir/other.html', fragment: 'a b' },
    ]);
  });
  test('skips empty, top and text fragments; keeps a bad escape as written', () => {
    const html = '<a href="#">e</a><a href="#top">t</a><a href="#:~:text=hello">h</a><a href="#100%">p</a>';
    assert.deepEqual(facts(html).fragmentLinks, [{ url: PAGE, fragment: '100%' }]);
  });
  test('resolves fragment links against <base>', () => {
    assert.deepEqual(facts('<base href="/other/"><a href="#x">x</a>').fragmentLinks, [
      { url: 'https://example.com/other/', fragment: 'x' },
    ]);
  });
});

describe('page facts: whole pages', () => {
  test('internal and outbound links follow the crawl scope', () => {
    const found = extractLinks(
      '<a href="/a">a</a><a href="/a">a</a><a href="https://other.example/">o</a><a href="http://example.com/b">b</a><iframe src="/frame"></iframe>',
      PAGE,
    );
    const all = pageFactsOf(found.facts, {
      pageUrl: PAGE,
      headers: [],
      links: found.links.map((link) => link.url),
      scope: createScope({
        startUrl: 'https://example.com/',
        includeSubdomains: false,
        pathPrefix: '',
        excludePatterns: [],
      }),
      productToken: 'tabcrawl',
    });
    // http://example.com/b is another scheme than the start: out of scope, as the crawl decides.
    assert.equal(all.internalLinks, 2);
    assert.equal(all.outboundLinks, 2);
  });
  test('garbage markup never throws and gives empty facts', () => {
    for (const html of [
      '',
      '<',
      '<<<>>>',
      '<h1',
      '<meta name="robots" content=',
      '<a href="#%">',
      '\u0000\uFFFF<svg><title>',
      '<link rel=canonical href="http://[::1">',
    ]) {
      const found = facts(html);
      assert.equal(found.canonical, null);
      assert.ok(found.wordCount >= 0);
    }
  });
});

describe('page facts: on a crawled row', () => {
  test('a crawled HTML page carries its facts, headers and scope included', async () => {
    const A = 'http://a.test';
    const w = world();
    const html =
      '<html lang="en"><head><title>Home</title><meta name="description" content="The home page"><link rel="canonical" href="/"></head>' +
      '<body><h1>Welcome</h1><p>Three words here</p><a href="/x">X</a><a href="https://other.test/">O</a><a href="mailto:a@a.test">M</a></body></html>';
    w.site.route(`${A}/`, {
      headers: {
        'content-type': 'text/html',
        'x-robots-tag': 'googlebot: noindex, tabcrawl: noarchive',
        link: '</>; rel="canonical"',
      },
      body: html,
    });
    w.site.route(`${A}/x`, { headers: { 'content-type': 'text/html', 'x-robots-tag': 'noindex' }, body: '<p>x</p>' });
    w.site.route(`${A}/file.pdf`, { headers: { 'content-type': 'application/pdf' }, body: '%PDF' });
    const { byUrl } = await crawl(w, { startUrl: `${A}/`, delayMs: 10 });
    const home = row(byUrl, `${A}/`).facts;
    assert.ok(home);
    assert.equal(home.canonical, `${A}/`);
    assert.equal(home.canonicalHeader, `${A}/`);
    assert.deepEqual(home.robots, ['noarchive']);
    assert.equal(home.description, 'The home page');
    assert.equal(home.h1, 'Welcome');
    assert.equal(home.lang, 'en');
    assert.equal(home.wordCount, 5); // Welcome, Three, words, here, XOM (three links side by side read as one word)
    assert.equal(home.internalLinks, 1);
    assert.equal(home.outboundLinks, 1);
    assert.deepEqual(home.otherLinks, ['mailto:a@a.test']);
    assert.deepEqual(indexabilityOf(row(byUrl, `${A}/`)), { indexable: true });
    assert.deepEqual(indexabilityOf(row(byUrl, `${A}/x`)), { indexable: false, reason: 'noindex' });
  });
});

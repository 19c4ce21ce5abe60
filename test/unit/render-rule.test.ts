import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FEW_LINKS, FEW_WORDS, renderReason, renderSignalsOf } from '../../src/core/page-facts/render-rule.ts';

const big = { words: 800, links: 40 };

describe('the render rule', () => {
  it('renders every page under always and none under off', () => {
    const signals = renderSignalsOf('<p>hi</p>');
    assert.equal(renderReason('always', signals, big), 'always');
    assert.equal(renderReason('off', renderSignalsOf('<div id="app"></div><script src="a.js"></script>'), big), null);
  });

  it('renders under auto an empty mount point that a script fills, whatever the rest of the page', () => {
    for (const [html, label] of [
      ['<div id="app"></div><script src="/app.js"></script>', '#app'],
      ['<div id="root">\n  </div><script type="module">import "./x.js"</script>', '#root'],
      ['<div id="__next"></div><script src="/_next/main.js"></script>', '#__next'],
      ['<app-root></app-root><script src="main.js"></script>', '<app-root>'],
      ['<body ng-app="shop"></body><script src="angular.js"></script>', '[ng-app]'],
    ] as const) {
      assert.equal(
        renderReason('auto', renderSignalsOf(html), big),
        `auto: an empty ${label} for scripts to fill`,
        html,
      );
    }
  });

  it('does not render a mount point that already holds the page (server-rendered)', () => {
    const html = '<div id="app"><h1>Shop</h1><p>Teapots</p></div><script src="/app.js"></script>';
    assert.equal(renderReason('auto', renderSignalsOf(html), big), null);
  });

  it('renders an almost empty body with scripts, and not one with enough words or links', () => {
    const signals = renderSignalsOf('<script src="/bundle.js"></script><p>Loading…</p>');
    assert.match(renderReason('auto', signals, { words: 1, links: 0 }) ?? '', /almost empty body \(1 words, 0 links\)/);
    assert.equal(renderReason('auto', signals, { words: FEW_WORDS, links: 0 }), null);
    assert.equal(renderReason('auto', signals, { words: 0, links: FEW_LINKS }), null);
  });

  it('renders a short page with a <noscript> notice about JavaScript, not a long one or one about a pixel', () => {
    const notice = renderSignalsOf('<script src="/x.js"></script><noscript>Please enable JavaScript.</noscript>');
    assert.equal(renderReason('auto', notice, { words: 120, links: 20 }), 'auto: a <noscript> notice and scripts');
    assert.equal(renderReason('auto', notice, { words: 2000, links: 20 }), null);
    const pixel = renderSignalsOf('<script src="/x.js"></script><noscript><img src="/px.gif"></noscript>');
    assert.equal(renderReason('auto', pixel, { words: 120, links: 20 }), null);
  });

  it('never renders under auto a page with no script that runs (JSON data and templates do not)', () => {
    const html =
      '<div id="app"></div><script type="application/ld+json">{"a":1}</script><script type="text/template"><p></p></script>';
    assert.equal(renderSignalsOf(html).scripts, 0);
    assert.equal(renderReason('auto', renderSignalsOf(html), { words: 0, links: 0 }), null);
  });

  it('counts inline code and scripts with a src, but not an empty inline script', () => {
    assert.equal(renderSignalsOf('<script>go()</script><script src="a.js"></script><script> </script>').scripts, 2);
  });
});

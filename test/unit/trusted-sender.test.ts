import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTrustedSender, pageOriginOf } from '../../src/shells/background/trusted-sender.ts';

const ID = 'abcdefghijklmnopabcdefghijklmnop';
const SELF = { id: ID, pagesOrigin: `chrome-extension://${ID}` };

describe('trusted sender', () => {
  it('accepts the popup, the options page and Tabcrawl pages opened in tabs', () => {
    for (const path of [
      'src/shells/popup/index.html',
      'src/shells/options/index.html',
      'src/shells/results/index.html?crawl=1',
    ]) {
      assert.equal(
        isTrustedSender({ id: ID, url: `chrome-extension://${ID}/${path}`, origin: SELF.pagesOrigin }, SELF),
        true,
        path,
      );
    }
    // Older Chrome versions report no origin.
    assert.equal(isTrustedSender({ id: ID, url: `chrome-extension://${ID}/src/shells/popup/index.html` }, SELF), true);
  });

  it("refuses a content script: our id, but the web page's URL", () => {
    assert.equal(isTrustedSender({ id: ID, url: 'https://evil.test/page', origin: 'https://evil.test' }, SELF), false);
  });

  it('refuses another extension, even one of its pages', () => {
    const other = 'ponmlkjihgfedcbaponmlkjihgfedcba';
    assert.equal(isTrustedSender({ id: other, url: `chrome-extension://${other}/page.html` }, SELF), false);
    assert.equal(isTrustedSender({ id: ID, url: `chrome-extension://${other}/page.html` }, SELF), false);
  });

  it('refuses a sender without an id or a URL, or with a URL that does not parse', () => {
    assert.equal(isTrustedSender({ url: `chrome-extension://${ID}/src/shells/popup/index.html` }, SELF), false);
    assert.equal(isTrustedSender({ id: ID }, SELF), false);
    assert.equal(isTrustedSender({ id: ID, url: 'not a url' }, SELF), false);
  });

  it('refuses a sender whose reported origin disagrees with its URL', () => {
    assert.equal(
      isTrustedSender({ id: ID, url: `chrome-extension://${ID}/x.html`, origin: 'https://evil.test' }, SELF),
      false,
    );
  });

  it('reads the origin of extension URLs the same way in Node and in Chrome', () => {
    assert.equal(pageOriginOf(`chrome-extension://${ID}/`), SELF.pagesOrigin);
    assert.equal(pageOriginOf('about:blank'), null);
    assert.equal(pageOriginOf('::'), null);
  });
});

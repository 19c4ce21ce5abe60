import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS, parseHttpUrl, validateSettings } from '../../src/core/settings.ts';

function errorsOf(input: Parameters<typeof validateSettings>[0]) {
  const result = validateSettings(input);
  return result.ok ? [] : result.errors;
}

describe('crawl settings', () => {
  it('fills every default around a start URL', () => {
    const result = validateSettings({ startUrl: 'https://Example.com/a#frag' });
    assert.ok(result.ok);
    assert.equal(result.settings.startUrl, 'https://example.com/a');
    assert.equal(result.settings.delayMs, DEFAULT_SETTINGS.delayMs);
    assert.equal(result.settings.productToken, 'tabcrawl');
  });
  it('refuses a start URL that is not http or https, with a sentence', () => {
    for (const url of ['chrome://extensions', 'file:///etc/passwd', 'about:blank', 'ftp://x.y/', 'not a url', '']) {
      const [error] = errorsOf({ startUrl: url });
      assert.equal(error?.field, 'startUrl', url);
    }
    assert.match(String(parseHttpUrl('chrome://extensions')), /only http and https/);
  });
  it('says which field is out of range, in the units the user types', () => {
    const [error] = errorsOf({ startUrl: 'http://a.test/', delayMs: -1000 });
    assert.deepEqual(error, { field: 'delayMs', message: 'Delay must be from 0 s to 3600 s, not -1 s' });
    assert.equal(errorsOf({ startUrl: 'http://a.test/', maxPages: 0 })[0]?.message, 'Max pages must be from 1 to 1000000, not 0');
  });
  it('allows fractional delays but not fractional page counts', () => {
    assert.equal(errorsOf({ startUrl: 'http://a.test/', delayMs: 50.5 }).length, 0);
    assert.equal(errorsOf({ startUrl: 'http://a.test/', maxPages: 1.5 })[0]?.field, 'maxPages');
  });
  it('refuses a product token robots.txt could not match', () => {
    assert.equal(errorsOf({ startUrl: 'http://a.test/', productToken: 'tab crawl/1.0' })[0]?.field, 'productToken');
  });
  it('refuses a path prefix without a leading slash and empty exclude patterns', () => {
    assert.equal(errorsOf({ startUrl: 'http://a.test/', pathPrefix: 'docs' })[0]?.field, 'pathPrefix');
    assert.equal(errorsOf({ startUrl: 'http://a.test/', excludePatterns: [''] })[0]?.field, 'excludePatterns');
  });
  it('reports every bad field at once', () => {
    assert.equal(errorsOf({ startUrl: 'x', maxPages: -1, delayMs: Number.NaN }).length, 3);
  });
});

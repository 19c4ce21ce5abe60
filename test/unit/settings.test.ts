import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_SETTINGS,
  MAX_EXCLUDE_PATTERNS,
  parseHttpUrl,
  validateSettings,
  type CrawlSettings,
} from '../../src/core/settings.ts';
import { MAX_EXTRA_ORIGINS } from '../../src/core/setting-table.ts';

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
    assert.equal(
      errorsOf({ startUrl: 'http://a.test/', maxPages: 0 })[0]?.message,
      'Max pages must be from 1 to 1000000, not 0',
    );
  });
  it('allows fractional delays but not fractional page counts', () => {
    assert.equal(errorsOf({ startUrl: 'http://a.test/', delayMs: 50.5 }).length, 0);
    assert.equal(errorsOf({ startUrl: 'http://a.test/', maxPages: 1.5 })[0]?.field, 'maxPages');
  });
  it('takes one request at once per host by default, and a whole number from 1 to 16', () => {
    assert.equal(DEFAULT_SETTINGS.requestsPerHost, 1);
    const result = validateSettings({ startUrl: 'http://a.test/', delayMs: 0, requestsPerHost: 16 });
    assert.ok(result.ok);
    assert.equal(result.settings.requestsPerHost, 16);
    assert.deepEqual(errorsOf({ startUrl: 'http://a.test/', requestsPerHost: 0 }), [
      { field: 'requestsPerHost', message: 'Requests at once per host must be from 1 to 16, not 0' },
    ]);
    assert.deepEqual(errorsOf({ startUrl: 'http://a.test/', requestsPerHost: 17 }), [
      { field: 'requestsPerHost', message: 'Requests at once per host must be from 1 to 16, not 17' },
    ]);
    assert.deepEqual(errorsOf({ startUrl: 'http://a.test/', requestsPerHost: 2.5 }), [
      { field: 'requestsPerHost', message: 'Requests at once per host must be a whole number, not 2.5' },
    ]);
    const wrongType = { startUrl: 'http://a.test/', requestsPerHost: '4' } as unknown as Partial<CrawlSettings> & {
      startUrl: string;
    };
    assert.deepEqual(errorsOf(wrongType), [
      { field: 'requestsPerHost', message: 'Requests at once per host must be a number' },
    ]);
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
  it('refuses the Chrome Web Store, which Chrome does not let extensions read', () => {
    for (const url of [
      'https://chromewebstore.google.com/',
      'https://chromewebstore.google.com/detail/x/abc',
      'https://chrome.google.com/webstore/category/extensions',
    ]) {
      const [error] = errorsOf({ startUrl: url });
      assert.equal(error?.field, 'startUrl', url);
      assert.match(error?.message ?? '', /Chrome Web Store/, url);
    }
    // Other pages of the same host are ordinary sites.
    assert.equal(errorsOf({ startUrl: 'https://chrome.google.com/intl/en/' }).length, 0);
  });
  it('refuses a start URL with a user name or password, so none is stored or sent', () => {
    for (const url of ['https://user:secret@example.com/', 'https://user@example.com/']) {
      const result = validateSettings({ startUrl: url });
      assert.equal(result.ok, false, url);
      if (!result.ok) assert.match(result.errors[0]?.message ?? '', /user name or password/);
    }
  });
  it('suggests https:// for a site typed without a scheme', () => {
    assert.equal(
      errorsOf({ startUrl: 'example.com/docs' })[0]?.message,
      '"example.com/docs" is not a full URL; did you mean https://example.com/docs?',
    );
    assert.equal(errorsOf({ startUrl: 'http//example.com' })[0]?.message, '"http//example.com" is not a valid URL');
  });
  it('refuses a start URL with a space in it, suggesting the URL with %20, its question mark set apart from it', () => {
    assert.equal(
      errorsOf({ startUrl: 'http://127.0.0.1:8090/ with space' })[0]?.message,
      'the start URL has a space in it (a URL writes a space as %20); did you mean http://127.0.0.1:8090/%20with%20space ?',
    );
    // A question mark against the URL would read as part of it (an empty query).
    assert.equal(
      errorsOf({ startUrl: 'https://example.com/?q=two words' })[0]?.message,
      'the start URL has a space in it (a URL writes a space as %20); did you mean https://example.com/?q=two%20words ?',
    );
    assert.match(
      errorsOf({ startUrl: 'https://example.com/a\u00a0b' })[0]?.message ?? '',
      /space in it.*did you mean https:\/\/example\.com\/a%C2%A0b \?$/,
    );
  });
  it('refuses a start URL with a line break or tab in it, suggesting it without them (as the URL parser reads it)', () => {
    // Typically a long URL wrapped in an e-mail: the URL parser drops tabs and line breaks, so %20 would be wrong.
    assert.equal(
      errorsOf({ startUrl: 'https://example.com/a-long-\npath\tname' })[0]?.message,
      'the start URL has a line break or tab in it; did you mean https://example.com/a-long-pathname ?',
    );
  });
  it('accepts start URLs written as URLs: trimmed, %20, non-ASCII paths and host names', () => {
    // Spaces around the URL are trimmed, as typed in a form; %20 and non-ASCII are URLs as written.
    for (const url of [
      '  https://example.com/  ',
      'http://127.0.0.1:8090/%20with%20space',
      'https://example.com/caf\u00e9',
      'https://b\u00fccher.example/',
    ]) {
      assert.equal(validateSettings({ startUrl: url }).ok, true, url);
    }
  });
  it('refuses malformed URLs and a start URL too long to be a real one', () => {
    for (const url of [
      'http://',
      'https://exa mple.com/',
      'http://example.com:99999/',
      `https://example.com/${'a'.repeat(9000)}`,
    ]) {
      assert.equal(errorsOf({ startUrl: url })[0]?.field, 'startUrl', url.slice(0, 40));
    }
  });
  it('never throws on settings of the wrong type, and names each one', () => {
    const input = {
      startUrl: 42,
      pathPrefix: 5,
      productToken: null,
      excludePatterns: '*.pdf',
      withCookies: 'yes',
      maxPages: '5',
      includeSubdomains: 1,
    } as unknown as Partial<CrawlSettings> & { startUrl: string };
    const fields = errorsOf(input)
      .map((error) => error.field)
      .sort();
    assert.deepEqual(fields, [
      'excludePatterns',
      'includeSubdomains',
      'maxPages',
      'pathPrefix',
      'productToken',
      'startUrl',
      'withCookies',
    ]);
  });
  it('drops fields that are not settings, so nothing unknown is stored with a crawl', () => {
    const input = { startUrl: 'http://a.test/', evil: '<script>', __proto__: { polluted: true } } as unknown as {
      startUrl: string;
    };
    const result = validateSettings(input);
    assert.ok(result.ok);
    assert.deepEqual(Object.keys(result.settings).sort(), ['startUrl', ...Object.keys(DEFAULT_SETTINGS)].sort());
    assert.equal((result.settings as unknown as Record<string, unknown>)['polluted'], undefined);
  });
  it('refuses more exclude patterns than a crawl checks, and overlong ones', () => {
    const many = Array.from({ length: MAX_EXCLUDE_PATTERNS + 1 }, (_, i) => `*/x${i}/*`);
    assert.equal(errorsOf({ startUrl: 'http://a.test/', excludePatterns: many })[0]?.field, 'excludePatterns');
    assert.equal(
      errorsOf({ startUrl: 'http://a.test/', excludePatterns: [`*${'x'.repeat(3000)}*`] })[0]?.field,
      'excludePatterns',
    );
  });
  it('crawls without cookies unless told otherwise', () => {
    const result = validateSettings({ startUrl: 'http://a.test/' });
    assert.ok(result.ok);
    assert.equal(result.settings.withCookies, false);
  });
});

describe('crawl settings: extra sites (extraOrigins)', () => {
  const start = 'http://a.test/';
  it('has none by default', () => {
    const result = validateSettings({ startUrl: start });
    assert.ok(result.ok);
    assert.deepEqual(result.settings.extraOrigins, []);
  });
  it('keeps each site as its origin, once, in the order given', () => {
    const result = validateSettings({
      startUrl: start,
      extraOrigins: [
        'https://Docs.Example.com/',
        ' http://127.0.0.1:8081 ',
        'https://docs.example.com:443',
        'http://[::1]:80',
      ],
    });
    assert.ok(result.ok);
    assert.deepEqual(result.settings.extraOrigins, [
      'https://docs.example.com',
      'http://127.0.0.1:8081',
      'http://[::1]',
    ]);
  });
  it('refuses each entry that is not an http(s) site, with a message quoting it', () => {
    const messages = errorsOf({
      startUrl: start,
      extraOrigins: [
        'https://ok.test',
        'ftp://b.test',
        'https://b.test/docs/',
        'https://b.test/?q=1',
        'b.test',
        'https://me:pw@b.test',
        'not a site',
        '',
      ],
    }).map((error) => [error.field, error.message]);
    assert.deepEqual(messages, [
      ['extraOrigins', 'Also crawl these sites: "ftp://b.test" is not an http or https site'],
      [
        'extraOrigins',
        'Also crawl these sites: "https://b.test/docs/" has a path, query or fragment; give the site only, e.g. https://b.test',
      ],
      [
        'extraOrigins',
        'Also crawl these sites: "https://b.test/?q=1" has a path, query or fragment; give the site only, e.g. https://b.test',
      ],
      ['extraOrigins', 'Also crawl these sites: "b.test" is not a site address; did you mean https://b.test?'],
      ['extraOrigins', 'Also crawl these sites: "https://me:pw@b.test" must not contain a user name or password'],
      ['extraOrigins', 'Also crawl these sites: "not a site" is not a site address'],
      ['extraOrigins', 'Also crawl these sites: a site is empty'],
    ]);
  });
  it('refuses the Chrome Web Store as an extra site too', () => {
    assert.match(
      errorsOf({ startUrl: start, extraOrigins: ['https://chromewebstore.google.com'] })[0]?.message ?? '',
      /Chrome Web Store/,
    );
  });
  it(`refuses more than ${MAX_EXTRA_ORIGINS} sites, and anything but a list of text`, () => {
    const many = Array.from({ length: MAX_EXTRA_ORIGINS + 1 }, (_, i) => `http://127.0.0.1:${9000 + i}`);
    assert.equal(errorsOf({ startUrl: start, extraOrigins: many.slice(0, MAX_EXTRA_ORIGINS) }).length, 0);
    assert.deepEqual(errorsOf({ startUrl: start, extraOrigins: many }), [
      {
        field: 'extraOrigins',
        message: `Also crawl these sites: at most ${MAX_EXTRA_ORIGINS} sites, not ${MAX_EXTRA_ORIGINS + 1}`,
      },
    ]);
    for (const bad of ['https://b.test', [1], null, { 0: 'https://b.test' }]) {
      const input = { startUrl: start, extraOrigins: bad } as unknown as Parameters<typeof validateSettings>[0];
      assert.equal(errorsOf(input)[0]?.field, 'extraOrigins', JSON.stringify(bad));
    }
  });
});

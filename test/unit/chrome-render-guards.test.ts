/**
 * What the Chrome renderer puts around a rendered page, as plain data
 * (src/shells/background/adapters/page-guards.ts and isolated-world.ts's expressions): the headers given
 * to the tab, the names of Chrome's resource types, the failure reasons, the body encoding, the error
 * lines. The renderer itself runs in a real browser: test/e2e/chrome-renderer.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DOCUMENT_POLICY,
  MAX_ERROR_CHARS,
  WORKER_POLICY,
  base64Of,
  failReasonOf,
  headersForTab,
  requestTypeOf,
  scriptErrorText,
} from '../../src/shells/background/adapters/page-guards.ts';

describe('the Chrome renderer guards', () => {
  it('gives the tab no header the browser would act on outside the page, whatever their case', () => {
    const outside = [
      'Strict-Transport-Security',
      'alt-svc',
      'clear-site-data',
      'report-to',
      'reporting-endpoints',
      'NEL',
      'www-authenticate',
      'proxy-authenticate',
    ].map((name): [string, string] => [name, 'x']);
    assert.deepEqual(headersForTab([['content-type', 'text/html'], ...outside], 'Image'), [
      { name: 'content-type', value: 'text/html' },
    ]);
  });

  it('gives the tab no encoding, length, cookie or download header, whatever their case', () => {
    const headers: [string, string][] = [
      ['content-type', 'text/css'],
      ['Content-Encoding', 'gzip'],
      ['content-length', '12'],
      ['transfer-encoding', 'chunked'],
      ['set-cookie', 'a=1'],
      ['content-disposition', 'attachment'],
      ['cache-control', 'no-store'],
    ];
    assert.deepEqual(headersForTab(headers, 'Stylesheet'), [
      { name: 'content-type', value: 'text/css' },
      { name: 'cache-control', value: 'no-store' },
    ]);
  });

  it("adds the sandbox and connect-src policy to a document, connect-src alone to a script or a worker's script", () => {
    const policyOf = (type: string): string[] =>
      headersForTab([], type)
        .filter((header) => header.name === 'content-security-policy')
        .map((header) => header.value);
    assert.deepEqual(policyOf('Document'), [DOCUMENT_POLICY]);
    assert.deepEqual(policyOf('Script'), [WORKER_POLICY]);
    assert.deepEqual(policyOf('Other'), [WORKER_POLICY]);
    assert.deepEqual(policyOf('Image'), []);
    assert.doesNotMatch(DOCUMENT_POLICY, /allow-popups|allow-modals|allow-downloads|allow-top-navigation/);
    assert.doesNotMatch(DOCUMENT_POLICY + WORKER_POLICY, /\bwss?:/);
  });

  it("names Chrome's resource types as the port does, and anything else other", () => {
    assert.equal(requestTypeOf('Document'), 'document');
    assert.equal(requestTypeOf('XHR'), 'xhr');
    assert.equal(requestTypeOf('Ping'), 'beacon');
    assert.equal(requestTypeOf('Prefetch'), 'other');
    assert.equal(requestTypeOf('toString'), 'other');
  });

  it('fails a refused request as blocked by the client, a timeout as timed out, a failure as failed', () => {
    assert.equal(failReasonOf('robots'), 'BlockedByClient');
    assert.equal(failReasonOf('navigation'), 'BlockedByClient');
    assert.equal(failReasonOf('timeout'), 'TimedOut');
    assert.equal(failReasonOf('failed'), 'Failed');
  });

  it('encodes a body of any size and any byte as base64', () => {
    const bytes = new Uint8Array(200_000).map((_, index) => index % 256);
    assert.equal(base64Of(bytes), Buffer.from(bytes).toString('base64'));
    assert.equal(base64Of(new Uint8Array(0)), '');
  });

  it('keeps at most 500 characters of a script error, with its message', () => {
    const long = 'x'.repeat(2_000);
    const text = scriptErrorText({ text: 'Uncaught', exception: { description: `Error: ${long}` } });
    assert.equal(text.length, MAX_ERROR_CHARS);
    assert.match(text, /^Uncaught Error: x/);
    assert.equal(scriptErrorText({ text: 'Uncaught', exception: { value: 42 } }), 'Uncaught 42');
  });
});

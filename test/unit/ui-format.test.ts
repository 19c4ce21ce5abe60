import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatBytes } from '../../src/ui/format-bytes.ts';
import { asSentence } from '../../src/ui/sentence.ts';
import { mediaType, rowTone, statusText, statusWithLocation } from '../../src/ui/row-format.ts';
import { mediaTypeOf } from '../../src/storage/database.ts';
import { httpOrigin } from '../../src/core/url/normalize-url.ts';
import { statusText as popupStatusText } from '../../src/popup/crawl-text.ts';
import { sizeText } from '../../src/results/format.ts';

describe('shared formatting', () => {
  it('writes a message shown on its own as a sentence, but never changes a URL it starts with', () => {
    assert.equal(asSentence('no crawl c-1'), 'No crawl c-1');
    assert.equal(asSentence('Already a sentence.'), 'Already a sentence.');
    assert.equal(
      asSentence('http://a.test is already being crawled; stop that crawl first'),
      'http://a.test is already being crawled; stop that crawl first',
    );
    assert.equal(asSentence(''), '');
  });
  it('writes sizes in binary units with one decimal', () => {
    assert.deepEqual([0, 512, 1024, 1536, 1_468_006, 5 * 1024 ** 3].map(formatBytes), [
      '0 B',
      '512 B',
      '1.0 KiB',
      '1.5 KiB',
      '1.4 MiB',
      '5.0 GiB',
    ]);
  });
  it('colours rows by what happened to them', () => {
    const row = { status: 200, blockedBy: null, error: null };
    assert.equal(rowTone(row), 'ok');
    assert.equal(rowTone({ ...row, status: 301 }), 'redirect');
    assert.equal(rowTone({ ...row, status: 404 }), 'error');
    assert.equal(rowTone({ ...row, status: null, error: { code: 'timeout', message: 't' } }), 'error');
    assert.equal(rowTone({ ...row, status: null, blockedBy: 'robots' }), 'blocked');
  });
  it('reads the media type out of a Content-Type', () => {
    assert.equal(mediaType('Text/HTML; charset=utf-8'), 'text/html');
    assert.equal(mediaType(null), '');
  });
});

describe('one unit system for sizes', () => {
  it('writes sizes in the results table and its detail in the binary units of every other page', () => {
    for (const bytes of [0, 512, 5120, 1_468_006, 3 * 1024 ** 3]) {
      assert.equal(sizeText(bytes), formatBytes(bytes), String(bytes));
    }
    assert.equal(sizeText(5120), '5.0 KiB');
    assert.equal(sizeText(null), '');
  });
});

describe("one helper each for a row's words", () => {
  it('reads a media type one way for the table, the filters and the index', () => {
    assert.equal(mediaType, mediaTypeOf);
    assert.deepEqual(
      ['Text/HTML; charset=utf-8', 'application/pdf', '  image/PNG ;q=1', '', null, 'garbage'].map(mediaTypeOf),
      ['text/html', 'application/pdf', 'image/png', '', '', 'garbage'],
    );
  });

  it('writes a status one way, the popup adding where a redirect leads', () => {
    const row = { status: 200, blockedBy: null, error: null, location: null };
    assert.equal(statusText(row), '200');
    assert.equal(statusText({ ...row, status: null, blockedBy: 'robots' }), 'blocked');
    assert.equal(statusText({ ...row, status: null, error: { code: 'timeout', message: 't' } }), 'timeout');
    assert.equal(statusText({ ...row, status: null }), '—');
    assert.equal(
      statusWithLocation({ ...row, status: 301, location: 'https://example.com/new' }),
      '301 → https://example.com/new',
    );
    assert.equal(statusWithLocation({ ...row, status: 200, location: 'https://example.com/ignored' }), '200');
    assert.equal(
      popupStatusText({
        seq: 1,
        url: 'https://example.com/old',
        kind: 'page',
        depth: 1,
        contentType: null,
        duplicateOf: null,
        ...row,
        status: 302,
        location: '/x',
      }),
      '302 → /x',
    );
  });

  it('takes the origin of an http(s) URL, and null for anything else', () => {
    assert.equal(httpOrigin('https://Example.com:443/a?b#c'), 'https://example.com');
    assert.equal(httpOrigin('http://127.0.0.1:8090/x'), 'http://127.0.0.1:8090');
    for (const url of ['chrome://extensions', 'about:blank', 'file:///x', 'not a url', '', null, undefined])
      assert.equal(httpOrigin(url), null, String(url));
  });
});

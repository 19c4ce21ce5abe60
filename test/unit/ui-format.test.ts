import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatBytes } from '../../src/ui/format-bytes.ts';
import { mediaType, rowTone } from '../../src/ui/row-format.ts';
import { sizeText } from '../../src/results/format.ts';

describe('shared formatting', () => {
  it('writes sizes in binary units with one decimal', () => {
    assert.deepEqual([0, 512, 1024, 1536, 1_468_006, 5 * 1024 ** 3].map(formatBytes), ['0 B', '512 B', '1.0 KiB', '1.5 KiB', '1.4 MiB', '5.0 GiB']);
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

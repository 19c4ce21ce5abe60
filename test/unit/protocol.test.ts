import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isMessage, TabcrawlError } from '../../src/messaging/protocol.ts';

describe('message protocol', () => {
  it('accepts an envelope of every request type', () => {
    for (const type of [
      'crawl/start',
      'crawl/stop',
      'crawl/pause',
      'crawl/resume',
      'crawl/rerun',
      'crawl/hosts',
      'crawl/get',
      'crawl/list',
      'crawl/delete',
      'pages/latest',
      'export/chunk',
      'crawl/imported',
    ]) {
      assert.equal(isMessage({ type, payload: {} }), true, type);
    }
  });
  it('refuses unknown types, missing payloads and non-objects', () => {
    assert.equal(isMessage({ type: 'crawl/explode', payload: {} }), false);
    assert.equal(isMessage({ type: 'crawl/list' }), false);
    assert.equal(isMessage({ type: 'crawl/list', payload: null }), false);
    assert.equal(isMessage('crawl/list'), false);
    assert.equal(isMessage(null), false);
  });
  it('turns an error sent as data back into a typed error', () => {
    const error = new TabcrawlError({
      code: 'invalid-settings',
      message: 'Delay must be from 0 s to 3600 s, not -1 s',
      fields: [{ field: 'delayMs', message: 'x' }],
    });
    assert.equal(error.code, 'invalid-settings');
    assert.equal(error.fields[0]?.field, 'delayMs');
    assert.ok(error instanceof Error);
  });
});

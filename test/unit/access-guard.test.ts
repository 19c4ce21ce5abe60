/**
 * `withAccessGuard`: no request leaves for a host Chrome no longer lets
 * Tabcrawl reach; the answer is `no-access` (the crawl then pauses). Fakes for
 * the fetcher, Chrome's answer and the clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FetchOutcome, FetchRequest, Fetcher } from '../../src/core/crawl/ports.ts';
import { ACCESS_TRUSTED_MS, withAccessGuard } from '../../src/shells/background/adapters/access-guard.ts';
import { accessPatternOf } from '../../src/core/crawl/crawl-lifecycle.ts';

function setUp(answer: (url: string) => FetchOutcome['ok'] = () => true) {
  let time = 1_000_000;
  const sent: string[] = [];
  const asked: string[] = [];
  /** How many times Chrome had been asked when each request was sent. */
  const askedBeforeSend: number[] = [];
  let granted = true;
  const inner: Fetcher = {
    async fetch(request: FetchRequest): Promise<FetchOutcome> {
      sent.push(request.url);
      askedBeforeSend.push(asked.length);
      return answer(request.url)
        ? {
            ok: true,
            status: 200,
            headers: [],
            location: null,
            body: null,
            truncated: false,
            wire: null,
            startedAt: time,
            endedAt: time + 1,
          }
        : { ok: false, error: { code: 'network', message: 'network error' }, startedAt: time, endedAt: time + 1 };
    },
  };
  const guard = withAccessGuard(
    inner,
    async (pattern) => {
      asked.push(pattern);
      return granted;
    },
    () => time,
  );
  const request = (url: string): FetchRequest => ({ url, method: 'GET', timeoutMs: 1000, bodyLimit: () => 1000 });
  return {
    sent,
    asked,
    askedBeforeSend,
    fetch: (url: string) => guard.fetch(request(url)),
    advance: (ms: number) => void (time += ms),
    setGranted: (value: boolean) => void (granted = value),
    settle: () => new Promise((resolve) => setImmediate(resolve)),
  };
}

describe('withAccessGuard', () => {
  it('names the pattern Chrome grants access by: scheme and host, no port', () => {
    assert.equal(accessPatternOf('http://127.0.0.1:8080/a?b'), 'http://127.0.0.1/*');
    assert.equal(accessPatternOf('https://www.example.com/'), 'https://www.example.com/*');
  });

  it('sends nothing to a host without access and answers no-access, naming it', async () => {
    const t = setUp();
    t.setGranted(false);
    const outcome = await t.fetch('http://a.test:81/page');
    assert.deepEqual(outcome.ok ? null : outcome.error, {
      code: 'no-access',
      message: 'Tabcrawl has no access to http://a.test/* any more',
    });
    assert.deepEqual(t.sent, []);
  });

  it('asks before the first request, then keeps the answer fresh in the background so a request does not wait for it', async () => {
    const t = setUp();
    assert.equal((await t.fetch('http://a.test/1')).ok, true);
    assert.deepEqual(t.askedBeforeSend, [1], 'asked before the first request');
    t.advance(300);
    await t.fetch('http://a.test/2');
    assert.deepEqual(t.askedBeforeSend, [1, 1], 'a fresh answer: not asked before the second request');
    await t.settle();
    assert.equal(t.asked.length, 2, 'asked again after it, in the background');
    // Withdrawn: the background answer says so, and the next request is not sent.
    t.setGranted(false);
    t.advance(300);
    await t.fetch('http://a.test/3');
    await t.settle();
    const outcome = await t.fetch('http://a.test/4');
    assert.equal(outcome.ok ? null : outcome.error.code, 'no-access');
    assert.deepEqual(t.sent, ['http://a.test/1', 'http://a.test/2', 'http://a.test/3']);
  });

  it('asks before a request when its answer is older than it may be trusted', async () => {
    const t = setUp();
    await t.fetch('http://a.test/1');
    await t.settle();
    t.setGranted(false);
    t.advance(ACCESS_TRUSTED_MS + 1);
    const outcome = await t.fetch('http://a.test/2');
    assert.equal(outcome.ok ? null : outcome.error.code, 'no-access');
    assert.deepEqual(t.sent, ['http://a.test/1']);
  });

  it('reports a network failure as no-access when access is gone, as a network failure otherwise', async () => {
    const t = setUp(() => false);
    const failed = await t.fetch('http://a.test/1');
    assert.equal(failed.ok ? null : failed.error.code, 'network');
    t.setGranted(false);
    const refused = await t.fetch('http://a.test/2');
    assert.equal(
      refused.ok ? null : refused.error.code,
      'no-access',
      'the answer was still trusted: it left, and its failure tells',
    );
    assert.deepEqual(t.sent, ['http://a.test/1', 'http://a.test/2']);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { waitForCrawl, type RequestFn } from '../../src/shells/cli/wait-for-crawl.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import type { CrawlState } from '../../src/core/model.ts';
import {
  TabcrawlError,
  type CrawlSummary,
  type ReplyOf,
  type RequestOf,
  type RequestType,
} from '../../src/messaging/protocol.ts';

type Handlers = { [K in RequestType]?: (payload: RequestOf<K>) => ReplyOf<K> };

/** A fake protocol: answers from `handlers`, records every call. */
function fakeRequest(handlers: Handlers): { request: RequestFn; calls: string[] } {
  const calls: string[] = [];
  const request: RequestFn = async <K extends RequestType>(type: K, payload: RequestOf<K>) => {
    calls.push(type);
    const handler = handlers[type];
    if (handler === undefined) throw new TabcrawlError({ code: 'bad-request', message: `no fake for ${type}` });
    return handler(payload);
  };
  return { request, calls };
}

function summary(state: CrawlState, fetched = 0): CrawlSummary {
  return {
    id: 'c1',
    startUrl: 'http://127.0.0.1/',
    state,
    createdAt: 0,
    endedAt: state === 'running' ? null : 10,
    counts: { admitted: fetched, done: fetched, fetched, errors: 0, blocked: 0, bytesStored: 0 },
    queued: 0,
    message: null,
    settings: { ...DEFAULT_SETTINGS, excludePatterns: [], startUrl: 'http://127.0.0.1/' },
  };
}

const noSleep = async (): Promise<void> => undefined;

describe('waitForCrawl', () => {
  test('polls until the crawl is no longer running, reporting each state', async () => {
    const states: CrawlState[] = ['running', 'running', 'finished'];
    const { request, calls } = fakeRequest({ 'crawl/get': () => ({ crawl: summary(states.shift() ?? 'finished') }) });
    const seen: CrawlState[] = [];
    const sleeps: number[] = [];
    const result = await waitForCrawl(request, 'c1', {
      onProgress: (c) => seen.push(c.state),
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    assert.equal(result.crawl.state, 'finished');
    assert.equal(result.interrupted, false);
    assert.deepEqual(seen, ['running', 'running', 'finished']);
    assert.deepEqual(sleeps, [500, 500]);
    assert.deepEqual(calls, ['crawl/get', 'crawl/get', 'crawl/get']);
  });

  test('stops the crawl when the signal aborts and reports it interrupted', async () => {
    const controller = new AbortController();
    const { request, calls } = fakeRequest({
      'crawl/get': () => ({ crawl: summary('running') }),
      'crawl/stop': () => ({ crawl: summary('stopped', 3) }),
    });
    const result = await waitForCrawl(request, 'c1', {
      signal: controller.signal,
      sleep: async () => controller.abort(),
    });
    assert.equal(result.interrupted, true);
    assert.equal(result.crawl.state, 'stopped');
    assert.deepEqual(calls, ['crawl/get', 'crawl/stop']);
  });

  test('an interrupt after the crawl ended keeps its end state', async () => {
    const controller = new AbortController();
    controller.abort();
    const { request } = fakeRequest({
      'crawl/get': () => ({ crawl: summary('finished') }),
      'crawl/stop': () => {
        throw new TabcrawlError({ code: 'bad-request', message: 'not running' });
      },
    });
    const result = await waitForCrawl(request, 'c1', { signal: controller.signal, sleep: noSleep });
    assert.equal(result.crawl.state, 'finished');
  });
});

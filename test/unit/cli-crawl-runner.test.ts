import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { waitForCrawl, writeExport, type RequestFn } from '../../src/cli/crawl-runner.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import type { CrawlState } from '../../src/core/model.ts';
import { TabcrawlError, type CrawlSummary, type ReplyOf, type RequestOf, type RequestType } from '../../src/messaging/protocol.ts';

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
    counts: { admitted: fetched, done: fetched, fetched, errors: 0, blocked: 0 },
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
    const result = await waitForCrawl(request, 'c1', { signal: controller.signal, sleep: async () => controller.abort() });
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

describe('writeExport', () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('loops export chunks from seq 0 until done into the file, creating its folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-export-test-'));
    dirs.push(dir);
    const asked: RequestOf<'export/chunk'>[] = [];
    const { request } = fakeRequest({
      'export/chunk': (payload) => {
        asked.push(payload);
        if (payload.afterSeq === 0) return { text: '{"seq":1}\n{"seq":2}\n', lastSeq: 2, rows: 2, done: false };
        return { text: '{"seq":3}\n', lastSeq: 3, rows: 1, done: true };
      },
    });
    const path = join(dir, 'nested', 'out.jsonl');
    const result = await writeExport(request, 'c1', path, 'jsonl');
    assert.deepEqual(result, { path, rows: 3 });
    assert.equal(readFileSync(path, 'utf8'), '{"seq":1}\n{"seq":2}\n{"seq":3}\n');
    assert.deepEqual(asked, [
      { crawlId: 'c1', format: 'jsonl', afterSeq: 0, limit: 500 },
      { crawlId: 'c1', format: 'jsonl', afterSeq: 2, limit: 500 },
    ]);
  });

  test('writes an empty file for an empty crawl', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-export-test-'));
    dirs.push(dir);
    const { request } = fakeRequest({ 'export/chunk': () => ({ text: '', lastSeq: 0, rows: 0, done: true }) });
    const path = join(dir, 'empty.jsonl');
    assert.deepEqual(await writeExport(request, 'c1', path, 'jsonl'), { path, rows: 0 });
    assert.equal(readFileSync(path, 'utf8'), '');
  });

  test('fails instead of looping forever when the export makes no progress', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-export-test-'));
    dirs.push(dir);
    const { request } = fakeRequest({ 'export/chunk': () => ({ text: '', lastSeq: 0, rows: 0, done: false }) });
    await assert.rejects(writeExport(request, 'c1', join(dir, 'x.jsonl'), 'jsonl'), /made no progress/);
  });

  test('passes on protocol errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-export-test-'));
    dirs.push(dir);
    const { request } = fakeRequest({});
    await assert.rejects(writeExport(request, 'c1', join(dir, 'x.jsonl'), 'jsonl'), (e: unknown) => e instanceof TabcrawlError && e.code === 'bad-request');
  });

  test('fails when the file cannot be created', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-export-test-'));
    dirs.push(dir);
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const { request } = fakeRequest({ 'export/chunk': () => ({ text: 'x\n', lastSeq: 1, rows: 1, done: true }) });
    await assert.rejects(writeExport(request, 'c1', join(file, 'x.jsonl'), 'jsonl'));
    await assert.rejects(writeExport(request, 'c1', dir, 'jsonl'));
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCrawl, queuedCount, startUrlProblem, stopCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { validateSettings, type CrawlSettings } from '../../src/core/settings.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';

function settings(partial: Partial<CrawlSettings> & { startUrl: string }): CrawlSettings {
  const result = validateSettings(partial);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.settings;
}

describe('crawl lifecycle', () => {
  it('accepts a start URL inside its own scope', () => {
    assert.equal(startUrlProblem(settings({ startUrl: 'http://a.test/docs/', pathPrefix: '/docs/' })), null);
  });
  it('refuses a path prefix that leaves out the start URL', () => {
    assert.equal(startUrlProblem(settings({ startUrl: 'http://a.test/', pathPrefix: '/docs/' }))?.field, 'pathPrefix');
  });
  it('refuses an exclude pattern that matches the start URL, naming the pattern', () => {
    const problem = startUrlProblem(settings({ startUrl: 'http://a.test/x', excludePatterns: ['*/x'] }));
    assert.equal(problem?.field, 'excludePatterns');
    assert.match(problem?.message ?? '', /"\*\/x"/);
  });
  it('creates a running crawl with its normalized start URL queued at depth 0', async () => {
    const store = new MemoryCrawlStore();
    const crawl = await createCrawl(store, settings({ startUrl: 'HTTP://A.test:80/a/../b#x' }), { id: 'c', now: 5 });
    assert.equal(crawl.settings.startUrl, 'http://a.test/b');
    assert.equal(crawl.state, 'running');
    assert.equal(queuedCount(crawl), 1);
    const entries = await store.transaction((tx) => tx.getEntries('c', ['http://a.test/b']));
    assert.equal(entries[0]?.depth, 0);
    const hosts = await store.transaction((tx) => tx.listHosts('c'));
    assert.equal(hosts[0]?.robots.phase, 'pending');
  });
  it('stops only a running crawl and keeps its frontier', async () => {
    const store = new MemoryCrawlStore();
    await createCrawl(store, settings({ startUrl: 'http://a.test/' }), { id: 'c', now: 5 });
    const stopped = await stopCrawl(store, 'c', 9);
    assert.equal(stopped?.state, 'stopped');
    assert.equal(stopped?.endedAt, 9);
    assert.equal((await stopCrawl(store, 'c', 20))?.endedAt, 9, 'a second stop changes nothing');
    assert.equal(await stopCrawl(store, 'missing', 20), undefined);
    const entries = await store.transaction((tx) => tx.getEntries('c', ['http://a.test/']));
    assert.ok(entries[0]);
  });
});

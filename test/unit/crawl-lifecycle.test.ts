import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createCrawl,
  hostAccessPatterns,
  pauseCrawl,
  queuedCount,
  resumeCrawl,
  startUrlProblem,
  stopCrawl,
} from '../../src/core/crawl/crawl-lifecycle.ts';
import { createScope } from '../../src/core/url/scope.ts';
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
  it('asks host access for the start origin alone, on every port', () => {
    assert.deepEqual(hostAccessPatterns(settings({ startUrl: 'https://www.example.org:8443/docs/' })), [
      'https://www.example.org/*',
    ]);
    assert.deepEqual(hostAccessPatterns(settings({ startUrl: 'http://127.0.0.1:5000/' })), ['http://127.0.0.1/*']);
    assert.deepEqual(hostAccessPatterns(settings({ startUrl: 'http://[::1]:5000/' })), ['http://[::1]/*']);
  });
  it('asks host access for the start host and its subdomains, over http and https, with includeSubdomains', () => {
    assert.deepEqual(hostAccessPatterns(settings({ startUrl: 'https://www.example.org/', includeSubdomains: true })), [
      'http://example.org/*',
      'http://*.example.org/*',
      'https://example.org/*',
      'https://*.example.org/*',
    ]);
    assert.deepEqual(hostAccessPatterns(settings({ startUrl: 'http://127.0.0.1:5000/', includeSubdomains: true })), [
      'http://127.0.0.1/*',
      'https://127.0.0.1/*',
    ]);
  });
  it('asks host access for each extra site too, each pattern once, the start first', () => {
    assert.deepEqual(
      hostAccessPatterns(
        settings({
          startUrl: 'http://127.0.0.1:8080/',
          extraOrigins: [
            'http://127.0.0.1:8081',
            'https://b.example:8443',
            'http://localhost:9000',
            'https://b.example',
          ],
        }),
      ),
      ['http://127.0.0.1/*', 'https://b.example/*', 'http://localhost/*'],
    );
    assert.deepEqual(
      hostAccessPatterns(
        settings({
          startUrl: 'https://www.example.org/',
          includeSubdomains: true,
          extraOrigins: ['https://docs.example.org', 'https://c.test'],
        }),
      ),
      [
        'http://example.org/*',
        'http://*.example.org/*',
        'https://example.org/*',
        'https://*.example.org/*',
        'https://docs.example.org/*',
        'https://c.test/*',
      ],
    );
  });
  it('asks host access for a crawl stored before extra sites existed as before', () => {
    assert.deepEqual(hostAccessPatterns({ startUrl: 'http://127.0.0.1:5000/', includeSubdomains: false }), [
      'http://127.0.0.1/*',
    ]);
  });
  it('accepts a start URL inside its scope whatever the extra sites', () => {
    assert.equal(
      startUrlProblem(
        settings({ startUrl: 'http://a.test/docs/', pathPrefix: '/docs/', extraOrigins: ['http://b.test'] }),
      ),
      null,
    );
  });
  it('asks host access for every URL its scope admits', () => {
    const covered = (patterns: string[], url: string): boolean =>
      patterns.some((pattern) => {
        const [scheme, rest] = pattern.split('://') as [string, string];
        const host = rest.slice(0, -'/*'.length);
        const parsed = new URL(url);
        if (parsed.protocol !== `${scheme}:`) return false;
        return host.startsWith('*.') ? parsed.hostname.endsWith(host.slice(1)) : parsed.hostname === host;
      });
    const crawl = settings({
      startUrl: 'https://www.example.org/',
      includeSubdomains: true,
      extraOrigins: ['http://127.0.0.1:8081', 'https://other.test'],
    });
    const scope = createScope(crawl);
    for (const url of [
      'https://example.org/a',
      'http://www.example.org/b',
      'https://docs.example.org/c',
      'http://a.b.example.org/d',
      'http://127.0.0.1:8081/e',
      'https://other.test/f',
    ]) {
      assert.equal(scope.check(url).inScope, true, url);
      assert.equal(covered(hostAccessPatterns(crawl), url), true, url);
    }
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
  it('pauses only a running crawl, keeping its frontier and host clocks', async () => {
    const store = new MemoryCrawlStore();
    await createCrawl(store, settings({ startUrl: 'http://a.test/' }), { id: 'c', now: 5 });
    const hostsBefore = await store.transaction((tx) => tx.listHosts('c'));
    const paused = await pauseCrawl(store, 'c', 10);
    assert.equal(paused?.state, 'paused');
    assert.equal(paused?.pausedAt, 10);
    assert.equal(paused?.endedAt, null);
    assert.equal((await pauseCrawl(store, 'c', 20))?.pausedAt, 10, 'a second pause changes nothing');
    assert.deepEqual(await store.transaction((tx) => tx.listHosts('c')), hostsBefore);
    assert.ok((await store.transaction((tx) => tx.getEntries('c', ['http://a.test/'])))[0]);
  });
  it('resumes a paused crawl, adding the pause to its paused time', async () => {
    const store = new MemoryCrawlStore();
    await createCrawl(store, settings({ startUrl: 'http://a.test/' }), { id: 'c', now: 0 });
    await pauseCrawl(store, 'c', 100);
    const resumed = await resumeCrawl(store, 'c', 400);
    assert.equal(resumed?.state, 'running');
    assert.equal(resumed?.pausedAt, null);
    assert.equal(resumed?.pausedMs, 300);
    await pauseCrawl(store, 'c', 500);
    assert.equal((await resumeCrawl(store, 'c', 600))?.pausedMs, 400);
  });
  it('stops a paused crawl, and resumes a stopped one counting from its pause', async () => {
    const store = new MemoryCrawlStore();
    await createCrawl(store, settings({ startUrl: 'http://a.test/' }), { id: 'c', now: 0 });
    await pauseCrawl(store, 'c', 100);
    const stopped = await stopCrawl(store, 'c', 200);
    assert.equal(stopped?.state, 'stopped');
    assert.equal(stopped?.endedAt, 200);
    const resumed = await resumeCrawl(store, 'c', 1000);
    assert.equal(resumed?.state, 'running');
    assert.equal(resumed?.endedAt, null);
    assert.equal(resumed?.message, null);
    assert.equal(resumed?.pausedMs, 900);
  });
  it('resumes neither a running nor a finished crawl', async () => {
    const store = new MemoryCrawlStore();
    await createCrawl(store, settings({ startUrl: 'http://a.test/' }), { id: 'c', now: 0 });
    assert.equal((await resumeCrawl(store, 'c', 50))?.pausedMs, 0);
    await store.transaction(async (tx) => {
      const crawl = await tx.getCrawl('c');
      if (crawl) await tx.putCrawl({ ...crawl, state: 'finished', endedAt: 60 });
    });
    assert.equal((await resumeCrawl(store, 'c', 70))?.state, 'finished');
    assert.equal(await resumeCrawl(store, 'missing', 70), undefined);
  });
});

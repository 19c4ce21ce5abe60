import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { etaText, progressPercent, runTimeText } from '../../src/ui/crawl-progress-text.ts';
import { settingsDigest } from '../../src/popup/crawl-text.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';

const settings = { ...DEFAULT_SETTINGS, startUrl: 'https://example.com/' };

function summary(overrides: Partial<CrawlSummary>): Pick<CrawlSummary, 'state' | 'counts' | 'queued' | 'settings'> {
  return {
    state: 'running',
    counts: { admitted: 0, done: 0, fetched: 0, errors: 0, blocked: 0, bytesStored: 0 },
    queued: 0,
    settings,
    ...overrides,
  };
}

describe('popup format: progress of a crawl', () => {
  it('measures done against what is known, capped by the page limit, and fills up once finished', () => {
    const counts = (done: number) => ({ admitted: 0, done, fetched: done, errors: 0, blocked: 0, bytesStored: 0 });
    // [state, done, queued, maxPages, percent]
    const cases: [CrawlSummary['state'], number, number, number, number][] = [
      ['running', 0, 0, 500, 0],
      ['running', 0, 1, 500, 0],
      ['running', 30, 30, 500, 50],
      ['running', 21, 0, 500, 100],
      ['running', 100, 900, 200, 50],
      ['finished', 21, 0, 500, 100],
      ['finished', 3, 0, 500, 100],
      ['stopped', 10, 30, 500, 25],
      ['failed', 0, 1, 500, 0],
    ];
    for (const [state, done, queued, maxPages, percent] of cases) {
      assert.equal(
        progressPercent(summary({ state, counts: counts(done), queued, settings: { ...settings, maxPages } })),
        percent,
        JSON.stringify({ state, done, queued, maxPages }),
      );
    }
  });

  it('names the run time by state', () => {
    assert.equal(runTimeText('running', 125_000), 'running for 2 min');
    assert.equal(runTimeText('paused', 45_000), 'ran 45 s');
    assert.equal(runTimeText('stopped', 45_000), 'ran 45 s');
    assert.equal(runTimeText('finished', 3_600_000), 'took 1 h');
    assert.equal(runTimeText('failed', 100), 'took 0 s');
  });

  it('says nothing is queued only when nothing is', () => {
    assert.equal(etaText(0, 0), 'nothing queued');
    assert.equal(etaText(1, 0), 'under 1 s left');
    assert.equal(etaText(65, 0), 'under 1 s left');
    assert.equal(etaText(3, 90_000), 'about 2 min left');
  });
});

describe('popup format: settings digest', () => {
  it('is empty for the defaults and lists each setting that differs, in a few words', () => {
    assert.equal(settingsDigest(settings), '');
    assert.equal(
      settingsDigest({
        ...settings,
        maxPages: 100,
        delayMs: 500,
        maxDepth: 3,
        requestsPerHost: 4,
        pathPrefix: '/docs/',
        excludePatterns: ['*/a/*', '*/b/*'],
        extraOrigins: ['https://docs.example.com'],
        includeSubdomains: true,
        productToken: 'mybot',
        withCookies: true,
      }),
      'limit 100 · delay 0.5 s · depth 3 · 4 at once per host · path /docs/ · 2 excludes · 1 more site · subdomains · agent mybot · with cookies',
    );
  });

  it('says when a crawl was allowed to reach private addresses (issue 27, item 8)', () => {
    assert.equal(settingsDigest({ ...settings, allowPrivateAddresses: true }), 'private addresses allowed');
  });
});

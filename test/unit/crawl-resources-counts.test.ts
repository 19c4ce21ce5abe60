import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queuedCount } from '../../src/core/crawl/crawl-lifecycle.ts';
import { emptyCounts } from '../../src/core/model.ts';
import { crawl, world } from '../support/crawl-world.ts';
import { page } from '../support/fake-site.ts';

describe('queuedCount with page resources', () => {
  it('counts queued resources with queued pages, and is never negative (it was for the demo crawl: resources are rows too)', () => {
    assert.equal(queuedCount({ counts: { ...emptyCounts(), admitted: 20, resourcesAdmitted: 5, done: 24 } }), 1);
    assert.equal(
      queuedCount({ counts: { ...emptyCounts(), admitted: 3, done: 1 } }),
      2,
      'a crawl stored before resources existed',
    );
  });

  it('is 0 at the end of a crawl with resources', async () => {
    const w = world();
    w.site.route('https://a.example/', page(['/b'], '<img src="/i.png"><link rel="stylesheet" href="/s.css">'));
    w.site.route('https://a.example/b', page([], '<img src="/i.png">'));
    const { final } = await crawl(w, { startUrl: 'https://a.example/', delayMs: 10 });
    assert.ok(final);
    assert.equal(queuedCount(final), 0);
    assert.equal(final.counts.done, 4);
  });
});

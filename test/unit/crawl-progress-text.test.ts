import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrawlCounts, CrawlState } from '../../src/core/model.ts';
import { formatProgress } from '../../src/shells/cli/progress.ts';
import {
  kindsText,
  progressParts,
  progressPercent,
  progressText,
  renderedText,
  type CrawlProgressFields,
} from '../../src/ui/crawl-progress-text.ts';
import { rateText } from '../../src/popup/crawl-text.ts';

/** Counts of a crawl that did `pages` pages (files among them) and `resources` resources, with `resourcesQueued` more known. */
function counts(pages: number, resources: number, files: number, resourcesQueued = 0): CrawlCounts {
  const done = pages + resources;
  return {
    admitted: pages,
    done,
    fetched: done,
    errors: 0,
    blocked: 0,
    bytesStored: 0,
    resourcesAdmitted: resources + resourcesQueued,
    resources,
    files,
  };
}

function crawl(
  state: CrawlState,
  crawlCounts: CrawlProgressFields['counts'],
  queued: number,
  maxPages = 500,
): CrawlProgressFields {
  return { state, counts: crawlCounts, queued, settings: { maxPages } };
}

describe('the rows of a crawl by kind', () => {
  it('counts pages, resources and files apart, each in the singular when one', () => {
    assert.equal(kindsText(counts(13, 30, 1)), '12 pages, 30 resources, 1 file');
    assert.equal(kindsText(counts(1, 1, 0)), '1 page, 1 resource, 0 files');
    assert.equal(kindsText(counts(3, 0, 2)), '1 page, 0 resources, 2 files');
  });

  it('says nothing of kinds for a crawl of pages only, or one stored before resources existed', () => {
    assert.equal(kindsText(counts(20, 0, 0)), null);
    assert.equal(kindsText({ done: 20 }), null);
  });

  it('uses the same words in the popup and on the command line', () => {
    const withKinds = counts(13, 30, 1);
    const kinds = kindsText(withKinds) ?? '';
    assert.ok(progressText(crawl('running', withKinds, 4)).includes(kinds));
    assert.ok(formatProgress({ counts: withKinds, queued: 4 }).endsWith(kinds));
  });
});

describe('the progress line of a crawl', () => {
  it('reads as before for a crawl of pages only', () => {
    assert.equal(progressText(crawl('running', { done: 30 }, 30, 120)), '30 done · 30 queued · limit 120');
    assert.equal(progressText(crawl('finished', { done: 21 }, 0)), '21 done · 0 queued · limit 500');
    assert.equal(progressText(crawl('finished', { done: 21 }, 0), { showQueued: false }), '21 done · limit 500');
  });

  it("splits the rows done by kind and names the limit as the pages' own when there are resources or files", () => {
    const withKinds = counts(13, 30, 1, 25);
    assert.equal(
      progressText(crawl('running', withKinds, 27, 200)),
      '43 done (12 pages, 30 resources, 1 file) · 27 queued · page limit 200',
    );
    assert.equal(
      progressText(crawl('paused', withKinds, 27, 200), { separator: ', ' }),
      '43 done (12 pages, 30 resources, 1 file), 27 queued, page limit 200',
    );
    assert.equal(
      progressText(crawl('finished', counts(13, 30, 1), 0, 200), { showQueued: false }),
      '43 done (12 pages, 30 resources, 1 file) · page limit 200',
    );
  });

  it('comes in parts, for the popup to wrap between them and not inside one', () => {
    assert.deepEqual(progressParts(crawl('running', counts(13, 30, 1, 25), 27, 200)), [
      '43 done (12 pages, 30 resources, 1 file)',
      '27 queued',
      'page limit 200',
    ]);
    assert.deepEqual(progressParts(crawl('finished', { done: 21 }, 0), false), ['21 done', 'limit 500']);
  });
});

describe('how far a crawl with page resources is', () => {
  it('caps the pages by the page limit and counts every resource known, done or queued', () => {
    // 5 pages done and 5 queued of a limit of 10; 5 resources done, 45 queued: 10 of 60.
    assert.equal(progressPercent(crawl('running', counts(5, 5, 0, 45), 50, 10)), (10 / 60) * 100);
    // The page limit does not cap the resources: 10 pages (the limit) and 10 of 50 resources done is 20 of 60, not full.
    assert.equal(progressPercent(crawl('running', counts(10, 10, 0, 40), 40, 10)), (20 / 60) * 100);
    // Pages known beyond the limit are not waited for.
    assert.equal(progressPercent(crawl('running', counts(50, 50, 1, 100), 1050, 200)), (100 / 350) * 100);
  });

  it('is full when every page and resource known is done, and once finished', () => {
    assert.equal(progressPercent(crawl('running', counts(10, 30, 1), 0, 10)), 100);
    assert.equal(progressPercent(crawl('stopped', counts(10, 30, 1, 5), 5, 500)), (40 / 45) * 100);
    assert.equal(progressPercent(crawl('finished', counts(3, 30, 1, 5), 5, 500)), 100);
  });
});

describe('the rate of a crawl', () => {
  it('counts pages per minute for a crawl of pages only and URLs per minute for one with resources or files', () => {
    assert.equal(rateText(30, counts(20, 0, 0)), '30 pages/min');
    assert.equal(rateText(null, counts(20, 0, 0)), '— pages/min');
    assert.equal(rateText(4.25, counts(20, 5, 0)), '4.3 URLs/min');
    assert.equal(rateText(null, counts(20, 0, 1)), '— URLs/min');
  });
});

describe('the progress of a crawl that renders pages', () => {
  it('says how many renders ended of the pages queued to render, and nothing for a crawl that renders none', () => {
    assert.equal(renderedText({ renders: 10, rendered: 3 }), 'rendered 3 of 10');
    assert.equal(renderedText({}), null);
    assert.equal(
      progressText(crawl('running', { done: 30, renders: 4, rendered: 1 }, 30, 120)),
      '30 done · rendered 1 of 4 · 30 queued · limit 120',
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notCrawledReasonText, notCrawledText, NOT_CRAWLED_REASONS } from '../../src/ui/not-crawled-text.ts';

const settings = { maxDepth: 20, maxPages: 5000, pathPrefix: '/docs/' };

describe('the line on URLs a crawl left unvisited', () => {
  it('names the one reason, or each with its count in a fixed order, with the total grouped by thousands', () => {
    assert.equal(notCrawledText({ depth: 13_242 }, settings), '13,242 URLs not crawled: deeper than 20');
    assert.equal(notCrawledText({ 'page-limit': 1 }, settings), '1 URL not crawled: past the page limit (5,000)');
    assert.equal(
      notCrawledText({ trap: 2, excluded: 3, prefix: 4, 'page-limit': 5, depth: 6 }, settings),
      '20 URLs not crawled: 6 deeper than 20, 5 past the page limit (5,000), 4 outside /docs/, 3 excluded by a pattern, 2 likely traps (repeating paths, endless query variants)',
    );
  });

  it('says nothing when nothing was left out or it was not counted', () => {
    assert.equal(notCrawledText({}, settings), null);
    assert.equal(notCrawledText({ depth: 0 }, settings), null);
    assert.equal(notCrawledText(undefined, settings), null);
  });

  it('has words for every reason, and names the path prefix only when there is one', () => {
    for (const reason of NOT_CRAWLED_REASONS) assert.notEqual(notCrawledReasonText(reason, settings), '');
    assert.equal(notCrawledReasonText('prefix', { ...settings, pathPrefix: '' }), 'outside the path prefix');
  });
});

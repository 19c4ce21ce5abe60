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

  it('names the links to other sites left unchecked, with the limits in force (issue 26, item 3)', () => {
    const limits = { ...settings, maxExternal: 10_000, maxExternalPerHost: 100 };
    assert.equal(
      notCrawledText({ 'external-host-limit': 2888, depth: 3, 'external-robots': 12, 'external-limit': 1 }, limits),
      '2,904 URLs not crawled: 3 deeper than 20, 2,888 past the limit of checks per other site (100), 1 past the limit of links to other sites to check (10,000), 12 on other sites whose robots.txt refused the check',
    );
    assert.equal(
      notCrawledText({ 'external-off': 7 }, limits),
      '7 URLs not crawled: on other sites, not checked (checks turned off)',
    );
  });

  it("names the URLs on the user's network a crawl of a public site did not ask for (issue 27, item 8)", () => {
    assert.equal(
      notCrawledText({ 'private-address': 3 }, settings),
      '3 URLs not crawled: not checked: private address (on your own network or computer)',
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

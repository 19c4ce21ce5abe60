/**
 * What the Issues view says beside a check of the URLs it could not judge (`src/audit/not-judged.ts`):
 * links to other sites not checked, canonicals whose target was never fetched (issue 26, items 3 and 4).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CheckId } from '../../src/audit/checks.ts';
import { notJudgedNotes } from '../../src/audit/not-judged.ts';

const result = (counts: Partial<Record<CheckId, number>> = {}) => ({
  notJudged: new Map(Object.entries(counts) as [CheckId, number][]),
});
const checking = { checkExternal: true, maxExternal: 10_000, maxExternalPerHost: 100 };

describe('what a check could not judge', () => {
  it('counts the links to other sites not checked: past the limits, kept out by robots.txt, each reason named', () => {
    const note = notJudgedNotes(result({ 'broken-link-external': 12 }), {
      settings: checking,
      counts: { notCrawled: { 'external-host-limit': 2888, 'external-limit': 1, depth: 40 } },
    }).get('broken-link-external');
    assert.deepEqual(note, {
      count: 2901,
      isOff: false,
      label: '2,901 not checked',
      text: '2,901 links to other sites not checked, listed in Not crawled: 2,888 past the limit of checks per other site (100), 1 past the limit of links to other sites to check (10,000), 12 kept out by their robots.txt.',
    });
  });

  it('says nothing of a crawl that checked every link to another site', () => {
    assert.equal(notJudgedNotes(result(), { settings: checking, counts: { notCrawled: { depth: 3 } } }).size, 0);
  });

  it('calls the check not checked, not passed, in a crawl with checks off or stored before they existed', () => {
    const off = notJudgedNotes(result(), {
      settings: { ...checking, checkExternal: false },
      counts: { notCrawled: { 'external-off': 7 } },
    }).get('broken-link-external');
    assert.equal(off?.isOff, true);
    assert.equal(off?.label, 'not checked');
    assert.equal(off?.count, 7);
    assert.match(
      off?.text ?? '',
      /not checked in this crawl .*passed none of them\. 7 links to other sites, listed in Not crawled\.$/,
    );
    assert.equal(
      notJudgedNotes(result(), { settings: {} }).get('broken-link-external')?.isOff,
      true,
      'no setting: none were checked',
    );
  });

  it('counts the canonicals whose target was never fetched', () => {
    assert.equal(
      notJudgedNotes(result({ 'canonical-to-non-200': 3 }), { settings: checking }).get('canonical-to-non-200')?.label,
      '3 not judged',
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAudit } from '../../src/audit/audit.ts';
import { brokenUrlsOfSource } from '../../src/export/broken-resources.ts';
import { redirectsOfSource } from '../../src/export/redirect-chains.ts';
import { issuesOfSource } from '../../src/export/issues-of-source.ts';
import { rowFactsOfSource } from '../../src/export/row-facts.ts';
import { FIXTURE_ORIGIN, fixtureRowsWithResources, fixtureSource } from '../support/export-fixtures.ts';

const url = (path: string): string => `${FIXTURE_ORIGIN}${path}`;

describe('rowFactsOfSource', () => {
  it('reads each scan of the rows once for the issues, the broken URLs and the redirects together', async () => {
    const rows = fixtureRowsWithResources();
    let auditScans = 0;
    await runAudit(() => {
      auditScans += 1;
      return fixtureSource(rows).rows();
    });
    const source = fixtureSource(rows);
    await rowFactsOfSource(source);
    // Every collector rides the Issues checks' scans: not one pass more than the checks alone make.
    assert.equal(source.passes - auditScans, 0, `${source.passes} passes for ${auditScans} scans of the checks`);
  });

  it('finds what the separate readers find, in fewer passes', async () => {
    const rows = fixtureRowsWithResources();
    const together = fixtureSource(rows);
    const facts = await rowFactsOfSource(together);
    const apart = fixtureSource(rows);
    const broken = await brokenUrlsOfSource(apart);
    const issues = await issuesOfSource(apart);
    const redirects = await redirectsOfSource(apart);
    assert.ok(together.passes < apart.passes);
    for (const row of rows) {
      assert.equal(facts.broken.has(row.url), broken.has(row.url), row.url);
      assert.deepEqual(facts.issues.get(row.url), issues.get(row.url), row.url);
      assert.deepEqual(facts.redirects.chainOf(row.url), redirects.chainOf(row.url), row.url);
    }
    assert.equal(facts.redirects.chainOf(url('/old'))?.finalUrl, url('/new'));
  });
});

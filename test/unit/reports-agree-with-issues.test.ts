import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAudit } from '../../src/audit/audit.ts';
import { buildAllReports } from '../../src/audit/reports.ts';
import { DEFAULT_THRESHOLDS } from '../../src/audit/thresholds.ts';
import { auditRows } from '../support/audit-fixture.ts';
import { scanOf } from '../support/row-scan.ts';

const sorted = (urls: Iterable<string>): string[] => [...urls].sort();

describe('reports and Issues over one crawl', () => {
  it('list the same broken links, broken resources, redirect chains and loops, judged by the same predicates and walker', async () => {
    const rows = auditRows();
    const [reports, audit] = await Promise.all([buildAllReports(scanOf(rows)), runAudit(scanOf(rows))]);
    const found = (check: Parameters<typeof audit.findings.get>[0]): string[] => (audit.findings.get(check) ?? []).map((finding) => finding.url);

    assert.deepEqual(sorted(reports['broken-links'].targets.map((target) => target.url)), sorted([...found('broken-link-internal'), ...found('broken-link-external')]));
    assert.deepEqual(sorted(reports['broken-resources'].resources.map((resource) => resource.url)), sorted(found('broken-resource')));
    const loops = reports.redirects.chains.filter((chain) => chain.isLoop).map((chain) => chain.hops[0]?.url ?? '');
    assert.deepEqual(sorted(loops), sorted(found('redirect-loop')));
    const long = reports.redirects.chains.filter((chain) => !chain.isLoop && chain.hops.length >= DEFAULT_THRESHOLDS.redirectChainHops);
    assert.deepEqual(sorted(long.map((chain) => chain.hops[0]?.url ?? '')), sorted(found('redirect-chain')));
    assert.ok(loops.length > 0 && reports['broken-links'].targets.length > 0, 'the fixture plants both');
  });
});

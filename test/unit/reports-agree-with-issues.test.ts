import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAudit } from '../../src/audit/audit.ts';
import { runChecks } from '../../src/audit/engine.ts';
import { BrokenLinkJudge, BrokenResourceJudge, type JudgedResource } from '../../src/audit/broken-judgements.ts';
import type { RelatedUrls } from '../../src/audit/engine.ts';
import { linkChecksJudging, statusDetail } from '../../src/audit/link-checks.ts';
import { BlockedJudge, RedirectJudge } from '../../src/audit/link-judgements.ts';
import { DuplicateJudge, type JudgedDuplicates } from '../../src/audit/duplicate-judgement.ts';
import { pageChecksJudging } from '../../src/audit/page-checks.ts';
import type { RedirectWalk } from '../../src/audit/redirect-chains.ts';
import {
  blockedReportOf,
  brokenLinksReportOf,
  brokenResourcesReportOf,
  duplicatesReportOf,
  redirectsReportOf,
} from '../../src/audit/report-views.ts';
import { buildAllReports } from '../../src/audit/reports.ts';
import { DEFAULT_THRESHOLDS } from '../../src/audit/thresholds.ts';
import {
  OTHER,
  SITE,
  auditRows,
  cleanFacts,
  external,
  linking,
  other,
  page,
  redirect,
} from '../support/audit-fixture.ts';
import { scanOf } from '../support/row-scan.ts';

const sorted = (urls: Iterable<string>): string[] => [...urls].sort();

describe('reports and Issues over one crawl', () => {
  it('list the same broken links, broken resources, redirect chains and loops, judged by the same predicates and walker', async () => {
    const rows = auditRows();
    const [reports, audit] = await Promise.all([buildAllReports(scanOf(rows)), runAudit(scanOf(rows))]);
    const found = (check: Parameters<typeof audit.findings.get>[0]): string[] =>
      (audit.findings.get(check) ?? []).map((finding) => finding.url);

    assert.deepEqual(
      sorted(reports['broken-links'].targets.map((target) => target.url)),
      sorted([...found('broken-link-internal'), ...found('broken-link-external')]),
    );
    assert.deepEqual(
      sorted(reports['broken-resources'].resources.map((resource) => resource.url)),
      sorted(found('broken-resource')),
    );
    const loops = reports.redirects.chains.filter((chain) => chain.isLoop).map((chain) => chain.hops[0]?.url ?? '');
    assert.deepEqual(sorted(loops), sorted(found('redirect-loop')));
    const long = reports.redirects.chains.filter(
      (chain) => !chain.isLoop && chain.hops.length >= DEFAULT_THRESHOLDS.redirectChainHops,
    );
    assert.deepEqual(sorted(long.map((chain) => chain.hops[0]?.url ?? '')), sorted(found('redirect-chain')));
    assert.ok(loops.length > 0 && reports['broken-links'].targets.length > 0, 'the fixture plants both');
  });

  it("follow a redirect of the site through another site's redirects as one chain, and list no chain of another site's redirects alone", async () => {
    const rows = [
      linking('/', ['/moved', `${OTHER}/short`]),
      // The site's /moved sends visitors to another site, which redirects once more: two hops for them.
      redirect('/moved', `${OTHER}/a`),
      external(`${OTHER}/a`, { status: 301, location: `${OTHER}/b` }),
      external(`${OTHER}/b`, { status: 200 }),
      // A link to another site that redirects: no chain of the site.
      external(`${OTHER}/short`, { status: 301, location: `${OTHER}/long` }),
      external(`${OTHER}/long`, { status: 301, location: `${OTHER}/longer` }),
      external(`${OTHER}/longer`, { status: 200 }),
    ];
    const [reports, audit] = await Promise.all([buildAllReports(scanOf(rows)), runAudit(scanOf(rows))]);
    assert.deepEqual(
      reports.redirects.chains.map((chain) => [chain.hops.map((hop) => hop.url), chain.end]),
      [
        [
          [`${SITE}/moved`, `${OTHER}/a`],
          { kind: 'page', url: `${OTHER}/b`, status: 200, error: null, isBlocked: false },
        ],
      ],
    );
    assert.deepEqual(
      (audit.findings.get('redirect-chain') ?? []).map((finding) => [finding.url, finding.detail]),
      [[`${SITE}/moved`, `2 hops to ${OTHER}/b`]],
    );
  });

  it('show in the Redirects and Blocked reports what the link checks judged, read from their judges and not from the rows', async () => {
    const rows = [
      linking('/', ['/old', '/private']),
      redirect('/old', '/older'),
      redirect('/older', '/'),
      other('/private', { status: null, blockedBy: 'robots', blockedRule: 'Disallow: /private' }),
    ];
    /** A judge that follows the chains it is told to: if the checks or the report followed chains of their own, they would not show these. */
    class ToldJudge extends RedirectJudge {
      override chains(): RedirectWalk[] {
        return [
          { hops: [`${SITE}/older`], end: { kind: 'exit', url: `${SITE}/` } },
          { hops: [`${SITE}/old`, `${SITE}/older`], end: { kind: 'loop', url: `${SITE}/old` } },
        ];
      }
    }
    const judges = {
      links: new BrokenLinkJudge(statusDetail, true),
      redirects: new ToldJudge(true),
      blocked: new BlockedJudge(),
      resources: new BrokenResourceJudge(statusDetail, true),
    };
    const audit = await runChecks(scanOf(rows), [linkChecksJudging(judges)]);
    assert.deepEqual(
      (audit.findings.get('redirect-loop') ?? []).map((finding) => finding.url),
      [`${SITE}/old`],
    );
    assert.deepEqual(audit.findings.get('redirect-chain'), []);
    const report = redirectsReportOf(judges.redirects);
    assert.deepEqual(
      report.chains.map((chain) => [chain.hops.map((hop) => hop.url), chain.isLoop]),
      [
        [[`${SITE}/old`, `${SITE}/older`], true],
        [[`${SITE}/older`], false],
      ],
    );
    assert.deepEqual(blockedReportOf(judges.blocked).rows, [
      { url: `${SITE}/private`, rule: 'Disallow: /private', referrer: `${SITE}/` },
    ]);
    assert.deepEqual(
      (audit.findings.get('link-to-blocked') ?? []).map((finding) => finding.url),
      [`${SITE}/private`],
    );
  });

  it('leave out of a duplicate group, in the report as in the Issues, a page whose canonical names another page of the group', async () => {
    const body = 'ab'.repeat(32);
    const rows = [
      page('/a', { sha256: body }),
      page('/a-copy', { sha256: body, duplicateOf: `${SITE}/a` }),
      // The print version says which page to index: not a duplicate to fix.
      page('/a-print', {
        sha256: body,
        duplicateOf: `${SITE}/a`,
        facts: cleanFacts('/a-print', { canonical: `${SITE}/a` }),
      }),
    ];
    const [reports, audit] = await Promise.all([buildAllReports(scanOf(rows)), runAudit(scanOf(rows))]);
    assert.deepEqual(
      reports.duplicates.groups.map((group) => group.members.map((member) => member.url)),
      [[`${SITE}/a`, `${SITE}/a-copy`]],
    );
    assert.deepEqual(
      (audit.findings.get('duplicate-content') ?? []).map((finding) => finding.url),
      [`${SITE}/a`, `${SITE}/a-copy`],
    );
  });

  it('show in the Duplicate content report the groups the duplicate-content check judged, read from its judge and not from the rows', async () => {
    const rows = [page('/a', { sha256: 'ab'.repeat(32) }), page('/b', { sha256: 'cd'.repeat(32) })];
    /** A judge that finds the group it is told to: if the check or the report grouped pages of their own, they would not show it. */
    class ToldJudge extends DuplicateJudge {
      override groupsFound(): JudgedDuplicates[] {
        return [
          {
            sha256: null,
            members: [`${SITE}/a`, `${SITE}/b`].map((url, index) => ({ url, status: 200, isOriginal: index === 0 })),
          },
        ];
      }
    }
    const judge = new ToldJudge();
    const audit = await runChecks(scanOf(rows), [pageChecksJudging(judge)]);
    assert.deepEqual(
      (audit.findings.get('duplicate-content') ?? []).map((finding) => finding.url),
      [`${SITE}/a`, `${SITE}/b`],
    );
    assert.deepEqual(
      duplicatesReportOf(judge).groups.map((group) => group.members.map((member) => member.url)),
      [[`${SITE}/a`, `${SITE}/b`]],
    );
  });

  it('show in the Broken resources report the resources the broken-resource check judged, read from its judge and not from the rows', async () => {
    const rows = [page('/'), other('/logo.png', { kind: 'resource', status: 200 })];
    /** A judge that finds broken what it is told to (the rows say the logo is fine). */
    class ToldJudge extends BrokenResourceJudge {
      override *judged(): Generator<JudgedResource & { users: RelatedUrls }> {
        const resource = {
          url: `${SITE}/logo.png`,
          type: 'image' as const,
          status: 404,
          error: null,
          isBlocked: false,
          blockedRule: null,
          referrer: `${SITE}/`,
        };
        yield { resource, isResource: true, detail: '404', users: { urls: [], count: 0 } };
      }
    }
    const judges = {
      links: new BrokenLinkJudge(statusDetail, true),
      redirects: new RedirectJudge(false),
      blocked: new BlockedJudge(),
      resources: new ToldJudge(statusDetail, true),
    };
    const audit = await runChecks(scanOf(rows), [linkChecksJudging(judges)]);
    assert.deepEqual(
      (audit.findings.get('broken-resource') ?? []).map((finding) => [finding.url, finding.detail]),
      [[`${SITE}/logo.png`, '404']],
    );
    assert.deepEqual(
      brokenResourcesReportOf(judges.resources).resources.map((resource) => [resource.url, resource.status]),
      [[`${SITE}/logo.png`, 404]],
    );
  });

  it('leave out of the broken resources, in the report as in the Issues, a link to another site that a page also uses as a resource', async () => {
    const rows = [
      page('/', {
        resources: [`${OTHER}/private.png`, `${SITE}/missing.png`],
        links: [`${OTHER}/private.png`],
        linkTexts: ['image'],
      }),
      // First reached as a link: checked as a link to another site, and its robots.txt kept it from being checked.
      external(`${OTHER}/private.png`, {
        status: null,
        methods: [],
        blockedBy: 'robots',
        blockedRule: 'Disallow: /private',
      }),
      other('/missing.png', { kind: 'resource', status: 404 }),
    ];
    const [reports, audit] = await Promise.all([buildAllReports(scanOf(rows)), runAudit(scanOf(rows))]);
    assert.deepEqual(
      reports['broken-resources'].resources.map((resource) => resource.url),
      [`${SITE}/missing.png`],
    );
    assert.deepEqual(
      (audit.findings.get('broken-resource') ?? []).map((finding) => finding.url),
      [`${SITE}/missing.png`],
    );
  });

  it('show in the Broken links report the URLs the broken-link checks flagged, with the linking pages their judge kept', async () => {
    const rows = [
      linking('/', ['/gone', '/also-gone']),
      other('/gone', { status: 404 }),
      other('/also-gone', { status: 410 }),
    ];
    const judges = {
      links: new BrokenLinkJudge(statusDetail, true),
      redirects: new RedirectJudge(false),
      blocked: new BlockedJudge(),
      resources: new BrokenResourceJudge(statusDetail, false),
    };
    const audit = await runChecks(scanOf(rows), [linkChecksJudging(judges)]);
    const findings = audit.findings.get('broken-link-internal') ?? [];
    assert.deepEqual(
      findings.map((finding) => finding.url),
      [`${SITE}/gone`, `${SITE}/also-gone`],
    );
    // Only what the checks flagged is listed: a finding left out is a target left out.
    const report = brokenLinksReportOf(
      findings.filter((finding) => finding.url === `${SITE}/also-gone`),
      judges.links,
    );
    assert.deepEqual(report.targets, [
      { url: `${SITE}/also-gone`, status: 410, error: null, linkingPages: [{ url: `${SITE}/`, anchorText: 'text' }] },
    ]);
  });

  it('list a broken page resource among the broken links, in the report as in the Issues, only when a page links to it', async () => {
    const rows = [
      other('/sitemap.xml', { kind: 'sitemap', links: [`${SITE}/listed.png`, `${SITE}/linked.png`], linkTexts: [] }),
      linking('/', ['/linked.png']),
      other('/listed.png', { kind: 'resource', status: 404 }),
      other('/linked.png', { kind: 'resource', status: 404 }),
    ];
    const [reports, audit] = await Promise.all([buildAllReports(scanOf(rows)), runAudit(scanOf(rows))]);
    assert.deepEqual(
      reports['broken-links'].targets.map((target) => [target.url, target.linkingPages.map((linking) => linking.url)]),
      [[`${SITE}/linked.png`, [`${SITE}/sitemap.xml`, `${SITE}/`]]],
    );
    assert.deepEqual(
      (audit.findings.get('broken-link-internal') ?? []).map((finding) => finding.url),
      [`${SITE}/linked.png`],
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BrokenLinkJudge, BrokenResourceJudge } from '../../src/audit/broken-judgements.ts';
import { DuplicateJudge } from '../../src/audit/duplicate-judgement.ts';
import { RELATED_MAX, scanInPasses } from '../../src/audit/engine.ts';
import { statusDetail } from '../../src/audit/link-checks.ts';
import { BlockedJudge, RedirectJudge } from '../../src/audit/link-judgements.ts';
import { OTHER, SITE, cleanFacts, external, linking, other, page, redirect } from '../support/audit-fixture.ts';
import { scanOf } from '../support/row-scan.ts';

describe('the judgements the checks and the reports share', () => {
  it("a redirect judge starts chains at the site's redirects only, and follows them through other sites' redirects", async () => {
    const judge = new RedirectJudge(true);
    const rows = [
      redirect('/a', `${OTHER}/x`),
      external(`${OTHER}/x`, { status: 302, location: `${OTHER}/y` }),
      external(`${OTHER}/y`, { status: 200 }),
      external(`${OTHER}/alone`, { status: 301, location: `${OTHER}/y` }),
    ];
    await scanInPasses(scanOf(rows), [judge]);
    assert.deepEqual(judge.chains(), [{ hops: [`${SITE}/a`, `${OTHER}/x`], end: { kind: 'exit', url: `${OTHER}/y` } }]);
    assert.deepEqual(judge.ends.get(`${OTHER}/y`), { url: `${OTHER}/y`, status: 200, error: null, isBlocked: false });
  });

  it('a redirect judge that keeps no ends reads the rows once', async () => {
    const scan = scanOf([redirect('/a', '/b'), page('/b')]);
    await scanInPasses(scan, [new RedirectJudge(false)]);
    assert.equal(scan.scans, 1);
  });

  it("a blocked judge keeps the site's blocked pages, files and sitemaps in one scan, not resources or other sites", async () => {
    const blocked = { status: null, blockedBy: 'robots' as const, blockedRule: 'Disallow: /x' };
    const judge = new BlockedJudge();
    const scan = scanOf([
      other('/x/page', blocked),
      other('/x/img.png', { ...blocked, kind: 'resource' }),
      external(`${OTHER}/x`, blocked),
    ]);
    await scanInPasses(scan, [judge]);
    assert.equal(scan.scans, 1);
    assert.deepEqual([...judge.rows.keys()], [`${SITE}/x/page`]);
  });

  it('a duplicate judge leaves out a page naming another page of its group as canonical, and a group left with one page', async () => {
    const body = 'ab'.repeat(32);
    const judge = new DuplicateJudge();
    const rows = [
      page('/a', { sha256: body }),
      page('/b', { sha256: body, duplicateOf: `${SITE}/a` }),
      page('/c', { sha256: body, duplicateOf: `${SITE}/a`, facts: cleanFacts('/c', { canonical: `${SITE}/a` }) }),
      page('/solo', { sha256: 'cd'.repeat(32) }),
      page('/solo-print', {
        sha256: 'cd'.repeat(32),
        duplicateOf: `${SITE}/solo`,
        facts: cleanFacts('/solo-print', { canonical: `${SITE}/solo` }),
      }),
    ];
    await scanInPasses(scanOf(rows), [judge]);
    assert.deepEqual(judge.groupsFound(), [
      {
        sha256: body,
        members: [
          { url: `${SITE}/a`, status: 200, isOriginal: true },
          { url: `${SITE}/b`, status: 200, isOriginal: false },
        ],
      },
    ]);
  });

  it('a broken-resource judge names the first users and counts them all, and keeps every one only when asked', async () => {
    const users = Array.from({ length: RELATED_MAX + 5 }, (_, index) =>
      page(`/p${index}`, { resources: [`${SITE}/gone.css`] }),
    );
    const rows = [other('/gone.css', { kind: 'resource', status: 404 }), ...users];
    const forIssues = new BrokenResourceJudge(statusDetail, false);
    const forReport = new BrokenResourceJudge(statusDetail, true);
    await scanInPasses(scanOf(rows), [forIssues, forReport]);
    const [judged] = [...forIssues.judged()];
    assert.equal(judged?.users.count, RELATED_MAX + 5);
    assert.equal(judged?.users.urls.length, RELATED_MAX);
    assert.equal(judged?.detail, '404');
    assert.deepEqual(forIssues.allUsersOf(`${SITE}/gone.css`), []);
    assert.equal(forReport.allUsersOf(`${SITE}/gone.css`).length, RELATED_MAX + 5);
  });

  it('a broken-link judge keeps every row linking to a broken row with its anchor text only when asked, and then reads the rows twice', async () => {
    const rows = [linking('/', ['/gone', '/gone']), other('/gone', { status: 404 })];
    const forIssues = new BrokenLinkJudge(statusDetail, false);
    const scan = scanOf(rows);
    await scanInPasses(scan, [forIssues]);
    assert.equal(scan.scans, 1);
    assert.deepEqual(forIssues.linkingPagesOf(`${SITE}/gone`), []);
    const forReport = new BrokenLinkJudge(statusDetail, true);
    await scanInPasses(scanOf(rows), [forReport]);
    assert.deepEqual(forReport.linkingPagesOf(`${SITE}/gone`), [{ url: `${SITE}/`, anchorText: 'text' }]);
    assert.deepEqual(forReport.targets.get(`${SITE}/gone`), {
      url: `${SITE}/gone`,
      status: 404,
      error: null,
      detail: '404',
      isExternal: false,
      isResource: false,
    });
  });
});

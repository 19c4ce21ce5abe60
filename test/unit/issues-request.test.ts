import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHECK_IDS, checkInfo } from '../../src/audit/checks.ts';
import { CrawlManager } from '../../src/shells/background/crawl-manager.ts';
import { issuesLine } from '../../src/shells/cli/run-cli.ts';
import { createHandlers, dispatch } from '../../src/shells/background/message-handlers.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { FakeSite } from '../support/fake-site.ts';
import { VirtualClock } from '../support/virtual-clock.ts';
import { CRAWL_ID, PLANTED, auditRows } from '../support/audit-fixture.ts';
import { crawlFixture } from '../support/store-contract.ts';

describe('the crawl/issues request', () => {
  it('answers the issues of a stored crawl by severity and the failed checks with their counts', async () => {
    const clock = new VirtualClock();
    const store = new MemoryCrawlStore();
    const manager = new CrawlManager({
      store,
      fetcher: new FakeSite(clock),
      clock,
      runId: 'run',
      newId: () => 'x',
      onActiveChange: () => undefined,
    });
    const handlers = createHandlers(store, manager, clock);
    await store.transaction(async (tx) => {
      await tx.putCrawl({ ...crawlFixture(CRAWL_ID), state: 'finished' });
      await tx.putPages(auditRows());
    });
    const reply = await dispatch(handlers, { type: 'crawl/issues', payload: { crawlId: CRAWL_ID } });
    assert.ok(reply.ok);
    const expected = { error: 0, warning: 0, notice: 0 };
    for (const id of CHECK_IDS) expected[checkInfo(id).severity] += PLANTED[id].length;
    assert.deepEqual(reply.value.bySeverity, expected);
    assert.deepEqual(
      reply.value.checks,
      CHECK_IDS.map((check) => ({ check, count: PLANTED[check].length })),
    );
    const missing = await dispatch(handlers, { type: 'crawl/issues', payload: { crawlId: 'nope' } });
    assert.equal(missing.ok ? null : missing.error.code, 'not-found');
  });
});

describe('the command line’s issues line', () => {
  it('ends the summary with the issues by severity and the checks that failed most', () => {
    const checks = [
      { check: 'title-too-short' as const, count: 1 },
      { check: 'broken-link-internal' as const, count: 2 },
    ];
    assert.equal(
      issuesLine({ bySeverity: { error: 2, warning: 0, notice: 1 }, checks }, false),
      'issues: 2 errors, 0 warnings, 1 notice (broken-link-internal 2, title-too-short 1); every one: --out NAME.issues.csv',
    );
    assert.equal(
      issuesLine({ bySeverity: { error: 2, warning: 0, notice: 1 }, checks }, true),
      'issues: 2 errors, 0 warnings, 1 notice (broken-link-internal 2, title-too-short 1)',
    );
    assert.equal(
      issuesLine({ bySeverity: { error: 0, warning: 0, notice: 0 }, checks: [] }, false),
      'issues: 0 errors, 0 warnings, 0 notices',
    );
  });

  it('names the errors before the warnings and notices, however many of those there are', () => {
    const checks = [
      { check: 'broken-link-internal' as const, count: 1 },
      { check: 'title-duplicate' as const, count: 4 },
      { check: 'deep-page' as const, count: 40 },
      { check: 'broken-resource' as const, count: 3 },
    ];
    assert.equal(
      issuesLine({ bySeverity: { error: 4, warning: 4, notice: 40 }, checks }, true),
      'issues: 4 errors, 4 warnings, 40 notices (broken-resource 3, broken-link-internal 1, title-duplicate 4, deep-page 40)',
    );
  });
});

/**
 * What each kind of work decides for the crawl core (`core/crawl/kinds/`, issue 28, item 2): the request
 * (credentials, a GET after a failed HEAD), the redirects (how many, where they go), admission (budgets,
 * counters, queue order) and the not-crawled list. The fetch step, admission and the queue ask these and
 * branch on nothing else.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newHostState } from '../../src/core/crawl/crawl-writes.ts';
import type { Candidate } from '../../src/core/crawl/candidate.ts';
import { RESOURCE_SEQ_BIAS } from '../../src/core/crawl/kinds/resource-kind.ts';
import { rowCounterOf, workKindOf } from '../../src/core/crawl/kinds/registry.ts';
import { unfetchedRow } from '../../src/core/crawl/frontier-queue.ts';
import { emptyCounts, type CrawlRecord, type EntryKind, type FrontierEntry } from '../../src/core/model.ts';
import { DEFAULT_SETTINGS, MAX_EXTERNAL_REDIRECTS } from '../../src/core/settings.ts';
import { MAX_REDIRECT_HOPS } from '../../src/core/url/traps.ts';
import { createScope } from '../../src/core/url/scope.ts';

const KINDS: EntryKind[] = ['page', 'sitemap', 'resource', 'external'];

function crawlWith(
  settings: Partial<CrawlRecord['settings']> = {},
  counts: Partial<CrawlRecord['counts']> = {},
): CrawlRecord {
  return {
    id: 'c',
    settings: { ...DEFAULT_SETTINGS, startUrl: 'https://example.com/', ...settings },
    state: 'running',
    createdAt: 0,
    endedAt: null,
    counts: { ...emptyCounts(), ...counts },
    message: null,
    nextSeq: 0,
    pausedAt: null,
    pausedMs: 0,
  };
}

const redirectTo = (url: string, kind: EntryKind): Candidate => ({
  url,
  origin: new URL(url).origin,
  kind,
  depth: 1,
  referrer: 'https://example.com/a',
  anchor: null,
  isLink: false,
});

function route(kind: EntryKind, url: string): { followed: Candidate[]; anyHost: Candidate[] } {
  const followed: Candidate[] = [];
  const anyHost: Candidate[] = [];
  workKindOf(kind).routeRedirect(redirectTo(url, kind), createScope(crawlWith().settings), followed, anyHost);
  return { followed, anyHost };
}

describe('work kinds: the request', () => {
  it('asks for a link to another site without credentials, and for every other kind with them', () => {
    assert.deepEqual(
      KINDS.filter((kind) => workKindOf(kind).anonymous),
      ['external'],
    );
  });

  it('asks a link to another site again with GET when its HEAD got no proper answer, never after a stop or withdrawn access', () => {
    const external = workKindOf('external');
    assert.equal(external.getAfterFailedHead('network'), true);
    assert.equal(external.getAfterFailedHead('invalid-response'), true);
    assert.equal(external.getAfterFailedHead('aborted'), false);
    assert.equal(external.getAfterFailedHead('no-access'), false);
  });

  it('takes a failed HEAD of a page as its answer', () => {
    assert.equal(workKindOf('page').getAfterFailedHead('network'), false);
  });
});

describe('work kinds: redirects', () => {
  it('follows a link to another site for fewer hops than a page', () => {
    assert.equal(workKindOf('external').redirectLimit, MAX_EXTERNAL_REDIRECTS);
    for (const kind of ['page', 'sitemap', 'resource'] as const)
      assert.equal(workKindOf(kind).redirectLimit, MAX_REDIRECT_HOPS);
  });

  it("sends a page's and a sitemap's redirect to the scope, as the same kind", () => {
    for (const kind of ['page', 'sitemap'] as const) {
      const { followed, anyHost } = route(kind, 'https://example.com/b');
      assert.deepEqual(
        followed.map((c) => c.kind),
        [kind],
      );
      assert.equal(anyHost.length, 0);
    }
  });

  it("sends a resource's redirect to any host, as a resource", () => {
    const { followed, anyHost } = route('resource', 'https://cdn.example.net/a.css');
    assert.equal(followed.length, 0);
    assert.deepEqual(
      anyHost.map((c) => c.kind),
      ['resource'],
    );
  });

  it("sends a checked link's next hop to any host, and a hop back into the scope to the crawl as a page", () => {
    const away = route('external', 'https://other.example.net/x');
    assert.deepEqual(
      away.anyHost.map((c) => c.kind),
      ['external'],
    );
    assert.equal(away.followed.length, 0);
    const back = route('external', 'https://example.com/x');
    assert.deepEqual(
      back.followed.map((c) => c.kind),
      ['page'],
    );
    assert.equal(back.anyHost.length, 0);
  });
});

describe('work kinds: admission', () => {
  it('spends pages and sitemaps against maxPages, resources and files against maxResources, links to other sites against maxExternal', () => {
    const full = crawlWith(
      { maxPages: 2, maxResources: 3, maxExternal: 1 },
      { admitted: 2, resourcesAdmitted: 2, files: 1, externalAdmitted: 1 },
    );
    const room = crawlWith(
      { maxPages: 3, maxResources: 4, maxExternal: 2 },
      { admitted: 2, resourcesAdmitted: 2, files: 1, externalAdmitted: 1 },
    );
    for (const kind of KINDS) {
      assert.equal(workKindOf(kind).budgetSpent(full), true, kind);
      assert.equal(workKindOf(kind).budgetSpent(room), false, kind);
    }
  });

  it('has a budget per host for links to other sites only', () => {
    const settings = crawlWith({ maxExternalPerHost: 1 }).settings;
    const host = { ...newHostState('c', 'https://other.example.net'), externalAdmitted: 1 };
    assert.deepEqual(
      KINDS.filter((kind) => workKindOf(kind).hostBudgetSpent(settings, host)),
      ['external'],
    );
  });

  it("counts an admitted URL in its kind's counters, and takes it out again without going below 0", () => {
    const counts = emptyCounts();
    const host = newHostState('c', 'https://example.com');
    for (const kind of KINDS) workKindOf(kind).countAdmitted(counts, host, 1);
    assert.equal(counts.admitted, 2);
    assert.equal(counts.resourcesAdmitted, 1);
    assert.equal(counts.externalAdmitted, 1);
    assert.equal(host.externalAdmitted, 1);
    for (const kind of KINDS) for (let i = 0; i < 3; i++) workKindOf(kind).countAdmitted(counts, host, -1);
    assert.deepEqual(
      [counts.admitted, counts.resourcesAdmitted, counts.externalAdmitted, host.externalAdmitted],
      [0, 0, 0, 0],
    );
  });

  it("queues resources before the host's pages, every other kind in the order found", () => {
    assert.deepEqual(
      KINDS.map((kind) => workKindOf(kind).seqBias),
      [0, 0, RESOURCE_SEQ_BIAS, 0],
    );
  });

  it('counts finished rows of resources, files and links to other sites in their own counters', () => {
    assert.deepEqual((['page', 'sitemap', 'resource', 'file', 'external'] as const).map(rowCounterOf), [
      undefined,
      undefined,
      'resources',
      'files',
      'external',
    ]);
  });

  it("drops a linked file's body when the resource budget filled while it downloaded, and keeps every other body", () => {
    const entry: FrontierEntry = {
      crawlId: 'c',
      url: 'https://example.com/a.pdf',
      origin: 'https://example.com',
      kind: 'page',
      depth: 1,
      referrer: null,
      seq: 1,
      anchors: [],
      inlinks: 0,
      attempts: 0,
      leaseRunId: null,
    };
    const file = { ...unfetchedRow(entry), kind: 'file' as const };
    const html = unfetchedRow(entry);
    const full = crawlWith({ maxResources: 1 }, { files: 1 });
    assert.equal(workKindOf('page').keepsBody(full, file), false);
    assert.equal(workKindOf('page').keepsBody(crawlWith({ maxResources: 2 }, { files: 1 }), file), true);
    assert.equal(workKindOf('page').keepsBody(full, html), true);
  });
});

describe('work kinds: the not-crawled list', () => {
  it('lists links to other sites as not checked when the crawl does not check them, and nothing else', () => {
    const off = crawlWith({ checkExternal: false });
    assert.deepEqual(
      KINDS.map((kind) => workKindOf(kind).offReason(off)),
      [null, null, null, 'external-off'],
    );
    assert.equal(workKindOf('external').offReason(crawlWith({ checkExternal: true })), null);
  });

  it("says why a URL past a budget is left out: the page limit, the crawl's or the host's budget of links, none for resources", () => {
    assert.equal(workKindOf('page').overBudgetReason('crawl'), 'page-limit');
    assert.equal(workKindOf('resource').overBudgetReason('crawl'), null);
    assert.equal(workKindOf('external').overBudgetReason('crawl'), 'external-limit');
    assert.equal(workKindOf('external').overBudgetReason('host'), 'external-host-limit');
  });

  it('lists a link to another site that its robots.txt blocks as not checked', () => {
    assert.deepEqual(
      KINDS.map((kind) => workKindOf(kind).blockedReason),
      [null, null, null, 'external-robots'],
    );
  });
});

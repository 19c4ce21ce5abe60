/**
 * The crawl record of an imported Tabcrawl WACZ is not trusted (issue 27, "Hostile archives and private
 * data"): its settings go through the checks a start makes, what fails is dropped and said, "Crawl with
 * my cookies" is always off, and its state, dates and counts are made ones a list can show.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrawlRecord, PageRecord } from '../../src/core/model.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { writeWacz } from '../../src/export/wacz.ts';
import { importArchive } from '../../src/import/import-crawl.ts';
import { sanitiseImportedCrawl } from '../../src/import/imported-settings.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { collectBytes, FIXTURE_CRAWL, fixtureRows } from '../support/export-fixtures.ts';

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const T0 = Date.UTC(2026, 10, 20, 9, 0, 0);

/** A crawl record as a file could hold it: the fixture's, with `changes` (anything) applied. */
function record(
  changes: Record<string, unknown> = {},
  settings: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...FIXTURE_CRAWL,
    createdAt: T0,
    endedAt: T0 + 60_000,
    ...changes,
    settings: { ...FIXTURE_CRAWL.settings, ...settings },
  };
}

function sanitised(changes: Record<string, unknown> = {}, settings: Record<string, unknown> = {}) {
  const result = sanitiseImportedCrawl(record(changes, settings), NOW);
  assert.ok(result.ok, JSON.stringify(result));
  return result;
}

describe('sanitising the crawl record of an imported Tabcrawl WACZ', () => {
  it('keeps a record Tabcrawl wrote as it is, with nothing to say', () => {
    const { id: _id, ...expected } = { ...FIXTURE_CRAWL, createdAt: T0, endedAt: T0 + 60_000 };
    assert.deepEqual(sanitised(), { ok: true, crawl: expected, warnings: [] });
  });

  it('refuses a record whose start URL no crawl could start from: javascript:, not text, none', () => {
    for (const startUrl of ['javascript:alert(document.cookie)', 42, undefined, 'file:///etc/passwd']) {
      const result = sanitiseImportedCrawl(record({}, { startUrl }), NOW);
      assert.equal(result.ok, false, String(startUrl));
      assert.match(result.ok ? '' : result.problem, /start URL .* cannot start a crawl/);
    }
    assert.equal(sanitiseImportedCrawl({ state: 'finished' }, NOW).ok, false, 'no settings');
    assert.equal(sanitiseImportedCrawl('a string', NOW).ok, false);
  });

  it('always turns "Crawl with my cookies" off, and says so when it was on', () => {
    const result = sanitised({}, { withCookies: true, startUrl: 'http://127.0.0.1:9/account' });
    assert.equal(result.crawl.settings.withCookies, false);
    assert.equal(result.crawl.settings.startUrl, 'http://127.0.0.1:9/account');
    assert.ok(
      result.warnings.some((w) => /Crawl with my cookies.*turned off/.test(w)),
      result.warnings.join('\n'),
    );
    assert.equal(sanitised({}, { withCookies: 'yes' }).crawl.settings.withCookies, false);
  });

  it('drops settings of the wrong type or out of range, taking their defaults, and names them', () => {
    const result = sanitised(
      {},
      {
        delayMs: -5,
        pathPrefix: 7,
        maxPages: 'many',
        excludePatterns: 'not a list',
        productToken: 'bad token!',
        extraOrigins: ['javascript:x'],
      },
    );
    const { settings } = result.crawl;
    assert.equal(settings.delayMs, DEFAULT_SETTINGS.delayMs);
    assert.equal(settings.pathPrefix, '');
    assert.equal(settings.maxPages, DEFAULT_SETTINGS.maxPages);
    assert.deepEqual(settings.excludePatterns, []);
    assert.equal(settings.productToken, DEFAULT_SETTINGS.productToken);
    assert.deepEqual(settings.extraOrigins, []);
    const said = result.warnings.join('\n');
    for (const name of ['delayMs', 'pathPrefix', 'maxPages', 'excludePatterns', 'productToken', 'extraOrigins'])
      assert.match(said, new RegExp(name));
  });

  it('drops a path prefix or an exclude pattern that rules the start URL out, as a start would refuse them', () => {
    const result = sanitised(
      {},
      { startUrl: 'https://a.example/shop/', pathPrefix: '/docs/', excludePatterns: ['*/shop/*'] },
    );
    assert.equal(result.crawl.settings.pathPrefix, '');
    assert.deepEqual(result.crawl.settings.excludePatterns, []);
    assert.match(result.warnings.join('\n'), /pathPrefix.*excludePatterns|excludePatterns.*pathPrefix/);
  });

  it('reads the resource and link-check flags a record lacks as off, as crawls stored before them', () => {
    const { archiveResources: _a, downloadFiles: _d, checkExternal: _c, ...older } = FIXTURE_CRAWL.settings;
    const result = sanitiseImportedCrawl({ ...record(), settings: older }, NOW);
    assert.ok(result.ok);
    assert.deepEqual(
      [
        result.crawl.settings.archiveResources,
        result.crawl.settings.downloadFiles,
        result.crawl.settings.checkExternal,
      ],
      [false, false, false],
    );
    assert.deepEqual(result.warnings, []);
  });

  it('reads a record from before rendering as rendering nothing, and keeps a mode it names', () => {
    const { render: _r, renderTimeoutMs: _t, ...older } = FIXTURE_CRAWL.settings;
    const result = sanitiseImportedCrawl({ ...record(), settings: older }, NOW);
    assert.ok(result.ok);
    assert.equal(result.crawl.settings.render, 'off');
    assert.deepEqual(result.warnings, []);
    const rendered = sanitiseImportedCrawl({ ...record(), settings: { ...older, render: 'always' } }, NOW);
    assert.equal(rendered.ok ? rendered.crawl.settings.render : null, 'always');
    const bad = sanitiseImportedCrawl({ ...record(), settings: { ...older, render: 'sometimes' } }, NOW);
    assert.equal(bad.ok ? bad.crawl.settings.render : null, DEFAULT_SETTINGS.render);
    assert.match(bad.ok ? bad.warnings.join('\n') : '', /render/);
  });

  it('imports a running or paused crawl as stopped, so nothing resumes it by itself', () => {
    for (const state of ['running', 'paused', 'exploded', 3]) {
      const result = sanitised({ state });
      assert.equal(result.crawl.state, 'stopped', String(state));
      assert.match(result.warnings.join('\n'), /imported as stopped/);
    }
  });

  it('never keeps a date before 2020, in the future, or an end before the start: no absurd duration', () => {
    const epoch = sanitised({ createdAt: 0, endedAt: T0 });
    assert.deepEqual([epoch.crawl.createdAt, epoch.crawl.endedAt], [T0, T0]);
    const future = sanitised({ createdAt: T0, endedAt: NOW + 365 * 24 * 3600_000 });
    assert.deepEqual([future.crawl.createdAt, future.crawl.endedAt], [T0, T0]);
    const backwards = sanitised({ createdAt: T0, endedAt: T0 - 1000 });
    assert.deepEqual([backwards.crawl.createdAt, backwards.crawl.endedAt], [T0, T0]);
    assert.match(backwards.warnings.join('\n'), /date/);
    const none = sanitised({ createdAt: 'yesterday', endedAt: null });
    assert.deepEqual([none.crawl.createdAt, none.crawl.endedAt], [NOW, NOW]);
    assert.equal(sanitised({ pausedMs: 10 ** 12 }).crawl.pausedMs, 60_000, 'paused no longer than it lasted');
    assert.equal(sanitised({ pausedMs: -1 }).crawl.pausedMs, undefined);
  });

  it('sets counts that are not whole numbers from 0 to 0, and leaves out fields a crawl record does not have', () => {
    const result = sanitised({
      counts: {
        admitted: -3,
        done: 'x',
        fetched: 1.5,
        errors: 2,
        blocked: null,
        bytesStored: 10,
        notCrawled: { depth: -1, trap: 4 },
      },
      evil: '<script>',
      message: { not: 'text' },
    });
    assert.deepEqual(result.crawl.counts, {
      admitted: 0,
      done: 0,
      fetched: 0,
      errors: 2,
      blocked: 0,
      bytesStored: 10,
      notCrawled: { trap: 4 },
    });
    assert.equal(result.crawl.message, null);
    assert.equal('evil' in result.crawl, false);
    assert.match(result.warnings.join('\n'), /counts/);
  });
});

describe('importing a crafted Tabcrawl WACZ', () => {
  /** A WACZ whose crawl.json holds `crawl` as it is (the store keeps whatever it is given). */
  async function waczOf(crawl: CrawlRecord, rows: PageRecord[]): Promise<Blob> {
    const store = new MemoryCrawlStore();
    await store.transaction(async (tx) => {
      await tx.putCrawl(crawl);
      await tx.putPages(rows.map((row) => ({ ...row, crawlId: crawl.id })));
    });
    const source = {
      crawl,
      rows: async function* () {
        yield* await store.pagesAfter(crawl.id, 0, 1000);
      },
      body: () => Promise.resolve(undefined),
    };
    return new Blob([
      new Uint8Array(
        await collectBytes(
          writeWacz(source, { software: 'Tabcrawl test', now: new Date(NOW), onRow: () => undefined }),
        ),
      ),
    ]);
  }

  it('imports one with cookies on, a negative delay and a start URL of its own with cookies off, the delay dropped, and says so', async () => {
    const crafted = {
      ...FIXTURE_CRAWL,
      state: 'running',
      createdAt: 0,
      settings: {
        ...FIXTURE_CRAWL.settings,
        startUrl: 'http://127.0.0.1:9/transfer?to=attacker',
        withCookies: true,
        delayMs: -1,
      },
    } as CrawlRecord;
    const store = new MemoryCrawlStore();
    const { crawl, warnings } = await importArchive(
      store,
      await waczOf(crafted, fixtureRows().slice(0, 2)),
      'crafted.wacz',
      { newId: () => 'in', now: () => NOW },
    );
    assert.equal(crawl.settings.withCookies, false);
    assert.equal(crawl.settings.delayMs, DEFAULT_SETTINGS.delayMs);
    assert.equal(crawl.settings.startUrl, 'http://127.0.0.1:9/transfer?to=attacker');
    assert.equal(crawl.state, 'stopped');
    assert.equal(crawl.importedFrom, 'crafted.wacz');
    assert.ok(crawl.createdAt >= Date.UTC(2020, 0, 1));
    assert.deepEqual(await store.getCrawl('in'), crawl);
    const said = warnings.join('\n');
    assert.match(said, /crafted\.wacz › tabcrawl\/crawl\.json: "Crawl with my cookies" was on: it is turned off/);
    assert.match(said, /dropped.*delayMs/);
    assert.match(said, /imported as stopped/);
  });

  it('reads one whose start URL is javascript: as any other archive, saying why', async () => {
    const crafted = {
      ...FIXTURE_CRAWL,
      settings: { ...FIXTURE_CRAWL.settings, startUrl: 'javascript:alert(1)', withCookies: true },
    } as CrawlRecord;
    const rows = fixtureRows()
      .filter((row) => row.sha256 !== null)
      .slice(0, 1);
    const store = new MemoryCrawlStore();
    const { crawl, warnings } = await importArchive(store, await waczOf(crafted, rows), 'crafted.wacz', {
      newId: () => 'in',
      now: () => NOW,
    });
    // Read as any other: its start URL is the WARC's first capture, never the crawl.json's.
    assert.equal(crawl.settings.startUrl, rows[0]?.url);
    assert.equal(crawl.settings.withCookies, false);
    assert.match(
      warnings.join('\n'),
      /crawl\.json: its start URL "javascript:alert\(1\)" cannot start a crawl .*: the archive is read as any other/,
    );
  });
});

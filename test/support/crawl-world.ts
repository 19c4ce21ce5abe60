/**
 * The crawl core's test world: a virtual clock, a fake web on it and the
 * in-memory store, and a crawl of it run to the end. Shared by the runner's
 * unit tests (node:test; `row` uses Node's assert).
 */
import assert from 'node:assert/strict';
import { createCrawl } from '../../src/core/crawl/crawl-lifecycle.ts';
import { CrawlRunner } from '../../src/core/crawl/crawl-runner.ts';
import type { PageRecord } from '../../src/core/model.ts';
import { type CrawlSettings, validateSettings } from '../../src/core/settings.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { FakeSite } from './fake-site.ts';
import { VirtualClock } from './virtual-clock.ts';

/** Validated settings; throws on invalid ones (a test's own mistake). */
export function settingsFor(partial: Partial<CrawlSettings> & { startUrl: string }): CrawlSettings {
  const result = validateSettings(partial);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.settings;
}

/** A fresh world: a virtual clock, a fake web on it, a memory store. */
export function world() {
  const clock = new VirtualClock();
  return { clock, site: new FakeSite(clock), store: new MemoryCrawlStore() };
}

export type World = ReturnType<typeof world>;

/** Crawls `c1` to the end with a runner of `runId`; returns the final record and the rows, also by URL. */
export async function crawl(w: World, partial: Partial<CrawlSettings> & { startUrl: string }, runId = 'run-1') {
  const record = await createCrawl(w.store, settingsFor(partial), { id: 'c1', now: w.clock.now() });
  const runner = new CrawlRunner({ store: w.store, fetcher: w.site, clock: w.clock, runId, random: () => 0 });
  const final = await w.clock.run(runner.run(record.id, new AbortController().signal));
  const rows = await w.store.pagesAfter(record.id, 0, 100_000);
  return { final, rows, byUrl: new Map(rows.map((r) => [r.url, r])) };
}

/** The row of `url`; fails the test, listing the rows, when there is none. */
export function row(rows: Map<string, PageRecord>, url: string): PageRecord {
  const found = rows.get(url);
  assert.ok(found, `no row for ${url}; rows: ${[...rows.keys()].join(', ')}`);
  return found;
}

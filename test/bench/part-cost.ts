/**
 * Part 3 of `npm run bench`: cost per page, from the Tabcrawl crawls of part
 * 1 at `--parallel`, pages only and archiving resources and files: CPU time
 * per 1,000 pages (and per 1,000 requests) of the worker's thread and of each
 * Chromium process, the worker's JS heap after a forced GC every tenth of the
 * crawl and its slope, and the IndexedDB bytes per stored row.
 */
import { median, rounded, slope } from './bench-stats.ts';
import { MiB, num, perHostText, table, type BenchContext } from './bench-report.ts';
import type { HeapSample, TabcrawlRun } from './tabcrawl-crawl.ts';

/** The cost of one way of crawling, medians over its crawls. */
interface Cost {
  crawls: number;
  workerCpuMsPer1000Pages: number | null;
  workerCpuMsPer1000Requests: number | null;
  cpuMsPer1000PagesByProcess: Record<string, number | null>;
  /** All the browser's processes (the worker's thread is in one of them). */
  browserCpuMsPer1000Pages: number | null;
  browserCpuMsPer1000Requests: number | null;
  workerHeapAfterGcMiB: { beforeCrawl: number | null; firstSampleDuring: number | null; lastSampleDuring: number | null; afterCrawl: number | null };
  /** Per 1,000 rows stored (rows of every kind: a page's resources are rows too). */
  workerHeapSlopeMiBPer1000Rows: number | null;
  indexedDbBytesPerRowOnDisk: number | null;
  indexedDbBytesPerRowEstimate: number | null;
  /** The same per page fetched: with resources, a page's share of them (their rows and bodies) included. */
  indexedDbBytesPerPageOnDisk: number | null;
  /** Rows stored per page fetched: 1 and a little (blocked links, files) for pages only. */
  rowsPerPage: number | null;
  heapSamples: HeapSample[][];
}

function costOf(tab: readonly TabcrawlRun[]): Cost {
  const per1000 = (ms: number, count: number): number => (ms / count) * 1000;
  const kinds = [...new Set(tab.flatMap((x) => Object.keys(x.cpuMs)))].sort();
  const cpuByKind = Object.fromEntries(kinds.map((kind) => [kind, rounded(median(tab.map((x) => per1000(x.cpuMs[kind] ?? 0, x.pages))), 0)]));
  const browserMs = (x: TabcrawlRun): number => Object.entries(x.cpuMs).reduce((sum, [kind, ms]) => sum + (kind === 'serviceWorker' ? 0 : ms), 0);
  // The slope is taken while the crawl runs: the first sample after the start already holds what any crawl
  // loads once (modules' state, Dexie's schema), and the one after the end has the crawl's state released.
  const during = (x: TabcrawlRun): HeapSample[] => x.heapSamples.filter((h) => h.phase === 'during');
  const slopes = tab.map((x) => slope(during(x).map((h) => ({ x: h.pages, y: h.bytes }))) * 1000);
  const heapLevel = (pick: (x: TabcrawlRun) => HeapSample | undefined): number => median(tab.map((x) => pick(x)?.bytes ?? Number.NaN));
  const mib = (bytes: number): number | null => rounded(bytes / MiB, 2);
  return {
    crawls: tab.length,
    workerCpuMsPer1000Pages: cpuByKind['serviceWorker'] ?? null,
    workerCpuMsPer1000Requests: rounded(median(tab.map((x) => per1000(x.cpuMs['serviceWorker'] ?? 0, x.served.requests))), 0),
    cpuMsPer1000PagesByProcess: cpuByKind,
    browserCpuMsPer1000Pages: rounded(median(tab.map((x) => per1000(browserMs(x), x.pages))), 0),
    browserCpuMsPer1000Requests: rounded(median(tab.map((x) => per1000(browserMs(x), x.served.requests))), 0),
    workerHeapAfterGcMiB: {
      beforeCrawl: mib(heapLevel((x) => x.heapSamples.find((h) => h.phase === 'before'))),
      firstSampleDuring: mib(heapLevel((x) => during(x)[0])),
      lastSampleDuring: mib(heapLevel((x) => during(x).at(-1))),
      afterCrawl: mib(heapLevel((x) => x.heapSamples.find((h) => h.phase === 'after'))),
    },
    workerHeapSlopeMiBPer1000Rows: rounded(median(slopes) / MiB, 3),
    indexedDbBytesPerRowOnDisk: rounded(median(tab.map((x) => (x.idbDiskBytes === null ? Number.NaN : (x.idbDiskBytes.after - x.idbDiskBytes.before) / x.rowsStored))), 0),
    indexedDbBytesPerRowEstimate: rounded(median(tab.map((x) => (x.storageEstimateBytes === null ? Number.NaN : (x.storageEstimateBytes.after - x.storageEstimateBytes.before) / x.rowsStored))), 0),
    indexedDbBytesPerPageOnDisk: rounded(median(tab.map((x) => (x.idbDiskBytes === null ? Number.NaN : (x.idbDiskBytes.after - x.idbDiskBytes.before) / x.pages))), 0),
    rowsPerPage: rounded(median(tab.map((x) => x.rowsStored / x.pages)), 2),
    heapSamples: tab.map((x) => x.heapSamples),
  };
}

/** Sums up the cost of part 1's crawls at `--parallel` (pages only; archiving, when it ran) and reports it. */
export function costPerPage({ options, say }: BenchContext, runs: { pagesOnly: readonly TabcrawlRun[]; archive: readonly TabcrawlRun[] }): Record<string, unknown> {
  const pagesOnly = costOf(runs.pagesOnly);
  const archive = runs.archive.length === 0 ? null : costOf(runs.archive);
  const figures = {
    source: `the Tabcrawl crawls of part 1 at ${perHostText(options.parallel)} (${options.pages} pages, delay 0), pages only${archive === null ? '' : ' and archiving resources and files'}; medians`,
    requestsPerHost: options.parallel,
    pagesOnly,
    withResources: archive,
  };
  const costs = archive === null ? [pagesOnly] : [pagesOnly, archive];
  const cell = (pick: (c: Cost) => string): string[] => costs.map(pick);
  const processKinds = Object.entries(pagesOnly.cpuMsPer1000PagesByProcess)
    .filter(([k]) => k !== 'serviceWorker')
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
    .map(([kind]) => kind);
  const heap = (c: Cost): string => {
    const h = c.workerHeapAfterGcMiB;
    return `${num(h.beforeCrawl ?? Number.NaN, 2)}, ${num(h.firstSampleDuring ?? Number.NaN, 2)} → ${num(h.lastSampleDuring ?? Number.NaN, 2)}, ${num(h.afterCrawl ?? Number.NaN, 2)}`;
  };
  say('');
  say(`3. Cost per page: the Tabcrawl crawls of part 1 (${options.pages.toLocaleString('en-US')} pages, delay 0, ${perHostText(options.parallel)}), medians of ${pagesOnly.crawls}`);
  say(
    table([
      ['', 'pages only', ...(archive === null ? [] : ['with resources and files'])],
      ['the service worker thread, CPU ms per 1,000 pages', ...cell((c) => num(c.workerCpuMsPer1000Pages ?? Number.NaN, 0))],
      ['all browser processes, CPU ms per 1,000 pages', ...cell((c) => num(c.browserCpuMsPer1000Pages ?? Number.NaN, 0))],
      ...processKinds.map((kind): string[] => [`  ${kind} process`, ...cell((c) => num(c.cpuMsPer1000PagesByProcess[kind] ?? Number.NaN, 0))]),
      ['all browser processes, CPU ms per 1,000 requests', ...cell((c) => num(c.browserCpuMsPer1000Requests ?? Number.NaN, 0))],
      ['rows stored per page', ...cell((c) => num(c.rowsPerPage ?? Number.NaN, 2))],
      ['worker JS heap after GC, MiB: before, during (first → last sample), after', ...cell(heap)],
      ['worker JS heap slope while crawling (target: flat), MiB per 1,000 rows', ...cell((c) => num(c.workerHeapSlopeMiBPer1000Rows ?? Number.NaN, 3))],
      ['IndexedDB on disk, KiB per page (its share of resources included)', ...cell((c) => num((c.indexedDbBytesPerPageOnDisk ?? Number.NaN) / 1024, 1))],
      ['IndexedDB on disk, KiB per row stored', ...cell((c) => num((c.indexedDbBytesPerRowOnDisk ?? Number.NaN) / 1024, 1))],
      ['IndexedDB (storage.estimate), KiB per row stored', ...cell((c) => num((c.indexedDbBytesPerRowEstimate ?? Number.NaN) / 1024, 1))],
    ]),
  );
  return figures;
}

/**
 * Part 3 of `npm run bench`: cost per page, from the Tabcrawl crawls of part
 * 1: CPU time per 1,000 pages of the worker's thread and of each Chromium
 * process, the worker's JS heap after a forced GC every tenth of the crawl
 * and its slope, and the IndexedDB bytes per stored page.
 */
import { median, rounded, slope } from './bench-stats.ts';
import { MiB, num, perHostText, table, type BenchContext } from './bench-report.ts';
import type { HeapSample, TabcrawlRun } from './tabcrawl-crawl.ts';

/** Sums up the cost of part 1's crawls `tab` and reports it. */
export function costPerPage({ options, say }: BenchContext, tab: readonly TabcrawlRun[]): Record<string, unknown> {
  const per1000 = (ms: number, pages: number): number => (ms / pages) * 1000;
  const kinds = [...new Set(tab.flatMap((x) => Object.keys(x.cpuMs)))].sort();
  const cpuByKind = Object.fromEntries(kinds.map((kind) => [kind, rounded(median(tab.map((x) => per1000(x.cpuMs[kind] ?? 0, x.pages))), 0)]));
  // The slope is taken while the crawl runs: the first sample after the start already holds what any crawl
  // loads once (modules' state, Dexie's schema), and the one after the end has the crawl's state released.
  const during = (x: TabcrawlRun): HeapSample[] => x.heapSamples.filter((h) => h.phase === 'during');
  const slopes = tab.map((x) => slope(during(x).map((h) => ({ x: h.pages, y: h.bytes }))) * 1000);
  const heapLevel = (pick: (x: TabcrawlRun) => HeapSample | undefined): number => median(tab.map((x) => pick(x)?.bytes ?? Number.NaN));
  const heapBefore = heapLevel((x) => x.heapSamples.find((h) => h.phase === 'before'));
  const heapFirst = heapLevel((x) => during(x)[0]);
  const heapLast = heapLevel((x) => during(x).at(-1));
  const heapAfter = heapLevel((x) => x.heapSamples.find((h) => h.phase === 'after'));
  const idbPerPage = median(tab.map((x) => (x.idbDiskBytes === null ? Number.NaN : (x.idbDiskBytes.after - x.idbDiskBytes.before) / x.rowsStored)));
  const estimatePerPage = median(tab.map((x) => (x.storageEstimateBytes === null ? Number.NaN : (x.storageEstimateBytes.after - x.storageEstimateBytes.before) / x.rowsStored)));
  const figures = {
    source: `the ${tab.length} Tabcrawl crawl(s) of part 1 (${options.pages} pages, delay 0, ${perHostText(options.parallel)}); medians`,
    requestsPerHost: options.parallel,
    workerCpuMsPer1000Pages: cpuByKind['serviceWorker'] ?? null,
    cpuMsPer1000PagesByProcess: cpuByKind,
    workerHeapAfterGcMiB: {
      beforeCrawl: rounded(heapBefore / MiB, 2),
      firstSampleDuring: rounded(heapFirst / MiB, 2),
      lastSampleDuring: rounded(heapLast / MiB, 2),
      afterCrawl: rounded(heapAfter / MiB, 2),
    },
    workerHeapSlopeMiBPer1000Pages: rounded(median(slopes) / MiB, 3),
    indexedDbBytesPerPageOnDisk: rounded(idbPerPage, 0),
    indexedDbBytesPerPageEstimate: rounded(estimatePerPage, 0),
    heapSamples: tab.map((x) => x.heapSamples),
  };
  say('');
  say(`3. Cost per page: the Tabcrawl crawls of part 1 (${options.pages.toLocaleString('en-US')} pages, delay 0, ${perHostText(options.parallel)}), medians of ${tab.length}`);
  say(
    table([
      ['the service worker thread, CPU', `${num(cpuByKind['serviceWorker'] ?? Number.NaN, 0)} ms per 1,000 pages`],
      ['all browser processes, CPU', `${num(Object.entries(cpuByKind).filter(([k]) => k !== 'serviceWorker').reduce((s, [, v]) => s + (v ?? 0), 0), 0)} ms per 1,000 pages`],
      ...Object.entries(cpuByKind)
        .filter(([k]) => k !== 'serviceWorker')
        .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
        .map(([kind, ms]): string[] => [`  ${kind} process`, `${num(ms ?? Number.NaN, 0)} ms per 1,000 pages`]),
      ['worker JS heap after GC: before, during (first → last sample), after', `${num(heapBefore / MiB, 2)}, ${num(heapFirst / MiB, 2)} → ${num(heapLast / MiB, 2)}, ${num(heapAfter / MiB, 2)} MiB`],
      ['worker JS heap slope while crawling (target: flat)', `${num(median(slopes) / MiB, 3)} MiB per 1,000 pages`],
      ['IndexedDB on disk', `${num(idbPerPage / 1024, 1)} KiB per page stored`],
      ['IndexedDB (storage.estimate)', `${num(estimatePerPage / 1024, 1)} KiB per page stored`],
    ]),
  );
  return figures;
}

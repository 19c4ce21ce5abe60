/**
 * Part 3 of `npm run bench`: cost per page, from the Tabcrawl crawls of part
 * 1, pages only and archiving resources and files, at `--parallel` and (when
 * part 1 crawled at it too) at 1 request at once per host: CPU time per 1,000
 * pages (and per 1,000 requests) of the worker's thread and of each Chromium
 * process; the worker's JS heap after a forced GC every tenth of the crawl,
 * its first and last sample while crawling, and its slope; the IndexedDB bytes
 * per page and per stored row over the whole crawl, and per page over its
 * first and its last tenth (the profile's IndexedDB folder, walked every
 * hundredth of the crawl: the slope over each tenth's samples), so that "the heap stays flat, IndexedDB bytes per page stay flat"
 * can be judged as a crawl grows (`--pages 50000 --parts 1,3 --rounds 1`).
 */
import { edgeSlopes, median, rounded, slope, type EdgeSlope } from './bench-stats.ts';
import { MiB, num, table, type BenchContext } from './bench-report.ts';
import { variantLabel, type VariantRuns } from './part-throughput.ts';
import type { CrawlSample, TabcrawlRun } from './tabcrawl-crawl.ts';

/** A stretch of a crawl, in pages fetched (from the site's log), and the IndexedDB folder's growth over it per page (a least-squares slope over its samples). */
interface IdbStep {
  fromPages: number | null;
  toPages: number | null;
  samples: number | null;
  bytesPerPage: number | null;
}

/** The cost of one way of crawling, medians over its crawls. */
interface Cost {
  crawls: number;
  workerCpuMsPer1000Pages: number | null;
  workerCpuMsPer1000Requests: number | null;
  cpuMsPer1000PagesByProcess: Record<string, number | null>;
  /** All the browser's processes (the worker's thread is in one of them). */
  browserCpuMsPer1000Pages: number | null;
  browserCpuMsPer1000Requests: number | null;
  /** `lastMinusFirstDuring`: the last sample while crawling less the first (target: about 0, the heap flat). */
  workerHeapAfterGcMiB: {
    beforeCrawl: number | null;
    firstSampleDuring: number | null;
    lastSampleDuring: number | null;
    lastMinusFirstDuring: number | null;
    afterCrawl: number | null;
  };
  /** Per 1,000 rows stored (rows of every kind: a page's resources are rows too). */
  workerHeapSlopeMiBPer1000Rows: number | null;
  indexedDbBytesPerRowOnDisk: number | null;
  indexedDbBytesPerRowEstimate: number | null;
  /** The same per page fetched: with resources, a page's share of them (their rows and bodies) included. */
  indexedDbBytesPerPageOnDisk: number | null;
  /**
   * The IndexedDB folder's growth per page fetched over the crawl's first tenth (from before the crawl) and its
   * last (to the last sample while it ran: what the crawl's end writes is in the whole crawl's figure only), the
   * slope over the folder's samples in each, and last ÷ first (target: about 1, bytes per page flat). The
   * spans are the median crawl's, in pages.
   */
  indexedDbBytesPerPageFirstTenth: IdbStep;
  indexedDbBytesPerPageLastTenth: IdbStep;
  indexedDbLastTenthOverFirst: number | null;
  /** Rows stored per page fetched: 1 and a little (blocked links, files) for pages only. */
  rowsPerPage: number | null;
  /** Every sample of every crawl: rows, pages, heap and IndexedDB bytes. */
  samples: CrawlSample[][];
}

/**
 * The IndexedDB folder's growth per page over the first and the last tenth of a crawl (see {@link edgeSlopes}),
 * from the samples before and while it ran: the one after it holds what the crawl's end writes (the last
 * fold of the link tallies, the URLs not crawled), which is no page's.
 */
export function idbSteps(samples: readonly CrawlSample[]): { first: EdgeSlope; last: EdgeSlope } {
  const points = samples
    .filter((s) => s.phase !== 'after' && Number.isFinite(s.idbDiskBytes))
    .map((s) => ({ x: s.pages, y: s.idbDiskBytes }));
  return edgeSlopes(points, 0.1);
}

function costOf(tab: readonly TabcrawlRun[]): Cost {
  const per1000 = (ms: number, count: number): number => (ms / count) * 1000;
  const kinds = [...new Set(tab.flatMap((x) => Object.keys(x.cpuMs)))].sort();
  const cpuByKind = Object.fromEntries(
    kinds.map((kind) => [kind, rounded(median(tab.map((x) => per1000(x.cpuMs[kind] ?? 0, x.pages))), 0)]),
  );
  const browserMs = (x: TabcrawlRun): number =>
    Object.entries(x.cpuMs).reduce((sum, [kind, ms]) => sum + (kind === 'serviceWorker' ? 0 : ms), 0);
  // The slope is taken while the crawl runs: the first sample after the start already holds what any crawl
  // loads once (modules' state, Dexie's schema), and the one after the end has the crawl's state released.
  const heapSamples = (x: TabcrawlRun): (CrawlSample & { heapBytes: number })[] =>
    x.samples.filter((h): h is CrawlSample & { heapBytes: number } => h.heapBytes !== null);
  const during = (x: TabcrawlRun): (CrawlSample & { heapBytes: number })[] =>
    heapSamples(x).filter((h) => h.phase === 'during');
  const slopes = tab.map((x) => slope(during(x).map((h) => ({ x: h.rows, y: h.heapBytes }))) * 1000);
  const heapLevel = (pick: (x: TabcrawlRun) => CrawlSample | undefined): number =>
    median(tab.map((x) => pick(x)?.heapBytes ?? Number.NaN));
  const mib = (bytes: number): number | null => rounded(bytes / MiB, 2);
  const steps = tab.map((x) => idbSteps(x.samples));
  const idbStep = (pick: (s: { first: EdgeSlope; last: EdgeSlope }) => EdgeSlope): IdbStep => {
    // The span of the crawl whose slope is the median (of an even count, the lower one's).
    const sorted = steps
      .map(pick)
      .filter((s) => Number.isFinite(s.perX))
      .sort((a, b) => a.perX - b.perX);
    const middle = sorted[Math.floor((sorted.length - 1) / 2)];
    return {
      fromPages: rounded(middle?.fromX ?? Number.NaN, 0),
      toPages: rounded(middle?.toX ?? Number.NaN, 0),
      samples: middle?.points ?? null,
      bytesPerPage: rounded(median(sorted.map((s) => s.perX)), 0),
    };
  };
  return {
    crawls: tab.length,
    workerCpuMsPer1000Pages: cpuByKind['serviceWorker'] ?? null,
    workerCpuMsPer1000Requests: rounded(
      median(tab.map((x) => per1000(x.cpuMs['serviceWorker'] ?? 0, x.served.requests))),
      0,
    ),
    cpuMsPer1000PagesByProcess: cpuByKind,
    browserCpuMsPer1000Pages: rounded(median(tab.map((x) => per1000(browserMs(x), x.pages))), 0),
    browserCpuMsPer1000Requests: rounded(median(tab.map((x) => per1000(browserMs(x), x.served.requests))), 0),
    workerHeapAfterGcMiB: {
      beforeCrawl: mib(heapLevel((x) => heapSamples(x).find((h) => h.phase === 'before'))),
      firstSampleDuring: mib(heapLevel((x) => during(x)[0])),
      lastSampleDuring: mib(heapLevel((x) => during(x).at(-1))),
      lastMinusFirstDuring: mib(
        median(tab.map((x) => (during(x).at(-1)?.heapBytes ?? Number.NaN) - (during(x)[0]?.heapBytes ?? Number.NaN))),
      ),
      afterCrawl: mib(heapLevel((x) => heapSamples(x).find((h) => h.phase === 'after'))),
    },
    workerHeapSlopeMiBPer1000Rows: rounded(median(slopes) / MiB, 3),
    indexedDbBytesPerRowOnDisk: rounded(
      median(
        tab.map((x) =>
          x.idbDiskBytes === null ? Number.NaN : (x.idbDiskBytes.after - x.idbDiskBytes.before) / x.rowsStored,
        ),
      ),
      0,
    ),
    indexedDbBytesPerRowEstimate: rounded(
      median(
        tab.map((x) =>
          x.storageEstimateBytes === null
            ? Number.NaN
            : (x.storageEstimateBytes.after - x.storageEstimateBytes.before) / x.rowsStored,
        ),
      ),
      0,
    ),
    indexedDbBytesPerPageOnDisk: rounded(
      median(
        tab.map((x) =>
          x.idbDiskBytes === null ? Number.NaN : (x.idbDiskBytes.after - x.idbDiskBytes.before) / x.pages,
        ),
      ),
      0,
    ),
    indexedDbBytesPerPageFirstTenth: idbStep((s) => s.first),
    indexedDbBytesPerPageLastTenth: idbStep((s) => s.last),
    indexedDbLastTenthOverFirst: rounded(median(steps.map((s) => s.last.perX / s.first.perX)), 3),
    rowsPerPage: rounded(median(tab.map((x) => x.rowsStored / x.pages)), 2),
    samples: tab.map((x) => x.samples),
  };
}

/**
 * Sums up the cost of part 1's crawls, each way that ran apart, and reports it.
 * @param runs part 1's crawls by way, in its order (at `--parallel`, then at 1 request at once per host).
 */
export function costPerPage({ options, say }: BenchContext, runs: readonly VariantRuns[]): Record<string, unknown> {
  const ways = runs.map(({ variant, runs: crawls }) => ({ variant, cost: costOf(crawls) }));
  const find = (requestsPerHost: number, archive: boolean): Cost | null =>
    ways.find((w) => w.variant.requestsPerHost === requestsPerHost && w.variant.archive === archive)?.cost ?? null;
  const hasOneAtOnce = options.parallel !== 1 && ways.some((w) => w.variant.requestsPerHost === 1);
  const figures = {
    source: `the Tabcrawl crawls of part 1 (${options.pages} pages, delay 0), each way apart: ${ways.map((w) => variantLabel(w.variant)).join('; ')}; medians`,
    requestsPerHost: options.parallel,
    // At --parallel (the keys part 3 had before it measured the crawls at 1 too).
    pagesOnly: find(options.parallel, false),
    withResources: find(options.parallel, true),
    // At 1 request at once per host, when part 1 crawled at it (its first --one-at-once-rounds rounds).
    oneRequestPerHost: hasOneAtOnce ? { pagesOnly: find(1, false), withResources: find(1, true) } : null,
  };
  const costs = ways.map((w) => w.cost);
  const cell = (pick: (c: Cost) => string): string[] => costs.map(pick);
  const processKinds = [...new Set(costs.flatMap((c) => Object.keys(c.cpuMsPer1000PagesByProcess)))]
    .filter((k) => k !== 'serviceWorker')
    .sort((a, b) => (costs[0]?.cpuMsPer1000PagesByProcess[b] ?? 0) - (costs[0]?.cpuMsPer1000PagesByProcess[a] ?? 0));
  const heap = (c: Cost): string => {
    const h = c.workerHeapAfterGcMiB;
    return `${num(h.beforeCrawl ?? Number.NaN, 2)}, ${num(h.firstSampleDuring ?? Number.NaN, 2)} → ${num(h.lastSampleDuring ?? Number.NaN, 2)}, ${num(h.afterCrawl ?? Number.NaN, 2)}`;
  };
  const kib = (bytes: number | null, digits = 1): string => num((bytes ?? Number.NaN) / 1024, digits);
  const span = (s: IdbStep): string =>
    s.fromPages === null || s.toPages === null
      ? ''
      : ` (pages ${num(s.fromPages, 0)}–${num(s.toPages, 0)}, ${s.samples ?? 0} samples)`;
  say('');
  say(
    `3. Cost per page: the Tabcrawl crawls of part 1 (${options.pages.toLocaleString('en-US')} pages, delay 0), medians of ${costs.map((c) => c.crawls).join(', ')} crawls`,
  );
  say(
    table([
      ['', ...ways.map((w) => variantLabel(w.variant))],
      [
        'the service worker thread, CPU ms per 1,000 pages',
        ...cell((c) => num(c.workerCpuMsPer1000Pages ?? Number.NaN, 0)),
      ],
      [
        'all browser processes, CPU ms per 1,000 pages',
        ...cell((c) => num(c.browserCpuMsPer1000Pages ?? Number.NaN, 0)),
      ],
      ...processKinds.map((kind): string[] => [
        `  ${kind} process`,
        ...cell((c) => num(c.cpuMsPer1000PagesByProcess[kind] ?? Number.NaN, 0)),
      ]),
      [
        'all browser processes, CPU ms per 1,000 requests',
        ...cell((c) => num(c.browserCpuMsPer1000Requests ?? Number.NaN, 0)),
      ],
      ['rows stored per page', ...cell((c) => num(c.rowsPerPage ?? Number.NaN, 2))],
      ['worker JS heap after GC, MiB: before, during (first → last sample), after', ...cell(heap)],
      [
        'worker JS heap, last sample while crawling − first (target: about 0), MiB',
        ...cell((c) => num(c.workerHeapAfterGcMiB.lastMinusFirstDuring ?? Number.NaN, 2)),
      ],
      [
        'worker JS heap slope while crawling (target: flat), MiB per 1,000 rows',
        ...cell((c) => num(c.workerHeapSlopeMiBPer1000Rows ?? Number.NaN, 3)),
      ],
      [
        'IndexedDB on disk, KiB per page (its share of resources included)',
        ...cell((c) => kib(c.indexedDbBytesPerPageOnDisk)),
      ],
      [
        '  over the first tenth of the crawl, KiB per page',
        ...cell(
          (c) => `${kib(c.indexedDbBytesPerPageFirstTenth.bytesPerPage)}${span(c.indexedDbBytesPerPageFirstTenth)}`,
        ),
      ],
      [
        '  over the last tenth of the crawl, KiB per page',
        ...cell(
          (c) => `${kib(c.indexedDbBytesPerPageLastTenth.bytesPerPage)}${span(c.indexedDbBytesPerPageLastTenth)}`,
        ),
      ],
      [
        '  last tenth ÷ first tenth (target: about 1)',
        ...cell((c) => num(c.indexedDbLastTenthOverFirst ?? Number.NaN, 3)),
      ],
      ['IndexedDB on disk, KiB per row stored', ...cell((c) => kib(c.indexedDbBytesPerRowOnDisk))],
      ['IndexedDB (storage.estimate), KiB per row stored', ...cell((c) => kib(c.indexedDbBytesPerRowEstimate))],
    ]),
  );
  say(
    `  the heap sampled every tenth of the rows expected, the IndexedDB folder every hundredth: a tenth's KiB per page is the slope of the folder's size over pages fetched in it, the crawl's end left out;`,
  );
  say(
    "  the folder moves by up to ~17 MiB at a time (LevelDB's log filling, compactions): a tenth of a small site grows by less (2,000 pages: 1 to 6 MiB), and its figure is noise there",
  );
  return figures;
}

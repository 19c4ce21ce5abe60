/**
 * One Tabcrawl crawl as `npm run bench` measures it: the built extension in
 * headless Chromium (`launchExtension`), `crawl/start` through the driver
 * page, `waitForCrawl` polling every 500 ms, as `npm run crawl` goes; around
 * it, the browser's memory and CPU and, when asked, the worker's heap (before
 * the crawl, every tenth of it, after it) and the profile's IndexedDB folder
 * (the same, and every hundredth in between): how they grow with the crawl,
 * part 3. Pages are counted from the
 * sites' own request logs, and each page's arrival there is kept (how the
 * rate holds up as the crawl grows, part 1).
 */
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { launchExtension, type ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import type { LocalSite, RequestLogEntry } from '../../src/shells/cli/local-site.ts';
import { waitForCrawl } from '../../src/shells/cli/wait-for-crawl.ts';
import type { CrawlSettings } from '../../src/core/settings.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import { countServed, pageArrivals, requestKind, type Served } from './bench-sites.ts';
import type { CpuProfile, CrawlerTimes } from './bench-stats.ts';
import { browserRssBytes, samplePeakRss } from './process-memory.ts';
import { browserCpuMs, cpuDelta, machineCpuMs } from './process-stats.ts';
import { attachToWorker, liveHeapBytes, type WorkerCdp } from './worker-cdp.ts';

/** What one Tabcrawl crawl measured. Times in ms, sizes in bytes. */
export interface TabcrawlRun {
  /** From `crawl/start` sent to the crawl's `endedAt` (the worker's clock, the same system clock). */
  wallMs: number;
  /** Pages fetched, from the server logs (distinct page paths: `/` and `/page/<n>`). */
  pages: number;
  /** What the sites served during the crawl, from their logs, summed over them: every request, distinct paths by kind, repeats. */
  served: Served;
  state: string;
  /** Rows stored (fetched, blocked and failed), of every kind. */
  rowsStored: number;
  /** Rows of page resources and of linked files among them. */
  resourceRows: number;
  fileRows: number;
  /** The browser's PSS (all its processes) idle before the crawl, and its peak during it. */
  idlePssBytes: number;
  peakPssBytes: number;
  /** CPU time spent during the crawl, by kind of Chromium process; `serviceWorker` is the worker's thread alone. */
  cpuMs: Record<string, number>;
  /**
   * Share of the machine's CPU capacity (all cores) that other processes used during the crawl, from 0 to 1:
   * the machine's busy time less this browser's and this bench process's (which serves the sites). The noise.
   */
  otherCpuShare: number;
  /**
   * The profile's IndexedDB folder and the worker's live heap (after a full GC) against rows stored and
   * pages fetched, only when cost is measured: one sample `before` the crawl, one every hundredth of it
   * `during` (of the rows expected; the heap every tenth only), one `after` it ended (its state released).
   */
  samples: CrawlSample[];
  /** When each page was first requested, from the sites' logs, in ms since the epoch, sorted: for the rate over the crawl's first and last pages. */
  pageArrivalsMs: number[];
  /**
   * From the end of the last response any site logged to the crawl's `endedAt`: the crawl's own end
   * (adding up the links kept while it ran, counting what it left unvisited).
   */
  endAfterLastResponseMs: number;
  /** From `crawl/start` sent to the first request any site logged (robots.txt, usually): the crawl's own start. */
  startToFirstRequestMs: number;
  /** IndexedDB folder of the profile on disk, and `navigator.storage.estimate()` of the extension, before and after. */
  idbDiskBytes: { before: number; after: number } | null;
  storageEstimateBytes: { before: number; after: number } | null;
  /** When the worker sent each request and read its answer, by URL (the rows' `fetchedAt` and `responseTimeMs`); null unless `readTimes`. */
  rowTimes: Map<string, CrawlerTimes> | null;
  /** The worker's CPU profile when asked for. */
  profile: CpuProfile | null;
}

/** What one sample of a crawl found (see {@link TabcrawlRun.samples}). */
export interface CrawlSample {
  phase: 'before' | 'during' | 'after';
  /** Rows stored so far (the crawl's `counts.done`: pages, resources, files, blocked and failed URLs). */
  rows: number;
  /** Pages requested so far, from the sites' logs (distinct page paths). */
  pages: number;
  /** The worker's live JS heap after a forced full GC, in bytes; null in the samples of the folder only (between the tenths). */
  heapBytes: number | null;
  /** The profile's IndexedDB folder on disk (every file under it), in bytes; NaN when it could not be read. */
  idbDiskBytes: number;
}

export interface CrawlOptions {
  distDir: string;
  chromePath: string;
  settings: Partial<CrawlSettings> & { startUrl: string };
  sites: readonly LocalSite[];
  /** Sample the worker's heap every tenth of the crawl and the IndexedDB folder every hundredth, and the storage before and after (part 3). */
  measureCost: boolean;
  /** Record a CPU profile of the worker. */
  profile: boolean;
  /**
   * Sample the browser's memory (PSS) every second. Off for the politeness part: reading PSS walks every
   * process's page tables (~25 ms of the bench's own thread, which also serves the sites' requests), and
   * the measurement must not disturb the gaps it measures.
   */
  sampleMemory: boolean;
  /** Rows the crawl should store, for the sampling steps (every tenth of them, every hundredth). */
  expectedRows: number;
  /** A crawl still running after this long is stopped, so a stuck crawl cannot hang the bench, in ms. */
  timeLimitMs: number;
  /** Read the stored rows' request times after the crawl (through the export protocol), for part 2's gap split. */
  readTimes?: boolean;
}

/**
 * Bytes of the files under `dir` (0 when it does not exist). Asynchronous, so that the sites this process
 * serves keep answering while it walks (a crawl that archives holds a file per large body). A file that
 * LevelDB removes during the walk (a compaction) counts 0.
 */
async function folderBytes(dir: string): Promise<number> {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    total += entry.isDirectory()
      ? await folderBytes(path)
      : await stat(path).then(
          (s) => s.size,
          () => 0,
        );
  }
  return total;
}

/** Counts the distinct pages the sites' logs hold so far, reading each log on from where it stopped last time. */
function pageCounter(sites: readonly LocalSite[]): () => number {
  const seen = sites.map(() => new Set<string>());
  const read = sites.map(() => 0);
  return () => {
    sites.forEach((site, i) => {
      const paths = seen[i];
      if (paths === undefined) return;
      for (let k = read[i] ?? 0; k < site.requests.length; k++) {
        const url = site.requests[k]?.url;
        if (url !== undefined && requestKind(url) === 'page') paths.add(url);
      }
      read[i] = site.requests.length;
    });
    return seen.reduce((sum, paths) => sum + paths.size, 0);
  };
}

/** What the extension's origin stores, as Chrome's quota manager counts it (`usageDetails.indexedDB` when given). */
async function storageEstimate(session: ExtensionSession): Promise<number> {
  const page = session.context.pages().find((p) => p.url().startsWith(`chrome-extension://${session.extensionId}/`));
  if (page === undefined) return Number.NaN;
  return page.evaluate(async () => {
    const estimate = (await navigator.storage.estimate()) as StorageEstimate & {
      usageDetails?: { indexedDB?: number };
    };
    return estimate.usageDetails?.indexedDB ?? estimate.usage ?? Number.NaN;
  });
}

/** When the worker sent each request of a crawl and read its answer, by URL, from its stored rows (export protocol). */
async function crawlerTimes(session: ExtensionSession, crawlId: string): Promise<Map<string, CrawlerTimes>> {
  const times = new Map<string, CrawlerTimes>();
  let afterSeq = 0;
  for (;;) {
    const chunk = await session.request('export/chunk', { crawlId, format: 'jsonl', afterSeq, limit: 500 });
    for (const line of chunk.text.split('\n')) {
      if (line === '') continue;
      const row = JSON.parse(line) as { url: string; fetchedAt: string | null; responseTimeMs: number | null };
      if (row.fetchedAt === null || row.responseTimeMs === null) continue;
      const sentAt = Date.parse(row.fetchedAt);
      times.set(row.url, { sentAt, readAt: sentAt + row.responseTimeMs });
    }
    afterSeq = chunk.lastSeq;
    if (chunk.done) return times;
  }
}

export async function crawlWithTabcrawl(options: CrawlOptions): Promise<TabcrawlRun> {
  const session = await launchExtension({ distDir: options.distDir, chromePath: options.chromePath, copyDist: true });
  let worker: WorkerCdp | null = null;
  try {
    // Let the fresh browser settle (its first-run work) before the idle figure.
    await new Promise((r) => setTimeout(r, 1000));
    const idlePssBytes = browserRssBytes(session.profileDir);
    const idbDir = join(session.profileDir, 'user-data', 'Default', 'IndexedDB');
    const samples: CrawlSample[] = [];
    let idbBefore = 0;
    let estimateBefore = 0;
    if (options.measureCost || options.profile) worker = await attachToWorker(session);
    if (options.measureCost && worker !== null) {
      const heapBytes = await liveHeapBytes(worker);
      idbBefore = await folderBytes(idbDir);
      estimateBefore = await storageEstimate(session);
      samples.push({ phase: 'before', rows: 0, pages: 0, heapBytes, idbDiskBytes: idbBefore });
    }
    if (options.profile && worker !== null) {
      await worker.send('Profiler.enable');
      await worker.send('Profiler.setSamplingInterval', { interval: 1000 }); // µs
      await worker.send('Profiler.start');
    }

    for (const site of options.sites) site.requests.length = 0;
    const pagesSoFar = pageCounter(options.sites);
    const cpuBefore = browserCpuMs(session.profileDir);
    const machineBefore = machineCpuMs();
    const benchBefore = process.cpuUsage();
    // PSS is costly to read (~25 ms a time here, walking every process's page tables): once a second keeps the
    // bench's own load on the 2 cores small, and memory does not move faster than that.
    const memory = options.sampleMemory
      ? samplePeakRss(session.profileDir, 1000)
      : { stop: () => Number.NaN, spentMs: () => 0 };
    // The heap every tenth of the crawl (its forced GC costs the worker a few ms), the folder every hundredth (a
    // walk of a few hundred files here, asynchronous: LevelDB's log and compactions move its size by MiBs, and
    // the bytes per page of a tenth are a least-squares slope over its samples; see part-cost.ts).
    const heapStep = Math.max(50, Math.round(options.expectedRows / 10));
    const folderStep = Math.max(5, Math.round(options.expectedRows / 100));
    let nextHeap = heapStep;
    let nextFolder = folderStep;
    let sampling: Promise<void> = Promise.resolve();
    let isSampling = false;
    const startedAt = Date.now();
    const { crawl: started } = await session.request('crawl/start', { settings: options.settings });
    // A crawl that makes no progress must not hang the bench: stop it after a generous limit.
    const limit = AbortSignal.timeout(options.timeLimitMs);
    const { crawl } = await waitForCrawl(session.request, started.id, {
      signal: limit,
      onProgress: (now: CrawlSummary) => {
        if (
          !options.measureCost ||
          worker === null ||
          isSampling ||
          now.counts.done < nextFolder ||
          now.state !== 'running'
        )
          return;
        isSampling = true;
        const rows = now.counts.done;
        nextFolder = rows + folderStep;
        const withHeap = rows >= nextHeap;
        if (withHeap) nextHeap = rows + heapStep;
        const pages = pagesSoFar();
        const cdp = worker;
        // The heap first (its forced GC is the heavier), then the folder: a few ms apart, a few pages apart.
        sampling = (withHeap ? liveHeapBytes(cdp) : Promise.resolve(null))
          .then(
            async (heapBytes) =>
              void samples.push({
                phase: 'during',
                rows,
                pages,
                heapBytes,
                idbDiskBytes: await folderBytes(idbDir).catch(() => Number.NaN),
              }),
          )
          .catch(() => undefined)
          .finally(() => {
            isSampling = false;
          });
      },
    });
    const endedAt = crawl.endedAt ?? Date.now();
    const peakPssBytes = memory.stop();
    const cpuMs = cpuDelta(cpuBefore, browserCpuMs(session.profileDir));
    const machine = machineCpuMs();
    const benchCpu = process.cpuUsage(benchBefore);
    const browserTotal = Object.entries(cpuMs).reduce(
      (sum, [kind, ms]) => sum + (kind === 'serviceWorker' ? 0 : ms),
      0,
    );
    const otherMs = machine.busyMs - machineBefore.busyMs - browserTotal - (benchCpu.user + benchCpu.system) / 1000;
    const otherCpuShare = Math.max(0, otherMs / (machine.totalMs - machineBefore.totalMs));
    await sampling;

    let profile: CpuProfile | null = null;
    if (options.profile && worker !== null)
      profile = (await worker.send<{ profile: CpuProfile }>('Profiler.stop')).profile;
    let idbDiskBytes: TabcrawlRun['idbDiskBytes'] = null;
    let storageEstimateBytes: TabcrawlRun['storageEstimateBytes'] = null;
    if (options.measureCost && worker !== null) {
      const heapBytes = await liveHeapBytes(worker);
      storageEstimateBytes = { before: estimateBefore, after: await storageEstimate(session) };
      idbDiskBytes = { before: idbBefore, after: await folderBytes(idbDir) };
      samples.push({
        phase: 'after',
        rows: crawl.counts.done,
        pages: pagesSoFar(),
        heapBytes,
        idbDiskBytes: idbDiskBytes.after,
      });
    }
    const served = countServed(options.sites.map((site) => site.requests));
    const rowTimes = options.readTimes === true ? await crawlerTimes(session, crawl.id) : null;
    return {
      wallMs: endedAt - startedAt,
      pages: served.distinct.page,
      served,
      state: crawl.state,
      rowsStored: crawl.counts.done,
      resourceRows: crawl.counts.resources ?? 0,
      fileRows: crawl.counts.files ?? 0,
      idlePssBytes,
      peakPssBytes,
      cpuMs,
      otherCpuShare,
      samples,
      pageArrivalsMs: pageArrivals(options.sites.map((site) => site.requests)),
      endAfterLastResponseMs: endedAt - extreme(options.sites, (r) => r.endedAt, Math.max, startedAt),
      startToFirstRequestMs: extreme(options.sites, (r) => r.startedAt, Math.min, Number.NaN) - startedAt,
      idbDiskBytes,
      storageEstimateBytes,
      rowTimes,
      profile,
    };
  } finally {
    await worker?.detach();
    await session.close();
  }
}

/**
 * The latest (`Math.max`) or earliest (`Math.min`) of `from` and a time of every request the sites logged
 * (`from` NaN: of the requests alone, NaN when none has it): a loop, not a spread, since an archiving crawl
 * of 50,000 pages logs more requests than a call takes arguments.
 */
function extreme(
  sites: readonly LocalSite[],
  timeOf: (request: RequestLogEntry) => number | null,
  pick: (a: number, b: number) => number,
  from: number,
): number {
  let found = from;
  for (const site of sites) {
    for (const request of site.requests) {
      const time = timeOf(request);
      if (time !== null) found = Number.isNaN(found) ? time : pick(found, time);
    }
  }
  return found;
}

/**
 * The time limit of a zero-delay crawl of `pages` pages (or rows: callers pass the rows they expect), against
 * a crawl that stops making progress: 2 minutes and half a second each, 30 times the time a row takes in the
 * slowest crawl here (archiving at 1 request at once: about 15 ms a row). A 50,000-page site archived, 102,007
 * rows: 14 hours, room enough for a crawl that slows down as it grows.
 */
export function pageTimeLimitMs(pages: number): number {
  return 120_000 + pages * 500;
}

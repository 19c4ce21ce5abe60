/**
 * `npm run bench`: Tabcrawl measured against wget, against the limit
 * politeness sets (issue 6), and next to the most any extension can fetch
 * here (part 5, `ceiling.ts`). Not a test: it asserts nothing, it measures,
 * prints a table and writes the figures as JSON. See {@link BENCH_USAGE}.
 *
 * Every crawl goes the way `npm run crawl` goes: the built extension in
 * headless Chromium (`launchExtension`), `crawl/start` through the driver
 * page, `waitForCrawl` polling every 500 ms. Every site is served on
 * 127.0.0.1 by `startLocalSite`, whose request log (arrival and end of each
 * response, on one clock) is where pages are counted and gaps measured, the
 * same way for Tabcrawl and wget.
 *
 * Timings are noisy on a shared 2-core machine: each figure is the median of
 * `--rounds` rounds, and a ratio is taken within a round (Tabcrawl and wget
 * back to back, their order alternating) before its median.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ensureBuilt } from '../../src/shells/cli/build.ts';
import { findChromium } from '../../src/shells/cli/chromium.ts';
import { launchExtension, type ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import type { LocalSite } from '../../src/shells/cli/local-site.ts';
import { waitForCrawl } from '../../src/shells/cli/wait-for-crawl.ts';
import type { CrawlSettings } from '../../src/core/settings.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import { BENCH_USAGE, parseBenchArgs, type BenchOptions } from './bench-args.ts';
import { startBenchSite, startPolitenessSites } from './bench-sites.ts';
import { busyMs, gapParts, median, pagesRequested, robotsFirstAndOnce, rounded, serverGaps, slope, type CpuProfile, type CrawlerTimes } from './bench-stats.ts';
import { browserRssBytes, samplePeakRss } from './process-memory.ts';
import { browserCpuMs, cpuDelta, machineCpuMs } from './process-stats.ts';
import { topFunctions, topOwnFunctions, type TopFunction } from './profile-report.ts';
import { attachToWorker, liveHeapBytes, type WorkerCdp } from './worker-cdp.ts';
import { CEILING_EXPLANATION, CEILING_FETCH_OPTIONS, CEILING_LOOPS, CEILING_VARIANTS, measureCeiling, summariseCeiling } from './ceiling.ts';
import { hasWget, runWget, WGET_INSTALL_HINT, type WgetRun } from './wget-crawl.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const MiB = 1024 * 1024;
const log = (line: string): void => void process.stderr.write(`${line}\n`);

// ─── one Tabcrawl crawl ─────────────────────────────────────────────────────

/** What one Tabcrawl crawl measured. Times in ms, sizes in bytes. */
interface TabcrawlRun {
  /** From `crawl/start` sent to the crawl's `endedAt` (the worker's clock, the same system clock). */
  wallMs: number;
  /** Pages fetched, from the server logs (distinct paths, robots.txt left out). */
  pages: number;
  state: string;
  /** Rows stored (fetched, blocked and failed). */
  rowsStored: number;
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
   * Worker's live heap (after a full GC) against rows stored, only when cost is measured: one sample
   * `before` the crawl, every tenth of it `during`, one `after` it ended (its state released).
   */
  heapSamples: HeapSample[];
  /** IndexedDB folder of the profile on disk, and `navigator.storage.estimate()` of the extension, before and after. */
  idbDiskBytes: { before: number; after: number } | null;
  storageEstimateBytes: { before: number; after: number } | null;
  /** When the worker sent each request and read its answer, by URL (the rows' `fetchedAt` and `responseTimeMs`); null unless `readTimes`. */
  rowTimes: Map<string, CrawlerTimes> | null;
  /** The worker's CPU profile when asked for. */
  profile: CpuProfile | null;
}

interface HeapSample {
  phase: 'before' | 'during' | 'after';
  pages: number;
  bytes: number;
}

interface CrawlOptions {
  distDir: string;
  chromePath: string;
  settings: Partial<CrawlSettings> & { startUrl: string };
  sites: readonly LocalSite[];
  /** Sample the worker's heap and the storage (part 3). */
  measureCost: boolean;
  /** Record a CPU profile of the worker. */
  profile: boolean;
  /**
   * Sample the browser's memory (PSS) every second. Off for the politeness part: reading PSS walks every
   * process's page tables (~25 ms of the bench's own thread, which also serves the sites' requests), and
   * the measurement must not disturb the gaps it measures.
   */
  sampleMemory: boolean;
  /** Rows the crawl should store, for the heap sampling step (every tenth of them). */
  expectedRows: number;
  /** A crawl still running after this long is stopped, so a stuck crawl cannot hang the bench, in ms. */
  timeLimitMs: number;
  /** Read the stored rows' request times after the crawl (through the export protocol), for part 2's gap split. */
  readTimes?: boolean;
}

/** Bytes of the files under `dir` (0 when it does not exist). */
function folderBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return total;
}

/** What the extension's origin stores, as Chrome's quota manager counts it (`usageDetails.indexedDB` when given). */
async function storageEstimate(session: ExtensionSession): Promise<number> {
  const page = session.context.pages().find((p) => p.url().startsWith(`chrome-extension://${session.extensionId}/`));
  if (page === undefined) return Number.NaN;
  return page.evaluate(async () => {
    const estimate = (await navigator.storage.estimate()) as StorageEstimate & { usageDetails?: { indexedDB?: number } };
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

async function crawlWithTabcrawl(options: CrawlOptions): Promise<TabcrawlRun> {
  const session = await launchExtension({ distDir: options.distDir, chromePath: options.chromePath, copyDist: true });
  let worker: WorkerCdp | null = null;
  try {
    // Let the fresh browser settle (its first-run work) before the idle figure.
    await new Promise((r) => setTimeout(r, 1000));
    const idlePssBytes = browserRssBytes(session.profileDir);
    const idbDir = join(session.profileDir, 'user-data', 'Default', 'IndexedDB');
    const heapSamples: HeapSample[] = [];
    let idbBefore = 0;
    let estimateBefore = 0;
    if (options.measureCost || options.profile) worker = await attachToWorker(session);
    if (options.measureCost && worker !== null) {
      idbBefore = folderBytes(idbDir);
      estimateBefore = await storageEstimate(session);
      heapSamples.push({ phase: 'before', pages: 0, bytes: await liveHeapBytes(worker) });
    }
    if (options.profile && worker !== null) {
      await worker.send('Profiler.enable');
      await worker.send('Profiler.setSamplingInterval', { interval: 1000 }); // µs
      await worker.send('Profiler.start');
    }

    for (const site of options.sites) site.requests.length = 0;
    const cpuBefore = browserCpuMs(session.profileDir);
    const machineBefore = machineCpuMs();
    const benchBefore = process.cpuUsage();
    // PSS is costly to read (~25 ms a time here, walking every process's page tables): once a second keeps the
    // bench's own load on the 2 cores small, and memory does not move faster than that.
    const memory = options.sampleMemory ? samplePeakRss(session.profileDir, 1000) : { stop: () => Number.NaN };
    const step = Math.max(50, Math.round(options.expectedRows / 10));
    let nextSample = step;
    let sampling: Promise<void> = Promise.resolve();
    let isSampling = false;
    const startedAt = Date.now();
    const { crawl: started } = await session.request('crawl/start', { settings: options.settings });
    // A crawl that makes no progress must not hang the bench: stop it after a generous limit.
    const limit = AbortSignal.timeout(options.timeLimitMs);
    const { crawl } = await waitForCrawl(session.request, started.id, {
      signal: limit,
      onProgress: (now: CrawlSummary) => {
        if (!options.measureCost || worker === null || isSampling || now.counts.done < nextSample || now.state !== 'running') return;
        isSampling = true;
        nextSample = now.counts.done + step;
        const pages = now.counts.done;
        const cdp = worker;
        sampling = liveHeapBytes(cdp)
          .then((bytes) => void heapSamples.push({ phase: 'during', pages, bytes }))
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
    const browserTotal = Object.entries(cpuMs).reduce((sum, [kind, ms]) => sum + (kind === 'serviceWorker' ? 0 : ms), 0);
    const otherMs = machine.busyMs - machineBefore.busyMs - browserTotal - (benchCpu.user + benchCpu.system) / 1000;
    const otherCpuShare = Math.max(0, otherMs / (machine.totalMs - machineBefore.totalMs));
    await sampling;

    let profile: CpuProfile | null = null;
    if (options.profile && worker !== null) profile = (await worker.send<{ profile: CpuProfile }>('Profiler.stop')).profile;
    let idbDiskBytes: TabcrawlRun['idbDiskBytes'] = null;
    let storageEstimateBytes: TabcrawlRun['storageEstimateBytes'] = null;
    if (options.measureCost && worker !== null) {
      heapSamples.push({ phase: 'after', pages: crawl.counts.done, bytes: await liveHeapBytes(worker) });
      storageEstimateBytes = { before: estimateBefore, after: await storageEstimate(session) };
      idbDiskBytes = { before: idbBefore, after: folderBytes(idbDir) };
    }
    const pages = options.sites.reduce((sum, site) => sum + pagesRequested(site.requests).size, 0);
    const rowTimes = options.readTimes === true ? await crawlerTimes(session, crawl.id) : null;
    return {
      wallMs: endedAt - startedAt,
      pages,
      state: crawl.state,
      rowsStored: crawl.counts.done,
      idlePssBytes,
      peakPssBytes,
      cpuMs,
      otherCpuShare,
      heapSamples,
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

// ─── part 1 (and the figures of part 3): throughput at delay 0 ──────────────

/** The time limit of a zero-delay crawl of `pages` pages: 2 minutes and half a second a page (10 times slower than today). */
function pageTimeLimitMs(pages: number): number {
  return 120_000 + pages * 500;
}

interface ThroughputRound {
  round: number;
  order: string;
  tabcrawl: TabcrawlRun;
  wget: (WgetRun & { pages: number; samePages: boolean }) | null;
  /** robots.txt first and once, and no disallowed URL requested, per tool. */
  robots: { tabcrawl: string; wget: string | null };
}

function robotsVerdict(site: LocalSite): string {
  const { isFirst, count } = robotsFirstAndOnce(site.requests);
  const disallowed = site.requests.filter((r) => r.url.startsWith('/private/')).length;
  return `${isFirst ? 'first' : 'NOT first'}, ${count}×; ${disallowed} disallowed requested`;
}

async function throughputRounds(options: BenchOptions, distDir: string, chromePath: string): Promise<ThroughputRound[]> {
  const withWget = options.parts.has(1) && hasWget();
  if (options.parts.has(1) && !withWget) log(`bench: ${WGET_INSTALL_HINT}`);
  const site = await startBenchSite(options.pages);
  const startUrl = `${site.origin}/`;
  // Delay 0 and a robots.txt without Crawl-delay: the one case where more than one request at once per host is used.
  const settings = { startUrl, delayMs: 0, requestsPerHost: options.parallel, maxPages: Math.min(1_000_000, options.pages * 2 + 100), maxDepth: 1000 };
  const rounds: ThroughputRound[] = [];
  try {
    for (let round = 1; round <= options.rounds; round++) {
      const wgetFirst = round % 2 === 0;
      const runTabcrawl = async (): Promise<{ run: TabcrawlRun; paths: Set<string>; robots: string }> => {
        log(`bench: part 1, round ${round}: Tabcrawl crawls ${options.pages} pages at delay 0, ${perHostText(options.parallel)}`);
        const run = await crawlWithTabcrawl({ distDir, chromePath, settings, sites: [site], measureCost: options.parts.has(3), profile: false, sampleMemory: true, expectedRows: options.pages, timeLimitMs: pageTimeLimitMs(options.pages) });
        return { run, paths: pagesRequested(site.requests), robots: robotsVerdict(site) };
      };
      const runWgetOnce = async (): Promise<{ run: WgetRun; paths: Set<string>; robots: string } | null> => {
        if (!withWget) return null;
        log(`bench: part 1, round ${round}: wget crawls the same site`);
        site.requests.length = 0;
        const run = await runWget(startUrl);
        return { run, paths: pagesRequested(site.requests), robots: robotsVerdict(site) };
      };
      let tabcrawl: Awaited<ReturnType<typeof runTabcrawl>>;
      let wget: Awaited<ReturnType<typeof runWgetOnce>>;
      if (wgetFirst) {
        wget = await runWgetOnce();
        tabcrawl = await runTabcrawl();
      } else {
        tabcrawl = await runTabcrawl();
        wget = await runWgetOnce();
      }
      const tabcrawlPaths = tabcrawl.paths;
      const finished: ThroughputRound['wget'] =
        wget === null
          ? null
          : { ...wget.run, pages: wget.paths.size, samePages: wget.paths.size === tabcrawlPaths.size && [...wget.paths].every((path) => tabcrawlPaths.has(path)) };
      rounds.push({ round, order: wgetFirst ? 'wget, Tabcrawl' : 'Tabcrawl, wget', tabcrawl: tabcrawl.run, wget: finished, robots: { tabcrawl: tabcrawl.robots, wget: wget?.robots ?? null } });
    }
  } finally {
    await site.close();
  }
  return rounds;
}

// ─── part 2: politeness efficiency ──────────────────────────────────────────

interface PolitenessRound {
  round: number;
  wallMs: number;
  pages: number;
  pagesPerSecond: number;
  ratioToIdeal: number;
  state: string;
  otherCpuShare: number;
  hosts: { origin: string; pages: number; minGapMs: number; meanGapMs: number; violations: number[]; robots: string; pagesPerSecond: number }[];
  /** The mean server gap split (over every host's consecutive pages), in ms: see `gapParts`. */
  gapSplit: { crawlerGapMs: number; requestWayMs: number; responseWayMs: number };
}

async function politenessRounds(options: BenchOptions, distDir: string, chromePath: string): Promise<PolitenessRound[]> {
  const sites = await startPolitenessSites(options.hosts, options.hostPages, options.crawlDelaySeconds);
  const first = sites[0];
  if (first === undefined) throw new Error('no site started');
  const idealPagesPerSecond = options.hosts / options.crawlDelaySeconds;
  const delayMs = options.crawlDelaySeconds * 1000;
  const rounds: PolitenessRound[] = [];
  try {
    for (let round = 1; round <= options.rounds; round++) {
      log(`bench: part 2, round ${round}: ${options.hosts} hosts × ${options.hostPages} pages, Crawl-delay ${options.crawlDelaySeconds} s`);
      const settings = {
        startUrl: `${first.origin}/`,
        extraOrigins: sites.slice(1).map((site) => site.origin),
        delayMs: 0,
        hostConcurrency: Math.max(8, options.hosts),
        // One at a time, whatever --parallel says: this part measures the spacing (each site sets a Crawl-delay anyway).
        requestsPerHost: 1,
        maxPages: Math.min(1_000_000, options.hosts * options.hostPages * 2 + 100),
        maxDepth: 1000,
      };
      const run = await crawlWithTabcrawl({ distDir, chromePath, settings, sites, measureCost: false,
        profile: false,
        sampleMemory: false,
        expectedRows: options.hosts * options.hostPages,
        // The crawl cannot be faster than one host's pages at its Crawl-delay; 4 times that, and 2 minutes, is plenty.
        timeLimitMs: 120_000 + options.hostPages * options.crawlDelaySeconds * 4000,
        readTimes: true,
      });
      const split = { crawlerGaps: [] as number[], requestWays: [] as number[], responseWays: [] as number[] };
      const hosts = sites.map((site) => {
        const parts = gapParts(site.requests, (path) => run.rowTimes?.get(`${site.origin}${path}`));
        split.crawlerGaps.push(...parts.crawlerGaps);
        split.requestWays.push(...parts.requestWays);
        split.responseWays.push(...parts.responseWays);
        const gaps = serverGaps(site.requests);
        const { isFirst, count } = robotsFirstAndOnce(site.requests);
        const starts = site.requests.map((r) => r.startedAt);
        const ends = site.requests.map((r) => r.endedAt ?? r.startedAt);
        const spanMs = starts.length > 0 ? Math.max(...ends) - Math.min(...starts) : Number.NaN;
        const pages = pagesRequested(site.requests).size;
        return {
          origin: site.origin,
          pages,
          minGapMs: gaps.length > 0 ? Math.min(...gaps) : Number.NaN,
          meanGapMs: gaps.length > 0 ? gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length : Number.NaN,
          violations: gaps.filter((gap) => gap < delayMs),
          robots: `${isFirst ? 'first' : 'NOT first'}, ${count}×`,
          pagesPerSecond: pages / (spanMs / 1000),
        };
      });
      const pagesPerSecond = run.pages / (run.wallMs / 1000);
      const mean = (values: number[]): number => (values.length === 0 ? Number.NaN : values.reduce((sum, v) => sum + v, 0) / values.length);
      const gapSplit = { crawlerGapMs: mean(split.crawlerGaps), requestWayMs: mean(split.requestWays), responseWayMs: mean(split.responseWays) };
      rounds.push({ round, wallMs: run.wallMs, pages: run.pages, pagesPerSecond, ratioToIdeal: pagesPerSecond / idealPagesPerSecond, state: run.state, otherCpuShare: run.otherCpuShare, hosts, gapSplit });
    }
  } finally {
    await Promise.all(sites.map((site) => site.close()));
  }
  return rounds;
}

// ─── part 5: the platform ceiling ───────────────────────────────────────────

/**
 * A fetch-only loop in the worker of four extensions, and a minimal storing loop in the worker of the
 * third one (see `ceiling.ts`), over the pages of part 1's site, at 1 and `--parallel` at once, next to
 * wget: part 1's median when part 1 ran with wget, else one wget run of the same site here.
 */
async function platformCeiling(options: BenchOptions, distDir: string, chromePath: string, part1: { wget: number | null; tabcrawl: number } | null): Promise<Record<string, unknown>> {
  const site = await startBenchSite(options.pages);
  try {
    let wget: { pagesPerSecond: number | null; source: string } | null = null;
    if (part1?.wget != null) wget = { pagesPerSecond: rounded(part1.wget), source: `part 1, median of ${options.rounds}` };
    else if (hasWget()) {
      log(`bench: part 5: wget crawls the same site once, for the ratios`);
      const run = await runWget(`${site.origin}/`);
      const pages = pagesRequested(site.requests).size;
      wget = { pagesPerSecond: rounded(pages / (run.wallMs / 1000)), source: 'one run in part 5' };
    } else if (!options.parts.has(1)) log(`bench: ${WGET_INSTALL_HINT}`);
    const concurrencies = [...new Set([1, options.parallel])];
    const runs = await measureCeiling({ site, pages: options.pages, concurrencies, rounds: options.rounds, distDir, chromePath, log });
    const variants = summariseCeiling(runs, concurrencies, wget?.pagesPerSecond ?? null);
    const own = variants.tabcrawl.runs.find((f) => f.concurrency === options.parallel)?.pagesPerSecond ?? null;
    const minimalStore = variants.minimalStore.runs.find((f) => f.concurrency === options.parallel)?.pagesPerSecond ?? null;
    return {
      explanation: CEILING_EXPLANATION,
      pages: options.pages,
      rounds: options.rounds,
      concurrencies,
      fetchOptions: CEILING_FETCH_OPTIONS,
      // Which loop each variant runs is its `loop`: (a) to (d) the fetch-only one, (e) the storing one.
      loop: Object.fromEntries(Object.entries(CEILING_LOOPS).map(([id, { description }]) => [id, description])),
      wget,
      tabcrawlCrawlPagesPerSecond: part1 === null ? null : rounded(part1.tabcrawl),
      // Part 1's crawl over (d) and over (e), both at --parallel at once: of its worker's fetch-only ceiling, and of a minimal storing crawler.
      tabcrawlCrawlShareOfItsWorkerCeiling: part1 === null || own === null ? null : rounded(part1.tabcrawl / own, 3),
      tabcrawlCrawlShareOfMinimalStore: part1 === null || minimalStore === null ? null : rounded(part1.tabcrawl / minimalStore, 3),
      // (e) over (c) at each concurrency: what storing leaves of the fetch-only loop in the same extension.
      minimalStoreShareOfFetchOnly: concurrencies.map((concurrency) => {
        const stored = variants.minimalStore.runs.find((f) => f.concurrency === concurrency)?.pagesPerSecond ?? null;
        const fetched = variants.webRequest.runs.find((f) => f.concurrency === concurrency)?.pagesPerSecond ?? null;
        return { concurrency, share: stored === null || fetched === null ? null : rounded(stored / fetched, 3) };
      }),
      variants,
    };
  } finally {
    await site.close();
  }
}

// ─── part 4: the results and export benches, as sub-steps ───────────────────

/** Runs another bench script with tsx, its output on our stderr. */
function runScript(script: string, args: readonly string[]): Promise<void> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, script), ...args], { cwd: ROOT, stdio: ['ignore', 2, 2] });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolveRun() : reject(new Error(`${script} exited with ${String(code)}`))));
  });
}

interface ResultsAndExport {
  results: { rows: number; firstRowsFirstMs: number | null; firstRowsMedianMs: number | null; timings: unknown } | { error: string };
  export: Record<string, unknown> | { error: string };
}

async function resultsAndExport(distDir: string): Promise<ResultsAndExport> {
  const rows = 100_000;
  const pages = 10_000;
  let results: ResultsAndExport['results'];
  try {
    log(`bench: part 4: npm run bench:results -- --rows ${rows}`);
    await runScript('test/bench/results-bench.ts', ['--rows', String(rows)]);
    const figures = JSON.parse(readFileSync(join(ROOT, `.tmp/bench/results-${rows}.json`), 'utf8')) as { timings: { name: string; firstMs: number; medianMs: number }[] };
    const open = figures.timings.find((t) => t.name.startsWith('open: database + first window'));
    results = { rows, firstRowsFirstMs: rounded(open?.firstMs ?? Number.NaN, 0), firstRowsMedianMs: rounded(open?.medianMs ?? Number.NaN, 0), timings: figures.timings };
  } catch (error) {
    results = { error: error instanceof Error ? error.message : String(error) };
  }
  let exported: ResultsAndExport['export'];
  try {
    log(`bench: part 4: npm run bench:export -- --pages ${pages} --format wacz`);
    await runScript('test/bench/export-bench.ts', ['--pages', String(pages), '--format', 'wacz', '--dist', distDir]);
    exported = JSON.parse(readFileSync(join(ROOT, `.tmp/bench/export-wacz-${pages}.json`), 'utf8')) as Record<string, unknown>;
  } catch (error) {
    exported = { error: error instanceof Error ? error.message : String(error) };
  }
  return { results, export: exported };
}

// ─── the report ──────────────────────────────────────────────────────────────

/** Prints rows as a table, the first column left-aligned and the others right-aligned. */
function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => `  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('   ')}`.trimEnd()).join('\n');
}

/** `8 requests at once per host`, `1 request at once per host`. */
const perHostText = (requests: number): string => `${requests} request${requests === 1 ? '' : 's'} at once per host`;

const num = (value: number, digits = 1): string => (Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a');
/** The median of `values`, with 2 decimals. */
const r2 = (values: number[]): string => num(median(values), 2);

function chromiumVersion(chromePath: string): string {
  try {
    // Debian's wrapper script complains on stderr about its memory check; only the version line matters.
    return execFileSync(chromePath, ['--version'], { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

function dateStamp(date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}-${two(date.getHours())}${two(date.getMinutes())}${two(date.getSeconds())}`;
}

async function main(options: BenchOptions): Promise<void> {
  const startedAt = new Date();
  const chromePath = findChromium(process.env);
  let distDir = options.distDir === null ? join(ROOT, 'dist') : resolve(options.distDir);
  if (options.distDir === null) await ensureBuilt(ROOT, log);
  if (!existsSync(join(distDir, 'manifest.json'))) throw new Error(`${distDir} holds no built extension (no manifest.json)`);
  distDir = resolve(distDir);
  const cpus = os.cpus();
  const machine = {
    cores: cpus.length,
    cpu: cpus[0]?.model ?? 'unknown',
    memoryGiB: rounded(os.totalmem() / 1024 ** 3, 1),
    chromium: chromiumVersion(chromePath),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverageAtStart: rounded(os.loadavg()[0] ?? Number.NaN, 2),
    loadAverageAtEnd: null as number | null,
  };
  const out: string[] = [];
  const say = (text: string): void => {
    out.push(text);
  };

  // Parts 1 and 3.
  let throughput: Record<string, unknown> | null = null;
  let costPerPage: Record<string, unknown> | null = null;
  /** Part 1's medians, for part 5's ratios: wget's pages/s (null when it did not run) and Tabcrawl's. */
  let part1Rates: { wget: number | null; tabcrawl: number } | null = null;
  if (options.parts.has(1) || options.parts.has(3)) {
    const rounds = await throughputRounds(options, distDir, chromePath);
    const tab = rounds.map((r) => r.tabcrawl);
    const tabRate = tab.map((t) => t.pages / (t.wallMs / 1000));
    const wgets = rounds.flatMap((r) => (r.wget === null ? [] : [r.wget]));
    const wgetRate = wgets.map((w) => w.pages / (w.wallMs / 1000));
    const ratios = rounds.flatMap((r) => (r.wget === null ? [] : [r.tabcrawl.pages / (r.tabcrawl.wallMs / 1000) / (r.wget.pages / (r.wget.wallMs / 1000))]));
    if (options.parts.has(1)) {
      part1Rates = { wget: wgets.length === 0 ? null : median(wgetRate), tabcrawl: median(tabRate) };
      throughput = {
        pages: options.pages,
        rounds: options.rounds,
        tabcrawl: {
          requestsPerHost: options.parallel,
          pagesPerSecond: rounded(median(tabRate)),
          seconds: rounded(median(tab.map((t) => t.wallMs / 1000))),
          pagesFetched: median(tab.map((t) => t.pages)),
          peakMemoryMiB: rounded(median(tab.map((t) => t.peakPssBytes / MiB)), 0),
          idleMemoryMiB: rounded(median(tab.map((t) => t.idlePssBytes / MiB)), 0),
          memoryKind: 'PSS of all the browser processes',
        },
        wget: wgets.length === 0 ? null : {
          pagesPerSecond: rounded(median(wgetRate)),
          seconds: rounded(median(wgets.map((w) => w.wallMs / 1000)), 2),
          pagesFetched: median(wgets.map((w) => w.pages)),
          peakMemoryMiB: rounded(median(wgets.map((w) => w.peakRssBytes / MiB)), 1),
          memoryKind: 'peak RSS (VmHWM)',
          cpuMsPer1000Pages: rounded(median(wgets.map((w) => (w.cpuMs / w.pages) * 1000)), 0),
          samePagesAsTabcrawl: wgets.every((w) => w.samePages),
        },
        ratioTabcrawlToWget: ratios.length === 0 ? null : rounded(median(ratios), 3),
        perRound: rounds.map((r) => ({
          round: r.round,
          order: r.order,
          tabcrawlPagesPerSecond: rounded(r.tabcrawl.pages / (r.tabcrawl.wallMs / 1000)),
          tabcrawlState: r.tabcrawl.state,
          tabcrawlPages: r.tabcrawl.pages,
          tabcrawlRowsStored: r.tabcrawl.rowsStored,
          tabcrawlPeakMiB: rounded(r.tabcrawl.peakPssBytes / MiB, 0),
          otherProcessesCpuShareDuringTabcrawl: rounded(r.tabcrawl.otherCpuShare, 2),
          wgetPagesPerSecond: r.wget === null ? null : rounded(r.wget.pages / (r.wget.wallMs / 1000)),
          wgetPages: r.wget?.pages ?? null,
          wgetPeakMiB: r.wget === null ? null : rounded(r.wget.peakRssBytes / MiB, 1),
          wgetExitCode: r.wget?.exitCode ?? null,
          ratio: r.wget === null ? null : rounded(r.tabcrawl.pages / (r.tabcrawl.wallMs / 1000) / (r.wget.pages / (r.wget.wallMs / 1000)), 3),
          robots: r.robots,
        })),
      };
      const w = throughput['wget'] as { pagesPerSecond: number; seconds: number; pagesFetched: number; peakMemoryMiB: number; cpuMsPer1000Pages: number; samePagesAsTabcrawl: boolean } | null;
      const t = throughput['tabcrawl'] as { pagesPerSecond: number; seconds: number; pagesFetched: number; peakMemoryMiB: number; idleMemoryMiB: number };
      say(`1. Throughput at delay 0: a generated site of ${options.pages.toLocaleString('en-US')} pages (~8 KB, 12 links each), ${options.rounds} round(s), order alternating; medians`);
      say(`   Tabcrawl with ${perHostText(options.parallel)} (delay 0, no Crawl-delay); wget one request at a time`);
      say(
        table([
          ['', 'Tabcrawl', 'wget', 'Tabcrawl/wget'],
          ['pages/s (asked → done)', num(t.pagesPerSecond), w === null ? 'skipped' : num(w.pagesPerSecond), ratios.length === 0 ? 'n/a' : num(median(ratios), 3)],
          ['seconds', num(t.seconds), w === null ? '' : num(w.seconds, 2), ''],
          ['pages fetched (server log)', num(t.pagesFetched, 0), w === null ? '' : `${num(w.pagesFetched, 0)}${w.samePagesAsTabcrawl ? ' (same)' : ' (DIFFERENT)'}`, ''],
          ['peak memory', `${num(t.peakMemoryMiB, 0)} MiB PSS`, w === null ? '' : `${num(w.peakMemoryMiB, 1)} MiB RSS`, ''],
          ['  (browser idle before)', `${num(t.idleMemoryMiB, 0)} MiB`, '', ''],
          ['CPU used by other processes meanwhile', `${num(median(tab.map((x) => x.otherCpuShare * 100)), 0)} % of ${os.cpus().length} cores`, '', ''],
          ['CPU ms per 1,000 pages (all processes)', num(median(tab.map((x) => (Object.entries(x.cpuMs).filter(([k]) => k !== 'serviceWorker').reduce((s, [, v]) => s + v, 0) / x.pages) * 1000)), 0), w === null ? '' : num(w.cpuMsPer1000Pages, 0), ''],
        ]),
      );
      for (const r of rounds) say(`  round ${r.round} (${r.order}): robots.txt for Tabcrawl ${r.robots.tabcrawl}${r.robots.wget === null ? '' : `; for wget ${r.robots.wget}`}`);
    }

    if (options.parts.has(3)) {
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
      costPerPage = {
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
    }
  }

  // Part 5: the platform ceiling, next to wget (of part 1 when it ran).
  let ceiling: Record<string, unknown> | null = null;
  if (options.parts.has(5)) {
    ceiling = await platformCeiling(options, distDir, chromePath, part1Rates);
    const variants = ceiling['variants'] as ReturnType<typeof summariseCeiling>;
    const concurrencies = ceiling['concurrencies'] as number[];
    const wget = ceiling['wget'] as { pagesPerSecond: number | null; source: string } | null;
    const wgetText = wget === null ? 'wget skipped (not installed): no ratios' : `wget ${num(wget.pagesPerSecond ?? Number.NaN)} pages/s (${wget.source})`;
    say('');
    say(`5. Platform ceiling: ${CEILING_EXPLANATION}`);
    say(`   (a)-(d): a loop that only fetches each of the ${options.pages.toLocaleString('en-US')} pages of part 1's site once and reads its body, run in the worker of each extension;`);
    say(`   (e): in (c)'s extension, a minimal storing crawler: the same fetches, each page's links found, the page and its new links stored in IndexedDB (group commit);`);
    say(`   ${options.rounds} round(s), medians; ${wgetText}`);
    const header = ['', ...concurrencies.flatMap((c) => [`${c} at once, pages/s`, '÷ wget'])];
    const rows = CEILING_VARIANTS.map((variant) => {
      const figures = variants[variant.id].runs;
      return [variant.label, ...figures.flatMap((f) => [num(f.pagesPerSecond ?? Number.NaN), num(f.ratioToWget ?? Number.NaN, 3)])];
    });
    say(table([header, ...rows]));
    const own = variants.tabcrawl.runs.find((f) => f.concurrency === options.parallel)?.pagesPerSecond ?? null;
    const minimalStore = variants.minimalStore.runs.find((f) => f.concurrency === options.parallel)?.pagesPerSecond ?? null;
    const tabcrawlRate = part1Rates?.tabcrawl ?? null;
    if (tabcrawlRate !== null && own !== null) {
      const ofStore = minimalStore === null ? '' : `, ${num(tabcrawlRate / minimalStore, 3)} of (e)`;
      say(`  Tabcrawl's crawl of part 1 (${perHostText(options.parallel)}): ${num(tabcrawlRate)} pages/s, ${num(tabcrawlRate / own, 3)} of (d)${ofStore} at ${options.parallel} at once`);
    }
    const shares = ceiling['minimalStoreShareOfFetchOnly'] as { concurrency: number; share: number | null }[];
    const stored = variants.minimalStore.runs.map((f) => {
      const share = shares.find((entry) => entry.concurrency === f.concurrency)?.share ?? null;
      return `at ${f.concurrency} at once: ${share === null ? '-' : num(share, 3)} of (c), ${f.links === null ? '-' : num(f.links, 0)} links seen, ${f.urlsAdded === null ? '-' : num(f.urlsAdded, 0)} URLs added`;
    });
    say(`  (e): ${stored.join('; ')} (added: about the pages plus the disallowed links)`);
    const odd = CEILING_VARIANTS.flatMap((variant) => variants[variant.id].runs.flatMap((f) => f.perRound.filter((r) => r.error !== null || !r.eachPageOnce || (r.failures ?? 0) > 0).map((r) => ({ variant, f, r }))));
    for (const { variant, f, r } of odd) say(`  ${variant.label}, ${f.concurrency} at once, round ${r.round}: ${r.error ?? `${r.pagesFetched} distinct pages fetched${r.eachPageOnce ? '' : ' (not each once)'}, ${String(r.failures)} failed`}`);
  }

  // The profile: one extra zero-delay crawl, not counted in the medians.
  let profileReport: { file: string; busyMsPer1000Pages: number | null; top: TopFunction[]; topOwnByTotal: TopFunction[] } | null = null;
  if (options.profile) {
    const site = await startBenchSite(options.pages);
    try {
      log(`bench: --profile: one more Tabcrawl crawl of ${options.pages} pages (${perHostText(options.parallel)}) with the worker's CPU profiler on`);
      const run = await crawlWithTabcrawl({
        distDir,
        chromePath,
        settings: { startUrl: `${site.origin}/`, delayMs: 0, requestsPerHost: options.parallel, maxPages: Math.min(1_000_000, options.pages * 2 + 100), maxDepth: 1000 },
        sites: [site],
        measureCost: false,
        profile: true,
        sampleMemory: false,
        expectedRows: options.pages,
        timeLimitMs: pageTimeLimitMs(options.pages),
      });
      if (run.profile !== null) {
        const file = join(ROOT, '.tmp/bench/worker.cpuprofile');
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, JSON.stringify(run.profile));
        // The session's copy of the extension is gone with its profile; the source maps are the same in `distDir`.
        const top = topFunctions(run.profile, distDir, 15);
        const own = topOwnFunctions(run.profile, distDir, 15);
        profileReport = { file, busyMsPer1000Pages: rounded((busyMs(run.profile) / run.pages) * 1000, 0), top, topOwnByTotal: own };
        say('');
        say(`Worker CPU profile (${file}; ${perHostText(options.parallel)}; ${run.pages} pages at ${num(run.pages / (run.wallMs / 1000))} pages/s with the profiler on; busy ${num(profileReport.busyMsPer1000Pages ?? Number.NaN, 0)} ms per 1,000 pages): top 15 by self time`);
        say(table([['function', 'where', 'self ms', 'share'], ...top.map((f) => [f.functionName, f.location, num(f.selfMs, 0), `${num(f.share * 100, 1)} %`])]));
        say('');
        say("Tabcrawl's own functions (src/) by total time, callees included (synchronous stacks only: an await's continuation counts on its own)");
        say(table([['function', 'where', 'total ms', 'share'], ...own.map((f) => [f.functionName, f.location, num(f.selfMs, 0), `${num(f.share * 100, 1)} %`])]));
      }
    } finally {
      await site.close();
    }
  }

  // Part 2.
  let politeness: Record<string, unknown> | null = null;
  if (options.parts.has(2)) {
    const rounds = await politenessRounds(options, distDir, chromePath);
    const ideal = options.hosts / options.crawlDelaySeconds;
    const delayMs = options.crawlDelaySeconds * 1000;
    const violations = rounds.flatMap((r) => r.hosts.flatMap((h) => h.violations.map((gap) => ({ round: r.round, origin: h.origin, gapMs: rounded(gap, 1) }))));
    const minGaps = rounds[0]?.hosts.map((_, i) => Math.min(...rounds.map((r) => r.hosts[i]?.minGapMs ?? Number.NaN))) ?? [];
    politeness = {
      requestsPerHost: 1,
      hosts: options.hosts,
      pagesPerHost: options.hostPages,
      crawlDelaySeconds: options.crawlDelaySeconds,
      idealPagesPerSecond: ideal,
      pagesPerSecond: rounded(median(rounds.map((r) => r.pagesPerSecond))),
      ratioToIdeal: rounded(median(rounds.map((r) => r.ratioToIdeal)), 3),
      smallestGapMsPerHost: minGaps.map((gap) => rounded(gap, 1)),
      meanGapMs: rounded(median(rounds.flatMap((r) => r.hosts.map((h) => h.meanGapMs))), 1),
      // The mean gap split, medians over the rounds (see gapParts): the worker's own wait, the request's way to
      // the server, the response's way to the worker (its end time rounded up to the next ms included).
      meanGapSplitMs: {
        crawler: rounded(median(rounds.map((r) => r.gapSplit.crawlerGapMs)), 2),
        requestWay: rounded(median(rounds.map((r) => r.gapSplit.requestWayMs)), 2),
        responseWay: rounded(median(rounds.map((r) => r.gapSplit.responseWayMs)), 2),
      },
      violations,
      perRound: rounds.map((r) => ({
        round: r.round,
        state: r.state,
        seconds: rounded(r.wallMs / 1000),
        pages: r.pages,
        pagesPerSecond: rounded(r.pagesPerSecond),
        ratioToIdeal: rounded(r.ratioToIdeal, 3),
        otherProcessesCpuShare: rounded(r.otherCpuShare, 2),
        hosts: r.hosts.map((h) => ({ origin: h.origin, pages: h.pages, minGapMs: rounded(h.minGapMs, 1), meanGapMs: rounded(h.meanGapMs, 1), violations: h.violations.length, robots: h.robots, pagesPerSecond: rounded(h.pagesPerSecond, 2) })),
        gapSplitMs: { crawler: rounded(r.gapSplit.crawlerGapMs, 2), requestWay: rounded(r.gapSplit.requestWayMs, 2), responseWay: rounded(r.gapSplit.responseWayMs, 2) },
      })),
    };
    say('');
    say(`2. Politeness: ${options.hosts} hosts (ports) × ${options.hostPages} pages, each robots.txt Crawl-delay ${options.crawlDelaySeconds} s, all in scope, 1 request at once per host; ${options.rounds} round(s), medians`);
    say(
      table([
        ['pages/s achieved', num(median(rounds.map((r) => r.pagesPerSecond)))],
        ['ideal (hosts / Crawl-delay)', num(ideal)],
        ['ratio to the ideal (target ≥ 0.95)', num(median(rounds.map((r) => r.ratioToIdeal)), 3)],
        ['seconds', num(median(rounds.map((r) => r.wallMs / 1000)))],
        ['CPU used by other processes meanwhile', `${num(median(rounds.map((r) => r.otherCpuShare * 100)), 0)} % of ${os.cpus().length} cores`],
        ['pages fetched (server logs)', num(median(rounds.map((r) => r.pages)), 0)],
        [`smallest gap per host, ms (≥ ${delayMs} required)`, minGaps.map((gap) => num(gap, 1)).join(' ')],
        [`gaps under ${delayMs} ms (all rounds)`, String(violations.length)],
        ['mean gap (median over hosts and rounds), ms', num(median(rounds.flatMap((r) => r.hosts.map((h) => h.meanGapMs))), 1)],
        [
          '  = worker waits + request to server + response to worker, ms',
          [r2(rounds.map((r) => r.gapSplit.crawlerGapMs)), r2(rounds.map((r) => r.gapSplit.requestWayMs)), r2(rounds.map((r) => r.gapSplit.responseWayMs))].join(' + '),
        ],
        ['robots.txt per host (round 1)', [...new Set(rounds[0]?.hosts.map((h) => h.robots) ?? [])].join('; ')],
      ]),
    );
    for (const v of violations.slice(0, 20)) say(`  VIOLATION round ${v.round}: ${v.origin} gap ${num(v.gapMs ?? Number.NaN, 1)} ms`);
    if (violations.length > 20) say(`  … and ${violations.length - 20} more (in the JSON)`);
  }

  // Part 4.
  let part4: ResultsAndExport | null = null;
  if (options.parts.has(4)) {
    part4 = await resultsAndExport(distDir);
    say('');
    say('4. Results and export (npm run bench:results, npm run bench:export)');
    const rows: string[][] = [];
    if ('error' in part4.results) rows.push(['results: time to first rows', `failed: ${part4.results.error}`]);
    else rows.push(['results, 100,000 rows: open + first 50 rows', `${num(part4.results.firstRowsFirstMs ?? Number.NaN, 0)} ms first, ${num(part4.results.firstRowsMedianMs ?? Number.NaN, 0)} ms median`]);
    const e = part4.export;
    if ('error' in e) rows.push(['export: WACZ of 10,000 pages', `failed: ${String(e.error)}`]);
    else {
      rows.push(['export: crawl of 10,000 pages first', `${String(e['crawlSeconds'])} s (${String(e['crawlPagesPerSecond'])} pages/s)`]);
      rows.push(['export: WACZ of it', `${String(e['exportSeconds'])} s, ${String(e['fileMiB'])} MiB`]);
      rows.push(['export: browser memory before → peak', `${String(e['browserPssBeforeExportMiB'])} → ${String(e['browserPeakPssDuringExportMiB'])} MiB PSS`]);
    }
    say(table(rows));
  }

  machine.loadAverageAtEnd = rounded(os.loadavg()[0] ?? Number.NaN, 2);
  const header = [
    `Tabcrawl bench, ${startedAt.toISOString()}: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB, ${machine.chromium}, Node ${machine.node}`,
    `load average ${machine.loadAverageAtStart} at the start, ${machine.loadAverageAtEnd} at the end (above ~0.5 means other work shared the cores)`,
    '',
  ];
  process.stdout.write(`${[...header, ...out].join('\n')}\n`);

  const figures = {
    date: startedAt.toISOString(),
    machine,
    options: { ...options, parts: [...options.parts].sort() },
    throughput,
    politeness,
    costPerPage,
    ceiling,
    profile: profileReport,
    resultsAndExport: part4,
  };
  const file = options.outFile === null ? join(ROOT, '.tmp/bench', `bench-${dateStamp(startedAt)}.json`) : resolve(options.outFile);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  process.stdout.write(`\nfigures written to ${file}\n`);
}

const parsed = parseBenchArgs(process.argv.slice(2));
if (parsed.kind === 'help') {
  process.stdout.write(`${BENCH_USAGE}\n`);
} else if (parsed.kind === 'usage-error') {
  process.stderr.write(`bench: ${parsed.message}\n${BENCH_USAGE}\n`);
  process.exitCode = 2;
} else {
  try {
    await main(parsed.options);
  } catch (error) {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  }
}

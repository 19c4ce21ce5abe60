/**
 * Part 1 of `npm run bench`: throughput at delay 0. A generated site crawled
 * by Tabcrawl (`--parallel` requests at once per host) and by wget, in turn,
 * `--rounds` rounds, the order alternating; pages per second, their ratio
 * within each round, peak memory and CPU. The crawls also give part 3 its
 * figures (`part-cost.ts`).
 */
import os from 'node:os';
import type { LocalSite } from '../../src/shells/cli/local-site.ts';
import { startBenchSite } from './bench-sites.ts';
import { median, pagesRequested, robotsFirstAndOnce, rounded } from './bench-stats.ts';
import { log, MiB, num, perHostText, table, type BenchContext } from './bench-report.ts';
import { crawlWithTabcrawl, pageTimeLimitMs, type TabcrawlRun } from './tabcrawl-crawl.ts';
import { hasWget, runWget, WGET_INSTALL_HINT, type WgetRun } from './wget-crawl.ts';

export interface ThroughputRound {
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

async function throughputRounds({ options, distDir, chromePath }: BenchContext): Promise<ThroughputRound[]> {
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

/** Part 1's medians, for part 5's ratios: wget's pages/s (null when it did not run) and Tabcrawl's. */
export interface ThroughputRates {
  wget: number | null;
  tabcrawl: number;
}

/**
 * Runs part 1's crawls (also when only part 3 asks for them) and, when part 1 is asked for, reports it.
 * @returns the rounds (for part 3), part 1's figures for the JSON and its medians (null when part 1 is not asked for).
 */
export async function throughput(context: BenchContext): Promise<{ rounds: ThroughputRound[]; figures: Record<string, unknown> | null; rates: ThroughputRates | null }> {
  const { options, say } = context;
  let figures: Record<string, unknown> | null = null;
  let rates: ThroughputRates | null = null;
  const rounds = await throughputRounds(context);
  const tab = rounds.map((r) => r.tabcrawl);
  const tabRate = tab.map((t) => t.pages / (t.wallMs / 1000));
  const wgets = rounds.flatMap((r) => (r.wget === null ? [] : [r.wget]));
  const wgetRate = wgets.map((w) => w.pages / (w.wallMs / 1000));
  const ratios = rounds.flatMap((r) => (r.wget === null ? [] : [r.tabcrawl.pages / (r.tabcrawl.wallMs / 1000) / (r.wget.pages / (r.wget.wallMs / 1000))]));
  if (options.parts.has(1)) {
    rates = { wget: wgets.length === 0 ? null : median(wgetRate), tabcrawl: median(tabRate) };
    figures = {
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
    const w = figures['wget'] as { pagesPerSecond: number; seconds: number; pagesFetched: number; peakMemoryMiB: number; cpuMsPer1000Pages: number; samePagesAsTabcrawl: boolean } | null;
    const t = figures['tabcrawl'] as { pagesPerSecond: number; seconds: number; pagesFetched: number; peakMemoryMiB: number; idleMemoryMiB: number };
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
  return { rounds, figures, rates };
}

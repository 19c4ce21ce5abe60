/**
 * Part 1 of `npm run bench`: throughput at delay 0. A generated site whose
 * pages use page resources and link PDFs (`bench-sites.ts`), crawled by
 * Tabcrawl in several ways ({@link throughputVariants}: pages only or
 * archiving resources and files, at `--parallel` and, in the first
 * `--one-at-once-rounds` rounds, at 1 request at once per host) and by wget (pages only, and with `--page-requisites`), in turn,
 * `--rounds` rounds, the order alternating. Pages and requests per second,
 * each Tabcrawl way's ratio to the wget run that fetches the same URLs,
 * within each round, peak memory and CPU; and how each Tabcrawl way's rate
 * holds up as the crawl grows: pages/s over its first and its last segment
 * of pages (5,000 pages, or a tenth of the site's below 50,000), from the
 * arrival of each page request in the site's log, and last ÷ first
 * ({@link segmentRates}; the issue's goal: ≥ 0.9 on a 50,000-page site,
 * `--pages 50000 --parts 1,3 --rounds 1`). The same crawls give part 3 its
 * figures (`part-cost.ts`). With `--baseline-dist`, each Tabcrawl crawl also
 * runs with that other build, right next to it in the same round, the order
 * alternating ({@link buildOrderOfRound}), and part 1 adds each build's
 * pages/s and this ÷ baseline (`baseline-compare.ts`).
 */
import os from 'node:os';
import type { LocalSite } from '../../src/shells/cli/local-site.ts';
import type { CrawlSettings } from '../../src/core/settings.ts';
import {
  countServed,
  outboundLinksOf,
  outboundServed,
  resourceSiteCounts,
  SHARED_RESOURCES,
  startBenchSite,
  startOutboundSite,
  type Served,
} from './bench-sites.ts';
import {
  median,
  robotsFirstAndOnce,
  rounded,
  segmentPagesFor,
  segmentRates,
  type SegmentRates,
} from './bench-stats.ts';
import { log, MiB, num, perHostText, table, type BenchContext } from './bench-report.ts';
import {
  baselineTableRows,
  buildOrderOfRound,
  buildOrderText,
  compareToBaseline,
  type Build,
  type RoundPair,
} from './baseline-compare.ts';
import { crawlWithTabcrawl, pageTimeLimitMs, type TabcrawlRun } from './tabcrawl-crawl.ts';
import {
  hasWget,
  runWget,
  WGET_INSTALL_HINT,
  WGET_PAGE_REQUISITES,
  WGET_PAGES_ONLY,
  type WgetRun,
} from './wget-crawl.ts';

/** One way Tabcrawl crawls part 1's site. */
export interface ThroughputVariant {
  /** `pages-8`, `archive-1`…: what it archives, and its requests at once per host. */
  id: string;
  /**
   * Archives page resources and linked files (`archiveResources`, `downloadFiles`: the defaults), or
   * pages only (both off: `--no-resources --no-files`, what a crawl did before resources were archived).
   */
  archive: boolean;
  requestsPerHost: number;
}

/** Which wget run fetches the same URLs as a Tabcrawl way: pages only, or pages and their requisites. */
export type WgetVariant = 'pagesOnly' | 'pageRequisites';

export const wgetPeerOf = (variant: ThroughputVariant): WgetVariant =>
  variant.archive ? 'pageRequisites' : 'pagesOnly';

/**
 * The ways part 1's Tabcrawl crawls the site, in the order they run in a round: pages only at `parallel`
 * first (the figure part 1 gave before resources were archived), then archiving at `parallel`, then both
 * at 1 request at once per host. Without `resources`, pages only; without `oneAtOnce` (only part 3 asked
 * for), at `parallel` only; `parallel` 1 gives each way once.
 */
export function throughputVariants(
  parallel: number,
  options: { resources: boolean; oneAtOnce: boolean },
): ThroughputVariant[] {
  const perHost = options.oneAtOnce ? [...new Set([parallel, 1])] : [parallel];
  const archives = options.resources ? [false, true] : [false];
  return perHost.flatMap((requestsPerHost) =>
    archives.map((archive) => ({
      id: `${archive ? 'archive' : 'pages'}-${requestsPerHost}`,
      archive,
      requestsPerHost,
    })),
  );
}

/** `pages only, 8 at once`, `with resources and files, 1 at once`. */
export const variantLabel = (variant: ThroughputVariant): string =>
  `${variant.archive ? 'with resources and files' : 'pages only'}, ${variant.requestsPerHost} at once`;

/** What one run served and how long it took. */
interface Rate {
  wallMs: number;
  served: Served;
}
const pagesPerSecond = (run: Rate): number => run.served.distinct.page / (run.wallMs / 1000);
const requestsPerSecond = (run: Rate): number => run.served.requests / (run.wallMs / 1000);

/** A wget run of part 1 with what the site's log says it fetched. */
interface WgetOutcome extends WgetRun {
  served: Served;
  /** Distinct paths it requested (robots.txt left out), to compare with Tabcrawl's. */
  paths: Set<string>;
  robots: string;
  /** What it asked the outbound site (wget follows a link to another port of the same host name). */
  outbound: ReturnType<typeof outboundServed>;
}

export interface ThroughputRound {
  round: number;
  order: string;
  /** By variant id. */
  tabcrawl: Map<
    string,
    { run: TabcrawlRun; paths: Set<string>; robots: string; outbound: ReturnType<typeof outboundServed> }
  >;
  wget: Map<WgetVariant, WgetOutcome>;
  /** The `--baseline-dist` build's crawls, by variant id (empty without that option). */
  baseline: Map<string, TabcrawlRun>;
}

/** robots.txt first and once, and how many disallowed URLs were requested. */
function robotsVerdict(site: LocalSite): string {
  const { isFirst, count } = robotsFirstAndOnce(site.requests);
  const served = countServed([site.requests]);
  return `${isFirst ? 'first' : 'NOT first'}, ${count}×; ${served.distinct.disallowed} disallowed requested`;
}

const pathsOf = (site: LocalSite): Set<string> =>
  new Set(site.requests.map((r) => r.url).filter((url) => url !== '/robots.txt'));

/** The settings of a Tabcrawl way: delay 0, no page limit to speak of, resources unbounded when archiving. */
export function throughputSettings(
  startUrl: string,
  pages: number,
  variant: ThroughputVariant,
): Partial<CrawlSettings> & { startUrl: string } {
  return {
    startUrl,
    delayMs: 0,
    requestsPerHost: variant.requestsPerHost,
    maxPages: Math.min(1_000_000, pages * 2 + 100),
    maxDepth: 1000,
    archiveResources: variant.archive,
    downloadFiles: variant.archive,
    // The default (10,000) would cut a 10,000-page site's resources short.
    maxResources: 1_000_000,
  };
}

async function throughputRounds(
  { options, distDir, baselineDistDir, chromePath }: BenchContext,
  variants: readonly ThroughputVariant[],
  withWget: boolean,
): Promise<ThroughputRound[]> {
  // Every page also links to another host, whose links Tabcrawl checks (HEAD, robots.txt first) as a crawl does by default.
  // Named `localhost`: wget, recursive, would follow links to another port of 127.0.0.1 (the same host name to it).
  const outbound = await startOutboundSite();
  const outboundOrigin = `http://localhost:${new URL(outbound.origin).port}`;
  const site = await startBenchSite(options.pages, { resources: true, outboundOrigin }).catch(
    async (error: unknown) => {
      await outbound.close();
      throw error;
    },
  );
  const startUrl = `${site.origin}/`;
  const expected = { ...resourceSiteCounts(options.pages), outbound: outboundLinksOf(options.pages) };
  const wgetVariants = [...new Set(variants.map(wgetPeerOf))];
  const rounds: ThroughputRound[] = [];
  const distDirOf = (build: Build): string =>
    build === 'baseline' && baselineDistDir !== null ? baselineDistDir : distDir;
  try {
    for (let round = 1; round <= options.rounds; round++) {
      const wgetFirst = round % 2 === 0;
      const tabcrawl: ThroughputRound['tabcrawl'] = new Map();
      const wget: ThroughputRound['wget'] = new Map();
      const baseline: ThroughputRound['baseline'] = new Map();
      // With a baseline, each crawl runs with both builds back to back, this build first in odd rounds.
      const builds: readonly Build[] = baselineDistDir === null ? ['this'] : buildOrderOfRound(round);
      const runTabcrawl = async (): Promise<void> => {
        // The crawls at 1 request at once per host (the slowest) run in the first --one-at-once-rounds rounds only.
        for (const variant of variants.filter(
          (v) => v.requestsPerHost === options.parallel || round <= options.oneAtOnceRounds,
        )) {
          const expectedRows =
            (variant.archive
              ? expected.pages + expected.resources + expected.files + expected.disallowedResources
              : expected.pages + expected.files) + expected.outbound;
          for (const build of builds) {
            log(
              `bench: part 1, round ${round}: Tabcrawl${build === 'baseline' ? ' (the baseline build)' : ''} crawls ${options.pages} pages at delay 0, ${perHostText(variant.requestsPerHost)}, ${variant.archive ? 'archiving resources and files' : 'pages only'}`,
            );
            outbound.requests.length = 0;
            // Both builds crawl the same way, measured the same way: only the extension's folder differs.
            const run = await crawlWithTabcrawl({
              distDir: distDirOf(build),
              chromePath,
              settings: throughputSettings(startUrl, options.pages, variant),
              sites: [site],
              // Part 3's figures: the worker's heap and the IndexedDB folder every tenth of the crawl, at each setting.
              measureCost: options.parts.has(3),
              profile: false,
              sampleMemory: true,
              expectedRows,
              timeLimitMs: pageTimeLimitMs(expectedRows),
            });
            if (build === 'baseline') baseline.set(variant.id, run);
            else
              tabcrawl.set(variant.id, {
                run,
                paths: pathsOf(site),
                robots: robotsVerdict(site),
                outbound: outboundServed(outbound),
              });
          }
        }
      };
      const runWgets = async (): Promise<void> => {
        if (!withWget) return;
        for (const variant of wgetVariants) {
          log(
            `bench: part 1, round ${round}: wget crawls the same site, ${variant === 'pagesOnly' ? 'pages only' : '--page-requisites'}`,
          );
          site.requests.length = 0;
          outbound.requests.length = 0;
          const run = await runWget(startUrl, variant === 'pagesOnly' ? WGET_PAGES_ONLY : WGET_PAGE_REQUISITES);
          wget.set(variant, {
            ...run,
            served: countServed([site.requests]),
            paths: pathsOf(site),
            robots: robotsVerdict(site),
            outbound: outboundServed(outbound),
          });
        }
      };
      if (wgetFirst) {
        await runWgets();
        await runTabcrawl();
      } else {
        await runTabcrawl();
        await runWgets();
      }
      rounds.push({ round, order: wgetFirst ? 'wget, Tabcrawl' : 'Tabcrawl, wget', tabcrawl, wget, baseline });
    }
  } finally {
    await site.close();
    await outbound.close();
  }
  return rounds;
}

/** Part 1's medians, for part 5's ratios: wget's pages/s, pages only (null when it did not run), and Tabcrawl's, pages only at `--parallel`. */
export interface ThroughputRates {
  wget: number | null;
  tabcrawl: number;
  /** Tabcrawl's pages only at 1 request at once per host (null when that way did not run). */
  tabcrawlOneAtOnce: number | null;
  /** CPU of all the browser's processes per page fetched, in ms (medians), pages only at `--parallel`; at 1 at once. */
  tabcrawlCpuMsPerPage: number;
  tabcrawlOneAtOnceCpuMsPerPage: number | null;
}

const sameUrls = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean =>
  a.size === b.size && [...a].every((path) => b.has(path));

/** CPU time of all the browser's processes (the worker's thread is inside one of them), in ms. */
const browserCpuMsOf = (run: TabcrawlRun): number =>
  Object.entries(run.cpuMs).reduce((sum, [kind, ms]) => sum + (kind === 'serviceWorker' ? 0 : ms), 0);
const cpuMsPerPage = (run: TabcrawlRun): number => browserCpuMsOf(run) / run.served.distinct.page;

/** The ratio of a Tabcrawl way's pages/s to its wget peer's in each round that ran both. */
function ratiosToWget(rounds: readonly ThroughputRound[], variant: ThroughputVariant): number[] {
  return rounds.flatMap((r) => {
    const tab = r.tabcrawl.get(variant.id);
    const peer = r.wget.get(wgetPeerOf(variant));
    return tab === undefined || peer === undefined ? [] : [pagesPerSecond(tab.run) / pagesPerSecond(peer)];
  });
}

/** Each round's pages/s of both builds, by variant, for the ways both crawled in it (none without `--baseline-dist`). */
function roundPairs(rounds: readonly ThroughputRound[]): RoundPair[] {
  return rounds.map((r) => ({
    round: r.round,
    pagesPerSecond: new Map(
      [...r.baseline.entries()].flatMap(([id, base]) => {
        const own = r.tabcrawl.get(id);
        return own === undefined
          ? []
          : [[id, { this: pagesPerSecond(own.run), baseline: pagesPerSecond(base) }] as const];
      }),
    ),
  }));
}

/** Part 1's figures against the baseline build, for the JSON: each way's pages/s of both builds and this ÷ baseline, and each round's. */
function baselineFigures(
  baselineDistDir: string,
  variants: readonly ThroughputVariant[],
  rounds: readonly ThroughputRound[],
) {
  const pairs = roundPairs(rounds);
  return {
    distDir: baselineDistDir,
    variants: compareToBaseline(
      variants.map((v) => ({ id: v.id, label: variantLabel(v) })),
      pairs,
    ),
    perRound: rounds.map((r) => ({
      round: r.round,
      order: buildOrderText(r.round),
      variants: [...r.baseline.entries()].map(([id, base]) => {
        const pair = pairs.find((p) => p.round === r.round)?.pagesPerSecond.get(id);
        return {
          id,
          pagesPerSecond: pair === undefined ? null : rounded(pair.this),
          baselinePagesPerSecond: rounded(pagesPerSecond(base)),
          ratioToBaseline: pair === undefined ? null : rounded(pair.this / pair.baseline, 3),
          baselineState: base.state,
          baselinePagesFetched: base.served.distinct.page,
          baselineRowsStored: base.rowsStored,
        };
      }),
    })),
  };
}

/** The Tabcrawl crawls of one way of part 1, for part 3 (which measured their cost when it was asked for). */
export interface VariantRuns {
  variant: ThroughputVariant;
  runs: TabcrawlRun[];
}

/** How a run's rate held up: pages/s over its first and last segment of pages (see {@link segmentPagesFor}) and their ratio. */
export const rateHoldsUp = (run: TabcrawlRun, sitePages: number): SegmentRates =>
  segmentRates(run.pageArrivalsMs, segmentPagesFor(sitePages));

/**
 * Runs part 1's crawls (also when only part 3 asks for them) and, when part 1 is asked for, reports it.
 * @returns the Tabcrawl runs of each way that ran, in the order of {@link throughputVariants} (part 3 sums
 *   them up), part 1's figures for the JSON and its medians (null when part 1 is not asked for).
 */
export async function throughput(context: BenchContext): Promise<{
  costRuns: VariantRuns[];
  figures: Record<string, unknown> | null;
  rates: ThroughputRates | null;
}> {
  const { options, say } = context;
  const isReported = options.parts.has(1);
  const withWget = isReported && hasWget();
  if (isReported && !withWget) log(`bench: ${WGET_INSTALL_HINT}`);
  const variants = throughputVariants(options.parallel, {
    resources: options.resources,
    oneAtOnce: isReported && options.oneAtOnceRounds > 0,
  });
  const rounds = await throughputRounds(context, variants, withWget);
  const runsOf = (variant: ThroughputVariant | undefined): TabcrawlRun[] =>
    variant === undefined ? [] : rounds.flatMap((r) => r.tabcrawl.get(variant.id)?.run ?? []);
  const atParallel = (archive: boolean): ThroughputVariant | undefined =>
    variants.find((v) => v.archive === archive && v.requestsPerHost === options.parallel);
  const costRuns = variants.map((variant) => ({ variant, runs: runsOf(variant) })).filter((v) => v.runs.length > 0);
  if (!isReported) return { costRuns, figures: null, rates: null };
  const segmentPages = segmentPagesFor(options.pages);
  const holdsUp = (run: TabcrawlRun): SegmentRates => rateHoldsUp(run, options.pages);

  const expected = { ...resourceSiteCounts(options.pages), outbound: outboundLinksOf(options.pages) };
  const wgetVariants = [...new Set(variants.map(wgetPeerOf))];
  const wgetRuns = (variant: WgetVariant): WgetOutcome[] => rounds.flatMap((r) => r.wget.get(variant) ?? []);
  const served = (runs: readonly Rate[], pick: (s: Served) => number): number =>
    median(runs.map((run) => pick(run.served)));

  const tabcrawlFigures = variants.map((variant) => {
    const runs = runsOf(variant);
    const ratios = ratiosToWget(rounds, variant);
    return {
      id: variant.id,
      label: variantLabel(variant),
      archiveResources: variant.archive,
      downloadFiles: variant.archive,
      requestsPerHost: variant.requestsPerHost,
      // Rounds it ran in (at 1 request at once per host: the first --one-at-once-rounds).
      crawls: runs.length,
      pagesPerSecond: rounded(median(runs.map(pagesPerSecond))),
      requestsPerSecond: rounded(median(runs.map(requestsPerSecond))),
      seconds: rounded(median(runs.map((t) => t.wallMs / 1000))),
      // From the last response to the crawl's end: its own end (the kept links added to their rows).
      endSeconds: rounded(median(runs.map((t) => t.endAfterLastResponseMs / 1000)), 1),
      pagesFetched: served(runs, (s) => s.distinct.page),
      resourcesFetched: served(runs, (s) => s.distinct.resource),
      filesFetched: served(runs, (s) => s.distinct.file),
      requests: served(runs, (s) => s.requests),
      repeatedRequests: served(runs, (s) => s.repeated),
      disallowedRequested: served(runs, (s) => s.distinct.disallowed),
      // Links to the other host checked (of expected.outbound), and that host's robots.txt first and once in every crawl.
      outboundChecked: median(rounds.flatMap((r) => r.tabcrawl.get(variant.id)?.outbound.checked ?? [])),
      outboundRobotsFirstAndOnce: rounds.every((r) => {
        const o = r.tabcrawl.get(variant.id)?.outbound;
        return o === undefined || (o.robotsFirst && o.robotsCount === 1);
      }),
      rowsStored: median(runs.map((t) => t.rowsStored)),
      resourceRows: median(runs.map((t) => t.resourceRows)),
      fileRows: median(runs.map((t) => t.fileRows)),
      peakMemoryMiB: rounded(median(runs.map((t) => t.peakPssBytes / MiB)), 0),
      idleMemoryMiB: rounded(median(runs.map((t) => t.idlePssBytes / MiB)), 0),
      memoryKind: 'PSS of all the browser processes',
      cpuMsPer1000Pages: rounded(median(runs.map((t) => (browserCpuMsOf(t) / t.served.distinct.page) * 1000)), 0),
      cpuMsPer1000Requests: rounded(median(runs.map((t) => (browserCpuMsOf(t) / t.served.requests) * 1000)), 0),
      otherProcessesCpuShare: rounded(median(runs.map((t) => t.otherCpuShare)), 2),
      // Pages/s over the crawl's first and last segment of pages, from their arrivals in the site's log; the ratio's median is of each crawl's ratio.
      rateHoldsUp: {
        segmentPages,
        firstSegmentPagesPerSecond: rounded(median(runs.map((t) => holdsUp(t).firstPagesPerSecond))),
        lastSegmentPagesPerSecond: rounded(median(runs.map((t) => holdsUp(t).lastPagesPerSecond))),
        lastOverFirst: rounded(median(runs.map((t) => holdsUp(t).lastOverFirst)), 3),
      },
      wgetPeer: wgetPeerOf(variant),
      ratioToWget: ratios.length === 0 ? null : rounded(median(ratios), 3),
    };
  });
  const wgetFigures = Object.fromEntries(
    wgetVariants.map((variant) => {
      const runs = wgetRuns(variant);
      // The Tabcrawl way at --parallel that archives what this wget run fetches: the same URLs, round by round.
      const peer = variants.find((v) => wgetPeerOf(v) === variant && v.requestsPerHost === options.parallel);
      const same = rounds.every((r) => {
        const w = r.wget.get(variant);
        const t = peer === undefined ? undefined : r.tabcrawl.get(peer.id);
        return w === undefined || t === undefined || sameUrls(w.paths, t.paths);
      });
      return [
        variant,
        runs.length === 0
          ? null
          : {
              args: variant === 'pagesOnly' ? WGET_PAGES_ONLY : WGET_PAGE_REQUISITES,
              pagesPerSecond: rounded(median(runs.map(pagesPerSecond))),
              requestsPerSecond: rounded(median(runs.map(requestsPerSecond))),
              seconds: rounded(median(runs.map((w) => w.wallMs / 1000)), 2),
              pagesFetched: served(runs, (s) => s.distinct.page),
              resourcesFetched: served(runs, (s) => s.distinct.resource),
              filesFetched: served(runs, (s) => s.distinct.file),
              requests: served(runs, (s) => s.requests),
              disallowedRequested: served(runs, (s) => s.distinct.disallowed),
              outboundRequested: median(runs.map((w) => w.outbound.checked)),
              peakMemoryMiB: rounded(median(runs.map((w) => w.peakRssBytes / MiB)), 1),
              memoryKind: 'peak RSS (VmHWM)',
              cpuMsPer1000Pages: rounded(median(runs.map((w) => (w.cpuMs / w.served.distinct.page) * 1000)), 0),
              cpuMsPer1000Requests: rounded(median(runs.map((w) => (w.cpuMs / w.served.requests) * 1000)), 0),
              sameUrlsAsTabcrawl: same,
            },
      ];
    }),
  ) as Partial<Record<WgetVariant, Record<string, unknown> | null>>;

  // What archiving costs: pages/s archiving ÷ pages only, at the same requests per host, within each round.
  const archiveCost = [...new Set(variants.map((v) => v.requestsPerHost))].flatMap((requestsPerHost) => {
    const on = variants.find((v) => v.archive && v.requestsPerHost === requestsPerHost);
    const off = variants.find((v) => !v.archive && v.requestsPerHost === requestsPerHost);
    if (on === undefined || off === undefined) return [];
    const ratios = rounds.flatMap((r) => {
      const a = r.tabcrawl.get(on.id);
      const b = r.tabcrawl.get(off.id);
      return a === undefined || b === undefined ? [] : [pagesPerSecond(a.run) / pagesPerSecond(b.run)];
    });
    return [{ requestsPerHost, pagesPerSecondRatio: rounded(median(ratios), 3) }];
  });

  const pagesOnlyAtParallel = atParallel(false);
  const historic = pagesOnlyAtParallel === undefined ? [] : ratiosToWget(rounds, pagesOnlyAtParallel);
  const archiveAtParallel = atParallel(true);
  const withResources = archiveAtParallel === undefined ? [] : ratiosToWget(rounds, archiveAtParallel);
  const pagesOnlyWget = wgetRuns('pagesOnly');
  const rates: ThroughputRates = {
    wget: pagesOnlyWget.length === 0 ? null : median(pagesOnlyWget.map(pagesPerSecond)),
    tabcrawl: median(runsOf(pagesOnlyAtParallel).map(pagesPerSecond)),
    tabcrawlOneAtOnce: ((runs) => (runs.length === 0 ? null : median(runs.map(pagesPerSecond))))(
      runsOf(variants.find((v) => !v.archive && v.requestsPerHost === 1)),
    ),
    tabcrawlCpuMsPerPage: median(runsOf(pagesOnlyAtParallel).map(cpuMsPerPage)),
    tabcrawlOneAtOnceCpuMsPerPage: ((runs) => (runs.length === 0 ? null : median(runs.map(cpuMsPerPage))))(
      runsOf(variants.find((v) => !v.archive && v.requestsPerHost === 1)),
    ),
  };
  const baseline = context.baselineDistDir === null ? null : baselineFigures(context.baselineDistDir, variants, rounds);
  const figures = {
    pages: options.pages,
    rounds: options.rounds,
    oneAtOnceRounds: variants.some((v) => v.requestsPerHost !== options.parallel) ? options.oneAtOnceRounds : 0,
    site: {
      description: options.resources
        ? 'generated pages of ~8.5 KB with 12 links each, each using 7 shared resources (a stylesheet that @imports another and loads a font and a background image, a script, two images) and an image of its own; every 50th page links a PDF; all on one host; and each page links to one of 100 URLs of another host (one in ten a 404)'
        : 'the same site, crawled pages only (--no-resources), with its links to 100 URLs of another host',
      sharedResources: Object.keys(SHARED_RESOURCES),
      expected,
    },
    variants: tabcrawlFigures,
    // Only with --baseline-dist: the same crawls by another build, round by round.
    ...(baseline === null ? {} : { baseline }),
    wget: withWget ? wgetFigures : null,
    // Pages only at --parallel ÷ wget pages only: the ratio part 1 gave before resources were archived.
    ratioTabcrawlToWget: historic.length === 0 ? null : rounded(median(historic), 3),
    // Archiving at --parallel ÷ wget --page-requisites: the same URLs fetched by both.
    ratioWithResourcesToWget: withResources.length === 0 ? null : rounded(median(withResources), 3),
    archiveCost,
    perRound: rounds.map((r) => ({
      round: r.round,
      order: r.order,
      tabcrawl: variants.flatMap((variant) => {
        const entry = r.tabcrawl.get(variant.id);
        if (entry === undefined) return [];
        const { run } = entry;
        return [
          {
            id: variant.id,
            state: run.state,
            pagesPerSecond: rounded(pagesPerSecond(run)),
            requestsPerSecond: rounded(requestsPerSecond(run)),
            rateHoldsUp: {
              firstSegmentPagesPerSecond: rounded(holdsUp(run).firstPagesPerSecond),
              lastSegmentPagesPerSecond: rounded(holdsUp(run).lastPagesPerSecond),
              lastOverFirst: rounded(holdsUp(run).lastOverFirst, 3),
            },
            served: run.served,
            rowsStored: run.rowsStored,
            resourceRows: run.resourceRows,
            fileRows: run.fileRows,
            peakMiB: rounded(run.peakPssBytes / MiB, 0),
            otherProcessesCpuShare: rounded(run.otherCpuShare, 2),
            robots: entry.robots,
          },
        ];
      }),
      wget: [...r.wget.entries()].map(([variant, w]) => ({
        variant,
        pagesPerSecond: rounded(pagesPerSecond(w)),
        requestsPerSecond: rounded(requestsPerSecond(w)),
        served: w.served,
        peakMiB: rounded(w.peakRssBytes / MiB, 1),
        exitCode: w.exitCode,
        robots: w.robots,
      })),
    })),
  };

  const oneAtOnceText = variants.some((v) => v.requestsPerHost !== options.parallel)
    ? ` (at 1 request at once per host: the first ${options.oneAtOnceRounds})`
    : '';
  say(
    `1. Throughput at delay 0: a generated site of ${options.pages.toLocaleString('en-US')} pages (~8.5 KB, 12 links each), ${options.rounds} round(s)${oneAtOnceText}, order alternating; medians`,
  );
  if (options.resources) {
    say(
      `   each page uses 7 shared resources (2 stylesheets, a font, a script, 3 images) and an image of its own; every 50th page links a PDF: ${(expected.pages + expected.resources + expected.files).toLocaleString('en-US')} URLs in all`,
    );
    say(
      '   Tabcrawl at delay 0 (no Crawl-delay): pages only (--no-resources --no-files) or archiving resources and files (the defaults);',
    );
    say(
      '   wget one request at a time: pages only (-X /res,/img) or --page-requisites; ÷ wget: pages/s over the wget run that fetched the same URLs',
    );
  } else {
    say(
      '   Tabcrawl at delay 0 (no Crawl-delay), pages only (--no-resources --no-files); wget one request at a time, pages only (-X /res,/img)',
    );
  }
  const rows: string[][] = [
    [
      '',
      'pages/s',
      'requests/s',
      'seconds',
      'pages',
      'resources',
      'files',
      '÷ wget',
      'peak memory',
      'CPU ms / 1,000 requests',
    ],
  ];
  for (const f of tabcrawlFigures) {
    rows.push([
      `Tabcrawl, ${f.label}`,
      num(f.pagesPerSecond ?? Number.NaN),
      num(f.requestsPerSecond ?? Number.NaN),
      num(f.seconds ?? Number.NaN),
      num(f.pagesFetched, 0),
      num(f.resourcesFetched, 0),
      num(f.filesFetched, 0),
      f.ratioToWget === null ? 'n/a' : num(f.ratioToWget, 3),
      `${num(f.peakMemoryMiB ?? Number.NaN, 0)} MiB PSS`,
      num(f.cpuMsPer1000Requests ?? Number.NaN, 0),
    ]);
  }
  for (const variant of wgetVariants) {
    const w = withWget
      ? (wgetFigures[variant] as
          | {
              pagesPerSecond: number;
              requestsPerSecond: number;
              seconds: number;
              pagesFetched: number;
              resourcesFetched: number;
              filesFetched: number;
              peakMemoryMiB: number;
              cpuMsPer1000Requests: number;
              sameUrlsAsTabcrawl: boolean;
            }
          | null
          | undefined)
      : null;
    const name = variant === 'pagesOnly' ? 'wget, pages only' : 'wget --page-requisites';
    if (w === null || w === undefined) {
      rows.push([name, 'skipped', '', '', '', '', '', '', '', '']);
      continue;
    }
    rows.push([
      `${name}${w.sameUrlsAsTabcrawl ? '' : ' (URLs DIFFER from Tabcrawl)'}`,
      num(w.pagesPerSecond),
      num(w.requestsPerSecond),
      num(w.seconds, 2),
      num(w.pagesFetched, 0),
      num(w.resourcesFetched, 0),
      num(w.filesFetched, 0),
      '',
      `${num(w.peakMemoryMiB, 1)} MiB RSS`,
      num(w.cpuMsPer1000Requests, 0),
    ]);
  }
  say(table(rows));
  if (baseline !== null) {
    say(
      `  against the baseline build ${baseline.distDir}: the same crawls, each right next to this build's in the same round, the order alternating (round 1: this build first);`,
    );
    say('  this ÷ baseline: the median of the ratios of pages/s within each round (above 1: this build is faster)');
    say(table(baselineTableRows(baseline.variants, num)));
  }
  const outboundText = tabcrawlFigures
    .map(
      (f) =>
        `${f.label}: ${num(f.outboundChecked, 0)} of ${expected.outbound}${f.outboundRobotsFirstAndOnce ? '' : ' (its robots.txt NOT first and once)'}`,
    )
    .join('; ');
  say(
    `  the crawl's own end, from its last response to its end (the links it kept added to their rows): ${tabcrawlFigures.map((f) => `${f.label}: ${num(f.endSeconds ?? Number.NaN, 1)} s`).join('; ')}`,
  );
  say(
    `  links to another host checked by each Tabcrawl crawl (HEAD, that host's robots.txt first and once), in the same crawl: ${outboundText}`,
  );
  const segment = segmentPages.toLocaleString('en-US');
  say(
    `  how the rate holds up as the crawl grows: pages/s over the first and the last ${segment} pages (${segmentPages === options.pages / 10 ? 'a tenth of the site' : 'segments of 5,000 pages'}), from each page request's arrival in the site's log; goal on 50,000 pages: last ÷ first ≥ 0.9`,
  );
  say(
    table([
      [
        '',
        `first ${segment} pages, pages/s`,
        `last ${segment} pages, pages/s`,
        `rate over the last ${segment} pages ÷ first ${segment}`,
      ],
      ...tabcrawlFigures.map((f) => [
        `Tabcrawl, ${f.label}`,
        num(f.rateHoldsUp.firstSegmentPagesPerSecond ?? Number.NaN),
        num(f.rateHoldsUp.lastSegmentPagesPerSecond ?? Number.NaN),
        num(f.rateHoldsUp.lastOverFirst ?? Number.NaN, 3),
      ]),
    ]),
  );
  const idle = median(rounds.flatMap((r) => [...r.tabcrawl.values()].map((t) => t.run.idlePssBytes / MiB)));
  const other = median(rounds.flatMap((r) => [...r.tabcrawl.values()].map((t) => t.run.otherCpuShare * 100)));
  say(
    `  browser idle before each crawl: ${num(idle, 0)} MiB PSS; CPU used by other processes during Tabcrawl's crawls: ${num(other, 0)} % of ${os.cpus().length} cores`,
  );
  for (const cost of archiveCost)
    say(
      `  archiving resources and files, ${perHostText(cost.requestsPerHost)}: pages/s ${num(cost.pagesPerSecondRatio ?? Number.NaN, 3)} of pages only`,
    );
  for (const r of rounds) {
    const tab = variants.flatMap((v) => {
      const entry = r.tabcrawl.get(v.id);
      return entry === undefined
        ? []
        : [`${v.id} ${entry.robots}${entry.run.served.repeated > 0 ? `, ${entry.run.served.repeated} repeated` : ''}`];
    });
    const wget = [...r.wget.entries()].map(([v, w]) => `${v} ${w.robots}`);
    say(
      `  round ${r.round} (${r.order}): robots.txt for Tabcrawl ${tab.join('; ')}${wget.length === 0 ? '' : `; for wget ${wget.join('; ')}`}`,
    );
  }
  return { costRuns, figures, rates };
}

/**
 * Part 5 of `npm run bench`: the platform ceiling (see `ceiling.ts`), run
 * over the pages of part 1's site and reported next to wget's pages per
 * second: part 1's median when part 1 ran with wget, else one wget run here.
 */
import { countServed, startBenchSite } from './bench-sites.ts';
import { availableParallelism } from 'node:os';
import { cpuBound, rounded } from './bench-stats.ts';
import { log, num, perHostText, table, type BenchContext } from './bench-report.ts';
import {
  CEILING_EXPLANATION,
  CEILING_FETCH_OPTIONS,
  CEILING_LOOPS,
  CEILING_VARIANTS,
  measureCeiling,
  summariseCeiling,
} from './ceiling.ts';
import type { ThroughputRates } from './part-throughput.ts';
import { hasWget, runWget, WGET_INSTALL_HINT, WGET_PAGES_ONLY } from './wget-crawl.ts';

/**
 * A fetch-only loop in the worker of four extensions, and a minimal storing loop in the worker of the
 * third one (see `ceiling.ts`), over the pages of part 1's site, at 1 and `--parallel` at once, next to
 * wget pages only: part 1's median when part 1 ran with wget, else one wget run of the same site here.
 */
async function platformCeiling(
  { options, distDir, chromePath }: BenchContext,
  part1: ThroughputRates | null,
): Promise<Record<string, unknown>> {
  // Part 1's site; the loops fetch its pages only.
  const site = await startBenchSite(options.pages, { resources: true });
  try {
    let wget: { pagesPerSecond: number | null; source: string } | null = null;
    if (part1?.wget != null)
      wget = { pagesPerSecond: rounded(part1.wget), source: `part 1, median of ${options.rounds}` };
    else if (hasWget()) {
      log(`bench: part 5: wget crawls the same site once, for the ratios`);
      const run = await runWget(`${site.origin}/`, WGET_PAGES_ONLY);
      const pages = countServed([site.requests]).distinct.page;
      wget = { pagesPerSecond: rounded(pages / (run.wallMs / 1000)), source: 'one run in part 5' };
    } else if (!options.parts.has(1)) log(`bench: ${WGET_INSTALL_HINT}`);
    const concurrencies = [...new Set([1, options.parallel])];
    const runs = await measureCeiling({
      site,
      pages: options.pages,
      concurrencies,
      rounds: options.rounds,
      distDir,
      chromePath,
      log,
    });
    const variants = summariseCeiling(runs, concurrencies, wget?.pagesPerSecond ?? null);
    const own = variants.tabcrawl.runs.find((f) => f.concurrency === options.parallel)?.pagesPerSecond ?? null;
    const minimalStore =
      variants.minimalStore.runs.find((f) => f.concurrency === options.parallel)?.pagesPerSecond ?? null;
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
      tabcrawlCrawlShareOfMinimalStore:
        part1 === null || minimalStore === null ? null : rounded(part1.tabcrawl / minimalStore, 3),
      // Part 1's pages-only crawl at 1 request at once per host over (e) at 1 at once (the issue's goal: 0.8).
      tabcrawlOneAtOnceShareOfMinimalStore: ((one, store) =>
        one === null || store === null ? null : rounded(one / store, 3))(
        part1?.tabcrawlOneAtOnce ?? null,
        variants.minimalStore.runs.find((f) => f.concurrency === 1)?.pagesPerSecond ?? null,
      ),
      // Tabcrawl's CPU per page (part 1, pages only) against (e)'s at each concurrency: the rate that CPU allows
      // were every core busy, its share of (e), and the CPU per page 0.8 of (e) would allow.
      cpuBounds: part1 === null ? null : cpuBoundsOf(part1, variants, concurrencies, options.parallel),
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

/** The issue's goal for Tabcrawl's rate: this share of (e)'s. */
const GOAL_OF_MINIMAL_STORE = 0.8;

interface CpuBoundFigure {
  concurrency: number;
  minimalStoreCpuMsPerPage: number | null;
  tabcrawlCpuMsPerPage: number;
  tabcrawlPagesPerSecondIfEveryCoreBusy: number | null;
  shareOfMinimalStore: number | null;
  cpuMsPerPageForGoal: number | null;
}

/** Tabcrawl's CPU per page (part 1, pages only) against (e)'s and the bound it puts on the rate, at 1 and at `parallel`. */
function cpuBoundsOf(
  part1: ThroughputRates,
  variants: ReturnType<typeof summariseCeiling>,
  concurrencies: readonly number[],
  parallel: number,
): CpuBoundFigure[] {
  const cores = availableParallelism();
  return concurrencies.flatMap((concurrency) => {
    const tabcrawl =
      concurrency === parallel
        ? part1.tabcrawlCpuMsPerPage
        : concurrency === 1
          ? part1.tabcrawlOneAtOnceCpuMsPerPage
          : null;
    const store = variants.minimalStore.runs.find((f) => f.concurrency === concurrency);
    if (tabcrawl === null || !Number.isFinite(tabcrawl) || store?.pagesPerSecond == null) return [];
    const bound = cpuBound(tabcrawl, cores, store.pagesPerSecond, GOAL_OF_MINIMAL_STORE);
    return [
      {
        concurrency,
        minimalStoreCpuMsPerPage: store.cpuMsPerPage,
        tabcrawlCpuMsPerPage: rounded(tabcrawl, 2) ?? tabcrawl,
        tabcrawlPagesPerSecondIfEveryCoreBusy: rounded(bound.pagesPerSecond),
        shareOfMinimalStore: rounded(bound.share, 3),
        cpuMsPerPageForGoal: rounded(bound.cpuMsPerPageForGoal, 2),
      },
    ];
  });
}

/** Runs part 5 and reports it; its figures for the JSON. */
export async function ceilingPart(
  context: BenchContext,
  part1Rates: ThroughputRates | null,
): Promise<Record<string, unknown>> {
  const { options, say } = context;
  const ceiling = await platformCeiling(context, part1Rates);
  const variants = ceiling['variants'] as ReturnType<typeof summariseCeiling>;
  const concurrencies = ceiling['concurrencies'] as number[];
  const wget = ceiling['wget'] as { pagesPerSecond: number | null; source: string } | null;
  const wgetText =
    wget === null
      ? 'wget skipped (not installed): no ratios'
      : `wget ${num(wget.pagesPerSecond ?? Number.NaN)} pages/s (${wget.source})`;
  say('');
  say(`5. Platform ceiling: ${CEILING_EXPLANATION}`);
  say(
    `   (a)-(d): a loop that only fetches each of the ${options.pages.toLocaleString('en-US')} pages of part 1's site once and reads its body, run in the worker of each extension;`,
  );
  say(
    `   (e): in (c)'s extension, a minimal storing crawler: the same fetches, each page's links found, the page and its new links stored in IndexedDB (group commit);`,
  );
  say(`   ${options.rounds} round(s), medians; ${wgetText}`);
  const header = ['', ...concurrencies.flatMap((c) => [`${c} at once, pages/s`, '÷ wget'])];
  const rows = CEILING_VARIANTS.map((variant) => {
    const figures = variants[variant.id].runs;
    return [
      variant.label,
      ...figures.flatMap((f) => [num(f.pagesPerSecond ?? Number.NaN), num(f.ratioToWget ?? Number.NaN, 3)]),
    ];
  });
  say(table([header, ...rows]));
  const own = variants.tabcrawl.runs.find((f) => f.concurrency === options.parallel)?.pagesPerSecond ?? null;
  const minimalStore =
    variants.minimalStore.runs.find((f) => f.concurrency === options.parallel)?.pagesPerSecond ?? null;
  const tabcrawlRate = part1Rates?.tabcrawl ?? null;
  if (tabcrawlRate !== null && own !== null) {
    const ofStore = minimalStore === null ? '' : `, ${num(tabcrawlRate / minimalStore, 3)} of (e)`;
    say(
      `  Tabcrawl's crawl of part 1 (${perHostText(options.parallel)}): ${num(tabcrawlRate)} pages/s, ${num(tabcrawlRate / own, 3)} of (d)${ofStore} at ${options.parallel} at once`,
    );
  }
  const oneShare = ceiling['tabcrawlOneAtOnceShareOfMinimalStore'] as number | null;
  if (options.parallel !== 1 && oneShare !== null && part1Rates?.tabcrawlOneAtOnce != null) {
    say(
      `  Tabcrawl's crawl of part 1 at 1 request at once per host: ${num(part1Rates.tabcrawlOneAtOnce)} pages/s, ${num(oneShare, 3)} of (e) at 1 at once`,
    );
  }
  const bounds = ceiling['cpuBounds'] as CpuBoundFigure[] | null;
  if (bounds !== null && bounds.length > 0) {
    const each = bounds.map(
      (b) =>
        `at ${b.concurrency} at once, Tabcrawl ${num(b.tabcrawlCpuMsPerPage, 2)} ms a page, (e) ${num(b.minimalStoreCpuMsPerPage ?? Number.NaN, 2)}: at most ${num(b.tabcrawlPagesPerSecondIfEveryCoreBusy ?? Number.NaN)} pages/s were every core busy, ${num(b.shareOfMinimalStore ?? Number.NaN, 3)} of (e); ${GOAL_OF_MINIMAL_STORE} of (e) allows ${num(b.cpuMsPerPageForGoal ?? Number.NaN, 2)} ms`,
    );
    say(
      `  CPU per page, all the browser's processes (Tabcrawl's from part 1, pages only), on ${availableParallelism()} cores: ${each.join('; ')}`,
    );
  }
  const shares = ceiling['minimalStoreShareOfFetchOnly'] as { concurrency: number; share: number | null }[];
  const stored = variants.minimalStore.runs.map((f) => {
    const share = shares.find((entry) => entry.concurrency === f.concurrency)?.share ?? null;
    return `at ${f.concurrency} at once: ${share === null ? '-' : num(share, 3)} of (c), ${f.links === null ? '-' : num(f.links, 0)} links seen, ${f.urlsAdded === null ? '-' : num(f.urlsAdded, 0)} URLs added`;
  });
  say(
    `  (e): ${stored.join('; ')} (added: about the pages plus the disallowed links, the stylesheet and the PDFs: the links it finds are href="…")`,
  );
  const odd = CEILING_VARIANTS.flatMap((variant) =>
    variants[variant.id].runs.flatMap((f) =>
      f.perRound
        .filter((r) => r.error !== null || !r.eachPageOnce || (r.failures ?? 0) > 0)
        .map((r) => ({ variant, f, r })),
    ),
  );
  for (const { variant, f, r } of odd)
    say(
      `  ${variant.label}, ${f.concurrency} at once, round ${r.round}: ${r.error ?? `${r.pagesFetched} distinct pages fetched${r.eachPageOnce ? '' : ' (not each once)'}, ${String(r.failures)} failed`}`,
    );
  return ceiling;
}

/**
 * The rendered part of `npm run bench` (`--parts render`, issue 29): a
 * generated client-rendered site (`generateRenderedBench`, `--render-pages`
 * shells whose script fetches its JSON and writes a dozen links, and asks for
 * a URL robots.txt disallows) crawled at delay 0 by Tabcrawl's command line
 * with `--render always` and by Crawlee's `PlaywrightCrawler` in the same
 * Debian Chromium, the same number of pages at once ({@link RENDERS_AT_ONCE}),
 * on the same site in the same run, their order alternating from round to
 * round.
 *
 * For each crawl, from the site's request log: pages rendered (distinct shells
 * requested), pages per second over the crawl's span in the log (its first
 * request to its last response: the browsers' start and end left out, the
 * same way for both), and the requests robots.txt disallows (Tabcrawl must
 * make none; Crawlee makes one a page, since nothing stands between a page's
 * scripts and the network). From /proc: the browser's memory (PSS of its
 * process tree) every second, the mean of the crawl's first and last tenth
 * and their ratio. The ratio Tabcrawl ÷ Crawlee is taken within each round,
 * then its median.
 */
import { generateRenderedBench } from '../support/rendered-bench-site.ts';
import { median, rounded } from './bench-stats.ts';
import { log, MiB, num, table, type BenchContext } from './bench-report.ts';
import { lacksRenderOption, runCrawlee, runTabcrawlRendered, type ChildRun } from './render-crawlers.ts';
import { tenths, type MemoryTenths } from './render-memory.ts';

/**
 * Pages rendered at once by each crawler: Tabcrawl renders one page at a time per crawl unless a setting
 * says otherwise (none does yet), so Crawlee's `maxConcurrency` is the same.
 */
export const RENDERS_AT_ONCE = 1;

/** A page may take this long to load and settle, in ms: the cap the issue gives Tabcrawl's renderer. */
const PAGE_CAP_MS = 15_000;

type Crawler = 'tabcrawl' | 'crawlee';

/** One crawl of the rendered site. */
interface RenderRun {
  crawler: Crawler;
  round: number;
  exitCode: number | null;
  timedOut: boolean;
  /** Spawn to exit, in ms. */
  wallMs: number;
  /** The crawl's first request to its last response in the site's log, in ms. */
  spanMs: number;
  pages: number;
  pagesPerSecond: number;
  /** Requests the site's robots.txt disallows that reached it. */
  disallowed: number;
  requests: number;
  memory: MemoryTenths;
  /** Crawlee only: pages whose title its script had written (a check that Crawlee did render), or null. */
  renderedTitles: number | null;
  /** Why the run has no figures (e.g. this build has no `--render`), or null. */
  problem: string | null;
}

/** The time limit of one crawl of `pages` rendered pages: 2 minutes and 3 s a page. */
export const renderTimeLimitMs = (pages: number): number => 120_000 + pages * 3000;

/** Which crawler goes first in round `round` (from 1): Tabcrawl in odd rounds, Crawlee in even ones. */
export function renderOrder(round: number): Crawler[] {
  return round % 2 === 1 ? ['tabcrawl', 'crawlee'] : ['crawlee', 'tabcrawl'];
}

async function renderRounds({ options, chromePath }: BenchContext): Promise<RenderRun[]> {
  const pages = options.renderPages;
  const bench = await generateRenderedBench(pages);
  const runs: RenderRun[] = [];
  let tabcrawlProblem: string | null = null;
  const timeLimitMs = renderTimeLimitMs(pages);
  try {
    for (let round = 1; round <= options.rounds; round++) {
      for (const crawler of renderOrder(round)) {
        if (crawler === 'tabcrawl' && tabcrawlProblem !== null) continue;
        log(`bench: rendered part, round ${round}: ${crawler}, ${pages} client-rendered pages`);
        bench.site.requests.length = 0;
        let run: ChildRun;
        let renderedTitles: number | null = null;
        let problem: string | null = null;
        if (crawler === 'tabcrawl') {
          run = await runTabcrawlRendered(bench.startUrl, pages, chromePath, timeLimitMs);
          if (lacksRenderOption(run)) {
            tabcrawlProblem = "this build's command line has no --render option yet: Tabcrawl left out";
            log(`bench: ${tabcrawlProblem}`);
            continue;
          }
        } else {
          const crawlee = await runCrawlee(
            {
              startUrl: bench.startUrl,
              chromePath,
              maxConcurrency: RENDERS_AT_ONCE,
              maxPages: pages + 10,
              pageTimeoutMs: PAGE_CAP_MS,
            },
            timeLimitMs,
          );
          run = crawlee.run;
          renderedTitles = crawlee.result?.renderedTitles ?? null;
          if (crawlee.result === null) problem = 'Crawlee printed no result';
        }
        if (run.exitCode !== 0) problem = `exit code ${String(run.exitCode)}${run.timedOut ? ' (time limit)' : ''}`;
        if (problem !== null)
          log(`bench: ${crawler}: ${problem}: ${JSON.stringify(run.stderrTail.trim().split('\n').slice(-3))}`);
        const requests = bench.site.requests;
        const from = requests.reduce((min, r) => Math.min(min, r.startedAt), Number.POSITIVE_INFINITY);
        const to = requests.reduce((max, r) => Math.max(max, r.endedAt ?? r.startedAt), Number.NEGATIVE_INFINITY);
        const spanMs = to - from;
        const served = bench.pagesServed();
        runs.push({
          crawler,
          round,
          exitCode: run.exitCode,
          timedOut: run.timedOut,
          wallMs: run.wallMs,
          spanMs,
          pages: served,
          pagesPerSecond: served / (spanMs / 1000),
          disallowed: bench.disallowedRequests().length,
          requests: requests.length,
          memory: tenths(run.memory, from, to),
          renderedTitles,
          problem,
        });
      }
    }
  } finally {
    await bench.close();
  }
  if (tabcrawlProblem !== null) runs.push({ ...emptyRun('tabcrawl'), problem: tabcrawlProblem });
  return runs;
}

function emptyRun(crawler: Crawler): RenderRun {
  const none: MemoryTenths = {
    firstTenthBytes: Number.NaN,
    lastTenthBytes: Number.NaN,
    ratio: Number.NaN,
    peakBytes: Number.NaN,
    samples: 0,
    byTenthBytes: [],
    byKindByTenthBytes: {},
  };
  const nan = Number.NaN;
  return {
    crawler,
    round: 0,
    exitCode: null,
    timedOut: false,
    wallMs: nan,
    spanMs: nan,
    pages: 0,
    pagesPerSecond: nan,
    disallowed: nan,
    requests: 0,
    memory: none,
    renderedTitles: null,
    problem: null,
  };
}

/** Tabcrawl ÷ Crawlee pages/s within each round where both crawled. */
export function roundRatios(runs: readonly Pick<RenderRun, 'crawler' | 'round' | 'pagesPerSecond'>[]): number[] {
  const ratios: number[] = [];
  for (const round of new Set(runs.map((r) => r.round))) {
    const of = (crawler: Crawler): number =>
      runs.find((r) => r.round === round && r.crawler === crawler)?.pagesPerSecond ?? Number.NaN;
    const ratio = of('tabcrawl') / of('crawlee');
    if (Number.isFinite(ratio)) ratios.push(ratio);
  }
  return ratios;
}

/** Runs the rendered part and reports it; its figures for the JSON. */
export async function renderPart(context: BenchContext): Promise<Record<string, unknown>> {
  const { options, say } = context;
  const runs = await renderRounds(context);
  const measured = (crawler: Crawler): RenderRun[] => runs.filter((r) => r.crawler === crawler && r.round > 0);
  const med = (crawler: Crawler, value: (r: RenderRun) => number): number => median(measured(crawler).map(value));
  const ratios = roundRatios(runs);
  const problems = runs.filter((r) => r.problem !== null).map((r) => `${r.crawler}: ${r.problem ?? ''}`);
  const both = (value: (r: RenderRun) => number, digits = 1): string[] =>
    (['tabcrawl', 'crawlee'] as const).map((c) => num(med(c, value), digits));
  const mib = (bytes: number): number => bytes / MiB;
  const most = (crawler: Crawler): number => {
    const values = measured(crawler).map((r) => r.disallowed);
    return values.length === 0 ? Number.NaN : Math.max(...values);
  };
  say('');
  say(
    `Rendered: ${options.renderPages} client-rendered pages (each script fetches its JSON, writes 12 links, asks for a URL robots.txt disallows), delay 0, ${RENDERS_AT_ONCE} page(s) rendered at once by each; Tabcrawl --render always (command line) and Crawlee PlaywrightCrawler (networkidle, then a scroll), same Chromium; ${options.rounds} round(s), alternating, medians`,
  );
  say(
    table([
      ['', 'Tabcrawl', 'Crawlee'],
      ['pages rendered (server log)', ...both((r) => r.pages, 0)],
      ['pages/s (first request to last response in the log)', ...both((r) => r.pagesPerSecond, 2)],
      ['seconds, process start to exit', ...both((r) => r.wallMs / 1000)],
      ['browser memory, first tenth of the crawl, MiB (PSS)', ...both((r) => mib(r.memory.firstTenthBytes))],
      ['browser memory, last tenth, MiB', ...both((r) => mib(r.memory.lastTenthBytes))],
      ['  last ÷ first (target ≤ 1.1)', ...both((r) => r.memory.ratio, 2)],
      [
        'requests robots.txt disallows (most in a round)',
        ...(['tabcrawl', 'crawlee'] as const).map((c) => num(most(c), 0)),
      ],
      ['Tabcrawl ÷ Crawlee pages/s, median of the rounds (target ≥ 0.8)', num(median(ratios), 2), ''],
    ]),
  );
  const tenthsMiB = (list: readonly number[]): string => list.map((b) => num(mib(b), 0)).join(' ');
  for (const r of runs) {
    say(
      `  ${r.crawler} round ${r.round}, browser memory by tenth of the crawl, MiB: ${tenthsMiB(r.memory.byTenthBytes)}`,
    );
    for (const [kind, list] of Object.entries(r.memory.byKindByTenthBytes))
      say(`    of which ${kind} processes: ${tenthsMiB(list)}`);
  }
  for (const problem of problems) say(`  NOTE ${problem}`);
  return {
    pages: options.renderPages,
    rendersAtOnce: RENDERS_AT_ONCE,
    rounds: options.rounds,
    ratioTabcrawlToCrawlee: rounded(median(ratios), 3),
    ratiosPerRound: ratios.map((r) => rounded(r, 3)),
    problems,
    perRun: runs.map((r) => ({
      crawler: r.crawler,
      round: r.round,
      exitCode: r.exitCode,
      timedOut: r.timedOut,
      seconds: rounded(r.wallMs / 1000, 2),
      spanSeconds: rounded(r.spanMs / 1000, 2),
      pages: r.pages,
      pagesPerSecond: rounded(r.pagesPerSecond, 3),
      disallowedRequests: r.disallowed,
      requests: r.requests,
      memoryMiB: {
        firstTenth: rounded(mib(r.memory.firstTenthBytes)),
        lastTenth: rounded(mib(r.memory.lastTenthBytes)),
        ratio: rounded(r.memory.ratio, 3),
        peak: rounded(mib(r.memory.peakBytes)),
        samples: r.memory.samples,
        byTenth: r.memory.byTenthBytes.map((bytes) => rounded(mib(bytes))),
        byKindByTenth: Object.fromEntries(
          Object.entries(r.memory.byKindByTenthBytes).map(([kind, list]) => [
            kind,
            list.map((bytes) => rounded(mib(bytes))),
          ]),
        ),
      },
      renderedTitles: r.renderedTitles,
      problem: r.problem,
    })),
  };
}

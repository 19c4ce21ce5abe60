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
 *
 * How a crawl holds up as it grows (a 50,000-page site: `--pages 50000
 * --parts 1,3 --rounds 1`): part 1 gives each Tabcrawl crawl's pages/s over
 * its first and its last segment of pages (5,000, or a tenth of a smaller
 * site) from the site's log, and their ratio; part 3 the worker's heap every
 * tenth of the crawl and IndexedDB's bytes per page over its first and last
 * tenth, at each setting (1 and `--parallel` requests at once per host).
 *
 * To compare a change with another build (main's), `--baseline-dist DIR`:
 * part 1's Tabcrawl crawls each run with both builds, side by side in each
 * round (`baseline-compare.ts`).
 *
 * One module per part: `part-throughput.ts` (1), `part-politeness.ts` (2),
 * `part-cost.ts` (3), `part-results-export.ts` (4), `part-ceiling.ts` (5),
 * `part-profile.ts` (`--profile`), `part-render.ts` (`--parts render`: the
 * rendered crawl next to Crawlee's `PlaywrightCrawler`); a crawl as they all run it:
 * `tabcrawl-crawl.ts`; the sites: `bench-sites.ts`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { distDirOf, ensureBuilt, STDERR_BUILD_IO } from '../../src/shells/cli/build.ts';
import { findChromium } from '../../src/shells/cli/chromium.ts';
import { BENCH_USAGE, parseBenchArgs, type BenchOptions } from './bench-args.ts';
import { rounded } from './bench-stats.ts';
import { ROOT, type BenchContext } from './bench-report.ts';
import { ceilingPart } from './part-ceiling.ts';
import { costPerPage as costPart } from './part-cost.ts';
import { politeness as politenessPart } from './part-politeness.ts';
import { profilePart } from './part-profile.ts';
import { renderPart } from './part-render.ts';
import { resultsAndExportPart, type ResultsAndExport } from './part-results-export.ts';
import { throughput as throughputPart, type ThroughputRates } from './part-throughput.ts';

function chromiumVersion(chromePath: string): string {
  try {
    // Debian's wrapper script complains on stderr about its memory check; only the version line matters.
    return execFileSync(chromePath, ['--version'], {
      encoding: 'utf8',
      timeout: 20_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}

function dateStamp(date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}-${two(date.getHours())}${two(date.getMinutes())}${two(date.getSeconds())}`;
}

/** The options for the JSON, `baselineDistDir` left out when it is not given. */
function withoutNullBaseline(
  options: BenchOptions,
): Omit<BenchOptions, 'baselineDistDir'> & { baselineDistDir?: string } {
  const { baselineDistDir, ...rest } = options;
  return baselineDistDir === null ? rest : { ...rest, baselineDistDir };
}

async function main(options: BenchOptions): Promise<void> {
  const startedAt = new Date();
  const chromePath = findChromium(process.env);
  let distDir = options.distDir === null ? distDirOf(ROOT, 'chrome') : resolve(options.distDir);
  if (options.distDir === null) await ensureBuilt(ROOT, 'chrome', STDERR_BUILD_IO);
  if (!existsSync(join(distDir, 'manifest.json')))
    throw new Error(`${distDir} holds no built extension (no manifest.json)`);
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
  const baselineDistDir = options.baselineDistDir === null ? null : resolve(options.baselineDistDir);
  const context: BenchContext = { options, distDir, baselineDistDir, chromePath, say };

  // Parts 1 and 3.
  let throughput: Record<string, unknown> | null = null;
  let costPerPage: Record<string, unknown> | null = null;
  /** Part 1's medians, for part 5's ratios: wget's pages/s (null when it did not run) and Tabcrawl's. */
  let part1Rates: ThroughputRates | null = null;
  if (options.parts.has(1) || options.parts.has(3)) {
    const part1 = await throughputPart(context);
    throughput = part1.figures;
    part1Rates = part1.rates;
    if (options.parts.has(3)) costPerPage = costPart(context, part1.costRuns);
  }

  // Part 5: the platform ceiling, next to wget (of part 1 when it ran).
  const ceiling = options.parts.has(5) ? await ceilingPart(context, part1Rates) : null;

  // The profile: one extra zero-delay crawl, not counted in the medians.
  const profileReport = options.profile ? await profilePart(context) : null;

  // Part 2.
  const politeness = options.parts.has(2) ? await politenessPart(context) : null;

  // The rendered part, next to Crawlee.
  const rendered = options.parts.has('render') ? await renderPart(context) : null;

  // Part 4.
  const part4: ResultsAndExport | null = options.parts.has(4) ? await resultsAndExportPart(context) : null;

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
    // Without --baseline-dist, the options as before it existed.
    options: { ...withoutNullBaseline(options), parts: [...options.parts].sort() },
    throughput,
    politeness,
    costPerPage,
    ceiling,
    profile: profileReport,
    resultsAndExport: part4,
    // Only when the rendered part ran: the JSON of the other parts keeps its keys.
    ...(rendered === null ? {} : { rendered }),
  };
  const file =
    options.outFile === null
      ? join(ROOT, '.tmp/bench', `bench-${dateStamp(startedAt)}.json`)
      : resolve(options.outFile);
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

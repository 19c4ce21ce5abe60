/**
 * The options of `npm run bench`, parsed into data or a one-line usage error.
 * No I/O but one question, whether a folder holds a built extension, asked of
 * a function the caller may replace (the tests do).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SETTINGS_LIMITS } from '../../src/core/settings.ts';

/** The parts of the benchmark (see `bench.ts`): 1 to 5, and `render` (the rendered crawl next to Crawlee, `part-render.ts`). */
export type BenchPart = 1 | 2 | 3 | 4 | 5 | 'render';

export interface BenchOptions {
  /** Pages of the generated site of part 1 (and of part 3, measured on part 1's crawls, and of part 5). */
  pages: number;
  /**
   * Tabcrawl's requests at once per host (`requestsPerHost`) in part 1 (and the `--profile` crawl), which run
   * at delay 0 on a site whose robots.txt sets no Crawl-delay: the only case where more than 1 is used. Part 2
   * always runs with 1 (its sites set a Crawl-delay anyway). 1 is the one-at-a-time crawl.
   */
  parallel: number;
  /** Rounds of parts 1, 2 and 5; figures are medians over them. */
  rounds: number;
  /**
   * Of part 1's rounds, how many (the first ones) also crawl at 1 request at once per host: those crawls
   * take longest (about 2.5 minutes a round at 2,000 pages here). 0 leaves them out. Not above `rounds`.
   */
  oneAtOnceRounds: number;
  /** Hosts of part 2, each its own port. */
  hosts: number;
  /** Pages of each host of part 2. */
  hostPages: number;
  /**
   * The sites' pages use page resources and link files, and the crawls archive them (the defaults): part 1
   * also crawls archiving them, part 2 crawls archiving them. False (`--no-resources`): part 1 crawls pages
   * only, part 2's sites have no resources (as the bench ran before resources were archived).
   */
  resources: boolean;
  /** The `Crawl-delay` of every host of part 2, in seconds. */
  crawlDelaySeconds: number;
  /** Which parts run. */
  parts: ReadonlySet<BenchPart>;
  /** Pages of the client-rendered site of the `render` part. */
  renderPages: number;
  /** The built extension to load; null: `dist/chrome/`, built first when stale (as `npm run crawl` does). */
  distDir: string | null;
  /**
   * Another built extension (`--baseline-dist`, e.g. main's `dist/chrome/` in a second worktree) that crawls
   * part 1's site right next to each Tabcrawl crawl of `distDir`, in the same round, the two builds' order
   * alternating from round to round; part 1 then reports each build's pages/s and this ÷ baseline (the median
   * of the within-round ratios). Null: no baseline, part 1 as without the option. Never built by the bench.
   */
  baselineDistDir: string | null;
  /** Where the JSON goes; null: `.tmp/bench/bench-<date>.json`. */
  outFile: string | null;
  /** Keep a CPU profile of the worker during an extra zero-delay crawl, and print its top functions. */
  profile: boolean;
  /** Large sizes: 10,000 pages, and part 4 (the results and export benches) by default. */
  large: boolean;
  /** A tiny run that only checks the script works (used by the test suite): parts 1 (at `parallel` only), 2 and 5, small sizes. */
  smoke: boolean;
}

export type BenchArgs =
  { kind: 'run'; options: BenchOptions } | { kind: 'help' } | { kind: 'usage-error'; message: string };

/** Requests at once per host of part 1 when `--parallel` is not given. */
export const DEFAULT_PARALLEL = 8;

export const BENCH_USAGE = `Usage: npm run bench -- [options]

Measures Tabcrawl (the built extension in headless Chromium, driven as npm run crawl drives it) on sites
served on 127.0.0.1, against wget on the same site, and prints a table; the figures also go to JSON.

  1. throughput at delay 0: a generated site whose pages use page resources (stylesheets, a font, a script, images)
     and link PDFs, crawled by Tabcrawl pages only and archiving resources and files, at --parallel and at 1
     request at once per host (--one-at-once-rounds of the rounds), and by wget (pages only, and
     --page-requisites), alternating, --rounds rounds; and how each Tabcrawl crawl's rate holds up as it
     grows: pages/s over its first and its last segment of pages (5,000 pages, or a tenth of the site below
     50,000 pages), from each page request's arrival in the site's log, and last ÷ first
  2. politeness: --hosts sites (ports) with Crawl-delay --crawl-delay, --host-pages pages each with their
     resources (same host, same Crawl-delay), all in scope
  3. cost per page, from part 1's crawls at each setting: the worker's CPU per 1,000 pages; its JS heap
     after a GC every tenth of the crawl (first and last sample, slope); IndexedDB bytes per page over the
     whole crawl and over its first and last tenth (the profile's IndexedDB folder, walked at each tenth)
  4. results, export and import: npm run bench:results (100,000 rows) and bench:export (10,000 pages, WACZ,
     then that WACZ imported in a fresh browser)
  render. rendered crawl (issue 29, not in the default parts: about 10 minutes a round at 500 pages): a generated
     client-rendered site (--render-pages shells whose script fetches its JSON, writes 12 links and asks for a URL
     robots.txt disallows) crawled at delay 0 by Tabcrawl's command line with --render always and by Crawlee's
     PlaywrightCrawler in the same Chromium, 1 page rendered at once by each, alternating, --rounds rounds: pages/s
     of each and Tabcrawl ÷ Crawlee, the browser's memory over the first and last tenth of each crawl, and the
     requests robots.txt disallows that reached the site. Tabcrawl runs the checkout's dist/chrome (not --dist)
  5. platform ceiling: a loop that only fetches part 1's pages and reads their bodies, in the service worker of a
     bare extension, of one with Tabcrawl's User-Agent rule, of one with that and its webRequest listeners, and
     of Tabcrawl itself; and a minimal storing crawler in the third one (the same fetches, links found, pages
     and new links stored in IndexedDB, group commit); at 1 and --parallel at once, --rounds rounds, each against
     wget's pages/s

Options:
  --pages N            pages of the generated site of parts 1, 3 and 5 (default: 2000; 10000 with --large)
  --parallel N         Tabcrawl's requests at once per host in part 1 and the --profile crawl, from ${SETTINGS_LIMITS.requestsPerHost.min} to ${SETTINGS_LIMITS.requestsPerHost.max}
                       (delay 0, no Crawl-delay: the only case where more than 1 is used); 1 for one at a
                       time; part 2 always uses 1; part 5 runs its loops at 1 and at N (default: ${DEFAULT_PARALLEL})
  --rounds N           rounds of parts 1, 2 and 5, reported as medians (default: 3)
  --one-at-once-rounds N
                       of part 1's rounds, how many also crawl at 1 request at once per host (the slowest
                       crawls); 0 for none (default: 1; 0 with --smoke)
  --hosts N            hosts of part 2 (default: 8)
  --host-pages N       pages of each host of part 2 (default: 100, about 210 requests a host with their
                       resources; 200 with --no-resources)
  --no-resources       pages only: part 1 crawls without resources and files (and without wget
                       --page-requisites), part 2's sites have none
  --crawl-delay S      Crawl-delay of each host of part 2, in seconds (default: 0.25)
  --parts LIST         which parts to run, e.g. 1,3 or render (default: 1,2,3,5; 1,2,3,4,5 with --large)
  --render-pages N     pages of the client-rendered site of the render part (default: 500; 20 with --smoke)
  --large              10,000 pages, and part 4
  --profile            also record a CPU profile of the worker during a zero-delay crawl:
                       .tmp/bench/worker.cpuprofile (open it in Chrome DevTools), top 15 functions printed
  --dist DIR           the built extension to load (default: dist/chrome/, built first when older than the sources)
  --baseline-dist DIR  another built extension (a folder with its manifest.json, not built by the bench) that
                       also runs every Tabcrawl crawl of part 1, on the same site, in the same round, right
                       next to this build's, the order of the two alternating (round 1: this build first;
                       round 2: the baseline first…); part 1 then gives each build's pages/s and this ÷
                       baseline, the median of the ratios within each round. To compare a change with main:
                         git worktree add /tmp/base main && (cd /tmp/base && npm ci && npm run build:chrome)
                         npm run bench -- --parts 1 --one-at-once-rounds 3 --rounds 3 --baseline-dist /tmp/base/dist/chrome
  --out FILE           where to write the JSON (default: .tmp/bench/bench-<date>.json)
  --smoke              a tiny run that only checks the script (parts 1, 2 and 5; part 1 at --parallel only,
                       5 pages per host in part 2)
  -h, --help           this help

How the crawl rate, the heap and IndexedDB hold up as a crawl grows, on a site of 50,000 pages (the goal:
pages/s over the last 5,000 pages at least 0.9 of the first 5,000's, at 1 and at 8 requests at once per
host; the worker's heap and IndexedDB's bytes per page flat): parts 1 and 3, one round, that is four
Tabcrawl crawls (pages only and archiving, at 8 and at 1 request at once per host) and two wget runs.
Estimated from a 2,000-page run: 1 to 2 hours on two cores (longer if the crawls slow down as they grow),
and in the temporary folder up to about 1.5 GiB of browser profile (archiving) or 2 GiB of wget's files
and WARC (--page-requisites), each removed after its crawl:
  npm run bench -- --pages 50000 --parts 1,3 --rounds 1`;

const OPTIONS = {
  pages: { type: 'string' },
  rounds: { type: 'string' },
  'one-at-once-rounds': { type: 'string' },
  parallel: { type: 'string' },
  hosts: { type: 'string' },
  'host-pages': { type: 'string' },
  'crawl-delay': { type: 'string' },
  parts: { type: 'string' },
  large: { type: 'boolean' },
  profile: { type: 'boolean' },
  dist: { type: 'string' },
  'baseline-dist': { type: 'string' },
  out: { type: 'string' },
  smoke: { type: 'boolean' },
  'no-resources': { type: 'boolean' },
  'render-pages': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A whole number from `min` to `max`, or a message naming the option. */
function wholeNumber(
  option: string,
  text: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number | string {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
    return `--${option} must be a whole number from ${min} to ${max}, got '${text}'`;
  return Number(text);
}

/** Whether `dir` (relative to the working directory, as `--dist` is) holds a built extension: its manifest.json. */
export const holdsBuiltExtension = (dir: string): boolean => existsSync(join(dir, 'manifest.json'));

/**
 * Parses `process.argv.slice(2)`. Never throws.
 * @param isBuiltExtension asked of `--baseline-dist` only (the bench never builds that one): the file system by default.
 */
export function parseBenchArgs(
  argv: readonly string[],
  isBuiltExtension: (dir: string) => boolean = holdsBuiltExtension,
): BenchArgs {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    return {
      kind: 'usage-error',
      message: (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'bad arguments',
    };
  }
  if (values.help === true) return { kind: 'help' };
  const large = values.large === true;
  const smoke = values.smoke === true;

  const pages = wholeNumber('pages', values.pages, large ? 10_000 : 2000, 10, 1_000_000);
  const rounds = wholeNumber('rounds', values.rounds, 3, 1, 50);
  const { min: minParallel, max: maxParallel } = SETTINGS_LIMITS.requestsPerHost;
  const parallel = wholeNumber('parallel', values.parallel, DEFAULT_PARALLEL, minParallel, maxParallel);
  const hosts = wholeNumber('hosts', values.hosts, 8, 1, 32);
  const resources = values['no-resources'] !== true;
  const hostPages = wholeNumber('host-pages', values['host-pages'], smoke ? 5 : resources ? 100 : 200, 2, 100_000);
  const oneAtOnceRounds = wholeNumber('one-at-once-rounds', values['one-at-once-rounds'], smoke ? 0 : 1, 0, 50);
  const renderPages = wholeNumber('render-pages', values['render-pages'], smoke ? 20 : 500, 2, 100_000);
  for (const value of [pages, rounds, parallel, hosts, hostPages, oneAtOnceRounds, renderPages])
    if (typeof value === 'string') return { kind: 'usage-error', message: value };

  const delayText = values['crawl-delay'] ?? '0.25';
  const crawlDelaySeconds = Number(delayText);
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(delayText) || crawlDelaySeconds <= 0 || crawlDelaySeconds > 60) {
    return {
      kind: 'usage-error',
      message: `--crawl-delay must be a number of seconds above 0 and at most 60, got '${delayText}'`,
    };
  }

  const partsText = values.parts ?? (smoke ? '1,2,5' : large ? '1,2,3,4,5' : '1,2,3,5');
  const parts = new Set<BenchPart>();
  for (const item of partsText.split(',')) {
    if (item.trim() === 'render') {
      parts.add('render');
      continue;
    }
    const part = Number(item.trim());
    if (part !== 1 && part !== 2 && part !== 3 && part !== 4 && part !== 5)
      return { kind: 'usage-error', message: `--parts takes numbers from 1 to 5, got '${partsText}'` };
    parts.add(part);
  }
  if (values.dist === '' || values.out === '')
    return { kind: 'usage-error', message: '--dist and --out must not be empty' };
  const baselineDistDir = values['baseline-dist'] ?? null;
  if (baselineDistDir !== null) {
    if (!parts.has(1))
      return {
        kind: 'usage-error',
        message: `--baseline-dist compares part 1's crawls: --parts must include 1, got '${partsText}'`,
      };
    if (baselineDistDir === '' || !isBuiltExtension(baselineDistDir)) {
      return {
        kind: 'usage-error',
        message: `--baseline-dist must be a built extension's folder (one with a manifest.json, e.g. dist/chrome of another checkout after npm run build:chrome), got '${baselineDistDir}'`,
      };
    }
  }

  return {
    kind: 'run',
    options: {
      pages: pages as number,
      parallel: parallel as number,
      rounds: rounds as number,
      oneAtOnceRounds: Math.min(oneAtOnceRounds as number, rounds as number),
      hosts: hosts as number,
      hostPages: hostPages as number,
      resources,
      crawlDelaySeconds,
      parts,
      renderPages: renderPages as number,
      distDir: values.dist ?? null,
      baselineDistDir,
      outFile: values.out ?? null,
      profile: values.profile === true,
      large,
      smoke,
    },
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: false, strict: true });
}

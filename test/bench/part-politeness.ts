/**
 * Part 2 of `npm run bench`: politeness efficiency. `--hosts` sites on as
 * many ports, each with a `Crawl-delay`, the first one's `/` linking to the
 * others, crawled with the others in *Also crawl these sites*: pages per
 * second against the ideal (hosts / Crawl-delay), and the smallest gap each
 * site saw between the end of a response and the next request (every gap
 * under the delay is a violation). The mean gap is also split, with the
 * stored rows' times, into the worker's own wait and the two ways through
 * the browser (`gapParts`).
 */
import os from 'node:os';
import { countServed, resourceSiteCounts, startPolitenessSites, type Served } from './bench-sites.ts';
import { gapParts, median, robotsFirstAndOnce, rounded, serverGaps } from './bench-stats.ts';
import { log, num, r2, table, type BenchContext } from './bench-report.ts';
import { crawlWithTabcrawl } from './tabcrawl-crawl.ts';

interface PolitenessRound {
  round: number;
  wallMs: number;
  pages: number;
  /** URLs fetched (pages, resources, files; robots.txt left out), each once: what the ideal is counted in. */
  fetched: number;
  pagesPerSecond: number;
  fetchedPerSecond: number;
  /** URLs fetched per second over the ideal, hosts / Crawl-delay (robots.txt costs each host one gap more). */
  ratioToIdeal: number;
  state: string;
  otherCpuShare: number;
  /** Requests to a URL already requested, and to a disallowed one, all hosts: both must be 0. */
  repeated: number;
  disallowedRequested: number;
  hosts: {
    origin: string;
    pages: number;
    fetched: number;
    minGapMs: number;
    meanGapMs: number;
    violations: number[];
    robots: string;
    fetchedPerSecond: number;
  }[];
  /** The mean server gap split (over every host's consecutive pages), in ms: see `gapParts`. */
  gapSplit: { crawlerGapMs: number; requestWayMs: number; responseWayMs: number };
  /** From `crawl/start` to the first request, and from the last response to the crawl's end, in ms. */
  startMs: number;
  endMs: number;
}

/** Distinct URLs fetched, robots.txt left out (a disallowed one counts: it must be 0). */
const fetchedOf = (served: Served): number =>
  served.distinct.page + served.distinct.resource + served.distinct.file + served.distinct.disallowed;

async function politenessRounds({ options, distDir, chromePath }: BenchContext): Promise<PolitenessRound[]> {
  const sites = await startPolitenessSites(
    options.hosts,
    options.hostPages,
    options.crawlDelaySeconds,
    options.resources,
  );
  const first = sites[0];
  if (first === undefined) throw new Error('no site started');
  const idealPerSecond = options.hosts / options.crawlDelaySeconds;
  const expected = resourceSiteCounts(options.hostPages);
  const urlsPerHost = options.resources ? expected.pages + expected.resources + expected.files : expected.pages;
  const delayMs = options.crawlDelaySeconds * 1000;
  const rounds: PolitenessRound[] = [];
  try {
    for (let round = 1; round <= options.rounds; round++) {
      log(
        `bench: part 2, round ${round}: ${options.hosts} hosts × ${options.hostPages} pages${options.resources ? ` and their resources (${urlsPerHost} URLs a host)` : ''}, Crawl-delay ${options.crawlDelaySeconds} s`,
      );
      const settings = {
        startUrl: `${first.origin}/`,
        extraOrigins: sites.slice(1).map((site) => site.origin),
        delayMs: 0,
        hostConcurrency: Math.max(8, options.hosts),
        // One at a time, whatever --parallel says: this part measures the spacing (each site sets a Crawl-delay anyway).
        requestsPerHost: 1,
        maxPages: Math.min(1_000_000, options.hosts * options.hostPages * 2 + 100),
        maxDepth: 1000,
        // Resources are requests to the same host: they wait the same Crawl-delay.
        archiveResources: options.resources,
        downloadFiles: options.resources,
        maxResources: 1_000_000,
      };
      const run = await crawlWithTabcrawl({
        distDir,
        chromePath,
        settings,
        sites,
        measureCost: false,
        profile: false,
        sampleMemory: false,
        expectedRows: options.hosts * urlsPerHost,
        // The crawl cannot be faster than one host's URLs at its Crawl-delay; 4 times that, and 2 minutes, is plenty.
        timeLimitMs: 120_000 + urlsPerHost * options.crawlDelaySeconds * 4000,
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
        const served = countServed([site.requests]);
        const fetched = fetchedOf(served);
        return {
          origin: site.origin,
          pages: served.distinct.page,
          fetched,
          minGapMs: gaps.length > 0 ? Math.min(...gaps) : Number.NaN,
          meanGapMs: gaps.length > 0 ? gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length : Number.NaN,
          violations: gaps.filter((gap) => gap < delayMs),
          robots: `${isFirst ? 'first' : 'NOT first'}, ${count}×`,
          fetchedPerSecond: fetched / (spanMs / 1000),
        };
      });
      const pagesPerSecond = run.pages / (run.wallMs / 1000);
      const fetched = fetchedOf(run.served);
      const fetchedPerSecond = fetched / (run.wallMs / 1000);
      const mean = (values: number[]): number =>
        values.length === 0 ? Number.NaN : values.reduce((sum, v) => sum + v, 0) / values.length;
      const gapSplit = {
        crawlerGapMs: mean(split.crawlerGaps),
        requestWayMs: mean(split.requestWays),
        responseWayMs: mean(split.responseWays),
      };
      rounds.push({
        round,
        wallMs: run.wallMs,
        pages: run.pages,
        fetched,
        pagesPerSecond,
        fetchedPerSecond,
        ratioToIdeal: fetchedPerSecond / idealPerSecond,
        state: run.state,
        otherCpuShare: run.otherCpuShare,
        repeated: run.served.repeated,
        disallowedRequested: run.served.distinct.disallowed,
        hosts,
        gapSplit,
        startMs: run.startToFirstRequestMs,
        endMs: run.endAfterLastResponseMs,
      });
    }
  } finally {
    await Promise.all(sites.map((site) => site.close()));
  }
  return rounds;
}

/** Runs part 2 and reports it; its figures for the JSON. */
export async function politeness(context: BenchContext): Promise<Record<string, unknown>> {
  const { options, say } = context;
  const rounds = await politenessRounds(context);
  const ideal = options.hosts / options.crawlDelaySeconds;
  const delayMs = options.crawlDelaySeconds * 1000;
  const violations = rounds.flatMap((r) =>
    r.hosts.flatMap((h) => h.violations.map((gap) => ({ round: r.round, origin: h.origin, gapMs: rounded(gap, 1) }))),
  );
  const minGaps =
    rounds[0]?.hosts.map((_, i) => Math.min(...rounds.map((r) => r.hosts[i]?.minGapMs ?? Number.NaN))) ?? [];
  const figures = {
    requestsPerHost: 1,
    hosts: options.hosts,
    pagesPerHost: options.hostPages,
    resources: options.resources,
    crawlDelaySeconds: options.crawlDelaySeconds,
    // In URLs fetched (pages, resources, files; robots.txt left out): each is one request, one gap.
    idealPerSecond: ideal,
    fetchedPerSecond: rounded(median(rounds.map((r) => r.fetchedPerSecond))),
    pagesPerSecond: rounded(median(rounds.map((r) => r.pagesPerSecond))),
    ratioToIdeal: rounded(median(rounds.map((r) => r.ratioToIdeal)), 3),
    repeatedRequests: Math.max(0, ...rounds.map((r) => r.repeated)),
    disallowedRequested: Math.max(0, ...rounds.map((r) => r.disallowedRequested)),
    smallestGapMsPerHost: minGaps.map((gap) => rounded(gap, 1)),
    meanGapMs: rounded(median(rounds.flatMap((r) => r.hosts.map((h) => h.meanGapMs))), 1),
    // The mean gap split, medians over the rounds (see gapParts): the worker's own wait, the request's way to
    // the server, the response's way to the worker (its end time rounded up to the next ms included).
    meanGapSplitMs: {
      crawler: rounded(median(rounds.map((r) => r.gapSplit.crawlerGapMs)), 2),
      requestWay: rounded(median(rounds.map((r) => r.gapSplit.requestWayMs)), 2),
      responseWay: rounded(median(rounds.map((r) => r.gapSplit.responseWayMs)), 2),
    },
    // The crawl's own start (crawl/start to its first request) and end (its last response to its end), medians, in s.
    startSeconds: rounded(median(rounds.map((r) => r.startMs / 1000)), 2),
    endSeconds: rounded(median(rounds.map((r) => r.endMs / 1000)), 2),
    violations,
    perRound: rounds.map((r) => ({
      round: r.round,
      state: r.state,
      seconds: rounded(r.wallMs / 1000),
      pages: r.pages,
      fetched: r.fetched,
      pagesPerSecond: rounded(r.pagesPerSecond),
      fetchedPerSecond: rounded(r.fetchedPerSecond),
      ratioToIdeal: rounded(r.ratioToIdeal, 3),
      otherProcessesCpuShare: rounded(r.otherCpuShare, 2),
      repeated: r.repeated,
      disallowedRequested: r.disallowedRequested,
      hosts: r.hosts.map((h) => ({
        origin: h.origin,
        pages: h.pages,
        fetched: h.fetched,
        minGapMs: rounded(h.minGapMs, 1),
        meanGapMs: rounded(h.meanGapMs, 1),
        violations: h.violations.length,
        robots: h.robots,
        fetchedPerSecond: rounded(h.fetchedPerSecond, 2),
      })),
      startSeconds: rounded(r.startMs / 1000, 2),
      endSeconds: rounded(r.endMs / 1000, 2),
      gapSplitMs: {
        crawler: rounded(r.gapSplit.crawlerGapMs, 2),
        requestWay: rounded(r.gapSplit.requestWayMs, 2),
        responseWay: rounded(r.gapSplit.responseWayMs, 2),
      },
    })),
  };
  say('');
  const what = options.resources ? ' and their resources and files (on the same host)' : '';
  say(
    `2. Politeness: ${options.hosts} hosts (ports) × ${options.hostPages} pages${what}, each robots.txt Crawl-delay ${options.crawlDelaySeconds} s, all in scope, 1 request at once per host; ${options.rounds} round(s), medians`,
  );
  say(
    table([
      [
        `URLs/s achieved (pages${options.resources ? ', resources, files' : ''}; robots.txt left out)`,
        num(median(rounds.map((r) => r.fetchedPerSecond))),
      ],
      ['ideal (hosts / Crawl-delay)', num(ideal)],
      ['ratio to the ideal (target ≥ 0.95)', num(median(rounds.map((r) => r.ratioToIdeal)), 3)],
      ['seconds', num(median(rounds.map((r) => r.wallMs / 1000)))],
      [
        'CPU used by other processes meanwhile',
        `${num(median(rounds.map((r) => r.otherCpuShare * 100)), 0)} % of ${os.cpus().length} cores`,
      ],
      ['pages/s', num(median(rounds.map((r) => r.pagesPerSecond)))],
      [
        'URLs fetched (server logs), pages among them',
        `${num(median(rounds.map((r) => r.fetched)), 0)}, ${num(median(rounds.map((r) => r.pages)), 0)}`,
      ],
      [
        'URLs requested twice, disallowed URLs requested (all rounds)',
        `${Math.max(0, ...rounds.map((r) => r.repeated))}, ${Math.max(0, ...rounds.map((r) => r.disallowedRequested))}`,
      ],
      [`smallest gap per host, ms (≥ ${delayMs} required)`, minGaps.map((gap) => num(gap, 1)).join(' ')],
      [`gaps under ${delayMs} ms (all rounds)`, String(violations.length)],
      [
        'mean gap (median over hosts and rounds), ms',
        num(median(rounds.flatMap((r) => r.hosts.map((h) => h.meanGapMs))), 1),
      ],
      [
        '  = worker waits + request to server + response to worker, ms',
        [
          r2(rounds.map((r) => r.gapSplit.crawlerGapMs)),
          r2(rounds.map((r) => r.gapSplit.requestWayMs)),
          r2(rounds.map((r) => r.gapSplit.responseWayMs)),
        ].join(' + '),
      ],
      [
        "the crawl's own start (to its first request) and end (from its last response), s",
        `${num(median(rounds.map((r) => r.startMs / 1000)), 2)}; ${num(median(rounds.map((r) => r.endMs / 1000)), 2)}`,
      ],
      ['robots.txt per host (round 1)', [...new Set(rounds[0]?.hosts.map((h) => h.robots) ?? [])].join('; ')],
    ]),
  );
  for (const v of violations.slice(0, 20))
    say(`  VIOLATION round ${v.round}: ${v.origin} gap ${num(v.gapMs ?? Number.NaN, 1)} ms`);
  if (violations.length > 20) say(`  … and ${violations.length - 20} more (in the JSON)`);
  return figures;
}

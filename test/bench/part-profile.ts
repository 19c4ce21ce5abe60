/**
 * `npm run bench -- --profile`: one more zero-delay crawl of part 1's site
 * with the worker's CPU profiler on (1 ms sampling), not counted in the
 * medians. Writes `.tmp/bench/worker.cpuprofile` and reports the functions
 * with the most self time and Tabcrawl's own by total time, placed in `src/`
 * through the build's source maps.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startBenchSite } from './bench-sites.ts';
import { busyMs, rounded } from './bench-stats.ts';
import { log, num, perHostText, ROOT, table, type BenchContext } from './bench-report.ts';
import { topFunctions, topOwnFunctions, type TopFunction } from './profile-report.ts';
import { throughputSettings } from './part-throughput.ts';
import { crawlWithTabcrawl, pageTimeLimitMs } from './tabcrawl-crawl.ts';

export interface ProfileReport {
  file: string;
  busyMsPer1000Pages: number | null;
  top: TopFunction[];
  topOwnByTotal: TopFunction[];
}

/** Runs the profiled crawl and reports it; null when the worker gave no profile. */
export async function profilePart({ options, distDir, chromePath, say }: BenchContext): Promise<ProfileReport | null> {
  let profileReport: ProfileReport | null = null;
  const site = await startBenchSite(options.pages, { resources: true });
  try {
    log(
      `bench: --profile: one more Tabcrawl crawl of ${options.pages} pages (${perHostText(options.parallel)}) (${options.resources ? 'archiving resources and files' : 'pages only'}) with the worker's CPU profiler on`,
    );
    const run = await crawlWithTabcrawl({
      distDir,
      chromePath,
      settings: throughputSettings(`${site.origin}/`, options.pages, {
        id: 'profile',
        archive: options.resources,
        requestsPerHost: options.parallel,
      }),
      sites: [site],
      measureCost: false,
      profile: true,
      sampleMemory: false,
      expectedRows: options.resources ? options.pages * 2 : options.pages,
      timeLimitMs: pageTimeLimitMs(options.pages * 2),
    });
    if (run.profile !== null) {
      const file = join(ROOT, '.tmp/bench/worker.cpuprofile');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(run.profile));
      // The session's copy of the extension is gone with its profile; the source maps are the same in `distDir`.
      const top = topFunctions(run.profile, distDir, 15);
      const own = topOwnFunctions(run.profile, distDir, 15);
      profileReport = {
        file,
        busyMsPer1000Pages: rounded((busyMs(run.profile) / run.pages) * 1000, 0),
        top,
        topOwnByTotal: own,
      };
      say('');
      say(
        `Worker CPU profile (${file}; ${perHostText(options.parallel)}; ${options.resources ? 'archiving resources and files; ' : ''}${run.pages} pages at ${num(run.pages / (run.wallMs / 1000))} pages/s with the profiler on; busy ${num(profileReport.busyMsPer1000Pages ?? Number.NaN, 0)} ms per 1,000 pages): top 15 by self time`,
      );
      say(
        table([
          ['function', 'where', 'self ms', 'share'],
          ...top.map((f) => [f.functionName, f.location, num(f.selfMs, 0), `${num(f.share * 100, 1)} %`]),
        ]),
      );
      say('');
      say(
        "Tabcrawl's own functions (src/) by total time, callees included (synchronous stacks only: an await's continuation counts on its own)",
      );
      say(
        table([
          ['function', 'where', 'total ms', 'share'],
          ...own.map((f) => [f.functionName, f.location, num(f.selfMs, 0), `${num(f.share * 100, 1)} %`]),
        ]),
      );
    }
  } finally {
    await site.close();
  }
  return profileReport;
}

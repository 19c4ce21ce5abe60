/**
 * Part 4 of `npm run bench`: the results and export benches, run as
 * sub-steps (`npm run bench:results`, `npm run bench:export`, which also
 * imports the WACZ it exported in a fresh browser: `import-bench.ts`), their
 * main figures reported.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rounded } from './bench-stats.ts';
import { exportFiguresName, log, num, ROOT, table, type BenchContext } from './bench-report.ts';

/** Runs another bench script with tsx, its output on our stderr. */
function runScript(script: string, args: readonly string[]): Promise<void> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, script), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 2, 2],
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolveRun() : reject(new Error(`${script} exited with ${String(code)}`)),
    );
  });
}

export interface ResultsAndExport {
  results:
    | { rows: number; firstRowsFirstMs: number | null; firstRowsMedianMs: number | null; timings: unknown }
    | { error: string };
  export: Record<string, unknown> | { error: string };
}

async function resultsAndExport(distDir: string, resources: boolean): Promise<ResultsAndExport> {
  const rows = 100_000;
  const pages = 10_000;
  let results: ResultsAndExport['results'];
  try {
    log(`bench: part 4: npm run bench:results -- --rows ${rows}`);
    await runScript('test/bench/results-bench.ts', ['--rows', String(rows)]);
    const figures = JSON.parse(readFileSync(join(ROOT, `.tmp/bench/results-${rows}.json`), 'utf8')) as {
      timings: { name: string; firstMs: number; medianMs: number }[];
    };
    const open = figures.timings.find((t) => t.name.startsWith('open: database + first window'));
    results = {
      rows,
      firstRowsFirstMs: rounded(open?.firstMs ?? Number.NaN, 0),
      firstRowsMedianMs: rounded(open?.medianMs ?? Number.NaN, 0),
      timings: figures.timings,
    };
  } catch (error) {
    results = { error: error instanceof Error ? error.message : String(error) };
  }
  let exported: ResultsAndExport['export'];
  try {
    const args = ['--pages', String(pages), '--format', 'wacz', ...(resources ? [] : ['--no-resources'])];
    log(`bench: part 4: npm run bench:export -- ${args.join(' ')}`);
    await runScript('test/bench/export-bench.ts', [...args, '--dist', distDir]);
    exported = JSON.parse(
      readFileSync(join(ROOT, '.tmp/bench', exportFiguresName('wacz', pages, resources)), 'utf8'),
    ) as Record<string, unknown>;
  } catch (error) {
    exported = { error: error instanceof Error ? error.message : String(error) };
  }
  return { results, export: exported };
}

/** Runs part 4 and reports it; its figures for the JSON. */
export async function resultsAndExportPart({ options, distDir, say }: BenchContext): Promise<ResultsAndExport> {
  const part4 = await resultsAndExport(distDir, options.resources);
  say('');
  say('4. Results, export and import (npm run bench:results, npm run bench:export)');
  const rows: string[][] = [];
  if ('error' in part4.results) rows.push(['results: time to first rows', `failed: ${part4.results.error}`]);
  else
    rows.push([
      'results, 100,000 rows: open + first 50 rows',
      `${num(part4.results.firstRowsFirstMs ?? Number.NaN, 0)} ms first, ${num(part4.results.firstRowsMedianMs ?? Number.NaN, 0)} ms median`,
    ]);
  const e = part4.export;
  if ('error' in e) rows.push(['export: WACZ of 10,000 pages', `failed: ${String(e.error)}`]);
  else {
    const what =
      e['resources'] === true
        ? `10,000 pages with their resources and files: ${num(Number(e['rows']), 0)} rows, ${num(Number(e['resourceRows']), 0)} resources, ${num(Number(e['fileRows']), 0)} files, ${String(e['bodiesStoredMiB'])} MiB of bodies`
        : '10,000 pages, pages only';
    rows.push([
      `export: crawl of ${what}, first`,
      `${String(e['crawlSeconds'])} s (${String(e['crawlPagesPerSecond'])} pages/s at ${String(e['requestsPerHost'])} requests at once per host)`,
    ]);
    rows.push([
      'export: WACZ of it',
      `${String(e['exportSeconds'])} s (${String(e['exportRowsPerSecond'])} rows/s), ${String(e['fileMiB'])} MiB`,
    ]);
    if ('exportCpuMsPerRow' in e) {
      rows.push([
        'export: CPU per row, all processes; rows/s were every core busy',
        `${String(e['exportCpuMsPerRow'])} ms; ${String(e['exportRowsPerSecondIfEveryCoreBusy'])} rows/s`,
      ]);
    }
    rows.push([
      'export: browser memory before → peak',
      `${String(e['browserPssBeforeExportMiB'])} → ${String(e['browserPeakPssDuringExportMiB'])} MiB PSS`,
    ]);
    if ('importError' in e) rows.push(['import of that WACZ, fresh browser', `failed: ${String(e['importError'])}`]);
    else if ('importSeconds' in e) {
      rows.push([
        'import of that WACZ, fresh browser, through the import page',
        `${String(e['importSeconds'])} s: ${String(e['importRecordsPerSecond'])} WARC records/s (${num(Number(e['importRecords']), 0)}), ${String(e['importRowsPerSecond'])} rows/s (${num(Number(e['importRows']), 0)}), ${String(e['importMiBPerSecond'])} MiB/s`,
      ]);
      rows.push([
        'import: browser memory before → peak; IndexedDB growth',
        `${String(e['browserPssBeforeImportMiB'])} → ${String(e['browserPeakPssDuringImportMiB'])} MiB PSS; +${String(e['importIndexedDbGrowthMiB'])} MiB on disk`,
      ]);
    }
  }
  say(table(rows));
  return part4;
}

/**
 * Benchmark of the import: an archive (WACZ, WARC, WARC.gz) opened in a
 * fresh browser profile through the extension's import page, as
 * `tabcrawl --import` opens it (`importThroughPage`: the file put into the
 * page's input, the page's figures polled). Measures the import's wall time,
 * WARC records, rows and MiB of the file per second, the browser's memory
 * (PSS, all its processes) before and at its peak during the import, its CPU
 * and the IndexedDB folder's growth. Not a test: it measures.
 *
 * `npm run bench:export` runs it on the WACZ it exported (a fresh browser,
 * not the one that crawled); `npm run bench:import -- --file ARCHIVE [--dist DIR]`
 * runs it on any archive (another tool's WACZ too), `--synthetic MIB` on a
 * plain WARC of that size written first (`synthetic-warc.ts`).
 */
import { existsSync, mkdirSync, mkdtempSync, openAsBlob, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { distDirOf, ensureBuilt, STDERR_BUILD_IO } from '../../src/shells/cli/build.ts';
import { findChromium } from '../../src/shells/cli/chromium.ts';
import { launchExtension } from '../../src/shells/cli/extension-driver.ts';
import { importThroughPage } from '../../src/shells/cli/import-through-page.ts';
import { openArchive } from '../../src/import/open-archive.ts';
import { writeSyntheticWarc } from './synthetic-warc.ts';
import { browserPssByKind, browserRssBytes } from './process-memory.ts';
import { browserCpuMs, cpuDelta, machineCpuMs } from './process-stats.ts';

const MiB = 1024 * 1024;

/** What one import measured (sizes in MiB, times in s). */
export interface ImportFigures {
  importFile: string;
  importFileMiB: number;
  /** WARC records in the file (counted afterwards, in Node, by the same reader), by type. */
  importRecords: number;
  importRecordTypes: Record<string, number>;
  /** Rows the import stored. */
  importRows: number;
  importWarnings: number;
  /** From the file put into the page's input to the page saying done (polled every 100 ms). */
  importSeconds: number;
  importRecordsPerSecond: number;
  importRowsPerSecond: number;
  importMiBPerSecond: number;
  /** The fresh browser's PSS (all processes) before the import page opens, and its peak during the import (read every 250 ms). */
  browserPssBeforeImportMiB: number;
  browserPeakPssDuringImportMiB: number;
  /**
   * The peak in each quarter of the file read ("q1 / q2 / q3 / q4", MiB): memory that grew with the archive
   * would rise quarter after quarter; memory held by one batch or by the browser's caches levels off.
   */
  browserPeakPssByQuarterMiB: string;
  /** At the peak, by process kind (MiB): which process holds it (the extension's page, or the browser's IndexedDB). */
  browserPssAtPeakByKindMiB: Record<string, number>;
  /** CPU of the browser's processes during the import, all kinds summed, and by kind. */
  importBrowserCpuSeconds: number;
  importCpuSecondsByProcess: Record<string, number>;
  /** Share of the machine's CPU that other processes used during the import (0 to 1): the noise. */
  importOtherCpuShare: number;
  /** The profile's IndexedDB folder on disk: growth during the import (LevelDB may not have compacted yet). */
  importIndexedDbGrowthMiB: number;
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

/** WARC records of the archive at `path`, by type, read in Node with the import's own reader. */
async function countRecords(path: string): Promise<Record<string, number>> {
  const archive = await openArchive(await openAsBlob(path), basename(path));
  const types: Record<string, number> = {};
  for await (const record of archive.records()) types[record.type] = (types[record.type] ?? 0) + 1;
  return types;
}

const fixed = (value: number, digits: number): number => Number(value.toFixed(digits));

/**
 * Samples the browser's PSS by process kind every `everyMs`, keeping the peak of the total in each quarter of
 * the import (`fraction()`: the share of the file read, 0 to 1) and the kinds' figures at the overall peak.
 */
function samplePssByQuarter(
  profileDir: string,
  fraction: () => number,
  everyMs: number,
): { stop: () => { peakPss: number; quarters: number[]; atPeak: Record<string, number> } } {
  const quarters = [0, 0, 0, 0];
  let peakPss = 0;
  let atPeak: Record<string, number> = {};
  const sample = (): void => {
    const byKind = browserPssByKind(profileDir);
    const total = Object.values(byKind).reduce((a, b) => a + b, 0);
    const quarter = Math.min(3, Math.floor(fraction() * 4));
    quarters[quarter] = Math.max(quarters[quarter] ?? 0, total);
    if (total > peakPss) {
      peakPss = total;
      atPeak = byKind;
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return { peakPss, quarters, atPeak };
    },
  };
}

/** Imports `file` in a fresh browser profile with the extension at `distDir`, and measures it. */
export async function measureImport(options: {
  distDir: string;
  chromePath: string;
  file: string;
  log?: (line: string) => void;
}): Promise<ImportFigures> {
  const log = options.log ?? ((): void => undefined);
  const session = await launchExtension({ distDir: options.distDir, chromePath: options.chromePath, copyDist: true });
  let imported;
  let seconds: number;
  let pssBefore: number;
  let peakPss: number;
  let quarters: number[];
  let atPeak: Record<string, number>;
  let cpuMs: Record<string, number>;
  let otherShare: number;
  let idbGrowth: number;
  try {
    // Let the fresh browser settle (its first-run work) before the idle figure.
    await new Promise((r) => setTimeout(r, 1000));
    const idbDir = join(session.profileDir, 'user-data', 'Default', 'IndexedDB');
    const idbBefore = folderBytes(idbDir);
    pssBefore = browserRssBytes(session.profileDir);
    const cpuBefore = browserCpuMs(session.profileDir);
    const machineBefore = machineCpuMs();
    const benchBefore = process.cpuUsage();
    // PSS costs ~25 ms a read here (every process's page tables): 4 times a second is enough and cheap.
    let fraction = 0;
    const sampler = samplePssByQuarter(session.profileDir, () => fraction, 250);
    const start = performance.now();
    let lastLog = start;
    imported = await importThroughPage(session, options.file, {
      pollMs: 100,
      startTimeoutMs: 60_000,
      onProgress: (p) => {
        if (p.totalBytes > 0) fraction = p.bytesRead / p.totalBytes;
        if (performance.now() - lastLog < 10_000) return;
        lastLog = performance.now();
        log(
          `  importing: ${(p.bytesRead / MiB).toFixed(0)} of ${(p.totalBytes / MiB).toFixed(0)} MiB, ${p.records} records, ${p.rows} rows`,
        );
      },
    });
    seconds = (performance.now() - start) / 1000;
    ({ peakPss, quarters, atPeak } = sampler.stop());
    cpuMs = cpuDelta(cpuBefore, browserCpuMs(session.profileDir));
    const machine = machineCpuMs();
    const benchCpu = process.cpuUsage(benchBefore);
    const browserTotal = Object.entries(cpuMs).reduce(
      (sum, [kind, ms]) => sum + (kind === 'serviceWorker' ? 0 : ms),
      0,
    );
    const otherMs = machine.busyMs - machineBefore.busyMs - browserTotal - (benchCpu.user + benchCpu.system) / 1000;
    otherShare = Math.max(0, otherMs / (machine.totalMs - machineBefore.totalMs));
    idbGrowth = folderBytes(idbDir) - idbBefore;
  } finally {
    await session.close();
  }
  const recordTypes = await countRecords(options.file);
  const records = Object.values(recordTypes).reduce((a, b) => a + b, 0);
  const fileBytes = statSync(options.file).size;
  const browserCpuTotal = Object.entries(cpuMs).reduce(
    (sum, [kind, ms]) => sum + (kind === 'serviceWorker' ? 0 : ms),
    0,
  );
  return {
    importFile: basename(options.file),
    importFileMiB: fixed(fileBytes / MiB, 1),
    importRecords: records,
    importRecordTypes: recordTypes,
    importRows: imported.rows,
    importWarnings: imported.warnings.length,
    importSeconds: fixed(seconds, 1),
    importRecordsPerSecond: fixed(records / seconds, 0),
    importRowsPerSecond: fixed(imported.rows / seconds, 0),
    importMiBPerSecond: fixed(fileBytes / MiB / seconds, 2),
    browserPssBeforeImportMiB: fixed(pssBefore / MiB, 0),
    browserPeakPssDuringImportMiB: fixed(peakPss / MiB, 0),
    // A quarter read between two samples (a fast import) has none: '–'.
    browserPeakPssByQuarterMiB: quarters
      .map((bytes) => (bytes === 0 ? '–' : String(fixed(bytes / MiB, 0))))
      .join(' / '),
    browserPssAtPeakByKindMiB: Object.fromEntries(
      Object.entries(atPeak)
        .filter(([, bytes]) => bytes >= MiB)
        .map(([kind, bytes]) => [kind, fixed(bytes / MiB, 0)]),
    ),
    importBrowserCpuSeconds: fixed(browserCpuTotal / 1000, 1),
    importCpuSecondsByProcess: Object.fromEntries(
      Object.entries(cpuMs).map(([kind, ms]) => [kind, fixed(ms / 1000, 1)]),
    ),
    importOtherCpuShare: fixed(otherShare, 2),
    importIndexedDbGrowthMiB: fixed(idbGrowth / MiB, 1),
  };
}

// `npm run bench:import -- --file ARCHIVE [--dist DIR]`: an archive of any tool, imported and measured;
// `--synthetic MIB`: a plain WARC of that size written first (`synthetic-warc.ts`), deleted after.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const ROOT = resolve(import.meta.dirname, '../..');
  const { values } = parseArgs({
    options: { file: { type: 'string' }, synthetic: { type: 'string' }, dist: { type: 'string' } },
  });
  const syntheticMiB = values.synthetic === undefined ? null : Number(values.synthetic);
  const usable =
    syntheticMiB === null
      ? values.file !== undefined && existsSync(values.file)
      : values.file === undefined && Number.isInteger(syntheticMiB) && syntheticMiB > 0;
  if (!usable) {
    process.stderr.write(
      'usage: npm run bench:import -- --file ARCHIVE.wacz|.warc|.warc.gz | --synthetic MIB [--dist DIR]   (npm run bench:export imports the WACZ it exports)\n',
    );
    process.exit(2);
  }
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const scratch = syntheticMiB === null ? null : mkdtempSync(join(tmpdir(), 'tabcrawl-bench-import-'));
  if (scratch !== null && syntheticMiB !== null) {
    values.file = join(scratch, `synthetic-${syntheticMiB}-mib.warc`);
    log(`writing a ${syntheticMiB} MiB WARC of 100 KiB pages to ${values.file}`);
    log(`  ${await writeSyntheticWarc(values.file, syntheticMiB)} records`);
  }
  process.on('exit', () => scratch !== null && rmSync(scratch, { recursive: true, force: true }));
  if (values.file === undefined) throw new Error('no file');
  if (values.dist === undefined) await ensureBuilt(ROOT, 'chrome', STDERR_BUILD_IO);
  const distDir = values.dist === undefined ? distDirOf(ROOT, 'chrome') : resolve(ROOT, values.dist);
  log(`importing ${values.file} in a fresh browser profile through the import page`);
  const figures = await measureImport({
    distDir,
    chromePath: findChromium(process.env),
    file: resolve(values.file),
    log,
  });
  const { importRecordTypes, importCpuSecondsByProcess, ...flat } = figures;
  console.table(flat);
  log(
    `records by type: ${JSON.stringify(importRecordTypes)}; CPU s by process: ${JSON.stringify(importCpuSecondsByProcess)}`,
  );
  mkdirSync(resolve(ROOT, '.tmp/bench'), { recursive: true });
  const out = resolve(ROOT, `.tmp/bench/import-${basename(values.file).replace(/[^\w.-]/g, '_')}.json`);
  writeFileSync(
    out,
    `${JSON.stringify({ machine: `${process.platform} ${process.arch}, node ${process.version}`, ...figures }, null, 2)}\n`,
  );
  log(`figures written to ${out}`);
}

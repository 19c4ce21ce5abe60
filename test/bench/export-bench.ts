/**
 * Benchmark: crawl a generated site with the built extension, then export it,
 * and print the times and the browser's peak memory. Not a test: it asserts
 * nothing, it measures.
 * `npm run bench:export -- [--pages N] [--format wacz|warc.gz|warc|csv|jsonl] [--parallel N] [--no-resources] [--no-import] [--dist DIR] [--out FILE] [--keep FILE]`
 * (`--out`: where the figures' JSON goes; `--keep`: where the exported file is copied, to import it again with
 * `npm run bench:import -- --file FILE`)
 *
 * The site is part 1's (`bench-sites.ts`): its pages use page resources (seven
 * shared, an image of their own) and every 50th links a PDF, and the crawl
 * archives them (the defaults), so the export holds about one resource per
 * page besides the page, each with its body (~12 KiB per page image, 100 KiB
 * per PDF). `--no-resources`: pages only (the crawl archives none). The crawl
 * is only the setup: it runs at `--parallel` requests at once per host (8) to
 * be quick; the export is what is measured. Then, unless `--no-import` (or the
 * format is not an archive: CSV, JSONL), the exported file is imported in a
 * fresh browser profile through the import page and that is measured too
 * (`import-bench.ts`): the browser that crawled is closed first.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { distDirOf, ensureBuilt, STDERR_BUILD_IO } from '../../src/shells/cli/build.ts';
import { findChromium } from '../../src/shells/cli/chromium.ts';
import { launchExtension } from '../../src/shells/cli/extension-driver.ts';
import { exportThroughPage } from '../../src/shells/cli/export-through-page.ts';
import { formatOfPath, type ExportFormat } from '../../src/export/format-info.ts';
import { startBenchSite } from './bench-sites.ts';
import { exportFiguresName } from './bench-report.ts';
import { measureImport, type ImportFigures } from './import-bench.ts';
import { browserRssBytes, samplePeakRss } from './process-memory.ts';
import { browserCpuMs, cpuDelta } from './process-stats.ts';
import { availableParallelism } from 'node:os';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '10000' },
    format: { type: 'string', default: 'wacz' },
    parallel: { type: 'string', default: '8' },
    'no-resources': { type: 'boolean' },
    'no-import': { type: 'boolean' },
    dist: { type: 'string' },
    out: { type: 'string' },
    keep: { type: 'string' },
  },
});
const pages = Number(values.pages);
const parallel = Number(values.parallel);
const resources = values['no-resources'] !== true;
const format: ExportFormat | null = formatOfPath(`x.${values.format}`);
const importsToo = values['no-import'] !== true && (format === 'wacz' || format === 'warc.gz' || format === 'warc');
if (
  !Number.isInteger(pages) ||
  pages < 1 ||
  !Number.isInteger(parallel) ||
  parallel < 1 ||
  parallel > 16 ||
  format === null
) {
  process.stderr.write(
    'usage: npm run bench:export -- [--pages N] [--format wacz|warc.gz|warc|csv|jsonl] [--parallel N] [--no-resources] [--no-import] [--dist DIR] [--out FILE] [--keep FILE]\n',
  );
  process.exit(2);
}

const MiB = 1024 * 1024;
const log = (line: string): void => void process.stderr.write(`${line}\n`);

// --dist: a separate build (as `npm run bench` passes its own); else dist/chrome/, built first when stale.
if (values.dist === undefined) await ensureBuilt(ROOT, 'chrome', STDERR_BUILD_IO);
const site = await startBenchSite(pages, { resources: true });
const distDir = values.dist === undefined ? distDirOf(ROOT, 'chrome') : resolve(ROOT, values.dist);
const chromePath = findChromium(process.env);
const session = await launchExtension({ distDir, chromePath, copyDist: true });
let isSessionOpen = true;
const out = mkdtempSync(join(tmpdir(), 'tabcrawl-bench-'));
try {
  log(
    `crawling ${pages} generated pages at ${site.origin} (delay 0, ${parallel} requests at once, ${resources ? 'archiving resources and files' : 'pages only'})`,
  );
  const crawlStart = performance.now();
  const settings = {
    startUrl: `${site.origin}/`,
    delayMs: 0,
    requestsPerHost: parallel,
    // Pages, the /private/ links (blocked) and the PDFs: all the site's pages fit.
    maxPages: pages * 2 + 100,
    maxDepth: 1000,
    archiveResources: resources,
    downloadFiles: resources,
    maxResources: 1_000_000,
  };
  const { crawl } = await session.request('crawl/start', { settings });
  let state = crawl;
  for (let lastLog = 0; state.state === 'running';) {
    await new Promise((r) => setTimeout(r, 500));
    state = (await session.request('crawl/get', { crawlId: crawl.id })).crawl;
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      log(`  ${state.counts.done} rows stored (${pages} pages${resources ? ' and about as many resources' : ''})`);
    }
  }
  const crawlSeconds = (performance.now() - crawlStart) / 1000;
  const rssBefore = browserRssBytes(session.profileDir);

  const file = join(out, `bench.${format}`);
  // Every 250 ms, as the import's: a read of every process's PSS costs ~25 ms of this process, whose event loop
  // also answers the page's chunks; every 100 ms it held the export back by about a fifth.
  const sampler = samplePeakRss(session.profileDir, 250);
  const cpuBefore = browserCpuMs(session.profileDir);
  const nodeBefore = process.cpuUsage();
  const exportStart = performance.now();
  const result = await exportThroughPage(session, crawl.id, format, file);
  const exportSeconds = (performance.now() - exportStart) / 1000;
  const peakRss = sampler.stop();
  const nodeCpu = process.cpuUsage(nodeBefore);
  const cpuMs = cpuDelta(cpuBefore, browserCpuMs(session.profileDir));
  // The worker's thread is counted in the extension's process already.
  delete cpuMs.serviceWorker;
  // The command line's side (decoding the chunks, writing the file) runs in this process, with the sampler.
  cpuMs.commandLine = Math.max(0, (nodeCpu.user + nodeCpu.system) / 1000 - sampler.spentMs());
  const cpuTotalMs = Object.values(cpuMs).reduce((sum, ms) => sum + ms, 0);
  const cores = availableParallelism();

  const resourceRows = state.counts.resources ?? 0;
  const fileRows = state.counts.files ?? 0;
  const pageRows = state.counts.done - resourceRows - fileRows;
  const figures = {
    machine: `${process.platform} ${process.arch}, node ${process.version}`,
    resources,
    requestsPerHost: parallel,
    // Rows of every kind, and of pages (blocked links among them), resources and files.
    rows: state.counts.done,
    pageRows,
    resourceRows,
    fileRows,
    bodiesStoredMiB: Number((state.counts.bytesStored / MiB).toFixed(1)),
    crawlSeconds: Number(crawlSeconds.toFixed(1)),
    crawlPagesPerSecond: Number((pageRows / crawlSeconds).toFixed(1)),
    crawlRowsPerSecond: Number((state.counts.done / crawlSeconds).toFixed(1)),
    format,
    exportSeconds: Number(exportSeconds.toFixed(1)),
    exportRowsPerSecond: Number((result.rows / exportSeconds).toFixed(0)),
    fileMiB: Number((statSync(file).size / MiB).toFixed(1)),
    // CPU of every process the export keeps busy, per row; and the rate it would reach if it kept every core
    // busy all the time (the bound this machine puts on it, whatever the overlap).
    exportCpuMsPerRow: Number((cpuTotalMs / result.rows).toFixed(3)),
    exportRowsPerSecondIfEveryCoreBusy: Number(((cores * 1000 * result.rows) / cpuTotalMs).toFixed(0)),
    browserPssBeforeExportMiB: Number((rssBefore / MiB).toFixed(0)),
    browserPeakPssDuringExportMiB: Number((peakRss / MiB).toFixed(0)),
  };
  if (values.keep !== undefined) copyFileSync(file, resolve(values.keep));
  // The import, in a fresh browser: the crawling one closed first, so the two never share the cores or memory.
  await session.close();
  isSessionOpen = false;
  let imported:
    Omit<ImportFigures, 'importRecordTypes' | 'importCpuSecondsByProcess'> | { importError: string } | null = null;
  let importDetails: Pick<ImportFigures, 'importRecordTypes' | 'importCpuSecondsByProcess'> | null = null;
  if (importsToo) {
    log(`importing the ${figures.fileMiB} MiB ${format} in a fresh browser profile through the import page`);
    try {
      const { importRecordTypes, importCpuSecondsByProcess, ...flat } = await measureImport({
        distDir,
        chromePath,
        file,
        log,
      });
      imported = flat;
      importDetails = { importRecordTypes, importCpuSecondsByProcess };
    } catch (error) {
      imported = { importError: error instanceof Error ? error.message : String(error) };
    }
  }
  console.table({ ...figures, ...imported });
  log(
    `export: CPU s by process ${JSON.stringify(
      Object.fromEntries(
        Object.entries(cpuMs)
          .filter(([, ms]) => ms >= 10)
          .map(([kind, ms]) => [kind, Number((ms / 1000).toFixed(2))]),
      ),
    )} on ${cores} cores`,
  );
  if (importDetails !== null)
    log(
      `import: records by type ${JSON.stringify(importDetails.importRecordTypes)}; browser CPU s by process ${JSON.stringify(importDetails.importCpuSecondsByProcess)}`,
    );
  // --out: the JSON elsewhere (the smoke test's temporary folder); else where part 4 reads it.
  const jsonFile =
    values.out === undefined
      ? resolve(ROOT, `.tmp/bench/${exportFiguresName(format, pages, resources)}`)
      : resolve(values.out);
  mkdirSync(dirname(jsonFile), { recursive: true });
  writeFileSync(jsonFile, `${JSON.stringify({ ...figures, ...imported, ...importDetails }, null, 2)}\n`);
} finally {
  if (isSessionOpen) await session.close();
  await site.close();
  rmSync(out, { recursive: true, force: true });
}

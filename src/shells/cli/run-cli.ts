/**
 * The CLI from arguments to exit code: parse, build, launch the extension,
 * crawl, export, summarise. `main.ts` only wires it to the process.
 */
import { readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { TabcrawlError, type CrawlSummary, type ReplyOf } from '../../messaging/protocol.ts';
import type { CrawlCounts } from '../../core/model.ts';
import { severityCountsText, worstChecksFirst } from '../../audit/audit.ts';
import { parseCliArgs, outputFormat, parallelNote, USAGE, type CliSettings } from './args.ts';
import { distDirOf, ensureBuilt } from './build.ts';
import { findChromium } from './chromium.ts';
import { chromiumLaunchProblem } from './launch-problem.ts';
import { waitForCrawl, type RequestFn, type WaitResult } from './wait-for-crawl.ts';
import { exportThroughPage } from './export-through-page.ts';
import type { ExportFormat } from '../../export/format-info.ts';
import { startDemoSite, type DemoSite } from './demo-site.ts';
import { launchExtension } from './extension-driver.ts';
import { findFirefox } from './firefox.ts';
import type { SinkPageOpener } from './export-through-page.ts';
import {
  importThroughPage,
  type FilePageOpener,
  type ImportedArchive,
  type ImportPageProgress,
} from './import-through-page.ts';
import type { CliBrowser } from './args.ts';
import { notCrawledText } from '../../ui/not-crawled-text.ts';
import {
  createProgressReporter,
  exportingLine,
  formatSummary,
  startingLine,
  unansweredNote,
  waitingNote,
  watchSilence,
} from './progress.ts';
import { formatBytes } from '../../ui/format-bytes.ts';
import { visibleControls } from '../../ui/visible-controls.ts';
import { messageWriter, visibleLines } from './message-lines.ts';
import { formatDuration } from '../../ui/format-time.ts';
import { browsertrixConfigYaml } from '../../handoff/browsertrix-config.ts';

/** Exit codes of the CLI. */
export const EXIT = Object.freeze({ ok: 0, failed: 1, usage: 2, interrupted: 130 });

/** What the CLI may touch of the outside world. */
export interface CliIo {
  /** Writes text to stdout as is. */
  stdout: (text: string) => void;
  /** Writes text to stderr as is. */
  stderr: (text: string) => void;
  /** Whether stderr is a terminal (progress is then updated in place). */
  isStderrTTY: boolean;
  env: Readonly<Record<string, string | undefined>>;
  /** The project root: `dist/` and the sources live there. */
  root: string;
  /** Relative output paths are resolved from here. */
  cwd: string;
  /** Aborts on Ctrl-C: the crawl is stopped, what was stored is still written. */
  signal: AbortSignal;
  /**
   * When the command started, ms since the epoch: the first silence counts from there, not from when
   * the code was loaded (loading the browser drivers takes a second or two, more on a busy machine).
   * @default the call's own start
   */
  startedAt?: number;
}

/** What the demo writes: the archive for replay, and the two tables. */
export const DEMO_EXTENSIONS = ['.wacz', '.csv', '.jsonl'] as const;

/** `demo-2024-05-01-134502<extension>` in `outDir`, from the local time `date`. */
export function demoOutputPath(outDir: string, date: Date, extension: string = '.jsonl'): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  const stamp =
    `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}-` +
    `${two(date.getHours())}${two(date.getMinutes())}${two(date.getSeconds())}`;
  return join(outDir, `demo-${stamp}${extension}`);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs the CLI with `argv` (the arguments after the script) and returns the exit code. Never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  /** When a message line was last written, ms since the epoch (the silence before the first counts from here). */
  let lastSaidAt = Math.min(Date.now(), io.startedAt ?? Number.POSITIVE_INFINITY);
  const sayLine = messageWriter(io.stderr);
  const say = (text: string): void => {
    lastSaidAt = Date.now();
    sayLine(text);
  };

  const command = parseCliArgs(argv);
  if (command.kind === 'usage-error') {
    say(command.message);
    io.stderr('run with --help for the options\n');
    return EXIT.usage;
  }
  if (command.kind === 'help') {
    io.stdout(`${USAGE}\n`);
    return EXIT.ok;
  }

  // A file that is not there is bad input like a bad option: said before a browser starts.
  if (command.kind === 'import') {
    const problem = importFileProblem(resolve(io.cwd, command.file), command.file);
    if (problem !== null) {
      say(problem);
      io.stderr('run with --help for the options\n');
      return EXIT.usage;
    }
  }

  let site: DemoSite | null = null;
  let session: BrowserSession | null = null;
  try {
    const { browser } = command;
    // Found before the build: a missing browser is said at once.
    const browserPath = browser === 'firefox' ? findFirefox(io.env) : findChromium(io.env);
    await ensureBuilt(io.root, browser, {
      say,
      begin: (text) => {
        lastSaidAt = Date.now();
        io.stderr(`tabcrawl: ${visibleControls(text)}`);
      },
      write: (text) => {
        lastSaidAt = Date.now();
        io.stderr(visibleLines(text));
      },
      verbose: command.verbose === true,
    });
    if (io.signal.aborted) return EXIT.interrupted;

    let settings: CliSettings | null = null;
    let outputs: string[];
    let handoff: Handoff = {};
    if (command.kind === 'import') {
      outputs = command.outputs;
    } else if (command.kind === 'demo') {
      site = await startDemoSite();
      settings = { startUrl: site.startUrl, delayMs: 200, maxPages: 100 };
      const now = new Date();
      outputs = DEMO_EXTENSIONS.map((extension) => demoOutputPath(command.outDir, now, extension));
      say(`demo site running at ${site.origin}`);
    } else {
      settings = command.settings;
      outputs = command.outputs;
      if (command.browsertrixConfig !== undefined)
        handoff = { browsertrixConfig: command.browsertrixConfig, version: extensionVersion(io.root) };
    }

    const launchedAt = Date.now();
    const starting = (): string =>
      startingLine(Date.now() - launchedAt, browser === 'firefox' ? 'Firefox' : 'Chromium');
    // Never silent for long: the browser may take a while to start, or never start (its driver waits for it).
    const stopWatch = watchSilence({
      lastWrittenAt: () => lastSaidAt,
      describe: starting,
      fallback: starting,
      write: say,
    });
    try {
      session = await launchIn(browser, distDirOf(io.root, browser), browserPath);
    } finally {
      stopWatch();
    }
    if (io.signal.aborted) return EXIT.interrupted;
    if (command.kind === 'import')
      return await importAndExport(sessionPort(session), command.file, outputs, io, say, lastSaidAt, command.rules);
    if (settings === null) throw new Error('no crawl settings');
    return await crawlAndExport(sessionPort(session), settings, outputs, io, say, lastSaidAt, handoff);
  } catch (error) {
    say(error instanceof TabcrawlError ? `${error.code}: ${error.message}` : errorMessage(error));
    return EXIT.failed;
  } finally {
    await session?.close().catch(() => undefined);
    await site?.close().catch(() => undefined);
  }
}

/** What else the crawl is written as, besides its exports: the hand-off to another crawler. */
export interface Handoff {
  /** Where to write the crawl's settings as a Browsertrix Crawler config (`--browsertrix-config`). */
  browsertrixConfig?: string;
  /** Tabcrawl's version, for the config's User-Agent. @default 'unknown' */
  version?: string;
}

/** The extension's version, as its manifest says (the User-Agent of its crawls names it). */
export function extensionVersion(root: string): string {
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Most failed checks named on the issues line. */
const ISSUES_NAMED = 5;

/**
 * The summary's last line: the issues by severity, then the worst checks (the
 * most severe first, then the most issues), e.g. `issues: 2 errors, 1 warning, 0 notices (broken-link-internal 2, slow-response 1)`.
 * @param isWritten an `--out NAME.issues.csv` lists them; otherwise the line says how to.
 */
export function issuesLine(issues: ReplyOf<'crawl/issues'>, isWritten: boolean): string {
  const top = worstChecksFirst(issues.checks).slice(0, ISSUES_NAMED);
  const named =
    top.length === 0
      ? ''
      : ` (${top.map(({ check, count }) => `${check} ${count}`).join(', ')}${issues.checks.length > top.length ? ', …' : ''})`;
  const hint = isWritten || issues.checks.length === 0 ? '' : '; every one: --out NAME.issues.csv';
  return `issues: ${severityCountsText(issues.bySeverity)}${named}${hint}`;
}

/**
 * The line for what the crawl's rules left unvisited, e.g.
 * `13 URLs not crawled: deeper than 2; every one: --out NAME.not-crawled.csv`; null when none.
 * @param isWritten an `--out NAME.not-crawled.csv` lists them; otherwise the line says how to.
 */
export function notCrawledLine(
  crawl: { counts: Pick<CrawlCounts, 'notCrawled'>; settings: Parameters<typeof notCrawledText>[1] },
  isWritten: boolean,
): string | null {
  const text = notCrawledText(crawl.counts.notCrawled, crawl.settings);
  if (text === null) return null;
  return isWritten ? text : `${text}; every one: --out NAME.not-crawled.csv`;
}

/** What a crawl and its exports need of the running extension: an {@link ExtensionSession}, or a fake in tests. */
export interface CrawlPort {
  /** Sends one protocol request to the background. */
  request: RequestFn;
  /**
   * Writes crawl `crawlId` as `format` into the file `path`.
   * @param onProgress rows written so far and the crawl's row count.
   */
  exportTo: (
    crawlId: string,
    format: ExportFormat,
    path: string,
    onProgress: (done: number, total: number) => void,
  ) => Promise<{ rows: number; bytes: number }>;
}

/** What an import and its exports need of the running extension: a {@link CrawlPort} that can also import a file. */
export interface ImportPort extends CrawlPort {
  /**
   * Imports the archive at `path` (absolute) as a new crawl, through the extension's import page.
   * @throws Error with the reader's message when it fails (nothing stored); an `AbortError` once `signal` aborted it.
   */
  importFile: (
    path: string,
    options: { signal: AbortSignal; onProgress: (progress: ImportPageProgress) => void },
  ) => Promise<ImportedArchive>;
}

/** What the CLI needs of a browser running the extension, Chromium's session or Firefox's. */
type BrowserSession = Pick<CrawlPort, 'request'> & SinkPageOpener & FilePageOpener & { close(): Promise<void> };

/** Starts `browser` (at `browserPath`) with the extension built into `distDir`; a failed start is one clear line. */
async function launchIn(browser: CliBrowser, distDir: string, browserPath: string): Promise<BrowserSession> {
  if (browser === 'firefox') {
    // Loaded only for Firefox: puppeteer-core takes a while to load, and a Chromium run never needs it.
    const { launchFirefoxExtension } = await import('./firefox-driver.ts');
    return launchFirefoxExtension({ distDir, firefoxPath: browserPath }).catch((error: unknown) => {
      throw new Error(
        `Firefox (${browserPath}) did not start: ${errorMessage(error).split('\n')[0] ?? ''}; set FIREFOX_PATH to a Firefox that runs`,
      );
    });
  }
  return launchExtension({ distDir, chromePath: browserPath }).catch((error: unknown) => {
    throw new Error(chromiumLaunchProblem(errorMessage(error), browserPath));
  });
}

/** The {@link ImportPort} of a launched extension. */
export function sessionPort(session: Pick<CrawlPort, 'request'> & SinkPageOpener & FilePageOpener): ImportPort {
  return {
    request: session.request,
    exportTo: (crawlId, format, path, onProgress) => exportThroughPage(session, crawlId, format, path, onProgress),
    importFile: (path, options) => importThroughPage(session, path, options),
  };
}

/** Why `--import` cannot read `path` (as the user wrote it: `given`), or null when it is a file. */
export function importFileProblem(path: string, given: string): string | null {
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return `--import '${given}': not a file`;
    // The import page would read nothing and say so less plainly ("0 B of 0 B, 0 records").
    if (stat.size === 0) return `--import '${given}': the file is empty: not a WARC or WACZ`;
    return null;
  } catch {
    return `--import '${given}': no such file`;
  }
}

/**
 * Starts a crawl, reports on it until it ends, writes each of `outputs` and
 * sums up. Returns the exit code.
 * @param sayLine writes one message line (the caller adds the `tabcrawl: ` prefix).
 * @param quietSince when the caller last wrote a line, ms since the epoch: the first silence counts from there.
 * @param handoff the Browsertrix Crawler config to write too, from the crawl's settings as stored.
 */
export async function crawlAndExport(
  port: CrawlPort,
  settings: CliSettings,
  outputs: readonly string[],
  io: Pick<CliIo, 'stderr' | 'isStderrTTY' | 'cwd' | 'signal'>,
  sayLine: (line: string) => void,
  quietSince: number = Date.now(),
  handoff: Handoff = {},
): Promise<number> {
  /** When a line of ours was last written, ms since the epoch. */
  let lastSaidAt = quietSince;
  const say = (line: string): void => {
    lastSaidAt = Date.now();
    sayLine(line);
  };
  const askedAt = Date.now();
  const asking = (): string =>
    `waiting for the extension to start the crawl, ${formatDuration(Date.now() - askedAt)} so far`;
  const stopStartWatch = watchSilence({
    lastWrittenAt: () => lastSaidAt,
    describe: asking,
    fallback: asking,
    write: say,
  });
  let started: CrawlSummary;
  try {
    ({ crawl: started } = await port.request('crawl/start', { settings }));
  } finally {
    stopStartWatch();
  }
  say(`crawling ${started.startUrl}`);
  const note = parallelNote(settings);
  if (note !== null) say(note);

  const progress = createProgressReporter({ write: io.stderr, isTTY: io.isStderrTTY });
  /** The crawl as last read, and when (ms since the epoch). */
  let latest = started;
  let answeredAt = Date.now();
  const onProgress = (crawl: CrawlSummary): void => {
    latest = crawl;
    answeredAt = Date.now();
    progress.update(crawl);
  };
  // Never silent for long: what the crawl waits for (a Crawl-delay, a back-off, a slow answer) and how long it ran,
  // or how long the extension has not answered.
  const stopWatch = watchSilence({
    lastWrittenAt: () => Math.max(lastSaidAt, progress.lastWrittenAt() ?? 0),
    describe: () =>
      port.request('crawl/hosts', { crawlId: started.id }).then(({ hosts }) => waitingNote(latest, hosts, Date.now())),
    fallback: () => unansweredNote(latest, answeredAt, Date.now()),
    write: (line) => progress.note(`tabcrawl: ${line}`),
  });
  let result: WaitResult;
  try {
    result = await waitForCrawl(port.request, started.id, { signal: io.signal, onProgress });
  } finally {
    stopWatch();
    progress.finish();
  }
  const { crawl, interrupted } = result;
  if (interrupted) say('interrupted: the crawl was stopped; writing what was stored');
  // The reason first: a failed crawl's counters say little, and nothing said after it may read as a result.
  if (crawl.state === 'failed') say(`the crawl failed: ${crawl.message ?? 'no reason given'}`);

  let exportFailed = !(await writeOutputs(port, crawl.id, outputs, io.cwd, say, () => lastSaidAt));
  if (handoff.browsertrixConfig !== undefined) {
    const path = resolve(io.cwd, handoff.browsertrixConfig);
    try {
      const text = browsertrixConfigYaml({
        settings: crawl.settings,
        version: handoff.version ?? 'unknown',
        createdAt: crawl.createdAt,
        fileName: basename(path),
      });
      await writeFile(path, text);
      say(`wrote the Browsertrix Crawler config to ${path}`);
    } catch (error) {
      exportFailed = true;
      say(`could not write ${path}: ${errorMessage(error)}`);
    }
  }
  if (outputs.length === 0 && handoff.browsertrixConfig === undefined) say('no --out given: nothing written');

  // A crawl that failed before recording anything has nothing to sum up: its reason was said above.
  if (!(crawl.state === 'failed' && crawl.counts.done === 0)) {
    say(formatSummary(crawl, Date.now()));
    const leftOut = notCrawledLine(
      crawl,
      outputs.some((output) => outputFormat(output) === 'not-crawled.csv'),
    );
    if (leftOut !== null) say(leftOut);
    await port
      .request('crawl/issues', { crawlId: crawl.id })
      .then((issues) =>
        say(
          issuesLine(
            issues,
            outputs.some((output) => outputFormat(output) === 'issues.csv'),
          ),
        ),
      )
      .catch((error: unknown) => say(`could not count the issues: ${errorMessage(error)}`));
  }
  if (interrupted) return EXIT.interrupted;
  if (crawl.state === 'failed') return EXIT.failed;
  if (crawl.state !== 'finished') {
    say(`the crawl ended ${crawl.state}${crawl.message === null ? '' : `: ${crawl.message}`}`);
    return EXIT.failed;
  }
  if (crawl.message !== null) say(crawl.message);
  return exportFailed ? EXIT.failed : EXIT.ok;
}

/**
 * Writes crawl `crawlId` to each of `outputs` (format by extension), saying how far a long export is
 * and what was written. Returns whether every one was written.
 * @param lastSaidAt when a line was last written, ms since the epoch (the silence counts from there).
 */
async function writeOutputs(
  port: CrawlPort,
  crawlId: string,
  outputs: readonly string[],
  cwd: string,
  say: (line: string) => void,
  lastSaidAt: () => number,
): Promise<boolean> {
  let isAllWritten = true;
  for (const output of outputs) {
    const path = resolve(cwd, output);
    const format = outputFormat(output) ?? 'jsonl';
    const startedAt = Date.now();
    let done: { done: number; total: number } | null = null;
    const line = (): string => exportingLine(output, done, Date.now() - startedAt);
    // Never silent for long: a large export says how far it is at least every QUIET_MAX_MS.
    const stopWatch = watchSilence({ lastWrittenAt: lastSaidAt, describe: line, fallback: line, write: say });
    try {
      const { rows, bytes } = await port.exportTo(crawlId, format, path, (rowsDone, total) => {
        done = { done: rowsDone, total };
        if (Date.now() - lastSaidAt() >= 1000) say(line());
      });
      say(`wrote ${rows} ${rows === 1 ? 'URL' : 'URLs'} (${formatBytes(bytes)}) to ${path}`);
    } catch (error) {
      isAllWritten = false;
      say(`could not write ${path}: ${errorMessage(error)}`);
    } finally {
      stopWatch();
    }
  }
  return isAllWritten;
}

/** Least time between two progress lines of an import, ms (a line also comes whenever QUIET_MAX_MS would pass). */
export const IMPORT_PROGRESS_EVERY_MS = 2000;
/** Warnings listed after an import; the rest are counted. */
const WARNINGS_LISTED = 5;

/** `importing site.wacz: 12 MB of 40 MB (30%), 1,200 records, 800 URLs, about 10 s left` (the URLs: rows stored so far, as `imported N URLs` counts them). */
export function importingLine(fileName: string, progress: ImportPageProgress | null, elapsedMs: number): string {
  if (progress === null) return `importing ${fileName}: opening it, ${formatDuration(elapsedMs)} so far`;
  const percent = progress.totalBytes > 0 ? ` (${Math.floor((100 * progress.bytesRead) / progress.totalBytes)}%)` : '';
  const left =
    progress.bytesRead > 0 && progress.totalBytes > progress.bytesRead && elapsedMs >= 1000
      ? `, about ${formatDuration((elapsedMs * (progress.totalBytes - progress.bytesRead)) / progress.bytesRead)} left`
      : '';
  const plural = (n: number, word: string): string => `${n} ${n === 1 ? word : `${word}s`}`;
  return `importing ${fileName}: ${formatBytes(progress.bytesRead)} of ${formatBytes(progress.totalBytes)}${percent}, ${plural(progress.records, 'record')}, ${plural(progress.rows, 'URL')}${left}`;
}

/**
 * Imports the archive `file` as a crawl through the extension's import page, reports on it until it is
 * stored, writes each of `outputs` and sums up (`imported N URLs from FILE`). Returns the exit code:
 * 0, 1 when the archive could not be read (nothing stored) or an output not written, 130 when interrupted
 * (the import is cancelled: nothing stored).
 */
export async function importAndExport(
  port: ImportPort,
  file: string,
  outputs: readonly string[],
  io: Pick<CliIo, 'cwd' | 'signal'>,
  sayLine: (line: string) => void,
  quietSince: number = Date.now(),
  rules?: { searches: readonly string[]; extractions: readonly string[] },
): Promise<number> {
  let lastSaidAt = quietSince;
  const say = (line: string): void => {
    lastSaidAt = Date.now();
    sayLine(line);
  };
  const path = resolve(io.cwd, file);
  const size = statSync(path).size;
  say(`importing ${path} (${formatBytes(size)})`);
  const startedAt = Date.now();
  let latest: ImportPageProgress | null = null;
  const line = (): string => importingLine(file, latest, Date.now() - startedAt);
  const stopWatch = watchSilence({ lastWrittenAt: () => lastSaidAt, describe: line, fallback: line, write: say });
  let imported: ImportedArchive;
  try {
    imported = await port.importFile(path, {
      signal: io.signal,
      onProgress: (progress) => {
        latest = progress;
        if (Date.now() - lastSaidAt >= IMPORT_PROGRESS_EVERY_MS) say(line());
      },
    });
  } catch (error) {
    if (io.signal.aborted) {
      say(`interrupted: ${errorMessage(error)}`);
      return EXIT.interrupted;
    }
    say(`could not import ${path}: ${errorMessage(error)}`);
    say('nothing was stored');
    return EXIT.failed;
  } finally {
    stopWatch();
  }
  const { warnings } = imported;
  if (warnings.length > 0) {
    say(`${warnings.length} ${warnings.length === 1 ? 'warning' : 'warnings'} while reading ${file}:`);
    for (const warning of warnings.slice(0, WARNINGS_LISTED)) say(`  ${warning}`);
    if (warnings.length > WARNINGS_LISTED)
      say(`  … and ${warnings.length - WARNINGS_LISTED} more (the import page lists them all)`);
  }

  let rulesFailed = false;
  if (rules !== undefined) {
    // From the bodies just stored, nothing fetched (docs/search-and-extraction.md); the exports then have the columns.
    const counted = `${rules.searches.length} ${rules.searches.length === 1 ? 'search' : 'searches'} and ${rules.extractions.length} ${rules.extractions.length === 1 ? 'extraction' : 'extractions'}`;
    say(`applying ${counted} to the imported pages`);
    try {
      const applied = await port.request('crawl/apply-rules', {
        crawlId: imported.crawlId,
        searches: [...rules.searches],
        extractions: [...rules.extractions],
      });
      const pages = `${applied.pages} HTML ${applied.pages === 1 ? 'page' : 'pages'}`;
      say(
        applied.withoutBody === 0
          ? `applied to ${pages}`
          : `applied to ${pages} (${applied.withoutBody} without a stored body: no findings)`,
      );
    } catch (error) {
      // The import stands: written out without the findings, and the run fails.
      say(`could not apply the searches and extractions: ${errorMessage(error)}`);
      rulesFailed = true;
    }
  }
  const isAllWritten = await writeOutputs(port, imported.crawlId, outputs, io.cwd, say, () => lastSaidAt);
  if (outputs.length === 0)
    say("no --out given: nothing written (the crawl is stored in this run's browser profile only)");
  say(`imported ${imported.rows} ${imported.rows === 1 ? 'URL' : 'URLs'} from ${file}`);
  await port
    .request('crawl/issues', { crawlId: imported.crawlId })
    .then((issues) =>
      say(
        issuesLine(
          issues,
          outputs.some((output) => outputFormat(output) === 'issues.csv'),
        ),
      ),
    )
    .catch((error: unknown) => say(`could not count the issues: ${errorMessage(error)}`));
  if (io.signal.aborted) return EXIT.interrupted;
  return isAllWritten && !rulesFailed ? EXIT.ok : EXIT.failed;
}

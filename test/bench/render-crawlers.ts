/**
 * The two crawlers of the bench's rendered part, each run as a child process
 * the way its user runs it: Tabcrawl's command line (`tsx
 * src/shells/cli/main.ts <url> --render always …`, what `npm run crawl`
 * runs), and Crawlee's `PlaywrightCrawler` (`crawlee-crawl.ts`). Around each,
 * the memory of the browser it started (`render-memory.ts`).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { CrawleeJob, CrawleeResult } from './crawlee-crawl.ts';
import { ROOT } from './bench-report.ts';
import { sampleChromiumTree, type MemorySample } from './render-memory.ts';

/** The `tsx` of the checkout: both children run TypeScript as `npm run crawl` does. */
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

/** What a child crawl did, as seen from outside. Times in ms since the epoch (the server log's clock) or ms. */
export interface ChildRun {
  /** The exit code (null when killed). */
  exitCode: number | null;
  /** Killed at the time limit. */
  timedOut: boolean;
  /** From the spawn to the exit, in ms: loading, the browser's start and end included. */
  wallMs: number;
  stdout: string;
  /** The last 4 KB of stderr. */
  stderrTail: string;
  /** The browser's memory every second (see `sampleChromiumTree`). */
  memory: MemorySample[];
}

/**
 * Runs `args` with the checkout's tsx, sampling the browser's memory. In the bench's process group, so that
 * Ctrl-C reaches it too; past its time limit it gets SIGINT (Tabcrawl's command line then stops its crawl and
 * closes its browser, Crawlee's Playwright closes its own), then SIGKILL 15 s later.
 */
export async function runChild(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeLimitMs: number,
): Promise<ChildRun> {
  const started = performance.now();
  const child = spawn(TSX, [...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderrTail = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-4096);
  });
  const pid = child.pid;
  const memory = pid === undefined ? { stop: () => [] } : sampleChromiumTree(pid);
  let timedOut = false;
  const limit = setTimeout(() => {
    timedOut = true;
    child.kill('SIGINT');
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  }, timeLimitMs);
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  clearTimeout(limit);
  const samples = memory.stop();
  return { exitCode, timedOut, wallMs: performance.now() - started, stdout, stderrTail, memory: samples };
}

/** The settings of Tabcrawl's rendered crawl of a bench site of `pages` pages: delay 0, every page rendered. */
export function tabcrawlRenderArgs(startUrl: string, pages: number): string[] {
  return [
    join('src', 'shells', 'cli', 'main.ts'),
    startUrl,
    '--render',
    'always',
    '--delay',
    '0',
    '--max-pages',
    String(pages + 10),
    '--max-depth',
    '1000',
  ];
}

/** Whether a Tabcrawl run failed because this build has no `--render` yet (a usage error naming it). */
export const lacksRenderOption = (run: ChildRun): boolean =>
  run.exitCode === 2 && run.stderrTail.includes("unknown option '--render'");

/** Tabcrawl's command line on `startUrl` with `--render always`, in the Chromium at `chromePath`. */
export function runTabcrawlRendered(
  startUrl: string,
  pages: number,
  chromePath: string,
  timeLimitMs: number,
): Promise<ChildRun> {
  return runChild(tabcrawlRenderArgs(startUrl, pages), { ...process.env, CHROME_PATH: chromePath }, timeLimitMs);
}

/** Crawlee's child on `job`; its result, or null when it printed none (see the run's stderr). */
export async function runCrawlee(
  job: CrawleeJob,
  timeLimitMs: number,
): Promise<{ run: ChildRun; result: CrawleeResult | null }> {
  const run = await runChild(
    [join('test', 'bench', 'crawlee-crawl.ts'), JSON.stringify(job)],
    { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    timeLimitMs,
  );
  const line = run.stdout.trim().split('\n').pop() ?? '';
  try {
    return { run, result: JSON.parse(line) as CrawleeResult };
  } catch {
    return { run, result: null };
  }
}

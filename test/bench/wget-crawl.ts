/**
 * GNU wget as the peer of part 1: a recursive crawl of one local site with
 * robots.txt obeyed and a WARC written, no wait between requests (wget's
 * default), so it is as free of politeness as Tabcrawl at delay 0.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitedChildrenCpuMs, sampleChildProcess } from './process-stats.ts';

/** Debian's wget. */
export const WGET_PATH = '/usr/bin/wget';

/** What to tell the user when {@link WGET_PATH} is missing. */
export const WGET_INSTALL_HINT = `wget is not installed at ${WGET_PATH}, so the wget column is skipped; install it with: apt-get install -y wget`;

export function hasWget(): boolean {
  return existsSync(WGET_PATH);
}

/**
 * The arguments: recursive without a depth limit (wget's default is 5; the
 * generated site is deeper), robots.txt on, a gzip WARC, quiet, files into
 * `dir`, then `extra` (what to fetch besides: see {@link WGET_PAGES_ONLY},
 * {@link WGET_PAGE_REQUISITES}). No `--wait`, no `--limit-rate`.
 */
export function wgetArgs(startUrl: string, dir: string, extra: readonly string[] = []): string[] {
  return [
    '--recursive',
    '--level=inf',
    '-e',
    'robots=on',
    `--warc-file=${join(dir, 'crawl')}`,
    '--no-verbose',
    `--directory-prefix=${join(dir, 'files')}`,
    '--tries=1',
    ...extra,
    startUrl,
  ];
}

/**
 * wget on a bench site with resources, pages only: its resource folders left out (`-X`), as Tabcrawl with
 * `--no-resources --no-files` leaves them (the linked PDFs are still requested by both: wget downloads them,
 * Tabcrawl reads their headers and cancels the body).
 */
export const WGET_PAGES_ONLY: readonly string[] = ['--exclude-directories=/res,/img'];

/**
 * wget on a bench site with resources, everything: `--page-requisites` (in a recursive crawl without a depth
 * limit wget fetches `<img>`, `<script>` and stylesheets anyway; `-p` makes sure of it), stylesheets parsed for
 * their `@import`s and `url()`s, the linked PDFs downloaded, as Tabcrawl archiving resources and files does.
 */
export const WGET_PAGE_REQUISITES: readonly string[] = ['--page-requisites'];

export interface WgetRun {
  /** From the spawn to the exit, in ms. */
  wallMs: number;
  /** wget's exit code (8 means some response was an HTTP error). */
  exitCode: number | null;
  /** The most memory wget held (VmHWM), in bytes. */
  peakRssBytes: number;
  /** User + system CPU time, in ms. */
  cpuMs: number;
  /** Size of the WARC written, in bytes. */
  warcBytes: number;
}

/** Crawls `startUrl` with wget in a temporary folder (removed after), with `extra` arguments (see {@link wgetArgs}). */
export async function runWget(startUrl: string, extra: readonly string[] = []): Promise<WgetRun> {
  const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-bench-wget-'));
  try {
    const cpuBefore = exitedChildrenCpuMs();
    const started = performance.now();
    const child = spawn(WGET_PATH, wgetArgs(startUrl, dir, extra), { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderrTail = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-2000);
    });
    const sampler = child.pid === undefined ? null : sampleChildProcess(child.pid);
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => resolve(code));
    });
    const wallMs = performance.now() - started;
    const sampled = sampler?.stop() ?? { peakRssBytes: 0, cpuMs: 0 };
    if (exitCode !== 0 && exitCode !== 8)
      throw new Error(`wget exited with ${String(exitCode)}: ${stderrTail.trim().split('\n').slice(-3).join(' | ')}`);
    const warc = join(dir, 'crawl.warc.gz');
    return {
      wallMs,
      exitCode,
      peakRssBytes: sampled.peakRssBytes,
      cpuMs: Math.max(sampled.cpuMs, exitedChildrenCpuMs() - cpuBefore),
      warcBytes: existsSync(warc) ? statSync(warc).size : 0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

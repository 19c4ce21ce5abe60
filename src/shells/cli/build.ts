/**
 * Builds the extension for one browser when its build (`dist/<browser>/`) is
 * missing or older than its sources, so `npm start` and `npm run crawl` always
 * drive the code as it is; in one line, unless it fails or `--verbose` asks for
 * the build's own output.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { formatDuration } from '../../ui/format-time.ts';

/**
 * The browsers there is a build for: Vite's `--mode`, and the folder under `dist/`. The same list as
 * `TARGET_BROWSERS` in src/shells/build/manifest.ts (test/unit/cli-build.test.ts checks it), written
 * again here because a shell may not import another shell (test/unit/layering.test.ts).
 */
export const BUILD_BROWSERS = ['chrome', 'firefox'] as const;
export type BuildBrowser = (typeof BUILD_BROWSERS)[number];

/** Where the build for `browser` goes: `<root>/dist/<browser>`. */
export function distDirOf(root: string, browser: BuildBrowser): string {
  return join(root, 'dist', browser);
}

/** What the build reads, relative to the project root. Folders are walked recursively. */
export const BUILD_INPUTS: readonly string[] = ['src', 'public', 'manifest.json', 'vite.config.ts', 'package.json'];

/** Paths under the inputs that the extension does not contain: the CLI itself, and the script that zips the builds. */
export const BUILD_EXCLUDED: readonly string[] = [
  join('src', 'shells', 'cli'),
  join('src', 'shells', 'build', 'package.ts'),
];

/** A build that exited with an error. */
export class BuildError extends Error {
  /** The exit code of the build, or null when it was killed by a signal. */
  readonly exitCode: number | null;
  constructor(exitCode: number | null, message: string) {
    super(message);
    this.name = 'BuildError';
    this.exitCode = exitCode;
  }
}

/** Newest modification time among the files under `path`, in ms since the epoch; 0 when there are none. */
function newestMtimeMs(root: string, path: string): number {
  if (BUILD_EXCLUDED.includes(relative(root, path))) return 0;
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtimeMs(root, join(path, name)));
  return newest;
}

/**
 * Whether `dist/<browser>/` needs a (re)build: its `manifest.json` is missing, or older
 * than the newest file among {@link BUILD_INPUTS} (minus {@link BUILD_EXCLUDED}).
 * @param root the project root (the folder of `package.json`).
 */
export function isBuildStale(root: string, browser: BuildBrowser): boolean {
  const builtManifest = join(distDirOf(root, browser), 'manifest.json');
  if (!existsSync(builtManifest)) return true;
  const builtAt = statSync(builtManifest).mtimeMs;
  const newestSource = Math.max(...BUILD_INPUTS.map((input) => newestMtimeMs(root, join(root, input))));
  return newestSource > builtAt;
}

/**
 * Runs a build of the extension for `browser` in `root`, handing its output (stdout and stderr, as they come)
 * to `onOutput`. Resolves when it succeeded.
 * @throws {BuildError} when it could not run or failed.
 */
export type BuildRunner = (root: string, browser: BuildBrowser, onOutput: (text: string) => void) => Promise<void>;

/** Runs `vite build --mode <browser>` in `root` (it writes `dist/<browser>/`), its output handed to `onOutput`. */
export const runViteBuild: BuildRunner = (root, browser, onOutput) => {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--mode', browser], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.setEncoding('utf8').on('data', onOutput);
    child.stderr.setEncoding('utf8').on('data', onOutput);
    child.once('error', (error) => reject(new BuildError(null, `could not run the build: ${error.message}`)));
    // 'close', not 'exit': the output is all read by then.
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new BuildError(
            code,
            `the extension build failed (${signal ?? `exit code ${String(code)}`}); its output is above`,
          ),
        );
    });
  });
};

/** Where {@link ensureBuilt} writes, and how much. */
export interface BuildIo {
  /** Writes one whole message line (the CLI adds its `tabcrawl: `). */
  say: (line: string) => void;
  /** Begins a message line (the CLI adds its `tabcrawl: `) that a later {@link write} ends. */
  begin: (text: string) => void;
  /** Writes text to stderr as is: a line's end, the build's own output. */
  write: (text: string) => void;
  /** Shows the build's own output as it runs (`--verbose`); otherwise it is shown only when the build fails. @default false */
  verbose?: boolean;
  /** The clock, ms since the epoch, for how long the build took. @default Date.now */
  now?: () => number;
}

/** A {@link BuildIo} on the process's stderr, its lines without a prefix (the benchmark scripts'). */
export const STDERR_BUILD_IO: BuildIo = {
  say: (line) => void process.stderr.write(`${line}\n`),
  begin: (text) => void process.stderr.write(text),
  write: (text) => void process.stderr.write(text),
};

/**
 * Builds the extension for `browser` into `<root>/dist/<browser>` unless it is up to date. The build is one
 * line, `building the extension into …/dist/chrome/… done in 17 s`, begun when it starts: Vite's log (some
 * 50 lines, with diagnostics a newcomer reads as warnings) follows that line only when the build fails, or as
 * it runs with `verbose`.
 * @param build runs the build. @default the Vite build
 * @returns whether a build ran.
 * @throws {BuildError} when the build fails (its output written first).
 */
export async function ensureBuilt(
  root: string,
  browser: BuildBrowser,
  io: BuildIo = STDERR_BUILD_IO,
  build: BuildRunner = runViteBuild,
): Promise<boolean> {
  if (!isBuildStale(root, browser)) return false;
  const now = io.now ?? Date.now;
  const startedAt = now();
  const where = `${distDirOf(root, browser)}${sep}`;
  if (io.verbose === true) {
    io.say(`building the extension into ${where} (its output follows)`);
    await build(root, browser, io.write);
    io.say(`built the extension in ${formatDuration(now() - startedAt)}`);
    return true;
  }
  let output = '';
  io.begin(`building the extension into ${where}…`);
  try {
    await build(root, browser, (text) => void (output += text));
  } catch (error) {
    const took = ` failed after ${formatDuration(now() - startedAt)}`;
    io.write(output === '' ? `${took}\n` : `${took}; its output:\n${output}${output.endsWith('\n') ? '' : '\n'}`);
    throw error;
  }
  io.write(` done in ${formatDuration(now() - startedAt)}\n`);
  return true;
}

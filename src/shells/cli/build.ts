/**
 * Builds the extension for one browser when its build (`dist/<browser>/`) is
 * missing or older than its sources, so `npm start` and `npm run crawl` always
 * drive the code as it is.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';

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
export const BUILD_EXCLUDED: readonly string[] = [join('src', 'shells', 'cli'), join('src', 'shells', 'build', 'package.ts')];

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

/** Runs `vite build --mode <browser>` in `root` (it writes `dist/<browser>/`), its output forwarded to our stderr. */
export function runViteBuild(root: string, browser: BuildBrowser): Promise<void> {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--mode', browser], { cwd: root, stdio: ['ignore', 2, 2] });
    child.once('error', (error) => reject(new BuildError(null, `could not run the build: ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new BuildError(code, `the extension build failed (${signal ?? `exit code ${String(code)}`}); see its output above`));
    });
  });
}

/**
 * Builds the extension for `browser` into `<root>/dist/<browser>` unless it is up to date.
 * @param log says what it does, one line without a prefix (the CLI adds its `tabcrawl: `).
 * @param build runs the build. @default the Vite build
 * @returns whether a build ran.
 * @throws {BuildError} when the build fails.
 */
export async function ensureBuilt(
  root: string,
  browser: BuildBrowser,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  build: (root: string, browser: BuildBrowser) => Promise<void> = runViteBuild,
): Promise<boolean> {
  if (!isBuildStale(root, browser)) return false;
  log(`building the extension into ${distDirOf(root, browser)}${sep}`);
  await build(root, browser);
  return true;
}

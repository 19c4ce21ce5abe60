/**
 * `npm run package`: the store-ready zip of each browser's build, from
 * `dist/<browser>/` into `packages/` as `tabcrawl-<browser>-<version>.zip`
 * (the version is the built manifest's). `npm run package` builds both first;
 * this script only zips what is there.
 *
 * The zips are written by `web-ext build`, Mozilla's own packager (a dev
 * dependency), for Chrome too: a zip of the folder with `manifest.json` at its
 * root is what the Chrome Web Store takes as well. The source maps (`*.map`) and
 * any dot-folder such as Vite's `.vite/` are left out: a store package carries
 * what runs, not the maps. Runs in Node, never in a browser.
 *
 *   tsx src/shells/build/package.ts [--artifacts-dir DIR]   (default: packages/)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { TARGET_BROWSERS, type TargetBrowser } from './manifest.ts';

/** The project root: this file is src/shells/build/package.ts. */
const ROOT = resolve(import.meta.dirname, '../../..');

/** What the zips leave out, as web-ext's `--ignore-files` globs (web-ext also leaves out every dot-file and dot-folder). */
const PACKAGE_IGNORED: readonly string[] = ['**/*.map', '.vite', '.vite/**'];

/** `tabcrawl-<browser>-<version>.zip`. */
function packageFileName(browser: TargetBrowser, version: string): string {
  return `tabcrawl-${browser}-${version}.zip`;
}

/** Zips `dist/<browser>/` into `artifactsDir`, replacing a zip of the same name (`--overwrite-dest`); returns the zip's path. */
function packageBuild(browser: TargetBrowser, artifactsDir: string): string {
  const sourceDir = join(ROOT, 'dist', browser);
  const manifestPath = join(sourceDir, 'manifest.json');
  if (!existsSync(manifestPath))
    throw new Error(`no build in ${sourceDir}: run npm run package (it builds first), or npm run build`);
  const { version } = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version?: unknown };
  if (typeof version !== 'string' || version === '') throw new Error(`${manifestPath} has no version`);
  const fileName = packageFileName(browser, version);
  const webExt = join(ROOT, 'node_modules', 'web-ext', 'bin', 'web-ext.js');
  const args = [
    webExt,
    'build',
    '--source-dir',
    sourceDir,
    '--artifacts-dir',
    artifactsDir,
    '--filename',
    fileName,
    '--overwrite-dest',
    '--no-config-discovery',
  ];
  for (const glob of PACKAGE_IGNORED) args.push('--ignore-files', glob);
  // NO_UPDATE_NOTIFIER: web-ext would otherwise ask the npm registry whether it is the newest version.
  const run = spawnSync(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NO_UPDATE_NOTIFIER: '1' },
  });
  if (run.error) throw new Error(`could not run web-ext: ${run.error.message}`);
  if (run.status !== 0)
    throw new Error(
      `web-ext build failed for ${browser} (${run.signal ?? `exit code ${String(run.status)}`}); see its output above`,
    );
  return join(artifactsDir, fileName);
}

const { values } = parseArgs({ options: { 'artifacts-dir': { type: 'string' } } });
const artifactsDir = resolve(values['artifacts-dir'] ?? join(ROOT, 'packages'));
mkdirSync(artifactsDir, { recursive: true });
try {
  const written = TARGET_BROWSERS.map((browser) => packageBuild(browser, artifactsDir));
  process.stdout.write(`packaged:\n${written.map((path) => `  ${path}\n`).join('')}`);
} catch (error) {
  process.stderr.write(`package: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}

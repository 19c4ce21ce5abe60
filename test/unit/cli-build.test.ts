import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  BUILD_BROWSERS,
  BuildError,
  distDirOf,
  ensureBuilt,
  isBuildStale,
  type BuildBrowser,
  type BuildIo,
} from '../../src/shells/cli/build.ts';
import { TARGET_BROWSERS } from '../../src/shells/build/manifest.ts';
import { runCli } from '../../src/shells/cli/run-cli.ts';

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A project folder with files at the given modification times (s since the epoch). */
function project(files: Record<string, number>): string {
  const root = mkdtempSync(join(tmpdir(), 'tabcrawl-build-test-'));
  roots.push(root);
  for (const [path, mtimeS] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, '');
    utimesSync(full, mtimeS, mtimeS);
  }
  return root;
}

describe('the browsers built for', () => {
  test('are the ones the build knows (src/shells/build/manifest.ts), each in dist/<browser>', () => {
    assert.deepEqual(BUILD_BROWSERS, TARGET_BROWSERS);
    assert.equal(distDirOf('/p', 'chrome'), join('/p', 'dist', 'chrome'));
    assert.equal(distDirOf('/p', 'firefox'), join('/p', 'dist', 'firefox'));
  });
});

describe('isBuildStale', () => {
  for (const browser of BUILD_BROWSERS) {
    const built = `dist/${browser}/manifest.json`;
    describe(browser, () => {
      test(`is stale when ${built} is missing`, () => {
        assert.equal(isBuildStale(project({ 'src/a.ts': 100 }), browser), true);
        // A build of the other browser, or of the single dist/ of old, is not this one.
        const other = BUILD_BROWSERS.find((name) => name !== browser) ?? assert.fail();
        assert.equal(
          isBuildStale(
            project({ 'src/a.ts': 100, [`dist/${other}/manifest.json`]: 200, 'dist/manifest.json': 200 }),
            browser,
          ),
          true,
        );
      });

      test('is fresh when the build is newer than every source', () => {
        const root = project({
          'src/core/a.ts': 100,
          'public/icons/i.png': 100,
          'manifest.json': 100,
          'vite.config.ts': 100,
          'package.json': 100,
          [built]: 200,
        });
        assert.equal(isBuildStale(root, browser), false);
      });

      test('is stale when a nested source file is newer than the build', () => {
        assert.equal(isBuildStale(project({ 'src/core/deep/a.ts': 300, [built]: 200 }), browser), true);
      });

      test('is stale when a public file, the manifest, the vite config, the manifest generator or package.json changed', () => {
        for (const path of [
          'public/icons/i.png',
          'manifest.json',
          'vite.config.ts',
          'src/shells/build/manifest.ts',
          'package.json',
        ]) {
          assert.equal(isBuildStale(project({ [path]: 300, [built]: 200 }), browser), true, path);
        }
      });

      test('ignores changes to the CLI, the packaging script and files outside the inputs', () => {
        const newer = {
          'src/shells/cli/main.ts': 300,
          'src/shells/build/package.ts': 300,
          'test/unit/a.test.ts': 300,
          'README.md': 300,
        };
        assert.equal(isBuildStale(project({ ...newer, [built]: 200 }), browser), false);
      });
    });
  }

  test('judges each browser by its own build', () => {
    const root = project({ 'src/a.ts': 200, 'dist/chrome/manifest.json': 300, 'dist/firefox/manifest.json': 100 });
    assert.equal(isBuildStale(root, 'chrome'), false);
    assert.equal(isBuildStale(root, 'firefox'), true);
  });
});

/** A {@link BuildIo} that records what is written, as the CLI would print it (`tabcrawl: ` before each line it says). */
function recordingIo(options: { verbose?: boolean; now?: () => number } = {}): BuildIo & { text: () => string } {
  let text = '';
  return {
    say: (line) => void (text += `tabcrawl: ${line}\n`),
    begin: (part) => void (text += `tabcrawl: ${part}`),
    write: (part) => void (text += part),
    ...options,
    text: () => text,
  };
}

/** A clock that moves on `stepMs` each time it is read. */
function steppingClock(stepMs: number): () => number {
  let at = 0;
  return () => (at += stepMs);
}

/** Some 50 lines as Vite writes them, a timing diagnostic among them. */
const VITE_LOG = `vite v8.3.8 building client environment for production...\n${'dist/chrome/assets/x.js  1.00 kB\n'.repeat(50)}[PLUGIN_TIMINGS] Warning: your build spent 40% in plugins\n✓ built in 9.2s\n`;

describe('ensureBuilt', () => {
  test('builds the stale browser only, and says where in one line without a prefix, so the CLI prints "tabcrawl: " once', async () => {
    const root = project({ 'src/a.ts': 200, 'dist/chrome/manifest.json': 100, 'dist/firefox/manifest.json': 300 });
    for (const browser of BUILD_BROWSERS) {
      const io = recordingIo({ now: steppingClock(17_000) });
      const builds: [string, BuildBrowser][] = [];
      const ran = await ensureBuilt(root, browser, io, async (r, b) => void builds.push([r, b]));
      if (browser === 'chrome') {
        assert.equal(ran, true);
        assert.deepEqual(builds, [[root, 'chrome']]);
        assert.equal(
          io.text(),
          `tabcrawl: building the extension into ${join(root, 'dist', 'chrome')}${sep}… done in 17 s\n`,
        );
      } else {
        assert.equal(ran, false);
        assert.deepEqual(builds, []);
        assert.equal(io.text(), '');
      }
    }
  });

  test("a build that succeeds is that one line, Vite's own output not shown", async () => {
    const root = project({ 'src/a.ts': 100 });
    const io = recordingIo({ now: steppingClock(17_000) });
    assert.equal(await ensureBuilt(root, 'chrome', io, async (_r, _b, onOutput) => onOutput(VITE_LOG)), true);
    assert.equal(
      io.text(),
      `tabcrawl: building the extension into ${join(root, 'dist', 'chrome')}${sep}… done in 17 s\n`,
    );
  });

  test("with verbose, Vite's output is shown as it comes, between a line before and a line after", async () => {
    const root = project({ 'src/a.ts': 100 });
    const io = recordingIo({ verbose: true, now: steppingClock(17_000) });
    await ensureBuilt(root, 'chrome', io, async (_r, _b, onOutput) => onOutput(VITE_LOG));
    assert.equal(
      io.text(),
      `tabcrawl: building the extension into ${join(root, 'dist', 'chrome')}${sep} (its output follows)\n${VITE_LOG}tabcrawl: built the extension in 17 s\n`,
    );
  });

  test("a build that fails ends its line with how long it ran, then shows Vite's whole output, and throws", async () => {
    const root = project({ 'src/a.ts': 100 });
    const io = recordingIo({ now: steppingClock(3_000) });
    const failing = async (_r: string, _b: BuildBrowser, onOutput: (text: string) => void): Promise<void> => {
      onOutput(VITE_LOG);
      onOutput('error during build: src/a.ts (1:1): Unexpected token');
      throw new BuildError(1, 'the extension build failed (exit code 1); its output is above');
    };
    await assert.rejects(ensureBuilt(root, 'chrome', io, failing), BuildError);
    assert.equal(
      io.text(),
      `tabcrawl: building the extension into ${join(root, 'dist', 'chrome')}${sep}… failed after 3 s; its output:\n${VITE_LOG}error during build: src/a.ts (1:1): Unexpected token\n`,
    );
  });

  test('builds firefox into dist/firefox when that build is missing', async () => {
    const root = project({ 'src/a.ts': 100, 'dist/chrome/manifest.json': 200 });
    const io = recordingIo({ now: steppingClock(1_000) });
    const builds: BuildBrowser[] = [];
    assert.equal(await ensureBuilt(root, 'firefox', io, async (_r, b) => void builds.push(b)), true);
    assert.deepEqual(builds, ['firefox']);
    assert.equal(
      io.text(),
      `tabcrawl: building the extension into ${join(root, 'dist', 'firefox')}${sep}… done in 1 s\n`,
    );
    assert.equal(await ensureBuilt(root, 'chrome', io, async () => assert.fail('no build')), false);
  });

  test('the CLI builds the Chrome build, and prints one prefix on every line it says, the build line included', async () => {
    // A root whose build is stale and cannot run: the CLI says it builds, then that the build failed.
    const root = project({ 'src/a.ts': 300 });
    let stderr = '';
    await runCli(['http://127.0.0.1:9/'], {
      stdout: () => undefined,
      stderr: (text) => void (stderr += text),
      isStderrTTY: false,
      env: { CHROME_PATH: process.execPath },
      root,
      cwd: root,
      signal: new AbortController().signal,
    });
    assert.match(
      stderr,
      new RegExp(`^tabcrawl: building the extension into ${escape(join(root, 'dist', 'chrome'))}`, 'm'),
    );
    assert.doesNotMatch(stderr, /tabcrawl: tabcrawl:/);
    // The build's own output (here Node's: there is no Vite in this root) is shown when it fails, after the line.
    assert.match(
      stderr,
      /… failed after \d+ s; its output:\n[^]*Cannot find module[^]*\ntabcrawl: the extension build failed \(exit code 1\)/,
    );
  });

  test("with --verbose the CLI shows the build's own output as it runs, after a line that says so", async () => {
    const root = project({ 'src/a.ts': 300 });
    let stderr = '';
    const code = await runCli(['http://127.0.0.1:9/', '--verbose'], {
      stdout: () => undefined,
      stderr: (text) => void (stderr += text),
      isStderrTTY: false,
      env: { CHROME_PATH: process.execPath },
      root,
      cwd: root,
      signal: new AbortController().signal,
    });
    assert.equal(code, 1);
    assert.match(
      stderr,
      new RegExp(
        `^tabcrawl: building the extension into ${escape(join(root, 'dist', 'chrome'))}${escape(sep)} \\(its output follows\\)\n[^]*Cannot find module`,
        'm',
      ),
    );
  });
});

/** `text` as a regular expression that matches it literally. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

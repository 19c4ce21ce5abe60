import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ensureBuilt, isBuildStale } from '../../src/shells/cli/build.ts';
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

describe('isBuildStale', () => {
  test('is stale when dist/manifest.json is missing', () => {
    assert.equal(isBuildStale(project({ 'src/a.ts': 100 })), true);
  });

  test('is fresh when the build is newer than every source', () => {
    const root = project({ 'src/core/a.ts': 100, 'public/icons/i.png': 100, 'manifest.json': 100, 'vite.config.ts': 100, 'package.json': 100, 'dist/manifest.json': 200 });
    assert.equal(isBuildStale(root), false);
  });

  test('is stale when a nested source file is newer than the build', () => {
    assert.equal(isBuildStale(project({ 'src/core/deep/a.ts': 300, 'dist/manifest.json': 200 })), true);
  });

  test('is stale when a public file, the manifest, the vite config or package.json changed', () => {
    for (const path of ['public/icons/i.png', 'manifest.json', 'vite.config.ts', 'package.json']) {
      assert.equal(isBuildStale(project({ [path]: 300, 'dist/manifest.json': 200 })), true, path);
    }
  });

  test('ignores changes to the CLI and to files outside the inputs', () => {
    assert.equal(isBuildStale(project({ 'src/shells/cli/main.ts': 300, 'test/unit/a.test.ts': 300, 'README.md': 300, 'dist/manifest.json': 200 })), false);
  });
});

describe('ensureBuilt', () => {
  test('says it builds in one line without a prefix, so the CLI prints "tabcrawl: " once', async () => {
    const lines: string[] = [];
    const builds: string[] = [];
    const root = project({ 'src/a.ts': 300, 'dist/manifest.json': 200 });
    assert.equal(await ensureBuilt(root, (line) => lines.push(line), async (r) => void builds.push(r)), true);
    assert.deepEqual(builds, [root]);
    assert.equal(lines.length, 1);
    assert.match(lines[0] ?? '', /^building the extension into /);
    assert.equal(await ensureBuilt(project({ 'src/a.ts': 100, 'dist/manifest.json': 200 }), (line) => lines.push(line), async () => assert.fail('no build')), false);
  });

  test('the CLI prints one prefix on every line it says, the build line included', async () => {
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
    assert.match(stderr, /^tabcrawl: building the extension into /m);
    assert.doesNotMatch(stderr, /tabcrawl: tabcrawl:/);
  });
});

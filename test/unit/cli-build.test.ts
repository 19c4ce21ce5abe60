import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { isBuildStale } from '../../src/cli/build.ts';

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
    assert.equal(isBuildStale(project({ 'src/cli/main.ts': 300, 'test/unit/a.test.ts': 300, 'README.md': 300, 'dist/manifest.json': 200 })), false);
  });
});

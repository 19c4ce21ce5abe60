import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';

const BIN = resolve(import.meta.dirname, '../../src/shells/cli/bin.js');

describe('the tabcrawl bin script', () => {
  test('installed without its dev dependencies, says which package is missing and how to get a copy that runs, and exits 1', () => {
    // A copy of the package as `npm install <tarball>` would leave it: no tsx, vite or playwright-core next to it.
    const root = mkdtempSync(join(tmpdir(), 'tabcrawl-bin-'));
    try {
      mkdirSync(join(root, 'src', 'shells', 'cli'), { recursive: true });
      writeFileSync(join(root, 'package.json'), '{ "name": "tabcrawl", "type": "module" }');
      copyFileSync(BIN, join(root, 'src', 'shells', 'cli', 'bin.js'));
      const run = spawnSync(process.execPath, [join(root, 'src', 'shells', 'cli', 'bin.js'), '--help'], {
        cwd: tmpdir(),
        encoding: 'utf8',
      });
      assert.equal(run.status, 1, run.stderr);
      const lines = run.stderr.trim().split('\n');
      for (const line of lines) assert.match(line, /^tabcrawl: /, line);
      assert.match(lines[0] ?? '', /^tabcrawl: cannot run: the package tsx is not installed for .*tabcrawl-bin-/);
      assert.match(run.stderr, /npm install/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

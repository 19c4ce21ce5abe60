/**
 * The command line's own copy of the extension (src/shells/cli/granted-extension.ts): with `--render auto`
 * or `always` in Chromium its manifest lists `debugger` under `permissions` (granted at load, no prompt);
 * otherwise the build is loaded as it is, and Firefox never gets it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import {
  copyExtension,
  grantedPermissionsFor,
  withGrantedPermissions,
} from '../../src/shells/cli/granted-extension.ts';
import { parseCliArgs } from '../../src/shells/cli/args.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SHARED = JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8')) as Record<string, unknown>;

/** The permissions the command line grants for these arguments. */
function grantedFor(...args: string[]): string[] {
  const parsed = parseCliArgs(['https://example.org/', ...args]);
  assert.equal(parsed.kind, 'crawl');
  return parsed.kind === 'crawl' ? grantedPermissionsFor(parsed.browser, parsed.settings) : [];
}

describe("the command line's copy of the extension", () => {
  it('grants debugger only when Chromium renders pages', () => {
    assert.deepEqual(grantedFor(), []);
    assert.deepEqual(grantedFor('--render', 'off'), []);
    assert.deepEqual(grantedFor('--render', 'auto'), ['debugger']);
    assert.deepEqual(grantedFor('--render', 'always', '--render-timeout', '30'), ['debugger']);
    assert.deepEqual(grantedFor('--render', 'always', '--browser', 'firefox'), []);
    assert.deepEqual(grantedPermissionsFor('chrome', null), []);
  });

  it('moves a granted permission from optional_permissions to permissions, the rest as built', () => {
    const granted = withGrantedPermissions(SHARED, ['debugger']);
    assert.deepEqual(granted['permissions'], [...(SHARED['permissions'] as string[]), 'debugger']);
    assert.equal('optional_permissions' in granted, false);
    const { permissions: _p, optional_permissions: _o, ...rest } = granted;
    const { permissions: _sp, optional_permissions: _so, ...sharedRest } = SHARED;
    assert.deepEqual(rest, sharedRest);
    assert.deepEqual(
      SHARED['optional_permissions'],
      ['debugger'],
      'the manifest given is not changed (and asks for debugger as optional)',
    );
  });

  it('keeps other optional permissions, and lists a granted one once', () => {
    const manifest = { permissions: ['storage', 'debugger'], optional_permissions: ['debugger', 'bookmarks'] };
    assert.deepEqual(withGrantedPermissions(manifest, ['debugger']), {
      permissions: ['storage', 'debugger'],
      optional_permissions: ['bookmarks'],
    });
    assert.deepEqual(withGrantedPermissions({ permissions: ['storage'] }, []), { permissions: ['storage'] });
  });

  it('copies the build whole with the rewritten manifest, leaving the build as it was', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-granted-'));
    try {
      const dist = join(dir, 'dist');
      mkdirSync(join(dist, 'assets'), { recursive: true });
      writeFileSync(join(dist, 'manifest.json'), JSON.stringify(SHARED));
      writeFileSync(join(dist, 'assets', 'worker.js'), 'self.x = 1;');
      const copy = copyExtension(dist, join(dir, 'copy'), ['debugger']);
      const copied = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8')) as Record<string, unknown>;
      assert.ok((copied['permissions'] as string[]).includes('debugger'));
      assert.equal(readFileSync(join(copy, 'assets', 'worker.js'), 'utf8'), 'self.x = 1;');
      assert.deepEqual(JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8')), SHARED);
      // Without permissions to grant, the copy's manifest is the build's, byte for byte.
      const plain = copyExtension(dist, join(dir, 'copy'), []);
      assert.equal(readFileSync(join(plain, 'manifest.json'), 'utf8'), JSON.stringify(SHARED));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

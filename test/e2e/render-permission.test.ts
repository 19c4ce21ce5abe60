/**
 * The `debugger` permission rendering needs (issue 29), in headless Chromium: the build lists it as a
 * required permission, because Chromium will not grant it as an optional one (docs/security.md,
 * "Rendering's permission"). About 5 s.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { launchExtension, type ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import { findChromium } from '../../src/shells/cli/chromium.ts';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST_DIR } from './helpers.ts';

/** What an extension page of `session` sees of the permission. */
async function debuggerFacts(session: ExtensionSession) {
  const page = await session.openPage('src/shells/popup/index.html');
  try {
    return await page.evaluate(async () => {
      const chrome = (globalThis as unknown as { chrome: Record<string, unknown> }).chrome as {
        permissions: {
          contains(p: { permissions: string[] }): Promise<boolean>;
          request(p: { permissions: string[] }): Promise<boolean>;
        };
        debugger?: { attach?: unknown };
      };
      const asked = await Promise.race([
        chrome.permissions.request({ permissions: ['debugger'] }).then(
          (isGranted) => `granted ${isGranted}`,
          (error: unknown) => `refused: ${error instanceof Error ? error.message : String(error)}`,
        ),
        new Promise<string>((resolve) => setTimeout(() => resolve('no answer'), 2000)),
      ]);
      return {
        has: await chrome.permissions.contains({ permissions: ['debugger'] }),
        hasApi: typeof chrome.debugger?.attach === 'function',
        asked,
      };
    });
  } finally {
    await page.close();
  }
}

describe('the debugger permission in Chromium', () => {
  it('is granted to the build at load, with chrome.debugger, and no prompt', async () => {
    const session = await launchExtension({ distDir: DIST_DIR, chromePath: findChromium(process.env) });
    try {
      assert.deepEqual(await debuggerFacts(session), { has: true, hasApi: true, asked: 'granted true' });
    } finally {
      await session.close();
    }
  });

  it('would not be granted as an optional permission: Chromium refuses to ask for it (why it is required)', async () => {
    // The same build, debugger moved to optional_permissions, loaded afresh.
    const copy = mkdtempSync(join(tmpdir(), 'tabcrawl-optional-debugger-'));
    cpSync(DIST_DIR, copy, { recursive: true });
    const path = join(copy, 'manifest.json');
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as {
      permissions: string[];
      optional_permissions?: string[];
    };
    manifest.permissions = manifest.permissions.filter((permission) => permission !== 'debugger');
    manifest.optional_permissions = ['debugger'];
    writeFileSync(path, JSON.stringify(manifest));
    const optional = await launchExtension({ distDir: copy, chromePath: findChromium(process.env) });
    try {
      assert.deepEqual(await debuggerFacts(optional), {
        has: false,
        hasApi: false,
        asked: 'refused: Only permissions specified in the manifest may be requested.',
      });
    } finally {
      await optional.close();
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

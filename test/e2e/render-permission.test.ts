/**
 * The `debugger` permission rendering needs (issue 29), in headless Chromium with the built extension:
 * the build asks for it as optional, which Chromium does not grant (docs/security.md, "Rendering's
 * permission"); the command line's copy for `--render` has it at load. About 5 s.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { launchExtension, type ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import { findChromium } from '../../src/shells/cli/chromium.ts';
import { grantedPermissionsFor } from '../../src/shells/cli/granted-extension.ts';
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
  it('is not granted to the build, and Chromium will not ask for it as an optional permission', async () => {
    const session = await launchExtension({ distDir: DIST_DIR, chromePath: findChromium(process.env), copyDist: true });
    try {
      assert.deepEqual(await debuggerFacts(session), {
        has: false,
        hasApi: false,
        asked: 'refused: Only permissions specified in the manifest may be requested.',
      });
    } finally {
      await session.close();
    }
  });

  it("is granted at load to the command line's copy for --render, with chrome.debugger, no prompt", async () => {
    const session = await launchExtension({
      distDir: DIST_DIR,
      chromePath: findChromium(process.env),
      grantPermissions: grantedPermissionsFor('chrome', { render: 'always' }),
    });
    try {
      assert.notEqual(session.distDir, DIST_DIR, 'a copy is loaded');
      assert.deepEqual(await debuggerFacts(session), { has: true, hasApi: true, asked: 'granted true' });
    } finally {
      await session.close();
    }
  });
});

/**
 * Each browser's manifest, generated from the shared `manifest.json` by
 * src/shells/build/manifest.ts: Chrome's is the shared one; Firefox's differs
 * only where docs/firefox.md says it must.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import {
  FIREFOX_ANDROID_MIN_VERSION,
  FIREFOX_MIN_VERSION,
  FIREFOX_ONLY_PERMISSIONS,
  GECKO_ID,
  manifestFor,
  TARGET_BROWSERS,
  targetBrowserOf,
  type SharedManifest,
} from '../../src/shells/build/manifest.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const readShared = (): SharedManifest =>
  JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8')) as SharedManifest;

describe('manifestFor', () => {
  test('Chrome: the shared manifest as it is, a copy', () => {
    const shared = readShared();
    const chrome = manifestFor('chrome', shared);
    assert.deepEqual(chrome, readShared());
    assert.notEqual(chrome, shared);
    (chrome['background'] as { service_worker: string }).service_worker = 'changed.js';
    assert.deepEqual(shared, readShared(), 'the shared manifest is not changed through the copy');
  });

  test('Firefox: an event page running the same script as a module, no service worker, no minimum Chrome', () => {
    const shared = readShared();
    const firefox = manifestFor('firefox', shared);
    assert.equal(shared.background.type, 'module', 'the shared manifest runs the worker as a module');
    assert.deepEqual(firefox['background'], { scripts: [shared.background.service_worker], type: 'module' });
    assert.equal('service_worker' in (firefox['background'] as object), false);
    assert.equal('minimum_chrome_version' in firefox, false);
    assert.ok(shared.minimum_chrome_version, 'the shared manifest names a minimum Chrome, which Firefox does not get');
  });

  test('Firefox: the gecko id, the oldest versions and no data collected', () => {
    const firefox = manifestFor('firefox', readShared());
    assert.deepEqual(firefox['browser_specific_settings'], {
      gecko: {
        id: GECKO_ID,
        strict_min_version: FIREFOX_MIN_VERSION,
        data_collection_permissions: { required: ['none'] },
      },
      gecko_android: { strict_min_version: FIREFOX_ANDROID_MIN_VERSION },
    });
    assert.match(GECKO_ID, /^[a-z0-9._-]+@[a-z0-9.-]+$/);
    assert.match(FIREFOX_MIN_VERSION, /^\d+\.\d+$/);
  });

  test('Firefox: everything else as in the shared manifest', () => {
    const shared = readShared();
    const firefox = manifestFor('firefox', shared);
    const differing = new Set(['background', 'minimum_chrome_version', 'browser_specific_settings', 'permissions']);
    const rest = (manifest: Record<string, unknown>): Record<string, unknown> =>
      Object.fromEntries(Object.entries(manifest).filter(([key]) => !differing.has(key)));
    assert.deepEqual(rest(firefox), rest(shared));
    // The shared keys Firefox keeps are all there: name, version, pages, host access, the CSP (permissions: below).
    for (const key of [
      'manifest_version',
      'name',
      'version',
      'action',
      'options_ui',
      'host_permissions',
      'content_security_policy',
    ]) {
      assert.deepEqual(firefox[key], shared[key], key);
    }
    assert.deepEqual(shared, readShared(), 'the shared manifest is not changed');
  });

  test('Chrome asks for debugger (rendering: Chromium grants it only as a required permission); Firefox, which has none such, is not given it', () => {
    const shared = readShared();
    assert.ok((manifestFor('chrome', shared)['permissions'] as string[]).includes('debugger'));
    assert.equal('optional_permissions' in manifestFor('chrome', shared), false);
    const firefox = manifestFor('firefox', shared);
    assert.equal('optional_permissions' in firefox, false);
    assert.equal(JSON.stringify(firefox).includes('debugger'), false);
    assert.deepEqual(firefox['permissions'], [
      ...(shared['permissions'] as string[]).filter((permission) => permission !== 'debugger'),
      ...FIREFOX_ONLY_PERMISSIONS,
    ]);
    // Another optional permission would stay, without debugger.
    const more = manifestFor('firefox', { ...shared, optional_permissions: ['debugger', 'bookmarks'] });
    assert.deepEqual(more['optional_permissions'], ['bookmarks']);
  });

  test('Firefox asks for what its renderer needs (blocking webRequest, response filters, scripting, containers); Chrome does not', () => {
    const shared = readShared();
    assert.deepEqual(FIREFOX_ONLY_PERMISSIONS, [
      'webRequestBlocking',
      'webRequestFilterResponse',
      'scripting',
      'contextualIdentities',
      'cookies',
    ]);
    const chrome = manifestFor('chrome', shared)['permissions'] as string[];
    const firefox = manifestFor('firefox', shared)['permissions'] as string[];
    for (const permission of FIREFOX_ONLY_PERMISSIONS) {
      assert.equal(chrome.includes(permission), false, permission);
      assert.equal(firefox.filter((p) => p === permission).length, 1, permission);
    }
    // A shared manifest that lists one already does not list it twice; one with no permissions gets them.
    const listed = manifestFor('firefox', { ...shared, permissions: ['scripting'] })['permissions'];
    assert.deepEqual(listed, [
      'scripting',
      'webRequestBlocking',
      'webRequestFilterResponse',
      'contextualIdentities',
      'cookies',
    ]);
    const none = manifestFor('firefox', { manifest_version: 3, background: { service_worker: 'bg.js' } });
    assert.deepEqual(none['permissions'], FIREFOX_ONLY_PERMISSIONS);
  });

  test('Firefox: a classic background script stays classic (no type)', () => {
    const shared: SharedManifest = { manifest_version: 3, background: { service_worker: 'bg.js' } };
    assert.deepEqual(manifestFor('firefox', shared)['background'], { scripts: ['bg.js'] });
  });
});

describe('targetBrowserOf', () => {
  test('each browser is its own mode', () => {
    for (const browser of TARGET_BROWSERS) assert.equal(targetBrowserOf(browser), browser);
    assert.deepEqual([...TARGET_BROWSERS], ['chrome', 'firefox']);
  });

  test('"production" (vite build without --mode) is Chrome', () => {
    assert.equal(targetBrowserOf('production'), 'chrome');
  });

  test('an unknown mode throws, naming the mode and the ones there are', () => {
    for (const mode of ['development', 'safari', 'Chrome', '']) {
      assert.throws(
        () => targetBrowserOf(mode),
        { message: `unknown build mode "${mode}": build with --mode chrome or --mode firefox` },
        mode,
      );
    }
  });
});

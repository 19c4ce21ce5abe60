/**
 * One manifest per browser, generated at build time from the shared source
 * (`manifest.json` at the project root, written as Chrome reads it).
 *
 * Everything the two browsers share (name, pages, permissions, host access,
 * the content security policy) is written once there. This file holds only
 * what differs, so that a difference is a line here and never a fork of the
 * manifest. See docs/firefox.md for why each Firefox entry is what it is.
 */

/** The browsers Tabcrawl is built for; each build goes to `dist/<browser>/`. */
export const TARGET_BROWSERS = ['chrome', 'firefox'] as const;
export type TargetBrowser = (typeof TARGET_BROWSERS)[number];

/**
 * The add-on's id in Firefox (`browser_specific_settings.gecko.id`): addons.mozilla.org requires one
 * for MV3, and a fixed id keeps the add-on's storage (every crawl) across updates.
 */
export const GECKO_ID = 'tabcrawl@tabcrawl.github.io';

/**
 * The oldest Firefox Tabcrawl runs in: 140, the ESR that first reads `data_collection_permissions`
 * (it also has everything else used: MV3 event pages with `type: module`, declarativeNetRequest
 * session rules, `storage.session`, `action`).
 */
export const FIREFOX_MIN_VERSION = '140.0';

/** The oldest Firefox for Android the manifest allows: 142, the first to read `data_collection_permissions`. */
export const FIREFOX_ANDROID_MIN_VERSION = '142.0';

/**
 * Permissions only Chrome has, left out of Firefox's manifest (`web-ext lint` refuses an unknown one):
 * `debugger` (`chrome.debugger`, which rendering pages uses in Chrome; Firefox renders through its
 * blocking `webRequest` instead).
 */
export const CHROME_ONLY_PERMISSIONS: readonly string[] = ['debugger'];

/**
 * Permissions only Firefox's manifest has (Chrome's refuses `webRequestFilterResponse`, and MV3 Chrome has no
 * blocking `webRequest` for extensions it does not force-install): what rendering needs there
 * (docs/rendering-firefox.md): `webRequestBlocking` to hold and cancel the render tab's requests,
 * `webRequestFilterResponse` to copy each response as it passes, `scripting` to read the rendered DOM,
 * `contextualIdentities` and `cookies` to open each render tab in a container of its own (render-containers.ts).
 */
export const FIREFOX_ONLY_PERMISSIONS: readonly string[] = [
  'webRequestBlocking',
  'webRequestFilterResponse',
  'scripting',
  'contextualIdentities',
  'cookies',
];

/** The part of a manifest this file reads or changes; the rest passes through as written. */
export interface SharedManifest {
  manifest_version: 3;
  background: { service_worker: string; type?: 'module' };
  minimum_chrome_version?: string;
  [key: string]: unknown;
}

/** `target`, else a clear error: the build is told its browser by Vite's `--mode`. */
export function targetBrowserOf(mode: string): TargetBrowser {
  // `vite build` without --mode is "production": the Chrome build, as before there were two.
  if (mode === 'production') return 'chrome';
  if ((TARGET_BROWSERS as readonly string[]).includes(mode)) return mode as TargetBrowser;
  throw new Error(`unknown build mode "${mode}": build with --mode ${TARGET_BROWSERS.join(' or --mode ')}`);
}

/**
 * The manifest for `target`, from the shared one (not changed).
 *
 * Firefox: the background is an event page (`background.scripts`; Firefox has no extension service
 * workers), `browser_specific_settings.gecko` gives the id, the oldest version and the data Tabcrawl
 * collects (none: what it crawls stays in the browser), `minimum_chrome_version` and the
 * {@link CHROME_ONLY_PERMISSIONS} are dropped (a list they leave empty goes too), and the
 * {@link FIREFOX_ONLY_PERMISSIONS} are added to `permissions`.
 */
export function manifestFor(target: TargetBrowser, shared: SharedManifest): Record<string, unknown> {
  const manifest: Record<string, unknown> = structuredClone(shared);
  if (target === 'chrome') return manifest;
  const { service_worker: script, type } = shared.background;
  delete manifest['minimum_chrome_version'];
  for (const key of ['permissions', 'optional_permissions']) {
    const listed = manifest[key];
    if (!Array.isArray(listed)) continue;
    const kept = listed.filter((permission) => !CHROME_ONLY_PERMISSIONS.includes(String(permission)));
    if (kept.length === 0) delete manifest[key];
    else manifest[key] = kept;
  }
  const permissions = Array.isArray(manifest['permissions']) ? (manifest['permissions'] as unknown[]) : [];
  manifest['permissions'] = [...permissions, ...FIREFOX_ONLY_PERMISSIONS.filter((p) => !permissions.includes(p))];
  manifest['background'] = { scripts: [script], ...(type === undefined ? {} : { type }) };
  manifest['browser_specific_settings'] = {
    gecko: {
      id: GECKO_ID,
      strict_min_version: FIREFOX_MIN_VERSION,
      data_collection_permissions: { required: ['none'] },
    },
    // Firefox for Android reads data_collection_permissions from 142 (web-ext lint warns without this). Not tested there.
    gecko_android: { strict_min_version: FIREFOX_ANDROID_MIN_VERSION },
  };
  return manifest;
}

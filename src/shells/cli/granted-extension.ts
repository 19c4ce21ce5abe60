/**
 * The command line's own copy of the built extension, with permissions the user granted by asking for
 * what needs them: `--render auto` or `always` needs `debugger` (Chrome's `chrome.debugger`), which the
 * extension's manifest asks for as optional, through a prompt; in headless Chromium that prompt never
 * answers (PLATFORM.md), so the copy lists it under `permissions`, which Chromium grants an unpacked
 * extension when it loads it. The build in `dist/` is never changed. Firefox: no such permission, no copy.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RENDER_PERMISSION } from '../../core/setting-table.ts';
import { renderModeOf, type CrawlSettings } from '../../core/settings.ts';
import type { CliBrowser } from './args.ts';

/**
 * The permissions the command line grants its copy of the extension for a crawl with these settings in
 * this browser: `debugger` when Chromium renders pages (`--render auto` or `always`), else none (and the
 * build is loaded as it is).
 */
export function grantedPermissionsFor(browser: CliBrowser, settings: Partial<CrawlSettings> | null): string[] {
  if (browser !== 'chrome' || settings === null) return [];
  return renderModeOf(settings) === 'off' ? [] : [RENDER_PERMISSION];
}

/**
 * `manifest` with each of `granted` under `permissions` (once, after those listed) and no longer under
 * `optional_permissions` (the key dropped when that empties it). A new object; `manifest` is not changed. Pure.
 */
export function withGrantedPermissions(
  manifest: Readonly<Record<string, unknown>>,
  granted: readonly string[],
): Record<string, unknown> {
  const copy: Record<string, unknown> = structuredClone(manifest) as Record<string, unknown>;
  const listed = (key: string): string[] => (Array.isArray(copy[key]) ? (copy[key] as unknown[]).map(String) : []);
  const permissions = listed('permissions');
  for (const permission of granted) if (!permissions.includes(permission)) permissions.push(permission);
  copy['permissions'] = permissions;
  if ('optional_permissions' in copy) {
    const optional = listed('optional_permissions').filter((permission) => !granted.includes(permission));
    if (optional.length === 0) delete copy['optional_permissions'];
    else copy['optional_permissions'] = optional;
  }
  return copy;
}

/**
 * Copies the built extension in `distDir` to `into` (emptied first) and, when `granted` lists any,
 * rewrites the copy's `manifest.json` with {@link withGrantedPermissions}. Returns `into`.
 */
export function copyExtension(distDir: string, into: string, granted: readonly string[]): string {
  rmSync(into, { recursive: true, force: true });
  cpSync(distDir, into, { recursive: true });
  if (granted.length > 0) {
    const path = join(into, 'manifest.json');
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    writeFileSync(path, `${JSON.stringify(withGrantedPermissions(manifest, granted), null, 2)}\n`);
  }
  return into;
}

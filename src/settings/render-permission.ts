/**
 * How a page asks the browser for what rendering needs, from the manifest it runs under: Chrome's build
 * lists `debugger` under `permissions` (Chromium grants it only so: docs/security.md), so nothing is asked;
 * a manifest that listed it as optional would ask with `permissions.request` (a prompt); Firefox's lists
 * neither (its background refuses a crawl that renders, saying why). Pure: the browser's permissions API
 * comes in.
 */
import { RENDER_PERMISSION } from '../core/setting-table.ts';

/** What of `browser.permissions` the request needs. */
export interface PermissionsApi {
  // A method, so that the browser's own (its list typed as the permissions it knows) fits.
  request(permissions: { permissions?: string[] }): Promise<boolean>;
}

/** What of the manifest (`runtime.getManifest()`) says whether rendering needs asking. */
export interface ManifestPermissions {
  permissions?: readonly string[];
  optional_permissions?: readonly string[];
}

/**
 * The function a page gives the settings form as `requestRenderPermission`: it asks for `debugger` when the
 * manifest lists it as optional (the call to `permissions.request` is made at once, while the user's change
 * still counts as a gesture), and resolves true at once when it is granted already or not needed.
 */
export function renderPermissionRequester(
  permissions: PermissionsApi,
  manifest: ManifestPermissions,
): () => Promise<boolean> {
  const isOptional = manifest.optional_permissions?.includes(RENDER_PERMISSION) === true;
  const isGranted = manifest.permissions?.includes(RENDER_PERMISSION) === true;
  if (!isOptional || isGranted) return () => Promise.resolve(true);
  return () => permissions.request({ permissions: [RENDER_PERMISSION] });
}

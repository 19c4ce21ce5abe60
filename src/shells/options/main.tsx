/**
 * The options page's browser shell: the only file of the page that touches
 * extension APIs. It gives {@link OptionsView} `browser.storage.local` as its
 * settings storage. Opened from `chrome://extensions` (the manifest's
 * `options_ui`, in a tab of its own).
 */
import { render } from 'preact';
import { showControlsVisibly } from '../../ui/show-controls.ts';
import browser from 'webextension-polyfill';
import { storageAreaAdapter } from '../../settings/site-settings.ts';
import { renderPermissionRequester } from '../../settings/render-permission.ts';
import { OptionsView } from '../../options/options-view.tsx';

// Before anything renders: crawled text shows its control characters written out (an RLO, a NUL, an ESC).
showControlsVisibly();

const storage = storageAreaAdapter(browser.storage.local);

const root = document.getElementById('app');
/** Chrome asks for `debugger` when the form turns rendering on; Firefox needs nothing. */
const requestRenderPermission = renderPermissionRequester(browser.permissions, browser.runtime.getManifest());

if (root !== null) render(<OptionsView storage={storage} requestRenderPermission={requestRenderPermission} />, root);

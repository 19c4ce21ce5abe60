/**
 * Firefox's render tabs each open in a container of their own (a contextual identity: its own cookie jar and
 * site storage; the render window's blank tab too), removed once the tab is closed, so that what a rendered page's scripts write with
 * `document.cookie` (or in `localStorage`, IndexedDB) never reaches the user's profile and is not seen by the
 * next page rendered. Chrome needs none: its renderer pins `document.cookie` in the page before its scripts run
 * (docs/rendering.md), which an add-on cannot do in Firefox without a content script in every tab.
 *
 * Measured in headless firefox-esr 153 (docs/rendering-firefox.md): a cookie a page's script sets lands in the
 * container's store, not the default one; a container is created in about 5 ms and removed in about 5 ms
 * empty, about 0.5 s with a tab still in it (removing it does not close its tabs, so the tab is closed first);
 * after its removal, its store lists no cookie.
 */
import browser from 'webextension-polyfill';

/** The name of every render container: the one thing that tells them from the user's own containers. */
export const RENDER_CONTAINER_NAME = 'Tabcrawl rendering';

/** Where a render tab's cookies and storage live while it renders (see the module's comment). */
export interface RenderContainers {
  /** A new, empty container; rejects when the browser gives none (the render then fails). @returns its `cookieStoreId`. */
  open(): Promise<string>;
  /** Removes the container `cookieStoreId` and what its pages stored; a failure is ignored. Call it once its tab is closed. */
  remove(cookieStoreId: string): Promise<void>;
}

/** Firefox's {@link RenderContainers}: `contextualIdentities`, with the `contextualIdentities` and `cookies` permissions. */
export const firefoxRenderContainers: RenderContainers = {
  async open() {
    if (browser.contextualIdentities === undefined)
      throw new Error('Firefox gives Tabcrawl no container to render in (contextualIdentities)');
    const identity = await browser.contextualIdentities.create({
      name: RENDER_CONTAINER_NAME,
      color: 'toolbar',
      icon: 'circle',
    });
    return identity.cookieStoreId;
  },
  async remove(cookieStoreId) {
    await browser.contextualIdentities?.remove(cookieStoreId).catch(() => undefined);
  },
};

/** The `cookieStoreId`s of the render containers there are now (by their name; none outside Firefox). */
export async function renderContainerIds(): Promise<string[]> {
  if (browser.contextualIdentities === undefined) return [];
  const found = await browser.contextualIdentities.query({ name: RENDER_CONTAINER_NAME }).catch(() => []);
  return found.map((identity) => identity.cookieStoreId);
}

/**
 * Removes the render containers a stopped worker left (by their name), and so what their pages stored. Call it
 * when the worker starts, after the windows it left are closed ({@link closeLeftoverRenderWindows}).
 * @returns how many it removed (0 outside Firefox).
 */
export async function removeLeftoverRenderContainers(): Promise<number> {
  const left = await renderContainerIds();
  for (const cookieStoreId of left) await firefoxRenderContainers.remove(cookieStoreId);
  return left.length;
}

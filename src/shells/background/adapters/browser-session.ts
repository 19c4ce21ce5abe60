/**
 * Tells the first worker start of a browser session from the later ones.
 * `storage.session` lives as long as the browser (or the extension) runs and
 * survives the worker being stopped, so an empty one means the browser (or
 * Tabcrawl) started again since the last worker ran. `runtime.onStartup`
 * alone is not enough: it is not fired for every way the browser starts
 * (an extension loaded from the command line, as the CLI does).
 */
import browser from 'webextension-polyfill';

const SESSION_KEY = 'tabcrawlSessionStartedAt';

/** Whether this is the first worker start of this browser session; marks the session as started. */
export async function isNewBrowserSession(): Promise<boolean> {
  const stored = await browser.storage.session.get(SESSION_KEY);
  if (typeof stored[SESSION_KEY] === 'number') return false;
  await browser.storage.session.set({ [SESSION_KEY]: Date.now() });
  return true;
}

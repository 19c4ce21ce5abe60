import browser from 'webextension-polyfill';

/**
 * True when a message comes from one of Tabcrawl's own pages (popup, tabs
 * opened on its pages). Content scripts and other extensions are refused:
 * the manifest declares no `externally_connectable`, and we have no content scripts.
 */
export function isTrustedSender(sender: browser.Runtime.MessageSender): boolean {
  if (sender.id !== browser.runtime.id) return false;
  const pagesOrigin = new URL(browser.runtime.getURL('/')).origin;
  return typeof sender.url === 'string' && new URL(sender.url).origin === pagesOrigin;
}

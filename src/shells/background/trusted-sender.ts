/**
 * Who may talk to the background: only Tabcrawl's own pages (the popup, the
 * options page, and the results and export pages opened in tabs).
 *
 * Why this check on top of what Chrome already does: `runtime.onMessage`
 * only hears Tabcrawl's own contexts (other extensions and web pages would
 * need `externally_connectable`, which the manifest does not declare, and
 * would arrive on `onMessageExternal`, which has no listener). But a content
 * script, should one ever be added, runs inside web pages and its messages
 * arrive on `onMessage` with Tabcrawl's id: a hostile page could then drive
 * it. Requiring the sender's URL to be a `chrome-extension://<our id>/` page
 * refuses it. Pure, so it is tested without a browser.
 */

/** The parts of `runtime.MessageSender` the check reads. */
export interface MessageSenderLike {
  /** The extension id of the sender's context. */
  id?: string;
  /** The URL of the page or frame that sent the message. */
  url?: string;
  /** The sender's origin, where Chrome reports it. */
  origin?: string;
}

/** This extension, as the check compares against. */
export interface ExtensionIdentity {
  id: string;
  /** The origin of the extension's pages, `chrome-extension://<id>`. */
  pagesOrigin: string;
}

/**
 * `scheme://host` of a URL, or null when it is not a URL. Never throws.
 * Not `URL.origin`: for a `chrome-extension:` URL that is `"null"` outside Chrome.
 */
export function pageOriginOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.host === '' ? null : `${parsed.protocol}//${parsed.host}`;
  } catch {
    return null;
  }
}

/**
 * True when a message comes from one of Tabcrawl's own pages. A content
 * script (its URL is the web page's), another extension (another id) and a
 * sender without a URL are refused.
 */
export function isTrustedSender(sender: MessageSenderLike, self: ExtensionIdentity): boolean {
  if (sender.id !== self.id) return false;
  if (typeof sender.url !== 'string' || pageOriginOf(sender.url) !== self.pagesOrigin) return false;
  // Chrome also reports the origin; when it does, it must agree.
  return sender.origin === undefined || sender.origin === self.pagesOrigin;
}

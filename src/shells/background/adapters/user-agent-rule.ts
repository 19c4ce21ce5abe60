/**
 * `fetch` silently drops a `User-Agent` header (Chrome and Firefox alike), so
 * the crawl's User-Agent is set by a declarativeNetRequest session rule on
 * the extension's own requests (every redirect hop included).
 */
import browser, { type DeclarativeNetRequest } from 'webextension-polyfill';

const RULE_ID = 1;

/** Resource types a `fetch` of the background has. */
const FETCH_TYPES: DeclarativeNetRequest.ResourceType[] = ['xmlhttprequest', 'other'];

/**
 * Which requests the rule changes: only those Tabcrawl starts, never a page's in the user's tabs nor
 * another extension's. `initiatorDomains` names the host of Tabcrawl's pages: its id in Chrome, its
 * UUID in Firefox (checked: Firefox matches an add-on's own `moz-extension://` requests by it).
 * @param pagesUrl `runtime.getURL('/')`.
 */
export function userAgentCondition(pagesUrl: string): DeclarativeNetRequest.RuleConditionType {
  return { initiatorDomains: [new URL(pagesUrl).host], resourceTypes: FETCH_TYPES };
}

/**
 * Installs (or replaces) the rule. Session rules last until the browser closes; call on every background start.
 * The rule's values are written as the strings the API takes, not through Chrome's enum objects, which
 * Firefox does not have (`web-ext lint`: UNSUPPORTED_API; see docs/firefox.md).
 */
export async function installUserAgentRule(userAgent: string): Promise<void> {
  await browser.declarativeNetRequest.updateSessionRules({
    removeRuleIds: [RULE_ID],
    addRules: [
      {
        id: RULE_ID,
        priority: 1,
        action: {
          type: 'modifyHeaders',
          requestHeaders: [{ header: 'user-agent', operation: 'set', value: userAgent }],
        },
        condition: userAgentCondition(browser.runtime.getURL('/')),
      },
    ],
  });
}

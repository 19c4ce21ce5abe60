/**
 * Chrome-only: `fetch` silently drops a `User-Agent` header, so the crawl's
 * User-Agent is set by a declarativeNetRequest session rule on the
 * extension's own requests (every redirect hop included).
 */

const RULE_ID = 1;

/** The User-Agent every crawl request carries. */
export function crawlerUserAgent(version: string, projectUrl: string): string {
  return `Mozilla/5.0 (compatible; tabcrawl/${version}; +${projectUrl})`;
}

/**
 * Installs (or replaces) the rule. Session rules last until the browser closes; call on every worker start.
 * The rule's values are written as the strings the API takes, not through the enum objects, which
 * Firefox does not have (`web-ext lint`: UNSUPPORTED_API; see docs/firefox.md).
 */
export async function installUserAgentRule(userAgent: string): Promise<void> {
  await chrome.declarativeNetRequest.updateSessionRules({
    removeRuleIds: [RULE_ID],
    addRules: [
      {
        id: RULE_ID,
        priority: 1,
        action: {
          type: 'modifyHeaders' as chrome.declarativeNetRequest.RuleActionType,
          requestHeaders: [{ header: 'user-agent', operation: 'set' as chrome.declarativeNetRequest.HeaderOperation, value: userAgent }],
        },
        condition: {
          initiatorDomains: [chrome.runtime.id],
          resourceTypes: ['xmlhttprequest', 'other'] as chrome.declarativeNetRequest.ResourceType[],
        },
      },
    ],
  });
}

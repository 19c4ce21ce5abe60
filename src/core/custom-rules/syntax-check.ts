/**
 * Whether a CSS selector or an XPath expression can be read, checked before a crawl starts by the settings'
 * validator, which the popup and the options page load too: so this file holds the small parsers only
 * (css-select's compiler, which linkedom applies the selectors with, and xpath's parser), not the DOM
 * (`dom-query.ts`, loaded only where pages are read).
 */
import { compile } from 'css-select';
import xpath from 'xpath';

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Why a selector cannot be read (the engine's words), or null. */
export function checkCss(selector: string): string | null {
  try {
    compile(selector);
    return null;
  } catch (error) {
    return `not a CSS selector: ${message(error)}`;
  }
}

/** Why an XPath expression cannot be read, or null. */
export function checkXpath(expression: string): string | null {
  try {
    xpath.parse(expression);
    return null;
  } catch (error) {
    return `not an XPath 1.0 expression: ${message(error)}`;
  }
}

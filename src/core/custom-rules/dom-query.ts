/**
 * CSS selectors and XPath expressions over a page's HTML, where there is no browser DOM (the Chrome service
 * worker has no `DOMParser`): linkedom builds a DOM from htmlparser2's parse, its `querySelectorAll` applies
 * CSS (css-select), and `xpath` evaluates XPath 1.0 over it with HTML's rules (element names in any case).
 *
 * Not the browser's HTML5 tree builder: the tree is the markup as written, so an element the parser would
 * have added (`<tbody>` in a table written without it) is not there, and `//table/tbody/tr` finds nothing
 * where the browser's DevTools would. docs/search-and-extraction.md says so.
 *
 * The types here are our own few lines of the DOM (the core compiles without the DOM's library).
 */
import { DOMParser } from 'linkedom';
import xpath from 'xpath';

/** The few DOM members read here. */
interface QueryNode {
  nodeType: number;
  textContent: string | null;
  nodeValue: string | null;
  /** An attribute's value (linkedom leaves an attribute's `nodeValue` empty). */
  value?: string;
}
interface QueryDocument extends QueryNode {
  querySelectorAll(selector: string): Iterable<QueryNode>;
}

const ATTRIBUTE_NODE = 2;

/** A parsed page, ready for any number of queries. */
export interface PageDom {
  /** The text of each element the selector matches, in document order. @throws on a selector it cannot read. */
  css(selector: string): string[];
  /** The text of each node the expression selects, or its one string, number or boolean. @throws on a bad expression. */
  xpath(expression: string): string[];
}

/** Text as a column shows it: white space collapsed, trimmed. */
export const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

const textOf = (node: QueryNode): string =>
  collapse(node.nodeType === ATTRIBUTE_NODE ? (node.value ?? node.nodeValue ?? '') : (node.textContent ?? ''));

/**
 * Parses `html` once. linkedom leaves the node after a doctype without a sibling link, so XPath's walk from
 * the document would stop at the doctype: the doctype is dropped first (no rule reads it).
 */
export function parsePageDom(html: string): PageDom {
  const document = new DOMParser().parseFromString(
    html.replace(/^\s*<!doctype[^>]*>/i, ''),
    'text/html',
  ) as unknown as QueryDocument;
  return {
    css: (selector) => [...document.querySelectorAll(selector)].map(textOf),
    xpath: (expression) => {
      const result = xpath.parse(expression).evaluate({ node: document as never, isHtml: true }) as {
        nodes?: QueryNode[];
        stringValue(): string;
      };
      return result.nodes !== undefined ? result.nodes.map(textOf) : [result.stringValue()];
    },
  };
}

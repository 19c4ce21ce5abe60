/**
 * Applies a crawl's custom searches and extractions (`rule-spec.ts`) to one HTML page: the page's HTML as read
 * (the rendered DOM for a rendered page), the same text the crawl read its links from. Pure; bounded: at most
 * {@link MAX_VALUES} values of at most {@link MAX_VALUE_CHARS} characters per extraction, matches counted up
 * to {@link MAX_COUNT}. The page's DOM is built only when a CSS or XPath rule asks for it.
 */
import type { CustomRules, RegexRule } from './rule-spec.ts';
import { collapse, parsePageDom, type PageDom } from './dom-query.ts';

/** Most values kept per extraction and page. */
export const MAX_VALUES = 100;
/** Longest value kept, in characters (cut there). */
export const MAX_VALUE_CHARS = 1000;
/** Matches are counted up to this many per search and page. */
export const MAX_COUNT = 1_000_000;

/** What a page's custom rules found: stored on its row (`PageRecord.custom`), exported as is. */
export interface CustomFindings {
  /** Per search name: how many times it matched (0: the page does not contain it). */
  searches: Record<string, number>;
  /** Per extraction name: the values found, in document order (empty: none). */
  extracted: Record<string, string[]>;
  /** Per rule name that could not be applied to this page (an XPath function it does not know…): why. */
  failed?: Record<string, string>;
}

/** Whether the rules ask anything of a page. */
export const hasRules = (rules: CustomRules): boolean => rules.searches.length + rules.extractions.length > 0;

/** Non-overlapping occurrences of `text` in `html`. */
function countText(html: string, text: string): number {
  let count = 0;
  for (let at = html.indexOf(text); at >= 0 && count < MAX_COUNT; at = html.indexOf(text, at + text.length)) count++;
  return count;
}

/**
 * The matches of a rule's pattern in `html`, in order; an empty match steps one character (a code point in
 * Unicode mode) on, as `String.prototype.matchAll` does. Runs the rule's one compiled pattern from the start:
 * take what is needed, then drop the generator before the next call (the callers here are synchronous).
 */
function* matchesOf(html: string, regex: RegexRule): Generator<RegExpExecArray> {
  const { pattern } = regex;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(html); match !== null; match = pattern.exec(html)) {
    yield match;
    if (match[0].length === 0) {
      const at = pattern.lastIndex;
      pattern.lastIndex = at + (pattern.unicode && (html.codePointAt(at) ?? 0) > 0xffff ? 2 : 1);
    }
  }
}

/** How many times a rule's pattern matches `html`, up to {@link MAX_COUNT}. */
function countMatches(html: string, regex: RegexRule): number {
  let count = 0;
  for (const _match of matchesOf(html, regex)) if (++count >= MAX_COUNT) break;
  return count;
}

/** The values a regex extraction finds: each match's first capture group, else the whole match, at most {@link MAX_VALUES}. */
function regexValues(html: string, regex: RegexRule): string[] {
  const values: string[] = [];
  for (const match of matchesOf(html, regex)) {
    values.push(collapse(match.length > 1 ? (match[1] ?? '') : match[0]));
    if (values.length >= MAX_VALUES) break;
  }
  return values;
}

const keepValues = (values: readonly string[]): string[] =>
  values.slice(0, MAX_VALUES).map((value) => value.slice(0, MAX_VALUE_CHARS));

/** Applies every rule to one page's HTML. */
export function applyRules(html: string, rules: CustomRules): CustomFindings {
  const findings: CustomFindings = { searches: {}, extracted: {} };
  const failed: Record<string, string> = {};
  for (const search of rules.searches) {
    findings.searches[search.name] =
      search.match.type === 'text' ? countText(html, search.match.text) : countMatches(html, search.match);
  }
  let dom: PageDom | null = null;
  for (const extraction of rules.extractions) {
    const via = extraction.via;
    try {
      if (via.type === 'regex') {
        findings.extracted[extraction.name] = keepValues(regexValues(html, via));
      } else {
        dom ??= parsePageDom(html);
        findings.extracted[extraction.name] = keepValues(
          via.type === 'css' ? dom.css(via.selector) : dom.xpath(via.expression),
        );
      }
    } catch (error) {
      findings.extracted[extraction.name] = [];
      failed[extraction.name] = (error instanceof Error ? error.message : String(error)).slice(0, 200);
    }
  }
  if (Object.keys(failed).length > 0) findings.failed = failed;
  return findings;
}

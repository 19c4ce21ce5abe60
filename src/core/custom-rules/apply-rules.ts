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

/** The matches of a pattern, each as `pick` makes it, at most `max`; an empty match steps one character on. */
function eachMatch<T>(html: string, regex: RegexRule, max: number, pick: (match: RegExpExecArray) => T): T[] {
  const pattern = new RegExp(regex.source, `${regex.flags}g`);
  const found: T[] = [];
  for (let match = pattern.exec(html); match !== null && found.length < max; match = pattern.exec(html)) {
    found.push(pick(match));
    if (match[0].length === 0) pattern.lastIndex++;
  }
  return found;
}

/** Matches of a pattern in `html`, up to {@link MAX_COUNT}. */
function countMatches(html: string, regex: RegexRule): number {
  const pattern = new RegExp(regex.source, `${regex.flags}g`);
  let count = 0;
  for (let match = pattern.exec(html); match !== null && count < MAX_COUNT; match = pattern.exec(html)) {
    count++;
    if (match[0].length === 0) pattern.lastIndex++;
  }
  return count;
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
        findings.extracted[extraction.name] = keepValues(
          eachMatch(html, via, MAX_VALUES, (match) => collapse(match.length > 1 ? (match[1] ?? '') : match[0])),
        );
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

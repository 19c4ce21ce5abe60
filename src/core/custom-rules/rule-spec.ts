/**
 * Custom search and extraction rules (issue 30), as the user writes them (`--search NAME=TEXT`,
 * `--extract NAME=css:SELECTOR`, one per line in the form) and as the crawl keeps them: parsed and checked here,
 * once, before a crawl starts; applied to each HTML page by `apply-rules.ts`.
 *
 * A spec is `NAME=RULE`, split at the first `=`:
 * - a search: `TEXT` (a plain, case-sensitive substring; `text:TEXT` when the text itself starts with
 *   `regex:` or `text:`) or `regex:PATTERN`;
 * - an extraction: `css:SELECTOR` (each matching element's text), `xpath:EXPR` (each node's text, an
 *   attribute's value, or the expression's string, number or boolean) or `regex:PATTERN` (each match's first
 *   capture group, else the whole match).
 *
 * A regex is JavaScript's, case-sensitive unless it starts with inline flags `(?i)` (also `m`, `s`, as Java
 * and PCRE write them, since that is how users of other crawlers know them). A pattern that nests repetition
 * (`(a+)+`) is refused: on a page an attacker writes, its backtracking can take hours, and a regex cannot be
 * stopped once it runs (`safe-regex2`'s star-height test).
 *
 * Pure: errors are returned as data, never thrown. CSS and XPath syntax is checked by the parsers of the
 * engines that apply them (`syntax-check.ts`).
 */
import safeRegex from 'safe-regex2';
import { checkCss, checkXpath } from './syntax-check.ts';

/** Most searches, and most extractions, one crawl may hold. */
export const MAX_RULES = 25;
/** Longest name, in characters. */
export const MAX_NAME_CHARS = 40;
/** Longest rule (text, pattern, selector or expression), in characters. */
export const MAX_RULE_CHARS = 1000;

/** A name: a letter or digit first, then letters, digits, spaces, `-`, `_`, `.` (it heads a column). */
const NAME = new RegExp(`^[A-Za-z0-9][A-Za-z0-9 _.-]{0,${MAX_NAME_CHARS - 1}}$`);

/** A regex as the rules keep it: JavaScript's source and flags, and the pattern compiled once from them. */
export interface RegexRule {
  source: string;
  /** Some of `i`, `m`, `s`; and `u` unless the pattern is read only without it. */
  flags: string;
  /**
   * `source` compiled with `flags` and `g`, once per parse (`rules-of.ts` keeps the parse for the crawl): stateful
   * (`lastIndex`), so only `matchesOf` (`apply-rules.ts`) runs it, from the start, one use at a time.
   */
  pattern: RegExp;
}

/** A search: counts the matches of a text or a pattern in the page's HTML. */
export interface SearchRule {
  name: string;
  /** The rule as written after `NAME=`. */
  rule: string;
  match: { type: 'text'; text: string } | ({ type: 'regex' } & RegexRule);
}

/** An extraction: the values a CSS selector, an XPath expression or a pattern finds in the page. */
export interface ExtractionRule {
  name: string;
  rule: string;
  via: { type: 'css'; selector: string } | { type: 'xpath'; expression: string } | ({ type: 'regex' } & RegexRule);
}

/** What was wrong with one spec, in words for the user. */
export interface RuleProblem {
  /** The spec as written. */
  spec: string;
  message: string;
}

/** Every search and extraction of a crawl, parsed. */
export interface CustomRules {
  searches: SearchRule[];
  extractions: ExtractionRule[];
}

export const NO_RULES: CustomRules = Object.freeze({ searches: [], extractions: [] }) as CustomRules;

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** Splits `NAME=RULE` and checks the name. */
function splitSpec(spec: string): Parsed<{ name: string; rule: string }> {
  const at = spec.indexOf('=');
  if (at < 0) return { ok: false, message: 'write it as NAME=RULE' };
  const name = spec.slice(0, at).trim();
  const rule = spec.slice(at + 1);
  if (!NAME.test(name))
    return {
      ok: false,
      message: `the name must be 1 to ${MAX_NAME_CHARS} letters, digits, spaces, "-", "_" or ".", starting with a letter or digit`,
    };
  if (rule.length === 0) return { ok: false, message: 'the rule after "=" is empty' };
  if (rule.length > MAX_RULE_CHARS)
    return { ok: false, message: `the rule is longer than ${MAX_RULE_CHARS} characters` };
  return { ok: true, value: { name, rule } };
}

/** Reads a pattern: leading inline flags (`(?i)`, `(?is)`), then JavaScript's syntax, refused when it nests repetition. */
export function parseRegex(pattern: string): Parsed<RegexRule> {
  const inline = /^\(\?([ims]+)\)/.exec(pattern);
  const source = inline === null ? pattern : pattern.slice(inline[0].length);
  const inlineFlags = [...new Set(inline?.[1] ?? '')].sort().join('');
  if (source.length === 0) return { ok: false, message: 'the pattern is empty' };
  // Unicode mode first (a character is a code point); a pattern only the older syntax reads (`\-`, a lone
  // `{`, as other engines allow) is taken in it rather than refused.
  let compiled: RegExp;
  let flags = `${inlineFlags}u`;
  try {
    compiled = new RegExp(source, flags);
  } catch (unicodeError) {
    try {
      flags = inlineFlags;
      compiled = new RegExp(source, flags);
    } catch {
      const message = unicodeError instanceof Error ? unicodeError.message : String(unicodeError);
      return { ok: false, message: `not a valid pattern: ${message}` };
    }
  }
  if (!safeRegex(compiled))
    return {
      ok: false,
      message:
        'the pattern nests repetition (such as (a+)+ or (\\w+\\s?)*), which can take hours on a hostile page: write it without the nesting',
    };
  return { ok: true, value: { source, flags, pattern: new RegExp(source, `${flags}g`) } };
}

/** Parses one `--search` spec. */
export function parseSearch(spec: string): Parsed<SearchRule> {
  const split = splitSpec(spec);
  if (!split.ok) return split;
  const { name, rule } = split.value;
  if (rule.startsWith('regex:')) {
    const regex = parseRegex(rule.slice('regex:'.length));
    return regex.ok ? { ok: true, value: { name, rule, match: { type: 'regex', ...regex.value } } } : regex;
  }
  const text = rule.startsWith('text:') ? rule.slice('text:'.length) : rule;
  if (text.length === 0) return { ok: false, message: 'the text is empty' };
  return { ok: true, value: { name, rule, match: { type: 'text', text } } };
}

/** Parses one `--extract` spec. */
export function parseExtraction(spec: string): Parsed<ExtractionRule> {
  const split = splitSpec(spec);
  if (!split.ok) return split;
  const { name, rule } = split.value;
  const colon = rule.indexOf(':');
  const type = colon < 0 ? '' : rule.slice(0, colon).trim();
  const body = rule.slice(colon + 1).trim();
  if (type !== 'css' && type !== 'xpath' && type !== 'regex')
    return { ok: false, message: 'the rule must start with css:, xpath: or regex:' };
  if (body.length === 0) return { ok: false, message: `the ${type} rule is empty` };
  if (type === 'regex') {
    const regex = parseRegex(rule.slice(colon + 1));
    return regex.ok ? { ok: true, value: { name, rule, via: { type: 'regex', ...regex.value } } } : regex;
  }
  const problem = type === 'css' ? checkCss(body) : checkXpath(body);
  if (problem !== null) return { ok: false, message: problem };
  return {
    ok: true,
    value: { name, rule, via: type === 'css' ? { type, selector: body } : { type, expression: body } },
  };
}

/**
 * Parses a crawl's searches and extractions: every problem, each naming its spec; names unique across both
 * (each is a column of the exports and the results).
 */
export function parseRules(
  searches: readonly string[],
  extractions: readonly string[],
): { rules: CustomRules; problems: { searches: RuleProblem[]; extractions: RuleProblem[] } } {
  const rules: CustomRules = { searches: [], extractions: [] };
  const problems = { searches: [] as RuleProblem[], extractions: [] as RuleProblem[] };
  const names = new Set<string>();
  const keep = <T extends { name: string }>(spec: string, parsed: Parsed<T>, into: T[], wrong: RuleProblem[]): void => {
    if (!parsed.ok) wrong.push({ spec, message: parsed.message });
    else if (names.has(parsed.value.name.toLowerCase()))
      wrong.push({ spec, message: `the name "${parsed.value.name}" is used twice (each names a column)` });
    else {
      names.add(parsed.value.name.toLowerCase());
      into.push(parsed.value);
    }
  };
  for (const spec of searches.slice(0, MAX_RULES)) keep(spec, parseSearch(spec), rules.searches, problems.searches);
  for (const spec of extractions.slice(0, MAX_RULES))
    keep(spec, parseExtraction(spec), rules.extractions, problems.extractions);
  if (searches.length > MAX_RULES)
    problems.searches.push({ spec: searches[MAX_RULES] ?? '', message: `at most ${MAX_RULES} searches` });
  if (extractions.length > MAX_RULES)
    problems.extractions.push({ spec: extractions[MAX_RULES] ?? '', message: `at most ${MAX_RULES} extractions` });
  return { rules, problems };
}

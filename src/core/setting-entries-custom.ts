/**
 * The settings table's entries for custom search and extraction (issue 30): what each HTML page is searched
 * for and what is extracted from it (`core/custom-rules/`). Part of `SETTING_TABLE` (`setting-table.ts`, which
 * says what an entry holds and how to add one).
 */
import type { SettingEntry } from './setting-entry.ts';

/** The settings of this part of the table. */
export type CustomKey = 'searches' | 'extractions';

/** The form's label of each, for messages that name it. */
export const SEARCHES_LABEL = 'Custom searches';
export const EXTRACTIONS_LABEL = 'Custom extractions';

/** How many, in a few words (`2 searches`). */
const counted = (count: number, one: string, many: string): string | null =>
  count === 0 ? null : `${count} ${count === 1 ? one : many}`;

export const CUSTOM_ENTRIES: { readonly [K in CustomKey]: SettingEntry<K> } = {
  searches: {
    default: [],
    label: SEARCHES_LABEL,
    form: {
      group: 'Search and extraction',
      placeholder: 'discontinued=Discontinued\nold tracker=regex:(?i)UA-\\d+-\\d+',
      testId: 'searches',
      help: "One per line, NAME=TEXT or NAME=regex:PATTERN: how many times each page's HTML contains it (case-sensitive; (?i) at the start of a pattern ignores case).",
    },
    cli: {
      flag: '--search',
      value: 'NAME=TEXT',
      read: 'list',
      help: [
        "count TEXT in each page's HTML (NAME=regex:PATTERN for a pattern; (?i) ignores case)",
        'into a column NAME; repeatable',
      ],
      doc: "count the matches of `TEXT` (case-sensitive) or of `regex:PATTERN` (JavaScript's syntax; a leading `(?i)` ignores case) in each HTML page's HTML, as read (rendered when the page was), into the column `NAME`; repeatable, at most 25 ([search-and-extraction.md](search-and-extraction.md))",
    },
    digest: { at: 25, text: (s) => counted((s.searches ?? []).length, 'search', 'searches') },
    warcinfo: { at: 17, fields: (s) => (s.searches ?? []).map((spec): [string, string] => ['search', spec]) },
    browsertrix: {
      options: [],
      lost: {
        at: 23.5,
        text: (s) =>
          (s.searches ?? []).length === 0
            ? null
            : `Custom searches (${(s.searches ?? []).length}): no counterpart; Browsertrix searches nothing while it crawls.`,
      },
    },
  },
  extractions: {
    default: [],
    label: EXTRACTIONS_LABEL,
    form: {
      group: 'Search and extraction',
      placeholder: 'price=css:.product .price\nauthor=xpath://meta[@name="author"]/@content\nsku=regex:SKU-(\\d+)',
      testId: 'extractions',
      help: 'One per line, NAME=css:SELECTOR, NAME=xpath:EXPR or NAME=regex:PATTERN (its first group): the values found in each page.',
    },
    cli: {
      flag: '--extract',
      value: 'NAME=RULE',
      read: 'list',
      help: [
        'extract values from each page into a column NAME: css:SELECTOR (the text),',
        'xpath:EXPR, or regex:PATTERN (its first group, else the match); repeatable',
      ],
      doc: "extract values from each HTML page into the column `NAME`: `css:SELECTOR` (each matching element's text), `xpath:EXPR` (XPath 1.0: each node's text, an attribute's value, or the expression's value) or `regex:PATTERN` (each match's first capture group, else the match); at most 100 values a page; repeatable, at most 25 ([search-and-extraction.md](search-and-extraction.md))",
    },
    digest: { at: 26, text: (s) => counted((s.extractions ?? []).length, 'extraction', 'extractions') },
    warcinfo: { at: 18, fields: (s) => (s.extractions ?? []).map((spec): [string, string] => ['extraction', spec]) },
    browsertrix: {
      options: [],
      lost: {
        at: 23.6,
        text: (s) =>
          (s.extractions ?? []).length === 0
            ? null
            : `Custom extractions (${(s.extractions ?? []).length}): no counterpart; Browsertrix extracts nothing while it crawls.`,
      },
    },
  },
};

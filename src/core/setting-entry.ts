/**
 * What one entry of the settings table (`setting-table.ts`) holds: a setting's bounds, its form field, its
 * command-line option, its digest words and warcinfo lines, and its part in the Browsertrix hand-off. Types
 * (and the form's groups) only; the entries themselves are in `setting-table.ts`.
 */
import type { CrawlSettings } from './crawl-settings.ts';

/** Every crawl option but the start URL: what the table has an entry for. */
export type TableKey = keyof Omit<CrawlSettings, 'startUrl'>;

/** The form's groups, in the order the form shows them (a group's fields in table order). */
export const FORM_GROUPS = [
  'Limits',
  'Politeness',
  'Scope',
  'Requests',
  'Rendering',
  'Archive',
  'Audit',
  'Search and extraction',
] as const;
export type FormGroup = (typeof FORM_GROUPS)[number];

/** A number setting's bounds, as `validateSettings` enforces them; messages name the setting by `label`. */
export interface SettingLimits {
  min: number;
  max: number;
  /** The unit the value is kept in; messages show ms as seconds. */
  unit: 'count' | 'ms' | 'bytes';
}

/** The setting's field in the settings form (options page, the popup's More settings). */
export interface FormSpec {
  group: FormGroup;
  /** The unit the field is typed in, written after the label; a number field only: null for a count. */
  unit?: 's' | 'MiB' | null;
  /** One sentence of help under the field (the form adds the range and the default). */
  help: string;
  /** The input's `data-testid` (its message's is `<testId>-error`). */
  testId: string;
  /** A list field: examples shown in the empty field, one per line. */
  placeholder?: string;
  /** A check box that takes one column of the compact form's grid (a short label, no warning). */
  narrow?: true;
}

/**
 * How the command line reads the setting: `whole` a whole number, `seconds` a decimal number of seconds
 * (kept in ms), `size` bytes or with K, M or G, `text` as given, `list` a repeatable option, `on` a switch
 * that turns the setting on, `switch` a pair of options that turn a setting on or off, `choice` one of the
 * entry's {@link SettingEntry.choices} by its value (`--render auto`).
 */
export type CliRead = 'whole' | 'seconds' | 'size' | 'text' | 'list' | 'on' | 'switch' | 'choice';

/** The setting's command-line option(s), help and row of docs/cli.md. */
export interface CliSpec {
  /** The option as `--help` and messages name it: `--max-pages`, `--no-resources`. */
  flag: string;
  /** The value's placeholder in `--help` (`N`, `SECONDS`); none for a switch. */
  value?: string;
  read: CliRead;
  /** `switch` only: the option names (without `--`) that turn the setting on, and those that turn it off; the first of each is named in messages. */
  on?: readonly string[];
  off?: readonly string[];
  /** `switch` only: a one-letter alias of the first `on` option (`-p`, as wget's). */
  short?: string;
  /** The help's lines, each wrapped to the help's width; ` (default: …)` is added to the last. */
  help: readonly string[];
  /** The meaning column of docs/cli.md's option table (Markdown). */
  doc: string;
}

/** Formatters the popup lends the digest (the core has none of its own). */
export interface DigestFormat {
  seconds: (ms: number) => string;
  bytes: (bytes: number) => string;
}

/** One allowed value of a choice setting: the value kept (and typed on the command line), and the form's words for it. */
export interface SettingChoice<V extends string = string> {
  value: V;
  /** The option's text in the form's list: `Auto: when scripts build the page`. */
  label: string;
}

/** One crawl setting, whole. */
export interface SettingEntry<K extends TableKey> {
  /** The built-in default. */
  default: CrawlSettings[K];
  /** The name the form and the validator's messages use: `Max pages`. */
  label: string;
  /** A number setting's bounds; none for other settings (their checks are in `validateSettings`). */
  limits?: SettingLimits;
  /**
   * A choice setting's allowed values, in the order the form's list and `--help` show them; none for other
   * settings. `validateSettings` refuses any other value, the form shows a list (`<select>`), the command
   * line reads it with `read: 'choice'`.
   */
  choices?: readonly SettingChoice<CrawlSettings[K] & string>[];
  form: FormSpec;
  /** None: the command line does not set it (the crawl takes the default). */
  cli?: CliSpec;
  /**
   * Its few words in the popup's digest of a crawl's settings (`limit 100 · delay 0 s`), or null when it
   * is not shown (it holds its default); `at` orders the words (lower first). None: not in the digest.
   */
  digest?: { at: number; text: (settings: CrawlSettings, format: DigestFormat) => string | null };
  /** Its `application/warc-fields` lines in the WARC's warcinfo record; `at` orders them. None: not written. */
  warcinfo?: { at: number; fields: (settings: CrawlSettings) => [string, string][] };
  /** How it carries over to Browsertrix Crawler (`handoff/browsertrix-config.ts` walks the table for it). */
  browsertrix: BrowsertrixPart;
}

/** A scalar of the Browsertrix config: what the YAML holds. */
export type ConfigScalar = string | number | boolean;
/** A value of the Browsertrix config: a scalar, a list of them, or the seeds' list of mappings. */
export type ConfigValue = ConfigScalar | ConfigScalar[] | Record<string, ConfigScalar>[];

/**
 * What the hand-off lends each entry's Browsertrix mapping: what it works out from several settings at once
 * (`handoff/browsertrix-parts.ts`), and the names it owns; the core holds no regexes or selectors.
 */
export interface BrowsertrixHelp {
  /** The scope as Browsertrix's anchored `include` regexes: the start site's, then one per extra site (`handoff/browsertrix-scope.ts`). */
  include: readonly string[];
  /** The exclude patterns (with a crawl with cookies' guards) as Browsertrix's anchored regexes (`handoff/browsertrix-scope.ts`). */
  exclude: readonly string[];
  /** The extra sites' home pages (`https://docs.example.org/`) that are seeds: those the crawl's scope admits. */
  extraSeeds: readonly string[];
  /** Seconds Browsertrix waits after each page: the delay plus the jitter, rounded up to a whole second. */
  pageExtraDelay: number;
  /** The links Browsertrix follows, as `selectLinks` values. */
  linkSelectors: (followNofollow: boolean) => string[];
  /** The HTTP statuses that make Tabcrawl back a host off. */
  backOffStatuses: readonly number[];
  /** The User-Agent Browsertrix sends: Tabcrawl's, of the version that writes the config. */
  userAgent: string;
}

/** A mapping's function: from the crawl's settings (lists never missing, a crawl with cookies' guards added) and the help. */
type FromSettings<T> = (settings: CrawlSettings, help: BrowsertrixHelp) => T;

/**
 * One setting's part in the Browsertrix hand-off (or a part of the hand-off that is no setting's, such as the
 * start URL's). Each of the three lists is put in order by `at` (lower first), the table's parts and the
 * hand-off's own together. An option or a sentence that several settings decide is written by one part, which
 * reads the others; the others name it in `options` and point at that part with `mappedBy`.
 */
export interface BrowsertrixPart {
  /**
   * The Browsertrix options (their YAML names, test/fixtures/browsertrix/crawler-options.json) whose value
   * changes with this setting; empty: none (the header says what is lost). Checked by a unit test.
   */
  options: readonly string[];
  /** The options this part writes, at its place among the config's options. */
  writes?: { at: number; options: FromSettings<Record<string, ConfigValue>> };
  /**
   * Its sentence under the header's "What each Tabcrawl setting became" (null: none for these settings), and
   * its row of docs/browsertrix.md's mapping table (Tabcrawl, Browsertrix options, note; Markdown).
   */
  became?: { at: number; text: FromSettings<string | null>; row?: readonly [string, string, string] };
  /** Its sentence under the header's "What could not be carried over", and the safe choice taken instead. */
  lost?: { at: number; text: FromSettings<string | null> };
  /**
   * Whose part says what becomes of this setting: another entry's, or `scope`, the hand-off's part for the
   * start URL and the scope (`handoff/browsertrix-parts.ts`). None: this part says it.
   */
  mappedBy?: TableKey | 'scope';
}

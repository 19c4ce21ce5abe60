/**
 * One entry per crawl setting: its default, its bounds, its field in the settings form, its command-line
 * option and help, how the popup's crawl list and the WARC's `warcinfo` show it, and how it carries over to
 * Browsertrix Crawler. The validator (`core/settings.ts`), the form (`settings/settings-values.ts`), the CLI's
 * parser, `--help` and docs/cli.md's option table (`shells/cli/`), the popup's digest (`popup/crawl-text.ts`), the
 * warcinfo record (`export/warc.ts`), the Browsertrix config (`handoff/browsertrix-config.ts`, through
 * `handoff/browsertrix-parts.ts`) and docs/browsertrix.md's mapping table (`handoff/browsertrix-docs.ts`) are
 * all read from here (issue 28). The entries are in `setting-entries-crawl.ts` (limits, pace, scope) and
 * `setting-entries-fetch.ts` (requests, resources, links elsewhere) and `setting-entries-render.ts` (rendering) and `setting-entries-custom.ts` (custom search and extraction);
 * this file puts them in one table.
 *
 * Pure data and small functions; imports nothing of ours but `setting-entry.ts`, which says what an entry
 * holds (its types are re-exported here).
 *
 * To add a crawl setting:
 * 1. Add it to `CrawlSettings` (`core/crawl-settings.ts`) and give it an entry in `setting-entries-crawl.ts`
 *    or `setting-entries-fetch.ts` (its key in that file's key type too): the compiler asks for one
 *    ({@link SETTING_TABLE} is keyed by every setting). Its place in the table is its place in its form
 *    group, in `--help` and in docs/cli.md.
 * 2. Fill the entry: `default`, `label`, `limits` for a number, `form`; `cli` if the command line sets it;
 *    `digest` and `warcinfo` if the popup and the WARC show it (their `at` orders them).
 * 3. Say how it carries over to Browsertrix, in its `browsertrix` part ({@link BrowsertrixPart}): the options
 *    it changes (their YAML names, as test/fixtures/browsertrix/crawler-options.json lists
 *    Browsertrix's options; a unit test checks them); the options it writes (`writes`) and its sentence in the
 *    config's header (`became`, with its row of docs/browsertrix.md's table); or, when Browsertrix has no
 *    counterpart, its `lost` sentence: what is lost and the safe choice taken instead. `at` places each piece
 *    among the others (the hand-off's own parts, such as the start URL's, are in
 *    `handoff/browsertrix-parts.ts`). When another part already says it (it reads this setting too), name that
 *    part in `mappedBy` and add this setting to its text. A new value that several settings decide goes in
 *    {@link BrowsertrixHelp} (worked out in `browsertrixHelp`).
 * 4. Regenerate the docs' tables: `npm run docs`.
 * 5. Write the crawl code that uses it (`core/crawl/`). Numbers and true-or-false settings are checked from
 *    the table, and so is a choice (its `choices`, with `cli.read: 'choice'`); a text or a list needs its
 *    check in `validateSettings` (`core/settings.ts`).
 */
import type { SettingEntry, TableKey } from './setting-entry.ts';
import { CRAWL_ENTRIES } from './setting-entries-crawl.ts';
import { FETCH_ENTRIES } from './setting-entries-fetch.ts';
import { RENDER_ENTRIES } from './setting-entries-render.ts';
import { CUSTOM_ENTRIES } from './setting-entries-custom.ts';

export { FORM_GROUPS } from './setting-entry.ts';
export type {
  TableKey,
  FormGroup,
  SettingLimits,
  SettingChoice,
  FormSpec,
  CliRead,
  CliSpec,
  DigestFormat,
  SettingEntry,
  ConfigScalar,
  ConfigValue,
  BrowsertrixHelp,
  BrowsertrixPart,
} from './setting-entry.ts';

export { EXTRA_ORIGINS_LABEL, MAX_EXTRA_ORIGINS, MAX_PAGES_COUNTS } from './setting-entries-crawl.ts';
export { RENDER_LABEL, RENDER_PERMISSION } from './setting-entries-render.ts';
export { SEARCHES_LABEL, EXTRACTIONS_LABEL } from './setting-entries-custom.ts';

/**
 * Every crawl setting, in the order the form shows each group's fields and `--help` and docs/cli.md list the
 * options. Keyed by setting, so a setting without an entry does not compile.
 */
export const SETTING_TABLE: { readonly [K in TableKey]: SettingEntry<K> } = Object.freeze({
  ...CRAWL_ENTRIES,
  ...FETCH_ENTRIES,
  ...RENDER_ENTRIES,
  ...CUSTOM_ENTRIES,
});

/** One entry with its key, for code that walks the table. */
export type KeyedEntry = { [K in TableKey]: SettingEntry<K> & { key: K } }[TableKey];

/** Every entry with its key, in table order. */
export const SETTING_ENTRIES: readonly KeyedEntry[] = Object.freeze(
  (Object.keys(SETTING_TABLE) as TableKey[]).map((key) => ({ ...SETTING_TABLE[key], key }) as KeyedEntry),
);

/** Whether a setting holds its default (lists compared item by item). */
export function isDefaultValue(key: TableKey, value: unknown): boolean {
  const builtIn: unknown = SETTING_TABLE[key].default;
  return Array.isArray(value) && Array.isArray(builtIn) ? value.join('\n') === builtIn.join('\n') : value === builtIn;
}

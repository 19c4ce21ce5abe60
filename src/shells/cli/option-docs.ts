/**
 * docs/cli.md's option table, as Markdown: the rows of the options that are not crawl settings (written
 * here) around those of the settings, which come from `core/setting-table.ts` (option, its `doc` text, its
 * default). `test/unit/cli-option-docs.test.ts` keeps the block between docs/cli.md's
 * {@link OPTION_TABLE_START} and {@link OPTION_TABLE_END} markers equal to {@link optionTableMarkdown}.
 * Pure: no I/O.
 */
import { SETTING_ENTRIES, type TableKey } from '../../core/setting-table.ts';
import { cliDefaultText } from './args.ts';

/** The markers around the generated table in docs/cli.md. */
export const OPTION_TABLE_START =
  '<!-- options: generated from src/core/setting-table.ts, see test/unit/cli-option-docs.test.ts -->';
export const OPTION_TABLE_END = '<!-- /options -->';

/** One row: the option as typed, what it does (Markdown), its default (Markdown). */
type Row = readonly [option: string, meaning: string, byDefault: string];

/** The rows before the settings' ones. */
const ROWS_BEFORE: readonly Row[] = [
  [
    '`--browser NAME`',
    'the browser the crawl runs in: `chrome` (Chromium) or `firefox`; same options, exit codes and exports',
    '`chrome`',
  ],
  [
    '`--out FILE`',
    "write the crawl to FILE, format by extension: `.wacz`, `.warc.gz`, `.warc`, `.csv`, `.jsonl`, `.issues.csv` (the Issues view: [audit.md](audit.md#the-issues-view)), `.not-crawled.csv` (the URLs left unvisited by the crawl's rules: each with its reason, why, its depth and the page that linked it), `.links.csv` (one line per link: source, target, anchor, rel, where it was found, whether it was followed, the target's status and kind: [exports.md](exports.md#links-csv)); repeatable",
    'none: only a summary',
  ],
  [
    '`--browsertrix-config FILE.yaml`',
    "also write the crawl's settings, as the extension stored them, as a [Browsertrix Crawler](browsertrix.md) config (`.yaml` or `.yml`), at the end with the other outputs: for a site that outgrew the browser",
    'none',
  ],
];

/** The rows after the settings' ones. */
const ROWS_AFTER: readonly Row[] = [
  [
    '`--demo`',
    'crawl the built-in demo site (what `npm start` does); `--out-dir DIR` sets where it writes',
    '`tabcrawl-output`',
  ],
  [
    '`--import FILE`',
    "read the archive FILE (`.wacz`, `.warc`, `.warc.gz`, from any tool) into a crawl instead of crawling, through the extension's import page, and write it with `--out` in any format; no start URL, no crawl option but `--search` and `--extract` (applied to the archive's pages as stored: [search-and-extraction.md](search-and-extraction.md#re-run-extraction)), not with `--demo`; `--browser` applies ([import.md](import.md#opening-an-archive))",
    'none',
  ],
  [
    '`--verbose`',
    "show the extension build's own output (Vite's) as it runs, when a build runs",
    'off: one line, the output only when the build fails',
  ],
];

/** A setting's default as the table shows it: as `--help` says it, in code type when it is typed as such (`tabcrawl`, `50M`). */
function docsDefault(key: TableKey, unit: string | undefined): string {
  const text = cliDefaultText(key);
  const isWord = text === 'none' || text === 'on' || text === 'off';
  return !isWord && (unit === 'bytes' || unit === undefined) ? `\`${text}\`` : text;
}

/** The rows of the options that set a crawl setting, in table order. */
function settingRows(): Row[] {
  return SETTING_ENTRIES.flatMap((entry) => {
    const cli = entry.cli;
    if (cli === undefined) return [];
    const option = cli.value === undefined ? cli.flag : `${cli.flag} ${cli.value}`;
    return [[`\`${option}\``, cli.doc, docsDefault(entry.key, entry.limits?.unit)] as const];
  });
}

/** The whole option table, header included, one row per line, without the markers. */
export function optionTableMarkdown(): string {
  const rows = [...ROWS_BEFORE, ...settingRows(), ...ROWS_AFTER];
  return [
    '| option | meaning | default |',
    '| --- | --- | --- |',
    ...rows.map(([option, meaning, byDefault]) => `| ${option} | ${meaning} | ${byDefault} |`),
  ].join('\n');
}

/**
 * docs/cli.md's text with the block between the markers replaced by {@link optionTableMarkdown}; null when
 * the text has no such block.
 */
export function withOptionTable(markdown: string): string | null {
  const start = markdown.indexOf(OPTION_TABLE_START);
  const end = markdown.indexOf(OPTION_TABLE_END);
  if (start < 0 || end < start) return null;
  return `${markdown.slice(0, start + OPTION_TABLE_START.length)}\n\n${optionTableMarkdown()}\n\n${markdown.slice(end)}`;
}

/**
 * CSV export: one record per crawl-table row, in the order rows were written,
 * for spreadsheets.
 *
 * The format, as a spreadsheet user sees it:
 *
 * - RFC 4180: a header row, then one record per row; every record ends in
 *   CRLF; a field is quoted when it contains `"`, `,`, CR or LF, with its
 *   quotes doubled.
 * - Columns: the JSON Lines fields ({@link toJsonlRow}), in the same order and
 *   with the same names and meanings ({@link CSV_COLUMNS}), but `render` (an
 *   object: its outcome is the `rendered` column).
 * - List fields (`methods`, `anchors`, `links`, `robots`, `hreflang`) are joined with ` | ` (space,
 *   bar, space): anchor texts often contain spaces, so a bare space would not
 *   separate them. An anchor text that itself contains ` | ` cannot be told
 *   apart; JSON Lines is the lossless export.
 * - `null` is an empty cell; `true`/`false` and numbers are written as is.
 * - A control character in a text cell (NUL, ESC, DEL, a C1 control; not tab, CR or LF, which
 *   are quoted) is written out as `\xHH` (`\x00`): none reaches a cell raw.
 * - Text cells that a spreadsheet would run as a formula (starting with `=`,
 *   `+`, `-`, `@`, TAB or CR) get a leading `'` ({@link defuseFormula}).
 *
 * @see https://www.rfc-editor.org/rfc/rfc4180
 * @see https://owasp.org/www-community/attacks/CSV_Injection
 */
import { rulesOf } from '../core/custom-rules/rules-of.ts';
import { rowFactsOfSource } from './row-facts.ts';
import type { FormatWriter } from './export-source.ts';
import { toJsonlRow, type JsonlRow } from './jsonl.ts';
import { visibleDataControls } from '../ui/visible-controls.ts';

/** The columns, named and ordered as the JSON Lines fields. */
export const CSV_COLUMNS = Object.freeze([
  'url',
  'kind',
  'status',
  'contentType',
  'contentLength',
  'location',
  'redirectChain',
  'finalUrl',
  'finalStatus',
  'depth',
  'referrer',
  'fetchedAt',
  'responseTimeMs',
  'methods',
  'title',
  'sha256',
  'duplicateOf',
  'truncated',
  'anchors',
  'inlinks',
  'links',
  'resourceCount',
  'brokenResourceCount',
  'canonical',
  'canonicalIsSelf',
  'robots',
  'indexable',
  'indexabilityReason',
  'description',
  'h1',
  'h1Count',
  'lang',
  'hreflang',
  'wordCount',
  'internalLinks',
  'outboundLinks',
  'imagesWithoutAltCount',
  'mixedContentCount',
  'blockedBy',
  'blockedRule',
  'error',
  'errorCode',
  'rendered',
  'issues',
] as const satisfies readonly (keyof CsvRow)[]);

/**
 * The JSON Lines fields a CSV cell can hold: every one but the `render` object (its outcome is `rendered`), and
 * `searches` and `extracted`, which become a column per name ({@link customColumnsOf}).
 */
export type CsvRow = Omit<JsonlRow, 'render' | 'searches' | 'extracted'>;

/** The columns of a crawl's custom searches and extractions, after the fixed ones: one per name. */
export interface CustomColumn {
  /** `search:NAME` or `extract:NAME` (prefixed, so that no name can pass for a fixed column). */
  header: string;
  /** The cell of a row: a search's count, an extraction's values (a list, joined as lists are); null when not applied. */
  cell: (row: Pick<JsonlRow, 'searches' | 'extracted'>) => CsvCell;
}

/**
 * The custom columns of a crawl with these settings (rules that do not parse are left out, as the crawl left
 * them out; lists missing in older crawls read as empty).
 */
export function customColumnsOf(settings: { searches?: string[]; extractions?: string[] }): CustomColumn[] {
  const rules = rulesOf({ searches: settings.searches ?? [], extractions: settings.extractions ?? [] });
  return [
    ...rules.searches.map(({ name }): CustomColumn => ({
      header: `search:${name}`,
      cell: (row) => row.searches?.[name] ?? null,
    })),
    ...rules.extractions.map(({ name }): CustomColumn => ({
      header: `extract:${name}`,
      cell: (row) => row.extracted?.[name] ?? null,
    })),
  ];
}

/** Compile-time check: a JSON Lines field missing from {@link CSV_COLUMNS} makes this `false`, and the line below an error. */
type HasEveryField = Exclude<keyof CsvRow, (typeof CSV_COLUMNS)[number]> extends never ? true : false;
const hasEveryField: HasEveryField = true;
void hasEveryField;

/** Separates the items of a list field in one cell. */
export const CSV_LIST_SEPARATOR = ' | ';

/**
 * Byte order mark that starts the file. UTF-8 needs none, but Excel reads a
 * CSV without one in the system's legacy code page (so `Ü` becomes `Ãœ`);
 * with it, Excel, LibreOffice and Numbers all pick UTF-8.
 */
export const CSV_BOM = '\uFEFF';

const CRLF = '\r\n';

/** First characters that make a spreadsheet read a cell as a formula (OWASP: `=`, `+`, `-`, `@`, TAB, CR). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Characters that force a field to be quoted (RFC 4180 §2.6). */
const NEEDS_QUOTES = /[",\r\n]/;

/** A text cell a spreadsheet will show as text: a leading `'` when it would start a formula. */
export function defuseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One field as written: quoted, with its quotes doubled, when it needs to be. */
export function quoteField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A value of one cell: text, a number or boolean, `null` (an empty cell), or a list of texts (joined with {@link CSV_LIST_SEPARATOR}). */
export type CsvCell = string | number | boolean | null | readonly string[];

/**
 * The text of one cell, before quoting. Only text is defused: numbers and
 * booleans are data a spreadsheet must see as such (a `-1` stays a number). Its control
 * characters but tab, CR and LF are written out (`\x00`, see {@link visibleDataControls}).
 */
export function cellText(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return defuseFormula(visibleDataControls(value));
  return defuseFormula(visibleDataControls(value.join(CSV_LIST_SEPARATOR)));
}

/** One record: the fields of `row`, then its custom columns, separated by commas, ending in CRLF. */
export function csvRecord(row: JsonlRow, custom: readonly CustomColumn[] = []): string {
  const cells = [
    ...CSV_COLUMNS.map((column) => quoteField(cellText(row[column]))),
    ...custom.map((column) => quoteField(cellText(column.cell(row)))),
  ];
  return `${cells.join(',')}${CRLF}`;
}

/**
 * One record of any table, encoded as the crawl export's records are: each
 * cell through {@link cellText} (formulas defused) and {@link quoteField},
 * separated by commas, ending in CRLF.
 */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map((cell) => quoteField(cellText(cell))).join(',')}${CRLF}`;
}

/** The header record: the column names (the custom ones last, quoted as any cell), ending in CRLF (no BOM). */
export function csvHeader(custom: readonly CustomColumn[] = []): string {
  return `${[...CSV_COLUMNS, ...custom.map((column) => quoteField(cellText(column.header)))].join(',')}${CRLF}`;
}

/**
 * CSV as a {@link FormatWriter}: UTF-8 with a BOM, the header as the first
 * chunk, then one chunk per row (after the scans that gather what the rows
 * need of each other: `row-facts.ts`).
 */
export const writeCsv: FormatWriter = async function* (source, context) {
  const encoder = new TextEncoder();
  // TextEncoder keeps U+FEFF (it is the decoder that strips it): the file starts with EF BB BF.
  const custom = customColumnsOf(source.crawl.settings);
  yield encoder.encode(`${CSV_BOM}${csvHeader(custom)}`);
  const { broken, issues, redirects } = await rowFactsOfSource(source);
  for await (const row of source.rows()) {
    yield encoder.encode(csvRecord(toJsonlRow(row, broken, issues, redirects), custom));
    context.onRow();
  }
};

/**
 * The command line, parsed into a command or a one-line usage error (as
 * data). Pure: no I/O, no process exit.
 */
import { parseArgs } from 'node:util';
import { FORMATS, formatOfPath, type ExportFormat } from '../../export/format-info.ts';
import { startUrlProblem } from '../../core/crawl/crawl-lifecycle.ts';
import {
  alternatives,
  checkCustomRules,
  DEFAULT_SETTINGS,
  validateSettings,
  type CrawlSettings,
  type SettingsError,
} from '../../core/settings.ts';
import {
  EXTRA_ORIGINS_LABEL,
  EXTRACTIONS_LABEL,
  SEARCHES_LABEL,
  SETTING_ENTRIES,
  SETTING_TABLE,
  type CliSpec,
  type TableKey,
} from '../../core/setting-table.ts';

/** Settings given on the command line: only what the user set, plus the start URL. */
export type CliSettings = Partial<CrawlSettings> & { startUrl: string };

/** The browsers the command line can run Tabcrawl in (`--browser`). */
export const CLI_BROWSERS = ['chrome', 'firefox'] as const;
export type CliBrowser = (typeof CLI_BROWSERS)[number];

export type CliCommand =
  /**
   * Crawl `settings.startUrl` in `browser` and write each of `outputs` (format by file extension), and,
   * when given, the crawl as a Browsertrix Crawler config to `browsertrixConfig` (docs/browsertrix.md).
   */
  | {
      kind: 'crawl';
      settings: CliSettings;
      outputs: string[];
      browser: CliBrowser;
      browsertrixConfig?: string;
      verbose?: true;
    }
  /**
   * Open the archive `file` (a .wacz, .warc or .warc.gz) as a crawl in `browser`, through the extension's
   * import page (docs/import.md), apply `rules` to its pages when given (`--search`, `--extract`), and write
   * each of `outputs` from it.
   */
  | {
      kind: 'import';
      file: string;
      outputs: string[];
      browser: CliBrowser;
      verbose?: true;
      rules?: { searches: string[]; extractions: string[] };
    }
  /** Crawl the built-in demo site in `browser`; write the export into `outDir`. */
  | { kind: 'demo'; outDir: string; browser: CliBrowser; verbose?: true }
  | { kind: 'help' };

/**
 * `verbose`, present only with `--verbose`: the extension's build (when one runs) shows its own output as it
 * runs; without it, the build is one line and its output is shown only when it fails.
 */
export type ParseResult = CliCommand | { kind: 'usage-error'; message: string };

/** Where `--demo` writes when `--out-dir` is not given. */
export const DEFAULT_DEMO_OUT_DIR = 'tabcrawl-output';

/** The export format for an output file, from its extension; null when unsupported. */
export function outputFormat(path: string): ExportFormat | null {
  return formatOfPath(path);
}

/** The output file extensions, for messages. */
const EXTENSIONS = FORMATS.map((f) => f.extension).join(', ');

/** The options that are not crawl settings. */
const BASE_OPTIONS = {
  out: { type: 'string', multiple: true },
  import: { type: 'string' },
  'browsertrix-config': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  demo: { type: 'boolean' },
  'out-dir': { type: 'string' },
  browser: { type: 'string' },
  verbose: { type: 'boolean' },
} as const;

/** One option as `parseArgs` takes it. */
interface OptionConfig {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
}

/** The entries of `core/setting-table.ts` that have a command-line option, in table order. */
const CLI_ENTRIES = SETTING_ENTRIES.flatMap((entry) =>
  entry.cli === undefined ? [] : [{ key: entry.key, cli: entry.cli }],
);

/** An option's name without its `--`. */
const bare = (flag: string): string => flag.replace(/^--/, '');

/** The options that set a crawl setting, by name (without `--`), from the table. */
const SETTING_OPTIONS: Readonly<Record<string, OptionConfig>> = Object.fromEntries(
  CLI_ENTRIES.flatMap(({ cli }): [string, OptionConfig][] => {
    if (cli.read === 'switch') {
      return [
        ...(cli.on ?? []).map((name, at): [string, OptionConfig] => [
          name,
          { type: 'boolean', ...(at === 0 && cli.short !== undefined ? { short: cli.short } : {}) },
        ]),
        ...(cli.off ?? []).map((name): [string, OptionConfig] => [name, { type: 'boolean' }]),
      ];
    }
    if (cli.read === 'on') return [[bare(cli.flag), { type: 'boolean' }]];
    return [[bare(cli.flag), { type: 'string', ...(cli.read === 'list' ? { multiple: true } : {}) }]];
  }),
);

const OPTIONS: Readonly<Record<string, OptionConfig>> = { ...BASE_OPTIONS, ...SETTING_OPTIONS };

/** Options that take a number, so `--delay -1` reads as a value, not as an option. */
const NUMERIC_OPTIONS: ReadonlySet<string> = new Set(
  CLI_ENTRIES.filter(({ cli }) => cli.read === 'whole' || cli.read === 'seconds' || cli.read === 'size').map(
    ({ cli }) => cli.flag,
  ),
);

/** Options that shape a crawl (not allowed with `--demo`). */
const CRAWL_OPTIONS: readonly string[] = ['out', 'import', 'browsertrix-config', ...Object.keys(SETTING_OPTIONS)];

/** The custom rules' options, which `--import` takes too (applied to the archive's pages as stored). */
const SEARCH_FLAG = SETTING_TABLE.searches.cli?.flag ?? '--search';
const EXTRACT_FLAG = SETTING_TABLE.extractions.cli?.flag ?? '--extract';

/** The options `--import` takes besides the browser's. */
const IMPORT_OPTIONS: readonly string[] = ['out', 'import', bare(SEARCH_FLAG), bare(EXTRACT_FLAG)];

/** The archive files `--import` reads, by how their names end. */
export const IMPORT_EXTENSIONS = ['.wacz', '.warc', '.warc.gz'] as const;

/** Whether `path` names an archive `--import` reads (by its extension, any case). */
export function isImportable(path: string): boolean {
  const lower = path.toLowerCase();
  return IMPORT_EXTENSIONS.some((extension) => lower.endsWith(extension) && lower.length > extension.length);
}

/** The command-line option for each setting, for messages. */
const OPTION_OF_FIELD: Partial<Record<keyof CrawlSettings, string>> = Object.fromEntries(
  CLI_ENTRIES.map(({ key, cli }) => [key, cli.flag]),
);

const seconds = (ms: number): string => String(ms / 1000);

/** Where an option's description starts in {@link USAGE}, in characters. */
const USAGE_INDENT = 26;
/** Longest line of {@link USAGE} that {@link wrapped} writes, in characters. */
const USAGE_WIDTH = 112;

/** `text` wrapped at spaces into lines of at most {@link USAGE_WIDTH}, each after the first indented to the descriptions. */
function wrapped(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && USAGE_INDENT + line.length + 1 + word.length > USAGE_WIDTH) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(USAGE_INDENT)}`);
}

/** A setting's default as `--help` and docs/cli.md write it: `500`, `1` (seconds), `50M`, `on`, `none`. */
export function cliDefaultText(key: TableKey): string {
  const entry = SETTING_TABLE[key];
  const value: unknown = entry.default;
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (Array.isArray(value) || value === '') return 'none';
  if (typeof value === 'number' && entry.limits?.unit === 'ms') return seconds(value);
  if (typeof value === 'number' && entry.limits?.unit === 'bytes') return `${value / (1024 * 1024)}M`;
  return String(value);
}

/** An option with its value's placeholder, as `--help` shows it: `--max-pages N`. */
const optionLabel = (cli: CliSpec): string => (cli.value === undefined ? cli.flag : `${cli.flag} ${cli.value}`);

/**
 * The help of the options that set a crawl setting, in table order: the option, then its lines (each
 * wrapped, the default after the last), under the descriptions' column; an option too long for its
 * column has a line of its own.
 */
const SETTING_USAGE = CLI_ENTRIES.map(({ key, cli }) => {
  const label = optionLabel(cli);
  const lines = cli.help.map((line, at) =>
    wrapped(at === cli.help.length - 1 ? `${line} (default: ${cliDefaultText(key)})` : line),
  );
  const head =
    label.length + 4 <= USAGE_INDENT
      ? `  ${label.padEnd(USAGE_INDENT - 2)}`
      : `  ${label}\n${' '.repeat(USAGE_INDENT)}`;
  return `${head}${lines.join(`\n${' '.repeat(USAGE_INDENT)}`)}`;
}).join('\n');

/** The `--help` text: every option with its default. */
export const USAGE = `Usage:
  tabcrawl <start-url> [options]            crawl a site with the Tabcrawl extension in headless Chromium (or Firefox)
  npm run crawl -- <start-url> [options]    the same, in the checkout
  tabcrawl --import FILE [--out FILE]...    open a .wacz, .warc or .warc.gz as a crawl and write it out
  npm start                                 crawl a local demo site (same as tabcrawl --demo)

Options:
  --out FILE              write the crawl to FILE; format by extension (${EXTENSIONS}); repeatable (default: none, only a summary is printed)
  --browsertrix-config FILE.yaml
                          also write the crawl's settings as a Browsertrix Crawler config, for a crawl
                          that outgrew the browser (see docs/browsertrix.md) (default: none)
  --import FILE           read the archive FILE (.wacz, .warc, .warc.gz) into a crawl instead of crawling:
                          no start URL; with --out, write it in any format (see docs/import.md); the
                          searches and extractions given (--search, --extract) apply to its pages as
                          stored (default: none)
${SETTING_USAGE}
  --browser NAME          run the crawl in chrome (Chromium) or firefox (default: chrome)
  --demo                  crawl a built-in demo site served on 127.0.0.1
  --out-dir DIR           where --demo writes its export (default: ${DEFAULT_DEMO_OUT_DIR})
  --verbose               show the extension build's own output when it builds (default: off: one line,
                          the output only when the build fails)
  -h, --help              show this help

Environment:
  CHROME_PATH             the Chromium to use (default: the first one found in the usual places)
  FIREFOX_PATH            the Firefox to use with --browser firefox (default: firefox-esr or firefox, found in the usual places)

Exit codes: 0 finished, 1 failed or error, 2 usage error, 130 interrupted.`;

function usageError(message: string): ParseResult {
  return { kind: 'usage-error', message };
}

/** Rewrites Node's parseArgs errors as one short line. */
function describeParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown !== null) return `unknown option '${unknown[1] ?? ''}'`;
  const missing = /^Option '(?:-\w, )?(--[\w-]+)[^']*' argument missing/.exec(message);
  if (missing !== null) return `${missing[1] ?? 'an option'} needs a value`;
  const noArgument = /^Option '(?:-\w, )?(--[\w-]+)' does not take an argument/.exec(message);
  if (noArgument !== null) return `${noArgument[1] ?? 'an option'} takes no value`;
  const ambiguous = /^Option '(--[\w-]+)' argument is ambiguous/.exec(message);
  if (ambiguous !== null) {
    const name = ambiguous[1] ?? '--option';
    return `${name} needs a value (write ${name}=VALUE for a value starting with '-')`;
  }
  return message.split('\n')[0] ?? message;
}

/** Joins `--delay -1` into `--delay=-1` for numeric options, so a negative number is reported as a bad value. */
function joinNegativeNumbers(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const next = argv[i + 1];
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (NUMERIC_OPTIONS.has(arg) && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** A whole number, or a message. */
function parseWholeNumber(option: string, text: string): number | string {
  if (!/^\d+$/.test(text)) return `${option} must be a whole number, got '${text}'`;
  return Number(text);
}

/** A decimal number of seconds ≥ 0, in whole ms; or a message. Bounds are left to `validateSettings`. */
function parseSeconds(option: string, text: string): number | string {
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text)) return `${option} must be a number of seconds ≥ 0, got '${text}'`;
  return Math.round(Number(text) * 1000);
}

function parseStrict(argv: readonly string[]) {
  return parseArgs({ args: joinNegativeNumbers(argv), options: OPTIONS, allowPositionals: true, strict: true });
}

type Parsed = ReturnType<typeof parseStrict>;

/**
 * What `parseArgs` read, typed as {@link OPTIONS} says: the options that are not settings by name, those of
 * the table as `parseArgs` gives them (a string, strings, or true).
 */
type CliValues = {
  out?: string[];
  import?: string;
  'browsertrix-config'?: string;
  help?: boolean;
  demo?: boolean;
  'out-dir'?: string;
  browser?: string;
  verbose?: boolean;
} & Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

/** A settings problem as a usage error, named by the option that set it. */
function settingsUsageError(error: SettingsError | undefined): ParseResult {
  if (error === undefined) return usageError('invalid settings');
  const option = OPTION_OF_FIELD[error.field];
  if (option === undefined) return usageError(error.message);
  // The form's label says which field; on the command line the option does.
  const label = [EXTRA_ORIGINS_LABEL, SEARCHES_LABEL, EXTRACTIONS_LABEL].find((l) =>
    error.message.startsWith(`${l}: `),
  );
  const message = label === undefined ? error.message : error.message.slice(label.length + 2);
  return usageError(`${option}: ${message.charAt(0).toLowerCase()}${message.slice(1)}`);
}

/** Parses the arguments after the script name (`process.argv.slice(2)`). Never throws. */
export function parseCliArgs(argv: readonly string[]): ParseResult {
  const beforeDashes = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const wantsHelp = beforeDashes.includes('--help') || beforeDashes.includes('-h');

  let parsed: Parsed;
  try {
    parsed = parseStrict(argv);
  } catch (error) {
    return wantsHelp ? { kind: 'help' } : usageError(describeParseError(error));
  }
  const values = parsed.values as CliValues;
  const { positionals } = parsed;
  if (values.help === true) return { kind: 'help' };

  const verbose = values.verbose === true ? { verbose: true as const } : {};
  const browser = values.browser ?? 'chrome';
  if (!(CLI_BROWSERS as readonly string[]).includes(browser)) {
    return usageError(`--browser must be ${CLI_BROWSERS.join(' or ')}, got '${browser}'`);
  }

  if (values.demo === true) {
    if (positionals.length > 0)
      return usageError(`--demo crawls its own site and takes no start URL, got '${positionals[0] ?? ''}'`);
    const extra = CRAWL_OPTIONS.find((name) => values[name] !== undefined);
    if (extra !== undefined) return usageError(`--demo cannot be combined with --${extra}`);
    const outDir = values['out-dir'] ?? DEFAULT_DEMO_OUT_DIR;
    if (outDir === '') return usageError('--out-dir must not be empty');
    return { kind: 'demo', outDir, browser: browser as CliBrowser, ...verbose };
  }
  if (values['out-dir'] !== undefined) return usageError('--out-dir only applies to --demo; use --out FILE');

  if (values.import !== undefined) return parseImport(values, positionals, browser as CliBrowser, verbose);

  if (positionals.length === 0) return usageError('missing the start URL, e.g. https://example.com/');
  if (positionals.length > 1)
    return usageError(`expected one start URL, got ${positionals.length}: ${positionals.join(' ')}`);
  const startUrl = positionals[0] ?? '';

  const settings: CliSettings = { startUrl };
  const problem = readSettingOptions(values, settings);
  if (problem !== null) return usageError(problem);

  const outputs = values.out ?? [];
  const outputProblem = outputsProblem(outputs);
  if (outputProblem !== null) return usageError(outputProblem);

  const browsertrixConfig = values['browsertrix-config'];
  if (browsertrixConfig !== undefined) {
    if (!/\.ya?ml$/i.test(browsertrixConfig))
      return usageError(`--browsertrix-config '${browsertrixConfig}': the file name must end in .yaml or .yml`);
  }

  // Checked here as the background would, so bad input is a usage error (exit 2) before a browser starts.
  const checked = validateSettings(settings);
  if (!checked.ok) return settingsUsageError(checked.errors[0]);
  const startProblem = startUrlProblem(checked.settings);
  if (startProblem !== null) return settingsUsageError(startProblem);
  settings.startUrl = checked.settings.startUrl;
  if (settings.extraOrigins !== undefined) settings.extraOrigins = [...checked.settings.extraOrigins];
  return {
    kind: 'crawl',
    settings,
    outputs: [...outputs],
    browser: browser as CliBrowser,
    ...(browsertrixConfig === undefined ? {} : { browsertrixConfig }),
    ...verbose,
  };
}

/**
 * Sets in `settings` each crawl setting an option gives (in table order), as the table says the option
 * reads; the first bad value's message, or null. Bounds are left to `validateSettings`.
 */
function readSettingOptions(values: CliValues, settings: CliSettings): string | null {
  const given: Partial<Record<TableKey, unknown>> = {};
  for (const { key, cli } of CLI_ENTRIES) {
    const value = values[bare(cli.flag)];
    switch (cli.read) {
      case 'whole':
      case 'seconds':
      case 'size': {
        if (typeof value !== 'string') break;
        const read =
          cli.read === 'whole'
            ? parseWholeNumber(cli.flag, value)
            : cli.read === 'seconds'
              ? parseSeconds(cli.flag, value)
              : parseSize(cli.flag, value);
        if (typeof read === 'string') return read;
        given[key] = read;
        break;
      }
      case 'text':
        if (typeof value === 'string') given[key] = value;
        break;
      case 'list':
        if (Array.isArray(value)) given[key] = value.map(String);
        break;
      case 'on':
        if (value === true) given[key] = true;
        break;
      case 'choice': {
        if (typeof value !== 'string') break;
        const read = parseChoice(value, SETTING_TABLE[key].choices ?? []);
        if (read === null) return `${cli.flag} must be ${alternatives(choiceValues(key))}, got '${value}'`;
        given[key] = read;
        break;
      }
      case 'switch': {
        const on = (cli.on ?? []).some((name) => values[name] === true);
        const off = (cli.off ?? []).some((name) => values[name] === true);
        if (on && off) return `--${cli.on?.[0] ?? ''} and --${cli.off?.[0] ?? ''} contradict each other: give one`;
        if (on || off) given[key] = on;
        break;
      }
    }
  }
  Object.assign(settings, given);
  return null;
}

/** The values a choice setting allows, in the table's order. */
const choiceValues = (key: TableKey): string[] => (SETTING_TABLE[key].choices ?? []).map((choice) => choice.value);

/** One of `choices` by its value, any case (`--render AUTO`), or null. */
function parseChoice(text: string, choices: readonly { value: string }[]): string | null {
  return choices.find((choice) => choice.value === text.trim().toLowerCase())?.value ?? null;
}

/** What is wrong with the `--out` files, or null. */
function outputsProblem(outputs: readonly string[]): string | null {
  for (const [i, out] of outputs.entries()) {
    if (outputFormat(out) === null) return `--out '${out}': unsupported format; supported extensions: ${EXTENSIONS}`;
    if (outputs.indexOf(out) !== i) return `--out '${out}' is given twice`;
  }
  return null;
}

/** `--import FILE`: the file and the outputs; no start URL, no crawl option. (Whether the file exists is checked by the CLI.) */
function parseImport(
  values: CliValues,
  positionals: readonly string[],
  browser: CliBrowser,
  verbose: { verbose?: true },
): ParseResult {
  const file = values.import ?? '';
  if (file === '') return usageError('--import needs a file: a .wacz, .warc or .warc.gz');
  if (positionals.length > 0)
    return usageError(
      `--import reads a file instead of crawling and takes no start URL, got '${positionals[0] ?? ''}'`,
    );
  const extra = CRAWL_OPTIONS.find((name) => !IMPORT_OPTIONS.includes(name) && values[name] !== undefined);
  if (extra !== undefined)
    return usageError(`--import cannot be combined with --${extra}: the archive's crawl is written as it was captured`);
  // Searches and extractions apply to the archive's pages as stored (docs/search-and-extraction.md).
  const stringsOf = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  const rules = { searches: stringsOf(values[bare(SEARCH_FLAG)]), extractions: stringsOf(values[bare(EXTRACT_FLAG)]) };
  const ruleErrors = checkCustomRules(rules);
  if (ruleErrors.length > 0) return settingsUsageError(ruleErrors[0]);
  if (!isImportable(file))
    return usageError(`--import '${file}': not an archive Tabcrawl reads; give a ${IMPORT_EXTENSIONS.join(', ')} file`);
  const outputs = values.out ?? [];
  const outputProblem = outputsProblem(outputs);
  if (outputProblem !== null) return usageError(outputProblem);
  const hasRules = rules.searches.length + rules.extractions.length > 0;
  return { kind: 'import', file, outputs: [...outputs], browser, ...verbose, ...(hasRules ? { rules } : {}) };
}

/**
 * A size as wget's quotas write it: bytes, or a number with `K`, `M` or `G`
 * (KiB, MiB, GiB; decimals allowed, e.g. `1.5M`). A problem, as a message, otherwise.
 */
export function parseSize(option: string, text: string): number | string {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg])?i?b?\s*$/i.exec(text);
  if (match === null) return `${option} takes a size in bytes or with K, M or G (e.g. 50M), not '${text}'`;
  const units: Record<string, number> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 };
  return Math.round(Number(match[1]) * (units[(match[2] ?? '').toLowerCase()] ?? 1));
}

/**
 * A note for stderr when `--parallel` asks for more than one request per host
 * but the crawl keeps a gap (a delay or jitter), so the option does nothing;
 * null otherwise. (A Crawl-delay in robots.txt can still turn it off per host.)
 */
export function parallelNote(
  settings: Pick<Partial<CrawlSettings>, 'requestsPerHost' | 'delayMs' | 'jitterMs'>,
): string | null {
  const asked = settings.requestsPerHost ?? DEFAULT_SETTINGS.requestsPerHost;
  if (asked <= 1) return null;
  const delayMs = settings.delayMs ?? DEFAULT_SETTINGS.delayMs;
  const jitterMs = settings.jitterMs ?? DEFAULT_SETTINGS.jitterMs;
  if (delayMs === 0 && jitterMs === 0) return null;
  return `--parallel ${asked} applies only with --delay 0: this crawl keeps a gap, so each host gets one request at a time`;
}

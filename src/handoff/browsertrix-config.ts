/**
 * The hand-off to Browsertrix Crawler: a Tabcrawl crawl's settings as a YAML
 * config that Browsertrix Crawler 1.14.1 runs with `crawl --config FILE.yaml`,
 * for a site that outgrew the browser (docs/browsertrix.md).
 *
 * Pure: settings in, text out. The mapping never makes Browsertrix less polite
 * than the crawl it came from; what it cannot carry over (Browsertrix has no
 * per-host gap, reads no Crawl-delay, renders every page with all it loads…)
 * is said in a comment block at the top of the file, with the safe choice
 * taken instead. What each setting becomes is said in its entry of
 * `core/setting-table.ts` (its `browsertrix` part), what belongs to no setting
 * in `browsertrix-parts.ts`; this file puts the parts together and writes them.
 *
 * The YAML is written by hand: a few fixed shapes (scalars, lists of scalars,
 * the seeds' list of mappings) and comments, every string quoted, so no YAML
 * library ships in the extension's pages for it. Tests read it back with the
 * `yaml` package and check it against Browsertrix's own option list.
 */
import { withSessionGuard, type CrawlSettings } from '../core/settings.ts';
import type { BrowsertrixHelp, ConfigScalar, ConfigValue } from '../core/setting-table.ts';
import { browsertrixHelp, inOrder } from './browsertrix-parts.ts';

export type { ConfigScalar, ConfigValue } from '../core/setting-table.ts';

/** The Browsertrix Crawler release the config is written for (its options: test/fixtures/browsertrix/crawler-options.json). */
export const BROWSERTRIX_CRAWLER_VERSION = '1.14.1';

/** What the config is made from. */
export interface HandoffSource {
  /** The crawl's settings, as stored with it. */
  settings: CrawlSettings;
  /** Tabcrawl's version (the extension's), for the User-Agent and the header. */
  version: string;
  /** When the crawl started, ms since the epoch, for the header; none: not said. */
  createdAt?: number;
  /**
   * The name the config is saved under, which its `docker run` line mounts (a name, not a path: the line runs
   * from the folder that holds the file). @default the pages' name, {@link browsertrixConfigFileName}, when
   * `createdAt` is given; else `crawl-config.yaml`
   */
  fileName?: string;
}

/** The config as data, before it is written. */
export interface BrowsertrixConfig {
  /** Browsertrix's options, by the names it reads in a YAML config, in the order written. */
  options: Record<string, ConfigValue>;
  /** Option lines written commented out, each under its seed or key: off for politeness, on at the user's choice. */
  commentedOut: { sitemap: string };
  /** What each Tabcrawl setting became, one sentence each. */
  mapped: string[];
  /** What could not be carried over, and the safe choice taken instead, one sentence each. */
  notCarried: string[];
}

/**
 * The config for a crawl: its options and the sentences of the header, from every setting's part
 * (`core/setting-table.ts`) and the hand-off's own (`browsertrix-parts.ts`), each list in its parts' order.
 * Never throws for settings a crawl was stored with (a crawl stored before a setting existed reads it as its
 * default).
 */
export function browsertrixConfig(source: HandoffSource): BrowsertrixConfig {
  const settings = withSessionGuard({
    ...source.settings,
    extraOrigins: source.settings.extraOrigins ?? [],
    excludePatterns: source.settings.excludePatterns ?? [],
  });
  const help = browsertrixHelp(settings, source.version);
  const options: Record<string, ConfigValue> = {};
  for (const writes of inOrder((part) => part.writes)) Object.assign(options, writes.options(settings, help));
  const sentences = (texts: { text: (s: CrawlSettings, h: BrowsertrixHelp) => string | null }[]): string[] =>
    texts.flatMap(({ text }) => {
      const sentence = text(settings, help);
      return sentence === null ? [] : [sentence];
    });
  return {
    options,
    commentedOut: { sitemap: `${new URL(settings.startUrl).origin}/robots.txt` },
    mapped: sentences(inOrder((part) => part.became)),
    notCarried: sentences(inOrder((part) => part.lost)),
  };
}

/** Longest header line, in characters, before a sentence wraps. */
const WRAP_AT = 100;

/** One sentence as comment lines: `# - ` on the first, `#   ` on the rest, wrapped at word breaks. */
function commentLines(sentence: string, bullet = '- '): string[] {
  const words = oneLine(sentence).split(' ');
  const lines: string[] = [];
  let line = `# ${bullet}`;
  const indent = `# ${' '.repeat(bullet.length)}`;
  for (const word of words) {
    const empty = line === `# ${bullet}` || line === indent;
    if (!empty && line.length + 1 + word.length > WRAP_AT) {
      lines.push(line);
      line = indent;
    }
    line += line === `# ${bullet}` || line === indent ? word : ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** Text for a comment: control characters (a line break would end the comment) as spaces. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
}

/**
 * A string as a YAML scalar: single-quoted (nothing escaped but `'`, doubled),
 * which keeps a regex's backslashes as they are; double-quoted with JSON's
 * escapes (a subset of YAML's) when it holds a character single quotes cannot.
 */
export function yamlString(text: string): string {
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]|[\ud800-\udfff]/.test(text))
    return JSON.stringify(text).replace(
      /[\u007f-\u009f\u2028\u2029\ufeff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  return `'${text.replace(/'/g, "''")}'`;
}

function yamlScalar(value: ConfigScalar): string {
  if (typeof value === 'string') return yamlString(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`not a YAML number: ${value}`);
    return String(value);
  }
  return value ? 'true' : 'false';
}

/**
 * The config as YAML: the header (what it is, how to run it, what each
 * setting became, what could not be carried over), then the options.
 */
export function browsertrixConfigYaml(source: HandoffSource): string {
  const config = browsertrixConfig(source);
  const started =
    source.createdAt === undefined
      ? ''
      : ` (started ${new Date(source.createdAt).toISOString().replace(/\.\d{3}Z$/, 'Z')})`;
  const lines = [
    `# Browsertrix Crawler ${BROWSERTRIX_CRAWLER_VERSION} config, written by Tabcrawl ${oneLine(source.version)} from its crawl of`,
    `# ${oneLine(source.settings.startUrl)}${started}.`,
    '# Run it from the folder that holds this file (crawls/ receives the WARCs and the WACZ):',
    `#   docker run -v ${shellWord(`$PWD/${oneLine(savedAs(source))}`)}:/app/crawl-config.yaml \\`,
    '#     -v $PWD/crawls:/crawls/ webrecorder/browsertrix-crawler crawl --config /app/crawl-config.yaml',
    "# More in Tabcrawl's docs/browsertrix.md.",
    '#',
    '# What each Tabcrawl setting became:',
    ...config.mapped.flatMap((sentence) => commentLines(sentence)),
    '#',
    '# What could not be carried over, and the safe choice taken instead:',
    ...config.notCarried.flatMap((sentence) => commentLines(sentence)),
    '',
  ];
  for (const [key, value] of Object.entries(config.options)) {
    if (key === 'seeds') {
      lines.push('seeds:');
      (value as Record<string, ConfigScalar>[]).forEach((seed, index) => {
        Object.entries(seed).forEach(([field, fieldValue], at) =>
          lines.push(`${at === 0 ? '  - ' : '    '}${field}: ${yamlScalar(fieldValue)}`),
        );
        if (index === 0) {
          lines.push(
            '    # Off: Browsertrix fetches up to 5 sitemaps at once, without a gap. On: the sitemaps this robots.txt lists.',
          );
          lines.push(`    # sitemap: ${yamlString(config.commentedOut.sitemap)}`);
        }
      });
    } else if (Array.isArray(value)) {
      lines.push(`${key}:`);
      for (const item of value as ConfigScalar[]) lines.push(`  - ${yamlScalar(item)}`);
    } else {
      lines.push(`${key}: ${yamlScalar(value as ConfigScalar)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The name the config is saved under: {@link HandoffSource.fileName}, or its default. */
function savedAs(source: HandoffSource): string {
  if (source.fileName !== undefined) return source.fileName;
  return source.createdAt === undefined
    ? 'crawl-config.yaml'
    : browsertrixConfigFileName({ settings: source.settings, createdAt: source.createdAt });
}

/**
 * A word for a POSIX shell: as it is when it holds only characters no shell reads specially (and `$PWD` at
 * its start, which is meant to expand), else in double quotes with `"`, `\`, `` ` `` and any `$` but the
 * leading `$PWD`'s escaped.
 */
function shellWord(text: string): string {
  if (/^(\$PWD)?[A-Za-z0-9._/-]*$/.test(text)) return text;
  const rest = text.startsWith('$PWD') ? text.slice('$PWD'.length) : text;
  const head = text.startsWith('$PWD') ? '$PWD' : '';
  return `"${head}${rest.replace(/["\\`$]/g, (c) => `\\${c}`)}"`;
}

/** `<host>-<yyyy-mm-dd>.browsertrix.yaml`, named as the crawl's exports are (`exportFileName`). */
export function browsertrixConfigFileName(crawl: {
  settings: Pick<CrawlSettings, 'startUrl'>;
  createdAt: number;
}): string {
  const host = new URL(crawl.settings.startUrl).host.replace(/[^A-Za-z0-9.-]+/g, '_');
  const date = new Date(crawl.createdAt).toISOString().slice(0, 10);
  return `${host}-${date}.browsertrix.yaml`;
}

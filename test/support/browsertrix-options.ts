/**
 * Browsertrix Crawler 1.14.1's own option list (`test/fixtures/browsertrix/crawler-options.json`, a copy of the shared list,
 * from its argParser.ts) and checks of a config against it, for the hand-off's tests: only
 * known keys (names or aliases, each option once), values of the declared type, choices kept;
 * and how Browsertrix would judge a URL with a config's scope (`src/util/seeds.ts`: include
 * regexes, then exclude regexes, on the URL normalized with normalize-url as it does).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import normalizeUrl from 'normalize-url';

/** One option as the list gives it. */
export interface BrowsertrixOption {
  alias?: string[];
  describe?: string;
  type?: 'string' | 'number' | 'boolean' | 'array';
  /** A list of values, or the name of a constant of Browsertrix's source (not checked here). */
  choices?: string[] | string;
  default?: string;
}

/** Where the list is: a copy in the repository (test/fixtures/browsertrix/, its README says where it comes from), so a clean clone tests alone. */
export const OPTIONS_PATH = resolve(import.meta.dirname, '../fixtures/browsertrix/crawler-options.json');

export function loadBrowsertrixOptions(path = OPTIONS_PATH): Record<string, BrowsertrixOption> {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { options: Record<string, BrowsertrixOption> };
  return parsed.options;
}

/**
 * The keys a seed given as a mapping may have (`ScopedSeedInitOpts` in src/util/seeds.ts;
 * docs/docs/user-guide/yaml-config.md lists the first seven).
 */
export const SEED_KEYS: ReadonlySet<string> = new Set([
  'url',
  'scopeType',
  'include',
  'exclude',
  'depth',
  'extraHops',
  'sitemap',
  'allowHash',
  'auth',
]);

/**
 * Options typed `string` in the parser that a YAML config may give as a list
 * ("one or a list": test/fixtures/browsertrix/README.md; seeds.ts `parseRx` takes both).
 */
const STRING_OR_LIST: ReadonlySet<string> = new Set(['scopeIncludeRx', 'scopeExcludeRx']);

const isScalarOf = (type: string, value: unknown): boolean =>
  type === 'number'
    ? typeof value === 'number' && Number.isFinite(value)
    : type === 'boolean'
      ? typeof value === 'boolean'
      : typeof value === type;

/**
 * What is wrong with `config` (a parsed YAML config) for Browsertrix 1.14.1:
 * one sentence per problem, none when it is fine.
 */
export function configProblems(config: Record<string, unknown>, options = loadBrowsertrixOptions()): string[] {
  const problems: string[] = [];
  const byName = new Map<string, string>();
  for (const [name, option] of Object.entries(options)) {
    byName.set(name, name);
    for (const alias of option.alias ?? []) byName.set(alias, name);
  }
  const seen = new Map<string, string>();
  for (const [key, value] of Object.entries(config)) {
    const name = byName.get(key);
    if (name === undefined) {
      problems.push(`unknown option ${key}`);
      continue;
    }
    const twice = seen.get(name);
    if (twice !== undefined) problems.push(`${key} and ${twice} are the same option (${name})`);
    seen.set(name, key);
    const option = options[name] ?? {};
    const type = option.type;
    if (type === 'array') {
      if (!Array.isArray(value)) problems.push(`${key} must be a list, not ${JSON.stringify(value)}`);
    } else if (type !== undefined) {
      const ok =
        isScalarOf(type, value) ||
        (STRING_OR_LIST.has(name) && Array.isArray(value) && value.every((item) => typeof item === 'string'));
      if (!ok)
        problems.push(
          `${key} must be a ${type}${STRING_OR_LIST.has(name) ? ' or a list of them' : ''}, not ${JSON.stringify(value)}`,
        );
    } else if (!['string', 'boolean'].includes(typeof value)) {
      problems.push(`${key} (no declared type) is given ${JSON.stringify(value)}`);
    }
    if (Array.isArray(option.choices)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (!option.choices.includes(String(item)))
          problems.push(`${key}: ${JSON.stringify(item)} is not one of ${option.choices.join(', ')}`);
      }
    } else if (typeof option.choices === 'string') {
      problems.push(`${key} takes the choices of ${option.choices}, which this check cannot read`);
    }
    if (name === 'seeds' && Array.isArray(value)) problems.push(...seedProblems(value, options));
  }
  return problems;
}

function seedProblems(seeds: unknown[], options: Record<string, BrowsertrixOption>): string[] {
  const problems: string[] = [];
  seeds.forEach((seed, index) => {
    if (typeof seed === 'string') return;
    if (typeof seed !== 'object' || seed === null || Array.isArray(seed)) {
      problems.push(`seed ${index} is neither a URL nor a mapping`);
      return;
    }
    const fields = seed as Record<string, unknown>;
    if (typeof fields['url'] !== 'string') problems.push(`seed ${index} has no url`);
    for (const [key, value] of Object.entries(fields)) {
      if (!SEED_KEYS.has(key)) problems.push(`seed ${index}: unknown key ${key}`);
      else if (key === 'scopeType') {
        const choices = options['scopeType']?.choices;
        if (Array.isArray(choices) && !choices.includes(String(value)))
          problems.push(`seed ${index}: scopeType ${String(value)} is not one of ${choices.join(', ')}`);
      } else if (key === 'sitemap' && !['string', 'boolean'].includes(typeof value))
        problems.push(`seed ${index}: sitemap must be a URL or true`);
    }
  });
  return problems;
}

/** normalize-url's options as Browsertrix 1.14.1 sets them (src/util/normalize.ts). */
const BROWSERTRIX_NORMALIZE = {
  defaultProtocol: 'https',
  stripAuthentication: false,
  stripTextFragment: false,
  stripWWW: false,
  stripHash: false,
  removeTrailingSlash: false,
  removeSingleSlash: false,
  removeExplicitPort: false,
  sortQueryParameters: true,
  removePath: false,
} as const;

/** A URL as Browsertrix matches it against a scope: fragment dropped, then normalize-url with its options. */
export function browsertrixNormalized(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  try {
    return normalizeUrl(parsed.href, BROWSERTRIX_NORMALIZE);
  } catch {
    return parsed.href;
  }
}

/** A config's scope as regexes (`include`/`scopeIncludeRx`, `exclude`/`scopeExcludeRx`, one or a list). */
export function scopeOf(config: Record<string, unknown>): { include: RegExp[]; exclude: RegExp[] } {
  const list = (value: unknown): RegExp[] =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((rx) => new RegExp(String(rx)));
  return {
    include: list(config['include'] ?? config['scopeIncludeRx']),
    exclude: list(config['exclude'] ?? config['scopeExcludeRx']),
  };
}

/** Whether a scope admits `url` as given (Browsertrix's `isIncluded`, without depth and seeds). */
export function admits(scope: { include: RegExp[]; exclude: RegExp[] }, url: string): boolean {
  return scope.include.some((rx) => rx.test(url)) && !scope.exclude.some((rx) => rx.test(url));
}

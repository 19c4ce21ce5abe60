/**
 * Crawl settings: one typed object, its defaults, and its validation.
 *
 * Validation returns errors as data (`{ ok: false, errors }`) so that every
 * caller (popup, CLI, message handler) can show a clear message where the
 * user acted, and nothing is started from a bad input. Defaults and bounds
 * come from each setting's entry in `core/setting-table.ts`.
 */
import type { CrawlSettings, RenderMode } from './crawl-settings.ts';
import { parseRules } from './custom-rules/rule-spec.ts';
import {
  EXTRACTIONS_LABEL,
  EXTRA_ORIGINS_LABEL,
  MAX_EXTRA_ORIGINS,
  SEARCHES_LABEL,
  SETTING_ENTRIES,
  type SettingLimits,
} from './setting-table.ts';

export type { CrawlSettings, RenderMode } from './crawl-settings.ts';
export { RENDER_MODES } from './crawl-settings.ts';

/** The settings that hold a number: each has bounds ({@link SETTINGS_LIMITS}). */
export type NumberSettingKey = {
  [K in keyof CrawlSettings]: CrawlSettings[K] extends number ? K : never;
}[keyof CrawlSettings];

/** The built-in defaults, from each setting's entry in `core/setting-table.ts`. */
export const DEFAULT_SETTINGS: Readonly<Omit<CrawlSettings, 'startUrl'>> = Object.freeze(
  Object.fromEntries(SETTING_ENTRIES.map((entry) => [entry.key, entry.default])) as unknown as Omit<
    CrawlSettings,
    'startUrl'
  >,
);

/** Most redirects followed from a link to another site before its chain is recorded as too long. */
export const MAX_EXTERNAL_REDIRECTS = 5;

/**
 * Bounds enforced by {@link validateSettings}, with the label and unit the
 * messages use (times are shown in seconds, as the popup and CLI take them).
 * From the entries of `core/setting-table.ts`, in its order.
 */
export const SETTINGS_LIMITS: Readonly<Record<NumberSettingKey, Readonly<SettingLimits & { label: string }>>> =
  Object.freeze(
    Object.fromEntries(
      SETTING_ENTRIES.flatMap((entry) =>
        entry.limits === undefined
          ? []
          : [
              [
                entry.key,
                Object.freeze({
                  min: entry.limits.min,
                  max: entry.limits.max,
                  label: entry.label,
                  unit: entry.limits.unit,
                }),
              ],
            ],
      ),
    ) as Record<NumberSettingKey, SettingLimits & { label: string }>,
  );

/** A bound or value as the user reads it: seconds for times, plain numbers otherwise. */
function shown(value: number, unit: 'count' | 'ms' | 'bytes'): string {
  if (unit === 'ms') return `${value / 1000} s`;
  if (unit === 'bytes') return `${value} bytes`;
  return String(value);
}

/** One problem with one setting. `field` names the setting so a form can show the message next to it. */
export interface SettingsError {
  field: keyof CrawlSettings;
  message: string;
}

export type SettingsResult = { ok: true; settings: CrawlSettings } | { ok: false; errors: SettingsError[] };

/** A robots.txt product token: letters, `_` and `-` (RFC 9309 §2.2.1). */
const PRODUCT_TOKEN = /^[A-Za-z_-]+$/;

/** Most exclude patterns one crawl takes (each is tried on every link found). */
export const MAX_EXCLUDE_PATTERNS = 500;
/** Longest exclude pattern, path prefix or product token, in characters. */
export const MAX_TEXT_SETTING_LENGTH = 2000;
/** Longest start URL, in characters (longer ones are refused rather than stored and crawled). */
export const MAX_START_URL_LENGTH = 8192;

/** The settings every crawl has, by name: what {@link validateSettings} keeps of its input. */
const SETTING_NAMES: ReadonlySet<string> = new Set<string>(['startUrl', ...Object.keys(DEFAULT_SETTINGS)]);

/** The settings that are true or false. */
type FlagKey = { [K in keyof CrawlSettings]: CrawlSettings[K] extends boolean ? K : never }[keyof CrawlSettings];

/** The boolean settings, in table order. */
const FLAGS: readonly FlagKey[] = SETTING_ENTRIES.flatMap((entry) =>
  typeof entry.default === 'boolean' ? [entry.key as FlagKey] : [],
);

/** The choice settings, with their allowed values, in table order. */
const CHOICES: readonly { key: keyof CrawlSettings; label: string; values: readonly string[] }[] =
  SETTING_ENTRIES.flatMap((entry) =>
    entry.choices === undefined
      ? []
      : [{ key: entry.key, label: entry.label, values: entry.choices.map((choice) => choice.value) }],
  );

/** `a, b or c`. */
export function alternatives(values: readonly string[]): string {
  return values.length <= 1 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1) ?? ''}`;
}

/**
 * How a crawl renders its pages: its `render` setting, or `off` for a crawl stored before the setting
 * existed (or holding anything else): such a crawl rendered nothing. Pure.
 */
export function renderModeOf(settings: Partial<CrawlSettings>): RenderMode {
  const mode: unknown = settings.render;
  return mode === 'auto' || mode === 'always' ? mode : 'off';
}

/**
 * Fills defaults and checks every field. Never throws, whatever it is given
 * (input may come over messaging from a page, or from stored settings).
 * Fields that are not settings are dropped, so nothing unknown is stored with a crawl.
 * @param input what the user gave; missing fields take {@link DEFAULT_SETTINGS}.
 */
export function validateSettings(input: Partial<CrawlSettings> & { startUrl: string }): SettingsResult {
  const given: Record<string, unknown> = {};
  if (typeof input === 'object' && input !== null) {
    for (const [key, value] of Object.entries(input)) {
      if (SETTING_NAMES.has(key) && value !== undefined) given[key] = value;
    }
  }
  // Checked field by field below; until then the fields may hold anything.
  const settings = {
    ...DEFAULT_SETTINGS,
    excludePatterns: [],
    extraOrigins: [],
    searches: [],
    extractions: [],
    startUrl: '',
    ...given,
  } as CrawlSettings;
  const errors: SettingsError[] = [];

  const start = parseHttpUrl(settings.startUrl);
  if (typeof start === 'string') errors.push({ field: 'startUrl', message: start });
  else settings.startUrl = start.href;

  for (const field of Object.keys(SETTINGS_LIMITS) as (keyof typeof SETTINGS_LIMITS)[]) {
    const value = settings[field];
    const { min, max, label, unit } = SETTINGS_LIMITS[field];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      errors.push({ field, message: `${label} must be a number` });
    } else if (value < min || value > max) {
      errors.push({
        field,
        message: `${label} must be from ${shown(min, unit)} to ${shown(max, unit)}, not ${shown(value, unit)}`,
      });
    } else if (unit !== 'ms' && !Number.isInteger(value)) {
      errors.push({ field, message: `${label} must be a whole number, not ${value}` });
    }
  }

  if (
    typeof settings.productToken !== 'string' ||
    !PRODUCT_TOKEN.test(settings.productToken) ||
    settings.productToken.length > MAX_TEXT_SETTING_LENGTH
  ) {
    errors.push({
      field: 'productToken',
      message: 'The robots.txt product token may only contain letters, "_" and "-" (RFC 9309)',
    });
  }
  if (typeof settings.pathPrefix !== 'string') {
    errors.push({ field: 'pathPrefix', message: 'The path prefix must be text' });
  } else if (settings.pathPrefix !== '' && !settings.pathPrefix.startsWith('/')) {
    errors.push({ field: 'pathPrefix', message: 'The path prefix must start with "/"' });
  } else if (settings.pathPrefix.length > MAX_TEXT_SETTING_LENGTH) {
    errors.push({
      field: 'pathPrefix',
      message: `The path prefix must be at most ${MAX_TEXT_SETTING_LENGTH} characters`,
    });
  }
  const patterns: unknown = settings.excludePatterns;
  if (!Array.isArray(patterns) || patterns.some((p) => typeof p !== 'string' || p === '')) {
    errors.push({ field: 'excludePatterns', message: 'Exclude patterns must be non-empty text' });
  } else if (patterns.length > MAX_EXCLUDE_PATTERNS) {
    errors.push({
      field: 'excludePatterns',
      message: `At most ${MAX_EXCLUDE_PATTERNS} exclude patterns, not ${patterns.length}`,
    });
  } else if (patterns.some((p: string) => p.length > MAX_TEXT_SETTING_LENGTH)) {
    errors.push({
      field: 'excludePatterns',
      message: `Each exclude pattern must be at most ${MAX_TEXT_SETTING_LENGTH} characters`,
    });
  } else {
    settings.excludePatterns = [...(patterns as string[])];
  }
  const origins = checkExtraOrigins(settings.extraOrigins);
  if (Array.isArray(origins)) settings.extraOrigins = origins;
  else errors.push(...origins.errors);
  errors.push(...checkCustomRules(settings));
  for (const flag of FLAGS) {
    if (typeof settings[flag] !== 'boolean') errors.push({ field: flag, message: `${flag} must be true or false` });
  }
  for (const { key, label, values } of CHOICES) {
    // The value is not echoed: it may come from a page, and its own message names what is allowed.
    if (!values.includes(settings[key] as string))
      errors.push({ field: key, message: `${label} must be ${alternatives(values)}` });
  }

  return errors.length > 0 ? { ok: false, errors } : { ok: true, settings };
}

/**
 * Checks {@link CrawlSettings.searches} and {@link CrawlSettings.extractions} (`core/custom-rules/rule-spec.ts`):
 * one message per bad spec, naming it (it is the user's own text, cut to 80 characters); the lists copied.
 * Also what *Re-run extraction* is given for a stored crawl (`crawl/apply-rules`).
 */
export function checkCustomRules(settings: Pick<CrawlSettings, 'searches' | 'extractions'>): SettingsError[] {
  const searches: unknown = settings.searches;
  const extractions: unknown = settings.extractions;
  const isList = (value: unknown): value is string[] =>
    Array.isArray(value) && value.every((entry) => typeof entry === 'string');
  const errors: SettingsError[] = [];
  if (!isList(searches)) errors.push({ field: 'searches', message: `${SEARCHES_LABEL} must be a list of text` });
  if (!isList(extractions))
    errors.push({ field: 'extractions', message: `${EXTRACTIONS_LABEL} must be a list of text` });
  if (errors.length > 0) return errors;
  settings.searches = [...(searches as string[])];
  settings.extractions = [...(extractions as string[])];
  const { problems } = parseRules(settings.searches, settings.extractions);
  const named = (spec: string): string => (spec.length > 80 ? `${spec.slice(0, 79)}…` : spec);
  for (const [field, label, list] of [
    ['searches', SEARCHES_LABEL, problems.searches],
    ['extractions', EXTRACTIONS_LABEL, problems.extractions],
  ] as const)
    for (const problem of list)
      errors.push({ field, message: `${label}: "${named(problem.spec)}": ${problem.message}` });
  return errors;
}

/**
 * Checks {@link CrawlSettings.extraOrigins}: a list of at most
 * {@link MAX_EXTRA_ORIGINS} http(s) origins, with one message per bad entry
 * naming it. Returns the origins normalized (`URL.origin`), each once, in the
 * order given; or the errors. Never throws.
 */
export function checkExtraOrigins(value: unknown): string[] | { errors: SettingsError[] } {
  const field = 'extraOrigins';
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
    return { errors: [{ field, message: `${EXTRA_ORIGINS_LABEL} must be a list of sites` }] };
  }
  if (value.length > MAX_EXTRA_ORIGINS) {
    return {
      errors: [{ field, message: `${EXTRA_ORIGINS_LABEL}: at most ${MAX_EXTRA_ORIGINS} sites, not ${value.length}` }],
    };
  }
  const origins: string[] = [];
  const errors: SettingsError[] = [];
  for (const entry of value as string[]) {
    const origin = parseOrigin(entry);
    if (origin.ok) {
      if (!origins.includes(origin.origin)) origins.push(origin.origin);
    } else {
      errors.push({ field, message: `${EXTRA_ORIGINS_LABEL}: ${origin.problem}` });
    }
  }
  return errors.length > 0 ? { errors } : origins;
}

/**
 * Reads one site given as an origin (`https://example.org`, a trailing `/`
 * allowed), or says why it is not one. A path, query or fragment is refused
 * rather than dropped, so nobody believes `https://a.test/docs/` limits the
 * crawl to `/docs/`. Never throws.
 */
export function parseOrigin(text: string): { ok: true; origin: string } | { ok: false; problem: string } {
  const trimmed = typeof text === 'string' ? text.trim() : '';
  if (trimmed === '') return { ok: false, problem: 'a site is empty' };
  const shownText = trimmed.length > 80 ? `${trimmed.slice(0, 80)}…` : trimmed;
  if (trimmed.length > MAX_TEXT_SETTING_LENGTH)
    return { ok: false, problem: `"${shownText}" is longer than ${MAX_TEXT_SETTING_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    const hint = BARE_HOST.test(trimmed) ? `; did you mean https://${trimmed}?` : '';
    return { ok: false, problem: `"${shownText}" is not a site address${hint}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // `example.org:8080` parses with `example.org:` as its scheme, `localhost:8080` with `localhost:`.
    const hint =
      BARE_HOST.test(trimmed) || /^[a-z0-9-]+:\d+\/?$/i.test(trimmed) ? `; did you mean https://${trimmed}?` : '';
    return { ok: false, problem: `"${shownText}" is not an http or https site${hint}` };
  }
  if (url.username !== '' || url.password !== '')
    return { ok: false, problem: `"${shownText}" must not contain a user name or password` };
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || /[?#]/.test(trimmed)) {
    return {
      ok: false,
      problem: `"${shownText}" has a path, query or fragment; give the site only, e.g. ${url.origin}`,
    };
  }
  if (isExtensionGallery(url))
    return { ok: false, problem: `"${shownText}" is the Chrome Web Store, which Chrome does not let extensions read` };
  return { ok: true, origin: url.origin };
}

/**
 * The Chrome Web Store, where Chrome forbids extensions to run or read pages:
 * a crawl of it could not work, so it is refused up front. Hosts, and the
 * path prefix on a shared host.
 */
const EXTENSION_GALLERIES: readonly { host: string; pathPrefix: string }[] = [
  { host: 'chromewebstore.google.com', pathPrefix: '/' },
  { host: 'chrome.google.com', pathPrefix: '/webstore' },
];

/** True for a URL of the extensions gallery (see {@link EXTENSION_GALLERIES}). */
export function isExtensionGallery(url: URL): boolean {
  return EXTENSION_GALLERIES.some(
    (gallery) => url.hostname === gallery.host && url.pathname.startsWith(gallery.pathPrefix),
  );
}

/** Text that reads as a host name without a scheme (`example.com`, `example.com/docs`), for a hint. */
const BARE_HOST = /^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?(\/\S*)?$/i;

/** Parses an absolute http(s) URL, or returns a sentence saying why it is not one. Never throws. */
export function parseHttpUrl(text: string): URL | string {
  if (typeof text !== 'string' || text.trim() === '') return 'the start URL is empty';
  const trimmed = text.trim();
  if (trimmed.length > MAX_START_URL_LENGTH) return `the start URL is longer than ${MAX_START_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return BARE_HOST.test(trimmed)
      ? `"${trimmed}" is not a full URL; did you mean https://${trimmed}?`
      : `"${trimmed}" is not a valid URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `only http and https sites can be crawled, not ${url.protocol.replace(/:$/, '')}: URLs`;
  }
  if (url.username !== '' || url.password !== '') {
    // fetch refuses such URLs, and a password must not be stored with the crawl.
    return 'the start URL must not contain a user name or password';
  }
  if (isExtensionGallery(url))
    return 'Chrome does not let extensions read the Chrome Web Store, so it cannot be crawled';
  url.hash = '';
  // The URL parser would quietly crawl `/ with space` as `/%20with%20space`, and drop a tab or line break: say so and let
  // the user decide. The `?` is set apart: against the URL it would read as an (empty) query.
  if (/[\t\n\r]/.test(trimmed)) return `the start URL has a line break or tab in it; did you mean ${url.href} ?`;
  if (/\s/u.test(trimmed))
    return `the start URL has a space in it (a URL writes a space as %20); did you mean ${url.href} ?`;
  return url;
}

/**
 * Words of URLs that end a session or change or delete something when
 * fetched by a logged-in user. Each is matched in the case variants of
 * {@link sessionExcludePatterns}.
 */
const SESSION_ENDING_WORDS: readonly (readonly string[])[] = [
  ['log', 'out'],
  ['sign', 'out'],
  ['log', 'off'],
  ['sign', 'off'],
  ['delete'],
  ['remove'],
  ['unsubscribe'],
  ['destroy'],
  ['deactivate'],
];

const capitalized = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * The exclude patterns a crawl with the user's cookies always gets: every
 * URL containing logout, log-out, log_out, signout, sign-out, sign_out,
 * logoff, signoff (and their hyphen and underscore forms), delete, remove,
 * unsubscribe, destroy or deactivate, anywhere (path, query, host), in lower
 * case, UPPER case, Capitalized, Each-Part-Capitalized and camelCase.
 * Exclude patterns are case-sensitive (see `core/url/scope.ts`), hence the
 * variants; an odd mix such as `lOgOuT` is not caught. Broad on purpose: a
 * page such as `/blog/remove-stains` is skipped too, which costs one page,
 * where a missed logout costs the session.
 */
export function sessionExcludePatterns(): string[] {
  const patterns = new Set<string>();
  for (const parts of SESSION_ENDING_WORDS) {
    const separators = parts.length > 1 ? ['', '-', '_'] : [''];
    for (const separator of separators) {
      const variants = [
        parts.join(separator),
        parts.join(separator).toUpperCase(),
        capitalized(parts.join(separator)),
        parts.map(capitalized).join(separator),
        // camelCase only where no separator marks the word break: logOut, signOff.
        ...(separator === '' ? [[parts[0] ?? '', ...parts.slice(1).map(capitalized)].join('')] : []),
      ];
      for (const variant of variants) patterns.add(`*${variant}*`);
    }
  }
  return [...patterns];
}

/** @see sessionExcludePatterns */
export const SESSION_EXCLUDE_PATTERNS: readonly string[] = Object.freeze(sessionExcludePatterns());

/**
 * The settings a crawl really runs with: with {@link CrawlSettings.withCookies}
 * on, the exclude patterns gain {@link SESSION_EXCLUDE_PATTERNS} (each once,
 * after the user's own), so a crawl carrying the user's session never fetches
 * a logout or delete-like URL. Without it, the settings as given. Pure.
 */
export function withSessionGuard(settings: CrawlSettings): CrawlSettings {
  if (settings.withCookies !== true) return settings;
  const patterns = [...settings.excludePatterns];
  for (const pattern of SESSION_EXCLUDE_PATTERNS) if (!patterns.includes(pattern)) patterns.push(pattern);
  return { ...settings, excludePatterns: patterns };
}

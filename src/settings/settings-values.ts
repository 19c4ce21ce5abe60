/**
 * The crawl options as a form edits them, and back: text for numbers (so
 * nothing the user typed is lost), seconds for times, MiB for sizes, one
 * exclude pattern or extra site per line. Pure: no Preact, no browser APIs.
 *
 * ```
 * FormValues ──toSettings──► Partial<CrawlSettings> ──checkSettings──► SiteSettings | SettingsError[]
 *     ▲                                                                     │
 *     └──────────────────────────── fromSettings ◄──────────────────────────┘
 * ```
 */
import {
  DEFAULT_SETTINGS,
  EXTRA_ORIGINS_LABEL,
  MAX_EXTRA_ORIGINS,
  MAX_PAGES_COUNTS,
  SETTINGS_LIMITS,
  validateSettings,
  type CrawlSettings,
  type SettingsError,
} from '../core/settings.ts';

/** Every crawl option except the start URL: what a site or the user's defaults remember. */
export type SiteSettings = Omit<CrawlSettings, 'startUrl'>;

/** A crawl option the settings form edits. */
export type SettingKey = keyof SiteSettings;

/** One message per setting; a setting without a problem has no key. */
export type FieldErrors = Partial<Record<SettingKey, string>>;

/** The form's fields as the user typed them. Times in seconds, sizes in MiB, decimals allowed. */
export interface FormValues {
  maxPages: string;
  maxDepth: string;
  delaySeconds: string;
  productToken: string;
  includeSubdomains: boolean;
  pathPrefix: string;
  /** One wildcard pattern per line; blank lines are ignored. */
  excludePatterns: string;
  /** One site (origin) per line; blank lines are ignored. */
  extraOrigins: string;
  headBeforeGet: boolean;
  timeoutSeconds: string;
  followNofollow: boolean;
  maxRetries: string;
  hostConcurrency: string;
  requestsPerHost: string;
  jitterSeconds: string;
  maxBodyMiB: string;
  archiveResources: boolean;
  downloadFiles: boolean;
  maxFileMiB: string;
  maxResources: string;
  checkExternal: boolean;
  maxExternal: string;
  maxExternalPerHost: string;
  withCookies: boolean;
  allowPrivateAddresses: boolean;
}

/** Bytes in one MiB. */
export const BYTES_PER_MIB = 1024 * 1024;

/** Milliseconds in one second. */
const MS_PER_SECOND = 1000;

/** A setting shown as a number, the form field that holds it, and the factor from the form's unit to the setting's. */
interface NumberField {
  kind: 'number';
  setting: 'maxPages' | 'maxDepth' | 'delayMs' | 'timeoutMs' | 'maxRetries' | 'hostConcurrency' | 'requestsPerHost' | 'jitterMs' | 'maxBodyBytes' | 'maxFileBytes' | 'maxResources' | 'maxExternal' | 'maxExternalPerHost';
  name: 'maxPages' | 'maxDepth' | 'delaySeconds' | 'timeoutSeconds' | 'maxRetries' | 'hostConcurrency' | 'requestsPerHost' | 'jitterSeconds' | 'maxBodyMiB' | 'maxFileMiB' | 'maxResources' | 'maxExternal' | 'maxExternalPerHost';
  /** Setting units per form unit: 1000 for seconds → ms, {@link BYTES_PER_MIB} for MiB → bytes, 1 for counts. */
  scale: number;
  /** The unit written after the label, or null for a count. */
  unit: 's' | 'MiB' | null;
}

interface TextField {
  kind: 'text';
  setting: 'productToken' | 'pathPrefix';
  name: 'productToken' | 'pathPrefix';
}

/** A list setting edited as text, one item per line. */
interface LinesField {
  kind: 'lines';
  setting: 'excludePatterns' | 'extraOrigins';
  name: 'excludePatterns' | 'extraOrigins';
  /** Examples shown in the empty field, one per line. */
  placeholder: string;
}

interface FlagField {
  kind: 'flag';
  /**
   * A short label and no warning: in the compact form (the popup) the box takes one column of the
   * grid instead of a whole row, so Scope's two boxes sit beside the path prefix and the group fits
   * the popup's 600 px with room for other fonts' metrics.
   */
  narrow?: true;
  setting: 'includeSubdomains' | 'headBeforeGet' | 'followNofollow' | 'withCookies' | 'archiveResources' | 'downloadFiles' | 'checkExternal' | 'allowPrivateAddresses';
  name: 'includeSubdomains' | 'headBeforeGet' | 'followNofollow' | 'withCookies' | 'archiveResources' | 'downloadFiles' | 'checkExternal' | 'allowPrivateAddresses';
}

/** How one setting is shown in the form: its label, a sentence of help, and its `data-testid`. */
export type FieldSpec = (NumberField | TextField | LinesField | FlagField) & {
  label: string;
  help: string;
  testId: string;
};

/** A titled group of fields, shown as one fieldset. */
export interface FieldGroup {
  title: string;
  fields: readonly FieldSpec[];
}

/**
 * Every setting the form edits, grouped as the form shows them. Labels of
 * limited numbers are those of {@link SETTINGS_LIMITS}, so a message of the
 * validator names the field the user sees.
 */
export const FIELD_GROUPS: readonly FieldGroup[] = Object.freeze([
  {
    title: 'Limits',
    fields: [
      { kind: 'number', setting: 'maxPages', name: 'maxPages', scale: 1, unit: null, label: SETTINGS_LIMITS.maxPages.label, testId: 'max-pages', help: `Most pages: ${MAX_PAGES_COUNTS}.` },
      { kind: 'number', setting: 'maxDepth', name: 'maxDepth', scale: 1, unit: null, label: SETTINGS_LIMITS.maxDepth.label, testId: 'max-depth', help: 'Most link hops from the start URL (start = 0).' },
      { kind: 'number', setting: 'maxBodyBytes', name: 'maxBodyMiB', scale: BYTES_PER_MIB, unit: 'MiB', label: SETTINGS_LIMITS.maxBodyBytes.label, testId: 'max-body-size', help: 'A longer page is cut and marked truncated.' },
    ],
  },
  {
    title: 'Politeness',
    fields: [
      { kind: 'number', setting: 'delayMs', name: 'delaySeconds', scale: MS_PER_SECOND, unit: 's', label: SETTINGS_LIMITS.delayMs.label, testId: 'delay', help: 'Least wait between one response and the next request to the same host.' },
      { kind: 'number', setting: 'jitterMs', name: 'jitterSeconds', scale: MS_PER_SECOND, unit: 's', label: SETTINGS_LIMITS.jitterMs.label, testId: 'jitter', help: 'Largest random wait added to the delay.' },
      { kind: 'number', setting: 'hostConcurrency', name: 'hostConcurrency', scale: 1, unit: null, label: SETTINGS_LIMITS.hostConcurrency.label, testId: 'hosts-at-once', help: 'Hosts crawled at the same time, each with its own requests and delay.' },
      {
        kind: 'number',
        setting: 'requestsPerHost',
        name: 'requestsPerHost',
        scale: 1,
        unit: null,
        label: SETTINGS_LIMITS.requestsPerHost.label,
        testId: 'requests-per-host',
        help: 'More than 1 only at delay 0 and jitter 0, when robots.txt sets no Crawl-delay and the host is not backing off (429/503); otherwise one at a time. For your own site.',
      },
      { kind: 'text', setting: 'productToken', name: 'productToken', label: 'Robots product token', testId: 'product-token', help: 'Which robots.txt User-agent group is obeyed.' },
    ],
  },
  {
    title: 'Scope',
    fields: [
      { kind: 'text', setting: 'pathPrefix', name: 'pathPrefix', label: 'Path prefix', testId: 'path-prefix', help: 'Only crawl paths starting with this, e.g. /docs/. Empty: the whole site.' },
      { kind: 'flag', setting: 'includeSubdomains', name: 'includeSubdomains', label: 'Include subdomains', testId: 'include-subdomains', narrow: true, help: 'Also crawl subdomains of the start host, over http and https.' },
      { kind: 'flag', setting: 'followNofollow', name: 'followNofollow', label: 'Follow nofollow links', testId: 'follow-nofollow', narrow: true, help: 'Also follow rel="nofollow" links and nofollow pages.' },
      { kind: 'lines', setting: 'excludePatterns', name: 'excludePatterns', placeholder: '*?sessionid=*\nhttp*://*/cgi-bin/*', label: 'Exclude patterns', testId: 'exclude-patterns', help: 'One per line; * matches any characters of the whole URL.' },
      {
        kind: 'lines',
        setting: 'extraOrigins',
        name: 'extraOrigins',
        placeholder: 'https://docs.example.com\nhttp://127.0.0.1:8081',
        label: EXTRA_ORIGINS_LABEL,
        testId: 'extra-origins',
        help: `One site per line (scheme://host:port, no path), crawled whole with the start site; each reads its own robots.txt and gets its own delay. At most ${MAX_EXTRA_ORIGINS}.`,
      },
    ],
  },
  {
    title: 'Requests',
    fields: [
      { kind: 'number', setting: 'timeoutMs', name: 'timeoutSeconds', scale: MS_PER_SECOND, unit: 's', label: SETTINGS_LIMITS.timeoutMs.label, testId: 'timeout', help: 'Per request, to the end of the body.' },
      { kind: 'number', setting: 'maxRetries', name: 'maxRetries', scale: 1, unit: null, label: SETTINGS_LIMITS.maxRetries.label, testId: 'retries', help: 'Retries of a URL answered 429 or 503.' },
      { kind: 'flag', setting: 'headBeforeGet', name: 'headBeforeGet', label: 'HEAD before GET', testId: 'head-before-get', help: 'GET only when a HEAD says the URL is HTML.' },
      {
        kind: 'flag',
        setting: 'withCookies',
        name: 'withCookies',
        label: 'Crawl with my cookies',
        testId: 'with-cookies',
        help: 'Send your cookies for the site, so the crawl sees it as you do, logged in. Off: requests carry no cookies.',
      },
      {
        kind: 'flag',
        setting: 'allowPrivateAddresses',
        name: 'allowPrivateAddresses',
        label: 'Allow private addresses',
        testId: 'allow-private-addresses',
        help: 'Let a crawl of a public site reach your own network (localhost, 10.x, 192.168.x, .local…), for a mixed intranet. Off: such URLs are listed as not checked. A crawl that starts on your network reaches it either way.',
      },
    ],
  },
  {
    title: 'Archive',
    fields: [
      { kind: 'flag', setting: 'archiveResources', name: 'archiveResources', label: 'Archive page resources', testId: 'archive-resources', help: 'Stylesheets, scripts, images and fonts each page needs, on any host, each once, as politely as pages.' },
      { kind: 'flag', setting: 'downloadFiles', name: 'downloadFiles', label: 'Download linked files', testId: 'download-files', help: 'Store linked files that are not HTML (PDFs, images, archives). Off: their headers only.' },
      { kind: 'number', setting: 'maxFileBytes', name: 'maxFileMiB', scale: BYTES_PER_MIB, unit: 'MiB', label: SETTINGS_LIMITS.maxFileBytes.label, testId: 'max-file-size', help: 'A larger resource or file is cut and marked truncated.' },
      { kind: 'number', setting: 'maxResources', name: 'maxResources', scale: 1, unit: null, label: SETTINGS_LIMITS.maxResources.label, testId: 'max-resources', help: 'Past it, no resource is fetched and files keep their headers only.' },
    ],
  },
  {
    title: 'Audit',
    fields: [
      {
        kind: 'flag',
        setting: 'checkExternal',
        name: 'checkExternal',
        label: 'Check links to other sites',
        testId: 'check-external',
        help: 'Ask each linked URL on another site once (HEAD, GET if refused; no body kept), following its redirects, as politely as pages.',
      },
      { kind: 'number', setting: 'maxExternal', name: 'maxExternal', scale: 1, unit: null, label: SETTINGS_LIMITS.maxExternal.label, testId: 'max-external', help: 'Past it, links to other sites are not checked.' },
      { kind: 'number', setting: 'maxExternalPerHost', name: 'maxExternalPerHost', scale: 1, unit: null, label: SETTINGS_LIMITS.maxExternalPerHost.label, testId: 'max-external-per-host', help: 'URLs checked on any one other site, redirects included.' },
    ],
  },
] satisfies FieldGroup[]);

/**
 * Shown while {@link CrawlSettings.withCookies} is on: what the user takes on.
 * The guard's patterns are `SESSION_EXCLUDE_PATTERNS` (`core/settings.ts`).
 */
export const WITH_COOKIES_WARNING =
  'The crawl will act as you on this site: every page it fetches is requested with your session, as if you clicked the link. ' +
  'Links that look like logout, sign-out, delete, remove, unsubscribe, destroy or deactivate are never fetched, ' +
  'but any other link that changes something when visited would be. Use it only on sites you trust, with an account you can afford to have changed.';

/** Every field of {@link FIELD_GROUPS}, in the order the form shows them. */
export const FIELDS: readonly FieldSpec[] = Object.freeze(FIELD_GROUPS.flatMap((group) => group.fields));

/** The label with its unit, as the form shows it: `Delay (s)`, `Max body size (MiB)`. */
export function labelOf(field: FieldSpec): string {
  return field.kind === 'number' && field.unit !== null ? `${field.label} (${field.unit})` : field.label;
}

/** A number of settings units in the form's unit, as text: 1500 ms → `1.5`, 10 MiB of bytes → `10`. */
function toFormNumber(value: number, scale: number): string {
  return String(value / scale);
}

/** The built-in default of a field as the form shows it (`1`, `off`, `none`). */
export function defaultText(field: FieldSpec): string {
  switch (field.kind) {
    case 'number':
      return toFormNumber(DEFAULT_SETTINGS[field.setting], field.scale);
    case 'text':
      return DEFAULT_SETTINGS[field.setting] === '' ? 'none' : DEFAULT_SETTINGS[field.setting];
    case 'lines':
      return DEFAULT_SETTINGS[field.setting].length === 0 ? 'none' : DEFAULT_SETTINGS[field.setting].join(', ');
    case 'flag':
      return DEFAULT_SETTINGS[field.setting] ? 'on' : 'off';
  }
}

/** The allowed range of a number field in its form unit (`0 to 3600`), or null for other fields. */
export function rangeText(field: FieldSpec): string | null {
  if (field.kind !== 'number') return null;
  const { min, max } = SETTINGS_LIMITS[field.setting];
  if (field.unit === 'MiB') return `${mibNumber(min)} to ${mibNumber(max)}`;
  return `${toFormNumber(min, field.scale)} to ${toFormNumber(max, field.scale)}`;
}

/**
 * The form's values for these settings; a setting left out shows its
 * built-in default.
 */
export function fromSettings(settings: Partial<CrawlSettings>): FormValues {
  const all: SiteSettings = { ...DEFAULT_SETTINGS, excludePatterns: [...DEFAULT_SETTINGS.excludePatterns], extraOrigins: [...DEFAULT_SETTINGS.extraOrigins] };
  for (const key of Object.keys(all) as SettingKey[]) {
    if (settings[key] !== undefined) Object.assign(all, { [key]: settings[key] });
  }
  return {
    maxPages: String(all.maxPages),
    maxDepth: String(all.maxDepth),
    delaySeconds: toFormNumber(all.delayMs, MS_PER_SECOND),
    productToken: all.productToken,
    includeSubdomains: all.includeSubdomains,
    pathPrefix: all.pathPrefix,
    excludePatterns: all.excludePatterns.join('\n'),
    extraOrigins: all.extraOrigins.join('\n'),
    headBeforeGet: all.headBeforeGet,
    timeoutSeconds: toFormNumber(all.timeoutMs, MS_PER_SECOND),
    followNofollow: all.followNofollow,
    maxRetries: String(all.maxRetries),
    hostConcurrency: String(all.hostConcurrency),
    requestsPerHost: String(all.requestsPerHost),
    jitterSeconds: toFormNumber(all.jitterMs, MS_PER_SECOND),
    maxBodyMiB: toFormNumber(all.maxBodyBytes, BYTES_PER_MIB),
    archiveResources: all.archiveResources,
    downloadFiles: all.downloadFiles,
    maxFileMiB: toFormNumber(all.maxFileBytes, BYTES_PER_MIB),
    maxResources: String(all.maxResources),
    checkExternal: all.checkExternal,
    maxExternal: String(all.maxExternal),
    maxExternalPerHost: String(all.maxExternalPerHost),
    withCookies: all.withCookies,
    allowPrivateAddresses: all.allowPrivateAddresses,
  };
}

/**
 * Reads a number field in settings units. Empty means "the default" and
 * gives undefined; text that is not a number gives NaN, which the validator
 * names. Times and sizes are rounded to whole ms and bytes.
 */
function parseNumber(text: string, scale: number): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const value = Number(trimmed);
  return scale === 1 || !Number.isFinite(value) ? value : Math.round(value * scale);
}

/** The non-blank lines of a list field, trimmed. */
function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * The settings the form's values say: seconds → ms, MiB → bytes, one
 * exclude pattern or extra site per non-blank line. An empty number field or product token
 * is left out, so its default applies. Not validated: see {@link checkSettings}.
 */
export function toSettings(values: FormValues): Partial<CrawlSettings> {
  const settings: Partial<CrawlSettings> = {
    includeSubdomains: values.includeSubdomains,
    pathPrefix: values.pathPrefix.trim(),
    excludePatterns: lines(values.excludePatterns),
    extraOrigins: lines(values.extraOrigins),
    headBeforeGet: values.headBeforeGet,
    followNofollow: values.followNofollow,
    archiveResources: values.archiveResources,
    downloadFiles: values.downloadFiles,
    checkExternal: values.checkExternal,
    withCookies: values.withCookies,
    allowPrivateAddresses: values.allowPrivateAddresses,
  };
  const productToken = values.productToken.trim();
  if (productToken !== '') settings.productToken = productToken;
  for (const field of FIELDS) {
    if (field.kind !== 'number') continue;
    const value = parseNumber(values[field.name], field.scale);
    if (value !== undefined) settings[field.setting] = value;
  }
  return settings;
}

/** A start URL for {@link validateSettings} when only the other settings are checked; never stored. */
const PLACEHOLDER_START_URL = 'https://example.com/';

/** What {@link checkSettings} finds: the settings with defaults filled in, or every problem. */
export type CheckResult = { ok: true; settings: SiteSettings } | { ok: false; errors: SettingsError[] };

/**
 * Validates every setting but the start URL (with {@link validateSettings},
 * so messages are the validator's); missing settings take their built-in
 * defaults. Never throws.
 */
export function checkSettings(settings: Partial<CrawlSettings>): CheckResult {
  const result = validateSettings({ ...settings, startUrl: PLACEHOLDER_START_URL });
  // The placeholder start URL is valid, so every error is about another setting.
  return result.ok ? { ok: true, settings: withoutStartUrl(result.settings) } : { ok: false, errors: result.errors };
}

function withoutStartUrl(settings: CrawlSettings): SiteSettings {
  const { startUrl: _startUrl, ...rest } = settings;
  return { ...rest, excludePatterns: [...rest.excludePatterns], extraOrigins: [...rest.extraOrigins] };
}

/**
 * A byte count in MiB, the size fields' unit, as a form number: `1073741824` → `1024`, `1024` → `0.001`
 * (three decimals; one significant digit below 0.001, so a tiny size never reads 0).
 */
export function mibNumber(bytes: number): number {
  const mib = bytes / BYTES_PER_MIB;
  return mib !== 0 && Math.abs(mib) < 0.001 ? Number(mib.toPrecision(1)) : Number(mib.toFixed(3));
}

/** A byte count as the size fields read it, in their unit: `1024 MiB`, `0.001 MiB`. */
export function bytesText(bytes: number): string {
  return `${mibNumber(bytes)} MiB`;
}

/**
 * The validator's messages by field, the first per field. A message in
 * bytes is rewritten in MiB, the unit of the size fields; times are
 * already in seconds.
 */
export function fieldErrors(errors: readonly SettingsError[]): FieldErrors {
  const byField: FieldErrors = {};
  for (const error of errors) {
    if (error.field === 'startUrl') continue;
    byField[error.field] ??= error.message.replace(/(-?\d+(?:\.\d+)?) bytes/g, (_match, bytes: string) => bytesText(Number(bytes)));
  }
  return byField;
}

/** Checks the form: its settings with defaults filled, or a message per field. */
export function checkForm(values: FormValues): { ok: true; settings: SiteSettings } | { ok: false; errors: FieldErrors } {
  const result = checkSettings(toSettings(values));
  return result.ok ? result : { ok: false, errors: fieldErrors(result.errors) };
}

/** One setting as a summary reads it: `Delay (s): 2`, `Include subdomains: on`, `Exclude patterns: *?a=*, /x*`. */
function settingText(field: FieldSpec, settings: Partial<SiteSettings>): string | null {
  const label = labelOf(field);
  switch (field.kind) {
    case 'number': {
      const value = settings[field.setting];
      return value === undefined ? null : `${label}: ${toFormNumber(value, field.scale)}`;
    }
    case 'text': {
      const value = settings[field.setting];
      return value === undefined ? null : `${label}: ${value === '' ? 'none' : value}`;
    }
    case 'lines': {
      const value = settings[field.setting];
      return value === undefined ? null : `${label}: ${value.length === 0 ? 'none' : value.join(', ')}`;
    }
    case 'flag': {
      const value = settings[field.setting];
      return value === undefined ? null : `${label}: ${value ? 'on' : 'off'}`;
    }
  }
}

/**
 * What these settings change from the built-in defaults, one phrase per
 * setting in form order; empty when they change nothing.
 */
export function describeSettings(settings: Partial<SiteSettings>): string[] {
  const phrases: string[] = [];
  for (const field of FIELDS) {
    const value = settings[field.setting];
    const builtIn = DEFAULT_SETTINGS[field.setting];
    if (value === undefined) continue;
    const isDefault = Array.isArray(value) && Array.isArray(builtIn) ? value.join('\n') === builtIn.join('\n') : value === builtIn;
    if (isDefault) continue;
    const text = settingText(field, settings);
    if (text !== null) phrases.push(text);
  }
  return phrases;
}

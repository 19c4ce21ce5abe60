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
import { FORM_GROUPS, SETTING_ENTRIES, type KeyedEntry } from '../core/setting-table.ts';
import {
  DEFAULT_SETTINGS,
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

/**
 * The name of a setting's form field: the setting's, with its unit in the form's terms (`delayMs` →
 * `delaySeconds`, `maxBodyBytes` → `maxBodyMiB`), as {@link formNameOf} writes it.
 */
export type FormName<K extends SettingKey> = K extends `${infer Base}Ms`
  ? `${Base}Seconds`
  : K extends `${infer Base}Bytes`
    ? `${Base}MiB`
    : K;

/**
 * The form's fields as the user typed them, one per setting (named by {@link FormName}): a check box's
 * true or false, else text. Times in seconds, sizes in MiB, decimals allowed; a list (exclude patterns,
 * extra sites) one item per line, blank lines ignored.
 */
export type FormValues = { [K in SettingKey as FormName<K>]: SiteSettings[K] extends boolean ? boolean : string };

/** The settings whose value is of type `T`. */
type KeysOf<T> = { [K in SettingKey]: SiteSettings[K] extends T ? K : never }[SettingKey];

/** {@link FormName} at run time. */
export function formNameOf<K extends SettingKey>(key: K): FormName<K> {
  const name = key.endsWith('Ms')
    ? `${key.slice(0, -2)}Seconds`
    : key.endsWith('Bytes')
      ? `${key.slice(0, -5)}MiB`
      : key;
  return name as FormName<K>;
}

/** Bytes in one MiB. */
export const BYTES_PER_MIB = 1024 * 1024;

/** Milliseconds in one second. */
const MS_PER_SECOND = 1000;

/** A setting shown as a number, the form field that holds it, and the factor from the form's unit to the setting's. */
interface NumberField {
  kind: 'number';
  setting: KeysOf<number>;
  name: FormName<KeysOf<number>>;
  /** Setting units per form unit: 1000 for seconds → ms, {@link BYTES_PER_MIB} for MiB → bytes, 1 for counts. */
  scale: number;
  /** The unit written after the label, or null for a count. */
  unit: 's' | 'MiB' | null;
}

interface TextField {
  kind: 'text';
  setting: KeysOf<string>;
  name: FormName<KeysOf<string>>;
}

/** A list setting edited as text, one item per line. */
interface LinesField {
  kind: 'lines';
  setting: KeysOf<string[]>;
  name: FormName<KeysOf<string[]>>;
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
  setting: KeysOf<boolean>;
  name: FormName<KeysOf<boolean>>;
}

/** A setting that takes one of a few values, shown as a list (`<select>`): the entry's `choices`. */
interface ChoiceField {
  kind: 'choice';
  setting: KeysOf<string>;
  name: FormName<KeysOf<string>>;
  /** The allowed values and their words, in the list's order. */
  choices: readonly { value: string; label: string }[];
}

/** How one setting is shown in the form: its label, a sentence of help, and its `data-testid`. */
export type FieldSpec = (NumberField | TextField | LinesField | FlagField | ChoiceField) & {
  label: string;
  help: string;
  testId: string;
};

/** A titled group of fields, shown as one fieldset. */
export interface FieldGroup {
  title: string;
  fields: readonly FieldSpec[];
}

/** The form field of one setting's entry: its kind from its default's type, its scale from its unit. */
function fieldOf(entry: KeyedEntry): FieldSpec {
  const { form } = entry;
  const shown = { label: entry.label, testId: form.testId, help: form.help };
  // The casts: the kind is read from the default's type, which TypeScript cannot narrow the key by.
  if (typeof entry.default === 'number') {
    const unit = form.unit ?? null;
    const scale = unit === 's' ? MS_PER_SECOND : unit === 'MiB' ? BYTES_PER_MIB : 1;
    return { kind: 'number', setting: entry.key, name: formNameOf(entry.key), scale, unit, ...shown } as FieldSpec;
  }
  if (typeof entry.default === 'boolean')
    return {
      kind: 'flag',
      setting: entry.key,
      name: formNameOf(entry.key),
      ...(form.narrow === true ? { narrow: true } : {}),
      ...shown,
    } as FieldSpec;
  if (entry.choices !== undefined)
    return {
      kind: 'choice',
      setting: entry.key,
      name: formNameOf(entry.key),
      choices: entry.choices,
      ...shown,
    } as FieldSpec;
  if (Array.isArray(entry.default))
    return {
      kind: 'lines',
      setting: entry.key,
      name: formNameOf(entry.key),
      placeholder: form.placeholder ?? '',
      ...shown,
    } as FieldSpec;
  return { kind: 'text', setting: entry.key, name: formNameOf(entry.key), ...shown } as FieldSpec;
}

/**
 * Every setting the form edits, grouped as the form shows them: from the
 * entries of `core/setting-table.ts`, each group's fields in table order.
 * Labels of limited numbers are those of {@link SETTINGS_LIMITS}, so a
 * message of the validator names the field the user sees.
 */
export const FIELD_GROUPS: readonly FieldGroup[] = Object.freeze(
  FORM_GROUPS.map((title) => ({
    title,
    fields: SETTING_ENTRIES.filter((entry) => entry.form.group === title).map(fieldOf),
  })),
);

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
    case 'choice':
      return DEFAULT_SETTINGS[field.setting];
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
  const all: SiteSettings = {
    ...DEFAULT_SETTINGS,
    excludePatterns: [...DEFAULT_SETTINGS.excludePatterns],
    extraOrigins: [...DEFAULT_SETTINGS.extraOrigins],
    searches: [...DEFAULT_SETTINGS.searches],
    extractions: [...DEFAULT_SETTINGS.extractions],
  };
  for (const key of Object.keys(all) as SettingKey[]) {
    if (settings[key] !== undefined) Object.assign(all, { [key]: settings[key] });
  }
  const values: Record<string, string | boolean> = {};
  for (const field of FIELDS) {
    const value = all[field.setting];
    if (field.kind === 'number') values[field.name] = toFormNumber(value as number, field.scale);
    else if (field.kind === 'lines') values[field.name] = (value as string[]).join('\n');
    else values[field.name] = value as string | boolean;
  }
  // Every field of FormValues has its entry in FIELDS (checked by the settings tests).
  return values as unknown as FormValues;
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
  const settings: Partial<Record<SettingKey, unknown>> = {};
  for (const field of FIELDS) {
    switch (field.kind) {
      case 'flag':
      case 'choice':
        settings[field.setting] = values[field.name];
        break;
      case 'lines':
        settings[field.setting] = lines(values[field.name]);
        break;
      case 'text': {
        // Empty: the default, left out when it is not empty itself (the product token).
        const text = values[field.name].trim();
        if (text !== '' || DEFAULT_SETTINGS[field.setting] === '') settings[field.setting] = text;
        break;
      }
      case 'number': {
        const value = parseNumber(values[field.name], field.scale);
        if (value !== undefined) settings[field.setting] = value;
        break;
      }
    }
  }
  return settings as Partial<CrawlSettings>;
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
  return {
    ...rest,
    excludePatterns: [...rest.excludePatterns],
    extraOrigins: [...rest.extraOrigins],
    searches: [...rest.searches],
    extractions: [...rest.extractions],
  };
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
    byField[error.field] ??= error.message.replace(/(-?\d+(?:\.\d+)?) bytes/g, (_match, bytes: string) =>
      bytesText(Number(bytes)),
    );
  }
  return byField;
}

/** Checks the form: its settings with defaults filled, or a message per field. */
export function checkForm(
  values: FormValues,
): { ok: true; settings: SiteSettings } | { ok: false; errors: FieldErrors } {
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
    case 'choice': {
      const value = settings[field.setting];
      return value === undefined ? null : `${label}: ${value}`;
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
    const isDefault =
      Array.isArray(value) && Array.isArray(builtIn) ? value.join('\n') === builtIn.join('\n') : value === builtIn;
    if (isDefault) continue;
    const text = settingText(field, settings);
    if (text !== null) phrases.push(text);
  }
  return phrases;
}

/**
 * The popup's Start form as data: what the user typed (kept as text, so nothing typed is lost), its
 * defaults, the settings it becomes and those `crawl/start` carries, and which field shows which error.
 * Pure: no Preact, no browser APIs.
 */
import { DEFAULT_SETTINGS, type CrawlSettings, type SettingsError } from '../core/settings.ts';
import {
  fieldErrors,
  fromSettings,
  toSettings,
  type FormValues,
  type SettingKey,
} from '../settings/settings-values.ts';

/** The Start form as typed: the start URL, and every other option as the settings form edits it. */
export interface StartFormValues {
  startUrl: string;
  /** Kept as text (seconds, MiB, one pattern per line) so nothing the user typed is ever lost. */
  settings: FormValues;
}

/** A setting the Start form shows a message for, named as in {@link CrawlSettings}. */
export type StartFormField = 'startUrl' | SettingKey;

/** One message per field; a field without a problem has no key. */
export type StartFormErrors = Partial<Record<StartFormField, string>>;

/** The Start form before anything is known: no start URL, the built-in defaults. */
export function defaultStartForm(): StartFormValues {
  return { startUrl: '', settings: fromSettings({}) };
}

/**
 * The form's text as the settings the validator takes: the trimmed start
 * URL and {@link toSettings} of the rest (an empty number field is left out,
 * so its default applies). Not validated.
 */
export function parseStartForm(values: StartFormValues): Partial<CrawlSettings> & { startUrl: string } {
  return { startUrl: values.startUrl.trim(), ...toSettings(values.settings) };
}

/** Settings `crawl/start` always carries, whatever their value. */
const ALWAYS_SENT: ReadonlySet<keyof CrawlSettings> = new Set<keyof CrawlSettings>(['startUrl', 'maxPages', 'delayMs']);

/**
 * The validated settings as `crawl/start` carries them: the start URL, max
 * pages and delay, and every other setting that differs from
 * {@link DEFAULT_SETTINGS}. The background fills a missing setting with that
 * same default (`validateSettings`), so the crawl gets every setting.
 */
export function startRequestSettings(settings: CrawlSettings): Partial<CrawlSettings> & { startUrl: string } {
  const sent: Partial<CrawlSettings> & { startUrl: string } = { startUrl: settings.startUrl };
  for (const key of Object.keys(settings) as (keyof CrawlSettings)[]) {
    if (key === 'startUrl') continue;
    const value = settings[key];
    const builtIn = DEFAULT_SETTINGS[key];
    const isDefault =
      Array.isArray(value) && Array.isArray(builtIn) ? value.join('\n') === builtIn.join('\n') : value === builtIn;
    if (ALWAYS_SENT.has(key) || !isDefault) Object.assign(sent, { [key]: Array.isArray(value) ? [...value] : value });
  }
  return sent;
}

/**
 * Routes settings errors to the fields that show them (sizes in MiB, as
 * their field reads); an error the form has no field for goes to the banner.
 */
export function splitErrors(errors: readonly SettingsError[]): { fields: StartFormErrors; other: string[] } {
  const fields: StartFormErrors = { ...fieldErrors(errors) };
  const other: string[] = [];
  for (const error of errors) {
    if (error.field === 'startUrl') fields.startUrl ??= error.message;
    else if (!(error.field in DEFAULT_SETTINGS)) other.push(error.message);
  }
  return { fields, other };
}

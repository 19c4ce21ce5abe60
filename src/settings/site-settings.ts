/**
 * Crawl settings remembered per site (origin), and the defaults the user
 * chose, behind a two-method {@link SettingsStorage} (the extension gives it
 * `browser.storage.local` through {@link storageAreaAdapter}; tests give it
 * {@link memorySettingsStorage}). Platform-free.
 *
 * A crawl of a site starts from, field by field:
 *
 * ```
 * site's saved value  ─else─►  user's default  ─else─►  DEFAULT_SETTINGS
 * ```
 *
 * Everything read back is checked field by field with the validator: a
 * corrupted, old or unknown value is dropped (the next layer's value is
 * used) and never thrown at the user. Nothing invalid is ever written.
 *
 * Races: saving and forgetting a site read, change and write one key
 * ({@link SITES_KEY}); two pages doing it at the same instant may lose one
 * of the two changes. Both are user clicks, so this is accepted.
 */
import { DEFAULT_SETTINGS, type CrawlSettings, type SettingsError } from '../core/settings.ts';
import { checkSettings, type SettingKey, type SiteSettings } from './settings-values.ts';

/** Key/value storage of JSON-like values, e.g. `browser.storage.local`. */
export interface SettingsStorage {
  /** The value stored under `key`, or undefined. */
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

/** Where the user's default settings are stored: a {@link StoredSettings}. */
export const DEFAULTS_KEY = 'tabcrawl.defaultSettings';

/** Where the sites' settings are stored: an object from origin to {@link StoredSettings}. */
export const SITES_KEY = 'tabcrawl.siteSettings';

/** The shape written today. Bump it, and add a step to {@link migrate}, when the shape changes. */
export const SETTINGS_VERSION = 1;

/** One stored set of settings. */
export interface StoredSettings {
  version: typeof SETTINGS_VERSION;
  /** Only the settings that were given when saved; the others follow the next layer. */
  settings: Partial<SiteSettings>;
  /** When it was saved, a `Date.now()` timestamp. */
  savedAt: number;
}

/** A site with remembered settings, as the options page lists it. */
export interface RememberedSite {
  /** `https://example.com`: scheme, host and port. */
  origin: string;
  /** The settings saved for the site (the checked ones of what was stored). */
  settings: Partial<SiteSettings>;
  /** A `Date.now()` timestamp, or 0 if unknown. */
  savedAt: number;
}

/** What saving gives back: the settings stored, or the validator's errors (and nothing stored). */
export type SaveResult = { ok: true; saved: Partial<SiteSettings> } | { ok: false; errors: SettingsError[] };

/**
 * The origin of a site given as an origin or any URL of it, or null when it
 * is not an http(s) URL.
 */
export function siteOrigin(site: string): string | null {
  let url: URL;
  try {
    url = new URL(site.trim());
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
}

/** The built-in defaults, with an array of its own. */
function builtInSettings(): SiteSettings {
  return {
    ...DEFAULT_SETTINGS,
    excludePatterns: [...DEFAULT_SETTINGS.excludePatterns],
    extraOrigins: [...DEFAULT_SETTINGS.extraOrigins],
    searches: [...DEFAULT_SETTINGS.searches],
    extractions: [...DEFAULT_SETTINGS.extractions],
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `value` has the type of the setting's default (a string array for the exclude patterns). */
function hasSettingType(key: SettingKey, value: unknown): boolean {
  const builtIn = DEFAULT_SETTINGS[key];
  if (Array.isArray(builtIn)) return Array.isArray(value) && value.every((item) => typeof item === 'string');
  return typeof value === typeof builtIn;
}

/** The settings of a stored object that are known, of the right type and valid; the rest are dropped. */
function checkedSettings(raw: Record<string, unknown>): Partial<SiteSettings> {
  const kept: Partial<SiteSettings> = {};
  for (const key of Object.keys(DEFAULT_SETTINGS) as SettingKey[]) {
    const value = raw[key];
    if (value === undefined || !hasSettingType(key, value)) continue;
    const result = checkSettings({ [key]: value });
    if (result.ok) Object.assign(kept, { [key]: result.settings[key] });
  }
  return kept;
}

/**
 * Brings a stored value to today's {@link StoredSettings}, or null when it
 * cannot be read (it is then ignored).
 *
 * Migration hook: when {@link SETTINGS_VERSION} becomes 2, add
 * `case 1: raw = upgrade1to2(raw); // falls through` above the current
 * version's case. Never change what an old version's case reads.
 */
function migrate(raw: unknown): StoredSettings | null {
  if (!isRecord(raw)) return null;
  switch (raw['version']) {
    case 1: {
      const settings = raw['settings'];
      if (!isRecord(settings)) return null;
      const savedAt = raw['savedAt'];
      return {
        version: 1,
        settings: checkedSettings(settings),
        savedAt: typeof savedAt === 'number' && Number.isFinite(savedAt) ? savedAt : 0,
      };
    }
    default:
      // Unversioned, or written by a newer Tabcrawl: not ours to guess.
      return null;
  }
}

/** The stored sites by origin; a corrupted map or entry is skipped. */
async function readSites(storage: SettingsStorage): Promise<Map<string, StoredSettings>> {
  const raw = await storage.get(SITES_KEY);
  const sites = new Map<string, StoredSettings>();
  if (!isRecord(raw)) return sites;
  for (const [key, value] of Object.entries(raw)) {
    const origin = siteOrigin(key);
    const stored = migrate(value);
    if (origin !== null && origin === key && stored !== null) sites.set(origin, stored);
  }
  return sites;
}

async function writeSites(storage: SettingsStorage, sites: ReadonlyMap<string, StoredSettings>): Promise<void> {
  await storage.set(SITES_KEY, Object.fromEntries(sites));
}

/** Checks what is to be saved; only the given settings are kept. */
function toStored(
  settings: Partial<CrawlSettings>,
  savedAt: number,
): { ok: true; stored: StoredSettings } | { ok: false; errors: SettingsError[] } {
  const result = checkSettings(settings);
  if (!result.ok) return result;
  const given: Partial<SiteSettings> = {};
  for (const key of Object.keys(DEFAULT_SETTINGS) as SettingKey[]) {
    if (settings[key] !== undefined) Object.assign(given, { [key]: result.settings[key] });
  }
  return { ok: true, stored: { version: SETTINGS_VERSION, settings: given, savedAt } };
}

/** The user's default settings: what they saved, the built-in default for the rest. */
export async function loadDefaultSettings(storage: SettingsStorage): Promise<SiteSettings> {
  const stored = migrate(await storage.get(DEFAULTS_KEY));
  return { ...builtInSettings(), ...stored?.settings };
}

/**
 * The settings to crawl a site with: the site's saved ones, else the user's
 * defaults, else {@link DEFAULT_SETTINGS}, field by field.
 * @param site an origin or any URL of the site; anything else gives the user's defaults.
 */
export async function loadSiteSettings(storage: SettingsStorage, site: string): Promise<SiteSettings> {
  const defaults = await loadDefaultSettings(storage);
  const origin = siteOrigin(site);
  if (origin === null) return defaults;
  const stored = (await readSites(storage)).get(origin);
  return { ...defaults, ...stored?.settings };
}

/**
 * Remembers settings for a site. Only the settings given are stored (the
 * others keep following the user's defaults); nothing is stored when one is
 * invalid or the site is not an http(s) origin (an error on `startUrl`).
 * @param site an origin or any URL of the site.
 * @param savedAt a `Date.now()` timestamp.
 */
export async function saveSiteSettings(
  storage: SettingsStorage,
  site: string,
  settings: Partial<CrawlSettings>,
  savedAt: number = Date.now(),
): Promise<SaveResult> {
  const origin = siteOrigin(site);
  if (origin === null)
    return { ok: false, errors: [{ field: 'startUrl', message: `"${site}" is not an http or https site` }] };
  const checked = toStored(settings, savedAt);
  if (!checked.ok) return checked;
  const sites = await readSites(storage);
  sites.set(origin, checked.stored);
  await writeSites(storage, sites);
  return { ok: true, saved: checked.stored.settings };
}

/**
 * Saves the user's defaults (replacing the previous ones); settings left out
 * follow {@link DEFAULT_SETTINGS}. Nothing is stored when one is invalid.
 * @param savedAt a `Date.now()` timestamp.
 */
export async function saveDefaultSettings(
  storage: SettingsStorage,
  settings: Partial<CrawlSettings>,
  savedAt: number = Date.now(),
): Promise<SaveResult> {
  const checked = toStored(settings, savedAt);
  if (!checked.ok) return checked;
  await storage.set(DEFAULTS_KEY, checked.stored);
  return { ok: true, saved: checked.stored.settings };
}

/**
 * Forgets a site's settings: its next crawl starts from the user's defaults.
 * @returns true when the site had settings.
 */
export async function forgetSite(storage: SettingsStorage, site: string): Promise<boolean> {
  const origin = siteOrigin(site);
  if (origin === null) return false;
  const sites = await readSites(storage);
  if (!sites.delete(origin)) return false;
  await writeSites(storage, sites);
  return true;
}

/** Every site with remembered settings, by origin in alphabetical order. */
export async function listSites(storage: SettingsStorage): Promise<RememberedSite[]> {
  const sites = await readSites(storage);
  return [...sites]
    .map(([origin, stored]) => ({ origin, settings: stored.settings, savedAt: stored.savedAt }))
    .sort((a, b) => (a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : 0));
}

/** The part of `browser.storage.local` (or `chrome.storage.local`) that {@link storageAreaAdapter} uses. */
export interface StorageAreaLike {
  get(keys: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

/** A {@link SettingsStorage} over an extension storage area. */
export function storageAreaAdapter(area: StorageAreaLike): SettingsStorage {
  return {
    get: async (key) => (await area.get(key))[key],
    set: (key, value) => area.set({ [key]: value }),
  };
}

/**
 * A {@link SettingsStorage} in memory, for tests and pages without extension
 * storage. Values are copied in and out (`structuredClone`), as a real
 * storage area serializes them.
 */
export function memorySettingsStorage(
  initial: Iterable<readonly [string, unknown]> = [],
): SettingsStorage & { entries: Map<string, unknown> } {
  const entries = new Map<string, unknown>(initial);
  return {
    entries,
    get: (key) => Promise.resolve(structuredClone(entries.get(key))),
    set: (key, value) => {
      entries.set(key, structuredClone(value));
      return Promise.resolve();
    },
  };
}

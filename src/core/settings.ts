/**
 * Crawl settings: one typed object, its defaults, and its validation.
 *
 * Validation returns errors as data (`{ ok: false, errors }`) so that every
 * caller (popup, CLI, message handler) can show a clear message where the
 * user acted, and nothing is started from a bad input.
 */

/** Everything that shapes one crawl. Stored with the crawl, so a crawl can be resumed or re-run. */
export interface CrawlSettings {
  /** Absolute http(s) URL the crawl starts from. Its origin is the default scope. */
  startUrl: string;
  /**
   * Most URLs recorded in the crawl table (fetched, failed, or blocked by robots.txt).
   * robots.txt fetches do not count. @default 500
   */
  maxPages: number;
  /** Most link hops from the start URL (start URL = depth 0). Redirect targets keep their source's depth. @default 20 */
  maxDepth: number;
  /** Politeness delay between the end of one response and the start of the next request to the same host, in ms. @default 1000 */
  delayMs: number;
  /** Product token matched against robots.txt `User-agent` lines (the group we obey). The User-Agent header itself always names tabcrawl. @default "tabcrawl" */
  productToken: string;
  /** Also crawl subdomains of the start host (its leading `www.` removed), over http and https. @default false */
  includeSubdomains: boolean;
  /** Only crawl URLs whose path starts with this prefix (e.g. `/docs/`). Empty string: no restriction. @default "" */
  pathPrefix: string;
  /** Wildcard patterns (`*` = any run of characters) matched against the whole URL; a match is never crawled. @default [] */
  excludePatterns: string[];
  /** Send HEAD first and GET only when the HEAD says HTML. @default false */
  headBeforeGet: boolean;
  /** Per-request timeout, in ms, from the request's start to the end of its body. @default 30000 */
  timeoutMs: number;
  /** Follow links even when the page says `<meta name="robots" content="nofollow">` or the link has `rel="nofollow"`. @default false */
  followNofollow: boolean;
  /** How often a URL answered with 429 or 503 is retried before its status is recorded as final. @default 2 */
  maxRetries: number;
  /** Most hosts crawled at the same time (each host still has at most one request in flight). @default 8 */
  hostConcurrency: number;
  /** Largest random extra wait added to a host's gap, in ms. Jitter only ever lengthens a gap. @default 0 */
  jitterMs: number;
  /** Largest body stored for one HTML page, in bytes; a longer body is cut and the row marked `truncated`. @default 10 MiB */
  maxBodyBytes: number;
}

export const DEFAULT_SETTINGS: Readonly<Omit<CrawlSettings, 'startUrl'>> = Object.freeze({
  maxPages: 500,
  maxDepth: 20,
  delayMs: 1000,
  productToken: 'tabcrawl',
  includeSubdomains: false,
  pathPrefix: '',
  excludePatterns: [],
  headBeforeGet: false,
  timeoutMs: 30_000,
  followNofollow: false,
  maxRetries: 2,
  hostConcurrency: 8,
  jitterMs: 0,
  maxBodyBytes: 10 * 1024 * 1024,
});

/**
 * Bounds enforced by {@link validateSettings}, with the label and unit the
 * messages use (times are shown in seconds, as the popup and CLI take them).
 */
export const SETTINGS_LIMITS = Object.freeze({
  maxPages: { min: 1, max: 1_000_000, label: 'Max pages', unit: 'count' },
  maxDepth: { min: 0, max: 1000, label: 'Max depth', unit: 'count' },
  delayMs: { min: 0, max: 3_600_000, label: 'Delay', unit: 'ms' },
  timeoutMs: { min: 1000, max: 600_000, label: 'Timeout', unit: 'ms' },
  maxRetries: { min: 0, max: 10, label: 'Retries', unit: 'count' },
  hostConcurrency: { min: 1, max: 32, label: 'Hosts at once', unit: 'count' },
  jitterMs: { min: 0, max: 60_000, label: 'Jitter', unit: 'ms' },
  maxBodyBytes: { min: 1024, max: 1024 * 1024 * 1024, label: 'Max body size', unit: 'bytes' },
} as const);

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

/** A robots.txt product token: letters, digits, `_` and `-` (RFC 9309 §2.2.1). */
const PRODUCT_TOKEN = /^[A-Za-z_-]+$/;

/**
 * Fills defaults and checks every field. Never throws.
 * @param input what the user gave; missing fields take {@link DEFAULT_SETTINGS}.
 */
export function validateSettings(input: Partial<CrawlSettings> & { startUrl: string }): SettingsResult {
  const settings: CrawlSettings = { ...DEFAULT_SETTINGS, excludePatterns: [], ...input };
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
      errors.push({ field, message: `${label} must be from ${shown(min, unit)} to ${shown(max, unit)}, not ${shown(value, unit)}` });
    } else if (unit !== 'ms' && !Number.isInteger(value)) {
      errors.push({ field, message: `${label} must be a whole number, not ${value}` });
    }
  }

  if (!PRODUCT_TOKEN.test(settings.productToken)) {
    errors.push({ field: 'productToken', message: 'The robots.txt product token may only contain letters, "_" and "-" (RFC 9309)' });
  }
  if (settings.pathPrefix !== '' && !settings.pathPrefix.startsWith('/')) {
    errors.push({ field: 'pathPrefix', message: 'The path prefix must start with "/"' });
  }
  if (!Array.isArray(settings.excludePatterns) || settings.excludePatterns.some((p) => typeof p !== 'string' || p === '')) {
    errors.push({ field: 'excludePatterns', message: 'Exclude patterns must be non-empty text' });
  }
  for (const flag of ['includeSubdomains', 'headBeforeGet', 'followNofollow'] as const) {
    if (typeof settings[flag] !== 'boolean') errors.push({ field: flag, message: `${flag} must be true or false` });
  }

  return errors.length > 0 ? { ok: false, errors } : { ok: true, settings };
}

/** Parses an absolute http(s) URL, or returns a sentence saying why it is not one. */
export function parseHttpUrl(text: string): URL | string {
  if (typeof text !== 'string' || text.trim() === '') return 'the start URL is empty';
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return `"${text}" is not a valid URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `only http and https sites can be crawled, not ${url.protocol.replace(/:$/, '')}: URLs`;
  }
  url.hash = '';
  return url;
}

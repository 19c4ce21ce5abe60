/**
 * Pure helpers of the popup: form parsing, error routing and how a crawl
 * table row reads. No Preact, no browser APIs.
 */
import type { CrawlSummary, PageSummary } from '../messaging/protocol.ts';
import { TabcrawlError } from '../messaging/protocol.ts';
import { DEFAULT_SETTINGS, type SettingsError } from '../core/settings.ts';

/** The form's fields as typed: kept as text so nothing the user typed is ever lost. */
export interface FormValues {
  startUrl: string;
  maxPages: string;
  /** Politeness delay in seconds, decimals allowed. */
  delaySeconds: string;
}

/** Settings the popup edits, named as in {@link CrawlSettings}. */
export type FormField = 'startUrl' | 'maxPages' | 'delayMs';

/** One message per form field; a field without a problem has no key. */
export type FieldErrors = Partial<Record<FormField, string>>;

const FORM_FIELDS: ReadonlySet<string> = new Set<FormField>(['startUrl', 'maxPages', 'delayMs']);

export function defaultFormValues(): FormValues {
  return {
    startUrl: '',
    maxPages: String(DEFAULT_SETTINGS.maxPages),
    delaySeconds: String(DEFAULT_SETTINGS.delayMs / 1000),
  };
}

/** Reads a number field; an empty or malformed field becomes NaN so the validator names it. */
function parseNumber(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? Number.NaN : Number(trimmed);
}

/** The form's text as the settings the validator and `crawl/start` take (delay seconds → whole ms). */
export function parseForm(values: FormValues): { startUrl: string; maxPages: number; delayMs: number } {
  return {
    startUrl: values.startUrl.trim(),
    maxPages: parseNumber(values.maxPages),
    delayMs: Math.round(parseNumber(values.delaySeconds) * 1000),
  };
}

/** Routes settings errors to the form fields that show them; the rest go to the banner. */
export function splitErrors(errors: readonly SettingsError[]): { fields: FieldErrors; other: string[] } {
  const fields: FieldErrors = {};
  const other: string[] = [];
  for (const error of errors) {
    if (FORM_FIELDS.has(error.field)) {
      const field = error.field as FormField;
      fields[field] ??= error.message;
    } else {
      other.push(error.message);
    }
  }
  return { fields, other };
}

/** A sentence for the banner from anything a request may throw. */
export function describeError(error: unknown): string {
  if (error instanceof TabcrawlError || error instanceof Error) return error.message;
  return String(error);
}

/** The origin of an http(s) URL, or null for anything else (chrome://, about:blank, no tab). */
export function httpOrigin(url: string | null | undefined): string | null {
  if (url === null || url === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
}

/** The newest crawl whose start URL has this origin, or null. */
export function pickCrawlFor(crawls: readonly CrawlSummary[], origin: string): CrawlSummary | null {
  let newest: CrawlSummary | null = null;
  for (const crawl of crawls) {
    if (httpOrigin(crawl.settings.startUrl) !== origin) continue;
    if (newest === null || crawl.createdAt > newest.createdAt) newest = crawl;
  }
  return newest;
}

/**
 * The Status cell of a row: `"blocked"` for robots.txt, `"301 → <location>"`
 * for a redirect, the HTTP status, or the failure code of a network error.
 */
export function statusText(page: PageSummary): string {
  if (page.blockedBy === 'robots') return 'blocked';
  if (page.status !== null) {
    return page.location !== null && page.status >= 300 && page.status < 400
      ? `${page.status} → ${page.location}`
      : String(page.status);
  }
  if (page.error !== null) return page.error.code;
  return '—';
}

/** How a row is coloured. */
export function rowTone(page: PageSummary): 'ok' | 'redirect' | 'error' | 'blocked' {
  if (page.blockedBy !== null) return 'blocked';
  if (page.error !== null || (page.status !== null && page.status >= 400)) return 'error';
  if (page.status !== null && page.status >= 300) return 'redirect';
  return 'ok';
}

/** `text/html; charset=utf-8` → `text/html`; empty when unknown. */
export function mediaType(contentType: string | null): string {
  if (contentType === null) return '';
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** A URL as short as it can be read: path and query when it is on `origin`, else the whole URL. */
export function shortUrl(url: string, origin: string | null): string {
  if (origin === null) return url;
  try {
    const parsed = new URL(url);
    return parsed.origin === origin ? `${parsed.pathname}${parsed.search}` : url;
  } catch {
    return url;
  }
}

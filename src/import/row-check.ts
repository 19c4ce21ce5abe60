/**
 * Whether a line of Tabcrawl's `tabcrawl/rows.jsonl.gz` is a row as the crawl
 * stores it, field by field: a row of the wrong shape stored as it is breaks
 * later code with raw JavaScript errors (`(page.title ?? "").toLowerCase is
 * not a function`), so the import refuses it, saying which field is wrong.
 */
import type { PageRecord } from '../core/model.ts';
import { shown } from './archive-error.ts';
import { renderProblem } from './render-check.ts';

type Check = (value: unknown) => boolean;

const isText: Check = (value) => typeof value === 'string';
const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value);
const orNull =
  (check: Check): Check =>
  (value) =>
    value === null || check(value);
const listOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check);
const isPair: Check = (value) => Array.isArray(value) && value.length === 2 && value.every(isText);
const isObject: Check = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Each field a stored row has, with what it must be and how a message says so. */
const FIELDS: readonly [keyof PageRecord, Check, string][] = [
  ['url', isText, 'text'],
  ['origin', isText, 'text'],
  ['kind', isText, 'text'],
  ['seq', isNumber, 'a number'],
  ['depth', isNumber, 'a number'],
  ['inlinks', isNumber, 'a number'],
  ['referrer', orNull(isText), 'text or null'],
  ['status', orNull(isNumber), 'a number or null'],
  ['contentType', orNull(isText), 'text or null'],
  ['contentLength', orNull(isNumber), 'a number or null'],
  ['location', orNull(isText), 'text or null'],
  ['methods', listOf((value) => value === 'GET' || value === 'HEAD'), 'a list of GET and HEAD'],
  ['fetchedAt', orNull(isNumber), 'a number or null'],
  ['responseTimeMs', orNull(isNumber), 'a number or null'],
  ['headers', listOf(isPair), 'a list of [name, value] pairs of text'],
  ['statusLine', orNull(isText), 'text or null'],
  ['requestHeaders', orNull(listOf(isPair)), 'a list of [name, value] pairs of text, or null'],
  ['ipAddress', orNull(isText), 'text or null'],
  ['sha256', orNull((value) => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value)), 'a SHA-256 in hex, or null'],
  ['duplicateOf', orNull(isText), 'text or null'],
  ['truncated', (value) => typeof value === 'boolean', 'true or false'],
  ['title', orNull(isText), 'text or null'],
  ['links', listOf(isText), 'a list of text'],
  ['linkTexts', listOf(isText), 'a list of text'],
  ['resources', listOf(isText), 'a list of text'],
  ['anchors', listOf(isText), 'a list of text'],
  ['blockedBy', (value) => value === null || value === 'robots', 'robots or null'],
  ['blockedRule', orNull(isText), 'text or null'],
  ['error', orNull(isObject), 'an object or null'],
];

/** Fields a row may lack (stored before they were recorded), checked when present. */
const OPTIONAL_FIELDS: readonly [keyof PageRecord, Check, string][] = [
  [
    'linkElements',
    listOf((value) => ['a', 'area', 'link', 'iframe', 'frame'].includes(value as string)),
    'a list of a, area, link, iframe and frame',
  ],
  ['linkRels', listOf(isText), 'a list of text'],
];

/** What a value is, for a message: its type and the start of it. */
function described(value: unknown): string {
  if (value === undefined) return 'missing';
  const json = JSON.stringify(value) ?? String(value);
  const kind =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'a list'
        : typeof value === 'string'
          ? 'text'
          : `a ${typeof value}`;
  return `${kind} (${shown(json, 100)})`;
}

/** Why `value` is not a stored row (`its title is a number (5), not text or null`), or null when it is one. */
export function rowProblem(value: unknown): string | null {
  if (!isObject(value)) return `it is ${described(value)}, not an object`;
  const row = value as Record<string, unknown>;
  for (const [field, check, wanted] of FIELDS) {
    if (!check(row[field])) return `its ${field} is ${described(row[field])}, not ${wanted}`;
  }
  for (const [field, check, wanted] of OPTIONAL_FIELDS) {
    if (row[field] !== undefined && !check(row[field]))
      return `its ${field} is ${described(row[field])}, not ${wanted}`;
  }
  const facts = row['facts'];
  if (facts !== undefined && facts !== null && !isObject(facts))
    return `its facts is ${described(facts)}, not an object or null`;
  return renderProblem(row['render']);
}

/** Whether `value` is a stored row (see {@link rowProblem}). */
export function isStoredRow(value: unknown): value is PageRecord {
  return rowProblem(value) === null;
}

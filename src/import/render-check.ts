/**
 * Whether the `render` of a row read from Tabcrawl's `tabcrawl/rows.jsonl.gz` is a render record as the
 * crawl stores it (`RenderRecord`, issue 29), field by field: the Issues checks, the exports and the
 * results read its lists and texts without asking again, so a hostile or broken archive's `render: 5`
 * or `scriptErrors: "x"` is refused at the import, saying which field is wrong, rather than breaking
 * them later. Absent is fine (a row the crawl did not render, or a crawl made before rendering existed).
 */
import type { RefusedRequest, RenderRecord } from '../core/model.ts';

type Check = (value: unknown) => boolean;

const isText: Check = (value) => typeof value === 'string';
const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value);
const isBoolean: Check = (value) => typeof value === 'boolean';
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const orNull =
  (check: Check): Check =>
  (value) =>
    value === null || check(value);
const listOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check);

const OUTCOMES: readonly RenderRecord['outcome'][] = [
  'rendered',
  'unavailable',
  'crashed',
  'timeout',
  'stopped',
  'failed',
];
const REFUSED_BECAUSE: readonly RefusedRequest['because'][] = [
  'robots',
  'method',
  'scheme',
  'not-admitted',
  'navigation',
  'timeout',
  'failed',
];

const isRefused: Check = (value) =>
  isObject(value) && isText(value['url']) && REFUSED_BECAUSE.includes(value['because'] as RefusedRequest['because']);

const isStatic: Check = (value) =>
  isObject(value) &&
  orNull(isText)(value['title']) &&
  listOf(isText)(value['links']) &&
  listOf(isText)(value['linkTexts']) &&
  orNull(isObject)(value['facts']);

/** Each field of a render record, with what it must be and how a message says so. */
const FIELDS: readonly [keyof RenderRecord, Check, string][] = [
  ['outcome', (value) => OUTCOMES.includes(value as RenderRecord['outcome']), `one of ${OUTCOMES.join(', ')}`],
  ['message', orNull(isText), 'text or null'],
  ['why', isText, 'text'],
  ['at', isNumber, 'a number'],
  ['durationMs', isNumber, 'a number'],
  ['capped', isBoolean, 'true or false'],
  ['static', orNull(isStatic), 'the static facts (title, links, linkTexts, facts) or null'],
  ['sha256', orNull((value) => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value)), 'a SHA-256 in hex, or null'],
  ['truncated', isBoolean, 'true or false'],
  ['scriptErrors', listOf(isText), 'a list of text'],
  ['requests', listOf(isText), 'a list of text'],
  ['refused', listOf(isRefused), 'a list of {url, because}'],
  ['navigations', listOf(isText), 'a list of text'],
];

/**
 * Why `value`, a row's `render`, is not a render record (`its render's scriptErrors is not a list of
 * text`), or null when it is one or is absent.
 */
export function renderProblem(value: unknown): string | null {
  if (value === undefined) return null;
  if (!isObject(value)) return 'its render is not an object';
  for (const [field, check, wanted] of FIELDS) {
    if (!check(value[field])) return `its render's ${field} is not ${wanted}`;
  }
  return null;
}

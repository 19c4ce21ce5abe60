/**
 * Every link of a crawl as a row of CSV (the format `links.csv`, the command line's `--out
 * NAME.links.csv`): one line per link a stored row holds, in the rows' order, encoded as the crawl's CSV
 * export is (BOM, CRLF, formulas defused: see `csv.ts`). What people pivot on in a link audit: which page
 * links where, with which anchor, and what the target answered.
 *
 * Columns ({@link LINKS_CSV_HEADER}):
 * - `source`: the page (or stylesheet, or sitemap) that holds the link; `target`: where it points, absolute
 *   and normalized as the crawl stores it;
 * - `anchor`: the anchor text of the first link to the target on that page ('' when none);
 * - `rel`: that link's `rel` (tokens lower-cased), '' when none or not recorded;
 * - `found_in`: `a`, `area`, `link` (a document `<link>`), `iframe`, `frame` (the element, for rows
 *   stored before it was recorded and imported rows: `html`), `resource` (a page's stylesheet, script,
 *   image…), `css` (a URL in a stylesheet), `redirect` (a 3xx's `Location`), `canonical` (the page's
 *   canonical URL), `sitemap` (a URL a sitemap lists);
 * - `followed`: `yes` when the crawl requested the target, `no` when it did not (`target_note` says why:
 *   `dns` for a URL whose host's robots.txt found the name did not resolve, so nothing else was asked of it);
 * - `target_status`: the HTTP status the target answered with, '' when none;
 * - `target_kind`: the target's row kind (`page`, `file`, `resource`, `external`, `sitemap`),
 *   `not-crawled` for a URL left unvisited by the crawl's rules, '' for a URL the crawl holds nothing of;
 * - `target_note`: why there is no status (a network failure's code, `blocked by robots.txt (RULE)`,
 *   `not crawled: WHY`), else ''.
 *
 * Two passes over the rows: the first keeps what each target answered (a few dozen bytes a URL), the
 * second writes the lines; the rows themselves are read a page at a time.
 */
import type { PageRecord } from '../core/model.ts';
import { notCrawledReasonText } from '../ui/not-crawled-text.ts';
import { CSV_BOM, csvLine } from './csv.ts';
import type { FormatWriter } from './export-source.ts';

export const LINKS_CSV_HEADER = Object.freeze([
  'source',
  'target',
  'anchor',
  'rel',
  'found_in',
  'followed',
  'target_status',
  'target_kind',
  'target_note',
]);

/** What the links CSV says of a target: the last three columns and `followed`. */
export interface TargetAnswer {
  followed: boolean;
  status: number | null;
  kind: string;
  note: string;
}

/** One link of a row, before its target is looked up. */
export interface RowLink {
  target: string;
  anchor: string;
  rel: string;
  foundIn: string;
}

/** Whether a row is a stylesheet, whose resources are URLs found in CSS. */
function isStylesheet(row: PageRecord): boolean {
  return /^text\/css\b/i.test(row.contentType ?? '');
}

/** The links a row holds, in the order the CSV lists them: links, resources, redirect, canonical. */
export function linksOfRow(row: PageRecord): RowLink[] {
  const out: RowLink[] = [];
  const fromSitemap = row.kind === 'sitemap';
  row.links.forEach((target, i) => {
    out.push({
      target,
      anchor: row.linkTexts[i] ?? '',
      rel: row.linkRels?.[i] ?? '',
      foundIn: fromSitemap ? 'sitemap' : (row.linkElements?.[i] ?? 'html'),
    });
  });
  const resourceKind = isStylesheet(row) ? 'css' : 'resource';
  for (const target of row.resources) out.push({ target, anchor: '', rel: '', foundIn: resourceKind });
  if (row.location !== null && row.status !== null && row.status >= 300 && row.status < 400)
    out.push({ target: row.location, anchor: '', rel: '', foundIn: 'redirect' });
  const canonical = row.facts?.canonical;
  if (typeof canonical === 'string' && canonical !== '')
    out.push({ target: canonical, anchor: '', rel: 'canonical', foundIn: 'canonical' });
  return out;
}

/** What a stored row says of itself as a link target. */
export function answerOfRow(row: PageRecord): TargetAnswer {
  // Asked for: a request sent (or started: one cut by a network failure). A URL on a host whose robots.txt
  // found it unreachable was never asked for: its row says why (`dns`, `refused`).
  const followed = row.methods.length > 0 || row.fetchedAt !== null;
  let note = '';
  if (row.blockedBy === 'robots')
    note = row.blockedRule === null ? 'blocked by robots.txt' : `blocked by robots.txt (${row.blockedRule})`;
  else if (row.error !== null) note = row.error.code;
  return { followed, status: row.status, kind: row.kind, note };
}

/** The answer for a URL the crawl left unvisited by its rules. */
export function answerOfNotCrawled(why: string): TargetAnswer {
  return { followed: false, status: null, kind: 'not-crawled', note: `not crawled: ${why}` };
}

/** The answer for a URL the crawl holds nothing of (e.g. a link beyond the links kept, or a crawl stopped early). */
const UNKNOWN: TargetAnswer = Object.freeze({ followed: false, status: null, kind: '', note: '' });

/** One line of the links CSV. */
export function linksCsvLine(source: string, link: RowLink, answer: TargetAnswer = UNKNOWN): string {
  return csvLine([
    source,
    link.target,
    link.anchor,
    link.rel,
    link.foundIn,
    answer.followed ? 'yes' : 'no',
    answer.status,
    answer.kind,
    answer.note,
  ]);
}

/** Lines gathered into one chunk. */
const LINES_PER_CHUNK = 500;

/**
 * The links CSV as a {@link FormatWriter}. Calls `context.onRow()` once per stored row read in its second
 * pass (the progress a user sees counts rows, as the other formats do).
 */
export const writeLinksCsv: FormatWriter = async function* (source, context) {
  const encoder = new TextEncoder();
  yield encoder.encode(`${CSV_BOM}${csvLine(LINKS_CSV_HEADER)}`);
  const answers = new Map<string, TargetAnswer>();
  if (source.notCrawled !== undefined) {
    const { settings } = source.crawl;
    for await (const url of source.notCrawled())
      answers.set(url.url, answerOfNotCrawled(notCrawledReasonText(url.reason, settings)));
  }
  for await (const row of source.rows()) answers.set(row.url, answerOfRow(row));
  let lines: string[] = [];
  for await (const row of source.rows()) {
    for (const link of linksOfRow(row)) {
      lines.push(linksCsvLine(row.url, link, answers.get(link.target)));
      if (lines.length >= LINES_PER_CHUNK) {
        yield encoder.encode(lines.join(''));
        lines = [];
      }
    }
    context.onRow();
  }
  if (lines.length > 0) yield encoder.encode(lines.join(''));
};

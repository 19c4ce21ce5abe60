/**
 * What the Issues view says beside a check's count of the URLs the check
 * could not judge: a count of 0 is a pass only when everything the check
 * looks at was looked at.
 *
 * - `broken-link-external`: links to other sites not checked, from the rows
 *   (those their robots.txt kept out, any reason: disallowed or robots.txt
 *   unavailable) and from the crawl's counts of what it left unvisited (past
 *   the crawl's limit or the limit per site, or every one of them when checks
 *   were off). With checks off the check ran on nothing: its 0 is no pass, and
 *   the view says "not checked" instead.
 * - `canonical-to-non-200`: canonicals whose target the crawl never fetched.
 *
 * Pure: no Dexie, no browser API.
 */
import type { CrawlCounts } from '../core/model.ts';
import type { CrawlSettings } from '../core/settings.ts';
import type { CheckId } from './checks.ts';
import type { AuditResult } from './engine.ts';

/** The URLs one check could not judge. */
export interface NotJudgedNote {
  /** How many (0 when the check was off and nothing was recorded). */
  count: number;
  /** The check judged nothing at all (links to other sites not checked in this crawl): its 0 is no pass. */
  isOff: boolean;
  /** Short, beside the count: `2 not judged`, `2,900 not checked`. */
  label: string;
  /** In words, why. */
  text: string;
}

/** What of the crawl the notes read: whether it checked links to other sites, its limits, what it left unvisited. */
export interface NotJudgedCrawl {
  /** `checkExternal` absent: a crawl stored before the setting existed, which checked none. */
  settings: Partial<Pick<CrawlSettings, 'checkExternal' | 'maxExternal' | 'maxExternalPerHost'>>;
  /** Absent, or without `notCrawled`: not counted (a running crawl, an imported one). */
  counts?: Pick<CrawlCounts, 'notCrawled'>;
}

const grouped = new Intl.NumberFormat('en-US');

/** `1 link`, `2,901 links`. */
const counted = (count: number, one: string): string => `${grouped.format(count)} ${count === 1 ? one : `${one}s`}`;

/** The notes of the checks that could not judge some URLs, by check; `crawl` adds what the crawl record says. */
export function notJudgedNotes(
  result: Pick<AuditResult, 'notJudged'>,
  crawl?: NotJudgedCrawl,
): Map<CheckId, NotJudgedNote> {
  const notes = new Map<CheckId, NotJudgedNote>();
  const external = externalNote(result, crawl);
  if (external !== null) notes.set('broken-link-external', external);
  const canonicals = result.notJudged.get('canonical-to-non-200') ?? 0;
  if (canonicals > 0) {
    notes.set('canonical-to-non-200', {
      count: canonicals,
      isOff: false,
      label: `${grouped.format(canonicals)} not judged`,
      text: `${counted(canonicals, 'canonical')} not judged: the crawl did not fetch ${canonicals === 1 ? 'its' : 'their'} target (past its depth or page limit, excluded, or on a page whose links are not followed; see Not crawled).`,
    });
  }
  return notes;
}

/** Links to other sites not checked, for `broken-link-external`; null when every one was checked. */
function externalNote(result: Pick<AuditResult, 'notJudged'>, crawl: NotJudgedCrawl | undefined): NotJudgedNote | null {
  const left = crawl?.counts?.notCrawled ?? {};
  const parts: [count: number, why: string][] = [
    [
      left['external-host-limit'] ?? 0,
      `past the limit of checks per other site (${grouped.format(crawl?.settings.maxExternalPerHost ?? 0)})`,
    ],
    [
      left['external-limit'] ?? 0,
      `past the limit of links to other sites to check (${grouped.format(crawl?.settings.maxExternal ?? 0)})`,
    ],
    [result.notJudged.get('broken-link-external') ?? 0, 'kept out by their robots.txt'],
    [left['external-off'] ?? 0, 'with checks turned off'],
  ];
  const present = parts.filter(([count]) => count > 0);
  const count = present.reduce((sum, [n]) => sum + n, 0);
  const isOff = crawl !== undefined && crawl.settings.checkExternal !== true;
  if (isOff) {
    const listed = count > 0 ? ` ${counted(count, 'link')} to other sites, listed in Not crawled.` : '';
    return {
      count,
      isOff,
      label: 'not checked',
      text: `Links to other sites were not checked in this crawl (Check links to other sites was off), so this check passed none of them.${listed}`,
    };
  }
  if (count === 0) return null;
  const why = present.map(([n, reason]) => `${grouped.format(n)} ${reason}`).join(', ');
  return {
    count,
    isOff,
    label: `${grouped.format(count)} not checked`,
    text: `${counted(count, 'link')} to other sites not checked, listed in Not crawled: ${why}.`,
  };
}

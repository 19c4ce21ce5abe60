/**
 * What the Issues view says beside a check's count of the URLs the check
 * could not judge: a count of 0 is a pass only when everything the check
 * looks at was looked at. A canonical whose target the crawl never fetched
 * is not judged (`canonical-to-non-200`).
 *
 * Pure: no Dexie, no browser API.
 */
import type { CheckId } from './checks.ts';
import type { AuditResult } from './engine.ts';
import { plural } from './pending.ts';

/** The URLs one check could not judge. */
export interface NotJudgedNote {
  /** How many. */
  count: number;
  /** Short, beside the count: `2 not judged`. */
  label: string;
  /** In words, why: `2 canonicals not judged: the crawl did not fetch ${canonicals === 1 ? 'its' : 'their'} target (…)`. */
  text: string;
}

const grouped = new Intl.NumberFormat('en-US');

/** The notes of the checks that could not judge some URLs, by check. */
export function notJudgedNotes(result: Pick<AuditResult, 'notJudged'>): Map<CheckId, NotJudgedNote> {
  const notes = new Map<CheckId, NotJudgedNote>();
  const canonicals = result.notJudged.get('canonical-to-non-200') ?? 0;
  if (canonicals > 0) {
    notes.set('canonical-to-non-200', {
      count: canonicals,
      label: `${grouped.format(canonicals)} not judged`,
      text: `${plural(canonicals, 'canonical')} not judged: the crawl did not fetch ${canonicals === 1 ? 'its' : 'their'} target (past its depth or page limit, excluded, or on a page whose links are not followed; see Not crawled).`,
    });
  }
  return notes;
}

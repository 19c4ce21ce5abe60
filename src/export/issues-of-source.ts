/**
 * The Issues checks' verdict per URL, for the exports' `issues` field: the
 * checks run over the source's rows (up to three passes, rows only, no body:
 * see `audit/engine.ts`) before the rows are written. Memory: one entry per
 * URL with an issue.
 */
import { issuesByUrl, runAudit } from '../audit/audit.ts';
import type { CheckId } from '../audit/checks.ts';
import type { ExportSource } from './export-source.ts';

/** The ids of the checks that failed on a URL (a `Map` fits). */
export interface IssueLookup {
  get(url: string): readonly CheckId[] | undefined;
}

/** No issue anywhere. */
export const NO_ISSUES: IssueLookup = Object.freeze({ get: () => undefined });

/** The checks that failed on each URL of `source`. */
export async function issuesOfSource(source: Pick<ExportSource, 'rows'>): Promise<IssueLookup> {
  return issuesByUrl(await runAudit(() => source.rows()));
}

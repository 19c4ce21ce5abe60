/**
 * Runs the Issues checks over a crawl's rows and gathers what they find.
 *
 * The rows come in as a {@link RowScan}, a function that starts a fresh scan
 * of the crawl table in `seq` order. No body is read and no crawl is held:
 * a check that needs to know a row's fate before it can judge what points to
 * it (a broken link's linking pages, a canonical's target) keeps only the
 * URLs it needs from one scan and reads the rows again. Every check runs in
 * the same scans: at most three (the third only when a link to a missing
 * anchor may sit on a page read before its target).
 *
 * Pure: no Dexie, no browser API.
 */
import type { PageRecord } from '../core/model.ts';
import { CHECK_IDS, type CheckId } from './checks.ts';
import { DEFAULT_THRESHOLDS, type AuditThresholds } from './thresholds.ts';

/** Starts a scan of one crawl's rows in `seq` order; each call starts over from the first row. */
export type RowScan = () => AsyncIterable<PageRecord>;

/** Most related URLs (linking pages, pages using a resource…) kept per finding; {@link Finding.relatedCount} counts them all. */
export const RELATED_MAX = 100;

/** One issue: a check that failed on one URL. */
export interface Finding {
  check: CheckId;
  /** The URL that has the problem. */
  url: string;
  /** What is wrong there, in a few words (`404`, `72 characters`, `3 hops to https://…`). */
  detail: string;
  /** URLs that explain it, at most {@link RELATED_MAX}: the pages linking to a broken URL, the pages sharing a title… */
  related: string[];
  /** How many related URLs there are (`related` may hold fewer). */
  relatedCount: number;
}

/** Where a check puts what it finds; a second finding of one check on one URL is dropped. */
export type Emit = (check: CheckId, url: string, detail: string, related?: RelatedUrls) => void;

/**
 * Where a check counts the URLs it could not judge from the rows (a canonical whose target the crawl
 * never fetched, a link to another site its robots.txt kept from being checked): they are neither
 * issues nor passes, and the Issues view says so beside the check's count.
 */
export type CountNotJudged = (check: CheckId, count: number) => void;

/** Related URLs as a collector keeps them: the first few and their count. */
export interface RelatedUrls {
  urls: string[];
  count: number;
}

/** What reads the rows in numbered scans: a group of checks, a report, what an export needs to know of the rows. */
export interface PassReader {
  /** Whether it reads the rows of scan `pass` (1, 2, 3); asked before each scan, after the previous one ended. */
  wants(pass: number): boolean;
  /** One row of scan `pass`. */
  see(row: PageRecord, pass: number): void;
}

/**
 * Scans the rows for every reader at once: scan 1 for those that want it,
 * then scan 2, and so on until no reader wants the next. Each row of a scan
 * is read once and handed to every reader of that scan.
 * @returns the scans made.
 */
export async function scanInPasses(scan: RowScan, readers: readonly PassReader[]): Promise<number> {
  let scans = 0;
  for (let pass = 1; ; pass += 1) {
    const active = readers.filter((reader) => reader.wants(pass));
    if (active.length === 0) return scans;
    scans += 1;
    for await (const row of scan()) for (const reader of active) reader.see(row, pass);
  }
}

/** A group of checks over the rows. */
export interface CheckCollector extends PassReader {
  /** Emits its findings, and counts what it could not judge, once every scan is over. */
  finish(emit: Emit, notJudged: CountNotJudged): void;
}

/** Makes the collector of one group of checks. */
export type CollectorFactory = (thresholds: AuditThresholds) => CheckCollector;

/** What the checks found, by check, each check's findings in the order of their URLs' rows (or as the check orders them). */
export interface AuditResult {
  findings: ReadonlyMap<CheckId, readonly Finding[]>;
  /** URLs each check could not judge from the rows (see {@link CountNotJudged}); a check with none is absent. */
  notJudged: ReadonlyMap<CheckId, number>;
  /** Scans of the rows made. */
  scans: number;
}

/**
 * Related URLs kept per target: the first {@link RELATED_MAX} and their count.
 * Callers add each (target, URL) pair once per scan (a row's links and
 * resources are distinct), so nothing is deduplicated here.
 */
export class RelatedIndex {
  private readonly byTarget = new Map<string, RelatedUrls>();

  /** Starts keeping related URLs for `target` (only targets tracked are kept). */
  track(target: string): void {
    if (!this.byTarget.has(target)) this.byTarget.set(target, { urls: [], count: 0 });
  }

  has(target: string): boolean {
    return this.byTarget.has(target);
  }

  get size(): number {
    return this.byTarget.size;
  }

  /** Adds `url` as related to `target` when it is tracked. */
  add(target: string, url: string): void {
    const entry = this.byTarget.get(target);
    if (entry === undefined) return;
    entry.count += 1;
    if (entry.urls.length < RELATED_MAX) entry.urls.push(url);
  }

  get(target: string): RelatedUrls {
    return this.byTarget.get(target) ?? { urls: [], count: 0 };
  }

  /** The targets tracked, in the order first tracked. */
  targets(): IterableIterator<string> {
    return this.byTarget.keys();
  }
}

/**
 * Runs `factories`' collectors over the rows.
 * @param thresholds the thresholds in force. @default DEFAULT_THRESHOLDS
 * @param alongside other readers fed by the same scans (what an export needs besides the issues): each
 *   row of a scan is read once for all. @default none
 */
export async function runChecks(
  scan: RowScan,
  factories: readonly CollectorFactory[],
  thresholds: AuditThresholds = DEFAULT_THRESHOLDS,
  alongside: readonly PassReader[] = [],
): Promise<AuditResult> {
  const collectors = factories.map((make) => make(thresholds));
  const scans = await scanInPasses(scan, [...collectors, ...alongside]);
  const found = new Map<CheckId, Finding[]>();
  const seen = new Map<CheckId, Set<string>>();
  const emit: Emit = (check, url, detail, related) => {
    let urls = seen.get(check);
    if (urls === undefined) seen.set(check, (urls = new Set()));
    if (urls.has(url)) return;
    urls.add(url);
    let list = found.get(check);
    if (list === undefined) found.set(check, (list = []));
    list.push({
      check,
      url,
      detail,
      related: related?.urls.slice(0, RELATED_MAX) ?? [],
      relatedCount: related?.count ?? 0,
    });
  };
  const notJudged = new Map<CheckId, number>();
  const countNotJudged: CountNotJudged = (check, count) => {
    if (count > 0) notJudged.set(check, (notJudged.get(check) ?? 0) + count);
  };
  for (const collector of collectors) collector.finish(emit, countNotJudged);
  // Every check present, in registry order (none found: an empty list).
  const findings = new Map<CheckId, readonly Finding[]>(CHECK_IDS.map((id) => [id, found.get(id) ?? []]));
  return { findings, notJudged, scans };
}

/** The ids of the checks that failed on each URL, each URL's in registry order. */
export function issuesByUrl(result: AuditResult): Map<string, CheckId[]> {
  const byUrl = new Map<string, CheckId[]>();
  for (const [check, findings] of result.findings) {
    for (const { url } of findings) {
      const ids = byUrl.get(url);
      if (ids === undefined) byUrl.set(url, [check]);
      else ids.push(check);
    }
  }
  return byUrl;
}

/** Issues per check id (every check, 0 when none). */
export function countsByCheck(result: AuditResult): Record<CheckId, number> {
  return Object.fromEntries(CHECK_IDS.map((id) => [id, result.findings.get(id)?.length ?? 0])) as Record<
    CheckId,
    number
  >;
}

/**
 * What the `broken-resource` check judges, kept once for the Issues and the
 * *Broken resources* report: the rows of the site broken as page resources
 * (`isBrokenResource`: 400 or more, failed, or blocked by robots.txt) and the
 * rows using each. The check flags them (`link-checks.ts`), the report lists
 * them with what each is and every row using it (`report-views.ts`).
 *
 * Memory: one entry per broken row, and per row using one: the first
 * {@link RELATED_MAX} only, unless `keepAllUsers` (the report lists them all,
 * as it always has). Pure: no Dexie, no browser API.
 */
import type { PageRecord } from '../core/model.ts';
import { RelatedIndex, type PassReader, type RelatedUrls } from './engine.ts';
import { errorText } from './link-judgements.ts';
import { resourceTypeOf, type BrokenResource, type ResourceUserRef } from './report-types.ts';
import { isBrokenResource, isExternalRow } from './row-health.ts';

/** A broken resource as judged: what the report shows, and whether its row is a resource. */
export interface JudgedResource {
  resource: Omit<BrokenResource, 'users'>;
  /** Its row is a page resource (else a page or file some row also uses as one). */
  isResource: boolean;
  /** What it answered, as the check words it (`404`, `failed (timeout)`, `blocked by robots.txt`). */
  detail: string;
}

/**
 * Scan 1 finds the site's broken rows (a link to another site is checked as
 * a link, not loaded as a resource); scan 2 finds the rows whose `resources`
 * list them. A broken row is a broken resource when it is a resource row or
 * some row uses it.
 */
export class BrokenResourceJudge implements PassReader {
  private readonly found = new Map<string, JudgedResource>();
  /** Rows using each broken resource: the first {@link RELATED_MAX} and their count. */
  private readonly users = new RelatedIndex();
  /** Every row using each, with its kind, when `keepAllUsers`. */
  private readonly allUsers = new Map<string, Map<string, ResourceUserRef>>();

  /**
   * @param detailOf how the check words what a row answered.
   * @param keepAllUsers keep every row using a broken resource (the report), not only the first few (the Issues).
   */
  constructor(
    private readonly detailOf: (row: PageRecord) => string,
    private readonly keepAllUsers: boolean,
  ) {}

  wants(pass: number): boolean {
    return pass <= 2;
  }

  see(row: PageRecord, pass: number): void {
    if (pass === 1) {
      if (isExternalRow(row) || !isBrokenResource(row) || this.found.has(row.url)) return;
      const resource = {
        url: row.url,
        type: resourceTypeOf(row.url, row.contentType),
        status: row.status,
        error: errorText(row),
        isBlocked: row.blockedBy !== null,
        blockedRule: row.blockedRule,
        referrer: row.referrer,
      };
      this.found.set(row.url, { resource, isResource: row.kind === 'resource', detail: this.detailOf(row) });
      this.users.track(row.url);
      if (this.keepAllUsers) this.allUsers.set(row.url, new Map());
      return;
    }
    if (pass !== 2) return;
    // `?? []`: rows of readers that do not fill it in (stored before resources were archived).
    for (const url of row.resources ?? []) {
      this.users.add(url, row.url);
      const all = this.allUsers.get(url);
      if (all !== undefined && !all.has(row.url)) all.set(row.url, { url: row.url, kind: row.kind });
    }
  }

  /** The broken resources, in `seq` order of their rows, each with the rows using it (the first few, counted). */
  *judged(): Generator<JudgedResource & { users: RelatedUrls }> {
    for (const [url, judged] of this.found) {
      const users = this.users.get(url);
      if (judged.isResource || users.count > 0) yield { ...judged, users };
    }
  }

  /** Every row using the broken resource `url`, each once, in `seq` order (with `keepAllUsers`; else none). */
  allUsersOf(url: string): ResourceUserRef[] {
    return [...(this.allUsers.get(url)?.values() ?? [])];
  }
}

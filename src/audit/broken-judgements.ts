/**
 * What the broken-link and `broken-resource` checks judge, kept once for the
 * Issues and the reports ({@link BrokenLinkJudge}, {@link BrokenResourceJudge}).
 *
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
import { resourceTypeOf, type BrokenResource, type LinkingPage, type ResourceUserRef } from './report-types.ts';
import { isBrokenResource, isBrokenRow, isExternalRow } from './row-health.ts';

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

/** A row broken as a link: what the check words and the report shows of it. */
export interface JudgedLinkTarget {
  url: string;
  /** HTTP status, or null for a network failure. */
  status: number | null;
  /** `code: message` of a network failure; null when the server answered. */
  error: string | null;
  /** What it answered, as the check words it. */
  detail: string;
  isExternal: boolean;
  isResource: boolean;
}

/**
 * What the `broken-link-internal` and `broken-link-external` checks judge
 * broken, kept once for the Issues and the *Broken links* report: scan 1
 * finds the rows that answered 400 or more or failed (`isBrokenRow`). With
 * `keepLinkingPages`, scan 2 keeps every row whose links include one, with
 * the anchor text of its first link there (the report's table; a sitemap's
 * link has none): the check's related URLs are the first 100 pages linking,
 * kept by the check itself.
 *
 * Memory: one entry per broken row, and with `keepLinkingPages` one per row
 * linking to one (as the report always kept). Pure: no Dexie, no browser API.
 */
export class BrokenLinkJudge implements PassReader {
  /** The broken rows by URL, in `seq` order. */
  readonly targets = new Map<string, JudgedLinkTarget>();
  /** Every row linking to each broken row, when `keepLinkingPages`. */
  private readonly linkingPages = new Map<string, Map<string, LinkingPage>>();

  /**
   * @param detailOf how the check words what a row answered.
   * @param keepLinkingPages keep every row linking to a broken row, with its anchor text (the report).
   */
  constructor(
    private readonly detailOf: (row: PageRecord) => string,
    private readonly keepLinkingPages: boolean,
  ) {}

  wants(pass: number): boolean {
    return pass === 1 || (pass === 2 && this.keepLinkingPages && this.targets.size > 0);
  }

  see(row: PageRecord, pass: number): void {
    if (pass === 1) {
      if (!isBrokenRow(row) || this.targets.has(row.url)) return;
      const isExternal = isExternalRow(row);
      this.targets.set(row.url, {
        url: row.url,
        status: row.status,
        error: errorText(row),
        detail: this.detailOf(row),
        isExternal,
        isResource: row.kind === 'resource',
      });
      if (this.keepLinkingPages) this.linkingPages.set(row.url, new Map());
      return;
    }
    if (pass !== 2) return;
    row.links.forEach((link, index) => {
      const linkers = this.linkingPages.get(link);
      if (linkers !== undefined && !linkers.has(row.url))
        linkers.set(row.url, { url: row.url, anchorText: row.linkTexts[index] ?? '' });
    });
  }

  /** Every row linking to the broken row `url`, each once, in `seq` order (with `keepLinkingPages`; else none). */
  linkingPagesOf(url: string): LinkingPage[] {
    return [...(this.linkingPages.get(url)?.values() ?? [])];
  }
}

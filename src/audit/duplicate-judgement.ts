/**
 * What the `duplicate-content` check judges, kept once for the Issues and the
 * *Duplicate content* report: the groups of pages that answered 2xx with a
 * byte-identical body. The check flags every member of a group
 * (`page-checks.ts`), the report lists the groups (`report-views.ts`).
 *
 * Scan 1 groups the copies (rows whose `duplicateOf` names another URL) by
 * their original; scan 2 reads the originals. A member whose canonical names
 * another member of its group is left out: it says already which one search
 * engines should take. A rendered page is judged by what it showed: the
 * members of a group are split by their rendered DOM (`render.sha256`; the
 * unrendered ones together), so that shells of one app whose scripts write
 * different pages are not duplicates. A group left with one page is no duplicate.
 *
 * Memory: one entry per copy and per original, never one per row of the
 * crawl. Pure: no Dexie, no browser API.
 */
import type { PageRecord } from '../core/model.ts';
import type { PassReader } from './engine.ts';
import { canonicalOf, isSuccessStatus } from './row-health.ts';

/** A page that answered 2xx: what duplicate content compares (one image under two URLs is not duplicate content). */
export function isContent(row: Pick<PageRecord, 'kind' | 'status'>): boolean {
  return row.kind === 'page' && isSuccessStatus(row.status);
}

/** One page of a group. */
export interface DuplicatePage {
  url: string;
  status: number | null;
  /** True for the first URL that served the body (the one stored); false for its copies. */
  isOriginal: boolean;
}

/** Pages sharing one body. */
export interface JudgedDuplicates {
  /** Hex SHA-256 of the body; null if no row of the group carries it. */
  sha256: string | null;
  /** The original first (when it is content), then its copies in `seq` order; two or more. */
  members: DuplicatePage[];
}

interface Group {
  sha256: string | null;
  /** The original's row, when scan 2 found it content. */
  original: DuplicatePage | null;
  copies: DuplicatePage[];
}

/** What a page showed, when it was rendered: its rendered DOM's hash; '' for a page judged by its body alone. */
const shownOf = (row: PageRecord): string =>
  row.render?.outcome === 'rendered' ? (row.render.sha256 ?? `rendered ${row.url}`) : '';

export class DuplicateJudge implements PassReader {
  /** Groups by the URL of their original, in `seq` order of their first copy. */
  private readonly groups = new Map<string, Group>();
  /** Members whose canonical names another URL, with that canonical. */
  private readonly canonicalOfMember = new Map<string, string>();
  /** Rendered members, with what they showed (see {@link shownOf}); absent: judged by the body. */
  private readonly shownByMember = new Map<string, string>();

  wants(pass: number): boolean {
    return pass === 1 || (pass === 2 && this.groups.size > 0);
  }

  see(row: PageRecord, pass: number): void {
    if (!isContent(row)) return;
    if (pass === 1) {
      if (row.duplicateOf === null || row.duplicateOf === row.url) return;
      let group = this.groups.get(row.duplicateOf);
      if (group === undefined)
        this.groups.set(row.duplicateOf, (group = { sha256: row.sha256, original: null, copies: [] }));
      group.sha256 ??= row.sha256;
      group.copies.push({ url: row.url, status: row.status, isOriginal: false });
    } else {
      const group = this.groups.get(row.url);
      if (group === undefined || group.original !== null) return;
      group.original = { url: row.url, status: row.status, isOriginal: true };
      group.sha256 ??= row.sha256;
    }
    const canonical = canonicalOf(row);
    if (canonical !== null && canonical !== row.url) this.canonicalOfMember.set(row.url, canonical);
    const shown = shownOf(row);
    if (shown !== '') this.shownByMember.set(row.url, shown);
  }

  /** The groups of two or more pages, in `seq` order of their first copy. */
  groupsFound(): JudgedDuplicates[] {
    const found: JudgedDuplicates[] = [];
    for (const group of this.groups.values()) {
      const all = group.original === null ? group.copies : [group.original, ...group.copies];
      const urls = new Set(all.map((member) => member.url));
      const members = all.filter((member) => {
        const canonical = this.canonicalOfMember.get(member.url);
        return canonical === undefined || !urls.has(canonical);
      });
      // Split by what each member showed: rendered pages by their DOM, the others together.
      const byShown = new Map<string, DuplicatePage[]>();
      for (const member of members) {
        const shown = this.shownByMember.get(member.url) ?? '';
        byShown.set(shown, [...(byShown.get(shown) ?? []), member]);
      }
      for (const part of byShown.values()) if (part.length >= 2) found.push({ sha256: group.sha256, members: part });
    }
    return found;
  }
}

/**
 * Checks of what an HTML page says of itself: `title-missing`,
 * `title-duplicate`, `title-too-long`, `title-too-short`,
 * `description-missing`, `description-duplicate`, `h1-missing`,
 * `h1-multiple`. Only HTML pages that answered 2xx are judged; the
 * description and heading checks need the page's facts (rows stored before
 * facts were recorded are not judged on them).
 *
 * Duplicates take two scans: the first counts each title and description,
 * the second names the pages of those seen more than once; a page whose
 * canonical names another page of its group is not a duplicate. Memory: one
 * entry per distinct title and description, and one per page of a repeated one.
 */
import type { CheckId } from './checks.ts';
import type { CollectorFactory } from './engine.ts';
import { RELATED_MAX } from './engine.ts';
import { PendingFindings, plural } from './pending.ts';
import { canonicalOf, isHtmlPage } from './row-health.ts';

/** White space collapsed and trimmed: how a browser shows a title. */
export function collapseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Length in characters (code points), as a reader counts them. */
function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/**
 * Pages sharing one text: counted in scan 1, named in scan 2. A page whose canonical names another page
 * of its group is left out (it says already which one search engines should take), and a group left
 * with one page is no duplicate.
 */
class Duplicates {
  private readonly counts = new Map<string, number>();
  /** Pages of a repeated text, in `seq` order, with that text and the canonical they name (null: none, or themselves). */
  private readonly members: { url: string; text: string; canonical: string | null }[] = [];

  constructor(private readonly check: CheckId) {}

  count(text: string): void {
    this.counts.set(text, (this.counts.get(text) ?? 0) + 1);
  }

  get hasAny(): boolean {
    for (const count of this.counts.values()) if (count > 1) return true;
    return false;
  }

  name(text: string, url: string, canonical: string | null): void {
    if ((this.counts.get(text) ?? 0) < 2) return;
    this.members.push({ url, text, canonical: canonical === url ? null : canonical });
  }

  addTo(pending: PendingFindings): void {
    const groups = new Map<string, { urls: Set<string>; kept: string[] }>();
    for (const { url, text } of this.members) {
      let group = groups.get(text);
      if (group === undefined) groups.set(text, (group = { urls: new Set(), kept: [] }));
      group.urls.add(url);
    }
    const isKept = new Set<string>();
    for (const { url, text, canonical } of this.members) {
      const group = groups.get(text);
      if (group === undefined || (canonical !== null && group.urls.has(canonical))) continue;
      group.kept.push(url);
      isKept.add(url);
    }
    for (const { url, text } of this.members) {
      const group = groups.get(text);
      if (group === undefined || !isKept.has(url) || group.kept.length < 2) continue;
      const others = group.kept
        .slice(0, RELATED_MAX + 1)
        .filter((other) => other !== url)
        .slice(0, RELATED_MAX);
      pending.add(
        this.check,
        url,
        `“${text.length > 80 ? `${text.slice(0, 80)}…` : text}” on ${plural(group.kept.length, 'page')}`,
        { urls: others, count: group.kept.length - 1 },
      );
    }
  }
}

export const contentChecks: CollectorFactory = (thresholds) => {
  const pending = new PendingFindings();
  const titles = new Duplicates('title-duplicate');
  const descriptions = new Duplicates('description-duplicate');
  return {
    wants: (pass) => pass === 1 || (pass === 2 && (titles.hasAny || descriptions.hasAny)),
    see(row, pass) {
      if (!isHtmlPage(row)) return;
      const title = collapseSpace(row.title ?? '');
      const facts = row.facts ?? null;
      const description =
        facts?.description === null || facts?.description === undefined ? '' : collapseSpace(facts.description);
      if (pass === 2) {
        const canonical = canonicalOf(row);
        if (title !== '') titles.name(title, row.url, canonical);
        if (description !== '') descriptions.name(description, row.url, canonical);
        return;
      }
      if (title === '') {
        pending.add('title-missing', row.url, row.title === null ? 'no <title>' : 'empty <title>');
      } else {
        titles.count(title);
        const chars = charCount(title);
        if (chars > thresholds.titleMaxChars) pending.add('title-too-long', row.url, `${chars} characters`);
        if (chars < thresholds.titleMinChars) pending.add('title-too-short', row.url, `${chars} characters`);
      }
      if (facts === null) return;
      if (description === '')
        pending.add(
          'description-missing',
          row.url,
          facts.description === null ? 'no meta description' : 'empty meta description',
        );
      else descriptions.count(description);
      if (facts.h1Count === 0) pending.add('h1-missing', row.url, 'no <h1>');
      if (facts.h1Count > 1) pending.add('h1-multiple', row.url, `${facts.h1Count} <h1>`);
    },
    finish(emit) {
      titles.addTo(pending);
      descriptions.addTo(pending);
      pending.emitTo(emit);
    },
  };
};

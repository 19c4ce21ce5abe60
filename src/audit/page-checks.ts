/**
 * Checks of one row at a time: `slow-response`, `large-page`, `deep-page`,
 * `mixed-content`, `image-missing-alt`; and `duplicate-content` (byte-identical
 * pages that answered 2xx, each member of a group flagged, the original
 * included, but a member whose canonical names another member: scan 1 groups
 * the duplicates by their original, scan 2 reads the originals).
 */
import type { CollectorFactory } from './engine.ts';
import { RelatedIndex } from './engine.ts';
import { PendingFindings, plural, relatedOf } from './pending.ts';
import { canonicalOf, isExternalRow, isHtmlPage, isSiteUrlRow, isSuccessStatus } from './row-health.ts';
import type { PageRecord } from '../core/model.ts';

/** A page that answered 2xx: what duplicate content compares (one image under two URLs is not duplicate content). */
function isContent(row: PageRecord): boolean {
  return row.kind === 'page' && isSuccessStatus(row.status);
}

export const pageChecks: CollectorFactory = (thresholds) => {
  const pending = new PendingFindings();
  /** Duplicates by the URL of their original, in `seq` order of the first. */
  const groups = new RelatedIndex();
  /** Originals that are content themselves (scan 2). */
  const contentOriginals = new Set<string>();
  /** Each copy's original (scan 1). */
  const originalOf = new Map<string, string>();
  /** Members of a group whose canonical names another URL (copies in scan 1, originals in scan 2), with that canonical. */
  const canonicalOfMember = new Map<string, string>();
  const noteCanonical = (row: PageRecord): void => {
    const canonical = canonicalOf(row);
    if (canonical !== null && canonical !== row.url) canonicalOfMember.set(row.url, canonical);
  };
  return {
    wants: (pass) => pass === 1 || (pass === 2 && groups.size > 0),
    see(row, pass) {
      if (pass === 2) {
        if (groups.has(row.url) && isContent(row)) {
          contentOriginals.add(row.url);
          noteCanonical(row);
        }
        return;
      }
      if (isSiteUrlRow(row) && !isExternalRow(row) && row.responseTimeMs !== null && row.responseTimeMs > thresholds.slowResponseMs) {
        pending.add('slow-response', row.url, `${Math.round(row.responseTimeMs)} ms`);
      }
      if (isContent(row) && row.duplicateOf !== null && row.duplicateOf !== row.url) {
        groups.track(row.duplicateOf);
        groups.add(row.duplicateOf, row.url);
        originalOf.set(row.url, row.duplicateOf);
        noteCanonical(row);
      }
      if (!isHtmlPage(row)) return;
      if (row.contentLength !== null && row.contentLength > thresholds.largePageBytes) pending.add('large-page', row.url, `${Math.round(row.contentLength / 1024)} KiB`);
      if (row.depth > thresholds.deepPageClicks) pending.add('deep-page', row.url, `${plural(row.depth, 'click')} from the start`);
      const facts = row.facts ?? null;
      if (facts === null) return;
      if (facts.mixedContent.length > 0) pending.add('mixed-content', row.url, `${plural(facts.mixedContent.length, 'http resource')}`, relatedOf(facts.mixedContent));
      if (facts.imagesWithoutAlt.length > 0) pending.add('image-missing-alt', row.url, `${plural(facts.imagesWithoutAlt.length, 'image')} without alt`, relatedOf(facts.imagesWithoutAlt));
    },
    finish(emit) {
      pending.emitTo(emit);
      /** The group (its original) a member of a duplicate group belongs to. */
      const groupOf = (url: string): string | undefined => originalOf.get(url) ?? (contentOriginals.has(url) ? url : undefined);
      /** Members whose canonical names another member of their group: not duplicates, they say which one to take. */
      const namesAnother = new Map<string, Set<string>>();
      for (const [url, canonical] of canonicalOfMember) {
        const group = groupOf(url);
        if (group === undefined || groupOf(canonical) !== group) continue;
        let skipped = namesAnother.get(group);
        if (skipped === undefined) namesAnother.set(group, (skipped = new Set()));
        skipped.add(url);
      }
      for (const original of groups.targets()) {
        const copies = groups.get(original);
        const skipped = namesAnother.get(original) ?? new Set<string>();
        const members = (contentOriginals.has(original) ? [original, ...copies.urls] : copies.urls).filter((url) => !skipped.has(url));
        const total = copies.count + (contentOriginals.has(original) ? 1 : 0) - skipped.size;
        if (total < 2) continue;
        for (const url of members) {
          emit('duplicate-content', url, `same body as ${plural(total - 1, 'other page')}`, { urls: members.filter((other) => other !== url), count: total - 1 });
        }
      }
    },
  };
};


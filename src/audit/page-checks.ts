/**
 * Checks of one row at a time: `slow-response`, `large-page`, `deep-page`,
 * `mixed-content`, `image-missing-alt`; and `duplicate-content` (byte-identical
 * pages that answered 2xx, each member of a group flagged, the original
 * included: scan 1 groups the duplicates by their original, scan 2 reads the
 * originals).
 */
import type { CollectorFactory } from './engine.ts';
import { RelatedIndex } from './engine.ts';
import { PendingFindings, plural, relatedOf } from './pending.ts';
import { isExternalRow, isHtmlPage, isSiteUrlRow, isSuccessStatus } from './row-health.ts';
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
  return {
    wants: (pass) => pass === 1 || (pass === 2 && groups.size > 0),
    see(row, pass) {
      if (pass === 2) {
        if (groups.has(row.url) && isContent(row)) contentOriginals.add(row.url);
        return;
      }
      if (isSiteUrlRow(row) && !isExternalRow(row) && row.responseTimeMs !== null && row.responseTimeMs > thresholds.slowResponseMs) {
        pending.add('slow-response', row.url, `${Math.round(row.responseTimeMs)} ms`);
      }
      if (isContent(row) && row.duplicateOf !== null && row.duplicateOf !== row.url) {
        groups.track(row.duplicateOf);
        groups.add(row.duplicateOf, row.url);
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
      for (const original of groups.targets()) {
        const copies = groups.get(original);
        const members = contentOriginals.has(original) ? [original, ...copies.urls] : copies.urls;
        const total = copies.count + (contentOriginals.has(original) ? 1 : 0);
        if (total < 2) continue;
        for (const url of members) {
          emit('duplicate-content', url, `same body as ${plural(total - 1, 'other page')}`, { urls: members.filter((other) => other !== url), count: total - 1 });
        }
      }
    },
  };
};


/**
 * Checks of one row at a time: `slow-response`, `large-page`, `deep-page`,
 * `mixed-content`, `image-missing-alt`; and `duplicate-content` (byte-identical
 * pages that answered 2xx, each member of a group flagged, the original
 * included, but a member whose canonical names another member: scan 1 groups
 * the duplicates by their original, scan 2 reads the originals).
 */
import { DuplicateJudge } from './duplicate-judgement.ts';
import { RELATED_MAX, type CollectorFactory } from './engine.ts';
import { PendingFindings, plural, relatedOf } from './pending.ts';
import { isExternalRow, isHtmlPage, isSiteUrlRow } from './row-health.ts';

/** The page checks, judging duplicate content in a fresh judge. */
export const pageChecks: CollectorFactory = (thresholds) => pageChecksJudging(new DuplicateJudge())(thresholds);

/**
 * The page checks, judging duplicate content in `duplicates`: the *Duplicate
 * content* report is made from the same judge after the scans (`reports.ts`).
 */
export const pageChecksJudging =
  (duplicates: DuplicateJudge): CollectorFactory =>
  (thresholds) => {
    const pending = new PendingFindings();
    return {
      wants: (pass) => duplicates.wants(pass),
      see(row, pass) {
        duplicates.see(row, pass);
        if (pass !== 1) return;
        if (
          isSiteUrlRow(row) &&
          !isExternalRow(row) &&
          row.responseTimeMs !== null &&
          row.responseTimeMs > thresholds.slowResponseMs
        ) {
          pending.add('slow-response', row.url, `${Math.round(row.responseTimeMs)} ms`);
        }
        if (!isHtmlPage(row)) return;
        if (row.contentLength !== null && row.contentLength > thresholds.largePageBytes)
          pending.add('large-page', row.url, `${Math.round(row.contentLength / 1024)} KiB`);
        if (row.depth > thresholds.deepPageClicks)
          pending.add('deep-page', row.url, `${plural(row.depth, 'click')} from the start`);
        const facts = row.facts ?? null;
        if (facts === null) return;
        if (facts.mixedContent.length > 0)
          pending.add(
            'mixed-content',
            row.url,
            `${plural(facts.mixedContent.length, 'http resource')}`,
            relatedOf(facts.mixedContent),
          );
        if (facts.imagesWithoutAlt.length > 0)
          pending.add(
            'image-missing-alt',
            row.url,
            `${plural(facts.imagesWithoutAlt.length, 'image')} without alt`,
            relatedOf(facts.imagesWithoutAlt),
          );
      },
      finish(emit) {
        pending.emitTo(emit);
        for (const { members } of duplicates.groupsFound()) {
          const urls = members.map((member) => member.url);
          /** Enough members to name {@link RELATED_MAX} others of any one (a group can hold thousands). */
          const named = urls.slice(0, RELATED_MAX + 1);
          for (const url of urls) {
            const others = named.filter((other) => other !== url).slice(0, RELATED_MAX);
            emit('duplicate-content', url, `same body as ${plural(urls.length - 1, 'other page')}`, {
              urls: others,
              count: urls.length - 1,
            });
          }
        }
      },
    };
  };

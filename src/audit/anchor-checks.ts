/**
 * `missing-anchor`: a page links to `#fragment` of a crawled HTML page that
 * has no element with that `id` (or `<a name>`). The issue sits on the
 * linking page.
 *
 * A link to the page itself is judged on the spot (the page holds its own
 * anchors). A link to another page is judged once that page is read: scan 1
 * gathers the fragments asked of each target, scan 2 reads the targets'
 * anchors, and scan 3 (only when some fragment is missing) finds the pages
 * that asked for them. `#top` and an empty fragment always land (the HTML
 * standard scrolls to the top), and so does a fragment of a target that is not
 * a crawled HTML page with its facts (nothing is known of its anchors).
 */
import type { PageRecord } from '../core/model.ts';
import type { CollectorFactory } from './engine.ts';
import { plural, relatedOf } from './pending.ts';
import { isHtmlPage } from './row-health.ts';

/** Fragments that land on any HTML page. */
function alwaysLands(fragment: string): boolean {
  return fragment === '' || fragment.toLowerCase() === 'top';
}

function fragmentLinksOf(row: PageRecord): { url: string; fragment: string }[] {
  return isHtmlPage(row) ? (row.facts?.fragmentLinks ?? []) : [];
}

export const anchorChecks: CollectorFactory = () => {
  /** Fragments asked of each other page, by that page's URL. */
  const asked = new Map<string, Set<string>>();
  /** `url#fragment` of the fragments found missing on their target. */
  const missing = new Set<string>();
  /** Each linking page's links to missing anchors (`url#fragment`), in the order found. */
  const found = new Map<string, string[]>();
  const note = (page: string, link: string): void => {
    const list = found.get(page);
    if (list === undefined) found.set(page, [link]);
    else if (!list.includes(link)) list.push(link);
  };

  return {
    wants: (pass) => pass === 1 || (pass === 2 && asked.size > 0) || (pass === 3 && missing.size > 0),
    see(row, pass) {
      if (pass === 1) {
        const own = new Set(row.facts?.anchorIds ?? []);
        for (const { url, fragment } of fragmentLinksOf(row)) {
          if (alwaysLands(fragment)) continue;
          if (url === row.url) {
            if (!own.has(fragment)) note(row.url, `${url}#${fragment}`);
            continue;
          }
          let fragments = asked.get(url);
          if (fragments === undefined) asked.set(url, (fragments = new Set()));
          fragments.add(fragment);
        }
      } else if (pass === 2) {
        const fragments = asked.get(row.url);
        if (fragments === undefined || !isHtmlPage(row) || row.facts === undefined || row.facts === null) return;
        const anchors = new Set(row.facts.anchorIds);
        for (const fragment of fragments) if (!anchors.has(fragment)) missing.add(`${row.url}#${fragment}`);
      } else {
        for (const { url, fragment } of fragmentLinksOf(row)) {
          const link = `${url}#${fragment}`;
          if (url !== row.url && missing.has(link)) note(row.url, link);
        }
      }
    },
    finish(emit) {
      for (const [page, links] of found) {
        emit(
          'missing-anchor',
          page,
          `${plural(links.length, 'link')} to a missing anchor: ${links.slice(0, 3).join(', ')}${links.length > 3 ? ', …' : ''}`,
          relatedOf(links),
        );
      }
    },
  };
};

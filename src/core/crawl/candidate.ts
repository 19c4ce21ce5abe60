/**
 * A URL found by a step of the crawl, on its way to admission (`frontier-admit.ts`):
 * the type every kind of work (`kinds/`), admission and the not-crawled list
 * share. A leaf: it imports nothing of the crawl core.
 */
import type { EntryKind } from '../model.ts';

/** A URL found somewhere (link, redirect, sitemap, start, a page's resource), already normalized (and in scope, when followed). */
export interface Candidate {
  url: string;
  origin: string;
  kind: EntryKind;
  depth: number;
  referrer: string | null;
  /** Anchor text of the link, or null (redirects, sitemaps, empty text). */
  anchor: string | null;
  /** Found as a followed link of a page (counts as an inlink); false for redirects, sitemaps and the start URL. */
  isLink: boolean;
}

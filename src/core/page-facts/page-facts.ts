/**
 * The facts an SEO audit reads off an HTML page, recorded on its row
 * (`PageRecord.facts`) when the page is read: what the page says about
 * itself (canonical, robots directives, description, headings, language,
 * alternates), what it holds (words, links, images without `alt`, insecure
 * resources) and the anchors other pages' fragment links may point at.
 *
 * Types only here; they are read off the markup by the page reader in the
 * same pass as the links (see `core/links/extract-links.ts`), off the
 * response headers (`X-Robots-Tag`, `Link: rel=canonical`), and judged by
 * `indexability.ts` and the Issues checks (`src/audit/`).
 */

/** One `<link rel="alternate" hreflang>` of a page. */
export interface HreflangAlternate {
  /** The `hreflang` value as written, lower-cased (`en`, `de-at`, `x-default`). */
  lang: string;
  /** Absolute, normalized URL. */
  url: string;
}

/** A link of a page to a fragment of a page of the crawl (`/guide#install`), kept for the missing-anchor check. */
export interface FragmentLink {
  /** The target page's absolute, normalized URL (without the fragment). */
  url: string;
  /** The fragment, without `#`, percent-decoded. */
  fragment: string;
}

/** What an audit reads off one HTML page. */
export interface PageFacts {
  /** The first `<link rel="canonical" href>`, absolute and normalized; null when none. */
  canonical: string | null;
  /** The `Link` response header's `rel="canonical"` target, absolute and normalized; null when none. */
  canonicalHeader: string | null;
  /**
   * Robots directives for every crawler from `<meta name="robots">` and the
   * `X-Robots-Tag` header (no user-agent prefix, or one naming Tabcrawl's
   * product token), lower-cased, distinct, in order: `noindex`, `nofollow`,
   * `none`, `noarchive`, `nosnippet`, `max-snippet:20`…
   */
  robots: string[];
  /** `<meta name="description" content>`, whitespace collapsed; '' when empty; null when absent. */
  description: string | null;
  /** Text of the first `<h1>`, whitespace collapsed (at most 500 chars); null when the page has none. */
  h1: string | null;
  /** Number of `<h1>` elements. */
  h1Count: number;
  /** `<html lang>` as written; null when absent. */
  lang: string | null;
  /** `<link rel="alternate" hreflang>` alternates, in document order, distinct. */
  hreflang: HreflangAlternate[];
  /** Words of the visible text (outside `<script>`, `<style>`, `<noscript>`, `<template>`, `<head>`), split on white space. */
  wordCount: number;
  /** Distinct links to URLs in the crawl's scope. */
  internalLinks: number;
  /** Distinct http(s) links to URLs outside the crawl's scope. */
  outboundLinks: number;
  /** Links that are not http(s) and so are listed, not checked (`mailto:`, `tel:`…), as written, distinct, at most 100. */
  otherLinks: string[];
  /** `<img>` sources (absolute, normalized) with no `alt` attribute at all (`alt=""` marks a decorative image: fine), distinct. */
  imagesWithoutAlt: string[];
  /** `http:` resources an `https:` page loads (mixed content), absolute, distinct. */
  mixedContent: string[];
  /** `id` and `<a name>` values of the page, distinct, at most 5,000: what a fragment link can land on. */
  anchorIds: string[];
  /** The page's links with a fragment, distinct (at most 1,000). */
  fragmentLinks: FragmentLink[];
}

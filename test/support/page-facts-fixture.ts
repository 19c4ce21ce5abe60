/** Page facts for tests: every field at its empty value (no canonical, no directives, no words…), then `overrides`. */
import type { PageFacts } from '../../src/core/page-facts/page-facts.ts';

export function factsOf(overrides: Partial<PageFacts> = {}): PageFacts {
  return {
    canonical: null,
    canonicalHeader: null,
    robots: [],
    description: null,
    h1: null,
    h1Count: 0,
    lang: null,
    hreflang: [],
    wordCount: 0,
    internalLinks: 0,
    outboundLinks: 0,
    otherLinks: [],
    imagesWithoutAlt: [],
    mixedContent: [],
    anchorIds: [],
    fragmentLinks: [],
    ...overrides,
  };
}

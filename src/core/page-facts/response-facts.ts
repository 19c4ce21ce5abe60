/**
 * The facts of {@link PageFacts} that the response headers and the crawl's
 * scope decide, added to what the markup says (`page-facts-reader.ts`):
 * the `Link: <…>; rel="canonical"` header, the `X-Robots-Tag` directives for
 * every crawler or for ours, and the counts of internal and outbound links.
 * Pure; never throws.
 */
import { normalizeUrl } from '../url/normalize-url.ts';
import type { Scope } from '../url/scope.ts';
import { type MarkupFacts, xRobotsDirectives } from './page-facts-reader.ts';
import type { PageFacts } from './page-facts.ts';

/** What besides the markup decides a page's facts. */
export interface ResponseContext {
  /** The page's absolute URL (after redirects): a relative `Link` target resolves against it. */
  pageUrl: string;
  /** Response headers, lower-cased names, in order (a header sent twice is two pairs, or one joined with `, `). */
  headers: readonly (readonly [string, string])[];
  /** The page's distinct http(s) links, absolute and normalized (frames included). */
  links: readonly string[];
  /** The crawl's scope: a link in it is internal, any other http(s) link outbound. */
  scope: Scope;
  /** The crawler's robots.txt product token: `X-Robots-Tag: {token}: …` applies to it. */
  productToken: string;
}

/**
 * A page's facts: the markup's, with the header canonical, the
 * `X-Robots-Tag` directives after the `<meta name="robots">` ones (distinct),
 * and the link counts.
 */
export function pageFactsOf(markup: MarkupFacts, context: ResponseContext): PageFacts {
  const values = (name: string): string[] => context.headers.filter(([n]) => n === name).map(([, value]) => value);
  const robots = [...markup.robots];
  for (const directive of xRobotsDirectives(values('x-robots-tag'), context.productToken)) {
    if (!robots.includes(directive)) robots.push(directive);
  }
  let internalLinks = 0;
  let outboundLinks = 0;
  for (const link of context.links) {
    if (context.scope.check(link).inScope) internalLinks += 1;
    else outboundLinks += 1;
  }
  return {
    ...markup,
    canonicalHeader: linkHeaderCanonical(values('link'), context.pageUrl),
    robots,
    internalLinks,
    outboundLinks,
  };
}

/**
 * The target of the first `rel="canonical"` link of `Link` header values
 * (RFC 8288: `<url>; rel="canonical"`, several links comma-separated, `rel`
 * quoted or not, any case, possibly one of several tokens), resolved against
 * the page URL and normalized; null when none.
 */
export function linkHeaderCanonical(values: readonly string[], pageUrl: string): string | null {
  for (const value of values) {
    // Each link: `<target>` then its `;`-separated parameters, up to the next `,` outside quotes.
    for (const match of value.matchAll(/<([^>]*)>((?:\s*;\s*[^;,=]+(?:=(?:"[^"]*"|[^;,]*))?)*)/g)) {
      const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]*))/i.exec(match[2] ?? '');
      const tokens = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
      if (!tokens.includes('canonical')) continue;
      const url = normalizeUrl(match[1] ?? '', pageUrl);
      if (url !== null) return url;
    }
  }
  return null;
}

/**
 * linkinator (npm), run on a site Tabcrawl crawled, as a second opinion on
 * its broken links: every URL linkinator finds broken must be broken in
 * Tabcrawl's rows too, at the URL or at the end of its redirect chain, or be
 * one that robots.txt kept Tabcrawl from asking for (linkinator does not read
 * robots.txt). Run it after the crawl's server logs were read: it asks the
 * servers for everything, disallowed URLs included.
 */
import { check, LinkState } from 'linkinator';
import type { JsonlRow } from '../../src/export/jsonl.ts';

export interface BrokenComparison {
  /** Broken for linkinator. */
  linkinator: Set<string>;
  /** Broken for Tabcrawl: an error status or a failure. */
  tabcrawl: Set<string>;
  /** Found by linkinator alone, with why (robots.txt, a redirect loop or chain Tabcrawl flags at its end, a link linkinator resolves otherwise than a browser); `null` when unexplained. */
  onlyLinkinator: Map<string, string | null>;
  /** Found by Tabcrawl alone (page resources linkinator does not check, for one). */
  onlyTabcrawl: string[];
}

/** Checks `startUrl` with linkinator (recursing into its site, one request at a time) and compares with Tabcrawl's rows. */
export async function compareWithLinkinator(startUrl: string, rows: readonly JsonlRow[]): Promise<BrokenComparison> {
  const result = await check({ path: startUrl, recurse: true, concurrency: 1, timeout: 10_000 });
  const brokenLinks = result.links.filter((l) => l.state === LinkState.BROKEN);
  const linkinator = new Set(brokenLinks.map((l) => new URL(l.url).href));
  const parentOf = new Map(brokenLinks.map((l) => [new URL(l.url).href, l.parent ?? '?']));
  /** Every URL a crawled row links to, as Tabcrawl resolved it (as a browser does). */
  const linked = new Set(rows.flatMap((r) => r.links));
  const byUrl = new Map(rows.map((r) => [r.url, r]));
  const isBroken = (r: JsonlRow | undefined): boolean =>
    r !== undefined && ((r.status !== null && r.status >= 400) || r.error !== null);
  const tabcrawl = new Set(rows.filter((r) => isBroken(r)).map((r) => r.url));
  /** Where a URL's redirects end in Tabcrawl's rows (linkinator reports the chain on its start). */
  const chainEnd = (url: string): string => {
    let at = url;
    for (let hops = 0; hops < 10; hops++) {
      const next = byUrl.get(at)?.location;
      if (next === null || next === undefined) return at;
      at = next;
    }
    return at;
  };
  const onlyLinkinator = new Map<string, string | null>();
  for (const url of linkinator) {
    if (tabcrawl.has(url)) continue;
    const row = byUrl.get(url);
    if (row?.blockedBy === 'robots')
      onlyLinkinator.set(url, `robots.txt disallows it (${row.blockedRule ?? 'a rule'}): Tabcrawl never asked`);
    else if (row?.issues.includes('redirect-loop') === true)
      onlyLinkinator.set(url, 'Tabcrawl records its redirects and flags the loop (redirect-loop)');
    else if (isBroken(byUrl.get(chainEnd(url))))
      onlyLinkinator.set(url, `Tabcrawl flags the end of its redirects, ${chainEnd(url)}`);
    else if (row === undefined && !linked.has(url))
      onlyLinkinator.set(
        url,
        `no page links to it as a browser resolves links: linkinator resolved a link of ${parentOf.get(url) ?? '?'} to it`,
      );
    else onlyLinkinator.set(url, null);
  }
  const onlyTabcrawl = [...tabcrawl].filter((url) => !linkinator.has(url));
  return { linkinator, tabcrawl, onlyLinkinator, onlyTabcrawl };
}

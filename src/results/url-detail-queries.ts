/**
 * What the URL detail computes from whole rows: the redirect chain through a
 * URL, the pages linking to it and the status of its outgoing links. Each is a
 * small function over a {@link RowReader}: no Preact, no browser APIs.
 */
import type { CrawlRecord, PageRecord } from '../core/model.ts';
import { createScope } from '../core/url/scope.ts';
import { isRedirectStatus } from './format.ts';
import type { RowReader } from './row-reader.ts';

/** One URL of a redirect chain. */
export interface ChainHop {
  url: string;
  /** The URL's row; undefined when the chain leads to a URL that was never recorded. */
  row: PageRecord | undefined;
  /** The URL appeared earlier in the chain: here the chain loops, and stops. */
  isRepeat: boolean;
}

export interface RedirectChain {
  /** In redirect order: the first source first, the final target last. */
  hops: ChainHop[];
  /** Index in {@link hops} of the URL the chain was built for. */
  selfIndex: number;
  /** A URL repeats: the chain is a loop (its repeating hop is marked). */
  hasLoop: boolean;
  /** The chain was cut at the hop limit. */
  isCut: boolean;
}

/** Most redirect hops followed each way. */
export const MAX_REDIRECT_HOPS = 20;

/** Whether `row` is a 3xx answer redirecting to `target`. */
function redirectsTo(row: PageRecord, target: string): boolean {
  return isRedirectStatus(row.status) && row.location === target;
}

/**
 * The redirect chain through `row`.
 *
 * Forward: follows `location` row by row while the answer is a 3xx and the
 * target has a row. Backward: a redirect target is admitted with its source as
 * `referrer`, so the chain walks referrers while the referrer's row is a 3xx
 * whose `location` is the URL (a URL first reached by a link and only later by
 * a redirect shows no source: there is no index on `location`). At most
 * {@link MAX_REDIRECT_HOPS} hops each way; a repeated URL ends the chain and
 * marks the loop.
 */
export async function redirectChain(reader: RowReader, row: PageRecord, maxHops = MAX_REDIRECT_HOPS): Promise<RedirectChain> {
  const seen = new Set<string>([row.url]);
  const before: ChainHop[] = [];
  let hasLoop = false;
  let isCut = false;

  let current = row;
  for (let hops = 0; ; hops += 1) {
    const referrer = current.referrer;
    if (referrer === null) break;
    if (hops >= maxHops) {
      isCut = true;
      break;
    }
    const source = await reader.getRow(row.crawlId, referrer);
    if (source === undefined || !redirectsTo(source, current.url)) break;
    if (seen.has(source.url)) {
      // The loop shows once, from the forward walk; the backward walk just stops.
      hasLoop = true;
      break;
    }
    seen.add(source.url);
    before.unshift({ url: source.url, row: source, isRepeat: false });
    current = source;
  }

  const after: ChainHop[] = [];
  const forwardSeen = new Set<string>([row.url, ...before.map((hop) => hop.url)]);
  current = row;
  for (let hops = 0; isRedirectStatus(current.status) && current.location !== null; hops += 1) {
    if (hops >= maxHops) {
      isCut = true;
      break;
    }
    const target = current.location;
    if (forwardSeen.has(target)) {
      hasLoop = true;
      after.push({ url: target, row: await reader.getRow(row.crawlId, target), isRepeat: true });
      break;
    }
    forwardSeen.add(target);
    const targetRow = await reader.getRow(row.crawlId, target);
    after.push({ url: target, row: targetRow, isRepeat: false });
    if (targetRow === undefined) break;
    current = targetRow;
  }

  return {
    hops: [...before, { url: row.url, row, isRepeat: false }, ...after],
    selfIndex: before.length,
    hasLoop,
    isCut,
  };
}

/** A page linking to the URL. */
export interface Inlink {
  url: string;
  title: string | null;
  /** Anchor text of that page's first link to the URL ("" when it had none). */
  anchorText: string;
}

export interface InlinkScan {
  inlinks: Inlink[];
  /** The scan stopped at `maxMatches`: there may be more. */
  isCapped: boolean;
  /** Rows looked at. */
  scannedRows: number;
}

export interface InlinkScanOptions {
  /** Rows read per step. @default 500 */
  pageSize?: number;
  /** Matches after which the scan stops. @default 200 */
  maxMatches?: number;
  /** Stops the scan (it then rejects with the signal's reason). */
  signal?: AbortSignal;
  /** Called after every step with the matches so far. */
  onProgress?: (scan: InlinkScan) => void;
}

/**
 * The rows whose `links` contain `url`, in `seq` order. There is no index on
 * links: this scans the crawl table in `seq` order, `pageSize` rows a step,
 * and stops at `maxMatches`.
 */
export async function findInlinks(reader: RowReader, crawlId: string, url: string, options: InlinkScanOptions = {}): Promise<InlinkScan> {
  const pageSize = options.pageSize ?? 500;
  const maxMatches = options.maxMatches ?? 200;
  const inlinks: Inlink[] = [];
  let scannedRows = 0;
  let afterSeq = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const rows = await reader.rowsAfter(crawlId, afterSeq, pageSize);
    options.signal?.throwIfAborted();
    for (const row of rows) {
      scannedRows += 1;
      const index = row.links.indexOf(url);
      if (index < 0) continue;
      inlinks.push({ url: row.url, title: row.title, anchorText: row.linkTexts[index] ?? '' });
      if (inlinks.length >= maxMatches) return { inlinks, isCapped: true, scannedRows };
    }
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < pageSize) return { inlinks, isCapped: false, scannedRows };
    afterSeq = last.seq;
    options.onProgress?.({ inlinks: [...inlinks], isCapped: false, scannedRows });
  }
}

/** One outgoing link of a page and what became of it. */
export interface Outlink {
  url: string;
  anchorText: string;
  /** Its row when it was crawled (or blocked). */
  row: PageRecord | undefined;
  /** Why it has no row; null when it has one. */
  notCrawledReason: string | null;
}

/** Why a link the scope refuses for its scheme was not crawled: not a web link (`mailto:`), or the start site over another scheme. */
function schemeReason(startUrl: string, url: string): string {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return 'not a valid URL';
  }
  if (protocol !== 'http:' && protocol !== 'https:') return `not a web link (${protocol})`;
  const startProtocol = new URL(startUrl).protocol.replace(/:$/, '');
  return `out of scope (${protocol.replace(/:$/, '')}, the crawl is of ${startProtocol})`;
}

/** Why a linked URL without a row was not crawled, from the crawl's settings. */
export function notCrawledReason(crawl: CrawlRecord | undefined, source: PageRecord, url: string): string {
  if (crawl === undefined) return 'not crawled';
  const verdict = createScope(crawl.settings).check(url);
  if (!verdict.inScope) {
    switch (verdict.reason) {
      case 'scheme':
        return schemeReason(crawl.settings.startUrl, url);
      case 'host':
        return 'another site: not crawled';
      case 'prefix':
        return 'out of scope (path prefix)';
      case 'excluded':
        return verdict.pattern === undefined ? 'out of scope (excluded)' : `out of scope (excluded by ${verdict.pattern})`;
    }
  }
  if (source.depth + 1 > crawl.settings.maxDepth) return 'not queued (beyond max depth)';
  if (crawl.state === 'running') return 'not crawled yet';
  return 'not queued (page budget spent or crawl ended)';
}

/** The links of `row` in document order, each with its row or why it has none. */
export async function outlinks(reader: RowReader, crawl: CrawlRecord | undefined, row: PageRecord): Promise<Outlink[]> {
  const rows = await reader.getRows(row.crawlId, row.links);
  return row.links.map((url, index) => {
    const target = rows[index];
    return {
      url,
      anchorText: row.linkTexts[index] ?? '',
      row: target,
      notCrawledReason: target === undefined ? notCrawledReason(crawl, row, url) : null,
    };
  });
}

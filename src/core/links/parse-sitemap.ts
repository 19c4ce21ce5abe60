/**
 * Sitemaps (https://www.sitemaps.org/protocol.html): the page URLs of a
 * `<urlset>` and the child sitemaps of a `<sitemapindex>`.
 *
 * Pure: htmlparser2 in XML mode and web streams, so it runs in a service
 * worker and in Node. Forgiving: garbage never throws, it just yields fewer URLs.
 */
import { type Handler, Parser } from 'htmlparser2';
import { normalizeUrl } from '../url/normalize-url.ts';

/** Most URLs (and, separately, most sitemaps) taken from one file: the protocol's own limit per file. */
export const MAX_SITEMAP_ENTRIES = 50_000;

/** What one sitemap file lists. */
export interface SitemapEntries {
  /** Page URLs from `<urlset><url><loc>`, normalized, in document order, duplicates kept. */
  urls: string[];
  /** Child sitemap URLs from `<sitemapindex><sitemap><loc>`, normalized, in document order. */
  sitemaps: string[];
}

/**
 * Reads the `<loc>` of every `<url>` and `<sitemap>` of a sitemap file.
 * Element names are matched without their namespace prefix (`<sm:loc>`) and
 * case; only a `<loc>` directly inside `<url>` or `<sitemap>` counts, so
 * extension elements such as `<image:image><image:loc>` are ignored. Each
 * loc is trimmed, entity-decoded (CDATA works too) and normalized relative to
 * the sitemap's URL; empty, invalid and non-http(s) locs are dropped. At most
 * {@link MAX_SITEMAP_ENTRIES} of each kind are kept.
 *
 * @param xml the sitemap text (see {@link sitemapText}).
 * @param sitemapUrl the sitemap's absolute URL.
 */
export function parseSitemap(xml: string, sitemapUrl: string): SitemapEntries {
  const reader = new SitemapReader(sitemapUrl);
  new Parser(reader, { xmlMode: true }).end(xml);
  return { urls: reader.urls, sitemaps: reader.sitemaps };
}

/** htmlparser2 callbacks that collect the locs of a sitemap in one pass. */
class SitemapReader implements Partial<Handler> {
  readonly urls: string[] = [];
  readonly sitemaps: string[] = [];
  /** Local names of the open elements; htmlparser2 balances open and close events. */
  private readonly stack: string[] = [];
  /** Text of the `<loc>` being read, or null outside one. */
  private loc: string | null = null;

  /** Base for relative locs (the protocol wants absolute ones; some sites differ). */
  private readonly sitemapUrl: string;

  constructor(sitemapUrl: string) {
    this.sitemapUrl = sitemapUrl;
  }

  onopentag(name: string): void {
    const local = localName(name);
    if (local === 'loc' && this.loc === null) this.loc = '';
    this.stack.push(local);
  }

  ontext(text: string): void {
    if (this.loc !== null) this.loc += text;
  }

  onclosetag(): void {
    const local = this.stack.pop();
    if (local !== 'loc' || this.loc === null) return;
    const parent = this.stack[this.stack.length - 1];
    const loc = this.loc.trim();
    this.loc = null;
    // An empty loc would resolve to the sitemap itself.
    const url = loc === '' ? null : normalizeUrl(loc, this.sitemapUrl);
    if (url === null) return;
    if (parent === 'url' && this.urls.length < MAX_SITEMAP_ENTRIES) this.urls.push(url);
    else if (parent === 'sitemap' && this.sitemaps.length < MAX_SITEMAP_ENTRIES) this.sitemaps.push(url);
  }
}

/** `sm:Loc` → `loc`. */
function localName(name: string): string {
  return name.slice(name.lastIndexOf(':') + 1).toLowerCase();
}

/**
 * The text of a sitemap body: gunzipped when it starts with the gzip magic
 * bytes (`1f 8b`; `.xml.gz` files are served as gzip data, not with a
 * `Content-Encoding` the fetch would undo), then decoded as UTF-8 (the
 * protocol's only encoding; invalid bytes become U+FFFD, a BOM is dropped).
 *
 * @param bytes the response body.
 * @throws (rejects) when the gzip data is corrupt or truncated: a TypeError
 *   in browsers, a zlib `Error` in Node.
 */
export async function sitemapText(bytes: Uint8Array): Promise<string> {
  const decoder = new TextDecoder('utf-8', { fatal: false });
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return decoder.decode(bytes);
  // A copy: the stream wants bytes backed by a plain ArrayBuffer (not a SharedArrayBuffer).
  const chunk = new Uint8Array(bytes);
  const compressed = new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      controller.enqueue(chunk);
      controller.close();
    },
  });
  const gunzipped = await new Response(compressed.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
  return decoder.decode(gunzipped);
}

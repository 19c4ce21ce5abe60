/**
 * The sites `npm run bench` crawls, served on 127.0.0.1 by `startLocalSite`
 * (which logs every request with its times, the figures' source of truth).
 *
 * A generated site of `pages` pages: `/` and `/page/1` … `/page/<pages-1>`,
 * each about 8 KB of HTML with a dozen links (the next page, so every page is
 * reachable, and 11 spread over the site). Every 50th page also links to a
 * `/private/` URL that robots.txt disallows, so both crawlers show they obey
 * it: no `/private/` request may reach the server.
 *
 * With `resources`, each page also uses what a real page loads to display
 * (see {@link SHARED_RESOURCES}), all on the page's own host: a stylesheet
 * that `@import`s another and loads a font and a background image with
 * `url()`, a script, two images shared by every page, and an image of its
 * own (`/img/<n>.png`); every 50th page links to a PDF (`/files/report-<n>.pdf`),
 * and the pages that link into `/private/` also use an image there (a
 * resource robots.txt disallows: it must never be requested either).
 *
 * Part 1's pages also link to another host ({@link startOutboundSite}): one of
 * 100 URLs each, which Tabcrawl checks in the same crawl as it does by default.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLocalSite, type LocalSite, type Route } from '../../src/shells/cli/local-site.ts';
import { firstArrivals, servedCounts, type LoggedRequest, type ServedCounts } from './bench-stats.ts';
import { linksOf } from './generated-site.ts';

const FILLER = 'Tabcrawl benchmark page, generated text for weight. '.repeat(145); // ~7.5 KB

/** The path of page `n`: `/` for 0. */
export function pagePath(n: number): string {
  return n === 0 ? '/' : `/page/${n}`;
}

/** The path of page `n`'s own image (sites with resources). */
export function pageImagePath(n: number): string {
  return `/img/${n}.png`;
}

/** The PDF page `n` links to, or null: every 50th page, from page 10 on (so that a 30-page smoke site has one). */
export function linkedFilePath(n: number): string | null {
  return n % 50 === 10 ? `/files/report-${n}.pdf` : null;
}

/** The disallowed image page `n` uses, or null: the pages that link into `/private/` (every 50th). */
export function privateResourcePath(n: number): string | null {
  return n % 50 === 49 ? `/private/pixel-${n}.gif` : null;
}

/**
 * Distinct links to another host (part 1's outbound site, see {@link startOutboundSite}): the default
 * `maxExternalPerHost`, so that a crawl checks every one of them.
 */
export const OUTBOUND_URLS = 100;

/** The path on the outbound site that page `n` links to: `/out/<n mod 100>`. */
export function outboundPath(n: number): string {
  return `/out/${n % OUTBOUND_URLS}`;
}

/** Whether an outbound path is a broken link (a 404): one in ten. */
const isBrokenOutbound = (k: number): boolean => k % 10 === 9;

/** Bytes of page `n`'s own image, and of each linked PDF. */
export const PAGE_IMAGE_BYTES = 12 * 1024;
export const LINKED_FILE_BYTES = 100 * 1024;

/**
 * `length` bytes that start with `magic` and go on with pseudo-random ones from `seed` (xorshift32):
 * deterministic, distinct per seed, and as incompressible as a real image or font.
 */
export function noiseBytes(length: number, seed: number, magic: readonly number[] = []): Uint8Array {
  const bytes = new Uint8Array(length);
  bytes.set(magic.slice(0, length));
  let state = (seed * 2_654_435_761 + 1) >>> 0 || 1;
  for (let i = Math.min(magic.length, length); i < length; i++) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff, 0xe0];
const WOFF2 = [0x77, 0x4f, 0x46, 0x32];
const GIF = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61];
const PDF = [...Buffer.from('%PDF-1.4\n')];

/** A shared resource: its body and `Content-Type`. */
export interface BenchResource {
  contentType: string;
  body: string | Uint8Array;
}

/**
 * The resources every page of a site with resources uses, by path: the two the page names in its head
 * (the stylesheet and the script), the two images in its body, and what the stylesheet loads (an
 * imported stylesheet, a font, a background image). Seven URLs, fetched once per crawl however many
 * pages use them.
 */
export const SHARED_RESOURCES: Readonly<Record<string, BenchResource>> = Object.freeze({
  '/res/site.css': {
    contentType: 'text/css; charset=utf-8',
    body:
      `@import url("/res/base.css");\n` +
      `@font-face { font-family: "Bench"; src: url("/res/font.woff2") format("woff2"); }\n` +
      `body { font-family: "Bench", sans-serif; background: #fff url("/res/bg.png") repeat-x; }\n` +
      '.nav li { display: inline-block; margin: 0 0.5em; }\n'.repeat(80),
  },
  '/res/base.css': {
    contentType: 'text/css; charset=utf-8',
    body: 'html { box-sizing: border-box; }\n*, *::before, *::after { box-sizing: inherit; }\n'.repeat(20),
  },
  '/res/font.woff2': { contentType: 'font/woff2', body: noiseBytes(24 * 1024, 1, WOFF2) },
  '/res/bg.png': { contentType: 'image/png', body: noiseBytes(4 * 1024, 2, PNG) },
  '/res/app.js': {
    contentType: 'text/javascript; charset=utf-8',
    body: 'document.documentElement.dataset.bench = "1"; // a script every page loads\n'.repeat(300),
  },
  '/res/logo.png': { contentType: 'image/png', body: noiseBytes(6 * 1024, 3, PNG) },
  '/res/banner.jpg': { contentType: 'image/jpeg', body: noiseBytes(30 * 1024, 4, JPEG) },
});

/** What a path of a bench site is: what the server logs are counted by. */
export type RequestKind = 'robots' | 'page' | 'resource' | 'file' | 'disallowed' | 'other';

/**
 * The kind of a requested path (and query) of a bench site: robots.txt; a page (`/`, `/page/<n>`); a page
 * resource (`/res/…`, `/img/…`); a linked file (`/files/…`); anything under `/private/` (disallowed by
 * robots.txt, never to be requested); anything else.
 */
export function requestKind(path: string): RequestKind {
  if (path === '/robots.txt') return 'robots';
  if (path === '/' || /^\/page\/\d+$/.test(path)) return 'page';
  if (path.startsWith('/res/') || path.startsWith('/img/')) return 'resource';
  if (path.startsWith('/files/')) return 'file';
  if (path.startsWith('/private/')) return 'disallowed';
  return 'other';
}

/** The kinds a bench's figures count (robots.txt and other paths are counted in the requests only). */
export const SERVED_KINDS = ['page', 'resource', 'file', 'disallowed'] as const;

/** What bench sites served: every request, distinct paths by kind, repeats. */
export type Served = ServedCounts<(typeof SERVED_KINDS)[number]>;

/** Counts the request logs of bench sites, each site apart (`/` on two sites is two URLs), summed. */
export function countServed(logs: readonly (readonly LoggedRequest[])[]): Served {
  const total: Served = { requests: 0, distinct: { page: 0, resource: 0, file: 0, disallowed: 0 }, repeated: 0 };
  for (const log of logs) {
    const one = servedCounts(log, SERVED_KINDS, requestKind);
    total.requests += one.requests;
    total.repeated += one.repeated;
    for (const kind of SERVED_KINDS) total.distinct[kind] += one.distinct[kind];
  }
  return total;
}

/** When each page of bench sites was first requested, in ms, sorted: every site's log apart (`/` on two sites is two pages), merged. */
export function pageArrivals(logs: readonly (readonly LoggedRequest[])[]): number[] {
  return logs.flatMap((log) => firstArrivals(log, (path) => requestKind(path) === 'page')).sort((a, b) => a - b);
}

export interface PageHtmlOptions {
  /** Absolute URLs linked after the page's own links. */
  extraLinks?: readonly string[];
  /**
   * Names the site in the text: pages of two sites must differ, since Tabcrawl does not read the
   * links of a page whose body it has already stored (`duplicateOf`), whatever its URL.
   */
  site?: string;
  /** Use the shared resources and an image of its own, link a PDF (every 50th page), as a site with resources serves. */
  resources?: boolean;
}

/** The HTML of page `n` of a site of `pages` pages. */
export function pageHtml(n: number, pages: number, options: PageHtmlOptions = {}): string {
  const { extraLinks = [], site = '', resources = false } = options;
  const links = linksOf(n, pages).map((target) => pagePath(target));
  if (n % 50 === 49) links.push(`/private/${n}`);
  const file = resources ? linkedFilePath(n) : null;
  if (file !== null) links.push(file);
  const items = [...links, ...extraLinks].map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  if (!resources) {
    return `<!doctype html><html><head><meta charset="utf-8"><title>${site}Page ${n}</title></head><body><h1>${site}Page ${n}</h1><ul>${items}</ul><p>${FILLER}</p></body></html>`;
  }
  const hidden = privateResourcePath(n);
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${site}Page ${n}</title>` +
    '<link rel="stylesheet" href="/res/site.css"><script src="/res/app.js" defer></script></head>' +
    `<body><header><img src="/res/logo.png" alt="Bench" width="120" height="40"><h1>${site}Page ${n}</h1></header>` +
    `<img src="/res/banner.jpg" alt="" width="960" height="200"><ul class="nav">${items}</ul>` +
    `<figure><img src="${pageImagePath(n)}" alt="Figure ${n}" width="320" height="240"></figure>` +
    `${hidden === null ? '' : `<img src="${hidden}" alt="" width="1" height="1">`}<p>${FILLER}</p></body></html>`
  );
}

/** The robots.txt of every bench site: `/private/` is off limits; `crawlDelaySeconds` when given. */
export function robotsTxt(crawlDelaySeconds: number | null): string {
  return `User-agent: *\nDisallow: /private/\n${crawlDelaySeconds === null ? '' : `Crawl-delay: ${crawlDelaySeconds}\n`}`;
}

/** The page number of a path of the generated site, or null (404). */
function pageNumber(path: string, pages: number): number | null {
  if (path === '/') return 0;
  const match = /^\/page\/(\d+)$/.exec(path);
  const n = match === null ? Number.NaN : Number(match[1]);
  return Number.isInteger(n) && n > 0 && n < pages ? n : null;
}

/** The number in a per-page path (`/img/<n>.png`, `/files/report-<n>.pdf`) when it names one of the site's, else null (404). */
function numberedPath(path: string, pattern: RegExp, pages: number, exists: (n: number) => boolean): number | null {
  const match = pattern.exec(path);
  const n = match === null ? Number.NaN : Number(match[1]);
  return Number.isInteger(n) && n >= 0 && n < pages && exists(n) ? n : null;
}

/** Sends `body` with its type and length (none for HEAD). */
function send(req: IncomingMessage, res: ServerResponse, contentType: string, body: string | Uint8Array): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(200, { 'content-type': contentType, 'content-length': String(bytes.byteLength) });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/**
 * Serves a generated site of `pages` pages.
 * @param options.crawlDelaySeconds the robots.txt `Crawl-delay`, or none.
 * @param options.rootLinks absolute URLs `/` links to as well, read on each request (so they may name sites started later).
 * @param options.name shown in every page's title and heading, so that two sites never serve the same bytes.
 * @param options.resources pages use page resources and link PDFs (see the module's comment), all served here.
 * @param options.outboundOrigin each page also links to one URL of this other site ({@link outboundPath}).
 */
export function startBenchSite(
  pages: number,
  options: {
    crawlDelaySeconds?: number | null;
    rootLinks?: () => readonly string[];
    name?: string;
    resources?: boolean;
    outboundOrigin?: string;
  } = {},
): Promise<LocalSite> {
  const robots = robotsTxt(options.crawlDelaySeconds ?? null);
  const resources = options.resources === true;
  const routes: [string | ((path: string) => boolean), Route][] = [
    ['/robots.txt', { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: robots }],
    [
      (path: string) => pageNumber(path, pages) !== null,
      (req, res) => {
        const n = pageNumber(req.url ?? '', pages) ?? 0;
        const extraLinks = [
          ...(n === 0 ? (options.rootLinks?.() ?? []) : []),
          ...(options.outboundOrigin === undefined ? [] : [`${options.outboundOrigin}${outboundPath(n)}`]),
        ];
        send(
          req,
          res,
          'text/html; charset=utf-8',
          pageHtml(n, pages, { extraLinks, site: options.name === undefined ? '' : `${options.name}, `, resources }),
        );
      },
    ],
  ];
  if (resources) {
    for (const [path, resource] of Object.entries(SHARED_RESOURCES))
      routes.push([path, { headers: { 'content-type': resource.contentType }, body: resource.body }]);
    const image = /^\/img\/(\d+)\.png$/;
    const file = /^\/files\/report-(\d+)\.pdf$/;
    routes.push([
      (path) => numberedPath(path, image, pages, () => true) !== null,
      (req, res) =>
        send(
          req,
          res,
          'image/png',
          noiseBytes(PAGE_IMAGE_BYTES, 1000 + (numberedPath(req.url ?? '', image, pages, () => true) ?? 0), PNG),
        ),
    ]);
    routes.push([
      (path) => numberedPath(path, file, pages, (n) => linkedFilePath(n) !== null) !== null,
      (req, res) =>
        send(
          req,
          res,
          'application/pdf',
          noiseBytes(LINKED_FILE_BYTES, 500_000 + (numberedPath(req.url ?? '', file, pages, () => true) ?? 0), PDF),
        ),
    ]);
    // Disallowed by robots.txt: served, so that a request would show in the log as a request, not a 404.
    routes.push([
      (path) => path.startsWith('/private/pixel-'),
      { headers: { 'content-type': 'image/gif' }, body: noiseBytes(43, 5, GIF) },
    ]);
  }
  return startLocalSite(routes);
}

/**
 * Part 1's other host: the site its pages link out to, {@link OUTBOUND_URLS} URLs `/out/<k>`, small
 * HTML pages, one in ten a 404 (a broken link to find). Its robots.txt is the bench sites' own.
 */
export function startOutboundSite(): Promise<LocalSite> {
  const path = /^\/out\/(\d+)$/;
  return startLocalSite([
    ['/robots.txt', { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: robotsTxt(null) }],
    [
      (p) => path.test(p),
      (req, res) => {
        const k = Number(path.exec(req.url ?? '')?.[1]);
        if (!(k < OUTBOUND_URLS) || isBrokenOutbound(k)) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end(req.method === 'HEAD' ? undefined : 'not found');
          return;
        }
        send(
          req,
          res,
          'text/html; charset=utf-8',
          `<!doctype html><title>Elsewhere ${k}</title><p>A page of another site.</p>`,
        );
      },
    ],
  ]);
}

/** What part 1's outbound site was asked: distinct `/out/` URLs, every request, and robots.txt first and once. */
export function outboundServed(site: LocalSite): {
  checked: number;
  requests: number;
  robotsFirst: boolean;
  robotsCount: number;
} {
  const paths = new Set(site.requests.map((r) => r.url).filter((url) => url.startsWith('/out/')));
  const ordered = [...site.requests].sort((a, b) => a.startedAt - b.startedAt);
  return {
    checked: paths.size,
    requests: site.requests.length,
    robotsFirst: ordered.length === 0 || ordered[0]?.url === '/robots.txt',
    robotsCount: site.requests.filter((r) => r.url === '/robots.txt').length,
  };
}

/** How many distinct outbound links a site of `pages` pages has. */
export const outboundLinksOf = (pages: number): number => Math.min(pages, OUTBOUND_URLS);

/**
 * What a site with resources of `pages` pages holds: the URLs a crawl that archives everything requests
 * (robots.txt left out), by kind, and the disallowed resources it must not request.
 */
export function resourceSiteCounts(pages: number): {
  pages: number;
  resources: number;
  files: number;
  disallowedResources: number;
} {
  let files = 0;
  let disallowedResources = 0;
  for (let n = 0; n < pages; n++) {
    if (linkedFilePath(n) !== null) files += 1;
    if (privateResourcePath(n) !== null) disallowedResources += 1;
  }
  return { pages, resources: Object.keys(SHARED_RESOURCES).length + pages, files, disallowedResources };
}

/**
 * Part 2's sites: `hosts` generated sites of `pagesEach` pages on as many
 * ports, each with `Crawl-delay: crawlDelaySeconds`. The first one's `/` is
 * the start page: it also links to every other site's `/`. With `resources`,
 * each site serves its pages' resources itself, so they are requests to the
 * same host, under the same Crawl-delay.
 */
export async function startPolitenessSites(
  hosts: number,
  pagesEach: number,
  crawlDelaySeconds: number,
  resources = false,
): Promise<LocalSite[]> {
  const sites: LocalSite[] = [];
  try {
    for (let i = 0; i < hosts; i++) {
      const rootLinks = i === 0 ? () => sites.slice(1).map((site) => `${site.origin}/`) : undefined;
      sites.push(
        await startBenchSite(pagesEach, {
          crawlDelaySeconds,
          name: `Site ${i + 1}`,
          resources,
          ...(rootLinks === undefined ? {} : { rootLinks }),
        }),
      );
    }
    return sites;
  } catch (error) {
    await Promise.all(sites.map((site) => site.close()));
    throw error;
  }
}

/**
 * The client-rendered site of the bench's rendered part (issue 29), on one
 * local host: `/` and `/page/1` … `/page/<n-1>` are shells whose script
 * (`BENCH_APP_JS`) fetches the page's `/data/<k>.json` and writes its title,
 * h1, text and a dozen links (the next page, so every page is reachable, and
 * 11 spread over the site) into the DOM. Without running scripts a crawler
 * finds `/` and nothing else.
 *
 * Every page's script also asks for `/track?page=<k>`, which robots.txt
 * disallows: a polite renderer never lets it reach the server, an impolite
 * one makes one such request a page. The request log counts both.
 */
import { linksOf } from '../bench/generated-site.ts';
import { startLocalSite, type LocalSite, type RequestLogEntry } from '../../src/shells/cli/local-site.ts';
import { BENCH_APP_JS, shellHtml } from './rendered-site-app.ts';

/** ~2 KB of text a page's JSON carries, so that rendering has something to lay out. */
const FILLER = 'Tabcrawl rendered benchmark page, text written by its script. '.repeat(32);

/** The path of page `k`: `/` for 0. */
export const renderedBenchPath = (k: number): string => (k === 0 ? '/' : `/page/${k}`);

/** What a path of the rendered bench site is, for counting its request log. */
export type RenderedBenchKind = 'robots' | 'page' | 'script' | 'data' | 'disallowed' | 'other';

/** The kind of a requested path (and query) of the rendered bench site. */
export function renderedBenchKind(path: string): RenderedBenchKind {
  if (path === '/robots.txt') return 'robots';
  if (path === '/' || /^\/page\/\d+$/.test(path)) return 'page';
  if (path === '/app.js') return 'script';
  if (/^\/data\/\d+\.json$/.test(path)) return 'data';
  if (path.startsWith('/track')) return 'disallowed';
  return 'other';
}

/** The JSON page `k` of `pages` reads: its title, text and links. */
export function renderedBenchData(k: number, pages: number): { title: string; text: string; links: string[] } {
  return {
    title: `Rendered page ${k}`,
    text: `Page ${k} of ${pages}. ${FILLER}`,
    links: linksOf(k, pages).map(renderedBenchPath),
  };
}

export interface RenderedBenchSite {
  readonly site: LocalSite;
  /** `${site.origin}/`. */
  readonly startUrl: string;
  /** Pages of the site (shells): `/` and `/page/1` … `/page/<pages-1>`. */
  readonly pages: number;
  /** The logged requests robots.txt disallows (`/track…`): a polite crawler leaves this empty. */
  disallowedRequests(): RequestLogEntry[];
  /** Distinct pages of the site requested so far (from the log; a 404 is not a page). */
  pagesServed(): number;
  close(): Promise<void>;
}

/** The page number of a shell or data path, or null (404). */
function numberOf(path: string, pattern: RegExp, pages: number): number | null {
  const match = pattern.exec(path);
  const k = match === null ? Number.NaN : Number(match[1]);
  return Number.isInteger(k) && k >= 0 && k < pages ? k : null;
}

/** Serves a client-rendered site of `pages` pages (at least 2) on 127.0.0.1 for the bench. */
export async function generateRenderedBench(pages: number): Promise<RenderedBenchSite> {
  if (!Number.isInteger(pages) || pages < 2) throw new RangeError(`a rendered bench site needs 2 pages or more`);
  const site = await startLocalSite([
    ['/robots.txt', { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /track\n' }],
    ['/app.js', { headers: { 'content-type': 'text/javascript; charset=utf-8' }, body: BENCH_APP_JS }],
    [
      (path) => renderedBenchKind(path) === 'page',
      (req, res) => {
        const k = req.url === '/' ? 0 : numberOf(req.url ?? '', /^\/page\/(\d+)$/, pages);
        if (k === null || (k === 0 && req.url !== '/')) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
          return;
        }
        const body = shellHtml(String(k));
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
    ],
    [
      (path) => renderedBenchKind(path) === 'data',
      (req, res) => {
        const k = numberOf(req.url ?? '', /^\/data\/(\d+)\.json$/, pages);
        if (k === null) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
          return;
        }
        const body = JSON.stringify(renderedBenchData(k, pages));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
    ],
    [(path) => path.startsWith('/track'), { status: 204 }],
  ]);
  return {
    site,
    startUrl: `${site.origin}/`,
    pages,
    disallowedRequests: () => site.requests.filter((r) => renderedBenchKind(r.url) === 'disallowed'),
    pagesServed: () =>
      new Set(
        site.requests
          .filter((r) => r.url === '/' || numberOf(r.url, /^\/page\/(\d+)$/, pages) !== null)
          .map((r) => r.url),
      ).size,
    close: () => site.close(),
  };
}

/**
 * The sites `npm run bench` crawls, served on 127.0.0.1 by `startLocalSite`
 * (which logs every request with its times, the figures' source of truth).
 *
 * A generated site of `pages` pages: `/` and `/page/1` … `/page/<pages-1>`,
 * each about 8 KB of HTML with a dozen links (the next page, so every page is
 * reachable, and 11 spread over the site). Every 50th page also links to a
 * `/private/` URL that robots.txt disallows, so both crawlers show they obey
 * it: no `/private/` request may reach the server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLocalSite, type LocalSite } from '../../src/shells/cli/local-site.ts';
import { linksOf } from './generated-site.ts';

const FILLER = 'Tabcrawl benchmark page, generated text for weight. '.repeat(145); // ~7.5 KB

/** The path of page `n`: `/` for 0. */
export function pagePath(n: number): string {
  return n === 0 ? '/' : `/page/${n}`;
}

/**
 * The HTML of page `n` of a site of `pages` pages, with `extraLinks` (absolute URLs) after its own.
 * `site` names the site in the text: pages of two sites must differ, since Tabcrawl does not read the
 * links of a page whose body it has already stored (`duplicateOf`), whatever its URL.
 */
export function pageHtml(n: number, pages: number, extraLinks: readonly string[] = [], site = ''): string {
  const links = linksOf(n, pages).map((target) => pagePath(target));
  if (n % 50 === 49) links.push(`/private/${n}`);
  const items = [...links, ...extraLinks].map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${site}Page ${n}</title></head><body><h1>${site}Page ${n}</h1><ul>${items}</ul><p>${FILLER}</p></body></html>`;
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

/**
 * Serves a generated site of `pages` pages.
 * @param options.crawlDelaySeconds the robots.txt `Crawl-delay`, or none.
 * @param options.rootLinks absolute URLs `/` links to as well, read on each request (so they may name sites started later).
 * @param options.name shown in every page's title and heading, so that two sites never serve the same bytes.
 */
export function startBenchSite(
  pages: number,
  options: { crawlDelaySeconds?: number | null; rootLinks?: () => readonly string[]; name?: string } = {},
): Promise<LocalSite> {
  const robots = robotsTxt(options.crawlDelaySeconds ?? null);
  return startLocalSite([
    ['/robots.txt', { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: robots }],
    [
      (path: string) => pageNumber(path, pages) !== null,
      (req: IncomingMessage, res: ServerResponse) => {
        const n = pageNumber(req.url ?? '', pages) ?? 0;
        const body = pageHtml(n, pages, n === 0 ? (options.rootLinks?.() ?? []) : [], options.name === undefined ? '' : `${options.name}, `);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
    ],
  ]);
}

/**
 * Part 2's sites: `hosts` generated sites of `pagesEach` pages on as many
 * ports, each with `Crawl-delay: crawlDelaySeconds`. The first one's `/` is
 * the start page: it also links to every other site's `/`.
 */
export async function startPolitenessSites(hosts: number, pagesEach: number, crawlDelaySeconds: number): Promise<LocalSite[]> {
  const sites: LocalSite[] = [];
  try {
    for (let i = 0; i < hosts; i++) {
      const rootLinks = i === 0 ? () => sites.slice(1).map((site) => `${site.origin}/`) : undefined;
      sites.push(await startBenchSite(pagesEach, { crawlDelaySeconds, name: `Site ${i + 1}`, ...(rootLinks === undefined ? {} : { rootLinks }) }));
    }
    return sites;
  } catch (error) {
    await Promise.all(sites.map((site) => site.close()));
    throw error;
  }
}

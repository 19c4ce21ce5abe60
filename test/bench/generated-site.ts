/**
 * A generated site for benchmarks: `pages` HTML pages of about 8 KB, each
 * linking to a dozen others, all reachable from `/`, served on 127.0.0.1.
 */
import { startLocalSite, type LocalSite } from '../../src/shells/cli/local-site.ts';

const FILLER = 'Tabcrawl benchmark page. '.repeat(300); // ~7.5 KB of text

/** The links of page `n` (0-based) in a site of `pages` pages: the next page plus 11 spread over the site. */
export function linksOf(n: number, pages: number): number[] {
  const links = [(n + 1) % pages];
  for (let k = 1; links.length < 12 && k < 40; k += 1) {
    const target = (n * 7 + k * 131) % pages;
    if (target !== n && !links.includes(target)) links.push(target);
  }
  return links;
}

function pageHtml(n: number, pages: number): string {
  const links = linksOf(n, pages)
    .map((t) => `<li><a href="/page/${t}">Page ${t}</a></li>`)
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Page ${n}</title></head><body><h1>Page ${n}</h1><ul>${links}</ul><p>${FILLER}</p></body></html>`;
}

export async function startGeneratedSite(pages: number): Promise<LocalSite> {
  return startLocalSite([
    ['/robots.txt', { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' }],
    ['/', { headers: { 'content-type': 'text/html; charset=utf-8' }, body: pageHtml(0, pages) }],
    [
      (path: string) => /^\/page\/\d+$/.test(path),
      (req, res) => {
        const n = Number((req.url ?? '').split('/').pop());
        if (!Number.isInteger(n) || n >= pages) {
          res.writeHead(404).end();
          return;
        }
        const body = pageHtml(n, pages);
        res
          .writeHead(200, {
            'content-type': 'text/html; charset=utf-8',
            'content-length': String(Buffer.byteLength(body)),
          })
          .end(body);
      },
    ],
  ]);
}

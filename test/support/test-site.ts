/**
 * The local site the end-to-end tests crawl: robots rules, redirects, errors,
 * a legacy-encoded page, a gzip-encoded page, a slow page; every request
 * logged with its time by the server.
 */
import { gzipSync } from 'node:zlib';
import { startLocalSite, type LocalSite, type Route } from '../../src/shells/cli/local-site.ts';

const html = (body: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${body.slice(0, 20)}</title></head><body>${body}</body></html>`;

/** Bytes of the pages whose stored copy must be byte-exact, by path. */
export const EXACT_BODIES: Record<string, Uint8Array> = {
  '/latin1': new Uint8Array([
    ...new TextEncoder().encode('<html><head><meta charset="windows-1252"><title>Caf'),
    0xe9,
    ...new TextEncoder().encode('</title></head><body><a href="/about">'),
    0xe0,
    ...new TextEncoder().encode(' propos</a></body></html>'),
  ]),
  '/gzipped': new TextEncoder().encode(html('<p>compressed on the wire</p><a href="/">home</a>')),
};

export interface TestSite extends LocalSite {
  /** Every path the crawl is expected to record, blocked ones included. */
  expectedPaths: string[];
}

/** A tiny PNG-like body, distinct per name (its bytes are what the archive must keep). */
const pngBytes = (name: string): Uint8Array =>
  new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new TextEncoder().encode(name)]);

/**
 * The page resources of `startTestSite({ resources: true })`: every numbered page uses the shared
 * stylesheet (which imports another, which loads a font and an image) and an image of its own; the
 * last page also uses a missing image.
 */
function resourceRoutes(count: number): [string, Route][] {
  const css = (body: string): Route => ({ headers: { 'content-type': 'text/css' }, body });
  return [
    ['/s/site.css', css('@import "more.css"; body { background: url(/s/bg.png) }')],
    ['/s/more.css', css('@font-face { font-family: T; src: url(font.woff2) } p { color: #123456 }')],
    ['/s/font.woff2', { headers: { 'content-type': 'font/woff2' }, body: pngBytes('font') }],
    ['/s/bg.png', { headers: { 'content-type': 'image/png' }, body: pngBytes('bg') }],
    ...Array.from({ length: count }, (_, i): [string, Route] => [
      `/s/p${i}.png`,
      { headers: { 'content-type': 'image/png' }, body: pngBytes(`p${i}`) },
    ]),
  ];
}

/** The paths `resourceRoutes` serves, and the missing image the last page uses. */
const resourcePaths = (count: number): string[] => [
  '/s/site.css',
  '/s/more.css',
  '/s/font.woff2',
  '/s/bg.png',
  ...Array.from({ length: count }, (_, i) => `/s/p${i}.png`),
  '/s/missing.png',
];

/**
 * @param options.pages numbered pages beside the fixed ones.
 * @param options.resources the numbered pages use page resources too (a stylesheet chain, a font, images, a missing one).
 */
export async function startTestSite(options: { pages?: number; resources?: boolean } = {}): Promise<TestSite> {
  const extra = options.pages ?? 6;
  const numbered = Array.from({ length: extra }, (_, i) => `/p/${i}`);
  const uses = (i: number): string =>
    options.resources === true
      ? `<link rel="stylesheet" href="/s/site.css"><img src="/s/p${i}.png">${i === extra - 1 ? '<img src="/s/missing.png">' : ''}`
      : '';
  const routes = new Map<string, Route>([
    [
      '/robots.txt',
      { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private/\nAllow: /private/open\n' },
    ],
    [
      '/',
      {
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: html(
          [
            ...numbered,
            '/private/secret',
            '/private/open',
            '/old',
            '/missing',
            '/broken',
            '/latin1',
            '/gzipped',
            '/file.bin',
            '/slow',
            'mailto:x@y.z',
            '#top',
          ]
            .map((href) => `<a href="${href}">link ${href}</a>`)
            .join('\n'),
        ),
      },
    ],
    ...numbered.map((path, i): [string, Route] => [
      path,
      { headers: { 'content-type': 'text/html' }, body: html(`${uses(i)}<a href="/p/${(i + 1) % extra}">next</a>`) },
    ]),
    ...(options.resources === true ? resourceRoutes(extra) : []),
    ['/private/open', { headers: { 'content-type': 'text/html' }, body: html('open') }],
    ['/private/secret', { headers: { 'content-type': 'text/html' }, body: html('must never be fetched') }],
    ['/old', { status: 301, headers: { location: '/new' } }],
    ['/new', { status: 302, headers: { location: '/' } }],
    ['/broken', { status: 500, headers: { 'content-type': 'text/html' }, body: html('server error') }],
    ['/latin1', { headers: { 'content-type': 'text/html' }, body: EXACT_BODIES['/latin1'] ?? new Uint8Array() }],
    [
      '/gzipped',
      {
        headers: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' },
        body: gzipSync(EXACT_BODIES['/gzipped'] ?? new Uint8Array()),
      },
    ],
    ['/file.bin', { headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(4096) }],
    ['/about', { headers: { 'content-type': 'text/html' }, body: html('about') }],
    ['/slow', { delayMs: 2500, headers: { 'content-type': 'text/html' }, body: html('finally') }],
  ]);
  const site = await startLocalSite(routes);
  const expectedPaths = [
    '/',
    ...numbered,
    '/private/secret',
    '/private/open',
    '/old',
    '/new',
    '/missing',
    '/broken',
    '/latin1',
    '/gzipped',
    '/file.bin',
    '/slow',
    '/about',
    ...(options.resources === true ? resourcePaths(extra) : []),
  ];
  return Object.assign(site, { expectedPaths });
}

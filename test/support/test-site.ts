/**
 * The local site the end-to-end tests crawl: robots rules, redirects, errors,
 * a legacy-encoded page, a gzip-encoded page, a slow page; every request
 * logged with its time by the server.
 */
import { gzipSync } from 'node:zlib';
import { startLocalSite, type LocalSite, type Route } from '../../src/shells/cli/local-site.ts';

const html = (body: string): string => `<!doctype html><html><head><meta charset="utf-8"><title>${body.slice(0, 20)}</title></head><body>${body}</body></html>`;

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

export async function startTestSite(options: { pages?: number } = {}): Promise<TestSite> {
  const extra = options.pages ?? 6;
  const numbered = Array.from({ length: extra }, (_, i) => `/p/${i}`);
  const routes = new Map<string, Route>([
    ['/robots.txt', { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private/\nAllow: /private/open\n' }],
    [
      '/',
      {
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: html(
          [...numbered, '/private/secret', '/private/open', '/old', '/missing', '/broken', '/latin1', '/gzipped', '/file.bin', '/slow', 'mailto:x@y.z', '#top']
            .map((href) => `<a href="${href}">link ${href}</a>`)
            .join('\n'),
        ),
      },
    ],
    ...numbered.map((path, i): [string, Route] => [path, { headers: { 'content-type': 'text/html' }, body: html(`<a href="/p/${(i + 1) % extra}">next</a>`) }]),
    ['/private/open', { headers: { 'content-type': 'text/html' }, body: html('open') }],
    ['/private/secret', { headers: { 'content-type': 'text/html' }, body: html('must never be fetched') }],
    ['/old', { status: 301, headers: { location: '/new' } }],
    ['/new', { status: 302, headers: { location: '/' } }],
    ['/broken', { status: 500, headers: { 'content-type': 'text/html' }, body: html('server error') }],
    ['/latin1', { headers: { 'content-type': 'text/html' }, body: EXACT_BODIES['/latin1'] ?? new Uint8Array() }],
    ['/gzipped', { headers: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' }, body: gzipSync(EXACT_BODIES['/gzipped'] ?? new Uint8Array()) }],
    ['/file.bin', { headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(4096) }],
    ['/about', { headers: { 'content-type': 'text/html' }, body: html('about') }],
    ['/slow', { delayMs: 2500, headers: { 'content-type': 'text/html' }, body: html('finally') }],
  ]);
  const site = await startLocalSite(routes);
  const expectedPaths = ['/', ...numbered, '/private/secret', '/private/open', '/old', '/new', '/missing', '/broken', '/latin1', '/gzipped', '/file.bin', '/slow', '/about'];
  return Object.assign(site, { expectedPaths });
}

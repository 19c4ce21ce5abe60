/**
 * A site with every issue an audit looks for planted a known number of times,
 * and three other sites it links to: one whose robots.txt disallows a linked
 * URL, one that refuses HEAD with 405, one with a redirect chain ending in
 * 404. Every page not meant to carry an issue is a good page (a title of 30 to
 * 60 characters of its own, a description of its own, one `<h1>`, images with
 * `alt`), so each count below comes from what was planted for it alone.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLocalSite, type LocalSite, type Route } from '../../src/shells/cli/local-site.ts';
import { solidPng } from './resource-site.ts';
import { closedPort } from './closed-port.ts';

/** How many URLs each Issues check must flag on this site, by check id, with why. */
export const PLANTED: Readonly<Record<string, number>> = {
  'broken-link-internal': 2 + 1, // /missing (404), /server-error (500); issue 26, item 4: /canon-gone (404), fetched as a canonical
  'broken-link-external': 4, // another site's /gone (404), the end of the other chain (404); a host that does not resolve, one refusing connections (issue 26, item 2)
  'broken-resource': 1, // /img/missing.png
  'missing-anchor': 1, // /anchors links to #absent
  'link-to-redirect': 3, // /old, /chain1, /loop-a
  'redirect-chain': 1, // /chain1 → /chain2 → /about
  'redirect-loop': 1, // /loop-a → /loop-b → /loop-a
  'link-to-blocked': 1, // /blocked/secret
  'title-missing': 1, // /no-title
  'title-duplicate': 4, // /dup-title-1, /dup-title-2, and the copies /copy-a, /copy-b (one page served twice)
  'title-too-long': 1, // /long-title
  'title-too-short': 1, // /short-title
  'description-missing': 1, // /no-desc
  'description-duplicate': 4, // /dup-desc-1, /dup-desc-2, and the copies
  'h1-missing': 1, // /no-h1
  'h1-multiple': 1, // /two-h1
  'noindex-linked': 2, // /noindex (meta robots), /noindex-header (X-Robots-Tag)
  'canonical-to-non-200': 1 + 1, // /canon-to-redirect names /old; issue 26, item 4: /canon-to-404 names /canon-gone (404, linked from nowhere)
  'canonical-elsewhere': 2 + 2, // /canon-elsewhere names /about, /canon-to-redirect names /old; issue 26, item 4: /canon-to-404, /canon-print
  'sitemap-orphan': 1, // /orphan: listed, linked from nowhere
  'sitemap-non-indexable': 1, // /noindex, listed
  'slow-response': 1, // /slow answers after 1.2 s
  'large-page': 1, // /large: 1.1 MiB of HTML
  'deep-page': 1, // /d4, four clicks from the start
  'mixed-content': 0, // needs an https page: the local sites are http (unit tests cover it)
  'image-missing-alt': 1, // /alt
  'duplicate-content': 2, // /copy-a, /copy-b: byte-identical
  // Rendering (issue 29): this crawl renders none of these static pages, so no row has a render to judge; the
  // unit tests (render-checks.test.ts) and the rendered crawl's end-to-end test cover them.
  'rendered-links-only': 0,
  'rendered-title-differs': 0,
  'rendered-description-differs': 0,
  'rendered-canonical-differs': 0,
  'rendered-noindex-differs': 0,
  'rendered-robots-differs': 0,
  'render-script-errors': 0,
  'render-blocked-request': 0,
  'render-failed': 0,
};

export interface AuditSites {
  readonly site: LocalSite;
  /** robots.txt disallows `/private/`; `/docs` is fine. */
  readonly guarded: LocalSite;
  /** Answers 405 to HEAD of `/fine` (200 to GET); `/gone` is 404; robots.txt asks for {@link HEADLESS_CRAWL_DELAY_S}. */
  readonly headless: LocalSite;
  /** `/start` 301 → `/middle` 302 → `/end` 404. */
  readonly moving: LocalSite;
  /**
   * Issue 26, item 2: hosts `/unreachable` links to. A host name that does not resolve (launch Chromium with
   * {@link AUDIT_CHROMIUM_ARGS}), a port nothing listens on: broken links, with the reason. And a host whose
   * robots.txt answers 503 (so, RFC 9309 §2.3.1.4, nothing else may be asked of it): links not checked, not
   * broken. Not in {@link AuditSites.all}: its robots.txt is asked for again (a retry), and it gets nothing else.
   */
  readonly unresolvedOrigin: string;
  readonly refusingOrigin: string;
  readonly robotsDown: LocalSite;
  readonly all: readonly LocalSite[];
  close(): Promise<void>;
}

type Html = { headers: Record<string, string>; body: string };

const html = (body: string, headers: Record<string, string> = {}): Html => ({
  headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
  body,
});
const text = (body: string) => ({ headers: { 'content-type': 'text/plain' }, body });

/** A title of 30 to 60 characters naming the page. */
function titleFor(name: string): string {
  const title = `Tabcrawl audit site: the ${name} page`;
  if (title.length < 30 || title.length > 60) throw new Error(`title of ${name} is ${title.length} characters`);
  return title;
}

interface PageParts {
  /** null: no `<title>`; a string: this title (default: its own good one). */
  title?: string | null;
  /** null: no description (default: its own). */
  description?: string | null;
  /** `<h1>` elements (default: one). */
  h1s?: number;
  head?: string;
  body?: string;
}

/** A page that is good in every way but those `parts` change. */
function page(name: string, parts: PageParts = {}): string {
  const title = parts.title === undefined ? titleFor(name) : parts.title;
  const description =
    parts.description === undefined ? `What the ${name} page of the audit site is about.` : parts.description;
  const h1s = Array.from({ length: parts.h1s ?? 1 }, (_, i) => `<h1>${name}${i === 0 ? '' : ` (${i + 1})`}</h1>`).join(
    '',
  );
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">${title === null ? '' : `<title>${title}</title>`}` +
    `${description === null ? '' : `<meta name="description" content="${description}">`}${parts.head ?? ''}</head>` +
    `<body>${h1s}<p>Text of the ${name} page.</p>${parts.body ?? ''}</body></html>`
  );
}

function refusesHead(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'HEAD') {
    res.writeHead(405, { allow: 'GET' }).end();
    return;
  }
  const body = '<!doctype html><title>fine</title><p>only GET here</p>';
  res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(Buffer.byteLength(body)) }).end(body);
}

/**
 * The Crawl-delay of the host that refuses HEAD, in seconds (issue 26, item 1): the GET that follows a
 * refused HEAD waits for it like any request, which its server's log shows.
 */
export const HEADLESS_CRAWL_DELAY_S = 1;

/** The host name of {@link AuditSites.unresolvedOrigin}. */
const UNRESOLVED_HOST = 'tabcrawl-audit-dead.invalid';

/** Chromium flags for the audit: the host that does not resolve fails at once, whatever this machine's DNS does. */
export const AUDIT_CHROMIUM_ARGS: readonly string[] = [`--host-resolver-rules=MAP ${UNRESOLVED_HOST} ~NOTFOUND`];

/** Starts the three other sites, then the audited one (whose pages name them). */
export async function startAuditSites(): Promise<AuditSites> {
  const guarded = await startLocalSite({
    '/robots.txt': text('User-agent: *\nDisallow: /private/\n'),
    '/docs': html('<!doctype html><title>docs</title><p>docs</p>'),
    '/private/report': { status: 404, ...text('would be a 404, if anyone asked') },
  });
  const headless = await startLocalSite([
    ['/robots.txt', text(`User-agent: *\nCrawl-delay: ${HEADLESS_CRAWL_DELAY_S}\n`)],
    ['/fine', refusesHead],
    ['/gone', { status: 404, ...text('gone') }],
  ]);
  const moving = await startLocalSite({
    '/robots.txt': text('User-agent: *\nAllow: /\n'),
    '/start': { status: 301, headers: { location: '/middle' } },
    '/middle': { status: 302, headers: { location: '/end' } },
  });
  // Issue 26, item 2: a host that does not resolve, one refusing connections, one whose robots.txt answers 503.
  const unresolvedOrigin = `http://${UNRESOLVED_HOST}`;
  const refusingOrigin = `http://127.0.0.1:${await closedPort()}`;
  const robotsDown = await startLocalSite({
    '/robots.txt': { status: 503, ...text('down for maintenance') },
    '/page': html('<!doctype html><title>up</title><p>fine, if anyone may ask</p>'),
  });
  const links = [
    '/about',
    '/missing',
    '/server-error',
    '/old',
    '/chain1',
    '/loop-a',
    '/blocked/secret',
    '/dup-title-1',
    '/dup-title-2',
    '/long-title',
    '/short-title',
    '/no-title',
    '/no-desc',
    '/dup-desc-1',
    '/dup-desc-2',
    '/no-h1',
    '/two-h1',
    '/noindex',
    '/noindex-header',
    '/canon-elsewhere',
    '/canon-to-redirect',
    '/slow',
    '/large',
    '/d1',
    '/alt',
    '/copy-a',
    '/copy-b',
    '/anchors',
    '/with-search-link', // issue 26, item 7: its <link rel="search"> is the only way to /search-page
    '/canon-to-404',
    '/canon-original',
    '/canon-print', // issue 26, item 4
    `${guarded.origin}/docs`,
    `${guarded.origin}/private/report`,
    `${headless.origin}/fine`,
    `${headless.origin}/gone`,
    `${moving.origin}/start`,
  ];
  const anchorList = links
    .map((href) => `<li><a href="${href}">${href.replace(/^https?:\/\/[^/]+/, 'another site ')}</a></li>`)
    .join('');
  const copy = page('copy', {});
  const canonicalised = page('canon-original', { head: '<link rel="canonical" href="/canon-original">' });
  const routes = (origin: string): [string, Route][] => [
    ['/robots.txt', text(`User-agent: *\nDisallow: /blocked/\nSitemap: ${origin}/sitemap.xml\n`)],
    [
      '/sitemap.xml',
      {
        headers: { 'content-type': 'application/xml' },
        body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${['/', '/about', '/orphan', '/noindex'].map((p) => `<url><loc>${origin}${p}</loc></url>`).join('')}</urlset>`,
      },
    ],
    [
      '/',
      html(
        page('home', {
          body: `<img src="/img/ok.png" alt="a square"><img src="/img/missing.png" alt="a missing square"><ul>${anchorList}</ul>`,
        }),
      ),
    ],
    [
      '/about',
      html(page('about', { body: '<h2 id="team">Team</h2><a href="/">Home</a> <a href="/unreachable">Elsewhere</a>' })),
    ],
    [
      '/unreachable',
      html(
        page('unreachable', {
          body: `<a href="${unresolvedOrigin}/gone">dead</a> <a href="${refusingOrigin}/closed">refusing</a> <a href="${robotsDown.origin}/page">robots.txt down</a>`,
        }),
      ),
    ],
    ['/orphan', html(page('orphan'))],
    ['/missing', { status: 404, ...html('<!doctype html><title>Not found</title><h1>404</h1>') }],
    ['/server-error', { status: 500, ...html('<!doctype html><title>Server error</title><h1>500</h1>') }],
    ['/old', { status: 301, headers: { location: '/about' } }],
    ['/chain1', { status: 301, headers: { location: '/chain2' } }],
    ['/chain2', { status: 302, headers: { location: '/about' } }],
    ['/loop-a', { status: 302, headers: { location: '/loop-b' } }],
    ['/loop-b', { status: 302, headers: { location: '/loop-a' } }],
    ['/blocked/secret', html(page('secret'))],
    ['/dup-title-1', html(page('dup-title-1', { title: 'Tabcrawl audit site: a title used twice' }))],
    ['/dup-title-2', html(page('dup-title-2', { title: 'Tabcrawl audit site: a title used twice' }))],
    [
      '/long-title',
      html(page('long-title', { title: 'Tabcrawl audit site: a title that goes on for far too long to show' })),
    ],
    ['/short-title', html(page('short-title', { title: 'Short' }))],
    ['/no-title', html(page('no-title', { title: null }))],
    ['/no-desc', html(page('no-desc', { description: null }))],
    ['/dup-desc-1', html(page('dup-desc-1', { description: 'One description for two pages.' }))],
    ['/dup-desc-2', html(page('dup-desc-2', { description: 'One description for two pages.' }))],
    ['/no-h1', html(page('no-h1', { h1s: 0 }))],
    ['/two-h1', html(page('two-h1', { h1s: 2 }))],
    ['/noindex', html(page('noindex', { head: '<meta name="robots" content="noindex">' }))],
    ['/noindex-header', html(page('noindex-header'), { 'x-robots-tag': 'noindex' })],
    ['/canon-elsewhere', html(page('canon-elsewhere', { head: '<link rel="canonical" href="/about">' }))],
    ['/canon-to-redirect', html(page('canon-to-redirect', { head: '<link rel="canonical" href="/old">' }))],
    ['/slow', { delayMs: 1200, ...html(page('slow')) }],
    ['/large', html(page('large', { body: `<p>${'Lorem ipsum dolor sit amet. '.repeat(41_000)}</p>` }))],
    ['/d1', html(page('d1', { body: '<a href="/d2">deeper</a>' }))],
    ['/d2', html(page('d2', { body: '<a href="/d3">deeper</a>' }))],
    ['/d3', html(page('d3', { body: '<a href="/d4">deeper</a>' }))],
    ['/d4', html(page('d4'))],
    ['/alt', html(page('alt', { body: '<img src="/img/ok.png">' }))],
    ['/copy-a', html(copy)],
    ['/copy-b', html(copy)],
    [
      '/anchors',
      html(
        page('anchors', {
          body: '<h2 id="present">Here</h2><a href="#present">here</a> <a href="#absent">nowhere</a> <a href="/about#team">the team</a>',
        }),
      ),
    ],
    // Issue 26, item 7: a good page reached only by a document <link> (as Django's docs link their search page).
    [
      '/with-search-link',
      html(
        page('with-search-link', {
          head: '<link rel="search" title="Search" href="/search-page"><link rel="search" type="application/opensearchdescription+xml" href="/opensearch.xml">',
        }),
      ),
    ],
    ['/search-page', html(page('search-page'))],
    // Issue 26, item 4: a canonical to a 404 no link leads to (fetched as the canonical's target, so judged),
    // and a copy whose canonical names its original: no duplicate title, description or content.
    ['/canon-to-404', html(page('canon-to-404', { head: '<link rel="canonical" href="/canon-gone">' }))],
    ['/canon-gone', { status: 404, ...html('<!doctype html><title>Not found</title><h1>404</h1>') }],
    ['/canon-original', html(canonicalised)],
    ['/canon-print', html(canonicalised)],
    ['/img/ok.png', { headers: { 'content-type': 'image/png' }, body: solidPng(8, 8, [40, 120, 200]) }],
  ];
  const site = await startLocalSite(routes);
  const all = [site, guarded, headless, moving];
  return {
    site,
    guarded,
    headless,
    moving,
    unresolvedOrigin,
    refusingOrigin,
    robotsDown,
    all,
    close: async () => {
      await Promise.all([...all, robotsDown].map((s) => s.close()));
    },
  };
}

/**
 * A crawl's rows with every Issues check planted a known number of times, on
 * known URLs ({@link PLANTED}), and clean pages around them: the unit tests of
 * the checks and the browser tests of the Issues view read it.
 */
import type { PageFacts } from '../../src/core/page-facts/page-facts.ts';
import type { PageRecord, RenderRecord, StaticFacts } from '../../src/core/model.ts';
import type { CheckId } from '../../src/audit/checks.ts';
import { factsOf } from './page-facts-fixture.ts';

export const SITE = 'https://a.example';
export const OTHER = 'https://other.example';
export const CRAWL_ID = 'audit';

const at = (path: string): string => (path.startsWith('http') ? path : `${SITE}${path}`);

/** Facts of a clean page: a description of its own, one `<h1>`, nothing wrong. */
export function cleanFacts(path: string, overrides: Partial<PageFacts> = {}): PageFacts {
  return factsOf({
    description: `What ${path} is about, in one sentence.`,
    h1: `Heading of ${path}`,
    h1Count: 1,
    lang: 'en',
    wordCount: 300,
    ...overrides,
  });
}

/** A clean HTML page at `path` (a title of a good length of its own), with `overrides`. */
export function page(path: string, overrides: Partial<PageRecord> = {}): PageRecord {
  const url = at(path);
  return {
    crawlId: CRAWL_ID,
    url,
    origin: new URL(url).origin,
    kind: 'page',
    depth: 1,
    referrer: `${SITE}/`,
    seq: 0,
    status: 200,
    contentType: 'text/html; charset=utf-8',
    contentLength: 5120,
    location: null,
    methods: ['GET'],
    fetchedAt: 1_700_000_000_000,
    responseTimeMs: 40,
    headers: [],
    statusLine: null,
    requestHeaders: null,
    ipAddress: null,
    sha256: null,
    duplicateOf: null,
    truncated: false,
    title: `The page ${path} of the example site`.padEnd(32, '.'),
    anchors: [],
    inlinks: 1,
    links: [],
    linkTexts: [],
    resources: [],
    facts: cleanFacts(path),
    blockedBy: null,
    blockedRule: null,
    error: null,
    ...overrides,
  };
}

/** A page linking to `targets` (paths or absolute URLs). */
export function linking(path: string, targets: string[], overrides: Partial<PageRecord> = {}): PageRecord {
  const links = targets.map(at);
  return page(path, { links, linkTexts: links.map(() => 'text'), ...overrides });
}

/** A row that is not an HTML page: a redirect, an error, a resource, a link to another site. */
export function other(path: string, overrides: Partial<PageRecord>): PageRecord {
  return page(path, { contentType: null, title: null, facts: null, contentLength: null, ...overrides });
}

export const redirect = (path: string, to: string, status = 301, overrides: Partial<PageRecord> = {}): PageRecord =>
  other(path, { status, location: at(to), ...overrides });

export const external = (url: string, overrides: Partial<PageRecord> = {}): PageRecord =>
  other(url, { kind: 'external' as PageRecord['kind'], methods: ['HEAD'], ...overrides });

/**
 * A page the crawl rendered (issue 29): a clean page whose static HTML read the same as the rendered
 * page, with the row's `overrides` (the rendered page's), the static HTML's `statics` and the render's `render`.
 */
export function rendered(
  path: string,
  overrides: Partial<PageRecord> = {},
  statics: Partial<StaticFacts> = {},
  render: Partial<RenderRecord> = {},
): PageRecord {
  const row = page(path, overrides);
  const url = row.url;
  return {
    ...row,
    render: {
      outcome: 'rendered',
      message: null,
      why: 'always',
      at: 1_700_000_001_000,
      durationMs: 850,
      capped: false,
      static: { title: row.title, links: row.links, linkTexts: row.linkTexts, facts: row.facts ?? null, ...statics },
      sha256: 'e'.repeat(64),
      truncated: false,
      scriptErrors: [],
      requests: [url],
      refused: [],
      navigations: [],
      ...render,
    },
  };
}

/** Facts with a fragment link to `target#fragment`. */
const fragment = (target: string, name: string): { url: string; fragment: string } => ({
  url: at(target),
  fragment: name,
});

/** The rows, numbered in order. */
export function auditRows(): PageRecord[] {
  const rows: PageRecord[] = [
    linking(
      '/',
      [
        '/a',
        '/b',
        '/c',
        '/gone',
        '/old',
        '/private/x',
        '/noindex',
        '/canon-a',
        '/canon-b',
        '/canon-c',
        '/notitle',
        '/emptytitle',
        '/longtitle',
        '/short',
        '/nodesc',
        '/noh1',
        '/twoh1',
        '/slow',
        '/big',
        '/mixed',
        '/noalt',
        '/dup1',
        '/dup2',
      ],
      {
        referrer: null,
        depth: 0,
        facts: cleanFacts('/', {
          anchorIds: ['main'],
          fragmentLinks: [fragment('/', 'main'), fragment('/', 'top'), fragment('/b', 'intro')],
        }),
      },
    ),
    other('/sitemap.xml', {
      kind: 'sitemap',
      contentType: 'application/xml',
      links: ['/', '/a', '/orphan', '/noindex-orphan', '/old'].map(at),
    }),
    linking(
      '/a',
      ['/gone', '/err', `${OTHER}/dead`, `${OTHER}/moved`, `${OTHER}/ok`, `${OTHER}/private`, '/chain1', '/b'],
      {
        resources: [at('/missing.png'), at('/ok.css')],
        facts: cleanFacts('/a', {
          anchorIds: ['here'],
          fragmentLinks: [fragment('/b', 'nope'), fragment('/a', 'self-missing'), fragment('/a', 'here')],
        }),
      },
    ),
    linking('/b', ['/loop1', '/deep'], {
      resources: [at('/blocked.js')],
      facts: cleanFacts('/b', { anchorIds: ['intro', 'usage'] }),
    }),
    linking('/c', ['/b'], {
      facts: cleanFacts('/c', {
        fragmentLinks: [fragment('/b', 'intro'), fragment('/b', 'gone2'), fragment('/elsewhere', 'x')],
      }),
    }),
    other('/gone', { status: 404, contentType: 'text/html' }),
    other('/err', { status: 500 }),
    redirect('/old', '/new'),
    page('/new', { referrer: at('/old') }),
    redirect('/chain1', '/chain2'),
    redirect('/chain2', '/chain3', 302),
    page('/chain3'),
    redirect('/loop1', '/loop2'),
    redirect('/loop2', '/loop1'),
    other('/private/x', { status: null, methods: [], blockedBy: 'robots', blockedRule: 'Disallow: /private/' }),
    other('/missing.png', { kind: 'resource', status: 404 }),
    other('/ok.css', { kind: 'resource', contentType: 'text/css' }),
    other('/blocked.js', {
      kind: 'resource',
      status: null,
      methods: [],
      blockedBy: 'robots',
      blockedRule: 'Disallow: /js/',
    }),
    external(`${OTHER}/dead`, { status: 404 }),
    external(`${OTHER}/moved`, { status: 301, location: `${OTHER}/moved-dead` }),
    external(`${OTHER}/moved-dead`, { status: 410, referrer: `${OTHER}/moved` }),
    external(`${OTHER}/ok`, { status: 200 }),
    external(`${OTHER}/private`, { status: null, methods: [], blockedBy: 'robots', blockedRule: 'Disallow: /private' }),
    page('/noindex', { facts: cleanFacts('/noindex', { robots: ['noindex', 'follow'] }) }),
    page('/noindex-orphan', {
      inlinks: 0,
      referrer: at('/sitemap.xml'),
      facts: cleanFacts('/noindex-orphan', { robots: ['none'] }),
    }),
    page('/orphan', { inlinks: 0, referrer: at('/sitemap.xml') }),
    page('/canon-a', { facts: cleanFacts('/canon-a', { canonical: at('/chain3') }) }),
    page('/canon-b', { facts: cleanFacts('/canon-b', { canonical: at('/old') }) }),
    page('/canon-c', { facts: cleanFacts('/canon-c', { canonicalHeader: 'https://elsewhere.example/c' }) }),
    page('/notitle', { title: null }),
    page('/emptytitle', { title: '  \n ' }),
    page('/longtitle', { title: 'A title that goes on and on and on, far past what search results show' }),
    page('/short', { title: 'Short' }),
    page('/nodesc', { facts: cleanFacts('/nodesc', { description: null }) }),
    page('/noh1', { facts: cleanFacts('/noh1', { h1: null, h1Count: 0 }) }),
    page('/twoh1', { facts: cleanFacts('/twoh1', { h1Count: 2 }) }),
    page('/slow', { responseTimeMs: 2500 }),
    page('/big', { contentLength: 2 * 1024 * 1024 }),
    page('/deep', { depth: 4 }),
    page('/mixed', { facts: cleanFacts('/mixed', { mixedContent: ['http://a.example/old.js'] }) }),
    page('/noalt', { facts: cleanFacts('/noalt', { imagesWithoutAlt: [at('/i1.png'), at('/i2.png')] }) }),
    page('/dup1', {
      sha256: 'd'.repeat(64),
      title: 'The same page served under two URLs',
      facts: cleanFacts('/dup', {}),
    }),
    page('/dup2', {
      sha256: 'd'.repeat(64),
      duplicateOf: at('/dup1'),
      title: 'The same page served under two URLs',
      facts: cleanFacts('/dup', {}),
    }),
    // Rendered pages (issue 29): one alike in both versions, then one per rendering check.
    rendered('/app-clean'),
    rendered(
      '/app-links',
      { links: [at('/b'), at('/c')], linkTexts: ['B', 'C'] },
      { links: [at('/c')], linkTexts: ['C'] },
    ),
    rendered(
      '/app-title',
      { title: 'The product list of the example shop' },
      { title: 'Loading the example shop, please wait' },
    ),
    rendered('/app-desc', {}, { facts: cleanFacts('/app-desc', { description: 'Loading…' }) }),
    rendered(
      '/app-canon',
      { facts: cleanFacts('/app-canon', { canonical: at('/app-canon') }) },
      { facts: cleanFacts('/app-canon') },
    ),
    rendered(
      '/app-noindex',
      { facts: cleanFacts('/app-noindex', { robots: ['noindex'] }) },
      { facts: cleanFacts('/app-noindex') },
    ),
    rendered(
      '/app-robots',
      { facts: cleanFacts('/app-robots', { robots: ['max-snippet:20'] }) },
      { facts: cleanFacts('/app-robots', { robots: ['nofollow'] }) },
    ),
    rendered('/app-errors', {}, {}, { scriptErrors: ['TypeError: products is undefined', 'ReferenceError: x'] }),
    rendered(
      '/app-blocked',
      {},
      {},
      {
        refused: [
          { url: at('/private/api.json'), because: 'robots' },
          { url: at('/poll'), because: 'timeout' },
        ],
      },
    ),
    rendered('/app-failed', {}, {}, { outcome: 'timeout', message: 'The page never went quiet', static: null }),
  ];
  return rows.map((row, index) => ({ ...row, seq: index + 1 }));
}

/** Where each check is planted: the URLs its issues sit on, in the order the check lists them. */
export const PLANTED: { readonly [K in CheckId]: readonly string[] } = {
  'broken-link-internal': ['/gone', '/err'].map(at),
  'broken-link-external': [`${OTHER}/dead`, `${OTHER}/moved-dead`],
  'broken-resource': ['/missing.png', '/blocked.js'].map(at),
  'missing-anchor': ['/a', '/c'].map(at),
  'link-to-redirect': ['/old', '/chain1', '/loop1'].map(at),
  'redirect-chain': ['/chain1'].map(at),
  'redirect-loop': ['/loop1'].map(at),
  'link-to-blocked': ['/private/x'].map(at),
  'title-missing': ['/notitle', '/emptytitle'].map(at),
  'title-duplicate': ['/dup1', '/dup2'].map(at),
  'title-too-long': ['/longtitle'].map(at),
  'title-too-short': ['/short'].map(at),
  'description-missing': ['/nodesc'].map(at),
  'description-duplicate': ['/dup1', '/dup2'].map(at),
  'h1-missing': ['/noh1'].map(at),
  'h1-multiple': ['/twoh1'].map(at),
  'noindex-linked': ['/noindex'].map(at),
  'canonical-to-non-200': ['/canon-b', '/canon-c'].map(at),
  'canonical-elsewhere': ['/canon-a', '/canon-b', '/canon-c'].map(at),
  'sitemap-orphan': ['/noindex-orphan', '/orphan'].map(at),
  'sitemap-non-indexable': ['/old', '/noindex-orphan'].map(at),
  'slow-response': ['/slow'].map(at),
  'large-page': ['/big'].map(at),
  'deep-page': ['/deep'].map(at),
  'mixed-content': ['/mixed'].map(at),
  'image-missing-alt': ['/noalt'].map(at),
  'duplicate-content': ['/dup1', '/dup2'].map(at),
  'rendered-links-only': ['/app-links'].map(at),
  'rendered-title-differs': ['/app-title'].map(at),
  'rendered-description-differs': ['/app-desc'].map(at),
  'rendered-canonical-differs': ['/app-canon'].map(at),
  'rendered-noindex-differs': ['/app-noindex'].map(at),
  'rendered-robots-differs': ['/app-robots'].map(at),
  'render-script-errors': ['/app-errors'].map(at),
  'render-blocked-request': ['/app-blocked'].map(at),
  'render-failed': ['/app-failed'].map(at),
};

/**
 * A small, believable site to crawl with `npm start`: pages linking to each
 * other, a robots.txt with a blocked folder, a crawl delay and a sitemap, a
 * page only the sitemap lists, a redirect, a broken link, a PDF and a page
 * in windows-1252; every page styled by a stylesheet (which imports another
 * and loads a background image), with a logo and a favicon, and one missing
 * image: page resources to archive.
 */
import { startLocalSite, type LocalSite, type Route } from './local-site.ts';

/** A running demo site. */
export interface DemoSite extends LocalSite {
  /** Where a crawl of the demo starts: the home page. */
  readonly startUrl: string;
}

interface DemoPage {
  path: string;
  title: string;
  /** Paragraphs of body text. */
  text: string[];
  /** `[href, anchor text]` pairs, beyond the shared navigation. */
  links: [string, string][];
}

const NAV: [string, string][] = [
  ['/', 'Home'],
  ['/about', 'About'],
  ['/blog/', 'Blog'],
  ['/docs/', 'Docs'],
];

const PAGES: DemoPage[] = [
  {
    path: '/',
    title: 'Harbour Lane Bakery',
    text: [
      'Sourdough, pastries and strong coffee since 2009.',
      'Read our blog or browse the docs for our wholesale partners.',
    ],
    links: [
      ['/blog/first-loaf', 'How we baked our first loaf'],
      ['/docs/ordering', 'Ordering guide'],
      ['/old-about', 'Our story (old link)'],
      ['/menu.pdf', 'Menu (PDF)'],
      ['/contact', 'Contact'],
    ],
  },
  {
    path: '/about',
    title: 'About us',
    text: ['Two bakers, one oven, and a harbour view.', 'We bake every night from 2 am.'],
    links: [
      ['/team', 'Meet the team'],
      ['/contact', 'Contact'],
    ],
  },
  {
    path: '/team',
    title: 'The team',
    text: ['Ada runs the ovens; Jonas runs everything else.'],
    links: [
      ['/about', 'Back to about'],
      ['/careers', 'Careers'],
    ],
  },
  {
    path: '/careers',
    title: 'Careers',
    text: ['No openings right now. Write to us anyway.'],
    links: [['/contact', 'Contact']],
  },
  {
    path: '/contact',
    title: 'Contact',
    text: ['12 Harbour Lane. Open Tuesday to Sunday, 7 am to 3 pm.'],
    links: [['/private/secret', 'Staff area']],
  },
  {
    path: '/blog/',
    title: 'Blog',
    text: ['Notes from the bakery.'],
    links: [
      ['/blog/first-loaf', 'How we baked our first loaf'],
      ['/blog/starter', 'Keeping a starter alive'],
      ['/blog/croissants', 'Croissants, slowly'],
      ['/blog/winter-menu', 'The winter menu'],
    ],
  },
  {
    path: '/blog/first-loaf',
    title: 'How we baked our first loaf',
    text: ['It was flat. The second one was flatter.', 'The tenth one was good enough to sell.'],
    links: [
      ['/blog/starter', 'Next: keeping a starter alive'],
      ['/blog/', 'All posts'],
    ],
  },
  {
    path: '/blog/starter',
    title: 'Keeping a starter alive',
    text: ['Feed it twice a day. Name it. Never let it freeze.'],
    links: [
      ['/blog/croissants', 'Next: croissants, slowly'],
      ['/blog/lost-post', 'A post we deleted'],
    ],
  },
  {
    path: '/blog/croissants',
    title: 'Croissants, slowly',
    text: ['Three days, twenty-seven layers, no shortcuts.'],
    links: [
      ['/blog/winter-menu', 'Next: the winter menu'],
      ['/blog/', 'All posts'],
    ],
  },
  {
    path: '/blog/winter-menu',
    title: 'The winter menu',
    text: ['Cardamom buns are back, and so is the rye.'],
    links: [
      ['/menu.pdf', 'Download the menu'],
      ['/docs/allergens', 'Allergen table'],
    ],
  },
  {
    path: '/docs/',
    title: 'Docs for partners',
    text: ['Everything a café needs to stock our bread.'],
    links: [
      ['/docs/ordering', 'Ordering'],
      ['/docs/delivery', 'Delivery'],
      ['/docs/allergens', 'Allergens'],
      ['/docs/legacy', 'Legacy price list (windows-1252)'],
    ],
  },
  {
    path: '/docs/ordering',
    title: 'Ordering',
    text: ['Order by 6 pm for the next morning.'],
    links: [['/docs/delivery', 'Next: delivery']],
  },
  {
    path: '/docs/delivery',
    title: 'Delivery',
    text: ['We deliver within 10 km, before 7 am.'],
    links: [['/docs/allergens', 'Next: allergens']],
  },
  {
    path: '/docs/allergens',
    title: 'Allergens',
    text: ['Every loaf contains gluten. The buns contain milk and eggs.'],
    links: [['/docs/', 'All docs']],
  },
  {
    path: '/seasonal',
    title: 'Seasonal specials',
    text: ['Only the sitemap links here: a crawler that reads sitemaps finds this page.'],
    links: [],
  },
  {
    path: '/private/secret',
    title: 'Staff only',
    text: ['A polite crawler never sees this page: robots.txt disallows /private/.'],
    links: [],
  },
];

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

function renderPage(page: DemoPage, charset: string): string {
  const links = [...NAV, ...page.links]
    .map(([href, text]) => `      <li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`)
    .join('\n');
  const text = page.text.map((p) => `    <p>${escapeHtml(p)}</p>`).join('\n');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="${charset}">
    <title>${escapeHtml(page.title)}</title>
    <link rel="stylesheet" href="/assets/site.css">
    <link rel="icon" href="/assets/logo.svg">
  </head>
  <body>
    <header><img src="/assets/logo.svg" alt="Harbour Lane Bakery" width="48" height="48"></header>
    <h1>${escapeHtml(page.title)}</h1>${page.path === '/blog/first-loaf' ? '\n    <img src="/assets/first-loaf.jpg" alt="Our first loaf">' : ''}
${text}
    <ul>
${links}
    </ul>
  </body>
</html>
`;
}

/** Characters of windows-1252 outside Latin-1 that the legacy page uses. */
const CP1252_EXTRA: Readonly<Record<string, number>> = { '€': 0x80, '’': 0x92, '–': 0x96 };

/** Encodes text as windows-1252; every character must be Latin-1 or listed in {@link CP1252_EXTRA}. */
function encodeWindows1252(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    const code = CP1252_EXTRA[char] ?? char.charCodeAt(0);
    if (code > 0xff) throw new RangeError(`cannot encode ${JSON.stringify(char)} in windows-1252`);
    bytes[i] = code;
  }
  return bytes;
}

/** A small but real PDF: one empty page. */
const MENU_PDF = `%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj
trailer << /Root 1 0 R >>
%%EOF
`;

const HTML = { 'content-type': 'text/html; charset=utf-8' };

/** The demo's page resources: a stylesheet that imports another and loads an image, and a logo (also the favicon). */
const ASSETS: [string, string, string][] = [
  [
    '/assets/site.css',
    'text/css; charset=utf-8',
    '@import "type.css";\nbody { margin: 2rem auto; max-width: 40rem; background: #fffaf0 url(crust.svg) repeat-x; color: #3b2a1a; }\na { color: #8a4b08; }\n',
  ],
  [
    '/assets/type.css',
    'text/css; charset=utf-8',
    'body { font-family: Georgia, serif; line-height: 1.5; }\nh1 { font-size: 2rem; }\n',
  ],
  [
    '/assets/crust.svg',
    'image/svg+xml',
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="12"><path d="M0 12 Q10 0 20 12 T40 12" fill="#e2b872"/></svg>\n',
  ],
  [
    '/assets/logo.svg',
    'image/svg+xml',
    '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48"><circle cx="24" cy="24" r="22" fill="#c8893b"/><text x="24" y="30" font-size="16" text-anchor="middle" fill="#fff">HL</text></svg>\n',
  ],
];

/** Builds the demo's routes for a site served at `origin`. */
export function demoRoutes(origin: string): Map<string, Route> {
  const routes = new Map<string, Route>();
  for (const page of PAGES) routes.set(page.path, { headers: HTML, body: renderPage(page, 'utf-8') });

  routes.set('/robots.txt', {
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: `# Harbour Lane Bakery\nUser-agent: *\nDisallow: /private/\nCrawl-delay: 0.2\n\nSitemap: ${origin}/sitemap.xml\n`,
  });
  const sitemapPaths = ['/', '/about', '/blog/', '/docs/', '/seasonal'];
  routes.set('/sitemap.xml', {
    headers: { 'content-type': 'application/xml; charset=utf-8' },
    body: `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${sitemapPaths.map((path) => `  <url><loc>${origin}${path}</loc></url>`).join('\n')}
</urlset>
`,
  });
  routes.set('/old-about', {
    status: 301,
    headers: { location: '/about', 'content-type': 'text/plain' },
    body: 'Moved to /about\n',
  });
  routes.set('/menu.pdf', { headers: { 'content-type': 'application/pdf' }, body: MENU_PDF });
  for (const [path, type, body] of ASSETS) routes.set(path, { headers: { 'content-type': type }, body });

  const legacy: DemoPage = {
    path: '/docs/legacy',
    title: 'Legacy price list',
    text: ['Baguette – 2,50 €', 'Croissant – 1,80 €', 'Pain au chocolat: the café’s favourite – 2,10 €'],
    links: [['/docs/', 'All docs']],
  };
  // No charset in the header: the <meta> is what tells the encoding.
  routes.set(legacy.path, {
    headers: { 'content-type': 'text/html' },
    body: encodeWindows1252(renderPage(legacy, 'windows-1252')),
  });
  return routes;
}

/** Starts the demo site on a random port of 127.0.0.1. */
export async function startDemoSite(): Promise<DemoSite> {
  const site = await startLocalSite(demoRoutes);
  return Object.assign(site, { startUrl: `${site.origin}/` });
}

/**
 * A client-rendered shop on two local hosts, for the rendered-crawl tests
 * (issue 29): pages whose HTML is an empty shell and whose script builds
 * everything a crawler reads.
 *
 * - The shop (host A): `/`, `/category/1`…`/category/3`, `/product/1`…`/product/12`
 *   and `/live` are shells (`<div id="app">`, `<script src="/app.js">`, a
 *   `<noscript>` notice, the title "Loading"); `/about` is plain HTML, linked
 *   statically from `/`'s shell. Its robots.txt disallows `/private` and
 *   `/api/private`.
 * - The API/CDN (host B): each product's JSON (with CORS headers) and images
 *   (real PNGs). Its robots.txt disallows `/secret`.
 *
 * Each shell's script (`shopAppJs`) adds `/style.css`, fetches
 * `/api/catalog.json` (and, on a product page, B's `/api/product-N.json`),
 * writes the title, meta description, h1, text, links and an image of B into
 * the DOM, and asks for `/private/track` on A and `/secret/pixel` on B, which
 * robots.txt disallows. `/live` polls `/api/poll` every 200 ms forever.
 *
 * Every request either host gets is logged with its times (`startLocalSite`).
 */
import type { ServerResponse } from 'node:http';
import { startLocalSite, type LocalSite, type RequestLogEntry, type Route } from '../../src/shells/cli/local-site.ts';
import { solidPng } from './resource-site.ts';
import { shellHtml, shopAppJs } from './rendered-site-app.ts';

const SHOP = 'Rendered Shop';
const CATEGORIES = ['Teas', 'Cups', 'Kettles'] as const;
const PRODUCTS = [
  'Green tea',
  'Black tea',
  'White tea',
  'Oolong',
  'Stoneware cup',
  'Glass cup',
  'Travel mug',
  'Teacup set',
  'Steel kettle',
  'Glass kettle',
  'Cast iron pot',
  'Electric kettle',
] as const;

/** A page as the tests expect to read it. URLs are absolute. */
export interface RenderedPage {
  readonly url: string;
  readonly path: string;
  /** A shell whose script builds it (true), or the plain HTML page `/about` (false). */
  readonly isShell: boolean;
  /** The title in the HTML as served: "Loading" in every shell. */
  readonly staticTitle: string;
  /** The links in the HTML as served (only `/` and `/about` have any). */
  readonly staticLinks: readonly string[];
  /** The page as the browser shows it once its script ran. */
  readonly title: string;
  readonly description: string;
  readonly h1: string;
  /** The text of its paragraph `#text` (in `/about`, its only paragraph). */
  readonly text: string;
  /** Every `<a href>` of the live DOM, in document order (the static ones included). */
  readonly links: readonly string[];
  /** The URLs whose responses the rendered page uses, robots.txt and the poll left out. */
  readonly uses: readonly string[];
}

export interface RenderedSite {
  /** Host A: the shop whose `/` is the start page. */
  readonly shop: LocalSite;
  /** Host B: the API/CDN the shop's script calls. */
  readonly api: LocalSite;
  /** `${shop.origin}/`. */
  readonly startUrl: string;
  /** Every page (18: 17 shells and `/about`), `/` first. */
  readonly pages: readonly RenderedPage[];
  /** The page at an absolute URL. */
  page(url: string): RenderedPage | undefined;
  /** The URLs the pages' script asks for that robots.txt disallows, per host: none may reach a server. */
  readonly disallowed: { readonly shop: readonly string[]; readonly api: readonly string[] };
  /** The endpoint `/live` polls every 200 ms: a rendered crawl must bound it. */
  readonly pollUrl: string;
  /** Each host's request log (the arrays `shop.requests` and `api.requests`), times on one clock. */
  readonly logs: { readonly shop: readonly RequestLogEntry[]; readonly api: readonly RequestLogEntry[] };
  /** The logged requests (of either host) for a path robots.txt disallows there: must stay empty. */
  disallowedRequests(): RequestLogEntry[];
  /** What each host serves, by absolute URL: the bytes a store or archive must hold. */
  readonly bodies: ReadonlyMap<string, Buffer>;
  close(): Promise<void>;
}

/** What `catalog.json` holds for one page: what the script writes (a product page overrides title, description, h1 and text from B). */
interface PageView {
  title: string;
  description: string;
  h1: string;
  text: string;
  links: { href: string; text: string }[];
  /** Path of the image on B. */
  image: string;
  /** The product whose JSON B serves, or null. */
  product: number | null;
}

const productJson = (n: number): { id: number; name: string; description: string; text: string } => {
  const name = PRODUCTS[n - 1] ?? `Product ${n}`;
  return {
    id: n,
    name,
    description: `${name}: product ${n} of the ${SHOP}, described by its API.`,
    text: `${name} is product ${n}. This text came from the API host as JSON.`,
  };
};

const categoryOf = (product: number): number => Math.ceil(product / 4);

function views(): Map<string, PageView> {
  const map = new Map<string, PageView>();
  map.set('/', {
    title: SHOP,
    description: 'A small shop whose pages its scripts build.',
    h1: SHOP,
    text: `Welcome: ${PRODUCTS.length} products in ${CATEGORIES.length} categories.`,
    links: [
      ...CATEGORIES.map((name, i) => ({ href: `/category/${i + 1}`, text: name })),
      { href: '/live', text: 'Live prices' },
    ],
    image: '/img/logo.png',
    product: null,
  });
  CATEGORIES.forEach((name, i) => {
    const c = i + 1;
    const products = [1, 2, 3, 4].map((k) => (c - 1) * 4 + k);
    map.set(`/category/${c}`, {
      title: `${name} · ${SHOP}`,
      description: `Every product of ${name}.`,
      h1: name,
      text: `${name}: ${products.length} products.`,
      links: [
        { href: '/', text: 'Home' },
        ...products.map((p) => ({ href: `/product/${p}`, text: PRODUCTS[p - 1] ?? '' })),
      ],
      image: '/img/logo.png',
      product: null,
    });
  });
  PRODUCTS.forEach((_, i) => {
    const p = i + 1;
    const c = categoryOf(p);
    const next = (p % PRODUCTS.length) + 1;
    map.set(`/product/${p}`, {
      title: '',
      description: '',
      h1: '',
      text: '',
      links: [
        { href: '/', text: 'Home' },
        { href: `/category/${c}`, text: CATEGORIES[c - 1] ?? '' },
        { href: `/product/${next}`, text: `Next: ${PRODUCTS[next - 1] ?? ''}` },
      ],
      image: `/img/p-${p}.png`,
      product: p,
    });
  });
  map.set('/live', {
    title: `Live prices · ${SHOP}`,
    description: 'Prices that update every 200 ms.',
    h1: 'Live prices',
    text: 'Prices update every 200 ms, for ever.',
    links: [{ href: '/', text: 'Home' }],
    image: '/img/logo.png',
    product: null,
  });
  return map;
}

const ABOUT = {
  title: `About the ${SHOP}`,
  description: `Who runs the ${SHOP}.`,
  h1: 'About the shop',
  text: 'This page is plain HTML: no script builds it.',
};

const typed = (type: string, body: string | Uint8Array, extra: Record<string, string> = {}): Route => ({
  headers: { 'content-type': type, ...extra },
  body,
});
const html = (body: string): Route => typed('text/html; charset=utf-8', body);
const CORS = { 'access-control-allow-origin': '*' };

/** Starts B, then A (whose script names B's origin). */
export async function startRenderedSite(): Promise<RenderedSite> {
  const apiRoutes: [string, Route][] = [
    ['/robots.txt', typed('text/plain', 'User-agent: *\nDisallow: /secret\n')],
    ['/img/logo.png', typed('image/png', solidPng(40, 40, [38, 139, 210]))],
    ['/secret/pixel', typed('image/png', solidPng(1, 1, [0, 0, 0]))],
    ...PRODUCTS.flatMap((_, i): [string, Route][] => [
      [`/api/product-${i + 1}.json`, typed('application/json', JSON.stringify(productJson(i + 1)), CORS)],
      [`/img/p-${i + 1}.png`, typed('image/png', solidPng(40, 40, [20 * i, 120, 200 - 10 * i]))],
    ]),
  ];
  const api = await startLocalSite(apiRoutes);
  const pageViews = views();
  const catalog = { shop: SHOP, pages: Object.fromEntries(pageViews) };
  let ticks = 0;
  const poll = (_req: unknown, res: ServerResponse): void => {
    ticks += 1;
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ tick: ticks }));
  };
  const aboutHtml =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${ABOUT.title}</title>` +
    `<meta name="description" content="${ABOUT.description}"></head><body><h1>${ABOUT.h1}</h1>` +
    `<p>${ABOUT.text}</p><a href="/">Home</a> <a href="/category/1">${CATEGORIES[0]}</a></body></html>`;
  const shopRoutes: [string, Route][] = [
    ['/robots.txt', typed('text/plain', 'User-agent: *\nDisallow: /private\nDisallow: /api/private\n')],
    ...[...pageViews.keys()].map((path): [string, Route] => [
      path,
      html(shellHtml(path, path === '/' ? '<footer><a href="/about">About the shop</a></footer>' : '')),
    ]),
    ['/about', html(aboutHtml)],
    ['/app.js', typed('text/javascript; charset=utf-8', shopAppJs(api.origin))],
    ['/api/catalog.json', typed('application/json', JSON.stringify(catalog))],
    [
      '/style.css',
      typed('text/css', 'body { font-family: sans-serif; background: #fdf6e3; }\nh1 { color: #b58900; }\n'),
    ],
    ['/api/poll', poll],
    ['/private/track', typed('text/plain', 'tracked\n')],
  ];
  const shop = await startLocalSite(shopRoutes);
  const a = shop.origin;
  const b = api.origin;

  const pages: RenderedPage[] = [...pageViews].map(([path, view]) => {
    const data = view.product === null ? null : productJson(view.product);
    const staticLinks = path === '/' ? [`${a}/about`] : [];
    return {
      url: `${a}${path}`,
      path,
      isShell: true,
      staticTitle: 'Loading',
      staticLinks,
      title: data === null ? view.title : `${data.name} · ${SHOP}`,
      description: data === null ? view.description : data.description,
      h1: data === null ? view.h1 : data.name,
      text: data === null ? view.text : data.text,
      // The script writes into #app, which comes before the static footer.
      links: [...view.links.map((link) => `${a}${link.href}`), ...staticLinks],
      uses: [
        `${a}/app.js`,
        `${a}/style.css`,
        `${a}/api/catalog.json`,
        ...(view.product === null ? [] : [`${b}/api/product-${view.product}.json`]),
        `${b}${view.image}`,
      ],
    };
  });
  const aboutLinks = [`${a}/`, `${a}/category/1`];
  pages.push({
    url: `${a}/about`,
    path: '/about',
    isShell: false,
    staticTitle: ABOUT.title,
    staticLinks: aboutLinks,
    ...ABOUT,
    links: aboutLinks,
    uses: [],
  });

  const bodies = new Map<string, Buffer>();
  for (const [origin, routes] of [
    [a, shopRoutes],
    [b, apiRoutes],
  ] as const) {
    for (const [path, route] of routes)
      if (typeof route !== 'function') bodies.set(`${origin}${path}`, Buffer.from(route.body ?? ''));
  }
  const isDisallowed = {
    shop: (path: string): boolean => path.startsWith('/private') || path.startsWith('/api/private'),
    api: (path: string): boolean => path.startsWith('/secret'),
  };
  return {
    shop,
    api,
    startUrl: `${a}/`,
    pages,
    page: (url) => pages.find((page) => page.url === url),
    disallowed: { shop: [`${a}/private/track`], api: [`${b}/secret/pixel`] },
    pollUrl: `${a}/api/poll`,
    logs: { shop: shop.requests, api: api.requests },
    disallowedRequests: () => [
      ...shop.requests.filter((r) => isDisallowed.shop(r.url)),
      ...api.requests.filter((r) => isDisallowed.api(r.url)),
    ],
    bodies,
    close: async () => {
      await Promise.all([shop.close(), api.close()]);
    },
  };
}

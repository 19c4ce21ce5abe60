/**
 * A small site that looks like a real one, for the faithful-archive test: its
 * pages need every kind of page resource to display (stylesheets with
 * `@import` and `url()`, classic and module scripts that write text, images
 * in `src`, `srcset`, `<picture>`, inline styles, `<style>` blocks, SVG,
 * a poster, an image button, icons, a manifest, a preload, media, an iframe),
 * some of them on a second host (a "CDN") whose robots.txt disallows a
 * folder; it links to a PDF and a PNG (linked files) and uses one missing
 * image. Every request either host gets is logged with its times.
 *
 * The images are real PNGs in solid colours, so a screenshot shows whether
 * they loaded.
 */
import { PNG } from 'pngjs';
import { startLocalSite, type LocalSite, type StaticResponse } from '../../src/shells/cli/local-site.ts';

/** A `width`×`height` PNG of one colour. */
export function solidPng(width: number, height: number, [r, g, b]: readonly [number, number, number]): Buffer {
  const image = new PNG({ width, height });
  for (let i = 0; i < image.data.length; i += 4) image.data.set([r, g, b, 255], i);
  return PNG.sync.write(image);
}

/** A one-page PDF that says "Tabcrawl" (enough for a reader to open; its bytes are what matters). */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 100]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj\n' +
    '4 0 obj<</Length 41>>stream\nBT /F1 18 Tf 20 40 Td (Tabcrawl) Tj ET\nendstream endobj\n' +
    '5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

const typed = (type: string, body: string | Uint8Array): StaticResponse => ({
  headers: { 'content-type': type },
  body,
});
const png = (width: number, height: number, rgb: readonly [number, number, number]): StaticResponse =>
  typed('image/png', solidPng(width, height, rgb));

export interface ResourceSites {
  /** The site crawled: its `/` is the start page. */
  readonly site: LocalSite;
  /** The second host the site's pages use resources from; its robots.txt disallows `/private/`. */
  readonly cdn: LocalSite;
  /** Paths of `site` a faithful crawl must fetch exactly once each (robots.txt and the missing image included). */
  readonly sitePaths: readonly string[];
  /** Paths of `cdn` a faithful crawl must fetch exactly once each. */
  readonly cdnPaths: readonly string[];
  /** Page resources the crawl must record as broken: the missing image. */
  readonly missingPaths: readonly string[];
  /** The CDN path robots.txt disallows, which no request may name. */
  readonly disallowedCdnPath: string;
  /** What each host served, by absolute URL: the bytes the archive must hold. */
  readonly bodies: ReadonlyMap<string, Buffer>;
  /** Text the site's scripts write into the page once they ran, by element id. */
  readonly scriptText: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** Starts the CDN, then the site (whose pages name the CDN's origin). */
export async function startResourceSites(): Promise<ResourceSites> {
  const scriptText = { 'from-script': 'Written by app.js', 'from-module': 'Written by widget.mjs' };
  const cdnRoutes: [string, StaticResponse][] = [
    ['/robots.txt', typed('text/plain', 'User-agent: *\nDisallow: /private/\n')],
    [
      '/css/cdn.css',
      typed(
        'text/css',
        '.cdn-box { width: 120px; height: 40px; background: url(../img/cdn-bg.png) repeat; border: 4px solid #2a7; }\n',
      ),
    ],
    ['/img/cdn-bg.png', png(8, 8, [40, 170, 120])],
    ['/img/cdn-logo.png', png(90, 30, [220, 120, 20])],
    // Would only set a flag nobody shows: the live page and its replay look the same without it.
    ['/private/tracker.js', typed('text/javascript', 'window.trackerLoaded = true;\n')],
  ];
  const cdn = await startLocalSite(cdnRoutes);
  const c = cdn.origin;
  const page = (title: string, body: string): string =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="stylesheet" href="/css/main.css">
<link rel="stylesheet" href="/css/print.css" media="print">
<link rel="alternate stylesheet" href="/css/contrast.css" title="High contrast">
<link rel="stylesheet" href="${c}/css/cdn.css">
<link rel="icon" href="/favicon.png">
<link rel="apple-touch-icon" href="/img/touch-icon.png">
<link rel="manifest" href="/site.webmanifest">
<link rel="preload" as="image" href="/img/preloaded.png">
<link rel="modulepreload" href="/js/widget.mjs">
<style>.from-style-block { width: 60px; height: 20px; background: url(/img/style-block.png); }</style>
<script src="/js/app.js" defer></script>
<script type="module" src="/js/widget.mjs"></script>
<script src="${c}/private/tracker.js" async></script>
</head><body>${body}</body></html>`;
  const home = page(
    'Faithful home',
    `<h1>A faithful archive</h1>
<p id="from-script">not yet</p><p id="from-module">not yet</p>
<img src="/img/logo.png" alt="logo" width="80" height="40">
<img src="/img/hero-1x.png" srcset="/img/hero-1x.png 1x, /img/hero-2x.png 2x" alt="hero" width="100" height="30">
<picture><source srcset="/img/picture.png" type="image/png"><img src="/img/picture-fallback.png" alt="picture" width="50" height="50"></picture>
<img src="${c}/img/cdn-logo.png" alt="cdn logo" width="90" height="30">
<img src="/img/missing.png" alt="">
<div class="cdn-box"></div>
<div class="from-style-block"></div>
<div style="width: 70px; height: 20px; background: url('/img/inline-style.png')"></div>
<svg width="40" height="40"><image href="/img/in-svg.png" width="40" height="40"/></svg>
<input type="image" src="/img/button.png" alt="go" width="30" height="30">
<video poster="/img/poster.png" width="64" height="36" preload="none"><source src="/media/clip.webm" type="video/webm"><track src="/media/clip.vtt" kind="captions"></video>
<audio src="/media/sound.ogg" preload="none"></audio>
<iframe src="/frame" width="200" height="60" title="frame"></iframe>
<ul><li><a href="/about">About</a></li><li><a href="/docs/guide.pdf">The guide (PDF)</a></li><li><a href="/img/photo.png">A photo</a></li></ul>`,
  );
  const about = page(
    'About',
    `<h1>About</h1><img src="/img/logo.png" alt="logo" width="80" height="40"><p id="from-script">not yet</p><p id="from-module">not yet</p><a href="/">Home</a>`,
  );
  const frame = `<!doctype html><html><head><meta charset="utf-8"><title>Frame</title><link rel="stylesheet" href="/css/frame.css"></head><body><img src="/img/in-frame.png" alt="in frame" width="30" height="30"> framed</body></html>`;
  const siteRoutes: [string, StaticResponse][] = [
    ['/robots.txt', typed('text/plain', 'User-agent: *\nAllow: /\n')],
    ['/', typed('text/html; charset=utf-8', home)],
    ['/about', typed('text/html; charset=utf-8', about)],
    ['/frame', typed('text/html; charset=utf-8', frame)],
    [
      '/css/main.css',
      typed(
        'text/css',
        '@import url("type.css");\nbody { margin: 8px; background: #fdf6e3 url(../img/bg.png) repeat-x; }\nh1 { color: #b58900; }\n',
      ),
    ],
    [
      '/css/type.css',
      typed(
        'text/css',
        '@import "colors.css";\n@font-face { font-family: SiteFace; src: url(../fonts/site.woff2) format("woff2"); }\np { font-family: SiteFace, sans-serif; }\n',
      ),
    ],
    [
      '/css/colors.css',
      typed('text/css', '#from-script { color: rgb(38, 139, 210); }\n#from-module { color: rgb(211, 54, 130); }\n'),
    ],
    ['/css/print.css', typed('text/css', 'body { background: white; }\n')],
    ['/css/contrast.css', typed('text/css', 'body { background: black; color: white; }\n')],
    ['/css/frame.css', typed('text/css', 'body { margin: 0; background: rgb(238, 232, 213); }\n')],
    ['/fonts/site.woff2', typed('font/woff2', 'not a real font: the browser falls back, live and in replay\n')],
    [
      '/js/app.js',
      typed(
        'text/javascript',
        `document.getElementById('from-script').textContent = ${JSON.stringify(scriptText['from-script'])};\n`,
      ),
    ],
    [
      '/js/widget.mjs',
      typed(
        'text/javascript',
        `document.getElementById('from-module').textContent = ${JSON.stringify(scriptText['from-module'])};\n`,
      ),
    ],
    ['/favicon.png', png(16, 16, [203, 75, 22])],
    ['/site.webmanifest', typed('application/manifest+json', '{"name":"Faithful","icons":[]}\n')],
    ['/img/bg.png', png(4, 30, [238, 232, 213])],
    ['/img/logo.png', png(80, 40, [38, 139, 210])],
    ['/img/hero-1x.png', png(100, 30, [133, 153, 0])],
    ['/img/hero-2x.png', png(200, 60, [133, 153, 0])],
    ['/img/picture.png', png(50, 50, [108, 113, 196])],
    ['/img/picture-fallback.png', png(50, 50, [0, 0, 0])],
    ['/img/style-block.png', png(6, 6, [211, 54, 130])],
    ['/img/inline-style.png', png(6, 6, [42, 161, 152])],
    ['/img/in-svg.png', png(40, 40, [220, 50, 47])],
    ['/img/button.png', png(30, 30, [88, 110, 117])],
    ['/img/poster.png', png(64, 36, [147, 161, 161])],
    ['/img/touch-icon.png', png(20, 20, [7, 54, 66])],
    ['/img/preloaded.png', png(10, 10, [0, 43, 54])],
    ['/img/in-frame.png', png(30, 30, [181, 137, 0])],
    ['/img/photo.png', png(120, 80, [101, 123, 131])],
    ['/media/clip.webm', typed('video/webm', new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4]))],
    ['/media/clip.vtt', typed('text/vtt', 'WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n')],
    ['/media/sound.ogg', typed('audio/ogg', new Uint8Array([0x4f, 0x67, 0x67, 0x53, 0, 2, 0, 0]))],
    ['/docs/guide.pdf', typed('application/pdf', PDF)],
  ];
  const site = await startLocalSite(siteRoutes);
  const bodies = new Map<string, Buffer>();
  for (const [origin, routes] of [
    [site.origin, siteRoutes],
    [cdn.origin, cdnRoutes],
  ] as const) {
    for (const [path, route] of routes) bodies.set(`${origin}${path}`, Buffer.from(route.body ?? ''));
  }
  const sitePaths = [
    '/robots.txt',
    '/',
    '/about',
    '/frame',
    '/css/main.css',
    '/css/type.css',
    '/css/colors.css',
    '/css/print.css',
    '/css/contrast.css',
    '/css/frame.css',
    '/fonts/site.woff2',
    '/js/app.js',
    '/js/widget.mjs',
    '/favicon.png',
    '/site.webmanifest',
    '/img/bg.png',
    '/img/logo.png',
    '/img/hero-1x.png',
    '/img/hero-2x.png',
    '/img/picture.png',
    '/img/picture-fallback.png',
    '/img/style-block.png',
    '/img/inline-style.png',
    '/img/in-svg.png',
    '/img/button.png',
    '/img/poster.png',
    '/img/touch-icon.png',
    '/img/preloaded.png',
    '/img/in-frame.png',
    '/img/photo.png',
    '/img/missing.png',
    '/media/clip.webm',
    '/media/clip.vtt',
    '/media/sound.ogg',
    '/docs/guide.pdf',
  ];
  return {
    site,
    cdn,
    sitePaths,
    cdnPaths: ['/robots.txt', '/css/cdn.css', '/img/cdn-bg.png', '/img/cdn-logo.png'],
    missingPaths: ['/img/missing.png'],
    disallowedCdnPath: '/private/tracker.js',
    bodies,
    scriptText,
    close: async () => {
      await Promise.all([site.close(), cdn.close()]);
    },
  };
}

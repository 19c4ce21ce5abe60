/**
 * The pages the Firefox rendering probe (`firefox-render-probe.test.ts`) loads: a shell whose script
 * reads JSON (same host and the other host), adds a stylesheet and an image, imports a module, asks
 * for a URL the probe refuses, and writes into `#out` what each of these gave it; and a page that
 * starts a worker, a beacon, a WebSocket, a window and a service worker, then navigates itself elsewhere.
 * Every script records its results as JSON in `#out` and sets `data-done` when all have settled.
 */
import type { Routes, StaticResponse } from '../../src/shells/cli/local-site.ts';

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const typed = (type: string, body: string | Uint8Array): StaticResponse => ({
  // Every answer allows every origin: a cross-host fetch that fails does so because of how it was answered.
  headers: { 'content-type': type, 'access-control-allow-origin': '*' },
  body,
});
const json = (body: string): StaticResponse => typed('application/json', body);
const js = (body: string): StaticResponse => typed('text/javascript', body);
const html = (body: string): StaticResponse => typed('text/html; charset=utf-8', body);

/** Shared by the two page scripts: `R` collects results, `settle(key, value)` records one. */
const RESULTS = `
  const R = {}; let pending = 0;
  const out = () => { const o = document.getElementById('out'); o.textContent = JSON.stringify(R); if (pending === 0) o.dataset.done = '1'; };
  const track = (key, promise) => { pending++; promise.then((v) => { R[key] = v; }, (e) => { R[key] = 'error: ' + String(e); }).finally(() => { pending--; out(); }); };
`;

/** The shell page's script; `other` is the other host's origin. */
function appScript(other: string): string {
  return `${RESULTS}
  R.href = location.href;
  R.color = getComputedStyle(document.body).color;
  try { R.cssRules = document.styleSheets[0].cssRules.length; } catch (e) { R.cssRules = 'error: ' + String(e); }
  // Once the image has loaded: read as the script starts, an image not decoded yet under load reads 0.
  const img = document.getElementById('img');
  track('img', img.complete ? Promise.resolve(img.naturalWidth) : new Promise((resolve, reject) => { img.onload = () => resolve(img.naturalWidth); img.onerror = () => reject(new Error('image failed')); }));
  track('who', fetch('/who.json').then((r) => r.json()));
  track('fetch', fetch('/data.json').then(async (r) => ({ url: r.url, body: await r.text() })));
  track('crossFetch', fetch(${JSON.stringify(`${other}/cross.json`)}).then(async (r) => ({ url: r.url, body: await r.text() })));
  track('refused', fetch('/refused.json').then((r) => r.status));
  track('xhr', new Promise((resolve, reject) => { const x = new XMLHttpRequest(); x.open('GET', '/xhr.json'); x.onload = () => resolve({ url: x.responseURL, body: x.responseText }); x.onerror = () => reject(new Error('xhr failed')); x.send(); }));
  track('addedCss', new Promise((resolve, reject) => { const l = document.createElement('link'); l.rel = 'stylesheet'; l.href = '/added.css'; l.onload = () => resolve(getComputedStyle(document.getElementById('out')).backgroundColor); l.onerror = () => reject(new Error('stylesheet failed')); document.head.append(l); }));
  track('addedImg', new Promise((resolve, reject) => { const i = new Image(); i.onload = () => resolve(i.naturalWidth); i.onerror = () => reject(new Error('image failed')); i.src = '/added.png'; document.body.append(i); }));
  track('module', import('/module.js').then((m) => m.answer));
  setTimeout(() => { throw new Error('thrown by the page'); }, 0);
  Promise.reject(new Error('rejected by the page'));
  out();`;
}

/** The second page's script: what a page can start besides subresources. */
const OUTSIDE_SCRIPT = `${RESULTS}
  track('worker', new Promise((resolve, reject) => { const w = new Worker('/worker.js'); w.onmessage = (e) => resolve(e.data); w.onerror = () => reject(new Error('worker failed')); }));
  R.beacon = navigator.sendBeacon('/beacon', 'x');
  track('socket', new Promise((resolve, reject) => { const s = new WebSocket('ws://' + location.host + '/socket'); s.onopen = () => resolve('open'); s.onerror = () => reject(new Error('socket failed')); }));
  R.opened = window.open('/opened.html') !== null;
  track('serviceWorker', navigator.serviceWorker.register('/sw.js').then(() => 'registered'));
  track('navigated', new Promise((resolve) => setTimeout(() => { location.href = '/elsewhere.html'; resolve('asked'); }, 100)));
  out();`;

/** Host A: the two pages and what they ask for. `/who.json` answers `{"ua": <the request's User-Agent>}`. */
export function hostA(other: string): Routes {
  return {
    '/who.json': (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      res.end(JSON.stringify({ ua: req.headers['user-agent'] ?? null }));
    },
    '/shell.html': html(
      '<!doctype html><html><head><title>shell</title><link rel="stylesheet" href="/style.css"></head>' +
        '<body><div id="out"></div><img id="img" src="/img.png"><script src="/app.js"></script></body></html>',
    ),
    '/style.css': typed('text/css', 'body { color: rgb(1, 2, 3) } #img { background-image: url(bg.png) }'),
    '/added.css': typed('text/css', 'div { background-color: rgb(4, 5, 6) }'),
    '/img.png': typed('image/png', PNG),
    '/bg.png': typed('image/png', PNG),
    '/added.png': typed('image/png', PNG),
    '/favicon.ico': typed('image/png', PNG),
    '/data.json': json('{"a":1}'),
    '/xhr.json': json('{"x":1}'),
    '/refused.json': json('{"never":1}'),
    '/module.js': js('export const answer = 42;'),
    '/app.js': js(appScript(other)),
    '/outside.html': html(
      '<!doctype html><html><head><title>outside</title></head><body><div id="out"></div>' +
        '<iframe src="/frame.html"></iframe><script src="/outside.js"></script></body></html>',
    ),
    '/outside.js': js(OUTSIDE_SCRIPT),
    '/frame.html': html('<!doctype html><p>frame</p><script>fetch("/frame.json")</script>'),
    '/frame.json': json('{"f":1}'),
    '/worker.js': js('fetch("/worker.json").then((r) => r.text()).then((t) => postMessage(t));'),
    '/worker.json': json('{"w":1}'),
    '/sw.js': js('self.addEventListener("install", () => { fetch("/sw.json"); });'),
    '/sw.json': json('{"s":1}'),
    '/opened.html': html('<!doctype html><title>opened</title>'),
    '/beacon': json('{}'),
    '/elsewhere.html': html('<!doctype html><title>elsewhere</title>'),
  };
}

/** Host B: what the shell's script asks of another host. */
export const HOST_B: Routes = { '/cross.json': json('{"b":2}') };

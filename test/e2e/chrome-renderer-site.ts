/**
 * A hostile client-rendered site on two local ports, for the renderer's end-to-end test. Host A serves
 * an app page whose script fetches JSON, adds a stylesheet and an image, calls host B, starts a worker
 * that fetches, embeds host B in a frame, opens WebSockets (also from a worker and from a fresh
 * `about:blank` frame), sends a beacon, opens a popup and a dialog, navigates itself elsewhere, throws,
 * and polls forever; and a quiet page that loads more when scrolled. Every request and every WebSocket
 * upgrade the servers receive is logged, so a test can compare it with what the crawl fetched.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a server received: `host:port path`, method, and whether it asked for a WebSocket. */
export interface LoggedRequest {
  url: string;
  method: string;
  upgrade: boolean;
  /** The request's `User-Agent` and `Cookie` headers, when sent. */
  userAgent?: string;
  cookie?: string;
}

export interface RenderSite {
  /** `http://a.test:PORT` and `http://b.test:PORT` (the browser maps `*.test` to 127.0.0.1). */
  a: string;
  b: string;
  log: LoggedRequest[];
  close(): Promise<void>;
}

const APP_SCRIPT = (b: string): string => `
const say = (text) => { const p = document.createElement('p'); p.textContent = text; document.body.append(p); };
say('visibility ' + document.visibilityState);
say('cookie [' + document.cookie + ']');
document.cookie = 'planted=1; path=/';
(async () => {
  const data = await (await fetch('/data.json')).json();
  const h1 = document.createElement('h1'); h1.textContent = data.heading; document.body.append(h1);
  document.title = data.heading;
  const css = document.createElement('link'); css.rel = 'stylesheet'; css.href = '/style.css'; document.head.append(css);
  const img = document.createElement('img'); img.src = '/pic.svg'; document.body.append(img);
  fetch('${b}/api.json').then((r) => r.json()).then((d) => say(d.text), (e) => say('api failed ' + e));
  fetch('/refused.json').then(() => say('refused answered'), () => say('refused failed'));
  new Worker('/worker.js');
  try {
    const socket = new WebSocket('ws://' + location.host + '/socket');
    say('socket created');
    socket.onclose = (event) => say('socket closed ' + event.code);
  } catch (e) { say('socket refused'); }
  navigator.sendBeacon('/beacon', 'x');
  // A sandboxed document without allow-popups: Chrome's window.open answers null, Firefox's throws.
  let popup = null;
  try { popup = window.open('${b}/popup.html'); } catch {}
  say('popup ' + (popup === null ? 'blocked' : 'opened'));
  try { alert('a dialog'); } catch {}
  const blank = document.createElement('iframe'); document.body.append(blank);
  try { new blank.contentWindow.WebSocket('ws://' + location.host + '/blank-socket'); } catch {}
  try { new blank.contentWindow.SharedWorker('/shared.js'); } catch {}
  const a = document.createElement('a'); a.href = '${b}/download.bin'; a.download = 'x.bin'; document.body.append(a); a.click();
  setInterval(() => fetch('/poll?' + Date.now()).catch(() => {}), 150);
  setTimeout(() => { location.href = '/elsewhere.html'; }, 300);
  Promise.reject(new Error('rejection-marker'));
  throw new Error('error-marker');
})();
`;

const WORKER_SCRIPT = `
fetch('/from-worker.json');
try { new WebSocket('ws://' + self.location.host + '/worker-socket'); } catch {}
`;

const SHARED_WORKER_SCRIPT = `fetch('/from-shared.json');`;

const FRAME_PAGE = `<!doctype html><title>frame</title><p>frame</p>
<script>fetch('/frame-data.json'); try { new WebSocket('ws://' + location.host + '/frame-socket'); } catch {}</script>`;

const QUIET_PAGE = `<!doctype html><html><head><title>Quiet</title></head><body>
<div style="height: 5000px">tall</div>
<script>
fetch('/data.json').then((r) => r.json()).then((d) => { const h = document.createElement('h1'); h.textContent = d.heading; document.body.append(h); });
addEventListener('scroll', () => fetch('/lazy.json').then((r) => r.json()).then((d) => {
  const p = document.createElement('p'); p.textContent = d.text; document.body.append(p);
}), { once: true });
</script></body></html>`;

/** A page whose script reads a JSON URL that redirects (`/moved.json` → `/data.json`). */
const REDIRECTING_PAGE = `<!doctype html><title>Redirecting</title>
<script>fetch('/moved.json').then((r) => r.json()).then((d) => { const h = document.createElement('h1'); h.textContent = d.heading; document.body.append(h); });</script>`;

/**
 * A page whose script, and its worker's, ask for URLs the probe's `serve` refuses, one after another with no
 * pause (each failure asks again at once: promise callbacks, unlike the timers of a hidden page, are not
 * throttled), until the tab is gone: one that reaches a server got past the renderer (as at the debugger's detach).
 */
const HAMMER_PAGE = `<!doctype html><title>Hammer</title><p>hammer</p>
<script>
let n = 0;
const ask = () => fetch('/refused-hammer?' + (n++)).catch(() => {}).finally(ask);
for (let i = 0; i < 3; i += 1) ask();
new Worker('/hammer-worker.js');
</script>`;

const HAMMER_WORKER = `let n = 0;
const ask = () => fetch('/refused-hammer-worker?' + (n++)).catch(() => {}).finally(ask);
ask();`;

/** A page whose script loops forever once loaded: it holds the page's main thread. */
const BUSY_PAGE = `<!doctype html><title>Busy</title><p>busy page</p>
<script>setTimeout(() => { document.body.append('looping'); for (;;) {} }, 200);</script>`;

/** Starts hosts A and B on free ports of 127.0.0.1. */
export async function startRenderSite(): Promise<RenderSite> {
  const log: LoggedRequest[] = [];
  const ports: number[] = [];
  const origins = { a: '', b: '' };

  function handle(port: number, request: IncomingMessage, response: ServerResponse): void {
    const path = request.url ?? '/';
    log.push({
      url: `${hostOf(port)}:${port}${path}`,
      method: request.method ?? 'GET',
      upgrade: false,
      ...(request.headers['user-agent'] === undefined ? {} : { userAgent: request.headers['user-agent'] }),
      ...(request.headers.cookie === undefined ? {} : { cookie: request.headers.cookie }),
    });
    const send = (type: string, body: string): void => {
      response.writeHead(200, { 'content-type': type, 'access-control-allow-origin': '*', 'set-cookie': 'seen=1' });
      response.end(body);
    };
    const name = path.split('?')[0];
    if (name === '/app.html') {
      send(
        'text/html',
        `<!doctype html><html><head><title>Loading</title></head><body><div id="app">Loading</div>` +
          `<iframe src="${origins.b}/frame.html"></iframe>` +
          `<a ping="/ping-target" href="/x">x</a><script src="/app.js"></script>` +
          `<script type="speculationrules">{"prefetch": [{"source": "list", "urls": ["/prefetched.html"]}],` +
          ` "prerender": [{"source": "list", "urls": ["/prerendered.html"]}]}</script></body></html>`,
      );
    } else if (name === '/app.js') send('text/javascript', APP_SCRIPT(origins.b));
    else if (name === '/worker.js') send('text/javascript', WORKER_SCRIPT);
    else if (name === '/shared.js') send('text/javascript', SHARED_WORKER_SCRIPT);
    else if (name === '/frame.html') send('text/html', FRAME_PAGE);
    else if (name === '/quiet.html') send('text/html', QUIET_PAGE);
    else if (name === '/busy.html') send('text/html', BUSY_PAGE);
    else if (name === '/hammer.html') send('text/html', HAMMER_PAGE);
    else if (name === '/hammer-worker.js') send('text/javascript', HAMMER_WORKER);
    else if (name === '/redirecting.html') send('text/html', REDIRECTING_PAGE);
    else if (name === '/moved.json') {
      response.writeHead(302, { location: '/data.json', 'set-cookie': 'moved=1' });
      response.end();
    } else if (name === '/data.json') send('application/json', JSON.stringify({ heading: 'Rendered shop' }));
    else if (name === '/api.json') send('application/json', JSON.stringify({ text: 'from host B' }));
    else if (name === '/lazy.json') send('application/json', JSON.stringify({ text: 'loaded on scroll' }));
    else if (name === '/style.css') send('text/css', 'h1 { color: green }');
    else if (name === '/pic.svg')
      send('image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
    else send('application/json', '{}');
  }

  function hostOf(port: number): string {
    return port === ports[0] ? 'a.test' : 'b.test';
  }

  const servers: Server[] = [];
  for (let i = 0; i < 2; i += 1) {
    const server = createServer((request, response) => handle(ports[i] ?? 0, request, response));
    server.on('upgrade', (request: IncomingMessage, socket: { destroy(): void }) => {
      log.push({ url: `${hostOf(ports[i] ?? 0)}:${ports[i]}${request.url ?? '/'}`, method: 'GET', upgrade: true });
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ports.push((server.address() as AddressInfo).port);
    servers.push(server);
  }
  origins.a = `http://a.test:${ports[0]}`;
  origins.b = `http://b.test:${ports[1]}`;
  return {
    ...origins,
    log,
    async close() {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}

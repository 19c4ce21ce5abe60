/**
 * ReplayWeb.page (npm `replaywebpage`, Webrecorder's own viewer) served on
 * 127.0.0.1, to open a WACZ the way an archivist would: its `<replay-web-page>`
 * element, its service worker, and the archive fetched from the same origin
 * (with range requests, as from any web server). Nothing here reads the WACZ:
 * ReplayWeb.page does, and the tests look at the page it shows.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { startLocalSite, type LocalSite } from '../../src/shells/cli/local-site.ts';

/** The folder of the installed `replaywebpage` package (its prebuilt `ui.js` and `sw.js`). */
export const REPLAY_WEB_PAGE_DIR = dirname(createRequire(import.meta.url).resolve('replaywebpage/index.html'));

/** How long ReplayWeb.page may take to load the archive and show the page, in ms. */
const REPLAY_TIMEOUT_MS = 60_000;

/** Serves `bytes` with `Accept-Ranges`, answering `Range: bytes=a-b` with 206 as a static server does. */
function servesRanges(bytes: Buffer, type: string) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    const headers = { 'content-type': type, 'accept-ranges': 'bytes' };
    if (range === null) {
      res.writeHead(200, { ...headers, 'content-length': String(bytes.byteLength) });
      res.end(req.method === 'HEAD' ? undefined : bytes);
      return;
    }
    const [, from = '', to = ''] = range;
    const start = from === '' ? Math.max(0, bytes.byteLength - Number(to)) : Number(from);
    const end = from === '' || to === '' ? bytes.byteLength - 1 : Math.min(Number(to), bytes.byteLength - 1);
    if (start > end || start >= bytes.byteLength) {
      res.writeHead(416, { 'content-range': `bytes */${bytes.byteLength}` }).end();
      return;
    }
    const part = bytes.subarray(start, end + 1);
    res.writeHead(206, {
      ...headers,
      'content-length': String(part.byteLength),
      'content-range': `bytes ${start}-${end}/${bytes.byteLength}`,
    });
    res.end(req.method === 'HEAD' ? undefined : part);
  };
}

export interface ReplayServer extends LocalSite {
  /** The embedding page's URL for the archive's capture of `url`, shown `width`×`height` CSS px. */
  pageFor(url: string, size: { width: number; height: number }): string;
}

/**
 * Serves ReplayWeb.page and one archive: `/` embeds `<replay-web-page>` in
 * `embed="replayonly"` mode (the archived page alone, no viewer chrome), at a
 * given size so its screenshot lines up with the live page's.
 */
export async function serveReplay(wacz: Buffer): Promise<ReplayServer> {
  const file = (name: string): Buffer => readFileSync(join(REPLAY_WEB_PAGE_DIR, name));
  const script = (body: Buffer) => servesRanges(body, 'text/javascript');
  const server = await startLocalSite([
    [
      (path: string) => path.startsWith('/?'),
      (req: IncomingMessage, res: ServerResponse) => {
        const query = new URL(req.url ?? '/', 'http://x').searchParams;
        const html = `<!doctype html><html><head><meta charset="utf-8"><script src="/ui.js"></script>
<style>html, body { margin: 0; padding: 0; overflow: hidden; } replay-web-page { display: block; width: ${Number(query.get('w'))}px; height: ${Number(query.get('h'))}px; }</style>
</head><body><replay-web-page source="/archive.wacz" url="${encodeURI(query.get('url') ?? '')}" embed="replayonly" replaybase="/replay/"></replay-web-page></body></html>`;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      },
    ],
    ['/ui.js', script(file('ui.js'))],
    [(path: string) => path === '/replay/sw.js' || path.startsWith('/replay/sw.js?'), script(file('sw.js'))],
    ['/archive.wacz', servesRanges(wacz, 'application/wacz')],
    // ReplayWeb.page opens its viewer under /replay/ once its worker is *registered*, which can be before the
    // worker is active: that first load then reaches this server instead. Load it again once the worker is ready,
    // as a person would reload (about one open in six on this machine).
    [
      (path: string) => path.startsWith('/replay/'),
      {
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '<!doctype html><script>navigator.serviceWorker.ready.then(() => location.reload());</script>',
      },
    ],
  ]);
  return Object.assign(server, {
    pageFor: (url: string, size: { width: number; height: number }) =>
      `${server.origin}/?${new URLSearchParams({ url, w: String(size.width), h: String(size.height) }).toString()}`,
  });
}

/**
 * Opens the replay of `url` in `page` and waits until ReplayWeb.page shows it: the frame that
 * holds the archived page has loaded, its images have settled and the network is quiet.
 * @returns the frame of the archived page (its document is the replayed one, URLs rewritten).
 * @throws Error naming what ReplayWeb.page showed instead, when it never shows the page.
 */
export async function openReplay(page: Page, server: ReplayServer, url: string): Promise<Frame> {
  const viewport = page.viewportSize() ?? { width: 800, height: 600 };
  await page.goto(server.pageFor(url, viewport));
  const deadline = Date.now() + REPLAY_TIMEOUT_MS;
  for (;;) {
    // The archived page is served by the service worker under /replay/w/<collection>/…/<timestamp>mp_/<url>.
    const frame = page
      .frames()
      .find((f) => f.url().startsWith(`${server.origin}/replay/w/`) && f.url().endsWith(`mp_/${url}`));
    if (frame !== undefined) {
      await frame.waitForLoadState('load', { timeout: Math.max(1, deadline - Date.now()) });
      await page
        .waitForLoadState('networkidle', { timeout: Math.max(1, deadline - Date.now()) })
        .catch(() => undefined);
      return frame;
    }
    if (Date.now() > deadline) {
      const frames = page
        .frames()
        .map((f) => f.url())
        .join(', ');
      const text = await page.evaluate(() => document.body.innerText).catch(() => '');
      throw new Error(
        `ReplayWeb.page did not show ${url} within ${REPLAY_TIMEOUT_MS} ms (frames: ${frames}; page text: ${text.slice(0, 300)})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Runs the built extension in Firefox and talks to its background page
 * through the typed protocol, from an extension page, as the Chromium driver
 * (`extension-driver.ts`) does. Firefox is driven over WebDriver BiDi with
 * puppeteer-core (Playwright cannot drive a stock Firefox), and over Firefox's
 * own debugging protocol for what BiDi cannot do with an add-on (see
 * `firefox-rdp.ts`). docs/firefox.md says why each step is as it is.
 */
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { TabcrawlError, type Reply, type ReplyOf, type RequestOf, type RequestType } from '../../messaging/protocol.ts';
import { SINK_NAME, withSinkWait, type SinkEvent } from '../../export/page-sink.ts';
import type { SinkPage } from './export-through-page.ts';
import type { FilePage } from './import-through-page.ts';
import { DRIVER_PAGE_PATH } from './extension-driver.ts';
import { RDP_PREFS, RdpClient } from './firefox-rdp.ts';

export interface FirefoxLaunchOptions {
  /** The Firefox build of the extension (`dist/firefox`). */
  distDir: string;
  /** The Firefox executable (see `findFirefox`). */
  firefoxPath: string;
  /** Run without a window. @default true */
  headless?: boolean;
  /** Preferences set in the new profile, on top of the driver's own. */
  prefs?: Record<string, string | number | boolean>;
  /** How long to wait for the add-on's background page and first page, in ms. @default 20000 */
  startTimeoutMs?: number;
}

/** A running Firefox with the extension installed (as a temporary add-on). */
export interface FirefoxSession {
  /** The add-on's id (`browser_specific_settings.gecko.id`). */
  readonly extensionId: string;
  /** The origin of its pages, `moz-extension://<uuid>` (the uuid is fixed per session). */
  readonly pagesOrigin: string;
  readonly distDir: string;
  /** The puppeteer browser, for what the session does not wrap. */
  readonly browser: Browser;
  /** The extension page messages are sent from. */
  readonly driverPage: Page;
  /**
   * Sends one request to the background and resolves with its reply.
   * @throws {TabcrawlError} when the background answers `{ ok: false }`, or does not answer.
   */
  request<K extends RequestType>(type: K, payload: RequestOf<K>): Promise<ReplyOf<K>>;
  /** Opens an extension page (e.g. `src/shells/popup/index.html`) in a new tab. */
  openPage(path: string): Promise<Page>;
  /** Opens an extension page with `sink` exposed on it as {@link SINK_NAME} before its scripts run (the export page's sink). */
  openSinkPage(path: string, sink: (event: SinkEvent) => Promise<void>): Promise<SinkPage>;
  /** Opens an extension page and puts the file at `filePath` into its file input `selector` (the import page's picker). */
  openFilePage(path: string, selector: string, filePath: string): Promise<FilePage>;
  /**
   * Stops the background page now, as Firefox does to an idle event page; the next message or alarm starts it again.
   * Resolves once Firefox says it is `STOPPED`: Firefox cancels a suspension when an event reaches the page while it
   * suspends (in a crawl, a stop within a few ms of a request is often canceled), so the request is repeated until one takes.
   * @throws Error when the page is still running after a few tries.
   */
  stopBackground(): Promise<void>;
  /** `RUNNING` or `STOPPED`, as about:debugging shows it. */
  backgroundStatus(): Promise<string>;
  /** Closes the browser and removes the profile. Safe to call twice. */
  close(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 for the debugger server. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** The gecko id the build wrote into its manifest. */
function geckoIdOf(distDir: string): string {
  const manifest = JSON.parse(readFileSync(join(distDir, 'manifest.json'), 'utf8')) as {
    browser_specific_settings?: { gecko?: { id?: string } };
  };
  const id = manifest.browser_specific_settings?.gecko?.id;
  if (id === undefined)
    throw new Error(
      `${distDir} is not a Firefox build (no browser_specific_settings.gecko.id in its manifest); build it with \`npm run build\``,
    );
  return id;
}

/** Where an extension page's `location.href` is read: puppeteer's `page.url()` can still say about:blank for them. */
async function hrefOf(page: Page): Promise<string> {
  return (await page.evaluate('location.href').catch(() => '')) as string;
}

/**
 * Launches Firefox with the extension installed, in a fresh temporary profile. Never downloads a browser.
 */
export async function launchFirefoxExtension(options: FirefoxLaunchOptions): Promise<FirefoxSession> {
  const extensionId = geckoIdOf(options.distDir);
  const uuid = crypto.randomUUID();
  const pagesOrigin = `moz-extension://${uuid}`;
  const port = await freePort();
  const profileRoot = mkdtempSync(join(tmpdir(), 'tabcrawl-firefox-'));
  const home = join(profileRoot, 'home');
  mkdirSync(home, { recursive: true });
  const timeoutMs = options.startTimeoutMs ?? 20_000;
  let browser: Browser | null = null;
  let rdp: RdpClient | null = null;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: options.firefoxPath,
      headless: options.headless ?? true,
      protocol: 'webDriverBiDi',
      args: ['--start-debugger-server', String(port)],
      env: { ...process.env, HOME: home, TMPDIR: profileRoot },
      handleSIGINT: false,
      extraPrefsFirefox: {
        ...RDP_PREFS,
        // The add-on's pages get this UUID as their host (Firefox picks a random one otherwise).
        'extensions.webextensions.uuids': JSON.stringify({ [extensionId]: uuid }),
        ...options.prefs,
      },
    });
    await browser.installExtension(resolve(options.distDir));
    rdp = await RdpClient.connect(port, timeoutMs);
    // The first extension page is opened by the add-on itself: BiDi may not navigate to moz-extension://.
    // It is asked on a connection of its own, closed at once: Firefox never stops an event page DevTools watch.
    const driverPage = await openThrough(browser, `${pagesOrigin}/${DRIVER_PAGE_PATH}`, timeoutMs, async (url) => {
      const opener = await RdpClient.connect(port, timeoutMs);
      try {
        await opener.evaluateInBackground(extensionId, `browser.tabs.create({ url: ${JSON.stringify(url)} })`);
      } finally {
        opener.close();
      }
    });
    return makeSession(browser, rdp, {
      extensionId,
      pagesOrigin,
      distDir: options.distDir,
      driverPage,
      profileRoot,
      timeoutMs,
    });
  } catch (error) {
    rdp?.close();
    await browser?.close().catch(() => undefined);
    rmSync(profileRoot, { recursive: true, force: true });
    throw error;
  }
}

/** Opens `url` by calling `open(url)` and resolves with its puppeteer page, found by its location. */
async function openThrough(
  browser: Browser,
  url: string,
  timeoutMs: number,
  open: (url: string) => Promise<unknown>,
): Promise<Page> {
  const before = new Set(await browser.pages());
  await open(url);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const page of await browser.pages()) {
      if (!before.has(page) && (await hrefOf(page)) === url) return page;
    }
    if (Date.now() > deadline) throw new Error(`the extension page ${url} did not open within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function makeSession(
  browser: Browser,
  rdp: RdpClient,
  parts: {
    extensionId: string;
    pagesOrigin: string;
    distDir: string;
    driverPage: Page;
    profileRoot: string;
    timeoutMs: number;
  },
): FirefoxSession {
  const { driverPage, pagesOrigin, extensionId } = parts;
  let closing: Promise<void> | null = null;

  /** Runs `body` (an async function's body, `browser` in scope) in the driver page; its value comes back as JSON. */
  const inDriver = (body: string): Promise<unknown> => driverPage.evaluate(`(async () => { ${body} })()`);

  async function request<K extends RequestType>(type: K, payload: RequestOf<K>): Promise<ReplyOf<K>> {
    const message = JSON.stringify({ type, payload });
    const reply = (await inDriver(`
      try { return await browser.runtime.sendMessage(${message}); }
      catch (error) { return { ok: false, error: { code: 'internal', message: 'could not reach the background: ' + (error && error.message || String(error)) } }; }
    `)) as Reply<K> | undefined | null;
    if (reply === undefined || reply === null)
      throw new TabcrawlError({ code: 'internal', message: `no answer from the background to ${type}` });
    if (!reply.ok) throw new TabcrawlError(reply.error);
    return reply.value;
  }

  async function openPage(path: string): Promise<Page> {
    const url = `${pagesOrigin}/${path.replace(/^\/+/, '')}`;
    return openThrough(browser, url, parts.timeoutMs, (target) =>
      inDriver(`await browser.tabs.create({ url: ${JSON.stringify(target)} });`),
    );
  }

  async function backgroundStatus(): Promise<string> {
    return (await rdp.addon(extensionId))?.backgroundScriptStatus ?? 'unknown';
  }

  async function stopBackground(): Promise<void> {
    // `terminateBackgroundScript` only starts a suspension; an extension event dispatched to the page before it is
    // gone cancels it (runtime.onSuspendCanceled) and the page runs on, untouched (its globals kept). During a crawl
    // that happened to 6 of 9 stops sent within 2 ms of a request reaching the server (to none of 7 sent 3-45 ms
    // after one): ask again. A page that renders has its tab's requests to tell of, event after event: 10 requests
    // 20 ms apart all failed once in CI, so it asks for up to 10 s.
    const GIVE_UP_MS = 10_000;
    const startedAt = Date.now();
    for (let attempt = 1; ; attempt++) {
      await rdp.terminateBackground(extensionId);
      const status = await backgroundStatus();
      if (status === 'STOPPED') return;
      if (Date.now() - startedAt >= GIVE_UP_MS)
        throw new Error(
          `the background page of ${extensionId} is still ${status} after ${attempt} requests to stop it in ${GIVE_UP_MS / 1000} s`,
        );
      await new Promise((r) => setTimeout(r, 20 + Math.min(attempt, 10) * 10));
    }
  }

  function close(): Promise<void> {
    closing ??= (async () => {
      rdp.close();
      await browser.close().catch(() => undefined);
      rmSync(parts.profileRoot, { recursive: true, force: true });
    })();
    return closing;
  }

  return {
    extensionId,
    pagesOrigin,
    distDir: parts.distDir,
    browser,
    driverPage,
    request,
    openPage,
    async openSinkPage(path, sink) {
      // BiDi cannot expose a function on an extension page before it loads: the page is told to wait for it.
      const page = await openPage(withSinkWait(path));
      await page.exposeFunction(SINK_NAME, sink);
      return { close: () => page.close(), onCrash: (listener) => void page.once('error', listener) };
    },
    async openFilePage(path, selector, filePath) {
      const page = await openPage(path);
      try {
        const input = await page.waitForSelector(selector, { timeout: parts.timeoutMs });
        if (input === null) throw new Error(`no ${selector} on ${path}`);
        await (input as ElementHandle<HTMLInputElement>).uploadFile(filePath);
      } catch (error) {
        await page.close().catch(() => undefined);
        throw error;
      }
      // A string expression: under tsx a function would be rewritten with helpers the page lacks.
      return { evaluate: (expression) => page.evaluate(expression), close: () => page.close() };
    },
    stopBackground,
    backgroundStatus,
    close,
  };
}

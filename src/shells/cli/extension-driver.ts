/**
 * Runs the built extension in Chromium and talks to its background service
 * worker through the typed protocol, from an extension page, exactly as the
 * popup does.
 *
 * Used by the CLI and by the end-to-end tests. Each session has its own
 * temporary profile (and `TMPDIR`/`HOME` for Chromium, so a killed browser
 * leaves nothing behind outside it).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { TabcrawlError, type Reply, type ReplyOf, type RequestOf, type RequestType } from '../../messaging/protocol.ts';
import { SINK_NAME, type SinkEvent } from '../../export/page-sink.ts';
import type { SinkPage } from './export-through-page.ts';
import type { FilePage } from './import-through-page.ts';
import QUIET_FLAGS from './chromium-flags.json' with { type: 'json' };

/**
 * Playwright reports every network request of a service worker it attaches to
 * (CDP Network events, serialized by the browser and parsed here) unless this
 * is set. Nothing here uses them, and a crawl's worker makes every request of
 * the crawl: measured, they cost CPU in the browser process on each request
 * and added about 2 ms to the mean gap between a host's requests. Read by
 * Playwright when it attaches to a worker, so set before any browser starts.
 */
process.env.PLAYWRIGHT_DISABLE_SERVICE_WORKER_NETWORK ??= '1';

/** The page the session keeps open to send messages from (any extension page would do). */
export const DRIVER_PAGE_PATH = 'src/shells/popup/index.html';

export interface LaunchOptions {
  /** The built extension (a folder with `manifest.json`). */
  distDir: string;
  /** The Chromium executable (see `findChromium`). */
  chromePath: string;
  /** Run without a window. @default true */
  headless?: boolean;
  /**
   * Load a private copy of `distDir` (kept in the profile folder), so that a
   * rebuild of `dist/` while the browser runs cannot break worker restarts.
   * @default false
   */
  copyDist?: boolean;
  /** The extension page opened once to send messages from. @default {@link DRIVER_PAGE_PATH} */
  driverPagePath?: string;
  /**
   * Where downloads land (set in the new profile's preferences, no prompt). Without it, Chromium uses
   * `$HOME/Downloads`, inside the temporary profile folder.
   */
  downloadDir?: string;
  /** How long to wait for the extension's service worker to start, in ms. @default 15000 */
  startTimeoutMs?: number;
  /**
   * Use this folder for the profile (created when missing) instead of a new
   * temporary one, and keep it on close: a later launch with the same folder
   * (and `copyDist`, so the extension loads from the same path and keeps its
   * id) is the same browser profile started again, IndexedDB included.
   */
  profileDir?: string;
  /**
   * More Chromium flags, after the verified ones (tests: `--host-resolver-rules` to make a host name fail
   * to resolve whatever the machine's DNS does). @default []
   */
  extraArgs?: string[];
}

/** A running browser with the extension loaded. */
export interface ExtensionSession {
  /** The extension's id (the host of its `chrome-extension://` URLs). */
  readonly extensionId: string;
  /** The folder the extension was loaded from (a copy when `copyDist`). */
  readonly distDir: string;
  /** The folder holding the profile, `TMPDIR` and `HOME`; removed by {@link ExtensionSession.close} unless the caller gave it. */
  readonly profileDir: string;
  /** The Playwright context, for what the session does not wrap. */
  readonly context: BrowserContext;
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
  /** Stops the background service worker now, as Chrome does after 30 s idle; the next message or alarm wakes it. */
  stopServiceWorker(): Promise<void>;
  /** Closes the browser and removes the profile folder. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * The launch flags verified on this platform (see PLATFORM.md). The quiet ones (no background
 * networking, no updates, no sync) matter on a closed network; they are shared with the browser tests.
 */
export function chromiumArgs(distDir: string, options: { headless: boolean; isRoot: boolean }): string[] {
  return [
    ...(options.headless ? ['--headless=new'] : []),
    ...(options.isRoot ? ['--no-sandbox'] : []),
    ...QUIET_FLAGS,
    `--disable-extensions-except=${distDir}`,
    `--load-extension=${distDir}`,
  ];
}

/** What a page needs of `chrome` to send a message; typed here because pages run outside Node's types. */
interface ChromeRuntimeGlobal {
  chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } };
}

function isExtensionWorker(worker: Worker): boolean {
  return worker.url().startsWith('chrome-extension://');
}

async function waitForExtensionWorker(context: BrowserContext, timeoutMs: number): Promise<Worker> {
  const existing = context.serviceWorkers().find(isExtensionWorker);
  if (existing !== undefined) return existing;
  try {
    return await context.waitForEvent('serviceworker', { predicate: isExtensionWorker, timeout: timeoutMs });
  } catch {
    // It may have registered between the check and the wait.
    const late = context.serviceWorkers().find(isExtensionWorker);
    if (late !== undefined) return late;
    throw new Error(
      `the extension's service worker did not start within ${timeoutMs} ms; is the folder a built extension?`,
    );
  }
}

/**
 * Launches Chromium with the extension loaded, in a fresh temporary profile.
 * Never downloads a browser.
 */
export async function launchExtension(options: LaunchOptions): Promise<ExtensionSession> {
  const headless = options.headless ?? true;
  const ownsProfile = options.profileDir === undefined;
  const profileDir = options.profileDir ?? mkdtempSync(join(tmpdir(), 'tabcrawl-'));
  let context: BrowserContext | null = null;
  try {
    const userDataDir = join(profileDir, 'user-data');
    const tmp = join(profileDir, 'tmp');
    const home = join(profileDir, 'home');
    for (const dir of [userDataDir, tmp, home]) mkdirSync(dir, { recursive: true });
    if (options.downloadDir !== undefined) {
      mkdirSync(join(userDataDir, 'Default'), { recursive: true });
      const preferences = { download: { default_directory: options.downloadDir, prompt_for_download: false } };
      writeFileSync(join(userDataDir, 'Default', 'Preferences'), JSON.stringify(preferences));
    }

    let distDir = options.distDir;
    if (options.copyDist === true) {
      distDir = join(profileDir, 'extension');
      rmSync(distDir, { recursive: true, force: true });
      cpSync(options.distDir, distDir, { recursive: true });
    }

    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: options.chromePath,
      headless,
      args: [...chromiumArgs(distDir, { headless, isRoot }), ...(options.extraArgs ?? [])],
      env: { ...process.env, TMPDIR: tmp, HOME: home },
      ...(options.downloadDir === undefined ? {} : { downloadsPath: options.downloadDir }),
      // Ctrl-C is the caller's to handle (the CLI stops the crawl, then still exports): Playwright must not close the browser.
      handleSIGINT: false,
    });

    const worker = await waitForExtensionWorker(context, options.startTimeoutMs ?? 15_000);
    const extensionId = new URL(worker.url()).host;
    const driverPage = await openExtensionPage(context, extensionId, options.driverPagePath ?? DRIVER_PAGE_PATH);
    return makeSession(context, { extensionId, distDir, profileDir, driverPage, ownsProfile });
  } catch (error) {
    await context?.close().catch(() => undefined);
    if (ownsProfile) rmSync(profileDir, { recursive: true, force: true });
    throw error;
  }
}

async function openExtensionPage(context: BrowserContext, extensionId: string, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extensionId}/${path.replace(/^\/+/, '')}`);
  return page;
}

function makeSession(
  context: BrowserContext,
  parts: { extensionId: string; distDir: string; profileDir: string; driverPage: Page; ownsProfile: boolean },
): ExtensionSession {
  const { driverPage, profileDir } = parts;
  let closing: Promise<void> | null = null;

  async function request<K extends RequestType>(type: K, payload: RequestOf<K>): Promise<ReplyOf<K>> {
    const reply = (await driverPage.evaluate(
      async (message) => {
        try {
          return await (globalThis as unknown as ChromeRuntimeGlobal).chrome.runtime.sendMessage(message);
        } catch (error) {
          // E.g. "Receiving end does not exist" when the worker registered no listener.
          const text = error instanceof Error ? error.message : String(error);
          return { ok: false, error: { code: 'internal', message: `could not reach the background: ${text}` } };
        }
      },
      { type, payload },
    )) as Reply<K> | undefined | null;
    if (reply === undefined || reply === null) {
      throw new TabcrawlError({ code: 'internal', message: `no answer from the background to ${type}` });
    }
    if (!reply.ok) throw new TabcrawlError(reply.error);
    return reply.value;
  }

  async function stopServiceWorker(): Promise<void> {
    const cdp = await context.newCDPSession(driverPage);
    try {
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  }

  function close(): Promise<void> {
    closing ??= context
      .close()
      .catch(() => undefined)
      .then(() => {
        if (parts.ownsProfile) rmSync(profileDir, { recursive: true, force: true });
      });
    return closing;
  }

  return {
    extensionId: parts.extensionId,
    distDir: parts.distDir,
    profileDir,
    context,
    request,
    openPage: (path) => openExtensionPage(context, parts.extensionId, path),
    async openSinkPage(path, sink) {
      const page = await context.newPage();
      try {
        await page.exposeFunction(SINK_NAME, sink);
        await page.goto(`chrome-extension://${parts.extensionId}/${path.replace(/^\/+/, '')}`);
      } catch (error) {
        await page.close().catch(() => undefined);
        throw error;
      }
      return { close: () => page.close(), onCrash: (listener) => void page.once('crash', listener) };
    },
    async openFilePage(path, selector, filePath) {
      const page = await openExtensionPage(context, parts.extensionId, path);
      try {
        await page.setInputFiles(selector, filePath);
      } catch (error) {
        await page.close().catch(() => undefined);
        throw error;
      }
      return { evaluate: (expression) => page.evaluate(expression), close: () => page.close() };
    },
    stopServiceWorker,
    close,
  };
}

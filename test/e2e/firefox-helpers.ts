/**
 * Shared steps of the Firefox end-to-end tests: the Firefox build of the
 * extension installed in headless Firefox (`firefox-driver.ts`: WebDriver BiDi
 * through puppeteer-core, and Firefox's debugging protocol to open the first
 * page and to stop the event page), driven through the same message protocol
 * as the Chromium tests (`crawlToEnd` and `exportRows` of helpers.ts take
 * either session).
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { findFirefox } from '../../src/shells/cli/firefox.ts';
import { launchFirefoxExtension, type FirefoxSession } from '../../src/shells/cli/firefox-driver.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import { ROOT, sleep } from './helpers.ts';

/**
 * The Firefox build the tests install: `dist/firefox/` (`npx vite build --mode firefox`), or
 * `TABCRAWL_FIREFOX_DIST` when set.
 */
export const FIREFOX_DIST_DIR = resolve(ROOT, process.env.TABCRAWL_FIREFOX_DIST ?? 'dist/firefox');

/**
 * Launches Firefox with the add-on installed from a private copy of the build: Firefox installs a
 * temporary add-on by reference to its folder and reads its files from there while it runs (the
 * event page's at each start), so a rebuild of dist/firefox/ during the run must not reach it.
 * Closing the session removes the copy.
 * @param prefs more preferences for the new profile (e.g. `network.dns.localDomains` to map a name to loopback).
 */
export async function launchFirefox(prefs?: Record<string, string | number | boolean>): Promise<FirefoxSession> {
  const copy = mkdtempSync(join(tmpdir(), 'tabcrawl-firefox-dist-'));
  try {
    cpSync(FIREFOX_DIST_DIR, copy, { recursive: true });
    const session = await launchFirefoxExtension({
      distDir: copy,
      firefoxPath: findFirefox(process.env),
      ...(prefs === undefined ? {} : { prefs }),
    });
    const close = session.close.bind(session);
    return Object.assign(session, {
      close: async () => {
        await close();
        rmSync(copy, { recursive: true, force: true });
      },
    });
  } catch (error) {
    rmSync(copy, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Evaluates a JavaScript expression in `page` and returns its value. An expression in a string,
 * not a function: under tsx a function gets a `__name` helper that does not exist in the page.
 */
export async function evaluate<T>(page: Page, expression: string): Promise<T> {
  return (await page.evaluate(expression)) as T;
}

/**
 * Polls `expression` in `page` until it is truthy, and returns its value.
 * @throws Error naming `what` when it stays falsy for `timeoutMs`.
 */
export async function waitInPage<T>(page: Page, expression: string, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await evaluate<T>(page, expression);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** Polls a started crawl (as `crawlToEnd` does) until it is no longer running. */
export async function untilEnded(
  session: Pick<FirefoxSession, 'request'>,
  crawlId: string,
  timeoutMs = 120_000,
): Promise<CrawlSummary> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { crawl } = await session.request('crawl/get', { crawlId });
    if (crawl.state !== 'running') return crawl;
    if (Date.now() > deadline)
      throw new Error(`crawl still running after ${timeoutMs} ms: ${JSON.stringify(crawl.counts)}`);
    await sleep(200);
  }
}

/**
 * When the keep-alive's watchdog alarm (`tabcrawl-watchdog`, every 30 s: adapters/keep-alive.ts) is due within
 * `withinMs`, waits until it has fired: it starts a stopped event page, as it should, so a stop made just
 * before it would not stay a stop for the test to look at.
 */
export async function clearOfWatchdog(session: FirefoxSession, withinMs = 2000): Promise<void> {
  const due = (await evaluate(
    session.driverPage,
    `browser.alarms.get('tabcrawl-watchdog').then((alarm) => (alarm ? alarm.scheduledTime : null))`,
  )) as number | null;
  if (due !== null && due - Date.now() < withinMs)
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now()) + 500));
}

/**
 * Reads the mark left on the add-on's background page window (null when there is none: a page started since) and,
 * given `mark`, leaves that one. Starts a stopped background page, as any message would.
 */
export async function markBackground(session: FirefoxSession, mark?: number): Promise<unknown> {
  const set = mark === undefined ? '' : `window.__tabcrawlTestMark = ${JSON.stringify(mark)};`;
  return evaluate(
    session.driverPage,
    `browser.runtime.getBackgroundPage().then((window) => { const old = window.__tabcrawlTestMark ?? null; ${set} return old; })`,
  );
}

/**
 * Shared steps of the end-to-end tests: the built extension in headless
 * Chromium, driven through the same message protocol as the popup and the CLI.
 */
import { resolve } from 'node:path';
import { findChromium } from '../../src/shells/cli/chromium.ts';
import { launchExtension, type ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import type { CrawlSettings } from '../../src/core/settings.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import type { JsonlRow } from '../../src/export/jsonl.ts';

export const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The built extension the tests load: the Chrome build, `dist/chrome/`, or
 * `TABCRAWL_DIST` when set (a separate Chrome build, so that two test runs on
 * one checkout do not share one).
 */
export const DIST_DIR = resolve(ROOT, process.env.TABCRAWL_DIST ?? 'dist/chrome');

/** @param extraArgs more Chromium flags (see `LaunchOptions.extraArgs`). */
export async function launch(extraArgs: string[] = []): Promise<ExtensionSession> {
  // A private copy: a rebuild of dist/chrome/ during the run must not break worker restarts.
  return launchExtension({ distDir: DIST_DIR, chromePath: findChromium(process.env), copyDist: true, extraArgs });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Starts a crawl and polls until it is no longer running; `during` runs between polls. */
export async function crawlToEnd(
  session: Pick<ExtensionSession, 'request'>,
  settings: Partial<CrawlSettings> & { startUrl: string },
  during?: (crawl: CrawlSummary) => Promise<void>,
  timeoutMs = 120_000,
): Promise<CrawlSummary> {
  const { crawl } = await session.request('crawl/start', { settings });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { crawl: now } = await session.request('crawl/get', { crawlId: crawl.id });
    if (now.state !== 'running') return now;
    if (Date.now() > deadline)
      throw new Error(`crawl still running after ${timeoutMs} ms: ${JSON.stringify(now.counts)}`);
    if (during) await during(now);
    await sleep(200);
  }
}

/** Every row of a crawl, through the export protocol. */
export async function exportRows(session: Pick<ExtensionSession, 'request'>, crawlId: string): Promise<JsonlRow[]> {
  const rows: JsonlRow[] = [];
  let afterSeq = 0;
  for (;;) {
    const chunk = await session.request('export/chunk', { crawlId, format: 'jsonl', afterSeq, limit: 100 });
    for (const line of chunk.text.split('\n')) if (line !== '') rows.push(JSON.parse(line) as JsonlRow);
    afterSeq = chunk.lastSeq;
    if (chunk.done) return rows;
  }
}

/**
 * What the restart tests do while a rendered crawl runs: stop the worker (or event page) mid-render, at most
 * `maxStops` times, the first 700 ms after renders are under way, then at least `spacingMs` (plus 250 ms a stop)
 * apart, and only once a render has ended since the last stop: a page whose render is cut short three times is
 * given up (MAX_RENDER_ATTEMPTS), which happened under load when each stop came before the stopped page's next
 * render could end. Pass `during` to {@link crawlToEnd}; `stops()` says how many were made.
 */
export function stopMidRender(
  stop: () => Promise<void>,
  { maxStops, spacingMs }: { maxStops: number; spacingMs: number },
): { during: (crawl: CrawlSummary) => Promise<void>; stops: () => number; stoppedAt: () => readonly number[] } {
  let stops = 0;
  /** When each stop had ended (ms since the epoch): the worker was gone by then. */
  const stoppedAt: number[] = [];
  let nextStopAt = 0;
  /** `counts.rendered` at the last stop. */
  let renderedAtStop = -1;
  const during = async (now: CrawlSummary): Promise<void> => {
    const rendered = now.counts.rendered ?? 0;
    if (stops >= maxStops || (now.counts.renders ?? 0) <= rendered || rendered <= renderedAtStop) return;
    if (nextStopAt === 0) nextStopAt = Date.now() + 700;
    if (Date.now() < nextStopAt) return;
    await stop();
    stops += 1;
    stoppedAt.push(Date.now());
    renderedAtStop = rendered;
    nextStopAt = Date.now() + spacingMs + stops * 250;
  };
  return { during, stops: () => stops, stoppedAt: () => stoppedAt };
}

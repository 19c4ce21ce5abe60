/**
 * Crawlee's `PlaywrightCrawler` as the peer of the bench's rendered part
 * (issue 29): it renders every page of a site in the same Debian Chromium
 * Tabcrawl runs in, `maxConcurrency` pages at once, and follows the links the
 * rendered DOM holds.
 *
 * It runs as a child process of the bench (`tsx test/bench/crawlee-crawl.ts
 * <options JSON>`), as Tabcrawl's command line does, so that each crawler's
 * browser is the process tree of its own child (the bench samples its memory)
 * and neither shares the bench's event loop. It prints one JSON line on
 * stdout: {@link CrawleeResult}.
 *
 * How it waits for a page, the same rule Tabcrawl's renderer uses: the page's
 * `load`, then Playwright's `networkidle` (no request for 500 ms), then one
 * scroll to the bottom, then the links of the live DOM. Crawlee has no
 * politeness per request: robots.txt is read for the pages it enqueues
 * (`respectRobotsTxtFile`, the most polite Crawlee gets), never for what a
 * page's own scripts ask for.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import QUIET_FLAGS from '../../src/shells/cli/chromium-flags.json' with { type: 'json' };

/** What the bench asks of one Crawlee crawl. */
export interface CrawleeJob {
  startUrl: string;
  /** The Chromium to drive (`/usr/bin/chromium`): never a downloaded one. */
  chromePath: string;
  /** Pages rendered at once: Tabcrawl's renders at once. */
  maxConcurrency: number;
  /** Pages at most (Crawlee's `maxRequestsPerCrawl`). */
  maxPages: number;
  /** How long a page may take to load and settle, in ms. */
  pageTimeoutMs: number;
}

/** What the child prints. */
export interface CrawleeResult {
  /** Pages whose handler ran. */
  pagesHandled: number;
  /** Pages whose handler failed after Crawlee's retries. */
  pagesFailed: number;
  /** Of the handled pages, those whose title was not the shell's "Loading": the script had written it. */
  renderedTitles: number;
  /** From the crawler's start to its end, in ms (browser launches included). */
  crawlMs: number;
}

/** The launch arguments of Crawlee's Chromium: the ones Tabcrawl's browser gets (quiet, and no sandbox as root). */
export function crawleeChromiumArgs(isRoot: boolean): string[] {
  return [...(isRoot ? ['--no-sandbox'] : []), ...QUIET_FLAGS];
}

/** Crawls `job.startUrl` with `PlaywrightCrawler`; its storage in a temporary folder, removed after. */
export async function crawlWithCrawlee(job: CrawleeJob): Promise<CrawleeResult> {
  const storage = mkdtempSync(join(tmpdir(), 'tabcrawl-bench-crawlee-'));
  // Crawlee reads these when loaded: its storage stays in memory and in the temporary folder.
  process.env.CRAWLEE_STORAGE_DIR = storage;
  process.env.CRAWLEE_PERSIST_STORAGE = 'false';
  process.env.CRAWLEE_PURGE_ON_START = 'true';
  try {
    const { Configuration, PlaywrightCrawler, log } = await import('crawlee');
    log.setLevel(log.LEVELS.ERROR);
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    let pagesHandled = 0;
    let pagesFailed = 0;
    let renderedTitles = 0;
    const crawler = new PlaywrightCrawler(
      {
        launchContext: {
          launcher: chromium,
          useChrome: false,
          launchOptions: {
            executablePath: job.chromePath,
            headless: true,
            args: crawleeChromiumArgs(isRoot),
          },
        },
        minConcurrency: job.maxConcurrency,
        maxConcurrency: job.maxConcurrency,
        maxRequestsPerCrawl: job.maxPages,
        respectRobotsTxtFile: true,
        navigationTimeoutSecs: Math.ceil(job.pageTimeoutMs / 1000),
        requestHandlerTimeoutSecs: Math.ceil(job.pageTimeoutMs / 1000),
        maxRequestRetries: 1,
        async requestHandler({ page, enqueueLinks }) {
          await page.waitForLoadState('networkidle', { timeout: job.pageTimeoutMs }).catch(() => undefined);
          await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
          const title = await page.title();
          pagesHandled += 1;
          if (title !== 'Loading') renderedTitles += 1;
          await enqueueLinks({ strategy: 'same-origin' });
        },
        failedRequestHandler() {
          pagesFailed += 1;
        },
      },
      new Configuration({ persistStorage: false, purgeOnStart: true }),
    );
    const started = performance.now();
    await crawler.run([job.startUrl]);
    return { pagesHandled, pagesFailed, renderedTitles, crawlMs: performance.now() - started };
  } finally {
    rmSync(storage, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const job = JSON.parse(process.argv[2] ?? '{}') as CrawleeJob;
  try {
    const result = await crawlWithCrawlee(job);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  } catch (error) {
    process.stderr.write(`crawlee-crawl: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  }
}

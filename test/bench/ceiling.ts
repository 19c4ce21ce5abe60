/**
 * Part 5 of `npm run bench`: the platform ceiling. What a loop that does
 * nothing but `fetch()` the pages and read their bodies reaches from an
 * extension's service worker in this Chromium on this machine: the most any
 * extension crawler could do here, whatever its own work costs.
 *
 * Four extensions, each loaded alone in headless Chromium with the flags
 * `npm run crawl` uses (`chromiumArgs`), in a fresh profile:
 * (a) a bare MV3 extension (no listeners);
 * (b) the same with the declarativeNetRequest session rule that sets the
 *     User-Agent, as `src/background/adapters/user-agent-rule.ts` installs it;
 * (c) (b) plus the webRequest listeners of
 *     `src/background/adapters/wire-observer.ts` (same events, filter and
 *     extra info, `extraHeaders` included; their bodies do the same
 *     bookkeeping, in plain JS);
 * (d) the built Tabcrawl extension itself (the dist the bench loads), its
 *     worker running the same loop (no crawl).
 * The minimal ones are written as plain JS: they import nothing of the
 * project, so they measure the platform, not the project.
 *
 * The loop is sent to the worker as a string expression: `worker.evaluate(fn)`
 * with a function compiled by tsx fails in the worker ("__name is not
 * defined", esbuild's keepNames helper).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Worker } from 'playwright-core';
import { chromiumArgs } from '../../src/cli/extension-driver.ts';
import type { LocalSite } from '../../src/cli/local-site.ts';
import { median, pagesRequested, rounded } from './bench-stats.ts';
import { pagePath } from './bench-sites.ts';

/** The four extensions measured. */
export type CeilingVariantId = 'bare' | 'userAgentRule' | 'webRequest' | 'tabcrawl';

export interface CeilingVariant {
  id: CeilingVariantId;
  /** As printed in the table. */
  label: string;
  /** What the extension has, for the JSON. */
  description: string;
}

export const CEILING_VARIANTS: readonly CeilingVariant[] = [
  { id: 'bare', label: '(a) bare extension', description: 'a minimal MV3 extension: manifest.json and an empty sw.js, no listeners' },
  { id: 'userAgentRule', label: '(b) + DNR User-Agent rule', description: "(a) plus Tabcrawl's declarativeNetRequest session rule setting the User-Agent" },
  {
    id: 'webRequest',
    label: "(c) + Tabcrawl's webRequest listeners",
    description: "(b) plus Tabcrawl's webRequest listeners: onSendHeaders (requestHeaders, extraHeaders), onHeadersReceived (responseHeaders, extraHeaders), onResponseStarted, onBeforeRedirect, onErrorOccurred; tabId -1, types xmlhttprequest and other",
  },
  { id: 'tabcrawl', label: "(d) Tabcrawl's own worker", description: 'the built Tabcrawl extension (the dist the bench loads), the same loop run in its service worker, no crawl' },
];

/** The options of every `fetch` of the loop: those of Tabcrawl's fetcher (`browser-fetcher.ts`), a crawl without cookies. */
export const CEILING_FETCH_OPTIONS = { cache: 'no-store', credentials: 'omit', redirect: 'manual', referrerPolicy: 'no-referrer' } as const;

/** The one-line explanation printed under the section's title. */
export const CEILING_EXPLANATION = "what a fetch-only loop in an extension's service worker reaches here: the most any extension crawler could do on this machine";

/** Where Tabcrawl's User-Agent points (`PROJECT_URL` of `src/background/index.ts`). */
const PROJECT_URL = 'https://github.com/tabcrawl/tabcrawl';

/** The User-Agent rule, as `installUserAgentRule` adds it, in plain JS. */
const USER_AGENT_RULE_JS = `
// The crawl's User-Agent, set by a session rule on the extension's own requests (user-agent-rule.ts).
const RULE_ID = 1;
const userAgent = \`Mozilla/5.0 (compatible; tabcrawl/\${chrome.runtime.getManifest().version}; +${PROJECT_URL})\`;
chrome.declarativeNetRequest
  .updateSessionRules({
    removeRuleIds: [RULE_ID],
    addRules: [
      {
        id: RULE_ID,
        priority: 1,
        action: {
          type: chrome.declarativeNetRequest.RuleActionType.MODIFY_HEADERS,
          requestHeaders: [{ header: 'user-agent', operation: chrome.declarativeNetRequest.HeaderOperation.SET, value: userAgent }],
        },
        condition: {
          initiatorDomains: [chrome.runtime.id],
          resourceTypes: [chrome.declarativeNetRequest.ResourceType.XMLHTTPREQUEST, chrome.declarativeNetRequest.ResourceType.OTHER],
        },
      },
    ],
  })
  .catch((error) => console.error('could not set the User-Agent', error));
`;

/** The webRequest listeners of `WireObserver.register`, with the same bookkeeping, in plain JS. */
const WEB_REQUEST_JS = `
// What fetch hides, read from webRequest (wire-observer.ts): same events, filter and extra info.
const MAX_UNCLAIMED = 500;
const byRequestId = new Map();
const settledByKey = new Map();
globalThis.ceilingWireEvents = 0;
const extensionOrigin = new URL(chrome.runtime.getURL('')).origin;
const filter = { urls: ['http://*/*', 'https://*/*'], tabId: -1, types: ['xmlhttprequest', 'other'] };
const ours = (details) => details.tabId === -1 && details.initiator === extensionOrigin;
const keyOf = (method, url) => method.toUpperCase() + ' ' + url;
const lowerHeaders = (headers) => (headers || []).map((h) => [h.name.toLowerCase(), h.value || '']);
const pendingFor = (details) => {
  let pending = byRequestId.get(details.requestId);
  if (!pending) {
    pending = {
      key: keyOf(details.method, details.url),
      seenAt: details.timeStamp,
      exchange: { statusCode: null, statusLine: null, requestHeaders: null, responseHeaders: [], ipAddress: null },
      isSettled: false,
    };
    byRequestId.set(details.requestId, pending);
  }
  return pending;
};
chrome.webRequest.onSendHeaders.addListener(
  (details) => {
    globalThis.ceilingWireEvents += 1;
    if (!ours(details)) return;
    pendingFor(details).exchange.requestHeaders = lowerHeaders(details.requestHeaders);
  },
  filter,
  ['requestHeaders', 'extraHeaders'],
);
chrome.webRequest.onHeadersReceived.addListener(
  (details) => {
    globalThis.ceilingWireEvents += 1;
    if (!ours(details)) return undefined;
    const { exchange } = pendingFor(details);
    exchange.statusCode = details.statusCode;
    exchange.statusLine = details.statusLine;
    exchange.responseHeaders = lowerHeaders(details.responseHeaders);
    return undefined;
  },
  filter,
  ['responseHeaders', 'extraHeaders'],
);
const settle = (details) => {
  globalThis.ceilingWireEvents += 1;
  if (!ours(details)) return;
  const pending = pendingFor(details);
  if (details.ip !== undefined) pending.exchange.ipAddress = details.ip;
  if (pending.isSettled) return;
  pending.isSettled = true;
  byRequestId.delete(details.requestId);
  settledByKey.set(pending.key, pending);
  // Nobody claims the exchanges here: the oldest go, as unclaimed ones do in Tabcrawl.
  if (settledByKey.size > MAX_UNCLAIMED) settledByKey.delete(settledByKey.keys().next().value);
};
chrome.webRequest.onResponseStarted.addListener(settle, filter);
chrome.webRequest.onBeforeRedirect.addListener(settle, filter);
chrome.webRequest.onErrorOccurred.addListener(settle, filter);
`;

/** The files (`manifest.json`, `sw.js`) of a minimal extension of the ceiling. */
export function ceilingExtensionFiles(variant: Exclude<CeilingVariantId, 'tabcrawl'>, version = '0.1.0'): Record<'manifest.json' | 'sw.js', string> {
  const withRule = variant === 'userAgentRule' || variant === 'webRequest';
  const withWebRequest = variant === 'webRequest';
  const manifest = {
    manifest_version: 3,
    name: `Tabcrawl bench ceiling: ${variant}`,
    version,
    background: { service_worker: 'sw.js' },
    permissions: [...(withRule ? ['declarativeNetRequestWithHostAccess'] : []), ...(withWebRequest ? ['webRequest'] : [])],
    host_permissions: ['http://127.0.0.1/*'],
  };
  const sw = [`// ${CEILING_VARIANTS.find((v) => v.id === variant)?.description ?? variant}`, withRule ? USER_AGENT_RULE_JS : '', withWebRequest ? WEB_REQUEST_JS : ''].join('\n');
  return { 'manifest.json': `${JSON.stringify(manifest, null, 2)}\n`, 'sw.js': `${sw.trimEnd()}\n` };
}

/**
 * An expression that resolves when the worker is ready to measure: its User-Agent rule installed (when it
 * has declarativeNetRequest: Tabcrawl installs it asynchronously at start), and one request made, to
 * robots.txt (not a page), so the first page does not pay for the network service's warm-up.
 */
export function readyExpression(origin: string): string {
  return `(async () => {
  if (globalThis.chrome?.declarativeNetRequest !== undefined) {
    for (let i = 0; i < 100 && (await chrome.declarativeNetRequest.getSessionRules()).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  }
  const response = await fetch(${JSON.stringify(`${origin}/robots.txt`)}, ${JSON.stringify(CEILING_FETCH_OPTIONS)});
  await response.arrayBuffer();
  return response.status;
})()`;
}

/** What one run of the loop reports. */
export interface LoopResult {
  /** From the first `fetch` to the last body read, on the worker's clock, in ms. */
  ms: number;
  /** URLs fetched. */
  fetched: number;
  /** Fetches that threw or answered other than 200. */
  failures: number;
  /** Body bytes read. */
  bytes: number;
  /** webRequest events the listeners of variant (c) saw, null elsewhere. */
  wireEvents: number | null;
}

/**
 * The loop, as an expression resolving to a {@link LoopResult}: `concurrency` lanes take the next URL
 * of `urls` in turn, `fetch` it with {@link CEILING_FETCH_OPTIONS} and read its body. Nothing else.
 */
export function fetchLoopExpression(urls: readonly string[], concurrency: number): string {
  return `(async () => {
  const urls = ${JSON.stringify(urls)};
  const init = ${JSON.stringify(CEILING_FETCH_OPTIONS)};
  let next = 0;
  let failures = 0;
  let bytes = 0;
  const eventsBefore = globalThis.ceilingWireEvents;
  const lane = async () => {
    while (next < urls.length) {
      const url = urls[next++];
      try {
        const response = await fetch(url, init);
        bytes += (await response.arrayBuffer()).byteLength;
        if (response.status !== 200) failures += 1;
      } catch {
        failures += 1;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: ${concurrency} }, lane));
  const ms = performance.now() - started;
  const wireEvents = typeof eventsBefore === 'number' ? globalThis.ceilingWireEvents - eventsBefore : null;
  return { ms, fetched: urls.length, failures, bytes, wireEvents };
})()`;
}

/** One run of the loop: one variant, one round, one concurrency. */
export interface CeilingRun {
  variant: CeilingVariantId;
  round: number;
  concurrency: number;
  /** What went wrong, when the run could not be measured (the figures are then NaN). */
  error: string | null;
  ms: number;
  pagesPerSecond: number;
  failures: number;
  /** Distinct pages the server saw during the run, and whether each was asked for exactly once. */
  pagesFetched: number;
  eachPageOnce: boolean;
  /** The User-Agent the server saw on the run's pages (the first one). */
  userAgent: string | null;
  wireEvents: number | null;
}

export interface CeilingOptions {
  /** The site of part 1 (its pages `/` and `/page/1` … `/page/<pages-1>`). */
  site: LocalSite;
  pages: number;
  /** Lanes at once, e.g. `[1, 8]`. */
  concurrencies: readonly number[];
  rounds: number;
  /** The built Tabcrawl extension (variant d). */
  distDir: string;
  chromePath: string;
  log: (line: string) => void;
}

/** The extension's worker of a fresh context. */
async function extensionWorker(context: BrowserContext): Promise<Worker> {
  const isExtension = (worker: Worker): boolean => worker.url().startsWith('chrome-extension://');
  const found = context.serviceWorkers().find(isExtension) ?? (await context.waitForEvent('serviceworker', { predicate: isExtension, timeout: 15_000 }));
  return found;
}

/** `promise`, or an error after `ms`. */
function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still running after ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/**
 * Measures every variant, `rounds` times, at each concurrency: per round and variant one browser (a fresh
 * profile under `tempRoot`), the loop run once per concurrency over all the pages, each page fetched once.
 * The variants' order rotates from round to round, and the concurrencies' order alternates.
 */
export async function measureCeiling(options: CeilingOptions): Promise<CeilingRun[]> {
  const { site, pages } = options;
  const urls = Array.from({ length: pages }, (_, n) => `${site.origin}${pagePath(n)}`);
  const tempRoot = mkdtempSync(join(tmpdir(), 'tabcrawl-ceil-'));
  const runs: CeilingRun[] = [];
  try {
    // The extensions, built once: the minimal ones written out, Tabcrawl's a private copy of the dist.
    const version = (JSON.parse(readFileSync(join(options.distDir, 'manifest.json'), 'utf8')) as { version?: string }).version ?? '0.1.0';
    const extensionDirs = new Map<CeilingVariantId, string>();
    for (const variant of CEILING_VARIANTS) {
      const dir = join(tempRoot, 'extensions', variant.id);
      if (variant.id === 'tabcrawl') cpSync(options.distDir, dir, { recursive: true });
      else {
        mkdirSync(dir, { recursive: true });
        for (const [name, text] of Object.entries(ceilingExtensionFiles(variant.id, version))) writeFileSync(join(dir, name), text);
      }
      extensionDirs.set(variant.id, dir);
    }
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    const loopLimitMs = 60_000 + pages * 50;

    for (let round = 1; round <= options.rounds; round++) {
      const order = CEILING_VARIANTS.map((_, i) => CEILING_VARIANTS[(i + round - 1) % CEILING_VARIANTS.length] as CeilingVariant);
      const concurrencies = round % 2 === 1 ? [...options.concurrencies] : [...options.concurrencies].reverse();
      for (const variant of order) {
        const extensionDir = extensionDirs.get(variant.id) ?? '';
        // Short names: Chromium's singleton socket goes under TMPDIR, and a socket path has at most 107 bytes.
        const profileDir = mkdtempSync(join(tempRoot, 'p-'));
        const userDataDir = join(profileDir, 'user-data');
        const tmp = join(profileDir, 'tmp');
        const home = join(profileDir, 'home');
        for (const dir of [userDataDir, tmp, home]) mkdirSync(dir, { recursive: true });
        let context: BrowserContext | null = null;
        try {
          context = await chromium.launchPersistentContext(userDataDir, {
            executablePath: options.chromePath,
            headless: true,
            args: chromiumArgs(extensionDir, { headless: true, isRoot }),
            env: { ...process.env, TMPDIR: tmp, HOME: home },
          });
          const worker = await extensionWorker(context);
          // Let the fresh browser (and Tabcrawl's worker start: its database, its badge) settle first.
          await new Promise((r) => setTimeout(r, 1000));
          for (const concurrency of concurrencies) {
            options.log(`bench: part 5, round ${round}: ${variant.label}, fetch-only loop over ${pages} pages, ${concurrency} at once`);
            let run: CeilingRun;
            try {
              await withTimeout(worker.evaluate(readyExpression(site.origin)), 30_000, 'the warm-up');
              site.requests.length = 0;
              const result = (await withTimeout(worker.evaluate(fetchLoopExpression(urls, concurrency)), loopLimitMs, 'the loop')) as LoopResult;
              const seen = site.requests.filter((r) => r.url !== '/robots.txt');
              const distinct = pagesRequested(seen);
              run = {
                variant: variant.id,
                round,
                concurrency,
                error: null,
                ms: result.ms,
                pagesPerSecond: result.fetched / (result.ms / 1000),
                failures: result.failures,
                pagesFetched: distinct.size,
                eachPageOnce: distinct.size === pages && seen.length === pages,
                userAgent: seen[0]?.userAgent ?? null,
                wireEvents: result.wireEvents,
              };
            } catch (error) {
              const message = error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
              options.log(`bench: part 5: ${variant.label} at ${concurrency} at once failed: ${message}`);
              run = { variant: variant.id, round, concurrency, error: message, ms: Number.NaN, pagesPerSecond: Number.NaN, failures: Number.NaN, pagesFetched: 0, eachPageOnce: false, userAgent: null, wireEvents: null };
            }
            runs.push(run);
          }
        } catch (error) {
          const message = error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
          options.log(`bench: part 5: ${variant.label} could not be started: ${message}`);
          for (const concurrency of concurrencies) {
            if (runs.some((r) => r.variant === variant.id && r.round === round && r.concurrency === concurrency)) continue;
            runs.push({ variant: variant.id, round, concurrency, error: message, ms: Number.NaN, pagesPerSecond: Number.NaN, failures: Number.NaN, pagesFetched: 0, eachPageOnce: false, userAgent: null, wireEvents: null });
          }
        } finally {
          await context?.close().catch(() => undefined);
          rmSync(profileDir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    rmSync(tempRoot, { recursive: true, force: true });
  }
  return runs;
}

/** The figures of one variant at one concurrency: medians over the rounds. */
export interface CeilingFigure {
  concurrency: number;
  pagesPerSecond: number | null;
  /** `pagesPerSecond` over wget's pages per second; null without wget. */
  ratioToWget: number | null;
  seconds: number | null;
  failures: number | null;
  eachPageOnce: boolean;
  perRound: { round: number; pagesPerSecond: number | null; seconds: number | null; failures: number | null; pagesFetched: number; eachPageOnce: boolean; userAgent: string | null; wireEvents: number | null; error: string | null }[];
}

/** The runs summed up per variant (in {@link CEILING_VARIANTS}' order) and concurrency. Pure. */
export function summariseCeiling(
  runs: readonly CeilingRun[],
  concurrencies: readonly number[],
  wgetPagesPerSecond: number | null,
): Record<CeilingVariantId, { label: string; description: string; runs: CeilingFigure[] }> {
  const entries = CEILING_VARIANTS.map((variant) => {
    const figures = concurrencies.map((concurrency): CeilingFigure => {
      const mine = runs.filter((r) => r.variant === variant.id && r.concurrency === concurrency).sort((a, b) => a.round - b.round);
      const ok = mine.filter((r) => r.error === null);
      const rate = median(ok.map((r) => r.pagesPerSecond));
      return {
        concurrency,
        pagesPerSecond: rounded(rate),
        ratioToWget: wgetPagesPerSecond === null || wgetPagesPerSecond <= 0 ? null : rounded(rate / wgetPagesPerSecond, 3),
        seconds: rounded(median(ok.map((r) => r.ms / 1000)), 2),
        failures: ok.length === 0 ? null : median(ok.map((r) => r.failures)),
        eachPageOnce: mine.length > 0 && mine.every((r) => r.eachPageOnce),
        perRound: mine.map((r) => ({
          round: r.round,
          pagesPerSecond: rounded(r.pagesPerSecond),
          seconds: rounded(r.ms / 1000, 3),
          failures: Number.isNaN(r.failures) ? null : r.failures,
          pagesFetched: r.pagesFetched,
          eachPageOnce: r.eachPageOnce,
          userAgent: r.userAgent,
          wireEvents: r.wireEvents,
          error: r.error,
        })),
      };
    });
    return [variant.id, { label: variant.label, description: variant.description, runs: figures }] as const;
  });
  return Object.fromEntries(entries) as Record<CeilingVariantId, { label: string; description: string; runs: CeilingFigure[] }>;
}

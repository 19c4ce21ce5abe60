/**
 * Part 5 of `npm run bench`: the platform ceiling. What a loop that does
 * nothing but `fetch()` the pages and read their bodies reaches from an
 * extension's service worker in this Chromium on this machine: the most any
 * extension crawler could do here, whatever its own work costs.
 *
 * Four extensions, each loaded alone in headless Chromium with the flags
 * `npm run crawl` uses (`chromiumArgs`), in a fresh profile, run that loop:
 * (a) a bare MV3 extension (no listeners);
 * (b) the same with the declarativeNetRequest session rule that sets the
 *     User-Agent, as `src/shells/background/adapters/user-agent-rule.ts` installs it;
 * (c) (b) plus the webRequest listeners of
 *     `src/shells/background/adapters/wire-observer.ts` (same events, filter and
 *     extra info, `extraHeaders` included; their bodies do the same
 *     bookkeeping, in plain JS);
 * (d) the built Tabcrawl extension itself (the dist the bench loads), its
 *     worker running the same loop (no crawl).
 * And a fifth, (e), a minimal storing crawler: the extension of (c) running
 * another loop, the least any crawler that keeps its pages and its frontier
 * in IndexedDB must do per page (fetch, read, decode, find the links, store
 * the body, a row and the new links in one group-committed transaction, and
 * wait for it). Between (c) and (e) is the cost of storing, the project's
 * code left out; (e) is the most such a crawler could reach here.
 * The minimal ones are written as plain JS: they import nothing of the
 * project, so they measure the platform, not the project.
 *
 * The loops are sent to the worker as string expressions: `worker.evaluate(fn)`
 * with a function compiled by tsx fails in the worker ("__name is not
 * defined", esbuild's keepNames helper).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Worker } from 'playwright-core';
import { chromiumArgs } from '../../src/shells/cli/extension-driver.ts';
import type { LocalSite } from '../../src/shells/cli/local-site.ts';
import { median, pagesRequested, rounded } from './bench-stats.ts';
import { pagePath } from './bench-sites.ts';
import { browserCpuMs, cpuDelta } from './process-stats.ts';

/** The variants measured: four extensions running the fetch-only loop, and (e), (c)'s running the storing one. */
export type CeilingVariantId = 'bare' | 'userAgentRule' | 'webRequest' | 'tabcrawl' | 'minimalStore';

/** The loops: {@link fetchLoopExpression} and {@link storeLoopExpression}. */
export type CeilingLoopId = 'fetchOnly' | 'minimalStore';

export interface CeilingVariant {
  id: CeilingVariantId;
  /** As printed in the table. */
  label: string;
  /** What the extension has (and does), for the JSON. */
  description: string;
  /** The loop its worker runs. */
  loop: CeilingLoopId;
}

export const CEILING_VARIANTS: readonly CeilingVariant[] = [
  {
    id: 'bare',
    label: '(a) bare extension',
    description: 'a minimal MV3 extension: manifest.json and an empty sw.js, no listeners',
    loop: 'fetchOnly',
  },
  {
    id: 'userAgentRule',
    label: '(b) + DNR User-Agent rule',
    description: "(a) plus Tabcrawl's declarativeNetRequest session rule setting the User-Agent",
    loop: 'fetchOnly',
  },
  {
    id: 'webRequest',
    label: "(c) + Tabcrawl's webRequest listeners",
    description:
      "(b) plus Tabcrawl's webRequest listeners: onSendHeaders (requestHeaders, extraHeaders), onHeadersReceived (responseHeaders, extraHeaders), onResponseStarted, onBeforeRedirect, onErrorOccurred; tabId -1, types xmlhttprequest and other",
    loop: 'fetchOnly',
  },
  {
    id: 'tabcrawl',
    label: "(d) Tabcrawl's own worker",
    description:
      'the built Tabcrawl extension (the dist the bench loads), the same loop run in its service worker, no crawl',
    loop: 'fetchOnly',
  },
  {
    id: 'minimalStore',
    label: '(e) (c) + minimal IndexedDB store',
    description:
      "a minimal storing crawler: the extension of (c), its worker running the storing loop instead: each page fetched, read, decoded, its links found and stored with raw IndexedDB (no Dexie) in a fresh database, pages group-committed, each lane waiting for its page's transaction",
    loop: 'minimalStore',
  },
];

/** What each loop does, for the JSON and the table. */
export const CEILING_LOOPS: Readonly<Record<CeilingLoopId, { name: string; description: string }>> = {
  fetchOnly: {
    name: 'fetch-only loop',
    description:
      'fetch each page once (no robots.txt, no parsing, no storage) and read its body as an ArrayBuffer, N lanes taking the next URL; timed in the worker from the first fetch to the last body read, after one warm-up fetch of robots.txt',
  },
  minimalStore: {
    name: 'storing loop',
    description:
      "fetch each page once as the fetch-only loop does, read its body as an ArrayBuffer, decode it as text, find its links (href=\"…\" resolved against the page's URL) and hand the page to a group-commit writer on raw IndexedDB (a database created for the run, deleted after; stores bodies, rows and urls, keyed by URL): the pages that arrive while a transaction runs go together into the next readwrite transaction, which puts each page's body and a small row (url, status, headers, link count, fetchedAt, depth, content type) and, for each distinct link, getKey in urls and a put of {url, state: 'queued', depth} when absent (the frontier's dedupe); a lane takes its next URL once its page's transaction has completed; timed in the worker from the first fetch to the last commit, after one warm-up fetch of robots.txt",
  },
};

/** The object stores of the storing loop: bodies, rows (both keyed by the page's URL) and the frontier (keyed by URL). */
export const STORE_LOOP_STORES = ['bodies', 'rows', 'urls'] as const;

/** The options of every `fetch` of the loop: those of Tabcrawl's fetcher (`browser-fetcher.ts`), a crawl without cookies. */
export const CEILING_FETCH_OPTIONS = {
  cache: 'no-store',
  credentials: 'omit',
  redirect: 'manual',
  referrerPolicy: 'no-referrer',
} as const;

/** The one-line explanation printed under the section's title. */
export const CEILING_EXPLANATION =
  "what a fetch-only loop in an extension's service worker reaches here: the most any extension crawler could do on this machine";

/** Where Tabcrawl's User-Agent points (`TABCRAWL_PROJECT_URL` of `src/core/user-agent.ts`). */
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
export function ceilingExtensionFiles(
  variant: Exclude<CeilingVariantId, 'tabcrawl'>,
  version = '0.1.0',
): Record<'manifest.json' | 'sw.js', string> {
  // (e) is (c)'s extension, file for file: only its loop differs.
  if (variant === 'minimalStore') return ceilingExtensionFiles('webRequest', version);
  const withRule = variant === 'userAgentRule' || variant === 'webRequest';
  const withWebRequest = variant === 'webRequest';
  const manifest = {
    manifest_version: 3,
    name: `Tabcrawl bench ceiling: ${variant}`,
    version,
    background: { service_worker: 'sw.js' },
    permissions: [
      ...(withRule ? ['declarativeNetRequestWithHostAccess'] : []),
      ...(withWebRequest ? ['webRequest'] : []),
    ],
    host_permissions: ['http://127.0.0.1/*'],
  };
  const sw = [
    `// ${CEILING_VARIANTS.find((v) => v.id === variant)?.description ?? variant}`,
    withRule ? USER_AGENT_RULE_JS : '',
    withWebRequest ? WEB_REQUEST_JS : '',
  ].join('\n');
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
  /** webRequest events the listeners of variants (c) and (e) saw, null elsewhere. */
  wireEvents: number | null;
  /** The storing loop only (null in the fetch-only one): links found in the pages, and URLs it added to its frontier. */
  links: number | null;
  urlsAdded: number | null;
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
  return { ms, fetched: urls.length, failures, bytes, wireEvents, links: null, urlsAdded: null, cpuMs: null };
})()`;
}

/**
 * The storing loop of variant (e), as an expression resolving to a {@link LoopResult}: what any crawler
 * that keeps its pages and its frontier in IndexedDB must do per page at the least, and nothing more.
 * `concurrency` lanes take the next URL of `urls` in turn, `fetch` it with {@link CEILING_FETCH_OPTIONS},
 * read its body as an ArrayBuffer, decode it as text and find its links (a regex over `href="…"`, each
 * resolved with `new URL(href, pageUrl)`: no HTML parser, the cheapest a crawler could do), then hand the
 * page to a group-commit writer and wait until its transaction has completed before taking the next URL,
 * as a crawler waits for its record before it moves on.
 *
 * The writer uses raw IndexedDB (no Dexie: the platform's cost, not a library's) on a database created
 * for the run and deleted after it, with the stores of {@link STORE_LOOP_STORES}, out-of-line keys (the
 * URL). While a transaction runs, the pages that arrive queue; all of them go into the next single
 * readwrite transaction (`durability: 'relaxed'`: a crawler can fetch again what a crash loses), which
 * puts each page's body (the ArrayBuffer) and a small row (url, status, headers, link count, fetchedAt,
 * depth, content type: the depth a constant, the loop keeps no depths), and, for each link (each distinct
 * one of the transaction), a `getKey` in `urls` and a `put` of `{ url, state: 'queued', depth }` when it is
 * absent: the frontier's dedupe. Timed from the first fetch to the last commit; the database is opened
 * before and deleted after. `links` counts the links found, `urlsAdded` the frontier entries added: about
 * the site's pages plus its disallowed links, a sanity figure (the loop reads no robots.txt). A failed
 * commit stops every lane and rejects.
 */
export function storeLoopExpression(urls: readonly string[], concurrency: number): string {
  return `(async () => {
  const urls = ${JSON.stringify(urls)};
  const init = ${JSON.stringify(CEILING_FETCH_OPTIONS)};
  const stores = ${JSON.stringify(STORE_LOOP_STORES)};
  const name = 'tabcrawl-ceiling-' + Date.now() + '-' + Math.random().toString(36).slice(2);
  const opening = indexedDB.open(name, 1);
  opening.onupgradeneeded = () => {
    for (const store of stores) opening.result.createObjectStore(store);
  };
  const db = await new Promise((resolve, reject) => {
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
  try {
    const decoder = new TextDecoder();
    let next = 0;
    let failures = 0;
    let bytes = 0;
    let links = 0;
    let urlsAdded = 0;
    let storeError = null;
    const eventsBefore = globalThis.ceilingWireEvents;

    // Group commit: the pages that arrive while a transaction runs wait together for the next one.
    let waiting = [];
    let committing = false;
    const commit = (batch) =>
      new Promise((resolve) => {
        const settle = (error) => {
          for (const page of batch) page.settle(error);
          resolve();
        };
        try {
          const tx = db.transaction(stores, 'readwrite', { durability: 'relaxed' });
          const bodies = tx.objectStore('bodies');
          const rows = tx.objectStore('rows');
          const frontier = tx.objectStore('urls');
          const checked = new Set();
          for (const page of batch) {
            bodies.put(page.body, page.url);
            rows.put(page.row, page.url);
            for (const link of page.links) {
              if (checked.has(link)) continue;
              checked.add(link);
              const known = frontier.getKey(link);
              known.onsuccess = () => {
                if (known.result !== undefined) return;
                frontier.put({ url: link, state: 'queued', depth: page.row.depth + 1 }, link);
                urlsAdded += 1;
              };
            }
          }
          tx.oncomplete = () => settle(null);
          tx.onabort = () => settle(tx.error ?? new Error('the transaction was aborted'));
        } catch (error) {
          settle(error);
        }
      });
    const flush = async () => {
      if (committing) return;
      committing = true;
      while (waiting.length > 0) {
        const batch = waiting;
        waiting = [];
        await commit(batch);
      }
      committing = false;
    };
    const store = (page) =>
      new Promise((resolve, reject) => {
        waiting.push({ ...page, settle: (error) => (error === null ? resolve() : reject(error)) });
        flush();
      });

    const lane = async () => {
      while (next < urls.length) {
        const url = urls[next++];
        let response;
        let body;
        try {
          response = await fetch(url, init);
          body = await response.arrayBuffer();
        } catch {
          failures += 1;
          continue;
        }
        bytes += body.byteLength;
        if (response.status !== 200) failures += 1;
        const found = [];
        for (const match of decoder.decode(body).matchAll(/href="([^"]*)"/g)) {
          try {
            found.push(new URL(match[1], url).href);
          } catch {
            // Not a URL: a crawler skips it.
          }
        }
        links += found.length;
        const row = { url, status: response.status, headers: [...response.headers], links: found.length, fetchedAt: Date.now(), depth: 1, contentType: response.headers.get('content-type') };
        try {
          await store({ url, body, row, links: found });
        } catch (error) {
          storeError = storeError ?? error;
          next = urls.length;
        }
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: ${concurrency} }, lane));
    const ms = performance.now() - started;
    if (storeError !== null) throw storeError;
    const wireEvents = typeof eventsBefore === 'number' ? globalThis.ceilingWireEvents - eventsBefore : null;
    return { ms, fetched: urls.length, failures, bytes, wireEvents, links, urlsAdded };
  } finally {
    db.close();
    await new Promise((resolve) => {
      const deleting = indexedDB.deleteDatabase(name);
      deleting.onsuccess = deleting.onerror = deleting.onblocked = () => resolve();
    });
  }
})()`;
}

/** The expression of the loop `variant` runs. */
export function loopExpression(variant: CeilingVariant, urls: readonly string[], concurrency: number): string {
  return variant.loop === 'minimalStore'
    ? storeLoopExpression(urls, concurrency)
    : fetchLoopExpression(urls, concurrency);
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
  /** The storing loop's links found and URLs added to its frontier (null for the fetch-only loop). */
  links: number | null;
  urlsAdded: number | null;
  /** CPU of all the browser's processes during the loop, in ms (null when not measured). */
  cpuMs: number | null;
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
  const found =
    context.serviceWorkers().find(isExtension) ??
    (await context.waitForEvent('serviceworker', { predicate: isExtension, timeout: 15_000 }));
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
    const version =
      (JSON.parse(readFileSync(join(options.distDir, 'manifest.json'), 'utf8')) as { version?: string }).version ??
      '0.1.0';
    const extensionDirs = new Map<CeilingVariantId, string>();
    for (const variant of CEILING_VARIANTS) {
      const dir = join(tempRoot, 'extensions', variant.id);
      if (variant.id === 'tabcrawl') cpSync(options.distDir, dir, { recursive: true });
      else {
        mkdirSync(dir, { recursive: true });
        for (const [name, text] of Object.entries(ceilingExtensionFiles(variant.id, version)))
          writeFileSync(join(dir, name), text);
      }
      extensionDirs.set(variant.id, dir);
    }
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    const loopLimitMs = 60_000 + pages * 50;

    for (let round = 1; round <= options.rounds; round++) {
      const order = CEILING_VARIANTS.map(
        (_, i) => CEILING_VARIANTS[(i + round - 1) % CEILING_VARIANTS.length] as CeilingVariant,
      );
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
            options.log(
              `bench: part 5, round ${round}: ${variant.label}, ${CEILING_LOOPS[variant.loop].name} over ${pages} pages, ${concurrency} at once`,
            );
            let run: CeilingRun;
            try {
              await withTimeout(worker.evaluate(readyExpression(site.origin)), 30_000, 'the warm-up');
              site.requests.length = 0;
              const cpuBefore = browserCpuMs(profileDir);
              const result = (await withTimeout(
                worker.evaluate(loopExpression(variant, urls, concurrency)),
                loopLimitMs,
                'the loop',
              )) as LoopResult;
              // The worker's thread is counted in its process already.
              const cpuMs = Object.entries(cpuDelta(cpuBefore, browserCpuMs(profileDir))).reduce(
                (sum, [kind, ms]) => sum + (kind === 'serviceWorker' ? 0 : ms),
                0,
              );
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
                links: result.links,
                urlsAdded: result.urlsAdded,
                cpuMs,
              };
            } catch (error) {
              const message = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
              options.log(`bench: part 5: ${variant.label} at ${concurrency} at once failed: ${message}`);
              run = {
                variant: variant.id,
                round,
                concurrency,
                error: message,
                ms: Number.NaN,
                pagesPerSecond: Number.NaN,
                failures: Number.NaN,
                pagesFetched: 0,
                eachPageOnce: false,
                userAgent: null,
                wireEvents: null,
                links: null,
                urlsAdded: null,
                cpuMs: null,
              };
            }
            runs.push(run);
          }
        } catch (error) {
          const message = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
          options.log(`bench: part 5: ${variant.label} could not be started: ${message}`);
          for (const concurrency of concurrencies) {
            if (runs.some((r) => r.variant === variant.id && r.round === round && r.concurrency === concurrency))
              continue;
            runs.push({
              variant: variant.id,
              round,
              concurrency,
              error: message,
              ms: Number.NaN,
              pagesPerSecond: Number.NaN,
              failures: Number.NaN,
              pagesFetched: 0,
              eachPageOnce: false,
              userAgent: null,
              wireEvents: null,
              links: null,
              urlsAdded: null,
              cpuMs: null,
            });
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
  /** The storing loop's links found and URLs added (medians), null for the fetch-only loop. */
  links: number | null;
  urlsAdded: number | null;
  /** CPU of all the browser's processes per page fetched, in ms (median), null when not measured. */
  cpuMsPerPage: number | null;
  /** Each round's run, its figures rounded (null where it could not be measured). */
  perRound: (Pick<
    CeilingRun,
    'round' | 'pagesFetched' | 'eachPageOnce' | 'userAgent' | 'wireEvents' | 'links' | 'urlsAdded' | 'error'
  > & {
    pagesPerSecond: number | null;
    seconds: number | null;
    failures: number | null;
  })[];
}

/** One variant's figures, as {@link summariseCeiling} gives them. */
export interface CeilingSummary {
  label: string;
  description: string;
  loop: CeilingLoopId;
  runs: CeilingFigure[];
}

/** The runs summed up per variant (in {@link CEILING_VARIANTS}' order) and concurrency. Pure. */
export function summariseCeiling(
  runs: readonly CeilingRun[],
  concurrencies: readonly number[],
  wgetPagesPerSecond: number | null,
): Record<CeilingVariantId, CeilingSummary> {
  const entries = CEILING_VARIANTS.map((variant) => {
    const figures = concurrencies.map((concurrency): CeilingFigure => {
      const mine = runs
        .filter((r) => r.variant === variant.id && r.concurrency === concurrency)
        .sort((a, b) => a.round - b.round);
      const ok = mine.filter((r) => r.error === null);
      const rate = median(ok.map((r) => r.pagesPerSecond));
      const counted = (pick: (r: CeilingRun) => number | null): number | null => {
        const values = ok.map(pick).filter((value): value is number => value !== null);
        return values.length === 0 ? null : median(values);
      };
      return {
        concurrency,
        pagesPerSecond: rounded(rate),
        ratioToWget:
          wgetPagesPerSecond === null || wgetPagesPerSecond <= 0 ? null : rounded(rate / wgetPagesPerSecond, 3),
        seconds: rounded(median(ok.map((r) => r.ms / 1000)), 2),
        failures: ok.length === 0 ? null : median(ok.map((r) => r.failures)),
        eachPageOnce: mine.length > 0 && mine.every((r) => r.eachPageOnce),
        links: counted((r) => r.links),
        urlsAdded: counted((r) => r.urlsAdded),
        cpuMsPerPage: ((perPage) => (perPage === null ? null : rounded(perPage, 2)))(
          counted((r) => (r.cpuMs === null || r.pagesFetched === 0 ? null : r.cpuMs / r.pagesFetched)),
        ),
        perRound: mine.map((r) => ({
          round: r.round,
          pagesPerSecond: rounded(r.pagesPerSecond),
          seconds: rounded(r.ms / 1000, 3),
          failures: Number.isNaN(r.failures) ? null : r.failures,
          pagesFetched: r.pagesFetched,
          eachPageOnce: r.eachPageOnce,
          userAgent: r.userAgent,
          wireEvents: r.wireEvents,
          links: r.links,
          urlsAdded: r.urlsAdded,
          error: r.error,
        })),
      };
    });
    return [
      variant.id,
      { label: variant.label, description: variant.description, loop: variant.loop, runs: figures },
    ] as const;
  });
  return Object.fromEntries(entries) as Record<CeilingVariantId, CeilingSummary>;
}

/**
 * Creating, pausing, resuming and stopping crawls: the transitions of
 * {@link CrawlState} that the user asks for. The runner makes the others
 * (finished, failed). Each transition is one store transaction and changes
 * nothing when the crawl is not in a state it starts from.
 */
import { emptyCounts, type CrawlRecord, type CrawlState } from '../model.ts';
import { SESSION_EXCLUDE_PATTERNS, type CrawlSettings, type SettingsError } from '../settings.ts';
import { normalizeUrl, originOf } from '../url/normalize-url.ts';
import { createScope } from '../url/scope.ts';
import { CrawlWrites } from './crawl-writes.ts';
import { admit } from './frontier-admit.ts';
import type { CrawlStore } from './ports.ts';

/**
 * Why these (already validated) settings cannot start a crawl, or null.
 * The start URL itself must be in scope: an exclude pattern or a path prefix that rules it out would crawl nothing.
 * Give it the settings the crawl runs with (after `withSessionGuard`), so a
 * start URL that a crawl with cookies would never fetch is refused too.
 */
export function startUrlProblem(settings: CrawlSettings): SettingsError | null {
  const start = normalizeUrl(settings.startUrl);
  if (start === null) return { field: 'startUrl', message: `"${settings.startUrl}" is not an http(s) URL` };
  const verdict = createScope(settings).check(start);
  if (verdict.inScope) return null;
  if (verdict.reason === 'excluded') {
    const pattern = verdict.pattern ?? '';
    if (settings.withCookies && SESSION_EXCLUDE_PATTERNS.includes(pattern)) {
      return {
        field: 'startUrl',
        message: `the start URL looks like a logout or delete link (it matches "${pattern}"), which a crawl with your cookies never fetches`,
      };
    }
    return { field: 'excludePatterns', message: `the exclude pattern "${pattern}" matches the start URL itself` };
  }
  if (verdict.reason === 'prefix')
    return { field: 'pathPrefix', message: `the start URL is not under the path prefix "${settings.pathPrefix}"` };
  return { field: 'startUrl', message: 'the start URL is outside the crawl scope' };
}

/**
 * The host permissions (Chrome match patterns) a crawl needs: every URL it
 * may fetch is in its scope, and its scope is one origin, or with
 * `includeSubdomains` the start host and its subdomains over http and https,
 * plus each of `extraOrigins` (its scheme and host). Each pattern once, the
 * start's first. Match patterns ignore the port, so `http://127.0.0.1/*`
 * covers every port (several local sites on one host need one pattern).
 * Redirects out of scope are recorded, never fetched, so they need nothing.
 */
export function hostAccessPatterns(
  settings: Pick<CrawlSettings, 'startUrl' | 'includeSubdomains'> & {
    /** Validated origins; absent on crawls stored before the setting existed. */
    extraOrigins?: readonly string[];
  },
): string[] {
  const patterns = new Set(startHostPatterns(settings));
  for (const origin of settings.extraOrigins ?? []) patterns.add(accessPatternOf(origin));
  return [...patterns];
}

/** The match pattern Chrome grants access to a URL's host by: its scheme and host (match patterns have no port). */
export function accessPatternOf(url: string): string {
  const { protocol, hostname } = new URL(url);
  return `${protocol}//${hostname}/*`;
}

/** The match patterns of the start site: its host, or with `includeSubdomains` also its subdomains, over http and https. */
function startHostPatterns(settings: Pick<CrawlSettings, 'startUrl' | 'includeSubdomains'>): string[] {
  if (!settings.includeSubdomains) return [accessPatternOf(settings.startUrl)];
  const start = new URL(settings.startUrl);
  const root = start.hostname.startsWith('www.') ? start.hostname.slice('www.'.length) : start.hostname;
  // An IP address has no subdomains, and `*.` before one is not a valid match pattern.
  const isIp = root.startsWith('[') || /^\d+(\.\d+){3}$/.test(root);
  const hosts = isIp ? [root] : [root, `*.${root}`];
  return ['http:', 'https:'].flatMap((scheme) => hosts.map((host) => `${scheme}//${host}/*`));
}

/** Stores a new running crawl with its start URL queued at depth 0. */
export async function createCrawl(
  store: CrawlStore,
  settings: CrawlSettings,
  ids: { id: string; now: number },
): Promise<CrawlRecord> {
  const start = normalizeUrl(settings.startUrl);
  if (start === null) throw new TypeError(`not an http(s) URL: ${settings.startUrl}`);
  const crawl: CrawlRecord = {
    id: ids.id,
    settings: { ...settings, startUrl: start },
    state: 'running',
    createdAt: ids.now,
    endedAt: null,
    counts: emptyCounts(),
    message: null,
    nextSeq: 0,
    pausedAt: null,
    pausedMs: 0,
  };
  await store.transaction(async (tx) => {
    const writes = new CrawlWrites(tx, crawl);
    await admit(writes, [
      { url: start, origin: originOf(start), kind: 'page', depth: 0, referrer: null, anchor: null, isLink: false },
    ]);
    await writes.flush();
  });
  return crawl;
}

/**
 * Moves a crawl from one of `from` to `to` in one transaction, with `change`
 * filling in the rest; a crawl in another state is returned unchanged.
 */
async function transition(
  store: CrawlStore,
  crawlId: string,
  from: readonly CrawlState[],
  change: (crawl: CrawlRecord) => void,
): Promise<CrawlRecord | undefined> {
  return store.transaction(async (tx) => {
    const crawl = await tx.getCrawl(crawlId);
    if (!crawl || !from.includes(crawl.state)) return crawl;
    change(crawl);
    await tx.putCrawl(crawl);
    return crawl;
  });
}

/** Moves a running or paused crawl to `stopped`. What is stored stays; the frontier is kept. */
export async function stopCrawl(store: CrawlStore, crawlId: string, now: number): Promise<CrawlRecord | undefined> {
  return transition(store, crawlId, ['running', 'paused'], (crawl) => {
    if (crawl.state === 'running') crawl.pausedAt = now;
    crawl.state = 'stopped';
    crawl.endedAt = now;
    crawl.message = 'stopped by the user';
  });
}

/**
 * Moves a running crawl to `paused`. The frontier and the host clocks stay as
 * they are; the runner stops at its next step, after its requests in flight.
 */
export async function pauseCrawl(store: CrawlStore, crawlId: string, now: number): Promise<CrawlRecord | undefined> {
  return transition(store, crawlId, ['running'], (crawl) => {
    crawl.state = 'paused';
    crawl.pausedAt = now;
  });
}

/**
 * Moves a paused or stopped crawl back to `running`, adding the time it was
 * halted to `pausedMs`. The caller starts a runner for it.
 */
export async function resumeCrawl(store: CrawlStore, crawlId: string, now: number): Promise<CrawlRecord | undefined> {
  return transition(store, crawlId, ['paused', 'stopped'], (crawl) => {
    const haltedAt = crawl.pausedAt ?? crawl.endedAt ?? now;
    crawl.pausedMs = (crawl.pausedMs ?? 0) + Math.max(0, now - haltedAt);
    crawl.pausedAt = null;
    crawl.state = 'running';
    crawl.endedAt = null;
    crawl.message = null;
  });
}

/** What a crawl says after the browser was closed while it ran and it went on when the browser started again. */
export const RESUMED_AFTER_BROWSER_START_MESSAGE =
  'The browser (or Tabcrawl) restarted during this crawl; it resumed by itself where it had stopped.';

/**
 * Notes on a running crawl that the browser was closed while it ran (called
 * when the browser starts with a crawl still running). The crawl goes on by
 * itself: its frontier and every host's clocks are in the store.
 */
export async function noteBrowserRestart(store: CrawlStore, crawlId: string): Promise<CrawlRecord | undefined> {
  return transition(store, crawlId, ['running'], (crawl) => {
    crawl.message = RESUMED_AFTER_BROWSER_START_MESSAGE;
  });
}

/** URLs admitted but not yet written to the crawl table: pages, sitemaps, page resources and links to other sites alike. */
export function queuedCount(crawl: Pick<CrawlRecord, 'counts'>): number {
  return (
    crawl.counts.admitted +
    (crawl.counts.resourcesAdmitted ?? 0) +
    (crawl.counts.externalAdmitted ?? 0) -
    crawl.counts.done
  );
}

/**
 * One handler per request of the protocol: the map is typed by
 * {@link Requests}, so a request without a handler does not compile.
 * Handlers check their payloads; every error leaves as data.
 */
import { redirectsByKey } from '../../export/redirect-chains.ts';
import { systemClock } from '../../core/crawl/clock.ts';
import { queuedCount } from '../../core/crawl/crawl-lifecycle.ts';
import type { Clock, CrawlStore } from '../../core/crawl/ports.ts';
import { activeMs, hostsProgress } from '../../core/crawl/progress.ts';
import type { CrawlRecord, HostState, PageRecord } from '../../core/model.ts';
import { hostRobotsPolicy } from '../../core/robots/host-robots-policy.ts';
import { brokenUrlsIn } from '../../export/broken-resources.ts';
import { countsBySeverity, failedChecks, runAudit } from '../../audit/audit.ts';
import { storeExportSource } from '../../export/export-source.ts';
import { issuesOfSource, type IssueLookup } from '../../export/issues-of-source.ts';
import { toJsonl } from '../../export/jsonl.ts';
import {
  type CrawlSummary,
  type MessageOf,
  type PageSummary,
  type Reply,
  type ReplyOf,
  type RequestOf,
  type RequestType,
  TabcrawlError,
} from '../../messaging/protocol.ts';
import type { CrawlManager } from './crawl-manager.ts';
import { rerunRules, type RerunStore } from '../../core/custom-rules/rerun-rules.ts';
import { checkCustomRules } from '../../core/settings.ts';

/**
 * What the UI shows of a crawl.
 * @param now when given (ms since the epoch), the summary carries `activeMs` as of then.
 */
export function toCrawlSummary(crawl: CrawlRecord, now?: number): CrawlSummary {
  return {
    id: crawl.id,
    startUrl: crawl.settings.startUrl,
    state: crawl.state,
    createdAt: crawl.createdAt,
    endedAt: crawl.endedAt,
    // `bytesStored` is absent in crawls stored before it existed.
    counts: { ...crawl.counts, bytesStored: crawl.counts.bytesStored ?? 0 },
    queued: queuedCount(crawl),
    message: crawl.message,
    settings: crawl.settings,
    ...(crawl.importedFrom === undefined ? {} : { importedFrom: crawl.importedFrom }),
    ...(now === undefined ? {} : { activeMs: activeMs(crawl, now) }),
  };
}

/**
 * Crawl-delays already parsed, by crawl, host, fetch time of its robots.txt and product token: the
 * popup asks for host progress every second, and a 512 KiB robots.txt takes ~140 ms to parse.
 */
const crawlDelays = new Map<string, number | null>();
/** Most entries kept; the oldest go first. */
const CRAWL_DELAYS_KEPT = 256;

/** The robots.txt Crawl-delay of our group for a host, in ms, when its robots.txt body is known; else null. */
function crawlDelayOf(host: HostState, productToken: string): number | null {
  if (host.robots.phase !== 'ready' || host.robots.body === null) return null;
  const key = JSON.stringify([host.crawlId, host.origin, host.robots.fetchedAt, productToken]);
  const known = crawlDelays.get(key);
  if (known !== undefined) return known;
  const crawlDelayMs = hostRobotsPolicy(host.origin, host.robots, productToken).crawlDelayMs;
  crawlDelays.set(key, crawlDelayMs);
  for (const oldest of crawlDelays.keys()) {
    if (crawlDelays.size <= CRAWL_DELAYS_KEPT) break;
    crawlDelays.delete(oldest);
  }
  return crawlDelayMs;
}

export function toPageSummary(page: PageRecord): PageSummary {
  return {
    seq: page.seq,
    url: page.url,
    kind: page.kind,
    depth: page.depth,
    status: page.status,
    contentType: page.contentType,
    location: page.location,
    blockedBy: page.blockedBy,
    error: page.error,
    duplicateOf: page.duplicateOf,
  };
}

type Handlers = { [K in RequestType]: (payload: RequestOf<K>) => Promise<ReplyOf<K>> };

const badRequest = (message: string): TabcrawlError => new TabcrawlError({ code: 'bad-request', message });

function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw badRequest(`${name} must be a non-empty string`);
  return value;
}

function requireCount(value: unknown, name: string, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw badRequest(`${name} must be a whole number from 0 to ${max}`);
  }
  return value;
}

/**
 * The handler map.
 * @param clock the time `activeMs` and host waits are computed at. @default systemClock
 */
export function createHandlers(
  store: CrawlStore,
  manager: CrawlManager,
  clock: Clock = systemClock,
  /** Where `crawl/apply-rules` reads and writes (`DexieRerunStore`); null: the request fails. */
  rerunStore: RerunStore | null = null,
): Handlers {
  const summary = (crawl: CrawlRecord): CrawlSummary => toCrawlSummary(manager.view(crawl), clock.now());
  /** The issues of the crawl `export/chunk` pages through, as of its rows done then (its chunks share one audit). */
  let chunkIssues: { key: string; issues: Promise<IssueLookup> } | null = null;
  const issuesOf = (crawl: CrawlRecord): Promise<IssueLookup> => {
    const key = `${crawl.id} ${crawl.counts.done}`;
    if (chunkIssues?.key !== key) {
      const issues = issuesOfSource(storeExportSource(store, crawl));
      // A failed read is not kept: the next chunk reads again.
      issues.catch(() => {
        if (chunkIssues?.issues === issues) chunkIssues = null;
      });
      chunkIssues = { key, issues };
    }
    return chunkIssues.issues;
  };
  const crawlOrThrow = async (crawlId: unknown): Promise<CrawlRecord> => {
    const id = requireString(crawlId, 'crawlId');
    const crawl = await store.getCrawl(id);
    if (!crawl) throw new TabcrawlError({ code: 'not-found', message: `no crawl ${id}` });
    return crawl;
  };
  return {
    'crawl/start': async ({ settings }) => {
      if (typeof settings !== 'object' || settings === null) throw badRequest('settings must be an object');
      return { crawl: summary(await manager.start(settings)) };
    },
    'crawl/stop': async ({ crawlId }) => ({ crawl: summary(await manager.stop(requireString(crawlId, 'crawlId'))) }),
    'crawl/pause': async ({ crawlId }) => ({ crawl: summary(await manager.pause(requireString(crawlId, 'crawlId'))) }),
    'crawl/resume': async ({ crawlId }) => ({
      crawl: summary(await manager.resume(requireString(crawlId, 'crawlId'))),
    }),
    'crawl/rerun': async ({ crawlId }) => ({ crawl: summary(await manager.rerun(requireString(crawlId, 'crawlId'))) }),
    'crawl/apply-rules': async ({ crawlId, searches, extractions }) => {
      const crawl = await crawlOrThrow(crawlId);
      const lists = { searches, extractions };
      const errors = checkCustomRules(lists);
      if (errors.length > 0)
        throw new TabcrawlError({
          code: 'invalid-settings',
          message: errors.map((e) => e.message).join('; '),
          fields: errors,
        });
      if (rerunStore === null) throw new TabcrawlError({ code: 'internal', message: 'no store to apply rules in' });
      const result = await rerunRules(rerunStore, crawl, lists);
      // The specs were checked above: a refusal here is the crawl's state.
      if (!result.ok) throw badRequest('message' in result ? result.message : 'the rules were refused');
      return { crawl: summary(await crawlOrThrow(crawlId)), pages: result.pages, withoutBody: result.withoutBody };
    },
    'crawl/hosts': async ({ crawlId }) => {
      const crawl = await crawlOrThrow(crawlId);
      const hosts = await store.listHosts(crawl.id);
      const { delayMs, productToken } = crawl.settings;
      return { hosts: hostsProgress(hosts, clock.now(), delayMs, (host) => crawlDelayOf(host, productToken)) };
    },
    'crawl/get': async ({ crawlId }) => ({ crawl: summary(await crawlOrThrow(crawlId)) }),
    'crawl/list': async () => ({ crawls: (await store.listCrawls()).map(summary) }),
    'crawl/delete': async ({ crawlId }) => {
      await manager.delete(requireString(crawlId, 'crawlId'));
      return {};
    },
    'pages/latest': async ({ crawlId, limit }) => {
      const crawl = await crawlOrThrow(crawlId);
      const pages = await store.latestPages(crawl.id, requireCount(limit, 'limit', 1000));
      return { pages: pages.map(toPageSummary) };
    },
    'crawl/issues': async ({ crawlId }) => {
      const crawl = await crawlOrThrow(crawlId);
      const source = storeExportSource(store, crawl);
      const result = await runAudit(() => source.rows());
      return { bySeverity: countsBySeverity(result), checks: failedChecks(result) };
    },
    'export/chunk': async ({ crawlId, format, afterSeq, limit }) => {
      const crawl = await crawlOrThrow(crawlId);
      if (format !== 'jsonl') throw badRequest(`unsupported export format ${String(format)}`);
      const rowLimit = Math.max(1, requireCount(limit, 'limit', 5000));
      const pages = await store.pagesAfter(
        crawl.id,
        requireCount(afterSeq, 'afterSeq', Number.MAX_SAFE_INTEGER),
        rowLimit,
      );
      // The chunk's resources are mostly recorded after their pages: their rows, read by key, say which are broken.
      const resources = [...new Set(pages.flatMap((page) => page.resources))];
      const resourceRows =
        resources.length === 0 ? [] : await store.transaction((tx) => tx.getPages(crawl.id, resources));
      const broken = brokenUrlsIn(resourceRows.filter((row) => row !== undefined));
      const redirects = await redirectsByKey(pages, (urls) => store.transaction((tx) => tx.getPages(crawl.id, urls)));
      return {
        text: toJsonl(pages, broken, await issuesOf(crawl), redirects),
        lastSeq: pages.at(-1)?.seq ?? afterSeq,
        rows: pages.length,
        done: pages.length < rowLimit,
      };
    },
    'crawl/imported': async ({ crawlId }) => {
      // The import page wrote the crawl through its own connection to the database, which the worker's
      // observed store did not see: writing the record again through it tells open pages (`crawl/changed`).
      const id = requireString(crawlId, 'crawlId');
      const crawl = await store.transaction(async (tx) => {
        const stored = await tx.getCrawl(id);
        if (stored !== undefined) await tx.putCrawl(stored);
        return stored;
      });
      if (crawl === undefined) throw new TabcrawlError({ code: 'not-found', message: `no crawl ${id}` });
      return { crawl: summary(crawl) };
    },
  };
}

/** Runs the handler of a message and wraps its result or error as a {@link Reply}. */
export async function dispatch<K extends RequestType>(handlers: Handlers, message: MessageOf<K>): Promise<Reply<K>> {
  try {
    // The map is keyed by the message's own type, so the payload matches its handler.
    const handler = handlers[message.type] as (payload: RequestOf<K>) => Promise<ReplyOf<K>>;
    return { ok: true, value: await handler(message.payload) };
  } catch (error) {
    if (error instanceof TabcrawlError) {
      const fields = error.fields.length > 0 ? { fields: error.fields } : {};
      const crawl = error.crawlId === null ? {} : { crawlId: error.crawlId };
      return { ok: false, error: { code: error.code, message: error.message, ...fields, ...crawl } };
    }
    console.error(`request ${message.type} failed`, error);
    return { ok: false, error: { code: 'internal', message: error instanceof Error ? error.message : String(error) } };
  }
}

/**
 * The fetch step of a crawl: request one claimed frontier entry of any kind
 * (a page, a sitemap, a resource: see `kinds/`), read what its kind reads of
 * the answer, and record it in one transaction: the row, its body once per
 * crawl, the URLs it leads to (links followed within the scope, resources
 * on any host), and the host's clocks (its gap, a back-off after 429/503). A
 * request cut short goes back in the queue; a 429/503 with retries left is
 * retried later. The crawl runner claims the entry; this module does the rest.
 */
import type { CrawlRecord, FrontierEntry } from '../model.ts';
import { gapResponseMs } from './response-time.ts';
import { backoffMs, isRetryableStatus, isRetryAfterBeyondCap, parseRetryAfterMs } from '../politeness/retry-after.ts';
import { sha256Hex } from '../hash.ts';
import { normalizeUrl, originOf } from '../url/normalize-url.ts';
import { type CrawlWrites } from './crawl-writes.ts';
import type { Candidate } from './candidate.ts';
import { unfetchedRow } from './frontier-queue.ts';
import { markHandled, reclaim } from './frontier-queue.ts';
import { isSiteHost } from './host-pools.ts';
import { externalCandidates } from './kinds/external-kind.ts';
import { workKindOf } from './kinds/registry.ts';
import { isSuccess, NOTHING_FOUND, type Found } from './kinds/work-kind.ts';
import { noteAnswerAddress } from './network-guard.ts';
import { queueRender } from './render/render-queue.ts';
import type { FetchOutcome } from './ports.ts';
import { accessLostMessage, headerOf, pauseWithMessage, type Claim, type StepContext } from './run-context.ts';
import { redactRequestHeaders } from '../redact-headers.ts';

export { MAX_LINKS_PER_PAGE } from './kinds/page-kind.ts';

/** The request option of a kind asked without credentials (one object for every such request). */
const WITHOUT_CREDENTIALS = Object.freeze({ withoutCredentials: true });

/**
 * How many redirects in a row led to `entry`: walks back its referrers while
 * each one is a redirect to the next, up to `limit`.
 * Awaits only calls of `writes`.
 */
async function redirectsBefore(writes: CrawlWrites, entry: FrontierEntry, limit: number): Promise<number> {
  let hops = 0;
  let url = entry.url;
  let referrer = entry.referrer;
  while (referrer !== null && hops < limit) {
    const [row] = await writes.getPages([referrer]);
    const isRedirect = row !== undefined && row.status !== null && row.status >= 300 && row.status < 400;
    if (!isRedirect || row.location === null || normalizeUrl(row.location) !== url) break;
    hops += 1;
    url = row.url;
    referrer = row.referrer;
  }
  return hops;
}

/**
 * What {@link requestEntry} did: the final answer and the methods sent for the URL, or a HEAD whose answer
 * calls for a GET, which is a request of its own (sent in a later claim, after the host's gap).
 */
type Requested =
  { kind: 'answer'; outcome: FetchOutcome; methods: ('GET' | 'HEAD')[] } | { kind: 'get-later'; head: FetchOutcome };

/**
 * Fetches one frontier entry: HEAD first when its kind asks, and never the GET right after it (see
 * {@link Requested}); only the GET when the entry's HEAD was sent by an earlier claim.
 */
async function requestEntry(
  ctx: StepContext,
  crawl: CrawlRecord,
  entry: FrontierEntry,
  signal: AbortSignal,
): Promise<Requested> {
  const { fetcher } = ctx;
  const { settings } = crawl;
  const kind = workKindOf(entry.kind);
  const bodyLimit = (status: number, contentType: string | null): number => kind.bodyLimit(crawl, status, contentType);
  const anonymous = kind.anonymous ? WITHOUT_CREDENTIALS : {};
  const get = (): Promise<FetchOutcome> =>
    fetcher.fetch({ url: entry.url, method: 'GET', timeoutMs: settings.timeoutMs, bodyLimit, signal, ...anonymous });
  const answer = (outcome: FetchOutcome, methods: ('GET' | 'HEAD')[]): Requested => ({
    kind: 'answer',
    outcome,
    methods,
  });
  if (entry.awaitsGet === true) return answer(await get(), ['HEAD', 'GET']);
  if (!kind.headFirst(settings)) return answer(await get(), ['GET']);
  const head = await fetcher.fetch({
    url: entry.url,
    method: 'HEAD',
    timeoutMs: settings.timeoutMs,
    bodyLimit: () => 0,
    signal,
    ...anonymous,
  });
  if (!head.ok) {
    // A kind may ask again with GET when HEAD got no proper answer (a link checker does); a stop or withdrawn access is final.
    if (!kind.getAfterFailedHead(head.error.code)) return answer(head, ['HEAD']);
    return { kind: 'get-later', head };
  }
  const contentType = head.headers.find(([name]) => name === 'content-type')?.[1] ?? null;
  const wantsGet =
    (isSuccess(head.status) && bodyLimit(head.status, contentType) > 0) || head.status === 405 || head.status === 501;
  return wantsGet ? { kind: 'get-later', head } : answer(head, ['HEAD']);
}

/**
 * @param responseEnded called when the response has ended (before it is recorded).
 * @param next run at the end of the transaction that records the answer: claims the host's next request.
 * @returns what `next` claimed; null when it did not run (no `next`, or the answer was not recorded:
 *   a stop, or a retry later).
 */
export async function fetchEntry(
  ctx: StepContext,
  crawl: CrawlRecord,
  entry: FrontierEntry,
  signal: AbortSignal,
  responseEnded: () => void,
  next: ((writes: CrawlWrites) => Promise<Claim>) | null,
): Promise<Claim | null> {
  const { settings } = crawl;
  const kind = workKindOf(entry.kind);
  const requested = await requestEntry(ctx, crawl, entry, signal);
  responseEnded();
  if (requested.kind === 'get-later') {
    if (signal.aborted) {
      await releaseEntry(ctx, crawl.id, entry);
      return null;
    }
    return getLater(ctx, crawl.id, entry, requested.head, next);
  }
  const { outcome, methods } = requested;
  const endedAt = outcome.endedAt;

  if (signal.aborted || (!outcome.ok && outcome.error.code === 'aborted')) {
    await releaseEntry(ctx, crawl.id, entry);
    return null;
  }
  if (!outcome.ok && outcome.error.code === 'no-access' && isSiteHost(ctx.rules.scopeOf(crawl), entry.origin)) {
    // Site access withdrawn mid-crawl: pause rather than record every URL left as a network error. On
    // another host (a resource, a checked link) Chrome may never have let Tabcrawl in: that URL is
    // recorded as failed with `no-access` below, and the crawl goes on.
    await releaseEntry(ctx, crawl.id, entry, accessLostMessage(outcome.error.message));
    return null;
  }

  const retryable = outcome.ok && isRetryableStatus(outcome.status);
  const retryAfterMs = parseRetryAfterMs(headerOf(outcome, 'retry-after'), endedAt);
  // A Retry-After beyond our longest back-off: the answer is final (see isRetryAfterBeyondCap).
  if (retryable && entry.attempts < settings.maxRetries && !isRetryAfterBeyondCap(retryAfterMs)) {
    await retryLater(ctx, crawl.id, entry, outcome);
    return null;
  }

  const page = unfetchedRow(entry);
  page.methods = methods;
  page.fetchedAt = outcome.startedAt;
  page.responseTimeMs = outcome.endedAt - outcome.startedAt;
  /** The target of a redirect, queued unless it ends a chain longer than its kind's `redirectLimit`. */
  let redirect: Candidate | null = null;
  let found: Found = NOTHING_FOUND;
  if (!outcome.ok) {
    page.error = outcome.error;
  } else {
    const header = (name: string): string | null => outcome.headers.find(([n]) => n === name)?.[1] ?? null;
    page.status = outcome.status;
    page.headers = outcome.headers;
    page.statusLine = outcome.wire?.statusLine ?? null;
    // Cookie and Authorization values are credentials: never stored (`core/redact-headers.ts`).
    page.requestHeaders = redactRequestHeaders(outcome.wire?.requestHeaders);
    page.ipAddress = outcome.wire?.ipAddress ?? null;
    page.contentType = header('content-type');
    const declared = Number.parseInt(header('content-length') ?? '', 10);
    page.contentLength = Number.isFinite(declared) && declared >= 0 ? declared : (outcome.body?.byteLength ?? null);
    page.truncated = outcome.truncated;
    page.location = outcome.location;
    const target = outcome.location === null ? null : normalizeUrl(outcome.location);
    if (target !== null && outcome.status >= 300 && outcome.status < 400) {
      // Redirects are recorded, not followed: the target is queued like a link, at the same depth.
      redirect = {
        url: target,
        origin: originOf(target),
        kind: entry.kind,
        depth: entry.depth,
        referrer: entry.url,
        anchor: null,
        isLink: false,
      };
    }
    if (outcome.body !== null) page.sha256 = await sha256Hex(outcome.body);
    if (isSuccess(outcome.status)) found = await kind.read(crawl, entry, page, outcome.body);
  }

  const scope = ctx.rules.scopeOf(crawl);
  const external = externalCandidates(scope, entry, page);
  const redirectLimit = kind.redirectLimit;

  return ctx.commits.run<Claim | null>(
    crawl.id,
    async (writes) => {
      const { tx, crawl: current } = writes;
      // Three reads at once: the store answers them in one round trip instead of three.
      const [host, [stored], owner] = await Promise.all([
        writes.host(entry.origin),
        tx.getEntries(crawl.id, [entry.url]),
        page.sha256 === null ? undefined : tx.bodyOwner(crawl.id, page.sha256),
      ]);
      noteAnswerAddress(ctx.rules.guardOf(current), current, host, page.ipAddress);
      // Links found while it was in flight added to its inlinks and anchors: take them from the stored entry.
      if (stored) {
        page.inlinks = stored.inlinks;
        page.anchors = stored.anchors;
      }
      if (page.sha256 !== null && !kind.keepsBody(current, page)) {
        // Its kind's budget spent while it was downloaded (a linked file): recorded with its headers only.
        page.sha256 = null;
      }
      if (page.sha256 !== null) {
        if (owner !== undefined && owner !== page.url) {
          // Stored once; its links are still followed: relative ones resolve against this URL, and may
          // lead elsewhere than the first copy's (the same page served at /a/ and /b/).
          page.duplicateOf = owner;
        } else if (owner === undefined && outcome.ok && outcome.body !== null) {
          await tx.putBody({ crawlId: crawl.id, sha256: page.sha256, url: page.url, bytes: outcome.body });
          // `?? 0`: crawls stored before this counter existed lack it.
          current.counts.bytesStored = (current.counts.bytesStored ?? 0) + outcome.body.byteLength;
        }
      }
      const followRedirect = redirect !== null && (await redirectsBefore(writes, entry, redirectLimit)) < redirectLimit;
      await markHandled(writes, page);
      const followed = [...found.follow];
      const anyHost = [...found.resources, ...external];
      // A page's redirect leads to a page in scope, a resource's to the resource, a checked link's to the next hop (its kind says).
      if (followRedirect && redirect) kind.routeRedirect(redirect, scope, followed, anyHost);
      // The scope, the depth limit, the trap rules and the page budget decide (`admission.ts`).
      await ctx.admitFollowed(writes, followed);
      await ctx.admitAnyHost(writes, anyHost);
      if (found.render !== undefined && found.render !== null) await queueRender(writes, page.url, found.render);
      if (host.inFlight?.url === entry.url) host.inFlight = null;
      ctx.rules.requestEnded(current.settings, host, endedAt, gapResponseMs(outcome));
      if (retryable && outcome.ok) {
        host.backoffUntil = endedAt + backoffMs(entry.attempts, retryAfterMs, 0);
      }
      return next === null ? null : next(writes);
    },
    null,
  );
}

/**
 * Puts a claimed entry back in the queue after its fetch was cut short (the crawl stopped) or not sent
 * (no access), its attempt not counted; its host's gap counts from now.
 * @param pauseWith pauses the running crawl with this message, in the same transaction.
 */
async function releaseEntry(
  ctx: StepContext,
  crawlId: string,
  entry: FrontierEntry,
  pauseWith: string | null = null,
): Promise<void> {
  const { clock } = ctx;
  await ctx.commits.run(
    crawlId,
    async (writes) => {
      const { crawl } = writes;
      const host = await writes.host(entry.origin);
      await reclaim(writes, entry, false);
      if (host.inFlight?.url === entry.url) host.inFlight = null;
      ctx.rules.requestEnded(crawl.settings, host, clock.now(), null);
      if (pauseWith !== null) pauseWithMessage(crawl, pauseWith, clock.now());
    },
    undefined,
  );
}

/**
 * A HEAD whose answer calls for a GET: the entry goes back in the queue marked
 * {@link FrontierEntry.awaitsGet}, and the host's clock runs from the HEAD's
 * end, so the GET waits for the host's gap (the delay, its Crawl-delay, the
 * response-time rule) like any request: never two requests to one host closer
 * than its gap. Nothing is recorded until the GET's answer.
 * @param next as in {@link fetchEntry}: claims the host's next request (the GET itself when the gap is 0).
 */
async function getLater(
  ctx: StepContext,
  crawlId: string,
  entry: FrontierEntry,
  head: FetchOutcome,
  next: ((writes: CrawlWrites) => Promise<Claim>) | null,
): Promise<Claim | null> {
  return ctx.commits.run<Claim | null>(
    crawlId,
    async (writes) => {
      const host = await writes.host(entry.origin);
      await reclaim(writes, entry, false, true);
      if (host.inFlight?.url === entry.url) host.inFlight = null;
      ctx.rules.requestEnded(writes.crawl.settings, host, head.endedAt, gapResponseMs(head));
      return next === null ? null : next(writes);
    },
    null,
  );
}

/** 429/503 with retries left: requeue the entry and back the host off. */
async function retryLater(
  ctx: StepContext,
  crawlId: string,
  entry: FrontierEntry,
  outcome: FetchOutcome & { ok: true },
): Promise<void> {
  await ctx.commits.run(
    crawlId,
    async (writes) => {
      const { crawl } = writes;
      const host = await writes.host(entry.origin);
      if (host.inFlight?.url === entry.url) host.inFlight = null;
      const gap = ctx.rules.requestEnded(crawl.settings, host, outcome.endedAt, gapResponseMs(outcome));
      const retryAfter = parseRetryAfterMs(
        outcome.headers.find(([n]) => n === 'retry-after')?.[1] ?? null,
        outcome.endedAt,
      );
      host.backoffUntil = outcome.endedAt + backoffMs(entry.attempts, retryAfter, gap);
      // The stored entry, with what links found while it was in flight added.
      await reclaim(writes, entry, true);
    },
    undefined,
  );
}

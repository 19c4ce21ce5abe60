/**
 * Arithmetic of `npm run bench`: medians, ratios, slopes, the gaps a server
 * saw per host, and what a V8 CPU profile says. Pure: no I/O, so the unit
 * tests check it on made-up numbers.
 */

/** The median of `values` (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

/**
 * The least-squares slope of `y` over `x` (dy/dx); NaN with fewer than two
 * distinct x. Used for the worker's heap against pages crawled: a flat heap
 * has a slope near 0 bytes per page whatever its level.
 */
export function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const p of points) {
    covariance += (p.x - meanX) * (p.y - meanY);
    variance += (p.x - meanX) ** 2;
  }
  return variance === 0 ? Number.NaN : covariance / variance;
}

/** Pages in a segment of the rate-holds-up figure on a site of 50,000 pages or more (issue: "the rate over the last 5,000 pages ≥ 0.9 of the rate over the first 5,000"). */
export const SEGMENT_PAGES = 5000;

/** Pages in a segment of a crawl of a site of `sitePages` pages: {@link SEGMENT_PAGES}, or a tenth of the pages below 10 times that (at least 1). */
export function segmentPagesFor(sitePages: number): number {
  return sitePages >= 10 * SEGMENT_PAGES ? SEGMENT_PAGES : Math.max(1, Math.floor(sitePages / 10));
}

/** How a crawl's rate held up: pages per second over its first and its last segment, and their ratio. */
export interface SegmentRates {
  /** Pages in each segment. */
  segmentPages: number;
  /** Pages fetched in all (arrival times given). */
  pages: number;
  firstPagesPerSecond: number;
  lastPagesPerSecond: number;
  /** Last ÷ first: 1 when the rate holds, below 1 when the crawl slows down as it grows. */
  lastOverFirst: number;
}

/**
 * Pages per second over the first and the last `segmentPages` pages of a crawl, from the times its page
 * requests arrived at the server (in ms, any order), and last ÷ first. A segment of S pages is S intervals
 * between arrivals: from the 1st page's arrival to the (S+1)-th's, and from the (N−S)-th's to the N-th's
 * (N pages in all), so the crawl's start (the browser, robots.txt) and its end (the resources of the last
 * pages, the final writes) are left out alike. NaN figures when there are not S + 1 pages; Infinity when a
 * segment's pages all arrived in the same ms.
 */
export function segmentRates(arrivalsMs: readonly number[], segmentPages: number): SegmentRates {
  const sorted = [...arrivalsMs].sort((a, b) => a - b);
  const n = sorted.length;
  const rate = (from: number, to: number): number => {
    const start = sorted[from];
    const end = sorted[to];
    return n <= segmentPages || segmentPages < 1 || start === undefined || end === undefined
      ? Number.NaN
      : segmentPages / ((end - start) / 1000);
  };
  const first = rate(0, segmentPages);
  const last = rate(n - 1 - segmentPages, n - 1);
  return { segmentPages, pages: n, firstPagesPerSecond: first, lastPagesPerSecond: last, lastOverFirst: last / first };
}

/**
 * How fast a series sampled as a crawl grows (`x` pages, `y` bytes) rose over its first and its last
 * `share` of `x`'s range: the least-squares {@link slope} of the points from the smallest `x` to `share` of
 * the range above it, and of those from `share` below the largest `x` to it. Used for IndexedDB's bytes per
 * page over the first and last tenth of a crawl, where the folder's size at any moment moves by MiBs
 * (LevelDB's log filling, compactions dropping rewritten rows): a slope over a tenth's dozen samples is
 * steadier than the difference of two. Flat storage gives two equal slopes. NaN for an edge of fewer than
 * two distinct `x`.
 */
export function edgeSlopes(
  points: readonly { x: number; y: number }[],
  share: number,
): { first: EdgeSlope; last: EdgeSlope } {
  const xs = points.map((p) => p.x);
  const low = Math.min(...xs);
  const high = Math.max(...xs);
  const width = (high - low) * share;
  const edge = (from: number, to: number): EdgeSlope => {
    const inside = points.filter((p) => p.x >= from && p.x <= to);
    return { fromX: from, toX: to, points: inside.length, perX: slope(inside) };
  };
  if (points.length === 0) return { first: edge(Number.NaN, Number.NaN), last: edge(Number.NaN, Number.NaN) };
  return { first: edge(low, low + width), last: edge(high - width, high) };
}

/** The slope of a series over an edge of its range: from `fromX` to `toX`, `perX` of `y` per unit of `x`, from `points` points. */
export interface EdgeSlope {
  fromX: number;
  toX: number;
  points: number;
  perX: number;
}

/** One request as a bench server logged it (the fields of `RequestLogEntry` used here). */
export interface LoggedRequest {
  url: string;
  /** When the request arrived, in ms (any clock shared by the entries). */
  startedAt: number;
  /** When the response ended, same clock; null when it never did. */
  endedAt: number | null;
}

/**
 * The gaps one host left between the end of a response and the start of the
 * next request, in ms, in arrival order: what a `Crawl-delay` bounds from
 * below. A request that started before the previous one ended (two in
 * flight) gives a negative gap.
 */
export function serverGaps(requests: readonly LoggedRequest[]): number[] {
  const ordered = [...requests].sort((a, b) => a.startedAt - b.startedAt);
  const gaps: number[] = [];
  for (let i = 1; i < ordered.length; i++) {
    const previous = ordered[i - 1];
    const next = ordered[i];
    if (previous === undefined || next === undefined) continue;
    gaps.push(next.startedAt - (previous.endedAt ?? Number.POSITIVE_INFINITY));
  }
  return gaps;
}

/** When the crawler sent a request and read its response, on its own clock (a stored row's `fetchedAt` and `responseTimeMs`). */
export interface CrawlerTimes {
  /** When `fetch` was called, in ms since the epoch. */
  sentAt: number;
  /** When the response had been read (rounded up to the next ms), same clock. */
  readAt: number;
}

/** Where the ms of a host's gaps go, one value per pair of consecutive requests (see {@link gapParts}). */
export interface GapParts {
  /** From reading a response to sending the next request, on the crawler's clock: its own wait. */
  crawlerGaps: number[];
  /** From sending a request to its arrival at the server: the request's way through the browser. */
  requestWays: number[];
  /** From the server ending a response to the crawler having read it: the response's way. */
  responseWays: number[];
}

/**
 * Splits the gaps a server saw (end of a response → next request's arrival) into the crawler's own wait
 * and the two ways through the browser, for consecutive requests of one site both found in `times`
 * (by path and query). The server gap is their sum. Both clocks are the system clock.
 */
export function gapParts(
  requests: readonly LoggedRequest[],
  times: (path: string) => CrawlerTimes | undefined,
): GapParts {
  const ordered = [...requests].sort((a, b) => a.startedAt - b.startedAt);
  const parts: GapParts = { crawlerGaps: [], requestWays: [], responseWays: [] };
  for (let i = 1; i < ordered.length; i++) {
    const previous = ordered[i - 1];
    const next = ordered[i];
    if (previous?.endedAt == null || next === undefined) continue;
    const before = times(previous.url);
    const after = times(next.url);
    if (before === undefined || after === undefined) continue;
    parts.crawlerGaps.push(after.sentAt - before.readAt);
    parts.requestWays.push(next.startedAt - after.sentAt);
    parts.responseWays.push(before.readAt - previous.endedAt);
  }
  return parts;
}

/** The distinct paths requested, robots.txt left out: the pages a crawler fetched from one site. */
export function pagesRequested(requests: readonly LoggedRequest[]): Set<string> {
  const paths = new Set<string>();
  for (const request of requests) if (request.url !== '/robots.txt') paths.add(request.url);
  return paths;
}

/**
 * When each distinct path that `isWanted` accepts was first requested, in ms, in arrival order: the page
 * requests of a crawl (repeats left out) for {@link segmentRates}.
 */
export function firstArrivals(requests: readonly LoggedRequest[], isWanted: (path: string) => boolean): number[] {
  const seen = new Set<string>();
  const times: number[] = [];
  for (const request of requests) {
    if (seen.has(request.url) || !isWanted(request.url)) continue;
    seen.add(request.url);
    times.push(request.startedAt);
  }
  return times.sort((a, b) => a - b);
}

/** Whether robots.txt was the first request to the site and was asked for once. */
export function robotsFirstAndOnce(requests: readonly LoggedRequest[]): { isFirst: boolean; count: number } {
  const ordered = [...requests].sort((a, b) => a.startedAt - b.startedAt);
  return { isFirst: ordered[0]?.url === '/robots.txt', count: requests.filter((r) => r.url === '/robots.txt').length };
}

/** A node of a V8 CPU profile (`Profiler.Profile` of the DevTools protocol), the fields used here. */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  /** Ids of the nodes this one called. */
  children?: number[];
}

/** A V8 CPU profile as `Profiler.stop` returns it. Times in µs. */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** Time attributed to one function (or pseudo-function such as `(garbage collector)`), in ms. */
export interface SelfTime {
  functionName: string;
  url: string;
  /** 0-based, as in the profile. */
  lineNumber: number;
  columnNumber: number;
  selfMs: number;
}

/** V8's pseudo-frames that are not work: the thread waiting for events. */
const IDLE_FRAMES: ReadonlySet<string> = new Set(['(idle)']);

/**
 * Self time of every function in a profile, most first. Each sample lasts
 * until the next one (the last until the profile's end), as DevTools counts it.
 */
export function selfTimes(profile: CpuProfile): SelfTime[] {
  return functionTimes(profile, false);
}

/**
 * Total time of every function in a profile (its own and its callees'), most
 * first, in {@link SelfTime.selfMs}: where the time of Tabcrawl's own code
 * goes when the self time is spent in IndexedDB or Dexie. A function
 * recursing counts once per sample.
 */
export function totalTimes(profile: CpuProfile): SelfTime[] {
  return functionTimes(profile, true);
}

function functionTimes(profile: CpuProfile, isInclusive: boolean): SelfTime[] {
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const totals = new Map<string, SelfTime>();
  let timestamp = profile.startTime;
  const stamps = deltas.map((delta) => (timestamp += delta));
  for (let i = 0; i < samples.length; i++) {
    const start = stamps[i];
    if (start === undefined) continue;
    const durationMs = Math.max(0, (stamps[i + 1] ?? profile.endTime) - start) / 1000;
    const seen = new Set<string>();
    for (let id: number | undefined = samples[i]; id !== undefined; id = isInclusive ? parentOf.get(id) : undefined) {
      const node = byId.get(id);
      if (node === undefined) break;
      const { functionName, url, lineNumber, columnNumber } = node.callFrame;
      const key = `${functionName}\u0000${url}\u0000${lineNumber}\u0000${columnNumber}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = totals.get(key) ?? { functionName, url, lineNumber, columnNumber, selfMs: 0 };
      entry.selfMs += durationMs;
      totals.set(key, entry);
    }
  }
  return [...totals.values()].sort((a, b) => b.selfMs - a.selfMs);
}

/** The time a profiled thread was busy, in ms: every sample but `(idle)` (JS, `(program)`, `(garbage collector)`). */
export function busyMs(profile: CpuProfile): number {
  return selfTimes(profile)
    .filter((entry) => !IDLE_FRAMES.has(entry.functionName))
    .reduce((sum, entry) => sum + entry.selfMs, 0);
}

/** `value` rounded to `digits` decimals, as a number for JSON (NaN and infinities become null). */
export function rounded(value: number, digits = 1): number | null {
  if (!Number.isFinite(value)) return null;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** What a site served, counted from its request log by a kind of path (see `requestKind` in `bench-sites.ts`). */
export interface ServedCounts<K extends string> {
  /** Every request logged, robots.txt and repeats included. */
  requests: number;
  /** Distinct paths requested, by kind. */
  distinct: Record<K, number>;
  /** Requests for a path that had been requested before: 0 when every URL was fetched once. */
  repeated: number;
}

/** Counts a request log by `kindOf(path)`, over the kinds named in `kinds` (others are counted in `requests` only). */
export function servedCounts<K extends string>(
  requests: readonly LoggedRequest[],
  kinds: readonly K[],
  kindOf: (path: string) => string,
): ServedCounts<K> {
  const distinct = Object.fromEntries(kinds.map((kind) => [kind, 0])) as Record<K, number>;
  const seen = new Set<string>();
  let repeated = 0;
  for (const request of requests) {
    if (seen.has(request.url)) {
      repeated += 1;
      continue;
    }
    seen.add(request.url);
    const kind = kindOf(request.url);
    if (kind in distinct) distinct[kind as K] += 1;
  }
  return { requests: requests.length, distinct, repeated };
}

/** What a crawler's CPU per page allows on this machine, against a reference rate (see {@link cpuBound}). */
export interface CpuBound {
  /** Pages per second were every core busy with it all the time: the most that CPU per page allows. */
  pagesPerSecond: number;
  /** That over the reference rate. */
  share: number;
  /** The most CPU per page, in ms, that still allows `goal` of the reference rate. */
  cpuMsPerPageForGoal: number;
}

/**
 * The bound that CPU puts on a rate: a crawler spending `cpuMsPerPage` of CPU (all its processes) on each
 * page fetches at most `cores × 1000 / cpuMsPerPage` pages a second, however well its work overlaps. Pure.
 * @param referencePagesPerSecond the rate to compare with (the minimal storing crawler's).
 * @param goal the share of the reference aimed at (0.8).
 */
export function cpuBound(cpuMsPerPage: number, cores: number, referencePagesPerSecond: number, goal: number): CpuBound {
  const pagesPerSecond = (cores * 1000) / cpuMsPerPage;
  return {
    pagesPerSecond,
    share: pagesPerSecond / referencePagesPerSecond,
    cpuMsPerPageForGoal: (cores * 1000) / (goal * referencePagesPerSecond),
  };
}

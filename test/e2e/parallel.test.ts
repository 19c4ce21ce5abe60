/**
 * More than one request at a time to a host (`requestsPerHost`, CLI
 * `--parallel`), end to end: the built extension crawls local sites whose
 * pages each take 20–40 ms to answer, and every claim is checked from the
 * server's own log of arrivals and ends. Parallel requests are used only with
 * no spacing to keep (delay 0, robots.txt read and without Crawl-delay);
 * otherwise the host gets one request at a time with its gap. In every case
 * robots.txt is requested first and alone, and no disallowed URL is requested.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import { startLocalSite, type LocalSite, type RequestLogEntry } from '../../src/shells/cli/local-site.ts';
import type { CrawlSettings } from '../../src/core/settings.ts';
import type { JsonlRow } from '../../src/export/jsonl.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import { crawlToEnd, exportRows, launch } from './helpers.ts';
import { requestCounts, serverGaps } from '../support/server-log.ts';

/**
 * The most requests the server had in flight at once, from its log: +1 at each
 * arrival, -1 at each end (ends first on a tie). The log stamps an end when the
 * handler hands over the last bytes (see `local-site.ts`), never after the
 * client has the response, and an arrival when the handler runs, never before
 * the client sent it: each logged span lies inside the client's, so this count
 * never exceeds what the crawler really had in flight, however loaded the machine.
 */
function peakInFlight(requests: RequestLogEntry[]): number {
  const events: [time: number, change: number][] = [];
  for (const r of requests) events.push([r.startedAt, 1], [r.endedAt ?? Number.POSITIVE_INFINITY, -1]);
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, change] of events) {
    now += change;
    peak = Math.max(peak, now);
  }
  return peak;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface PagedSite extends LocalSite {
  /** Paths of the pages served with 200 (the start page `/` first). */
  readonly pagePaths: string[];
  /** Paths under `/private/` the pages link to (robots.txt disallows them). */
  readonly privatePaths: string[];
}

/** The path of page `i`: `/` for the start page, `/p/i` otherwise. */
const pagePath = (i: number): string => (i === 0 ? '/' : `/p/${i}`);

/**
 * A site of `pages` HTML pages in a tree (page i links to pages 5i+1..5i+5, to
 * `/` and to its parent), each answered after 20–40 ms (a timer in the handler,
 * so overlapping requests overlap on the server). Some pages link into
 * `/private/`, which robots.txt disallows for everyone; `crawlDelay` adds a
 * Crawl-delay line to that group. `startLinks` are extra links of the start page.
 */
async function startPagedSite(options: {
  pages: number;
  crawlDelay?: string;
  startLinks?: () => string[];
}): Promise<PagedSite> {
  const { pages } = options;
  const privatePaths = ['/private/a', '/private/b', '/private/c'];
  const linksOf = (i: number): string[] => {
    const links = ['/'];
    if (i > 0) links.push(pagePath(Math.floor((i - 1) / 5)));
    for (let c = 5 * i + 1; c <= 5 * i + 5 && c < pages; c += 1) links.push(pagePath(c));
    if (i % 4 === 1) links.push(privatePaths[i % privatePaths.length] ?? '/private/a');
    if (i === 0) links.push(...(options.startLinks?.() ?? []));
    return links;
  };
  const handler =
    (i: number) =>
    async (_req: IncomingMessage, res: ServerResponse): Promise<void> => {
      await sleep(20 + ((i * 7) % 21));
      const body = `<!doctype html><title>page ${i}</title>${linksOf(i)
        .map((href) => `<a href="${href}">${href}</a>`)
        .join(' ')}`;
      res
        .writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-length': String(Buffer.byteLength(body)),
        })
        .end(body);
    };
  const robots = `User-agent: *\nDisallow: /private/\n${options.crawlDelay === undefined ? '' : `Crawl-delay: ${options.crawlDelay}\n`}`;
  const pagePaths = Array.from({ length: pages }, (_, i) => pagePath(i));
  const site = await startLocalSite([
    ['/robots.txt', { headers: { 'content-type': 'text/plain' }, body: robots, delayMs: 20 }],
    ...pagePaths.map((path, i) => [path, handler(i)] as const),
  ]);
  return Object.assign(site, { pagePaths, privatePaths });
}

/** Runs one crawl to its end (it must finish) and returns it with its rows. */
async function crawl(
  session: ExtensionSession,
  settings: Partial<CrawlSettings> & { startUrl: string },
): Promise<{ crawl: CrawlSummary; rows: JsonlRow[] }> {
  const done = await crawlToEnd(session, settings, undefined, 60_000);
  assert.equal(done.state, 'finished', done.message ?? '');
  return { crawl: done, rows: await exportRows(session, done.id) };
}

/** robots.txt is the site's first request, asked once, and nothing else arrived before its response ended. */
function assertRobotsFirstAndAlone(site: LocalSite): void {
  const [robots, ...rest] = site.requests;
  assert.equal(robots?.url, '/robots.txt', `${site.origin}: first request`);
  const robotsEnded = robots?.endedAt ?? null;
  assert.ok(robotsEnded !== null, `${site.origin}: robots.txt answered`);
  assert.equal(requestCounts(site.requests).get('/robots.txt'), 1, `${site.origin}: robots.txt requested once`);
  for (const r of rest) {
    assert.ok(
      r.startedAt >= robotsEnded,
      `${site.origin}: ${r.url} arrived ${(robotsEnded - r.startedAt).toFixed(1)} ms before robots.txt's response ended`,
    );
  }
}

/** Every page requested exactly once, no `/private/` URL requested, and nothing else. */
function assertRequestedOnce(site: PagedSite): void {
  assert.equal(
    site.requests.some((r) => r.url.startsWith('/private/')),
    false,
    `${site.origin}: a disallowed URL was requested`,
  );
  const counts = requestCounts(site.requests);
  for (const path of site.pagePaths)
    assert.equal(counts.get(path), 1, `${site.origin}${path} requested ${counts.get(path) ?? 0} times`);
  assert.deepEqual(
    [...counts.keys()].sort(),
    ['/robots.txt', ...site.pagePaths].sort(),
    `${site.origin}: only robots.txt and the pages requested`,
  );
}

/** The crawl's rows of the site: each page once with status 200, each linked `/private/` URL once, blocked by robots.txt. */
function assertRowsOf(site: PagedSite, rows: JsonlRow[]): void {
  const mine = rows.filter((row) => new URL(row.url).origin === site.origin);
  const paths = mine.map((row) => new URL(row.url).pathname);
  assert.deepEqual(
    [...paths].sort(),
    [...site.pagePaths, ...site.privatePaths].sort(),
    `${site.origin}: each URL once`,
  );
  for (const row of mine) {
    if (new URL(row.url).pathname.startsWith('/private/')) {
      assert.equal(row.blockedBy, 'robots', row.url);
      assert.equal(row.status, null, row.url);
    } else {
      assert.equal(row.status, 200, row.url);
      assert.equal(row.blockedBy, null, row.url);
    }
  }
}

describe('requestsPerHost 4 with delay 0 and no Crawl-delay: up to 4 requests at once', () => {
  let session: ExtensionSession;
  let site: PagedSite;
  let rows: JsonlRow[];

  before(async () => {
    site = await startPagedSite({ pages: 120 });
    session = await launch();
    ({ rows } = await crawl(session, { startUrl: `${site.origin}/`, delayMs: 0, requestsPerHost: 4 }));
  });

  after(async () => {
    await session?.close();
    await site?.close();
  });

  it('has at most 4 requests in flight at once, and at some moment at least 3', (t) => {
    const peak = peakInFlight(site.requests);
    t.diagnostic(`peak in flight: ${peak}`);
    assert.ok(peak <= 4, `${peak} requests in flight at once`);
    assert.ok(peak >= 3, `requests never overlapped beyond ${peak}`);
  });

  it('requests robots.txt first and alone', () => assertRobotsFirstAndAlone(site));

  it('requests every page exactly once and no disallowed URL', () => assertRequestedOnce(site));

  it('records every URL once: the pages with 200, the disallowed ones as blocked', () => {
    assert.equal(rows.length, site.pagePaths.length + site.privatePaths.length);
    assertRowsOf(site, rows);
  });
});

describe('requestsPerHost 4 but robots.txt sets a Crawl-delay: one request at a time', () => {
  let session: ExtensionSession;
  let site: PagedSite;
  let rows: JsonlRow[];
  const CRAWL_DELAY_MS = 50;

  before(async () => {
    site = await startPagedSite({ pages: 40, crawlDelay: '0.05' });
    session = await launch();
    ({ rows } = await crawl(session, { startUrl: `${site.origin}/`, delayMs: 0, requestsPerHost: 4 }));
  });

  after(async () => {
    await session?.close();
    await site?.close();
  });

  it('never has more than 1 request in flight, and keeps the Crawl-delay between them', (t) => {
    assert.equal(peakInFlight(site.requests), 1);
    const gaps = serverGaps(site.requests);
    t.diagnostic(`smallest gap: ${Math.min(...gaps).toFixed(1)} ms`);
    assert.equal(gaps.length, site.pagePaths.length);
    for (const gap of gaps)
      assert.ok(
        gap >= CRAWL_DELAY_MS,
        `a gap of ${gap.toFixed(1)} ms is shorter than the ${CRAWL_DELAY_MS} ms Crawl-delay`,
      );
  });

  it('requests robots.txt first and alone, every page once, no disallowed URL, and records them all', () => {
    assertRobotsFirstAndAlone(site);
    assertRequestedOnce(site);
    assertRowsOf(site, rows);
  });
});

describe('requestsPerHost 4 but a delay of 100 ms: one request at a time', () => {
  let session: ExtensionSession;
  let site: PagedSite;
  let rows: JsonlRow[];
  const DELAY_MS = 100;

  before(async () => {
    site = await startPagedSite({ pages: 30 });
    session = await launch();
    ({ rows } = await crawl(session, { startUrl: `${site.origin}/`, delayMs: DELAY_MS, requestsPerHost: 4 }));
  });

  after(async () => {
    await session?.close();
    await site?.close();
  });

  it('never has more than 1 request in flight, and keeps the delay between them', (t) => {
    assert.equal(peakInFlight(site.requests), 1);
    const gaps = serverGaps(site.requests);
    t.diagnostic(`smallest gap: ${Math.min(...gaps).toFixed(1)} ms`);
    assert.equal(gaps.length, site.pagePaths.length);
    for (const gap of gaps)
      assert.ok(gap >= DELAY_MS, `a gap of ${gap.toFixed(1)} ms is shorter than the ${DELAY_MS} ms delay`);
  });

  it('requests robots.txt first and alone, every page once, no disallowed URL, and records them all', () => {
    assertRobotsFirstAndAlone(site);
    assertRequestedOnce(site);
    assertRowsOf(site, rows);
  });
});

describe('requestsPerHost 4 on two sites, one with a Crawl-delay: each host by its own robots.txt', () => {
  let session: ExtensionSession;
  let open: PagedSite;
  let spaced: PagedSite;
  let rows: JsonlRow[];
  let spacedOrigin = '';
  const CRAWL_DELAY_MS = 50;

  before(async () => {
    open = await startPagedSite({ pages: 60, startLinks: () => [`${spacedOrigin}/`] });
    spaced = await startPagedSite({ pages: 20, crawlDelay: '0.05' });
    spacedOrigin = spaced.origin;
    session = await launch();
    let summary: CrawlSummary;
    ({ crawl: summary, rows } = await crawl(session, {
      startUrl: `${open.origin}/`,
      delayMs: 0,
      requestsPerHost: 4,
      extraOrigins: [spaced.origin],
    }));
    assert.deepEqual(summary.settings.extraOrigins, [spaced.origin]);
  });

  after(async () => {
    await session?.close();
    await open?.close();
    await spaced?.close();
  });

  it('has 3 or 4 requests at once in flight to the site without Crawl-delay, never more', (t) => {
    const peak = peakInFlight(open.requests);
    t.diagnostic(`peak in flight on the open site: ${peak}`);
    assert.ok(peak <= 4, `${peak} requests in flight at once`);
    assert.ok(peak >= 3, `requests never overlapped beyond ${peak}`);
  });

  it('has one request at a time to the site with a Crawl-delay, each after the Crawl-delay', (t) => {
    assert.equal(peakInFlight(spaced.requests), 1);
    const gaps = serverGaps(spaced.requests);
    t.diagnostic(`smallest gap on the Crawl-delay site: ${Math.min(...gaps).toFixed(1)} ms`);
    assert.equal(gaps.length, spaced.pagePaths.length);
    for (const gap of gaps)
      assert.ok(
        gap >= CRAWL_DELAY_MS,
        `a gap of ${gap.toFixed(1)} ms is shorter than the ${CRAWL_DELAY_MS} ms Crawl-delay`,
      );
  });

  it("requests each site's robots.txt first and alone, every page once, no disallowed URL, and records them all", () => {
    for (const site of [open, spaced]) {
      assertRobotsFirstAndAlone(site);
      assertRequestedOnce(site);
      assertRowsOf(site, rows);
    }
    assert.equal(
      rows.length,
      open.pagePaths.length + open.privatePaths.length + spaced.pagePaths.length + spaced.privatePaths.length,
    );
  });
});
